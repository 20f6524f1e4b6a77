"""Numba-compiled core: vector kernels, per-algorithm update rules, and one online loop per
input layout (dense rows, CSR rows). Nothing here knows about files, labels or metrics."""
