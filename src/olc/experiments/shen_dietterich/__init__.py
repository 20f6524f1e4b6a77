"""``olc reproduce shen-dietterich``: Shen & Dietterich (2009) §4, regularized large-margin
online learning on drifting streams, on the experiment engine.

Modules (as in every reproduction, docs/adding-a-reproduction.md): ``reproduction`` (the
declaration), ``command`` (its options), ``data`` (the drifting streams), ``spec`` (the
engine spec: learners, grids, protocol), ``models`` and ``final_models`` (the
feature-selection baselines and the final weights Figure 3 draws), ``claims``, ``tables``
(our numbers beside the paper's statements), ``figures``.
"""
