"""The data of Shen & Dietterich (2009) §4 as engine sources and stream transforms.

* USPS: the train and test splits pooled (7,291 + 2,007 digits, 256 grey levels in [0, 1]);
  the stream draws P1 = "3", P2 = "7", N1 = "8", N2 = "9", 500 rows per phase.
* 20 Newsgroups (bydate, train and test pooled) and SRAA: the documents of the four classes
  as 0/1 term vectors (header removed, no stemming, no stop list; :mod:`olc.data.text`);
  each trial's stream then keeps the terms present in at least ``MIN_DF`` of its own 3,200
  documents (:class:`olc.data.text.DocumentFrequencyCut`). 20NG: P1 = rec.sport.baseball,
  P2 = rec.sport.hockey, N1 = rec.autos, N2 = rec.motorcycles; SRAA: P1 = realauto,
  P2 = realaviation, N1 = simauto, N2 = simaviation; 800 rows per phase.

[Decision] Pooling the official splits: the paper samples its streams from "the data set"
without naming a split; pooling leaves every class enough rows to draw without replacement
(USPS "8": 708 rows for an expected 500; 20NG autos: 990 for an expected 800).
"""
from __future__ import annotations

import numpy as np

from ...data.drift import Drift
from ...data.text import DocumentFrequencyCut, binary_term_matrix
from ..engine.sources import Data, FunctionSource
from ..engine.spec import StreamSpec

#: [Decision] the vocabulary rule (olc.data.text): ≈ 8,000 terms on 3,200 20NG documents.
MIN_DF = 6

USPS_CLASSES = {"P1": 3, "P2": 7, "N1": 8, "N2": 9}
NEWSGROUPS_CLASSES = {"P1": "rec.sport.baseball", "P2": "rec.sport.hockey",
                      "N1": "rec.autos", "N2": "rec.motorcycles"}
SRAA_CLASSES = {"P1": "realauto", "P2": "realaviation", "N1": "simauto", "N2": "simaviation"}

ROWS_PER_PHASE = {"usps": 500, "20newsgroups": 800, "sraa": 800}
DATASETS = tuple(ROWS_PER_PHASE)


def usps_pool():
    """USPS train + test: X (9298 × 256), y the digit."""
    from ...data import load

    parts = [load("usps", s) for s in ("train", "test")]
    return Data(np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                "usps (train + test)")


def text_pool(dataset, groups):
    """The documents of ``groups`` of a text data set (20newsgroups: both splits; sraa) as
    0/1 term vectors over their whole vocabulary; y = the group's name."""
    from ...data import load

    splits = ("train", "test") if dataset == "20newsgroups" else ("all",)
    docs, labels = [], []
    for s in splits:
        text = load(dataset, s)
        for doc, target in zip(text.data, text.target):
            name = text.target_names[target]
            if name in groups:
                docs.append(doc)
                labels.append(name)
    X, vocabulary = binary_term_matrix(docs)
    return Data(X, np.array(labels), f"{dataset} ({', '.join(groups)})",
                {"vocabulary_size": int(vocabulary.size)})


def source(dataset):
    if dataset == "usps":
        return FunctionSource(usps_pool, {}, "usps")
    classes = NEWSGROUPS_CLASSES if dataset == "20newsgroups" else SRAA_CLASSES
    return FunctionSource(text_pool, {"dataset": dataset, "groups": list(classes.values())},
                          dataset)


def stream(dataset, rows_per_phase=None):
    """The engine stream of ``dataset``: the drift draw, and for text the vocabulary cut."""
    n = rows_per_phase or ROWS_PER_PHASE[dataset]
    if dataset == "usps":
        return StreamSpec("usps", source("usps"), (Drift(USPS_CLASSES, n),), label="USPS")
    classes = NEWSGROUPS_CLASSES if dataset == "20newsgroups" else SRAA_CLASSES
    label = "20NewsGroups" if dataset == "20newsgroups" else "SRAA"
    return StreamSpec(dataset, source(dataset), (Drift(classes, n), DocumentFrequencyCut(MIN_DF)),
                      label=label)


def available(dataset):
    """(True, "") when the data set's files are in the data home, else (False, why)."""
    from ...data import fetch
    from ...data.errors import DataError

    try:
        fetch(dataset, download=False)
    except DataError as exc:
        return False, str(exc).splitlines()[0]
    return True, ""
