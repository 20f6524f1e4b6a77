"""``average=``: parameters, errors, persistence (files of the release before averaging load
unchanged; averaged models round-trip), the CLI card, OBPM members, River's one-example path
and parameter mixing."""
from pathlib import Path

import numpy as np
import pytest

import olc
from olc.learners.registry.cards import card_data
from olc.learners import ParameterError
from olc.learners import InputError
from olc.persistence import PersistenceError

from _cases import ALL, case_id, fit_args, is_classifier, stream, targets

FIXTURES = Path(__file__).parent / "fixtures"
WITH_AVERAGE = sorted({name for name, _ in ALL})


def test_the_learners_with_average():
    have = sorted(e.name for e in olc.algorithms() if "average" in e.parameters)
    assert have == WITH_AVERAGE
    for name in have:
        assert olc.make(name).get_params()["average"] is False


@pytest.mark.parametrize("name", ["arow", "e-omm", "romma", "obpm", "winnow",
                                  "arow-regression", "norma"])
def test_average_on_a_learner_without_it_is_the_unknown_parameter_error(name):
    with pytest.raises(TypeError, match=rf"{name} has no parameter\(s\) average"):
        olc.make(name, average=True)


@pytest.mark.parametrize("value", [0, -1, 1.0, 2.5, "yes", None, [1]])
@pytest.mark.parametrize("name", WITH_AVERAGE)
def test_invalid_values_are_the_declared_constraint_error(name, value):
    X, y, target = stream(seed=0, n=10)
    learner = olc.make(name, average=value)
    message = (rf"The 'average' parameter of {type(learner).__name__} must be an int in the "
               rf"range \(0, inf\) or an instance of 'bool' or an instance of 'numpy.bool'. "
               rf"Got {value!r} instead.".replace("[", r"\[").replace("]", r"\]"))
    with pytest.raises(ParameterError, match=message):
        learner.fit(X, targets(name, y, target))
    assert not hasattr(learner, "coef_") or not learner._is_initialised()


def test_scikit_learn_validates_the_same_declaration():
    from sklearn.utils._param_validation import InvalidParameterError, validate_parameter_constraints

    from olc.learners._framework.constraints import to_sklearn
    from olc.learners.perceptron import Perceptron

    sk = to_sklearn(Perceptron._olc_constraints)
    for ok in (True, False, 1, 7, np.int64(3), np.bool_(True)):
        validate_parameter_constraints(sk, {"average": ok}, "Perceptron")
    for bad in (0, -2, 1.5, "x"):
        with pytest.raises(InvalidParameterError):
            validate_parameter_constraints(sk, {"average": bad}, "Perceptron")


def test_switching_average_after_fitting_is_refused_before_any_work():
    X, y, _ = stream(seed=1)
    plain = olc.make("pa-i").fit(X, y)
    plain.set_params(average=True)
    before = plain._vecs.copy()
    for call in (lambda: plain.partial_fit(X, y), lambda: plain.decision_function(X),
                 lambda: plain.coef_):
        with pytest.raises(InputError, match=r"average=True does not match the fitted state "
                                             r"\(fitted without averaging\): call fit"):
            call()
    np.testing.assert_array_equal(plain._vecs, before)
    plain.fit(X, y)  # fit starts over with the new setting
    assert plain.average_count_ == X.shape[0]
    averaged = olc.make("sgd", average=3).fit(X, y)
    averaged.set_params(average=False)
    with pytest.raises(InputError, match=r"fitted with averaging"):
        averaged.predict(X)
    averaged.set_params(average=10)  # another start is fine: averaging continues
    averaged.partial_fit(X, y)


def test_obpm_members_cannot_average():
    X, y, _ = stream(seed=1)
    with pytest.raises(InputError, match=r"base_params: average=True is not supported for "
                                         r"OBPM members"):
        olc.make("obpm", N=3, base="pa-i", base_params={"average": True}).fit(X, y)
    olc.make("obpm", N=3, base="pa-i", base_params={"average": False}).fit(X, y)


