"""Efficient Online Maximum Margin, ℓ2 norm (Ho-Nguyen et al. 2025, Algorithm 1, efficient
implementation, with the closed-form three-point step of §5.1, Eq. 7).

State (``layouts/omm.py``): the dual certificates as scaled vectors v₊ = SP·vecs[VPOS],
v₋ = SM·vecs[VNEG] (``kernels/scaled.py``: the convex-combination update v ← (1−β)v + βx costs
O(nnz(x))), and the cached products PP = ‖v₊‖², MM = ‖v₋‖², PM = v₊·v₋, kept exact in
arithmetic by incremental updates, all in units of 2^E (UNIT = 2^−E, see the layout). The
classifier is never materialised during the stream:
    w = (v₊ − v₋)/‖v₊ − v₋‖,   b = −½ w·(v₊ + v₋) = −(PP − MM)/(2‖v₊ − v₋‖),
    w·x + b = (v₊·x − v₋·x − (PP − MM)/2) / ‖v₊ − v₋‖,   γ = ‖v₊ − v₋‖/2.
In units, x̃ = x·UNIT: the score computed is (w·x + b)·UNIT, returned as w·x + b (exact).

Phases (Algorithm 1, lines 2–13): PHASE_EMPTY nothing seen, the classifier is the constant +1
(w = 0, b = +1); PHASE_ONE_LABEL one label seen, the constant y₁ (w = 0, b = y₁) until the
first example of the other label; PHASE_MARGIN the max-margin classifier of the certificates.
"""
import math

from ..caching import jit
from ..kernels.vector import (
    COLD,
    INLINE,
    LLVM_INLINE,
    dot,
    is_finite_row,
    sign,
)
from ..kernels.overflow import times_power_of_two
from ..layouts.omm import PHASE_EMPTY, PHASE_MARGIN, PHASE_ONE_LABEL, OmmHP, OmmScal, OmmVec
from ..kernels.scaled import (
    sv_add_rescaled,
    sv_diff_dot_parts,
    sv_dot,
    sv_fold,
    sv_in_range,
    sv_mul,
)

SP, SM, PP, MM, PM = OmmScal.SP, OmmScal.SM, OmmScal.PP, OmmScal.MM, OmmScal.PM
PHASE, Y1, GAMMA, UNIT = OmmScal.PHASE, OmmScal.Y1, OmmScal.GAMMA, OmmScal.UNIT
VPOS, VNEG = OmmVec.VPOS, OmmVec.VNEG

# Units. A row of magnitude 2^e (e: the exponent of max |xⱼ|, max |xⱼ| ∈ [2^(e−1), 2^e)) fixes
# the unit 2^−E with E = 0 while |e| ≤ UNIT_FREE_EXP — the data's own units, olc 0.1.0's
# arithmetic bit for bit — and E = ±2(|e| − UNIT_FREE_EXP) beyond, clamped to ±UNIT_MAX_EXP
# (2^±1021 are normal numbers, so the unit and its inverse are exact). In units, a row then
# has magnitude 2^(e−E) with |e − E| ≤ 450 and a product of a stored vector with a raw row
# 2^(2e−E) with |2e − E| ≤ 900: squares and dot products stay inside float64 for data of
# any scale 2^e, and rows of mixed magnitudes within the normal range — 2^−498 to 2^332 (the
# contract's 1e−150 to 1e100) — are kept as in olc 0.1.0 or close to it.
UNIT_FREE_EXP = 450
UNIT_MAX_EXP = 1021


# -- shared with the omm_variants family: units (power-of-two rescaling), densified rows -----

@jit(inline=INLINE)
def row_unit(unit, val):
    """(unit, fixed): the state's unit 2^−E when already fixed (``unit`` ≠ 0), otherwise the
    one this row fixes (see UNIT_FREE_EXP); ``fixed`` False when the row cannot fix it (zero,
    or not finite: the unit stays open)."""
    if unit != 0.0:
        return unit, True
    e = -2 * UNIT_MAX_EXP  # below every exponent of a nonzero float64
    for k in range(val.shape[0]):
        v = val[k]
        if v != 0.0:
            if not math.isfinite(v):
                return 1.0, False
            e = max(e, math.frexp(v)[1])
    if e == -2 * UNIT_MAX_EXP:
        return 1.0, False
    shift = 2 * (abs(e) - UNIT_FREE_EXP)
    if shift <= 0:
        return 1.0, True
    return math.ldexp(1.0, -min(shift, UNIT_MAX_EXP) if e > 0 else min(shift, UNIT_MAX_EXP)), True


