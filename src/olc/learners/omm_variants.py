"""Online Maximum Margin variants (seed 002): the naïve implementation n-OMM, solved exactly;
e-OMM / ce-OMM for ℓp norms (§5.1); and the offline exact max-margin solver
:func:`max_margin` (Lemma 3.1) with its dual certificates."""
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._compiled import nearest_point as _np_solver
from .._compiled.rules import omm_variants as _rules
from .base import OnlineLinearClassifier
from .omm import NonSeparableWarning
from .validation import InputError, binary_classes, check_finite


def _rho(value):
    try:
        rho = float(value)
    except (TypeError, ValueError):
        raise InputError(f"rho must be a number in [0, 1], got {value!r}") from None
    if not 0.0 <= rho <= 1.0:
        raise InputError(f"rho must be in [0, 1], got {value!r}")
    return rho


class _CollapseWarningMixin:
    """Warn once when the stream proves non-separable (γ drops to 0 during a call)."""

    _algorithm_label = "OMM"

    def learn_prepared(self, stream, start=0, stop=None, order=None, out=None, check=None):
        collapsed_before = self._collapsed()
        try:
            return super().learn_prepared(stream, start, stop, order, out, check)
        finally:
            if not collapsed_before and self._collapsed():
                warnings.warn(
                    f"{self._algorithm_label}: the stream is not linearly separable (the "
                    f"certificates v₊ and v₋ coincide after step {self.n_steps_} at the latest, "
                    "e.g. a point seen with both labels); the max-margin classifier is "
                    "undefined from here on and the learner predicts +1 (w = 0, b = 0). OMM "
                    "assumes separable data.", NonSeparableWarning, stacklevel=2)


