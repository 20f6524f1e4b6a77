"""Numba-compiled core: vector kernels, per-algorithm update rules, and one online loop per
input layout (dense rows, CSR rows) and per family of rules. Nothing here knows about files,
labels or metrics.

Importing this package compiles nothing and does not import numba: ``rule_ids`` is plain
Python, and ``families.load`` imports, compiles (on first use) and caches one family at a time
(see ``families`` for the disk cache and the compile notice).
"""
