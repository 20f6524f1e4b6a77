"""``olc reproduce lecture-bounds``: the mistake bounds of Kitani's lecture notes on online
linear classification measured on generated sequences with known margin, target and best
expert, and a sequence on which the Perceptron's bound is met exactly.

Modules: ``generators`` (the sequences), ``bounds`` (the formulas, with their equations),
``runs`` (one engine run per table row), ``report`` (table, figure, claims), ``reproduce``
(the pipeline), ``command`` (CLI).
"""