class NaiveOMM(_CollapseWarningMixin, OnlineLinearClassifier):
    """n-OMM: Online Maximum Margin, naïve implementation, ℓ2 norm (seed 002, Algorithm 1).

    Which points are stored (``store``):
    - ``"updates"`` (default): Algorithm 1, line 20 — every example that triggers an update
      (a_t = y(w·x + b) < ρ·γ_t, line 18, or a mistake) is stored.
    - ``"all"``: the §3 text (seed line 125: the naïve implementation "at each iteration
      simply keeps all points and solves the maximum margin problem with all the data seen
      thus far") — every finite example is stored, including the first label's examples
      before the second label arrives (lines 2–11).
    The paper's gap: Remark 3.3 says that with ρ = 1 the update test "is equivalent to
    removing the condition … since (w_t, b_t) is already optimal … when a_t ≥ γ_t". That
    holds at time t only: a point skipped at time t (a_t ≥ γ_t then) can fall inside the
    margin of a later classifier, and line 20 never stored it, so "updates" does not end
    with the max-margin classifier of the whole stream (Adult, §6: γ̄ = 0.95 instead of the
    γ* = 1 that §6 reports, "since on its last iteration, it is essentially solving an
    offline maximum margin problem on the whole dataset"). Decision: both readings, line 20
    as the default (it is the algorithm as stated), "all" for §6's n-OMM. With "all" the
    problem is still re-solved only on update rounds: a point with a_t ≥ γ_t satisfies the
    current solution's optimality conditions, so that solution is optimal for V ∪ {x_t}
    (the half of Remark 3.3 that is true); the stored point is priced in every later solve.
    With ρ = 1 and separable data, the classifier after a pass is therefore the offline
    max-margin classifier of every point seen (:func:`max_margin`). ``updated`` (the record)
    means an update round in both modes; with ρ < 1, "all" keeps points with
    ρ·γ_t ≤ a_t < γ_t without re-solving (the rule's test), so the classifier is then the
    max-margin one of the stored points only as of the last update.

    The max-margin problem (Eq. 2) of all stored points is re-solved exactly:
    the nearest points v₊ ∈ conv(V₊), v₋ ∈ conv(V₋) (Eq. 3) by an active-set method
    (Wolfe's minimum-norm-point algorithm on the difference of the two hulls, see
    ``olc._compiled.nearest_point``), warm-started from the previous support set, convex
    weights and QR factorization, and exact on its final support set. Then (Lemma 3.1)
    w = (v₊ − v₋)/‖v₊ − v₋‖, b = −½ w·(v₊ + v₋), γ = ‖v₊ − v₋‖/2.

    Cost: a prediction is O(nnz(x)) (w is explicit); an update is O(#stored · d) per
    active-set iteration (pricing every stored point) — the method is "naïve" by design.
    Memory: the stored points are dense rows (d + 2 floats each, also for CSR input: the
    solver's pricing is dense anyway, and dense rows make dense and CSR input
    bit-identical), so O(#updates · d) ("all": O(#distinct points · d)); the buffer doubles
    when full. A point already stored with the same label is not stored again (V is a set;
    the test compares one hash key per stored point, O(#stored) per stored example).

    Initialization (lines 2–13) is e-OMM's: predict +1 first, then y₁ until the other label
    arrives; V₊, V₋ are then those two points ("all": the first label's points seen so far
    and the second label's point, solved exactly at that round).

    Decisions where the paper is silent (as e-OMM, ``olc.learners.omm``):
    - ρ = 0 also updates on a mistake with a_t = 0 (sign(0) = +1 is wrong for y = −1).
    - The default ρ = 1 is the paper's n-OMM (§6: it recovers the exact max margin γ* of the
      whole data set, which only ρ = 1 guarantees).
    - Stored points are centered at the first stored point (exactly translation invariant
      in exact arithmetic, Remark 3.4, and without cancellation against a far origin).
    - Not separable: once the stored points' hulls intersect (to working precision:
      ‖v₊ − v₋‖ ≤ 1e-13 × the stored points' scale), w = 0, b = 0 (predicts +1) and γ = 0
      for good, with a :class:`NonSeparableWarning`; mistakes are then reported as
      updates that change nothing (as e-OMM).
    - A point with ‖x − x₁‖ > 1e150 cannot be stored (squares would overflow): the stream
      stops with an overflow error before it.

    - store = "all": a point with ‖x − x₁‖ > 1e150 stops the stream in the same way even on
      a non-update round (it would have to be stored).

    Parameters
    ----------
    rho : float in [0, 1], aggressiveness ρ (default 1).
    store : "updates" (default, Algorithm 1 line 20) or "all" (§3/§6: every point seen).
    """

    _rule = _rules.NAIVE_OMM
    _algorithm_label = "n-OMM"
    STORE = ("updates", "all")

    def __init__(self, rho=1.0, store="updates"):
        self.rho = rho
        self.store = store

    def _hyperparameters(self):
        store = self.store
        if not isinstance(store, str) or store not in self.STORE:
            raise InputError(f"store must be one of {self.STORE} (\"updates\": Algorithm 1 "
                             f"line 20, only update rounds' points; \"all\": every point "
                             f"seen, §3/§6), got {store!r}")
        return np.array([_rho(self.rho), float(self.STORE.index(store))])

    def _initial_state(self, n_features):
        return _rules.nomm_initial_state(n_features)

    def _grow_state(self, vecs, scal):
        if scal[_rules.GROW] != 1.0:
            return None
        try:
            return _rules.grow_nomm(vecs, scal)
        except MemoryError:
            d, cap = vecs.shape[1] - 2, int(scal[_rules.CAP])
            rows = _rules.nomm_layout(2 * cap, d)[1]
            raise MemoryError(
                f"n-OMM keeps its stored points and their factorization as dense rows of "
                f"d + 2 = {d + 2} floats; going from {cap} to {2 * cap} stored points needs "
                f"{rows * (d + 2) * 8 / 2**30:.1f} GiB, which could not be allocated. n-OMM is "
                "meant for moderate d (seed 002's Adult data: d = 96); for high-dimensional "
                "sparse streams use e-omm or ce-omm.") from None

    def _collapsed(self):
        return (self._is_initialised() and self._scal[_rules.PHASE] == 2.0
                and self._scal[_rules.GAMMA] == 0.0)

    def _linear_model(self):
        d = self._vecs.shape[1] - 2
        phase = self._scal[_rules.PHASE]
        if phase < 2.0:
            return np.zeros(d), (1.0 if phase == 0.0 else float(self._scal[_rules.Y1]))
        return self._vecs[_rules.W, :d].copy(), float(self._scal[_rules.BIAS])

    # -- the stored problem ----------------------------------------------------------------
    def _blocks(self):
        scal = self._scal
        cap, kmax = int(scal[_rules.CAP]), int(scal[_rules.KMAX])
        n = int(scal[_rules.N_STORED]) if scal[_rules.PHASE] == 2.0 else 0
        B = self._vecs[_rules.Q0 + 2 * kmax:_rules.Q0 + 2 * kmax + n]
        lam = scal[_rules.HEADER:_rules.HEADER + n]
        return B, lam

    @property
    def n_stored_(self):
        """How many points are stored (store="updates": the first one and every update's;
        "all": every distinct point seen)."""
        self._check_fitted()
        return int(self._scal[_rules.N_STORED])

    @property
    def stored_points_(self):
        """(X, y) of the stored points (y in ±1), in the order they were stored; x is
        recovered as x₁ + (x − x₁), so up to rounding of that sum."""
        self._check_fitted()
        B, _ = self._blocks()
        d = self._vecs.shape[1] - 2
        if B.shape[0] == 0:
            return np.zeros((0, d)), np.zeros(0)
        y = np.where(B[:, d] > 0, 1.0, -1.0)
        return self._vecs[_rules.ORIGIN, :d] + y[:, None] * B[:, :d], y

    @property
    def certificate_weights_(self):
        """λ: the convex weights of the stored points (per class) that give the certificates:
        v₊ = Σ_{y=+1} λᵢxᵢ, v₋ = Σ_{y=−1} λᵢxᵢ; positive exactly on the support set."""
        self._check_fitted()
        return self._blocks()[1].copy()

    @property
    def certificates_(self):
        """(v₊, v₋) — the current dual certificates (zeros before both labels were seen)."""
        self._check_fitted()
        d = self._vecs.shape[1] - 2
        if self._scal[_rules.PHASE] < 2.0:
            return np.zeros(d), np.zeros(d)
        o = self._vecs[_rules.ORIGIN, :d]
        return o + self._vecs[_rules.VPOS, :d], o + self._vecs[_rules.VNEG, :d]

    @property
    def margin_(self):
        """γ_t = ‖v₊ − v₋‖/2, the max margin of the stored points (0 before both labels)."""
        self._check_fitted()
        return float(self._scal[_rules.GAMMA]) if self._scal[_rules.PHASE] == 2.0 else 0.0


