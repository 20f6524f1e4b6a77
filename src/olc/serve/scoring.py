"""Decision values for the predict route without re-validating the learner's parameters on
every request.

``decision_function`` checks and packs the hyper-parameters on each call (~60 µs of the
~110 µs a one-row call costs at d = 100; the compiled score itself is ~2 µs). A served
model's parameters never change, and its state changes only when the writer learns (which
moves ``n_steps_``) or rebuilds it (a new learner object), so the packed parameters are kept
per (learner, ``n_steps_``) and recomputed after every batch, as are the fitted-state checks
and the state arrays (replaced only by learning or by a new learner). The values are those of
``learner.decision_function``: the same compiled scorer is called with the same arguments,
for dense rows and CSR ones (one sparse row: 126 → 25 µs).
Learners whose scoring is their own (a ``decision_function`` or ``_decision_values`` of their
class, one-vs-rest with K ≥ 3 classes) are scored by ``decision_function`` itself."""
from .._compiled.driver.binary import decision_values
from .._compiled.driver.inputs import LoopInput
from ..learners._framework.classifier import OnlineLinearClassifier
from ..learners._framework.model import OnlineLinearModel

__all__ = ["Scorer"]


def _shared_scoring(cls):
    """Whether ``cls`` scores through the framework's binary path unchanged."""
    return (getattr(cls, "decision_function", None) is OnlineLinearClassifier.decision_function
            and getattr(cls, "_decision_values", None) is OnlineLinearModel._decision_values
            and getattr(cls, "_prepare_X", None) is OnlineLinearModel._prepare_X)


class Scorer:
    """``scores(learner, X)`` = ``learner.decision_function(X)``, called under the model's
    lock (the caller's: the cache is read and written under it)."""

    def __init__(self):
        self.learner = None
        self.steps = None
        self.hp = None
        self.state = None

    def scores(self, learner, X):
        if not _shared_scoring(type(learner)) or learner._is_multiclass():
            return learner.decision_function(X)
        steps = getattr(learner, "n_steps_", None)
        if learner is not self.learner or steps != self.steps:
            self.learner = None
            learner._check_fitted()
            self.hp = learner._hyperparameters()
            self.state = learner._writable_state()
            self.learner, self.steps = learner, steps
        X = learner._prepare_X(X, reset=False)
        vecs, ints, scal = self.state
        values, bad = decision_values(learner._rule, LoopInput(X), vecs, ints, scal, self.hp)
        if bad >= 0:  # the learner's own message
            return learner.decision_function(X)
        return values
