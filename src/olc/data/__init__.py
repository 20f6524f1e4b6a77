"""Data layer of olc: named datasets, svmlight streaming, synthetic streams.

Everything a learner consumes is ``(X, y)`` with X a float64 dense array or
CSR matrix and y in {-1, +1} (multi-class datasets keep their integer labels;
reduce them to binary tasks before learning).

Named datasets live in ``data_home()/NAME/`` (``$OLC_DATA`` or the user cache
dir), are verified by sha256 and downloaded from their original sources when
missing::

    from olc import data
    X, y = data.load("a9a", "train")            # CSR (32561, 123), y in {-1, +1}
    X, y = data.read_file("my.svm")             # svmlight or VW text, via the parse cache
    for Xc, yc in data.iter_chunks("w8a", chunk_rows=5000): ...
    X, y = data.separable(1000, 5, margin=0.1, seed=0)
"""

from .errors import (
    ChecksumError,
    DataError,
    DataFormatError,
    DatasetNotFoundError,
    UnknownDatasetError,
)
from .loaders import (
    ADULT_CATEGORICAL,
    ADULT_COLUMNS,
    ADULT_CONTINUOUS,
    AdultRaw,
    AdultRecords,
    TextData,
    adult_records,
    iter_chunks,
    load,
)
from .dataset_spec import DatasetSpec, RemoteFile
from .registry import (
    data_home,
    datasets,
    derived_home,
    fetch,
    get_spec,
    register,
)
from .files import read_file
from .svmlight import iter_svmlight_chunks, read_svmlight
from .vw import iter_vw_chunks, read_vw
from .synthetic import (
    Truth,
    example_5_1,
    example_5_1_params,
    example_5_1_perceptron_mistake_lower_bound,
    noisy,
    separable,
    stream_of,
)

__all__ = [
    # datasets
    "load",
    "iter_chunks",
    "datasets",
    "data_home",
    "derived_home",
    "fetch",
    "get_spec",
    "register",
    "DatasetSpec",
    "RemoteFile",
    "adult_records",
    "AdultRaw",
    "AdultRecords",
    "TextData",
    "ADULT_COLUMNS",
    "ADULT_CONTINUOUS",
    "ADULT_CATEGORICAL",
    # files
    "iter_svmlight_chunks",
    "read_svmlight",
    "read_vw",
    "iter_vw_chunks",
    "read_file",
    # synthetic
    "separable",
    "noisy",
    "example_5_1",
    "example_5_1_params",
    "example_5_1_perceptron_mistake_lower_bound",
    "stream_of",
    "Truth",
    # errors
    "DataError",
    "DatasetNotFoundError",
    "ChecksumError",
    "DataFormatError",
    "UnknownDatasetError",
]
