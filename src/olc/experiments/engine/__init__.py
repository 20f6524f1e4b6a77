"""The experiment engine: declarative specs (streams × learners × protocol × trials ×
metrics), a resumable runner (joblib or Dask; one atomic file per run), aggregation with
Student-t confidence intervals, reports (tables with the paper's numbers, figures,
results.json, a claims summary) and the one pipeline every reproduction runs through
(:mod:`.reproduction`). See docs/experiments.md and docs/adding-a-reproduction.md."""
from ..._util.lazy import lazy_attributes

# Exported names load their modules on first use: every ``olc reproduce NAME`` command
# imports :mod:`.command` (typer only) when ``olc`` starts, without numpy or scipy.
_EXPORTS = {
    "METRICS": "olc.experiments.engine.metrics",
    "Metric": "olc.experiments.engine.metrics",
    "SeriesMean": "olc.experiments.engine.metrics",
    "LearnerModel": "olc.experiments.engine.models",
    "Steps": "olc.experiments.engine.models",
    "PROTOCOLS": "olc.experiments.engine.protocols",
    "Progressive": "olc.experiments.engine.protocols",
    "RunOutput": "olc.experiments.engine.protocols",
    "TrainThenTest": "olc.experiments.engine.protocols",
    "TuneThenTest": "olc.experiments.engine.protocols",
    "Plan": "olc.experiments.engine.reproduction",
    "Reproduction": "olc.experiments.engine.reproduction",
    "reproduce": "olc.experiments.engine.reproduction",
    "Execution": "olc.experiments.engine.runner",
    "Interrupted": "olc.experiments.engine.runner",
    "Run": "olc.experiments.engine.runner",
    "execute": "olc.experiments.engine.runner",
    "ArraySource": "olc.experiments.engine.sources",
    "Data": "olc.experiments.engine.sources",
    "DatasetSource": "olc.experiments.engine.sources",
    "FileSource": "olc.experiments.engine.sources",
    "FunctionSource": "olc.experiments.engine.sources",
    "SyntheticSource": "olc.experiments.engine.sources",
    "Claim": "olc.experiments.engine.spec",
    "ExperimentSpec": "olc.experiments.engine.spec",
    "LearnerConfig": "olc.experiments.engine.spec",
    "LearnerSpec": "olc.experiments.engine.spec",
    "StreamSpec": "olc.experiments.engine.spec",
    "learner_seed": "olc.experiments.engine.spec",
    "stream_seed": "olc.experiments.engine.spec",
    "RunStore": "olc.experiments.engine.store",
    "Classes": "olc.experiments.engine.transforms",
    "Head": "olc.experiments.engine.transforms",
    "Permute": "olc.experiments.engine.transforms",
    "Stream": "olc.experiments.engine.transforms",
    "TRANSFORMS": "olc.experiments.engine.transforms",
    "register_transform": "olc.experiments.engine.transforms",
}
__getattr__, __dir__ = lazy_attributes(__name__, globals(), _EXPORTS)
__all__ = sorted(_EXPORTS)
