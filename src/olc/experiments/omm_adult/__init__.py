"""Ho-Nguyen et al. 2025 (the OMM paper), §6 and Appendix B: the Adult experiments, on the
experiment engine (``olc reproduce omm-adult``).

- :mod:`.geometry`: the data (App. B.1, :mod:`olc.experiments.adult_omm_data`) and its
  exact geometry (Lemma 3.1, Eq. 1), cached; the variants of App. B.2 are translations in
  :mod:`olc.data.omm_translations`.
- :mod:`.spec`: the learners' settings (App. B.3), passes (B.4), metrics (§6) and the runs.
- :mod:`.tables`: Tables 2–4 and Figure 1 with the paper's numbers
  (:mod:`olc.experiments.omm_paper_values`) in "[paper]" columns.
- :mod:`.claims`: each claim of §6/B.4 as a function of the results, and ``summary.md``.
- :mod:`.reproduce`: the pipeline; runs go through :mod:`olc.experiments.engine`'s runner
  and run store (resumable, joblib or Dask).
"""
from ..._lazy import lazy_attributes

# Exported names load their modules on first use: the CLI imports ``.command`` (typer only)
# at start-up without numpy, scikit-learn or numba.
_EXPORTS = {
    "BIASES": "olc.data.omm_translations",
    "THETAS": "olc.data.omm_translations",
    "Geometry": "olc.data.omm_translations",
    "Variant": "olc.data.omm_translations",
    "certify_max_margin": "olc.data.omm_translations",
    "class_diameter": "olc.data.omm_translations",
    "geometry_of": "olc.data.omm_translations",
    "make_variant": "olc.data.omm_translations",
    "make_variants": "olc.data.omm_translations",
    "normalize_margin": "olc.data.omm_translations",
    "normalized_geometry": "olc.data.omm_translations",
    "variant_shift": "olc.data.omm_translations",
    "verify_variant": "olc.data.omm_translations",
    "CLAIMS": "olc.experiments.omm_adult.claims",
    "MissingRun": "olc.experiments.omm_adult.claims",
    "evaluate_claims": "olc.experiments.omm_adult.claims",
    "summary_markdown": "olc.experiments.omm_adult.claims",
    "Problem": "olc.experiments.omm_adult.geometry",
    "load_adult": "olc.experiments.omm_adult.geometry",
    "prepare": "olc.experiments.omm_adult.geometry",
    "execute_runs": "olc.experiments.omm_adult.reproduce",
    "reproduce": "olc.experiments.omm_adult.reproduce",
    "run": "olc.experiments.omm_adult.reproduce",
    "ALGORITHMS": "olc.experiments.omm_adult.spec",
    "LABELS": "olc.experiments.omm_adult.spec",
    "PASSES_PERMUTED": "olc.experiments.omm_adult.spec",
    "PHI": "olc.experiments.omm_adult.spec",
    "PUMMA_DELTA": "olc.experiments.omm_adult.spec",
    "SEED": "olc.experiments.omm_adult.spec",
    "SINGLE_PASS_ONLY": "olc.experiments.omm_adult.spec",
    "TRANSLATION_INVARIANT": "olc.experiments.omm_adult.spec",
    "learner_params": "olc.experiments.omm_adult.spec",
    "pass_settings": "olc.experiments.omm_adult.spec",
    "run_algorithm": "olc.experiments.omm_adult.spec",
    "runs": "olc.experiments.omm_adult.spec",
    "tau_check_set": "olc.experiments.omm_adult.spec",
    "BIAS_HEAD": "olc.experiments.omm_adult.tables",
    "_lookup": "olc.experiments.omm_adult.tables",
    "csv_columns": "olc.experiments.omm_adult.tables",
    "markdown": "olc.experiments.omm_adult.tables",
    "plot_figure_1": "olc.experiments.omm_adult.tables",
    "table_rows": "olc.experiments.omm_adult.tables",
    "write_tables": "olc.experiments.omm_adult.tables",
}
__getattr__, __dir__ = lazy_attributes(__name__, globals(), _EXPORTS)
__all__ = sorted(_EXPORTS)
