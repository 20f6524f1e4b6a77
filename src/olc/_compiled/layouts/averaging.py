"""The averaging state (``average=`` of the perceptron, PA, SGD and generalized-perceptron
learners): named fields appended to a rule's own layout, only when the learner averages.

A learner with ``average=False`` keeps its rule's layout exactly (same state, same
fingerprint: files saved before averaging existed load unchanged). With averaging on, the
learner uses :func:`averaged_layout` of it, which appends

- the vector row ``avg_sum`` (scikit-learn's ``average_weights`` array, the lazy sum),
- the scalar block ``avg_rows`` t (rows seen; averaging starts at t = ``average``),
  ``avg_count`` n (iterates averaged), ``avg_a`` and ``avg_b`` (the two scalars of the lazy
  sum, scikit-learn's ``average_a`` / ``average_b``), ``avg_bias`` (the averaged intercept),
  and for rules on a scaled vector w = s·v also ``avg_base_scale`` (the scale at the last
  rebase),
- the hyper-parameter ``average`` (the row t at which averaging starts, ≥ 1).

The averaged weights are (avg_sum + avg_a·v)·(1/avg_b), v the rule's weight row (raw, when
the rule keeps w = s·v); ``_compiled/kernels/averaging.py`` keeps them.
"""
from .base import Layout, fields, _names

#: The averaging block, relative to its first scalar slot (the compiled kernels index it so).
AveragingScal = fields("rows", "count", "a", "b", "bias", "base_scale")
AVERAGE_HP = "average"
SUM_ROW = "avg_sum"


def averaged_fields(enum, extra):
    """``enum``'s fields followed by ``extra`` (an ``IntEnum`` made by ``fields``)."""
    return fields(*_names(enum), *extra)


def averaged_scalars(scalars, scaled=False):
    """The rule's scalar fields followed by the averaging block (``avg_base_scale`` only for
    rules on a scaled vector)."""
    block = _names(AveragingScal) if scaled else _names(AveragingScal)[:-1]
    return averaged_fields(scalars, ["avg_" + n for n in block])


def averaged_vectors(vectors):
    return averaged_fields(vectors, [SUM_ROW])


def averaged_hp(hp):
    return averaged_fields(hp, [AVERAGE_HP])


def averaged_layout(layout, hp, scalars, vectors):
    """``layout``'s rule with the averaging fields (``hp``, ``scalars``, ``vectors``: the
    enums made by the functions above, which the rule's compiled code indexes)."""
    assert _names(hp)[:layout.n_hp] == _names(layout.hp)
    assert _names(scalars)[:layout.n_scalars] == _names(layout.scalars)
    assert _names(vectors)[:layout.n_vectors] == _names(layout.vectors)
    assert layout.int_slots is None and layout.int_blocks is None
    assert not (layout.variable_vectors or layout.variable_scalars or layout.variable_hp)
    # The averaging kernel changes avg_sum on x's support only, and SGD's rebase
    # u ← (u + a·v)/b acts coordinate by coordinate (0 stays 0): growth is the rule's own.
    return Layout(layout.rule, hp=hp, scalars=scalars, vectors=vectors, growth=layout.growth,
                  family=layout.family)