@jit(inline=INLINE)
def any_row_unit(unit, idx, val):
    """``row_unit`` for a row of any layout, binary CSR rows (val None, ``kernels``) included.
    A binary row's largest value is 1 ∈ [2^0, 2^1), exponent e = 1 ≤ UNIT_FREE_EXP, so it
    fixes the unit 1 — unless it stores nothing (a zero row leaves the unit open)."""
    if idx is not None:
        if val is None:
            if unit != 0.0:
                return unit, True
            return 1.0, idx.shape[0] > 0
    if val is not None:  # see the docstring of kernels/vector.py
        return row_unit(unit, val)
    return unit, True


@jit(inline=INLINE)
def unit_sqnorm(idx, val, unit):
    """‖x·unit‖² (strict order: it is a step-size denominator). A binary row's is
    n·unit² (n stored values): unit is a power of two, so unit² is one too (or 0, or inf) and
    the sum of n copies of it, taken in order, is n·unit² exactly: the same bits."""
    if idx is not None:
        if val is None:
            if idx.shape[0] == 0:
                return 0.0
            return float(idx.shape[0]) * (unit * unit)
    s = 0.0
    if val is not None:  # see the docstring of kernels/vector.py
        for k in range(val.shape[0]):
            t = val[k] * unit
            s += t * t
    return s


@jit(inline=INLINE)
def densify(idx, val, out):
    """out ← x (O(len(out)): clears the row first). ``+ 0.0`` turns −0.0 into +0.0, so that a
    dense row with −0.0 entries and the CSR row without them give bit-identical state."""
    for j in range(out.shape[0]):
        out[j] = 0.0
    if idx is None:
        for j in range(val.shape[0]):
            out[j] = val[j] + 0.0
    else:
        for t in range(idx.shape[0]):
            out[idx[t]] = val[t] + 0.0


@jit(inline=INLINE)
def explicit_score(idx, val, w, bias, phase, y1, fast):
    """w·x + b of a rule that keeps w explicitly (n-OMM, ℓp e-OMM); before the max-margin
    classifier exists, the constant +1, then y₁ (Algorithm 1, lines 2–13)."""
    if phase != PHASE_MARGIN:
        return 1.0 if phase == PHASE_EMPTY else y1
    return dot(w, idx, val, fast) + bias


@jit(inline=INLINE)
def explicit_round(idx, val, y, w, bias, gamma, rho, fast):
    """Score and update test (Algorithm 1, line 18: a_t < ρ·γ_t, or a mistake) of a rule that
    keeps w explicitly (n-OMM, ℓp e-OMM). Returns (s, pred, update, final): ``final``, the
    round ends here — the score is not finite (the loop stops), or the stream proved not
    separable (γ = 0: w = 0, b = 0 for good; a mistake is reported as an update that changes
    nothing, as e-OMM)."""
    s = dot(w, idx, val, fast) + bias
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, True
    if gamma == 0.0:
        return s, pred, pred != y, True
    return s, pred, y * s < rho * gamma or pred != y, False


@jit(inline=INLINE)
def from_units(value, unit):
    """A length kept in units, in the data's units (0 while the unit is open)."""
    return value / unit if unit != 0.0 else value


# -- e-OMM ------------------------------------------------------------------------------------

@jit(inline=INLINE)
def _norm_u(scal):
    nu2 = scal[PP] + scal[MM] - 2.0 * scal[PM]
    # Rounding can push an exact 0 slightly negative (coinciding certificates).
    return math.sqrt(nu2) if nu2 > 0.0 else 0.0


@jit(inline=INLINE)
def _unit_dots(idx, val, vecs, scal, fast):
    """(v₊·x̃, v₋·x̃) in units²."""
    unit = scal[UNIT]
    return (sv_dot(vecs[VPOS], scal[SP], idx, val, fast) * unit,
            sv_dot(vecs[VNEG], scal[SM], idx, val, fast) * unit)


@jit(forceinline=LLVM_INLINE)
def omm_score(idx, val, vecs, ints, scal, hp, fast):
    if scal[PHASE] != PHASE_MARGIN:
        return 1.0 if scal[PHASE] == PHASE_EMPTY else scal[Y1]
    nu = _norm_u(scal)
    if nu == 0.0:
        # v₊ = v₋: a point was seen with both labels, the stream is provably not separable
        # and w is undefined; the classifier is w = 0, b = 0 (predicts +1).
        return 0.0
    px, mx = _unit_dots(idx, val, vecs, scal, fast)
    s = (px - mx - 0.5 * (scal[PP] - scal[MM])) / nu / scal[UNIT]
    if s - s == 0.0:
        return s
    return _score_scaled(idx, val, vecs, scal, nu, True)


