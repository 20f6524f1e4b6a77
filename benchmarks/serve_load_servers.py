"""The servers of ``serve_load.py``: ``olc serve`` (or the web stack's floor: a bare Starlette
route) in its own process, or several processes on one port; their CPU seconds from /proc."""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid):
    """User + system CPU seconds of a process (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


# The stack's floor: the same uvicorn serving one Starlette route that decodes the JSON body
# and answers a prediction-sized JSON, with no model, no store and no lock.
FLOOR_APP = """
import json, sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

async def predict(request):
    rows = json.loads(await request.body())["rows"]
    return JSONResponse({"predictions": [{"event_id": "p0", "prediction": 1, "score": 0.5}
                                         for _ in rows]})

async def healthz(request):
    return JSONResponse({"status": "ok"})

app = Starlette(routes=[Route("/models/bench/predict", predict, methods=["POST"]),
                        Route("/healthz", healthz)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


# Several server processes on one port (SO_REUSEPORT: the kernel spreads the connections
# over them): argv = kind (olc | floor), port, store, durable (1 | 0). Each olc process serves
# its own copy of a store (a prototype of prediction replicas: see docs/serving.md).
REPLICA = """
import socket, sys
import uvicorn
kind, port, store, durable = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
sock.bind(("127.0.0.1", port))
if kind == "floor":
    floor = {}
    exec(sys.argv[5], floor)
    app = floor["app"]
else:
    from olc.serve import create_app
    app = create_app(store, durable=durable)
config = uvicorn.Config(app, log_level="warning", access_log=False)
uvicorn.Server(config).run(sockets=[sock])
"""
FLOOR_ROUTES = FLOOR_APP.split("uvicorn.run(")[0]


class Server:
    """``olc serve`` (or the floor's app) in its own process, or ``processes`` of them on
    one port, each over its own copy of ``store`` (a folder: copied; default a new one)."""

    def __init__(self, durable, log_path, floor=False, src=None, processes=1, store=None):
        self.store = tempfile.mkdtemp(prefix="olc-serve-load-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(src or REPO / "src")] + (
            [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        self.log = open(log_path, "ab")
        if processes == 1 and store is None:
            commands = [[sys.executable, "-m", "olc", "serve", "--store", self.store,
                         "--port", str(self.port)] + ([] if durable else ["--no-durable"])]
            if floor:
                commands = [[sys.executable, "-c", FLOOR_APP, str(self.port)]]
        else:
            import shutil

            commands = []
            for i in range(processes):
                copy = os.path.join(self.store, str(i))
                if store is not None:
                    shutil.copytree(store, copy)
                commands.append([sys.executable, "-c", REPLICA, "floor" if floor else "olc",
                                 str(self.port), copy, "1" if durable else "0", FLOOR_ROUTES])
        self.procs = [subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                       env=env, start_new_session=True) for args in commands]
        self.proc = self.procs[0]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for proc in self.procs:
                if proc.poll() is not None:
                    self.close()
                    raise SystemExit(f"the server exited with {proc.returncode}; see {log_path}")
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    time.sleep(0.5 if len(self.procs) > 1 else 0)  # every process listening
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.close()
        raise SystemExit(f"olc serve did not start in 120 s; see {log_path}")

    def cpu_seconds(self):
        """CPU seconds of every server process (None when /proc cannot say)."""
        seconds = [cpu_seconds(proc.pid) for proc in self.procs]
        return None if None in seconds else sum(seconds)

    def close(self, keep_store=False):
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)
        self.log.close()
        if not keep_store:
            import shutil

            shutil.rmtree(self.store, ignore_errors=True)
