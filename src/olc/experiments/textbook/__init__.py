"""``olc reproduce textbook``: the textbook chapter on online learning (ch. 31), Figs. 31.4,
31.5, 31.8 and 31.9, regenerated from the data processes of its MATLAB codes (Figs. 31.3,
31.5, 31.7, 31.9) with the catalogue's learners, and its claims tested on the records.

Modules (as in every reproduction, docs/adding-a-reproduction.md): ``reproduction`` (the
declaration), ``command`` (its options), ``data`` (the codes' data processes), ``spec``
(learners, measures, engine runs), ``claims``, ``tables``, ``figures``, ``summary`` (the
summary's notes).
"""
