"""Update rules. A family's rule module (``rule_ids.Family.module``: ``linear``, ``omm``,
``regularized``, …) defines its dispatchers; the other modules here hold the rules it
dispatches to (``shen_dietterich``, ``l1_ball``, ``romma``, …) and the OMM rules' geometry
(``omm_geometry``). What a rule module imports, transitively, is its family's compiled
sources (``_compiled/sources.py``: the disk cache is keyed by them), so a rule's code
depends on other compiled files only through import statements. Each rule is a pair of compiled functions over one row ``(idx, val)``
(``kernels.vector``: dense, CSR, or binary CSR with ``val`` None):

``score(idx, val, vecs, ints, scal, hp, fast) -> float``
    the raw decision value w·x + b of the current classifier (no side effects);
``step(idx, val, y, vecs, ints, scal, hp, fast) -> (score, prediction, updated, aux)``
    one round of the online protocol: predict with the current classifier, then update;

and the family's ``family_score`` / ``family_step`` take the rule id first and dispatch
among its rules (the multiclass family's take its K-class state instead:
``rules/multiclass_pa.py``). The loop templates call only these two (``loader``).

State lives in arrays owned by the learner object, named by the rule's layout
(``layouts/``): ``vecs`` (k × d float64: weight or certificate vectors), ``ints`` (int64
slots and blocks: support lists, positions), ``scal`` (float64 scalars: bias, scales, cached
norms), and ``hp`` (float64 hyper-parameters). ``aux`` is one per-step number a rule may
report (e.g. OMM's predicted margin γ_t); 0.0 when it has none. ``fast`` selects the
reassociated dot products (``olc.strict_mode`` clears it).

Contract, relied on by the loops (which then test the row only when the score is not finite,
instead of on every row): a row with a NaN/inf value yields a non-finite score and leaves the
state untouched; a step whose update would not be finite is declined and reported as a
non-finite score.

Inlining (``kernels/vector.py``): a rule's per-row path is IR-inlined (``INLINE``) or
inlined by LLVM (``LLVM_INLINE``: the steps of the families with binary rows); its rare
paths are calls (``COLD``, ``SHARED``). The dispatchers of ``linear``, ``omm`` and
``multiclass_pa`` are IR-inlined into the loops; the other families' are compiled once per
row type and called (one call per row, cheaper to compile than an inlined copy per loop).
"""
