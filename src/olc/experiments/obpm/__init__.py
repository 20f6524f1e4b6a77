"""Harrington, Herbrich, Kivinen, Platt & Williamson, "Online Bayes Point Machines" (PAKDD
2003), §4, on the experiment engine (``olc reproduce obpm``).

- :mod:`.data`: §4.1's artificial problem, §4.2's MNIST label drift, Adult/Web as
  training-then-test streams.
- :mod:`.artificial`: §4.1's runs (one per Monte Carlo run and learner family), the margin
  γ_z(w), the parameter selection by training error.
- :mod:`.models`, :mod:`.protocols`: engine models (trial-seeded learners reporting their
  member updates) and the epochs-then-test protocol of Table 2.
- :mod:`.spec`: Figure 2, Figure 3 and Table 2 as engine specs; :mod:`.svm`: the SVM line.
- :mod:`.paper`: the published numbers; :mod:`.tables`, :mod:`.figures`: Tables 1–2,
  Figures 1–3; :mod:`.claims`, :mod:`.report`: the claims and ``summary.md``.
- :mod:`.reproduce`: the pipeline (all runs in one call of the engine's runner);
  :mod:`.command`: the CLI.
"""
