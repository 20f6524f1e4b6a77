"""Model files of olc 0.1.0 (format ``olc-learner/1``): what their state arrays held, learner
by learner, and how each maps onto this olc's named layouts.

A 0.1.0 file has no ``ints``, and ``scal`` had 16 slots for every rule. A learner listed in
``_UPGRADES`` had another state shape then and is converted by its function; for any other
learner the layout's named slots are a prefix of the old 16 (refused if a dropped slot held a
value) and the rule keeps no integer state. Errors go through the checker of
:mod:`olc.persistence`, which names the file.
"""
import numpy as np

from .._compiled.layouts.base import fields
from .._compiled.layouts.bayes_point import (
    FIRST_MEMBER_BLOCK,
    FIRST_MEMBER_ROW,
    MEMBER_BLOCK,
    ObpmScal,
    ObpmVec,
    obpm_sizes,
)
from .._compiled.layouts.second_order import ArowDiagonalVec
from .._compiled.layouts.omm_variants import (
    NOMM_COUNTERS,
    NOMM_HEADER,
    NOMM_ROWS,
    NommInt,
    NommScal,
    nomm_sizes,
)


def upgrade_v1(check, learner, arrays):
    """(vecs, ints or None, scal) of this olc from the ``vecs`` and ``scal`` of a 0.1.0 file
    (None: the rule keeps no integer state)."""
    vecs, scal = arrays["vecs"], arrays["scal"]
    upgrade = _UPGRADES.get(type(learner).__name__)
    if upgrade is not None:
        try:
            return upgrade(learner, vecs, scal)
        except (ValueError, IndexError, TypeError) as exc:
            check.refuse(f"state saved by olc 0.1.0 cannot be upgraded: {exc}")
    layout = getattr(learner, "_layout", None)
    if layout is not None and not layout.variable_scalars and scal.ndim == 1:
        keep = layout.n_scalars
        dropped = scal[keep:]
        if np.any(dropped != 0):
            k = keep + int(np.flatnonzero(dropped != 0)[0])
            check.fail("scal (olc 0.1.0 file)", f"zeros beyond the {keep} slot(s) of "
                       f"{layout.describe()['scalars']}", f"scal[{k}] = {scal[k].item()!r}")
        scal = scal[:keep]
    if np.size(learner._initial_ints(max(vecs.shape[-1], 1))):
        check.refuse(
            f"saved by olc 0.1.0, which kept no integer state; this olc's "
            f"{type(learner).__name__} needs one and defines no upgrade "
            "(olc.persistence.v0_1_0): refit the model")
    return vecs, None, scal


def upgrade(learner, vecs, scal):
    """(vecs, ints, scal) of ``learner``'s layout from a 0.1.0 state, for a learner whose
    state changed shape since (``KeyError`` for the others)."""
    return _UPGRADES[type(learner).__name__](learner, vecs, scal)


# -- helpers -----------------------------------------------------------------------------------

def _scalars(layout, old_scal, names, n_scalars=None, **values):
    """A zeroed ``scal`` of ``layout`` (``n_scalars`` slots when the layout has variable
    scalars) with the slots ``names`` taken from the old array's first ``len(names)`` slots in
    that order, and the other slots given by name in ``values``."""
    new = np.zeros(layout.n_scalars if n_scalars is None else n_scalars)
    for old, name in enumerate(names):
        new[layout.scalars[name.upper()]] = old_scal[old]
    for name, value in values.items():
        new[layout.scalars[name.upper()]] = value
    return new


def _by_name(layout, vecs, scal, vector_names, scalar_names):
    """(vecs, ints, scal) of ``layout`` from a state whose float rows and scalar slots held
    the fields ``vector_names`` / ``scalar_names`` in that order (its 16 scalar slots were
    unused past those): every field of the layout is taken by name, integer fields (kept as
    floats then) converted exactly."""
    old = {**dict(zip(vector_names, vecs)), **dict(zip(scalar_names, scal))}
    d = vecs.shape[1]
    new_vecs, ints, new_scal = layout.initial_state(d)
    for field in layout.vectors:
        new_vecs[field] = old[field.name.lower()]
    for field in layout.scalars:
        new_scal[field] = old[field.name.lower()]
    for field in layout.int_slots or ():
        ints[field] = int(old[field.name.lower()])
    for block in layout.int_blocks or ():
        start = layout.int_block(block, d)
        ints[start:start + d] = old[block.name.lower()].astype(np.int64)
    return new_vecs, ints, new_scal


def _prefix_of_16(learner, vecs, scal):
    """The same rows; the layout's slots were the first of the 16."""
    return vecs, learner._initial_ints(vecs.shape[1]), scal[:learner._layout.n_scalars].copy()


# -- Shen & Dietterich's PA family and NORMA: w = S·v --------------------------------------------

