"""``olc reproduce textbook``: the textbook chapter on online learning (ch. 31), Figs. 31.4,
31.5, 31.8 and 31.9, regenerated from the data processes of its MATLAB codes (Figs. 31.3,
31.5, 31.7, 31.9) with the catalogue's learners, and its claims tested on the records.

Modules: ``data`` (the codes' data processes), ``runs`` (learners, measures, engine runs),
``figures``, ``claims`` (claims, tables), ``reproduce`` (the pipeline), ``command`` (CLI).
"""
