"""pytest plugin: how many seconds a test run spends in numba compilation (outermost compile
events only, so a callee compiled inside its caller is not counted twice).

    PYTHONPATH=benchmarks OLC_COMPILE_METER=/tmp/meter.jsonl python -m pytest -p compile_meter

Each process (every xdist worker) appends one JSON line {"pid", "compile_seconds",
"compile_cpu_seconds", "compiles"} (CPU seconds are robust to a busy machine) to the file in OLC_COMPILE_METER at the end of its session; add them up for the
run's compile share. Works with any numba code (it knows nothing of olc), so the same plugin
measures two versions of the library.
"""
import json
import os
import time

_state = {"depth": 0, "start": 0.0, "cpu_start": 0.0, "seconds": 0.0, "cpu_seconds": 0.0,
          "count": 0}


def pytest_configure(config):
    from numba.core import event

    class _Meter(event.Listener):
        def on_start(self, ev):
            if _state["depth"] == 0:
                _state["start"] = time.perf_counter()
                _state["cpu_start"] = time.process_time()
            _state["depth"] += 1

        def on_end(self, ev):
            _state["depth"] -= 1
            if _state["depth"] == 0:
                _state["seconds"] += time.perf_counter() - _state["start"]
                _state["cpu_seconds"] += time.process_time() - _state["cpu_start"]
                _state["count"] += 1

    event.register("numba:compile", _Meter())


def pytest_unconfigure(config):
    path = os.environ.get("OLC_COMPILE_METER")
    if path:
        with open(path, "a") as fh:
            fh.write(json.dumps({"pid": os.getpid(), "compile_seconds": _state["seconds"],
                                 "compile_cpu_seconds": _state["cpu_seconds"],
                                 "compiles": _state["count"]}) + "\n")
