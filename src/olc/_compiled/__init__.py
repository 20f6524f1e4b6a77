"""Numba-compiled core: vector kernels, update rules, and online loops written once as
templates and instantiated per family of rules. Nothing here knows about files, labels or
metrics. The rooms:

- ``rule_ids``   the table of rule ids and families (plain Python);
- ``kernels/``   compiled kernels every family shares (vectors, scaled vectors, averaging,
                 random numbers);
- ``layouts/``   the named layouts of the rules' state (plain Python);
- ``rules/``     the update rules, a dispatcher module per family; the OMM rules' geometry
                 in ``rules/omm_geometry``;
- ``loops/``     the loop templates (binary, multiclass, one-vs-rest, one example at a time);
- ``loader``     the one loader: instantiates a template for a family, cached on disk by a
                 fingerprint of its sources; ``caching``: the ``jit`` whose cache it enables;
- ``families``   a family's loops by name or rule id; ``notice``: the compile notice;
- ``driver/``    the Python side of the boundary: inputs in the loops' layout, the calls.

Importing this package compiles nothing and does not import numba: ``families.load``
imports, compiles (on first use) and caches one family at a time.
"""
