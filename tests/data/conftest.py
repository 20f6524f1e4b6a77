"""Fixtures of the data-layer tests.

* The network is never used: every test runs with ``urlopen`` replaced by a
  function that raises ``URLError`` (tests that simulate a download patch it
  again with a fake).
* Verification markers go to a per-test temporary cache (``$OLC_CACHE``), never
  to the user's cache.
* ``shared_home`` is the read-only folder with the real data files
  (``$OLC_DATA`` if it holds them, else ``<repo>/../shared/datasets``); tests
  that need it are skipped, with the reason, where it is missing.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.error import URLError

import pytest

from olc.data import _download, _verified

REPO = Path(__file__).resolve().parents[2]


def _shared_candidates():
    env = os.environ.get("OLC_DATA")
    if env:
        yield Path(env)
    yield REPO.parent / "shared" / "datasets"


def _find_shared() -> Path | None:
    for p in _shared_candidates():
        if (p / "a9a").is_dir():
            return p
    return None


SHARED = _find_shared()


@pytest.fixture(autouse=True)
def _offline_and_private_cache(monkeypatch, tmp_path):
    def no_network(*args, **kwargs):
        raise URLError("network access is disabled in the test suite")

    monkeypatch.setattr(_download, "urlopen", no_network)
    monkeypatch.setenv("OLC_CACHE", str(tmp_path / "olc-cache"))
    monkeypatch.delenv("OLC_DATA", raising=False)
    _verified._memo.clear()
    yield
    _verified._memo.clear()


@pytest.fixture
def shared_home(monkeypatch) -> Path:
    if SHARED is None:
        pytest.skip(
            "shared data folder not found (set OLC_DATA to a folder with a9a/, w8a/, ... "
            "or place it at <repo>/../shared/datasets)"
        )
    monkeypatch.setenv("OLC_DATA", str(SHARED))
    return SHARED


@pytest.fixture
def shared_src() -> Path:
    """The shared folder as a source of real bytes (OLC_DATA left alone)."""
    if SHARED is None:
        pytest.skip("shared data folder not found; needed for the real file content")
    return SHARED


@pytest.fixture
def empty_home(monkeypatch, tmp_path) -> Path:
    home = tmp_path / "data-home"
    home.mkdir()
    monkeypatch.setenv("OLC_DATA", str(home))
    return home
