"""Update rules, one module per family. Each rule is a pair of compiled functions:

``score(idx, val, vecs, scal, hp, fast) -> float``
    the raw decision value w·x + b of the current classifier (no side effects);
``step(idx, val, y, vecs, scal, hp, fast) -> (score, prediction, updated, aux)``
    one round of the online protocol: predict with the current classifier, then update.

State lives in three arrays owned by the learner object: ``vecs`` (k × d float64: weight or
certificate vectors), ``scal`` (float64 scalars: bias, scales, cached norms; slot layout per
rule), and ``hp`` (float64 hyper-parameters). ``aux`` is one per-step number a rule may report
(e.g. OMM's predicted margin γ_t); 0.0 when it has none.

Contract, relied on by the loops (which then test the row only when the score is not finite,
instead of on every row): a row with a NaN/inf value yields a non-finite score and leaves the
state untouched; a step whose update would not be finite is declined and reported as a
non-finite score. Rules are inlined into the loops (``inline="always"``).
"""
