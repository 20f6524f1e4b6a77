"""Named layouts: the contract between a learner (Python) and its compiled rule.

A rule's state is three arrays — ``vecs`` (float64 rows of length d), ``ints`` (int64:
named integer slots, then integer blocks of length d: support lists, positions) and ``scal``
(float64 named slots) — and its hyper-parameters one float64 array ``hp``. Each rule declares
the names once, in ``layouts/<family>.py`` (plain Python, so learners import them without
numba), as ``IntEnum`` classes made by :func:`fields`:

    PerceptronHP = fields("eta", "fit_intercept", "mistake_only")
    ...  hp[PerceptronHP.ETA]           # in the rule: numba folds the member to a constant
    ...  PERCEPTRON.pack(eta=1.0, ...)  # in the learner: by name, error on missing or extra

and a :class:`Layout` that gathers them. Nobody indexes the arrays with bare numbers.
The layout's :attr:`Layout.fingerprint` is saved with every model file, so a file written
for another layout is refused instead of misread.

A layout also declares whether its state can *grow* exactly when new features appear (River
streams name features as they come): ``growth=grows(why)`` or ``growth=refuses(why)``, the
reason next to the state it is about. ``olc.river.growth`` reads it; the contract suite fails
on a layout that declares neither. It is not part of the fingerprint (it says what the rule
does with the arrays, not how they are laid out).

A layout of olc's own rules declares the compiled family its rule belongs to, ``family=``:
``rule_ids.Family.rules`` is collected from those declarations (``rule_ids.rules_of``), so a
rule id is listed once, in ``rule_ids``, and joins its family through its layout. Not part of
the fingerprint either (a file saved before keeps loading).
"""
import hashlib
from dataclasses import dataclass
from enum import IntEnum

import numpy as np


def fields(*names):
    """An ``IntEnum`` whose members NAME (upper-cased ``names``) are slots 0, 1, …"""
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate field names in {names}")
    return IntEnum("Fields", [(n.upper(), i) for i, n in enumerate(names)])


@dataclass(frozen=True)
class Growth:
    """Whether a layout's state can be widened exactly (``exact``), and why (or why not).

    Exact growth pads new columns with each coordinate's initial state and needs two facts of
    the rule: (a) a coordinate no example has touched keeps its initial value whatever the
    width (the step reads and writes x's coordinates, scalars, and whole-vector operations
    that act coordinate by coordinate); (b) the width never enters the arithmetic (no sum over
    all d coordinates, no count, threshold or error bound computed from d)."""
    exact: bool
    why: str


def grows(why):
    """The state grows exactly; ``why``: how the rule satisfies (a) and (b) of :class:`Growth`."""
    return Growth(True, why)


def refuses(why):
    """The state keeps the width it started with; ``why``: the fact of the rule that forbids
    growing (shown to the user when a River stream brings an unknown feature)."""
    return Growth(False, why)


_DECLARED = {}  # rule id -> the family its layouts declare (Layout(..., family=...))


def declared_families():
    """rule id -> family name, as declared by every layout constructed so far
    (``rule_ids.collect`` imports olc's layout modules first). Read-only."""
    return _DECLARED


def _names(enum):
    return () if enum is None else tuple(m.name.lower() for m in enum)


class Layout:
    """The named hyper-parameters and state of one rule.

    hp, scalars, vectors, int_slots, int_blocks: enums made by :func:`fields` (or None).
    ``variable_vectors`` / ``variable_hp`` / ``variable_scalars``: the named rows/slots are a
    prefix and more may follow (e.g. OBPM's N member blocks); the learner sizes them.
    growth: :func:`grows` or :func:`refuses` (see the module docstring).
    family: the name of the compiled family of ``rule`` (``rule_ids.FAMILIES``); olc's
    layouts declare it, and their family's ``rules`` are collected from it.
    """

    def __init__(self, rule, *, hp, scalars, vectors, int_slots=None, int_blocks=None,
                 variable_vectors=False, variable_hp=False, variable_scalars=False,
                 growth=None, family=None):
        self.rule = int(rule)
        self.family = family
        if family is not None:
            declared = _DECLARED.setdefault(self.rule, family)
            if declared != family:
                raise ValueError(f"rule {self.rule}: a layout declares family {family!r}, "
                                 f"another {declared!r}")
        self.growth = growth  # a Growth (grows / refuses); None: undeclared, a contract error
        self.hp, self.scalars, self.vectors = hp, scalars, vectors
        self.int_slots, self.int_blocks = int_slots, int_blocks
        self.variable_vectors = variable_vectors
        self.variable_hp = variable_hp
        self.variable_scalars = variable_scalars

    # sizes -----------------------------------------------------------------------------------
    @property
    def n_hp(self):
        return len(_names(self.hp))

    @property
    def n_scalars(self):
        return len(_names(self.scalars))

    @property
    def n_vectors(self):
        return len(_names(self.vectors))

    @property
    def n_int_slots(self):
        return len(_names(self.int_slots))

    @property
    def n_int_blocks(self):
        return len(_names(self.int_blocks))

    def n_ints(self, n_features):
        """Length of the integer state for ``n_features`` columns (0: the rule keeps none)."""
        if self.n_int_slots == 0 and self.n_int_blocks == 0:
            return 0
        return self.n_int_slots + self.n_int_blocks * n_features

    def int_block(self, block, n_features):
        """Offset of integer block ``block`` (a member of ``int_blocks``) in ``ints``."""
        return self.n_int_slots + int(block) * n_features

    # packing ---------------------------------------------------------------------------------
    def pack(self, tail=(), **values):
        """``hp`` from keyword values named as the fields (lower case); every field is required
        and no other is accepted. ``tail``: extra values after the named ones
        (``variable_hp`` layouts only)."""
        names = _names(self.hp)
        missing = [n for n in names if n not in values]
        extra = sorted(set(values) - set(names))
        if missing or extra:
            raise TypeError(f"rule {self.rule}: hyper-parameters {names}; missing {missing}, "
                            f"unexpected {extra}")
        if len(tail) and not self.variable_hp:
            raise TypeError(f"rule {self.rule} takes no variable hyper-parameters")
        hp = np.empty(len(names) + len(tail))
        for i, n in enumerate(names):
            hp[i] = float(values[n])
        hp[len(names):] = tail
        return hp

    def initial_state(self, n_features, n_vectors=None, n_scalars=None):
        """Zeroed (vecs, ints, scal) of this layout's shapes."""
        vecs = np.zeros((self.n_vectors if n_vectors is None else n_vectors, n_features))
        ints = np.zeros(self.n_ints(n_features), dtype=np.int64)
        scal = np.zeros(self.n_scalars if n_scalars is None else n_scalars)
        return vecs, ints, scal

    # identity --------------------------------------------------------------------------------
    def describe(self):
        return {"rule": self.rule, "hp": list(_names(self.hp)),
                "scalars": list(_names(self.scalars)), "vectors": list(_names(self.vectors)),
                "int_slots": list(_names(self.int_slots)),
                "int_blocks": list(_names(self.int_blocks)),
                "variable": [self.variable_vectors, self.variable_hp, self.variable_scalars]}

    @property
    def fingerprint(self):
        """16 hex digits naming this exact layout (order and names of every field)."""
        text = repr(sorted(self.describe().items()))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __repr__(self):
        return f"Layout(rule={self.rule}, fingerprint={self.fingerprint})"
