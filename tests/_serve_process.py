"""``olc serve`` in a child process for the tests that kill it: started on a free loopback
port, waited for (``GET /healthz``), killed with SIGKILL or stopped, its output kept in a file
for the failure message. Every wait is bounded."""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

import olc

SOURCE_ROOT = Path(olc.__file__).resolve().parents[1]


def free_port():
    """A loopback port free now (the OS's choice; a race with another process is unlikely)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def child_environment():
    """This environment, with the olc being tested first on the child's path (a worktree's
    sources, not whatever olc the interpreter would find)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(SOURCE_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


class ServeProcess:
    """``python -m olc serve --store STORE --port PORT [args]`` on 127.0.0.1."""

    def __init__(self, store, log_path, args=(), port=None):
        self.store = Path(store)
        self.log_path = Path(log_path)
        self.args = list(args)
        self.port = port or free_port()
        self.proc = None
        self.starts = 0

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout=90.0):
        """Start the server and wait until ``/healthz`` answers (raises with its output if it
        exits or does not answer within ``timeout`` seconds)."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        command = [sys.executable, "-m", "olc", "serve", "--store", str(self.store),
                   "--port", str(self.port), *self.args]
        with open(self.log_path, "ab") as log:
            log.write(f"\n--- start {self.starts}: {' '.join(command)}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                         env=child_environment(), start_new_session=True)
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"olc serve exited with code {self.proc.returncode}:\n"
                                   + self.output())
            try:
                if httpx.get(self.url + "/healthz", timeout=2.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"olc serve did not answer /healthz within {timeout} s:\n"
                           + self.output())

    def kill(self):
        """SIGKILL the server (its whole process group) and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=30)

    def stop(self, timeout=30.0):
        """SIGTERM (uvicorn's graceful shutdown), then SIGKILL if it does not exit in time."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self, tail=6000):
        try:
            return self.log_path.read_text(errors="replace")[-tail:]
        except OSError:
            return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.kill()
        return False
