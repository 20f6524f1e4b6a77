"""Figure 3's models: the final weights of PA and the L2-/L1-constrained PA on a trial's USPS
stream (tuned values of that trial, from the records), and the information gain of each pixel
over the whole stream. The learners are re-run on the stream (one compiled pass each, a few
milliseconds), since a run's record keeps its errors, not its weights."""
from __future__ import annotations

import numpy as np

from ...features.selection import SeenCounts
from ..engine.spec import stream_seed
from ..engine.transforms import apply_transforms, binary_labels
from . import spec as S

USPS = "usps"
_data_cache = {}
_model_cache = {}   # (id of the results, trial, reading) -> models: claims read them twice


def usps_stream(results, trial):
    spec = results.spec
    stream_spec = next((s for s in spec.streams if s.name == USPS), None)
    if stream_spec is None:
        return None
    key = repr(stream_spec.source.key())
    if key not in _data_cache:
        _data_cache.clear()
        _data_cache[key] = stream_spec.source.load()
    return apply_transforms(_data_cache[key], stream_spec.transforms,
                            np.random.default_rng(stream_seed(spec.seed, trial)))


def final_models(results, trial=0, reading=S.ERRORS):
    """{name: 256 weights (or IG)} for ``trial`` under ``reading`` (PA, L2, L1 by their
    labels), or None without a USPS stream."""
    key = (id(results), trial, reading.name)
    if key not in _model_cache:
        if len(_model_cache) > 256:
            _model_cache.clear()
        _model_cache[key] = _final_models(results, trial, reading)
    return _model_cache[key]


def _final_models(results, trial, reading):
    from ...learners import make
    from .models import CLASSES, PA_ON_ERRORS

    stream = usps_stream(results, trial)
    if stream is None:
        return None
    y = binary_labels(stream.y)
    counts = SeenCounts(stream.X.shape[1])
    counts.add(stream.X, y)
    out = {"Information gain (whole sequence)": counts.information_gain()}
    for label, name in ((reading.pa, None), (reading.l2, "l2-constrained-pa"),
                        (reading.l1, "l1-constrained-pa")):
        if name is None:
            params = {**PA_ON_ERRORS, "update": reading.update}
            learner = make(params.pop("name"), **params)
        else:
            rec = next((r for r in results.select(USPS, label) if r["trial"] == trial), None)
            if rec is None:
                continue
            learner = make(name, **rec["params"], **rec["extra"]["chosen"])
        learner.predict_then_learn(stream.X, y, classes=CLASSES)
        out[label] = learner.coef_.ravel()
    return out


def discrimination_maps(results):
    """Information gain of each pixel for "3" vs "8" and for "7" vs "9" on the USPS pool."""
    spec = results.spec
    stream_spec = next(s for s in spec.streams if s.name == USPS)
    key = repr(stream_spec.source.key())
    if key not in _data_cache:
        _data_cache.clear()
        _data_cache[key] = stream_spec.source.load()
    data = _data_cache[key]
    maps = {}
    for a, b in ((3, 8), (7, 9)):
        rows = np.isin(data.y, (a, b))
        c = SeenCounts(data.X.shape[1])
        c.add(data.X[rows], np.where(data.y[rows] == a, 1, -1))
        maps[(a, b)] = c.information_gain()
    return maps
