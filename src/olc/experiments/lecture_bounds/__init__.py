"""``olc reproduce lecture-bounds``: the mistake bounds of Kitani's lecture notes on online
linear classification measured on generated sequences with known margin, target and best
expert, and a sequence on which the Perceptron's bound is met exactly.

Modules (as in every reproduction, docs/adding-a-reproduction.md): ``reproduction`` (the
declaration), ``command`` (its options), ``data`` (the generated sequences), ``paper`` (the
notes' bounds, with their equations), ``spec`` (one engine run per table row), ``claims``,
``tables``, ``figures``.
"""
