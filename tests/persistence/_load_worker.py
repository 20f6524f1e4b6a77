"""A subprocess that loads model files (so that a crash fails a test instead of killing the
run), for the persistence tests' ``load_worker`` fixture."""
import json
import os
import select
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


_WORKER = r"""
import hashlib, json, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
from _in_domain import in_domain, KIND
import olc
from olc.persistence import PersistenceError

def digest(learner, name):
    h = hashlib.sha256(json.dumps(learner.get_params(deep=False), sort_keys=True,
                                  default=str).encode())
    if hasattr(learner, "n_steps_"):
        for a in (learner._vecs, learner._ints, learner._scal, getattr(learner, "classes_", [])):
            a = np.asarray(a)
            h.update(str((a.dtype.str, a.shape)).encode()); h.update(a.tobytes())
        h.update(str((learner.n_steps_, learner.n_updates_, learner.n_features_in_)).encode())
        X, y = in_domain(name, seed=5, n=12, d=learner.n_features_in_)
        out = learner.decision_function(X) if KIND[name] == "classifier" else learner.predict(X)
        h.update(np.asarray(out).tobytes())
        learner.partial_fit(X, y)
        out = learner.decision_function(X) if KIND[name] == "classifier" else learner.predict(X)
        h.update(np.asarray(out).tobytes())
    return h.hexdigest()

for line in sys.stdin:
    job = json.loads(line)
    try:
        learner = olc.load(job["path"])
        reply = {"status": "loaded", "digest": digest(learner, job["name"])}
    except PersistenceError as exc:
        reply = {"status": "refused", "message": str(exc)}
    except BaseException as exc:  # noqa: BLE001 - reported to the test, which fails
        reply = {"status": "error", "message": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(reply), flush=True)
"""


class LoadWorker:
    """A Python subprocess that loads model files one by one and uses them (predict, then
    partial_fit), replying with a digest of everything; restarted after a crash, which is
    reported as status "crash" with the signal."""

    def __init__(self):
        self.proc = None

    def _start(self):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, str(TESTS)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=env, bufsize=1)

    def ask(self, path, name, timeout=float(os.environ.get("OLC_TEST_LOAD_TIMEOUT", 120))):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps({"path": str(path), "name": name}) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:  # e.g. a loop over 2**31 features: as bad as a crash
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            return {"status": "hang", "message": f"no answer within {timeout} s"}
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            self.proc = None
            return {"status": "crash", "message": f"the process died (exit code {code})"}
        return json.loads(line)

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
