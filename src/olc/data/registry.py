"""Named datasets: the registry of names (built-in ones from :mod:`olc.data.catalogue`),
the data home, and :func:`fetch`, which makes a dataset's files local.

Layout on disk
--------------
Files of dataset ``NAME`` live in ``data_home() / spec.folder`` (the folder is the
dataset name unless stated otherwise: ``mnist-test`` uses ``mnist/``). This is
the layout of the shared data folder, so ``OLC_DATA=/path/to/datasets`` works
as is.

Which local or downloaded copy of a file is accepted: :mod:`olc.data.dataset_files`.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from . import _verified
from .catalogue import BUILT_IN_DATASETS
from .dataset_files import download_one, find_local, missing_message
from .dataset_spec import DatasetSpec, check_split
from .errors import DatasetNotFoundError, UnknownDatasetError

__all__ = [
    "data_home",
    "derived_home",
    "datasets",
    "get_spec",
    "register",
    "fetch",
]


# --------------------------------------------------------------------------- data home


def data_home() -> Path:
    """Root folder of local datasets: ``$OLC_DATA`` if set, else the user cache dir.

    The user cache dir is ``platformdirs.user_cache_dir('olc')`` (e.g.
    ``~/.cache/olc`` on Linux). Dataset ``NAME`` lives in ``data_home()/NAME/``.
    Nothing is created here; :func:`fetch` creates folders when it downloads.
    """
    env = os.environ.get("OLC_DATA")
    return Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("olc"))


_default_data_home = data_home  # `fetch` has a parameter of the same name


def derived_home() -> Path:
    """Folder for data derived from the raw files (a filtered data set, its exact
    max-margin solution, ...): ``derived/`` in olc's own cache (``$OLC_CACHE`` or the user
    cache dir), never the data home, which may be a read-only shared folder. Nothing is
    created here; writers create it (and may fall back to no caching when it is not
    writable)."""
    return _verified.cache_dir() / "derived"


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, DatasetSpec] = {}


def register(spec: DatasetSpec, *, replace: bool = False) -> DatasetSpec:
    """Add ``spec`` to the registry (``replace=True`` to overwrite a name)."""
    if spec.name in _REGISTRY and not replace:
        raise ValueError(f"dataset {spec.name!r} is already registered")
    _REGISTRY[spec.name] = spec
    return spec


def datasets() -> list[str]:
    """Names of the registered datasets, sorted."""
    return sorted(_REGISTRY)


def get_spec(name: str) -> DatasetSpec:
    """The :class:`DatasetSpec` registered as ``name``."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownDatasetError(
            f"unknown dataset {name!r}; registered datasets: {', '.join(datasets())}"
        ) from None


# --------------------------------------------------------------------------- fetch


def fetch(
    name: str,
    split: str | None = None,
    *,
    data_home: str | os.PathLike | None = None,
    download: bool = True,
    verify: str = "once",
) -> dict[str, Path]:
    """Make sure the files of ``name`` (one split, or all splits when None) are local.

    Returns ``{registered file name: local path}``; the path may be another
    accepted variant (``a9a`` instead of ``a9a.xz``). Local files are hashed once
    and remembered (``verify='once'``, see ``olc.data._verified``) or hashed
    on every call (``verify='always'``). Missing files are downloaded when
    ``download`` is true.

    Raises :class:`ChecksumError` for a file with the wrong digest and
    :class:`DatasetNotFoundError` (with the exact target path and source URL) for
    a file that is missing and cannot be downloaded.
    """
    if verify not in ("once", "always"):
        raise ValueError(f"verify must be 'once' or 'always', got {verify!r}")
    spec = get_spec(name)
    if split is not None:
        check_split(spec, split)
    root = Path(data_home).expanduser() if data_home is not None else _default_data_home()
    folder = root / spec.folder
    found: dict[str, Path] = {}
    missing = []
    for f in spec.files_for(split):
        path = find_local(folder, f, verify)
        reasons: list[str] = []
        if path is None:
            if not download:
                reasons = ["downloads disabled (download=False)"]
            elif not f.urls:
                reasons = ["no public download URL is registered for this file"]
            else:
                path, reasons = download_one(folder, f)
        if path is None:
            missing.append((f, reasons))
        else:
            found[f.name] = path
    if missing:
        f0 = missing[0][0]
        raise DatasetNotFoundError(
            missing_message(spec, split, folder, missing), path=folder / f0.name, url=f0.url
        )
    return found


# The built-in datasets, in the catalogue's order.
for _spec in BUILT_IN_DATASETS:
    register(_spec)
