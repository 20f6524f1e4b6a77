"""``olc serve`` for real: uvicorn in a subprocess on a free loopback port, driven by
``olc.client.Client`` over TCP; stopped and started again on the same store. And the
command's refusals (a public bind without a token, a damaged store), one line each."""
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from olc.client import Client, ServeError

from .conftest import blobs

TOKEN = "uvicorn-test-token-0123456789"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(store, port, *extra):
    command = [sys.executable, "-m", "olc", "serve", "--store", str(store), "--port", str(port),
               "--log-level", "warning", *extra]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=os.environ.copy())
    deadline = time.monotonic() + 120
    with Client(f"http://127.0.0.1:{port}", retries=0, timeout=2) as probe:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"olc serve exited: {process.stderr.read().decode()}")
            try:
                probe.health()
                return process
            except Exception:
                time.sleep(0.2)
    process.kill()
    raise AssertionError("olc serve did not answer within 120 s")


def _stop(process):
    """SIGTERM: uvicorn shuts down gracefully (lifespan end: writers drained, store closed),
    then re-raises the signal, so the exit status is -SIGTERM."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=30) in (0, -signal.SIGTERM)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


def test_real_server_with_the_client_and_a_restart(tmp_path):
    store, port = tmp_path / "store", _free_port()
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    X, y = blobs(200, 6, seed=31)
    process = _start(store, port, "--token-file", str(token_file), "--snapshot-every", "50")
    try:
        with Client(f"http://127.0.0.1:{port}", token=TOKEN) as client:
            client.create_model("m", "arow", {"r": 0.5}, n_features=6, classes=["no", "yes"])
            for start in range(0, 150, 30):
                client.learn("m", X[start:start + 30], y[start:start + 30])
            p = client.predict("m", X[150:])
            client.feedback("m", [(q["event_id"], label) for q, label in
                                  zip(p["predictions"][:25], y[150:175])])
            before = client.model("m")
            data = client.download("m")
        with Client(f"http://127.0.0.1:{port}", retries=0) as anonymous:
            assert anonymous.health()["status"] == "ok"
            with pytest.raises(ServeError) as refused:
                anonymous.models()
            assert refused.value.status == 401 and refused.value.field == "Authorization"
    finally:
        assert _stop(process)
    # snapshots at the first batch boundary 50 or more events after the last: 60, 120, 175
    assert before["rows_seen"] == 175 and before["last_snapshot_event"] == 175
    process = _start(store, port, "--token-file", str(token_file))
    try:
        with Client(f"http://127.0.0.1:{port}", token=TOKEN) as client:
            after = client.model("m")
            assert client.download("m") != b""
            for key in ("rows_seen", "mistakes", "updates", "events_logged", "error_last_n"):
                assert after[key] == before[key], key
            rest = [(q["event_id"], label) for q, label in
                    zip(p["predictions"][25:], y[175:])]
            assert client.feedback("m", rest)["applied"] == 25
            final = client.download("m")
    finally:
        assert _stop(process)
    import olc
    from olc.serve.learner_files import learner_from_bytes

    offline = olc.make("arow", r=0.5)
    offline.partial_fit(X, y, classes=["no", "yes"])
    served = learner_from_bytes(final)
    assert served._vecs.tobytes() == offline._vecs.tobytes()
    assert served._scal.tobytes() == offline._scal.tobytes()
    assert learner_from_bytes(data).n_steps_ == 175


def _command(*args):
    return subprocess.run([sys.executable, "-m", "olc", "serve", *args], capture_output=True,
                          text=True, timeout=120, env=os.environ.copy())


def test_a_public_bind_needs_a_token_file(tmp_path):
    result = _command("--host", "0.0.0.0", "--store", str(tmp_path / "s"))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "--token-file" in result.stderr and "0.0.0.0" in result.stderr
    assert not (tmp_path / "s").exists()
    short = tmp_path / "short"
    short.write_text("abc")
    result = _command("--host", "0.0.0.0", "--token-file", str(short))
    assert result.returncode == 2 and "at least 16 characters" in result.stderr


def test_a_damaged_store_is_refused_in_one_line(tmp_path):
    store = tmp_path / "s"
    store.mkdir()
    (store / "store.sqlite3").write_bytes(b"not a database at all" * 50)
    result = _command("--store", str(store), "--port", str(_free_port()))
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error: the store")
    assert "damaged" in result.stderr and "Traceback" not in result.stderr
