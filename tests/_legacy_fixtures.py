"""The model files olc 0.1.0 saved (``tests/persistence/fixtures/v0_1_0``, written by
``make_v0_1_0.py``), read the way an upgrade reads them: the raw arrays go through the
learner's upgrade in ``olc.persistence.v0_1_0`` (not ``olc.load``, so each test sees that
step)."""
import json
from pathlib import Path

import numpy as np

from olc.learners.registry import info
from olc.persistence import v0_1_0

FIXTURES = Path(__file__).resolve().parent / "persistence" / "fixtures" / "v0_1_0"


def legacy_file(name):
    """(metadata, vecs, scal, classes) of the 0.1.0 file of ``name``."""
    with np.load(FIXTURES / f"{name}.npz", allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        return meta, data["vecs"], data["scal"], data["classes"]


def expected(name):
    """{"probe": rows, "values": the decision values olc 0.1.0 gave on them}."""
    return json.loads((FIXTURES / "expected.json").read_text())[name]


def fitted_from(meta, state, classes):
    """A learner of the file's class and parameters holding ``state`` = (vecs, ints, scal)."""
    learner = info(meta["algorithm"]).cls(**meta["params"])
    learner._vecs, learner._ints, learner._scal = state
    learner.classes_ = classes
    learner.n_features_in_ = meta["n_features_in"]
    learner.n_steps_, learner.n_updates_ = meta["n_steps"], meta["n_updates"]
    return learner


def upgraded(name):
    """The learner upgraded from the 0.1.0 file of ``name``."""
    meta, vecs, scal, classes = legacy_file(name)
    assert meta["olc_version"] == "0.1.0" and meta["algorithm"] == name
    learner = info(name).cls(**meta["params"])
    return fitted_from(meta, v0_1_0.upgrade(learner, vecs, scal), classes)
