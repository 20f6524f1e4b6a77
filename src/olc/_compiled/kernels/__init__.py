"""Compiled kernels every family shares: vector kernels and the inlining policy (``vector``),
the scaled vector w = s·v (``scaled``), the lazy average (``averaging``) and the
counter-based random numbers (``random``)."""
