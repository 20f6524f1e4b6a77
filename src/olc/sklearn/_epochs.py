"""Epochs of one binary (or regression) problem, as scikit-learn's ``_plain_sgd`` runs them
(``sklearn/linear_model/_sgd_fast.pyx.tp``), each epoch one call of olc's compiled loop.

Per epoch: the order is shuffled (``_shuffle``: the dataset's index array, carried over,
permuted by the same Fisher–Yates pass), validation rows are skipped, and every other row is
learned in that order (predict, then update: ``learn_prepared``). Then, as ``_plain_sgd``:
- with ``early_stopping``: the validation score s of the new model; an epoch "does not
  improve" when tol is set and s < best + tol; best = max(best, s);
- otherwise: the mean training loss L of the epoch, the sum of each row's loss at the score
  it had *before* its update, added left to right (the same float64 sum; with a penalty,
  each row's penalty at the weights before its update is added after its loss, as
  scikit-learn's objective does); an epoch does not
  improve when tol is set and L > best − tol; best = min(best, L);
- after ``n_iter_no_change`` epochs in a row that do not improve, stop.
A model that is no longer finite raises scikit-learn's overflow error. Returns the number of
epochs run (``n_iter_``)."""
import math

import numpy as np

from ..learners._framework.validation import StreamStoppedError


def hinge_losses(threshold):
    """scikit-learn's ``Hinge(threshold)``: ℓ = threshold − y·p when y·p ≤ threshold, else 0
    (threshold 1: the PA classifier's loss; 0: the perceptron's)."""
    def losses(y, p):
        z = p * y
        return np.where(z <= threshold, threshold - z, 0.0)
    return losses


def epsilon_insensitive_losses(epsilon):
    """scikit-learn's ``EpsilonInsensitive(ε)``: ℓ = max(0, |y − p| − ε)."""
    def losses(y, p):
        r = np.abs(y - p) - epsilon
        return np.where(r > 0, r, 0.0)
    return losses


class EpochPlan:
    """What stays fixed over the epochs of one problem: the rows, the validation mask, the
    shuffle, the stopping rule (scikit-learn's parameters) and the loss."""

    def __init__(self, n_rows, validation_mask, shuffle_permutation, max_iter, tol,
                 n_iter_no_change, early_stopping, losses, validation_score=None,
                 penalized=False):
        self.n_rows = n_rows
        self.mask = validation_mask
        self.permutation = shuffle_permutation  # None: no shuffle
        self.max_iter = int(max_iter)
        self.tol = -math.inf if tol is None else float(tol)
        self.n_iter_no_change = int(n_iter_no_change)
        self.early_stopping = bool(early_stopping)
        self.losses = losses
        self.validation_score = validation_score  # (coef, intercept) -> score
        # the rule reports each row's penalty (record.aux), which the objective adds
        self.penalized = bool(penalized)
        self.train_count = n_rows - int(np.count_nonzero(validation_mask))


def run_epochs(learner, stream, y_true, plan, model):
    """Learn ``stream`` (a PreparedStream of ``learner``) for up to ``plan.max_iter`` epochs.

    ``y_true``: the targets the loss is measured on (±1 labels or real values, by row);
    ``model()``: the current (coef, intercept) of the learner. Returns the epochs run."""
    index = np.arange(plan.n_rows, dtype=np.int64)
    has_validation = plan.train_count < plan.n_rows
    best_objective, best_score = math.inf, -math.inf
    no_improvement = 0
    epoch = 0
    for epoch in range(plan.max_iter):
        if plan.permutation is not None:
            index = index[plan.permutation]
        order = index[~plan.mask[index]] if has_validation else index
        try:
            record = learner.learn_prepared(stream, 0, order.shape[0], order=order)
        except StreamStoppedError as exc:
            raise ValueError(f"Floating-point under-/overflow occurred at epoch #{epoch + 1}. "
                             "Scaling input data with StandardScaler or MinMaxScaler might "
                             f"help. ({exc})") from None
        if plan.early_stopping:
            score = plan.validation_score(*model())
            if plan.tol > -math.inf and score < best_score + plan.tol:
                no_improvement += 1
            else:
                no_improvement = 0
            if score > best_score:
                best_score = score
        elif plan.tol > -math.inf:  # without tol the loss decides nothing
            losses = plan.losses(y_true[order], record.score)
            if plan.penalized:  # loss, then penalty, row by row: scikit-learn's two adds
                losses = np.column_stack([losses, record.aux]).ravel()
            # scikit-learn adds the losses one by one: a cumulative sum is that order
            total = float(np.cumsum(losses)[-1]) if losses.size else 0.0
            objective = total / plan.train_count
            if objective > best_objective - plan.tol:
                no_improvement += 1
            else:
                no_improvement = 0
            if objective < best_objective:
                best_objective = objective
        if no_improvement >= plan.n_iter_no_change:
            break
    return epoch + 1
