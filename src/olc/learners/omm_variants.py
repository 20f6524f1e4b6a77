"""Online Maximum Margin variants (Ho-Nguyen et al. 2025): the naïve implementation n-OMM,
solved exactly; e-OMM / ce-OMM for ℓp norms (§5.1). The offline exact max-margin solver
:func:`max_margin` (Lemma 3.1), on n-OMM's solver, is in ``max_margin_solver.py``."""
from numbers import Real

import numpy as np
from ._framework.constraints import Interval, StrOptions

from .._compiled.layouts.omm import PHASE_MARGIN
from .._compiled.layouts import omm_variants as _layouts
from .._compiled.layouts.omm_variants import (
    EFFICIENT_OMM_LP_LAYOUT,
    INITIAL_CAPACITY,
    NAIVE_OMM_LAYOUT,
    NOMM_COUNTERS,
    NOMM_HEADER,
    NOMM_ROWS,
    STORE_OPTIONS,
    LpScal,
    LpVec,
    NommInt,
    NommScal,
    NommVec,
    nomm_capacity,
    nomm_sizes,
)
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from .max_margin_solver import MaxMarginSolution, max_margin  # noqa: F401 (olc.learners' names)
from .omm import RHO_CONSTRAINT, CollapseWarningMixin


class NaiveOMM(CollapseWarningMixin, OnlineLinearClassifier):
    """n-OMM: Online Maximum Margin, naïve implementation, ℓ2 norm (Ho-Nguyen et al. 2025,
    Algorithm 1).

    Which points are stored (``store``):
    - ``"updates"`` (default): Algorithm 1, line 20 — every example that triggers an update
      (a_t = y(w·x + b) < ρ·γ_t, line 18, or a mistake) is stored.
    - ``"all"``: the §3 text (the paragraph before Algorithm 1: the naïve implementation "at
      each iteration simply keeps all points and solves the maximum margin problem with all the data seen
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
    ``olc._compiled.rules.omm_geometry.nearest_point``), warm-started from the previous support set, convex
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
      stops with an overflow error before it; with store = "all" even on a non-update round
      (it would have to be stored).
    - Scale: the stored problem is kept in units of a power of two fixed by the first
      nonzero x − x₁ (the data's own units unless it is beyond 2^±450; the bound 1e150
      above is in those units), so data scaled by any 2^k (|k| ≤ 1000) give the same
      predictions, and subnormal data are learned.

    Parameters
    ----------
    rho : float in [0, 1], aggressiveness ρ (default 1).
    store : "updates" (default, Algorithm 1 line 20) or "all" (§3/§6: every point seen).
    n_jobs : int or None, accepted for the classifiers' common signature; no effect (n-OMM
        is binary only).
    """

    _layout = NAIVE_OMM_LAYOUT
    # [Decision] n-OMM's store of points grows (its state doubles when full), so K learners
    # stacked in one array would all have to grow together; not done (use e-omm or ce-omm,
    # whose state is fixed, for K ≥ 3 classes).
    _ovr_refusal = ("its store of points grows while learning, which the stacked state of "
                    "K learners does not support; use e-omm or ce-omm for multiclass")
    _parameter_constraints = {"rho": RHO_CONSTRAINT, "store": [StrOptions(set(STORE_OPTIONS))],
                              "n_jobs": N_JOBS_CONSTRAINT}
    _algorithm_label = "n-OMM"
    _phase_slot, _gamma_slot = NommScal.PHASE, NommScal.GAMMA

    def __init__(self, rho=1.0, store="updates", n_jobs=None):
        self.n_jobs = n_jobs
        self.rho = rho
        self.store = store

    def _hp_values(self):
        return {"rho": self.rho, "store": STORE_OPTIONS.index(self.store)}

    def _initial_state(self, n_features):
        vecs, _, scal = _layouts.nomm_initial_state(n_features)
        return vecs, scal

    def _initial_ints(self, n_features):
        return np.zeros(nomm_sizes(INITIAL_CAPACITY, n_features)[3], dtype=np.int64)

    def _loaded_state_shapes(self, n_features, vecs, ints, scal):
        """The capacity is the file's: scal holds the header and 2·cap slots."""
        extra = scal.shape[0] - NOMM_HEADER
        if extra < 2 or extra % 2:
            raise ValueError(f"scal: expected {NOMM_HEADER} + 2·capacity slots (capacity "
                             f"≥ 1), found {scal.shape[0]}")
        _, rows, n_scal, n_ints = nomm_sizes(extra // 2, n_features)
        return (rows, n_features + 2), (n_ints,), (n_scal,)

    def _check_loaded_state(self, vecs, ints, scal):
        """Counters within the capacity, a corral of distinct stored rows, a known phase."""
        d, cap = vecs.shape[1] - 2, nomm_capacity(scal)
        kmax = nomm_sizes(cap, d)[0]
        n, k = int(ints[NommInt.N_STORED]), int(ints[NommInt.K])
        if scal[NommScal.PHASE] not in (0.0, 1.0, PHASE_MARGIN):
            return f"scal 'phase': expected 0, 1 or 2, found {scal[NommScal.PHASE]!r}"
        if not 0 <= n <= cap:
            return f"ints 'n_stored': expected 0..{cap} (the capacity), found {n}"
        if not 0 <= k <= min(kmax, n):
            return f"ints 'k': expected 0..{min(kmax, n)} (corral size), found {k}"
        corral = ints[NOMM_COUNTERS:NOMM_COUNTERS + k]
        if k and (corral.min() < 0 or corral.max() >= n or np.unique(corral).size != k):
            return (f"ints corral: expected {k} distinct stored-row indices in [0, {n}), "
                    f"found {corral.tolist()[:20]}")
        if scal[NommScal.GROW] not in (0.0, 1.0):
            return f"scal 'grow': expected 0 or 1, found {scal[NommScal.GROW]!r}"
        return None

    def _grow_state(self, vecs, scal):
        if scal[NommScal.GROW] != 1.0:
            return None
        try:
            return _layouts.grow_nomm(vecs, scal)
        except MemoryError:
            scal[NommScal.GROW] = 0.0  # the state as after the last learned row
            d, cap = vecs.shape[1] - 2, nomm_capacity(scal)
            rows = nomm_sizes(2 * cap, d)[1]
            raise MemoryError(
                f"n-OMM keeps its stored points and their factorization as dense rows of "
                f"d + 2 = {d + 2} floats; going from {cap} to {2 * cap} stored points needs "
                f"{rows * (d + 2) * 8 / 2**30:.1f} GiB, which could not be allocated. n-OMM is "
                "meant for moderate d (the Adult data of Ho-Nguyen et al. 2025, §6: d = 96); "
                "for high-dimensional sparse streams use e-omm or ce-omm.") from None

    def _linear_model(self):
        d = self._vecs.shape[1] - 2
        if self._scal[NommScal.PHASE] != PHASE_MARGIN:
            return self._constant_classifier(d, NommScal.Y1)
        return self._vecs[NommVec.W, :d].copy(), float(self._scal[NommScal.BIAS])

    # -- the stored problem ----------------------------------------------------------------
    def _blocks(self):
        """(B, λ): the stored rows (centered, augmented, in units) and their weights."""
        d = self._vecs.shape[1] - 2
        kmax = nomm_sizes(nomm_capacity(self._scal), d)[0]
        n = self.n_stored_ if self._scal[NommScal.PHASE] == PHASE_MARGIN else 0
        start = NOMM_ROWS + 2 * kmax
        return self._vecs[start:start + n], self._scal[NOMM_HEADER:NOMM_HEADER + n]

    def _unit(self):
        """The stored problem's unit 2^−E (1 while no nonzero centered row fixed it)."""
        return float(self._scal[NommScal.UNIT]) or 1.0

    @property
    def n_stored_(self):
        """How many points are stored (store="updates": the first one and every update's;
        "all": every distinct point seen)."""
        self._check_fitted()
        return int(self._ints[NommInt.N_STORED])

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
        return self._vecs[NommVec.ORIGIN, :d] + y[:, None] * (B[:, :d] / self._unit()), y

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
        if self._scal[NommScal.PHASE] != PHASE_MARGIN:
            return np.zeros(d), np.zeros(d)
        o, unit = self._vecs[NommVec.ORIGIN, :d], self._unit()
        return (o + self._vecs[NommVec.VPOS, :d] / unit,
                o + self._vecs[NommVec.VNEG, :d] / unit)

    @property
    def margin_(self):
        """γ_t = ‖v₊ − v₋‖/2, the max margin of the stored points (0 before both labels)."""
        self._check_fitted()
        return (float(self._scal[NommScal.GAMMA])
                if self._scal[NommScal.PHASE] == PHASE_MARGIN else 0.0)


class EfficientOMMLp(CollapseWarningMixin, OnlineLinearClassifier):
    """e-OMM for the norm ‖·‖ = ℓp, p ∈ (1, ∞) (Ho-Nguyen et al. 2025, Algorithm 1 and §5.1).

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
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = EFFICIENT_OMM_LP_LAYOUT
    _parameter_constraints = {"p": [Interval(Real, 1, np.inf, closed="neither")],
                              "rho": RHO_CONSTRAINT, "n_jobs": N_JOBS_CONSTRAINT}
    _algorithm_label = "e-OMM (ℓp)"
    _phase_slot, _gamma_slot = LpScal.PHASE, LpScal.GAMMA

    def __init__(self, p=2, rho=1.0, n_jobs=None):
        self.n_jobs = n_jobs
        self.p = p
        self.rho = rho

    def _hp_values(self):
        return {"rho": self.rho, "p": self.p}

    def _initial_ints(self, n_features):
        # None kept, but 1-D as n-OMM's: the family's loops are compiled for one ints type.
        return np.zeros(0, dtype=np.int64)

    def _linear_model(self):
        d = self._vecs.shape[1]
        if self._scal[LpScal.PHASE] != PHASE_MARGIN:
            return self._constant_classifier(d, LpScal.Y1)
        return self._vecs[LpVec.W].copy(), float(self._scal[LpScal.BIAS])

    @property
    def certificates_(self):
        """(v₊, v₋) — the current dual certificates (zeros for a side not yet seen)."""
        self._check_fitted()
        return self._vecs[LpVec.VPOS].copy(), self._vecs[LpVec.VNEG].copy()

    @property
    def margin_(self):
        """γ_t = ‖v₊ − v₋‖_p/2, the predicted margin (0 before both labels were seen)."""
        self._check_fitted()
        return (float(self._scal[LpScal.GAMMA]) if self._scal[LpScal.PHASE] == PHASE_MARGIN
                else 0.0)