@jit(inline=COLD)
def _score_scaled(idx, val, vecs, scal, nu, data_units):
    """The score (u·x̃ − ½(PP − MM))/‖u‖, x̃ = x·2^−E, in the data's units (÷ 2^−E) or in
    units, with every term scaled by powers of two (exact): ±inf with the sign of the exact
    score when it is beyond the range, else its value — never the NaN of inf − inf."""
    m, e = sv_diff_dot_parts(vecs[VPOS], scal[SP], vecs[VNEG], scal[SM], idx, val)
    if m != m:
        return m
    unit = scal[UNIT]
    ue = math.frexp(unit)[1] - 1 if unit != 0.0 else 0  # the unit is 2^ue exactly
    hm, he = math.frexp(0.5 * (scal[PP] - scal[MM]))  # finite: PP, MM are
    top = max(e + ue, he)
    num = times_power_of_two(m, e + ue - top) - times_power_of_two(hm, he - top)
    nm, ne = math.frexp(nu)
    return times_power_of_two(num / nm, top - ne - (ue if data_units else 0))


@jit(inline=COLD)
def _reset_to(idx, val, v, scal, slot_s, unit):
    """The certificate becomes x̃ = x·unit: v ← 0, s ← 1, then v += x·unit (O(d))."""
    sv_mul(v, scal, slot_s, 0.0)
    sv_add_rescaled(v, scal, slot_s, 1.0, unit, idx, val)


@jit(inline=COLD)
def _store_first(idx, val, vecs, scal, positive, unit):
    """Make x the certificate of its label; False (nothing stored) if ‖x̃‖² overflows."""
    sq = unit_sqnorm(idx, val, unit)
    if not math.isfinite(sq):
        return False
    _reset_to(idx, val, vecs[VPOS] if positive else vecs[VNEG], scal,
              SP if positive else SM, unit)
    scal[PP if positive else MM] = sq
    return True


@jit(forceinline=LLVM_INLINE)
def _move_towards(idx, val, v, scal, slot_s, beta, unit):
    """v ← (1−β)v + βx̃ for the certificate (v, scale slot ``slot_s``)."""
    if beta >= 1.0:
        _reset_to(idx, val, v, scal, slot_s, unit)  # the only O(d) branch
        return
    # (1−β)·v changes the scale only; v is folded after the add when the scale leaves its
    # range (folding after, not before, keeps the arithmetic of olc 0.1.0 bit for bit).
    scal[slot_s] *= 1.0 - beta
    sv_add_rescaled(v, scal, slot_s, beta, unit, idx, val)
    if not sv_in_range(scal[slot_s]):
        sv_fold(v, scal, slot_s)


@jit(inline=COLD)
def _first_rounds(idx, val, y, vecs, scal):
    """Lines 2–13: predict +1, then y₁ until the other label arrives (phases 0 and 1)."""
    if scal[PHASE] == PHASE_EMPTY:
        # Line 2: predict +1, then V₊ or V₋ := {x₁}.
        unit, fixed = any_row_unit(scal[UNIT], idx, val)
        if not _store_first(idx, val, vecs, scal, y > 0.0, unit):
            return math.inf, 1.0, False, 0.0
        if fixed:
            scal[UNIT] = unit
        scal[Y1] = y
        scal[PHASE] = PHASE_ONE_LABEL
        return 1.0, 1.0, y < 0.0, 0.0
    # Lines 5–8: predict y₁ until the other label arrives.
    y1 = scal[Y1]
    if y == y1:
        if val is not None:  # a binary row is finite
            if not is_finite_row(val):  # x is not read here: check it (rule contract)
                return math.nan, y1, False, 0.0
        return y1, y1, False, 0.0
    # v₊·v₋ of two singletons: one O(nnz) dot with the certificate stored first (zero while
    # the unit is open: the first row was zero).
    unit, fixed = any_row_unit(scal[UNIT], idx, val)
    if y > 0.0:
        pm = sv_dot(vecs[VNEG], scal[SM], idx, val, False) * unit
    else:
        pm = sv_dot(vecs[VPOS], scal[SP], idx, val, False) * unit
    if not math.isfinite(pm) or not _store_first(idx, val, vecs, scal, y > 0.0, unit):
        return math.inf, y1, False, 0.0
    if fixed:
        scal[UNIT] = unit
    scal[PM] = pm
    scal[PHASE] = PHASE_MARGIN
    scal[GAMMA] = 0.5 * _norm_u(scal)
    return y1, y1, True, 0.0


