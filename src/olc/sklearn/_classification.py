"""The classifier drop-ins' training: scikit-learn's ``BaseSGDClassifier._partial_fit`` /
``_fit`` / ``fit_binary`` (sklearn/linear_model/_stochastic_gradient.py) with each binary
problem's epochs run by olc's compiled loop (``_epochs``).

Two classes: one problem, classes_[1] positive, weights class_weight[1] / class_weight[0].
K ≥ 3: one-vs-rest, problem i is "classes_[i] against the rest" with weights
class_weight[i] / 1 (scikit-learn's), each with its own seed (drawn from ``random_state``
as scikit-learn draws them), so its own shuffled orders and its own stopping epoch;
``n_iter_`` is the largest. A row's update is multiplied by class weight × sample weight
(``SklearnHP.ROW_WEIGHTS``); on CSR input the bias takes 1/100 of each step
(``SklearnHP.INTERCEPT_DECAY``).

The random draws happen in scikit-learn's order (``make_dataset``'s draw, the validation
split, the shuffle seed), so the same ``random_state`` gives the same orders."""
import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.linear_model._base import LinearClassifierMixin, SparseCoefMixin
from sklearn.metrics import accuracy_score
from sklearn.utils import check_random_state, compute_class_weight
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.multiclass import _check_partial_fit_first_call
from sklearn.utils.validation import _check_sample_weight, validate_data

from .._compiled.driver.inputs import LoopInput
from . import _base
from ._epochs import EpochPlan, run_epochs
from ._shuffle import epoch_permutation

_BINARY_CLASSES = np.array([-1.0, 1.0])


def _binary_accuracy(X_val, y_val, sw_val):
    """scikit-learn's validation score of one binary problem: the accuracy (weighted) of
    sign(X·coef + intercept) > 0 against y ∈ {−1, +1}."""
    def score(coef, intercept):
        decision = safe_sparse_dot(X_val, coef.reshape(-1, 1), dense_output=True).ravel()
        pred = np.where(decision + intercept > 0, 1.0, -1.0)
        return accuracy_score(y_val, pred, sample_weight=sw_val)
    return score


