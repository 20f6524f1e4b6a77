"""One PA / PA-I / PA-II step equals the solution of the problem that defines it.

Crammer, Dekel, Keshet, Shalev-Shwartz & Singer (JMLR 2006), Eqs. (2), (4), (5); textbook
§31.2.1 (PA-II with λ = 1/(2C)). The reference is the QP itself, solved by cvxpy/Clarabel —
never the closed form the library implements.

The QPs are stated on w alone (``fit_intercept=False``). With ``fit_intercept=True`` olc
follows scikit-learn: the bias takes the same step τy as w's coefficient but is left out of
‖x‖², so the bias update is not the solution of any QP over (w, b) with the plain norm; we
pin it down by (a) a characterization through the same QPs with the bias held fixed, and
(b) a hand-computed example.
"""
from fractions import Fraction

import numpy as np
import pytest

import olc
from _exactness_helpers import pa_qp

VARIANTS = ["pa", "pa-i", "pa-ii"]
N_INSTANCES = 50
RTOL = 1e-7  # solver accuracy (Clarabel reaches ~1e-13 here; 1e-7 is the contract)


def _assert_same_step(got, ref, old, x):
    """got − old equals ref − old to RTOL of the step's natural size — max(‖step‖, 1/‖x‖),
    1/‖x‖ being the step that moves the margin by 1 — plus the rounding of adding the step
    to a possibly much larger old value."""
    step_ref = ref - old
    size = max(np.linalg.norm(step_ref), 1.0 / np.linalg.norm(x))
    atol = RTOL * size + 8 * np.finfo(float).eps * np.abs(old)
    assert np.all(np.abs((got - old) - step_ref) <= atol), (got - old, step_ref)


def _learner(variant, C, fit_intercept):
    if variant == "pa":
        return olc.make("pa", fit_intercept=fit_intercept)
    return olc.make(variant, C=C, fit_intercept=fit_intercept)


def _random_state(variant, seed, fit_intercept):
    """A learner put into a random state (w, b) by a random prefix stream, and a random next
    example (x, y). Every fifth instance is passive (loss 0); the others are active, and C
    ranges over four decades so PA-I's clip τ = C is hit as well as missed.

    With fit_intercept=True the features are kept at scale ≥ 1: under the scikit-learn
    convention the bias step τ = ℓ/‖x‖² ignores the bias's own "feature", so on small-norm
    rows with random labels |b| grows geometrically (b ← b(1 + 1/‖x‖²)-ish) and the state
    reaches 1e10–1e27 within 30 rows, where no QP solver is accurate."""
    rng = np.random.default_rng([seed, VARIANTS.index(variant), int(fit_intercept)])
    d = int(rng.integers(1, 9))
    low = np.log(1.0) if fit_intercept else np.log(0.1)
    scale = float(np.exp(rng.uniform(low, np.log(10.0))))
    C = float(np.exp(rng.uniform(np.log(1e-2), np.log(1e2))))
    n_prefix = int(rng.integers(3, 30))
    Xp = rng.normal(size=(n_prefix, d)) * scale
    yp = rng.choice([-1, 1], size=n_prefix)
    learner = _learner(variant, C, fit_intercept)
    learner.partial_fit(Xp, yp, classes=[-1, 1])
    w = learner.coef_.ravel().copy()
    b = float(learner.intercept_[0])

    x = rng.normal(size=d) * scale
    s = float(w @ x + b)
    if seed % 5 == 0:
        # passive: correct side with margin ≥ 1 (scale x up until it is)
        y = 1 if s >= 0 else -1
        k = 0
        while y * (w @ x + b) < 1.5 and k < 60:
            x = 2.0 * x
            k += 1
        if y * (w @ x + b) < 1.5:  # w ⟂ x or w = 0: take x along w instead
            x = w * (3.0 / max(w @ w, 1e-300)) if w @ w > 0 else x
            y = 1 if w @ x + b >= 0 else -1
    else:
        y = int(rng.choice([-1, 1]))
        if 1 - y * s <= 0:
            y = -y
    return learner, w, b, x, y, C