@jit(forceinline=LLVM_INLINE)
def omm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One round of Algorithm 1 (efficient implementation) with aggressiveness ρ.

    Update test: a_t < ρ·γ_t (line 18) — or a mistake. The two differ only at a_t = 0 exactly,
    where sign(0) = +1 is wrong for y = −1 although a_t < 0·γ_t fails: the paper's Remark 3.3
    says ρ = 0 "updates only when mistakes occur", so we update there too (a conservative
    learner must not keep a classifier that just erred).

    Three-point step (§5.1, Eq. 7): for y = +1, u = v₊ − v₋, z = v₊ − x and
    β* = clip(u·z/‖z‖², 0, 1), v₊ ← (1−β*)v₊ + β*x; for y = −1, z = x − v₋,
    v₋ ← (1−β*)v₋ + β*x. ‖z‖ = 0 (x equals the certificate) gives β* = 0.
    Returns aux = γ_t, the predicted margin of the classifier used for this prediction
    (0 while no max-margin classifier exists), for the m(φ) metric of Eq. (4b).
    A non-finite score reports an overflow to the loop, which stops before this row.
    """
    if scal[PHASE] != PHASE_MARGIN:
        return _first_rounds(idx, val, y, vecs, scal)

    gamma = scal[GAMMA]  # in units, as every quantity below but the returned ones
    nu = 2.0 * gamma
    px, mx = _unit_dots(idx, val, vecs, scal, fast)
    if nu > 0.0:
        s = (px - mx - 0.5 * (scal[PP] - scal[MM])) / nu
        if s - s != 0.0:  # v₊·x or v₋·x beyond the range: the exact score, if finite
            s = _score_scaled(idx, val, vecs, scal, nu, False)
    else:
        s = 0.0 * (px + mx)  # 0, or NaN when x has a NaN/inf value (rule contract)
    pred = sign(s)
    a = y * s
    gamma_out = from_units(gamma, scal[UNIT])
    if not math.isfinite(s) or not (a < hp[OmmHP.RHO] * gamma or pred != y):
        return from_units(s, scal[UNIT]), pred, False, gamma_out

    if not (math.isfinite(px) and math.isfinite(mx)):
        return math.inf, pred, False, gamma_out  # the step's products overflow: stop
    # While the unit is open both certificates are zero (px = mx = 0): x fixes it.
    unit, fixed = any_row_unit(scal[UNIT], idx, val)
    xx = unit_sqnorm(idx, val, unit)
    pp, mm, pm = scal[PP], scal[MM], scal[PM]
    if y > 0.0:
        uz = pp - pm - px + mx
        zz = pp - 2.0 * px + xx
    else:
        uz = px - pm - mx + mm
        zz = xx - 2.0 * mx + mm
    if zz <= 0.0 or uz <= 0.0:
        beta = 0.0
    elif uz >= zz:
        beta = 1.0
    else:
        beta = uz / zz
    if beta > 0.0:
        c = 1.0 - beta
        if y > 0.0:
            new_sq = c * c * pp + 2.0 * beta * c * px + beta * beta * xx
            new_pm = c * pm + beta * mx
        else:
            new_sq = c * c * mm + 2.0 * beta * c * mx + beta * beta * xx
            new_pm = c * pm + beta * px
        if not (math.isfinite(new_sq) and math.isfinite(new_pm)):
            return math.inf, pred, False, gamma_out
        if fixed:
            scal[UNIT] = unit
        scal[PM] = new_pm
        if y > 0.0:
            scal[PP] = new_sq
            _move_towards(idx, val, vecs[VPOS], scal, SP, beta, unit)
        else:
            scal[MM] = new_sq
            _move_towards(idx, val, vecs[VNEG], scal, SM, beta, unit)
        scal[GAMMA] = 0.5 * _norm_u(scal)
    return from_units(s, scal[UNIT]), pred, True, gamma_out


# -- family dispatchers (one rule; inlined into the family's loops) --------------------------

@jit(inline=INLINE)
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    return omm_score(idx, val, vecs, ints, scal, hp, fast)


@jit(inline=INLINE)
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    return omm_step(idx, val, y, vecs, ints, scal, hp, fast)