@pytest.mark.parametrize("name", WITH_AVERAGE)
def test_the_card_shows_average(name):
    params = {p["name"]: p for p in card_data(name)["parameters"]}
    assert params["average"]["default"] is False
    assert params["average"]["constraint"] == "int > 0 or bool"


def test_olc_algorithms_prints_average():
    from typer.testing import CliRunner

    from olc.cli import app

    res = CliRunner().invoke(app, ["algorithms", "perceptron"])
    assert res.exit_code == 0
    assert "average = False" in res.output and "int > 0 or bool" in res.output


# -- persistence ---------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["perceptron", "pa-i", "sgd", "generalized-perceptron",
                                 "pa-i-regression", "sgd-regression", "pa-ii-ovr"])
def test_files_of_the_release_without_averaging_load_and_predict_unchanged(key):
    """Written by olc before averaging existed (``fixtures/make_main_files.py``): they load,
    predict as the same learner trained now, and keep learning identically."""
    data = np.load(FIXTURES / "stream.npz")
    X = data["X"]
    name = "pa-ii" if key == "pa-ii-ovr" else key
    target = {"pa-ii-ovr": data["y3"]}.get(key, data["t"] if "regression" in key else data["y"])
    loaded = olc.load(FIXTURES / f"{key}.npz")
    assert loaded.get_params()["average"] is False
    params = {k: v for k, v in loaded.get_params().items()}
    fresh = olc.make(name, **params).fit(X, target)
    for attr in ("_vecs", "_ints", "_scal"):
        np.testing.assert_array_equal(getattr(loaded, attr), getattr(fresh, attr))
    values = (lambda m: m.decision_function(X)) if is_classifier(name) else (
        lambda m: m.predict(X))
    np.testing.assert_array_equal(values(loaded), values(fresh))
    loaded.partial_fit(X[:7], target[:7])
    fresh.partial_fit(X[:7], target[:7])
    np.testing.assert_array_equal(loaded._vecs, fresh._vecs)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("case", ALL, ids=[case_id(c) for c in ALL])
def test_averaged_models_round_trip_and_continue_identically(case, n_classes, tmp_path):
    name, params = case
    if n_classes > 2 and not is_classifier(name):
        pytest.skip("regressors have no classes")
    X, y, target = stream(seed=4, n_classes=n_classes)
    t = targets(name, y, target)
    args = fit_args(name, n_classes)
    whole = olc.make(name, average=5, **params).partial_fit(X, t, **args)
    first = olc.make(name, average=5, **params).partial_fit(X[:30], t[:30], **args)
    loaded = olc.load(olc.save(first, tmp_path / "m"))
    assert loaded.get_params() == first.get_params()
    for attr in ("_vecs", "_ints", "_scal"):
        np.testing.assert_array_equal(getattr(loaded, attr), getattr(first, attr))
    loaded.partial_fit(X[30:], t[30:])
    for attr in ("_vecs", "_ints", "_scal"):
        np.testing.assert_array_equal(getattr(loaded, attr), getattr(whole, attr))
    np.testing.assert_array_equal(loaded.coef_, whole.coef_)


def _resave(path, tmp_path, edit):
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    edit(arrays)
    out = tmp_path / "edited.npz"
    np.savez(out, **arrays)
    return out