@pytest.mark.parametrize("seed", range(N_INSTANCES))
@pytest.mark.parametrize("variant", VARIANTS)
def test_step_solves_defining_qp(variant, seed):
    learner, w, b, x, y, C = _random_state(variant, seed, fit_intercept=False)
    assert b == 0.0
    loss = max(0.0, 1.0 - y * float(w @ x))

    rec = learner.predict_then_learn(x[None, :], np.array([y]))
    w_new = learner.coef_.ravel()
    w_ref = pa_qp(w, x, y, variant, C)

    _assert_same_step(w_new, w_ref, w, x)
    assert learner.intercept_[0] == 0.0
    # the record: prediction and score before the update; updated iff the loss was positive
    np.testing.assert_allclose(rec.score[0], w @ x, rtol=1e-12,
                               atol=1e-12 * np.linalg.norm(w) * np.linalg.norm(x))
    assert rec.pred[0] == (1 if rec.score[0] >= 0 else -1)
    assert bool(rec.updated[0]) == (loss > 0)
    if loss == 0:
        assert np.array_equal(w_new, w)  # passive: untouched, bit for bit


@pytest.mark.parametrize("seed", range(0, N_INSTANCES, 2))
@pytest.mark.parametrize("variant", VARIANTS)
def test_bias_convention_characterized_by_qp(variant, seed):
    """fit_intercept=True. PA-I/PA-II (scikit-learn's convention): w' solves the same QP
    with the old bias b held fixed in the constraint (the bias is not part of ‖x‖²), and
    b' = b + τy where τy·x = w' − w, i.e. b' − b = (w' − w)·x / ‖x‖². Classic PA: the QP over
    θ = (w, b), min ½‖θ' − θ‖² s.t. y(w'·x + b') ≥ 1."""
    learner, w, b, x, y, C = _random_state(variant, seed, fit_intercept=True)
    learner.partial_fit(x[None, :], np.array([y]))
    if variant == "pa":
        theta = pa_qp(np.append(w, b), np.append(x, 1.0), y, variant, C)
        _assert_same_step(learner.coef_.ravel(), theta[:-1], w, x)
        _assert_same_step(learner.intercept_, theta[-1:], np.array([b]), x)
        return
    w_ref = pa_qp(w, x, y, variant, C, bias=b)
    b_ref = b + float((w_ref - w) @ x) / float(x @ x)

    _assert_same_step(learner.coef_.ravel(), w_ref, w, x)
    _assert_same_step(learner.intercept_, np.array([b_ref]), np.array([b]), x)


