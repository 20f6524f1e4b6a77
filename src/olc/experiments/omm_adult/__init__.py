"""Ho-Nguyen et al. 2025 (the OMM paper), §6 and Appendix B: the Adult experiments, on the
experiment engine (``olc reproduce omm-adult``), and Example 5.1
(``olc reproduce omm-example-5-1``).

Modules (as in every reproduction, docs/adding-a-reproduction.md): ``reproduction`` (the
declaration), ``command`` (its options), ``data`` (App. B.1's Adult set from the raw
files), ``geometry`` (its exact geometry, Lemma 3.1 and Eq. 1, cached), ``translations``
(the variants of App. B.2 and their checks), ``spec`` (the learners' settings of App. B.3,
the passes of B.4, the runs), ``paper`` (the published numbers), ``claims``, ``tables``
(Tables 2–4 and Figure 1 with the paper's numbers in "[paper]" columns), ``summary``;
``example_5_1``: Example 5.1's counts per c.
"""
