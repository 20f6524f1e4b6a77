"""Harrington, Herbrich, Kivinen, Platt & Williamson, "Online Bayes Point Machines" (PAKDD
2003), §4, on the experiment engine (``olc reproduce obpm``).

Modules (as in every reproduction, docs/adding-a-reproduction.md): ``reproduction`` (the
declaration: options checked, all runs of all parts planned for one call of the engine's
runner), ``command`` (its options), ``data`` (§4.1's artificial problem, §4.2's MNIST label
drift, Adult/Web as training-then-test streams), ``spec`` (Figure 2, Figure 3 and Table 2
as engine specs), ``paper`` (the published numbers), ``claims``, ``tables`` (Tables 1–2,
``timing.md``, the drift stream), ``figures`` (Figures 1–3), ``summary`` (where and why we
differ, the decisions where the paper is silent); and what only this paper needs:
``artificial`` (§4.1's runs, the margin γ_z(w), the parameter selection), ``models`` and
``protocols`` (trial-seeded learners reporting their member updates; epochs-then-test),
``svm`` (the SVM line).
"""