# -- a hand-computed example of the scikit-learn bias convention -----------------------------
#
# Start at w = 0, b = 0. Step 1: x = (3, 4), y = +1: score 0, ℓ = 1, ‖x‖² = 25 (bias not
# counted, PA-I/PA-II). Step 2: x = (1, 0), y = −1.
#   PA      (bias counted: ‖(x, 1)‖² = 26) τ₁ = 1/26 → w = (3/26, 4/26), b = 1/26;
#           score₂ = 4/26, ℓ = 30/26, τ₂ = (30/26)/2 = 15/26 → w = (−12/26, 4/26), b = −14/26.
#   PA-I    C = 1/2: τ₁ = min(1/2, 1/25) = 1/25 (as PA); τ₂ = min(1/2, 29/25) = 1/2
#           → w = (3/25 − 1/2, 4/25) = (−19/50, 8/50), b = 1/25 − 1/2 = −23/50.
#   PA-II   C = 1/2, 1/(2C) = 1: τ₁ = 1/26 → w = (3/26, 4/26), b = 1/26; score₂ = 4/26,
#           ℓ = 30/26, τ₂ = (30/26)/(1 + 1) = 15/26 → w = (−12/26, 4/26), b = −14/26.
F = Fraction
HAND = {
    "pa": ([F(3, 26), F(4, 26)], F(1, 26), F(4, 26), [F(-12, 26), F(4, 26)], F(-14, 26)),
    "pa-i": ([F(3, 25), F(4, 25)], F(1, 25), F(4, 25), [F(-19, 50), F(8, 50)], F(-23, 50)),
    "pa-ii": ([F(3, 26), F(4, 26)], F(1, 26), F(4, 26), [F(-12, 26), F(4, 26)], F(-14, 26)),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_bias_convention_hand_example(variant):
    w1, b1, s2, w2, b2 = HAND[variant]
    learner = _learner(variant, 0.5, fit_intercept=True)
    rec1 = learner.predict_then_learn(np.array([[3.0, 4.0]]), np.array([1]), classes=[-1, 1])
    assert rec1.score[0] == 0.0 and rec1.pred[0] == 1 and rec1.updated[0]
    np.testing.assert_allclose(learner.coef_.ravel(), [float(v) for v in w1], rtol=1e-15)
    np.testing.assert_allclose(learner.intercept_[0], float(b1), rtol=1e-15)

    rec2 = learner.predict_then_learn(np.array([[1.0, 0.0]]), np.array([-1]))
    np.testing.assert_allclose(rec2.score[0], float(s2), rtol=1e-15)
    assert rec2.pred[0] == 1 and rec2.updated[0]
    np.testing.assert_allclose(learner.coef_.ravel(), [float(v) for v in w2], rtol=1e-15)
    np.testing.assert_allclose(learner.intercept_[0], float(b2), rtol=1e-15)


def test_augmented_input_is_the_textbook_convention():
    """The textbook (§31.2) folds the bias into the input as (x, 1); that is fit_intercept=False on
    an appended constant column, and then ‖(x, 1)‖² = 26 ≠ 25: τ₁ = 1/26 instead of 1/25.
    Classic PA with a bias is exactly that; PA-I keeps scikit-learn's 1/25."""
    learner = olc.make("pa", fit_intercept=False)
    learner.partial_fit(np.array([[3.0, 4.0, 1.0]]), np.array([1]), classes=[-1, 1])
    np.testing.assert_allclose(learner.coef_.ravel(), [3 / 26, 4 / 26, 1 / 26], rtol=1e-15)
    pa = olc.make("pa", fit_intercept=True)
    pa.partial_fit(np.array([[3.0, 4.0]]), np.array([1]), classes=[-1, 1])
    np.testing.assert_allclose(np.append(pa.coef_.ravel(), pa.intercept_),
                               [3 / 26, 4 / 26, 1 / 26], rtol=1e-15)
    sk = olc.make("pa-i", C=10.0, fit_intercept=True)
    sk.partial_fit(np.array([[3.0, 4.0]]), np.array([1]), classes=[-1, 1])
    assert sk.intercept_[0] == pytest.approx(1 / 25, rel=1e-15)
    assert sk.intercept_[0] != pytest.approx(1 / 26, rel=1e-6)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("variant", VARIANTS)
def test_augmented_input_solves_qp_over_w_and_b(variant, seed):
    """With the bias as a constant-1 feature (fit_intercept=False) the step is the QP over
    θ = (w, b) with the full norm ½‖θ' − θ‖² — the textbook's problem (31.2)."""
    rng = np.random.default_rng([seed, 99, VARIANTS.index(variant)])
    d = 3
    Xp = np.hstack([rng.normal(size=(12, d)), np.ones((12, 1))])
    yp = rng.choice([-1, 1], size=12)
    learner = _learner(variant, 0.7, fit_intercept=False)
    learner.partial_fit(Xp, yp, classes=[-1, 1])
    theta = learner.coef_.ravel().copy()
    x = np.append(rng.normal(size=d), 1.0)
    y = -1 if theta @ x >= 0 else 1
    learner.partial_fit(x[None, :], np.array([y]))
    ref = pa_qp(theta, x, y, variant, 0.7)
    np.testing.assert_allclose(learner.coef_.ravel(), ref, rtol=RTOL,
                               atol=RTOL * max(np.linalg.norm(ref), 1.0))