# The support list and positions were float rows after v, the list length a float slot after
# the norm's error bound.
_SHEN_DIETTERICH_VECTORS = ("v", "support_list", "support_pos")
_SHEN_DIETTERICH_SCALARS = ("bias_raw", "scale", "norm", "norm_err", "support_count")
_NORMA_VECTORS = ("v",)
_NORMA_SCALARS = ("bias", "scale", "rounds")


def _shen_dietterich(learner, vecs, scal):
    return _by_name(learner._layout, vecs, scal, _SHEN_DIETTERICH_VECTORS,
                    _SHEN_DIETTERICH_SCALARS)


def _norma(learner, vecs, scal):
    return _by_name(learner._layout, vecs, scal, _NORMA_VECTORS, _NORMA_SCALARS)


# -- ROMMA, a-ROMMA, ALMA₂, PUMMA -----------------------------------------------------------------

# A tracked vector's coordinate list was a float row after it, with a float count slot, −1
# meaning "possibly every coordinate".
_ROMMA = (fields("v", "v_list"), fields("scale", "raw_bias", "norm", "v_count", "err"))
_ALMA = (fields("v"), fields("scale", "raw_bias", "sqnorm", "k"))
_PUMMA = (fields("v", "v_list", "p", "p_list", "n", "n_list"),
          fields("scale", "bias", "norm", "wp", "wn", "pp", "nn", "pn", "v_count",
                 "p_count", "n_count", "phase", "y1", "err"))


def _scaled_margin(old_layout):
    def upgrade(learner, vecs, scal):
        """The named rows and slots are copied by name; each tracked vector's support
        becomes its nonzero coordinates, in increasing order (the old lists, which may
        repeat or say "all", only ever had to cover them)."""
        layout = learner._layout
        old_vec, old_scal = old_layout
        d = vecs.shape[1]
        new_vecs, new_ints, new_scal = layout.initial_state(d)
        for member in layout.vectors:
            new_vecs[member] = vecs[old_vec[member.name]]
        for member in layout.scalars:
            new_scal[member] = scal[old_scal[member.name]]
        for member in layout.int_slots or ():  # V_COUNT, P_COUNT, …: one per tracked vector
            name = member.name[:-len("_COUNT")]
            support = np.flatnonzero(new_vecs[layout.vectors[name]])
            first = layout.int_block(layout.int_blocks[name + "_LIST"], d)
            positions = layout.int_block(layout.int_blocks[name + "_POS"], d)
            new_ints[member] = support.size
            new_ints[first:first + support.size] = support
            new_ints[positions + support] = np.arange(1, support.size + 1)
        return new_vecs, new_ints, new_scal
    return upgrade


# -- OMM: e-OMM, n-OMM, ℓp e-OMM -------------------------------------------------------------------

_EFFICIENT_OMM_SCALARS = ("sp", "sm", "pp", "mm", "pm", "phase", "y1", "gamma")  # slots 0–7
_NOMM_HEADER = ("bias", "phase", "y1", "gamma", "n_stored", "cap", "k", "kmax", "sigma",
                "grow", "scale", "status", "majors")  # 16 slots, 13 used
_NOMM_HEADER_SLOTS = 16
_LP_SCALARS = ("bias", "phase", "y1", "gamma", "norm")


def _efficient_omm(learner, vecs, scal):
    """The same rows and slots in the same order, 16 scalar slots cut to the named ones, in
    the data's own units (UNIT = 1 once a nonzero row was stored)."""
    new = _scalars(learner._layout, scal, _EFFICIENT_OMM_SCALARS,
                   unit=1.0 if np.any(vecs) else 0.0)
    return vecs, learner._initial_ints(vecs.shape[1]), new


def _naive_omm(learner, vecs, scal):
    """The rows of ``vecs`` are unchanged; the 16-slot header loses CAP and KMAX (the shapes
    say them), the counters and the corral (float slots then) move to ``ints``; in the data's
    own units."""
    d = vecs.shape[1] - 2
    header = dict(zip(_NOMM_HEADER, scal))
    cap, kmax = int(header["cap"]), int(header["kmax"])
    lam, corral, keys = np.split(scal[_NOMM_HEADER_SLOTS:], [cap, cap + kmax])
    stored = vecs[NOMM_ROWS + 2 * kmax:NOMM_ROWS + 2 * kmax + cap, :d]
    kept = [n for n in _NOMM_HEADER if n.upper() in NommScal.__members__]
    new_scal = _scalars(learner._layout, [header[n] for n in kept], kept,
                        n_scalars=nomm_sizes(cap, d)[2],
                        unit=1.0 if np.any(stored) else 0.0)
    new_scal[NOMM_HEADER:] = np.concatenate([lam, keys])
    ints = learner._initial_ints(d)
    for name in NommInt.__members__:
        ints[NommInt[name]] = int(header[name.lower()])
    ints[NOMM_COUNTERS:NOMM_COUNTERS + kmax] = corral
    return vecs, ints, new_scal