class EfficientOMMLp(_CollapseWarningMixin, OnlineLinearClassifier):
    """e-OMM for the norm ‖·‖ = ℓp, p ∈ (1, ∞) (seed 002, Algorithm 1 and §5.1).

    Certificates v₊, v₋ as in e-OMM; the classifier of Lemma 3.1 for this norm is
    w = ℓ(u) = ∇‖u‖_p, u = v₊ − v₋, i.e. wᵢ = sgn(uᵢ)|uᵢ|^{p−1}/‖u‖_p^{p−1} (‖w‖_q = 1,
    q = p/(p−1)), b = −½ w·(v₊ + v₋), γ = ‖u‖_p/2. Margins are measured in the dual norm:
    γ(x, y; w, b) = y(w·x + b)/‖w‖_q = y(w·x + b), so the update test a_t < ρ·γ_t reads as
    for ℓ2. The three-point problem (Eq. 7), β* = argmin_{β∈[0,1]} ‖u − βz‖_p with
    z = v₊ − x (y = +1) or x − v₋ (y = −1), is solved by a safeguarded Newton iteration on
    the derivative of the convex function ‖u − βz‖_p^p, bracketed by bisection, to full
    double precision; p = 2 reproduces the ℓ2 closed form (within rounding).

    Cost: an update is O(d) (‖u − βz‖_p needs every coordinate, and w = ℓ(u) changes in
    every coordinate); a prediction is O(nnz(x)) (w is kept explicitly).

    Decisions where the paper is silent: those of e-OMM (``olc.learners.omm``): ρ = 0 also
    updates on a mistake with a_t = 0; a zero x is an ordinary point; z = 0 (x equals the
    certificate) gives β* = 0; coinciding certificates (not separable) give w = 0, b = 0
    (predicts +1) for good, with a :class:`NonSeparableWarning`.

    Parameters
    ----------
    p : float > 1, finite — the norm (default 2, the norm of the paper's experiments; with
        p = 2 this is e-OMM up to rounding).
    rho : float in [0, 1], aggressiveness ρ (default 1; ρ = 0 is ce-OMM).
    """

    _rule = _rules.EFFICIENT_OMM_LP
    _n_vectors = 3
    _algorithm_label = "e-OMM (ℓp)"

    def __init__(self, p=2, rho=1.0):
        self.p = p
        self.rho = rho

    def _hyperparameters(self):
        try:
            p = float(self.p)
        except (TypeError, ValueError):
            raise InputError(f"p must be a number in (1, ∞), got {self.p!r}") from None
        if not (np.isfinite(p) and p > 1.0):
            raise InputError(f"p must be finite and > 1, got {self.p!r}")
        return np.array([_rho(self.rho), p])

    def _collapsed(self):
        return (self._is_initialised() and self._scal[_rules.LP_PHASE] == 2.0
                and self._scal[_rules.LP_GAMMA] == 0.0)

    def _linear_model(self):
        d = self._vecs.shape[1]
        phase = self._scal[_rules.LP_PHASE]
        if phase < 2.0:
            return np.zeros(d), (1.0 if phase == 0.0 else float(self._scal[_rules.LP_Y1]))
        return self._vecs[_rules.LP_W].copy(), float(self._scal[_rules.LP_BIAS])

    @property
    def certificates_(self):
        """(v₊, v₋) — the current dual certificates (zeros for a side not yet seen)."""
        self._check_fitted()
        return self._vecs[_rules.LP_VPOS].copy(), self._vecs[_rules.LP_VNEG].copy()

    @property
    def margin_(self):
        """γ_t = ‖v₊ − v₋‖_p/2, the predicted margin (0 before both labels were seen)."""
        self._check_fitted()
        return (float(self._scal[_rules.LP_GAMMA]) if self._scal[_rules.LP_PHASE] == 2.0
                else 0.0)


