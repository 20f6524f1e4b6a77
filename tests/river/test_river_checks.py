"""River's own estimator checks (``river.checks.yield_checks``, what
``river.checks.check_estimator`` runs) on every olc learner wrapped by ``olc.river``.

How each learner is set up, and the checks that cannot pass (with the reason), as
tests/contract/test_contract_sklearn.py does for scikit-learn:

- the learners whose state cannot grow exactly (their layout ``refuses`` growth) declare the
  data set's features (``features=``), as a user of them must;
- Winnow reads x ∈ {0, 1}: it runs behind River's ``preprocessing.Binarizer`` (a pipeline,
  as a user would build it); every check passes;
- Weighted Majority and RWM read one ±1 prediction per expert (feature) on every example:
  they run behind a transformer mapping each value to ±1. The checks in which features
  emerge or disappear cannot pass: an absent expert gave no prediction, which these
  algorithms have no rule for (Littlestone & Warmuth 1994, every expert predicts every
  round) — olc.river raises a clear error naming the expert instead of guessing a vote;
- ``sgd-regression`` runs with a step size TrumpApproval's unscaled features allow
  (ordinal dates ≈ 7.4e5, so a stable SGD step needs η‖x‖² < 2, η < 4e-12); with a larger one
  it diverges, which olc reports as an overflow (River's own SGD models clip the gradient
  instead).
"""
import pytest

river = pytest.importorskip("river")

from river import base, checks, compose, datasets, preprocessing  # noqa: E402

import olc  # noqa: E402
import olc.river  # noqa: E402
from _support import CLASSIFIERS, DOMAIN, FIXED, REGRESSORS  # noqa: E402

NO_EXPERT_MISSING = "an absent expert gave no prediction (every expert must vote every round)"
CANNOT_PASS = {
    name: {"check_emerging_features": NO_EXPERT_MISSING,
           "check_disappearing_features": NO_EXPERT_MISSING,
           "check_radically_disappearing_features": NO_EXPERT_MISSING,
           "check_learn_many_matches_learn_one": NO_EXPERT_MISSING + "; its batches drop "
                                                 "half of the features"}
    for name, domain in DOMAIN.items() if domain == "sign"}
PARAMS = {"sgd-regression": {"eta0": 1e-12, "schedule": "constant"}}


class ToSign(base.Transformer):
    """x ↦ +1 where x > 0.5, −1 elsewhere (the experts' votes)."""

    def transform_one(self, x):
        return {k: 1.0 if v > 0.5 else -1.0 for k, v in x.items()}

    def transform_many(self, X):
        return (X > 0.5) * 2.0 - 1.0


def _features(name):
    dataset = datasets.Phishing() if name in CLASSIFIERS else datasets.TrumpApproval()
    return list(next(iter(dataset))[0])


def _model(name):
    model = olc.river.make(name, features=_features(name) if name in FIXED else None,
                           **PARAMS.get(name, {}))
    if DOMAIN.get(name) == "binary":
        return compose.Pipeline(preprocessing.Binarizer(threshold=0.5), model)
    if DOMAIN.get(name) == "sign":
        return compose.Pipeline(ToSign(), model)
    return model


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", CLASSIFIERS + REGRESSORS)
def test_river_checks(name):
    model = _model(name)
    expected = CANNOT_PASS.get(name, {})
    failed = {}
    ran = set()
    for check in checks.yield_checks(model):
        ran.add(check.__name__)
        try:
            check(model.clone())
        except Exception as exc:  # noqa: BLE001 - a check's failure, reported below
            failed.setdefault(check.__name__, f"{type(exc).__name__}: {exc}")
    # The checks that matter for a mini-batch binary classifier / regressor all ran.
    assert {"check_learn_one", "check_emerging_features", "check_pickling",
            "check_predict_one_before_any_learn", "check_bounded_memory_growth"} <= ran
    if name in CLASSIFIERS and DOMAIN.get(name) is None:
        assert {"check_predict_proba_one_binary", "check_learn_many_matches_learn_one",
                "check_predict_proba_many_matches_predict_proba_one"} <= ran
    unexpected = {k: v for k, v in failed.items() if k not in expected}
    assert not unexpected, unexpected
    assert set(failed) == set(expected), f"now passing: {set(expected) - set(failed)}"
    for check_name in expected:
        assert "gave no prediction" in failed[check_name]


def test_the_wrapper_itself_is_a_river_mini_batch_estimator():
    assert isinstance(olc.river.make("pa-i"), base.MiniBatchClassifier)
    assert isinstance(olc.river.make("pa-regression"), base.MiniBatchRegressor)
    assert not olc.river.make("pa-i")._multiclass
