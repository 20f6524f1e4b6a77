"""The experiment engine: declarative specs (streams × learners × protocol × trials ×
metrics), a resumable runner (joblib or Dask; one atomic file per run), aggregation with
Student-t confidence intervals, and reports (tables with the paper's numbers, figures,
results.json, a claims summary). See docs/experiments.md."""
from .metrics import METRICS, Metric, SeriesMean
from .models import LearnerModel, Steps
from .protocols import PROTOCOLS, Progressive, RunOutput, TrainThenTest, TuneThenTest
from .runner import Execution, Interrupted, Run, execute
from .sources import (ArraySource, Data, DatasetSource, FileSource, FunctionSource,
                      SyntheticSource)
from .reproduction import Plan, Reproduction, reproduce
from .spec import (Claim, ExperimentSpec, LearnerConfig, LearnerSpec, StreamSpec,
                   learner_seed, stream_seed)
from .store import RunStore
from .transforms import TRANSFORMS, Classes, Head, Permute, Stream, register_transform

__all__ = ["ArraySource", "Claim", "Classes", "Data", "DatasetSource", "Execution",
           "ExperimentSpec", "FileSource", "FunctionSource", "Head", "Interrupted",
           "LearnerConfig", "LearnerModel", "LearnerSpec", "METRICS", "Metric", "PROTOCOLS",
           "Permute", "Plan", "Progressive", "Reproduction", "Run", "RunOutput", "RunStore",
           "SeriesMean", "Steps", "Stream", "StreamSpec", "SyntheticSource", "TRANSFORMS",
           "TrainThenTest", "TuneThenTest", "execute", "learner_seed", "register_transform",
           "reproduce", "stream_seed"]