def test_an_averaged_file_and_a_plain_learner_do_not_mix(tmp_path):
    """A file's layout is the learner's (averaged or not): state of the other kind, or a
    broken averaging block, is refused with the field named."""
    X, y, _ = stream(seed=2)
    path = olc.save(olc.make("perceptron", average=True).fit(X, y), tmp_path / "a")
    layout = olc.make("perceptron", average=True)._layout.scalars

    def drop_sum_row(arrays):
        arrays["vecs"] = arrays["vecs"][:1]

    with pytest.raises(PersistenceError, match=r"vecs: expected 2 rows"):
        olc.load(_resave(path, tmp_path, drop_sum_row))

    def bad_count(arrays):
        arrays["scal"][layout.AVG_COUNT] = arrays["scal"][layout.AVG_ROWS] + 1

    with pytest.raises(PersistenceError, match=r"avg_count ≤ avg_rows"):
        olc.load(_resave(path, tmp_path, bad_count))

    def bad_b(arrays):
        arrays["scal"][layout.AVG_B] = 0.5

    with pytest.raises(PersistenceError, match=r"avg_b ≥ 1"):
        olc.load(_resave(path, tmp_path, bad_b))

    import json

    def as_plain(arrays):
        meta = json.loads(str(arrays["meta"]))
        meta["params"]["average"] = False
        arrays["meta"] = np.array(json.dumps(meta))

    with pytest.raises(PersistenceError, match=r"uses layout 936bba004a746723"):
        olc.load(_resave(path, tmp_path, as_plain))


def test_plain_layouts_keep_the_fingerprints_of_the_release():
    """The state layout of a learner without averaging is the release's (its files carry
    this fingerprint: ``fixtures``)."""
    import json

    for key in ("perceptron", "pa-i", "sgd", "generalized-perceptron", "pa-i-regression",
                "sgd-regression"):
        with np.load(FIXTURES / f"{key}.npz", allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
        assert olc.make(key)._layout.fingerprint == meta["layout"]["fingerprint"], key


# -- River's one-example path and parameter mixing ----------------------------------------------

@pytest.mark.parametrize("case", ALL, ids=[case_id(c) for c in ALL])
def test_river_learn_one_equals_partial_fit(case):
    pytest.importorskip("river")
    import scipy.sparse as sp

    import olc.river

    name, params = case
    rng = np.random.default_rng(3)
    n, pool = 60, 12
    rows, ys = [], []
    for i in range(n):
        k = min(pool, 3 + i // 5)  # features appear over time: the state grows
        keys = rng.choice(k, size=rng.integers(1, k + 1), replace=False)
        rows.append({f"f{j}": float(rng.normal()) for j in keys})
        ys.append(bool(rng.random() < 0.5) if is_classifier(name) else float(rng.normal()))
    est = olc.make(name, average=4, **params)
    from olc.river.growth import refusal

    # a learner whose state cannot grow exactly declares its features (the others grow)
    features = [f"f{j}" for j in range(pool)] if refusal(est) else None
    model = (olc.river.Classifier(est, features=features) if is_classifier(name)
             else olc.river.Regressor(est, features=features))
    before = []
    for x, y in zip(rows, ys):
        before.append(model.decision_one(x) if hasattr(model, "decision_one")
                      else model.predict_one(x))
        model.learn_one(x, y)
    names = model._columns.names
    col = {c: j for j, c in enumerate(names)}
    X = sp.lil_matrix((n, len(names)))
    for i, x in enumerate(rows):
        for key, value in x.items():
            X[i, col[key]] = value
    X = X.tocsr()
    ref = olc.make(name, average=4, **params)
    target = np.array(ys)
    ref.partial_fit(X, target, **({"classes": [False, True]} if is_classifier(name) else {}))
    fitted = model.to_olc()
    for attr in ("_vecs", "_scal"):
        np.testing.assert_array_equal(getattr(fitted, attr), getattr(ref, attr))
    probe = X[-10:]
    values = ref.decision_function(probe) if is_classifier(name) else ref.predict(probe)
    got = [model.decision_one(x) if hasattr(model, "decision_one") else model.predict_one(x)
           for x in rows[-10:]]
    np.testing.assert_array_equal(values, np.array(got))


def test_parameter_mixing_refuses_averaged_learners():
    from olc.distributed import is_mixable

    assert is_mixable(olc.make("perceptron"))
    assert not is_mixable(olc.make("perceptron", average=True))
