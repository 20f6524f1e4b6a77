import pytest

from ._support import LoadWorker


@pytest.fixture(scope="session")
def load_worker():
    worker = LoadWorker()
    yield worker
    worker.close()
