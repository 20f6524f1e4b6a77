import pytest

from _load_worker import LoadWorker


@pytest.fixture(scope="session")
def load_worker():
    worker = LoadWorker()
    yield worker
    worker.close()