class DropInClassifier(LinearClassifierMixin, SparseCoefMixin, BaseEstimator):
    """Shared by ``PassiveAggressiveClassifier`` and ``Perceptron``: subclasses name the olc
    learner of one binary problem (``_olc_learner``) and the loss the tol rule measures
    (``_epoch_losses``)."""

    def _olc_learner(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _epoch_losses(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _hp_extension(self):
        """Fields of the rule's extension after ``SklearnHP``'s (None: the rule has none;
        then the hp is extended only for row weights or the intercept decay). With them the
        rule also reports each row's penalty, which the epoch objective adds."""
        return None

    # -- scikit-learn's entry points -----------------------------------------------------
    def _fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        if hasattr(self, "classes_"):
            del self.classes_  # otherwise _partial_fit takes this for a later call
        y = validate_data(self, y=y)
        classes = np.unique(y)
        if self.warm_start and hasattr(self, "coef_"):
            if coef_init is None:
                coef_init = self.coef_
            if intercept_init is None:
                intercept_init = self.intercept_
        else:
            self.coef_ = None
            self.intercept_ = None
        self._olc_learners = None
        self.t_ = 1.0
        self._partial_fit(X, y, self.max_iter, classes, sample_weight, coef_init,
                          intercept_init)
        _base.convergence_warning(self)
        return self

    def _first_partial_fit_checks(self):
        if not hasattr(self, "classes_"):
            _base.more_validate_params(self, for_partial_fit=True)
            if self.class_weight == "balanced":
                raise ValueError(
                    "class_weight 'balanced' is not supported for partial_fit. In order to "
                    "use 'balanced' weights, use compute_class_weight('balanced', "
                    "classes=classes, y=y). In place of y you can use a large enough sample "
                    "of the full training set target to properly estimate the class "
                    "frequency distributions. Pass the resulting weights as the "
                    "class_weight parameter.")

    def _partial_fit(self, X, y, max_iter, classes, sample_weight, coef_init, intercept_init):
        first_call = not hasattr(self, "classes_")
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32],
                             order="C", accept_large_sparse=False, reset=first_call)
        n_samples, n_features = X.shape
        _check_partial_fit_first_call(self, classes)
        self._check_labels(y)
        class_weight = self._class_weights(y)
        sample_weight = _check_sample_weight(sample_weight, X, dtype=X.dtype,
                                             allow_all_zero_weights=self.early_stopping)
        n_classes = self.classes_.shape[0]
        if n_classes < 2:
            raise ValueError("The number of classes has to be greater than one; got "
                             f"{n_classes} class")
        if getattr(self, "coef_", None) is None or coef_init is not None:
            self._allocate(n_classes, n_features, X.dtype, coef_init, intercept_init)
        elif n_features != self.coef_.shape[-1]:
            raise ValueError(f"Number of features {n_features} does not match previous data "
                             f"{self.coef_.shape[-1]}.")
        if not hasattr(self, "t_"):
            self.t_ = 1.0
        self._learn(X, y, max_iter, class_weight, sample_weight)
        return self

    # -- checks and allocation -----------------------------------------------------------
    def _check_labels(self, y):
        classes = self.classes_  # sorted (np.unique / unique_labels)
        try:  # one binary search per label: no sort of y (np.unique) on every call
            position = np.minimum(np.searchsorted(classes, y), classes.shape[0] - 1)
            known = np.all(classes[position] == y)
        except TypeError:  # labels that do not compare with the classes (str against int)
            known = False
        if known:
            return
        unknown = np.setdiff1d(np.unique(y), classes)
        if unknown.size:
            raise ValueError(f"y contains label(s) {unknown.tolist()} that are not in "
                             f"classes_ {self.classes_.tolist()} (pass every label in "
                             "classes= on the first call to partial_fit)")

    def _class_weights(self, y):
        cw = self.class_weight
        if isinstance(cw, dict):
            known = {c.item() if hasattr(c, "item") else c for c in self.classes_}
            for key in cw:
                if key not in known:
                    raise ValueError(f"class_weight has a weight for class {key!r}, which is "
                                     f"not one of the classes {sorted(known, key=str)}")
        if cw is None or (isinstance(cw, dict) and not cw):
            # compute_class_weight's ones, without its check that y ⊆ classes_ (a set of
            # every label): _check_labels has made it
            return np.ones(self.classes_.shape[0])
        return np.asarray(compute_class_weight(cw, classes=self.classes_, y=y),
                          dtype=np.float64)

    def _allocate(self, n_classes, n_features, dtype, coef_init, intercept_init):
        """scikit-learn's ``_allocate_parameter_mem`` (shapes and messages)."""
        rows = n_classes if n_classes > 2 else 1
        if coef_init is not None:
            coef = np.asarray(coef_init, dtype=dtype, order="C")
            if rows == 1:
                coef = coef.ravel()
                if coef.shape != (n_features,):
                    raise ValueError("Provided coef_init does not match dataset.")
            elif coef.shape != (n_classes, n_features):
                raise ValueError("Provided ``coef_`` does not match dataset. ")
            coef = coef.reshape(rows, n_features)
        else:
            coef = np.zeros((rows, n_features), dtype=dtype)
        if intercept_init is not None:
            intercept = np.asarray(intercept_init, dtype=dtype)
            if rows == 1 and intercept.shape not in ((1,), ()):
                raise ValueError("Provided intercept_init does not match dataset.")
            if rows > 1 and intercept.shape != (n_classes,):
                raise ValueError("Provided intercept_init does not match dataset.")
            intercept = intercept.reshape(rows)
        else:
            intercept = np.zeros(rows, dtype=dtype)
        # copies: the model is learned in coef_ itself, never in the caller's arrays
        self.coef_ = np.array(coef) if coef_init is not None else coef
        self.intercept_ = np.array(intercept)
        self._olc_learners = None

    # -- learning ------------------------------------------------------------------------
    def _problems(self, y, class_weight, sample_weight):
        """(class index, positive weight, negative weight, random state, validation mask) of
        each binary problem, with scikit-learn's draws."""
        if len(self.classes_) == 2:
            return [(1, class_weight[1], class_weight[0], self.random_state, None)]
        mask = _base.validation_split(self, y, sample_weight > 0, stratified=True)
        seeds = check_random_state(self.random_state).randint(_base.MAX_INT,
                                                              size=len(self.classes_))
        return [(i, class_weight[i], 1.0, seed, mask) for i, seed in enumerate(seeds)]

    def _learners(self, n_problems):
        if getattr(self, "_olc_learners", None) is None or \
                len(self._olc_learners) != n_problems:
            self._olc_learners = [None] * n_problems
        return self._olc_learners

    def _learn(self, X, y, max_iter, class_weight, sample_weight):
        X_loop = _base.loop_matrix(X)
        loop_input = LoopInput(X_loop)
        decay = _base.SPARSE_INTERCEPT_DECAY if sp.issparse(X) else 1.0
        n, d = X.shape
        if sp.issparse(self.coef_):  # after sparsify(): learn on the dense weights
            self.coef_ = self.coef_.toarray()
        problems = self._problems(y, class_weight, sample_weight)
        learners = self._learners(len(problems))
        for k in range(len(problems)):  # in order, before any thread starts
            if learners[k] is None or not self.average:
                cls, params = self._olc_learner()
                learners[k] = _base.make_learner(cls, self.average, **params)
                _base.seat(learners[k], self.coef_[k:k + 1], float(self.intercept_[k]), d,
                           _BINARY_CLASSES)
        if self.average:
            self._allocate_average_parts()
        extra = self._hp_extension()
        hps = {weighted: _base.extended_hp(learners[0], weighted, decay, extra)
               for weighted in (False, True)}  # the K problems share their hyper-parameters

        def learn_problem(k):
            i, pos, neg, random_state, mask = problems[k]
            learner = learners[k]
            y_i = np.where(y == self.classes_[i], 1.0, -1.0)
            rng = check_random_state(random_state)
            rng.randint(1, np.iinfo(np.int32).max)  # make_dataset's (unused) draw
            if mask is None:
                mask = _base.validation_split(self, y_i, sample_weight > 0, stratified=True)
            seed = rng.randint(_base.MAX_INT)
            weights = np.where(y_i > 0, pos, neg) * sample_weight.astype(np.float64)
            weighted = not np.all(weights == 1.0)
            targets = np.copysign(weights, y_i) if weighted else y_i
            stream = _base.prepared(loop_input, X_loop, targets, hps[weighted],
                                    _BINARY_CLASSES)
            score = None
            if self.early_stopping:
                score = _binary_accuracy(X[mask], y_i[mask], sample_weight[mask])
            permutation = epoch_permutation(n, seed) if self.shuffle else None
            plan = EpochPlan(n, mask, permutation, max_iter, self.tol, self.n_iter_no_change,
                             self.early_stopping, self._epoch_losses(), score,
                             penalized=extra is not None)
            if hasattr(learner, "begin_call"):  # a learner with per-call state (_penalized)
                learner.begin_call()
            n_iter = run_epochs(learner, stream, y_i, plan,
                                lambda: _base.state_model(learner))
            if hasattr(learner, "end_call"):
                learner.end_call()
            self._write_back(k, learner)
            return n_iter

        n_iter = max(_base.each_problem(learn_problem, len(problems), self.n_jobs))
        self.t_ += n_iter * n
        self.n_iter_ = n_iter

    def _allocate_average_parts(self):
        """The averaged model's standard and average parts, (re)allocated before the
        problems learn (on threads, each writes its own row)."""
        rows = self.coef_.shape[0]
        for name, shape in (("_standard_coef", self.coef_.shape),
                            ("_average_coef", self.coef_.shape),
                            ("_standard_intercept", (rows,)),
                            ("_average_intercept", (rows,))):
            if getattr(self, name, None) is None or np.shape(getattr(self, name)) != shape:
                setattr(self, name, np.zeros(shape))

    def _write_back(self, k, learner):
        if _base.learned_in_place(learner, self.coef_) and not self.average:
            self.intercept_[k] = _base.state_model(learner, weights=False)[1]
            return
        if not self.average and hasattr(learner, "model_into"):  # (_penalized)
            self.intercept_[k] = learner.model_into(self.coef_[k])
            return
        coef, intercept = learner._linear_model()
        self.coef_[k] = coef
        self.intercept_[k] = intercept
        if self.average:
            w, b = _base.state_model(learner)
            self._standard_coef[k], self._standard_intercept[k] = w, b
            self._average_coef[k], self._average_intercept[k] = coef, intercept

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
