"""The Shen & Dietterich reproduction as an engine :class:`Reproduction`."""
from __future__ import annotations

from ..engine.spec import Reproduction
from . import data as sd_data
from .claims import CLAIMS
from .figures import figures
from .spec import experiment

CITATION = ("J. Shen and T. G. Dietterich. A Family of Large Margin Linear Classifiers and Its "
            "Application in Dynamic Environments. Statistical Analysis and Data Mining 2(5–6), "
            "2009, §4.")


def available_datasets(datasets):
    """(kept, skipped): the data sets whose files are present; skipped = {name: why}."""
    kept, skipped = [], {}
    for d in datasets:
        ok, why = sd_data.available(d)
        if ok:
            kept.append(d)
        else:
            skipped[d] = why
    return kept, skipped


REPRODUCTION = Reproduction(
    name="shen-dietterich",
    title="Shen & Dietterich (2009) §4: regularized large-margin online learning on "
          "drifting streams",
    spec=experiment, claims=CLAIMS, figures=figures,
    streams_to_write=("usps", "20newsgroups", "sraa"), citation=CITATION)