# -- offline: the exact max-margin classifier of a data set ----------------------------------

@dataclass(frozen=True)
class MaxMarginSolution:
    """The exact ℓ2 max-margin classifier of a data set and its dual certificates.

    ``coef`` (w, ‖w‖₂ = 1) and ``intercept`` (b): every point has y(w·x + b) ≥ ``margin``
    (γ), with equality on the support. ``v_pos``/``v_neg``: the certificates of Eq. (3),
    ``v_pos = Σ weights[i]·X[i]`` over the positive class (``classes[1]``), likewise
    ``v_neg``; ``weights`` are convex on each class and positive exactly on ``support``.
    ``separable`` is False when the two hulls intersect (then w = 0, b = 0, γ = 0).
    ``max_violation``: the largest margin deficit γ − y(w·x + b) over the data (≤ 0 up to
    rounding: the optimality certificate). ``rounds``/``major_cycles``/``working_set``:
    work done by the solver.
    """

    coef: np.ndarray
    intercept: float
    margin: float
    v_pos: np.ndarray
    v_neg: np.ndarray
    weights: np.ndarray
    support: np.ndarray
    classes: np.ndarray
    separable: bool
    max_violation: float
    rounds: int
    major_cycles: int
    working_set: int


def max_margin(X, y, *, batch=64):
    """The exact hard-margin SVM with bias (ℓ2) of (X, y) and its dual certificates
    (seed 002, Lemma 3.1 and Eq. 3), by a working-set method on the n-OMM solver.

    Working set: start from one point per class, solve the nearest-point problem on the
    working set exactly (``nearest_point.wolfe``, warm-started), price every point of X,
    add the ``batch`` most violating ones, repeat until no point violates the margin by more
    than 1e-12 (relative; then the working set's solution is exact for X to rounding). A
    CSR X is densified (the solver prices dense rows). Labels: any two values;
    ``classes[1]`` is the positive class. Returns a :class:`MaxMarginSolution`.
    """
    if sp.issparse(X):
        X = X.toarray()
    X = np.ascontiguousarray(np.asarray(X, dtype=np.float64))
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise InputError(f"X must be a non-empty 2-D array, got shape {X.shape}")
    check_finite(X)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise InputError(f"y must be 1-D with one label per row of X ({X.shape[0]}), got "
                         f"shape {y.shape}")
    classes = binary_classes(y, "y")
    ys = np.where(y == classes[1], 1.0, -1.0)
    batch = int(batch)
    if batch < 1:
        raise InputError(f"batch must be a positive integer, got {batch}")

    o = X.mean(axis=0)
    Z = X - o
    znorm2 = np.einsum("ij,ij->i", Z, Z)
    sigma = float(np.sqrt(znorm2.mean()))
    if not sigma > 0.0:
        sigma = 1.0
    scale = float(np.sqrt(znorm2.max() + sigma * sigma))
    if not np.isfinite(scale):
        raise InputError("X is too large: squared distances overflow (rescale X)")
    # Start from the two points that are deepest inside the other class along the
    # difference of the class means (any pair would do).
    pos, neg = ys > 0, ys < 0
    w0 = X[pos].mean(axis=0) - X[neg].mean(axis=0)
    s0 = Z @ w0
    i_pos = int(np.flatnonzero(pos)[np.argmin(s0[pos])])
    i_neg = int(np.flatnonzero(neg)[np.argmax(s0[neg])])
    n, d = X.shape
    lam, u, status, rounds, majors, nw = _np_solver.max_margin_core(
        X, ys, o, sigma, scale, i_pos, i_neg, batch, 10 * n + 100, 50 * (n + d) + 100)
    lam_pos, lam_neg = lam * pos, lam * neg
    v_pos = o + lam_pos @ Z
    v_neg = o + lam_neg @ Z
    nu = float(np.linalg.norm(u))
    support = np.flatnonzero(lam > 0.0)
    separable = status != _np_solver.COLLAPSED and nu > _np_solver.COLLAPSE * scale
    if not separable:
        warnings.warn("max_margin: the two classes are not linearly separable (their convex "
                      "hulls intersect); returning w = 0, b = 0, γ = 0.",
                      NonSeparableWarning, stacklevel=2)
        w, b, gamma = np.zeros(d), 0.0, 0.0
        worst = float("nan")
    else:
        w = u / nu
        b = float(-w @ o - 0.5 * (w @ (v_pos - o) + w @ (v_neg - o)))
        gamma = 0.5 * nu
        worst = float(gamma - np.min(ys * (Z @ w + (b + w @ o))))
    return MaxMarginSolution(w, b, gamma, v_pos, v_neg, lam, support, classes, bool(separable),
                             worst, int(rounds), int(majors), int(nw))