def _efficient_omm_lp(learner, vecs, scal):
    """The same rows, the 16 scalar slots cut to the named ones (same order)."""
    return vecs, learner._initial_ints(vecs.shape[1]), _scalars(learner._layout, scal,
                                                                 _LP_SCALARS)


# -- Winnow, Weighted Majority, Randomized Weighted Majority -------------------------------

# vecs = (weights, exponents or counts); WM/RWM's scalar slots 0–2, in order.
_EXPERT_SLOTS = ("ref", "step", "eta")


def _expert_ints(learner, counts, **slots):
    """The integer state from the float row of exponents or counts."""
    layout = learner._layout
    block = layout.int_blocks(0)
    ints = learner._initial_ints(counts.shape[0])
    start = layout.int_block(block, counts.shape[0])
    ints[start:start + counts.shape[0]] = counts
    for name, value in slots.items():
        ints[layout.int_slots[name.upper()]] = value
    return ints


def _winnow(learner, vecs, scal):
    """The exponents (a float row then) move to the integer state; β stays in the first
    scalar slot."""
    weights, exponents = vecs
    return (weights[np.newaxis].copy(), _expert_ints(learner, exponents),
            _scalars(learner._layout, scal, ("beta",)))


def _weighted_majority(learner, vecs, scal):
    """The mistake counts (a float row then), the reference count and the round counter move
    to the integer state; η stays."""
    weights, counts = vecs
    old = dict(zip(_EXPERT_SLOTS, scal))
    ints = _expert_ints(learner, counts, ref=old["ref"], step=old["step"])
    return weights[np.newaxis].copy(), ints, _scalars(learner._layout, [old["eta"]], ("eta",))


# -- the generalized perceptron and OBPM -----------------------------------------------------------

# OBPM: vecs = [sum, member rows…, scratch]; scal = an 8-slot header starting with this
# layout's header fields, then 4-slot member blocks.
_OBPM_SUM_ROW, _OBPM_FIRST_MEMBER_ROW = 0, 1
_OBPM_HEADER, _OBPM_BLOCK = 8, 4


def _obpm(learner, vecs, scal):
    first = _OBPM_FIRST_MEMBER_ROW
    n = vecs.shape[0] - first - 1  # the scratch row is last
    rows, n_scalars = obpm_sizes(n)
    new_vecs, _, new_scal = learner._layout.initial_state(vecs.shape[1], rows, n_scalars)
    new_vecs[ObpmVec.SUM] = vecs[_OBPM_SUM_ROW]
    new_vecs[FIRST_MEMBER_ROW:] = vecs[first:first + n]
    new_scal[:len(ObpmScal)] = scal[:len(ObpmScal)]
    blocks = scal[_OBPM_HEADER:].reshape(n, _OBPM_BLOCK)
    new_scal[FIRST_MEMBER_BLOCK:].reshape(n, MEMBER_BLOCK)[:, :_OBPM_BLOCK] = blocks
    return new_vecs, learner._initial_ints(vecs.shape[1]), new_scal


# -- AROW ------------------------------------------------------------------------------------------

def _arow(learner, vecs, scal):
    """The same vecs; the 16 scalar slots began with this layout's (none for the full
    covariance)."""
    full = vecs.shape[0] > len(ArowDiagonalVec)  # μ and the d + 1 rows of Σ
    n_features = vecs.shape[1] - (1 if full else 0)
    return vecs, learner._initial_ints(n_features), scal[:learner._layout.n_scalars].copy()


#: The learners whose state changed shape since olc 0.1.0, by class name (a 0.1.0 file names
#: its class, checked against the catalogue before its state is read).
_UPGRADES = {
    "ObjectiveRegularizedPA": _shen_dietterich,
    "L2ConstrainedPA": _shen_dietterich,
    "L1ConstrainedPA": _shen_dietterich,
    "NORMA": _norma,
    "ROMMA": _scaled_margin(_ROMMA),
    "AggressiveROMMA": _scaled_margin(_ROMMA),
    "ALMA2": _scaled_margin(_ALMA),
    "PUMMA": _scaled_margin(_PUMMA),
    "EfficientOMM": _efficient_omm,
    "NaiveOMM": _naive_omm,
    "EfficientOMMLp": _efficient_omm_lp,
    "Winnow": _winnow,
    "WeightedMajority": _weighted_majority,
    "RandomizedWeightedMajority": _weighted_majority,
    "GeneralizedPerceptron": _prefix_of_16,  # (bias, sq, updates, work)
    "OnlineBayesPointMachine": _obpm,
    "AROW": _arow,
    "AROWRegression": _arow,
}
