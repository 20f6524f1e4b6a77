"""The description of a named dataset: its files (:class:`RemoteFile`) and splits
(:class:`DatasetSpec`). Where the files are looked up and how they are verified:
:mod:`olc.data.dataset_files`; the names: :mod:`olc.data.registry`."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ._compression import strip_compression_suffix
from .errors import UnknownDatasetError

__all__ = ["RemoteFile", "DatasetSpec", "check_split"]


@dataclass(frozen=True)
class RemoteFile:
    """One file of a dataset.

    Fields::

        name            file name as stored in the reference data folder (``a9a.xz``)
        sha256          sha256 of that file as stored; None: not recorded (a data set we could
                        not obtain when registering it, e.g. SRAA): any file under ``name`` is
                        accepted unverified and its loader checks the layout instead
        size            bytes of that file as stored
        url             where the downloader fetches the content (the original public
                        source wherever it still serves these exact bytes); None: not
                        downloadable, must be put in place by hand
        content_sha256  sha256 of the decompressed content (defaults to ``sha256``
                        for a file stored uncompressed)
        content_size    bytes of the decompressed content
        mirrors         further URLs tried in order if ``url`` fails
        alt_sha256      other accepted digests of the file as stored under ``name``
                        (e.g. the original tarball where we keep a re-pack)
        optional        not needed by the loader (kept for completeness, still verified)
        note            provenance remarks shown in error messages
    """

    name: str
    sha256: str | None
    size: int | None
    url: str | None
    content_sha256: str | None = None
    content_size: int | None = None
    mirrors: tuple[str, ...] = ()
    alt_sha256: tuple[str, ...] = ()
    optional: bool = False
    note: str = ""

    def __post_init__(self):
        if self.content_sha256 is None and strip_compression_suffix(self.name) == self.name:
            object.__setattr__(self, "content_sha256", self.sha256)
            object.__setattr__(self, "content_size", self.size)

    @property
    def content_name(self) -> str:
        """Name of the decompressed content (``a9a.xz`` -> ``a9a``)."""
        return strip_compression_suffix(self.name)

    @property
    def urls(self) -> tuple[str, ...]:
        return ((self.url,) if self.url else ()) + tuple(self.mirrors)

    @property
    def token(self) -> str:
        """Everything a verification depends on; a registry change re-triggers it."""
        return "|".join([self.name, str(self.sha256), str(self.content_sha256), *self.alt_sha256])


@dataclass(frozen=True)
class DatasetSpec:
    """A named dataset.

    ``splits`` maps a split name to the names of the files it needs; the first
    split is the default of :func:`olc.data.load`. ``loader`` is a key of
    ``olc.data.loaders.LOADERS`` (a string, so that this module does not
    import the loaders). ``n_rows`` per split and ``n_features`` are the
    documented shapes; ``n_features`` is authoritative for sparse files whose
    largest index may be absent from a split (a9a's test file stops at 122).
    """

    name: str
    description: str
    files: tuple[RemoteFile, ...]
    splits: Mapping[str, tuple[str, ...]]
    loader: str
    n_rows: Mapping[str, int]
    n_features: int | None
    citation: str
    source: str = ""
    license: str = ""
    folder: str = ""
    extra: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self):
        if not self.folder:
            object.__setattr__(self, "folder", self.name)
        object.__setattr__(self, "splits", MappingProxyType(dict(self.splits)))
        object.__setattr__(self, "n_rows", MappingProxyType(dict(self.n_rows)))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))
        names = {f.name for f in self.files}
        for split, needed in self.splits.items():
            missing = set(needed) - names
            if missing:
                raise ValueError(f"{self.name}: split {split!r} needs unregistered files {missing}")

    @property
    def default_split(self) -> str:
        return next(iter(self.splits))

    def file(self, name: str) -> RemoteFile:
        for f in self.files:
            if f.name == name:
                return f
        raise KeyError(name)

    def files_for(self, split: str | None = None) -> tuple[RemoteFile, ...]:
        """Files needed by ``split`` (all splits when None), registry order."""
        if split is None:
            wanted = {n for needed in self.splits.values() for n in needed}
        else:
            wanted = set(self.splits[check_split(self, split)])
        return tuple(f for f in self.files if f.name in wanted)


def check_split(spec: DatasetSpec, split: str | None) -> str:
    """Return ``split`` (the default split when None) or raise UnknownDatasetError."""
    if split is None:
        return spec.default_split
    if split not in spec.splits:
        raise UnknownDatasetError(
            f"dataset {spec.name!r} has no split {split!r}; splits: {', '.join(spec.splits)}"
        )
    return split

