"""``olc warmup``: compile a learner's family ahead of time and say how long it took."""
from typer.testing import CliRunner

from olc._compiled import families, loader
from olc.cli import app
from olc.warmup import family_of_learner, warmup

from _fresh_cache import in_fresh_cache

runner = CliRunner()


def test_warmup_one_learner():
    res = runner.invoke(app, ["warmup", "perceptron"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].startswith("linear ") and "(perceptron)" in lines[0]
    assert lines[-1].startswith("total ") and " s" in lines[-1]
    assert families.is_loaded("linear")  # the family's loops are loaded


def test_warmup_groups_learners_by_family():
    report = warmup(["perceptron", "pa-i", "perceptron"])
    assert [(r.family, r.learners) for r in report] == [("linear", ["perceptron", "pa-i"])]
    assert report[0].compile_seconds >= 0.0 and report[0].seconds > 0.0
    assert family_of_learner("pa-ii") == "linear"


def test_warmup_rejects_unknown_names_and_empty_calls():
    res = runner.invoke(app, ["warmup", "perceptron", "no-such-learner"])
    assert res.exit_code == 2
    assert "unknown algorithm 'no-such-learner'" in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert runner.invoke(app, ["warmup"]).exit_code == 2
    assert runner.invoke(app, ["warmup", "--all", "pa"]).exit_code == 2


def test_warmup_json_names_each_family_once():
    import json

    res = runner.invoke(app, ["warmup", "pa-i", "sgd", "perceptron", "--json"])
    assert res.exit_code == 0, res.output
    records = json.loads(res.stdout)
    assert [r["family"] for r in records] == ["linear", "sgd"]
    assert records[0]["learners"] == ["pa-i", "perceptron"]
    assert all(r["seconds"] >= r["compile_seconds"] >= 0 for r in records)


_CACHED = ("import json; from olc._compiled import families; "
           "print(json.dumps({f'{f} {e}': families.is_cached(f, e) "
           "for f in ('experts', 'linear') for e in families.ENTRY_POINTS}))")


def test_warmup_in_parallel_processes_fills_the_shared_disk_cache(tmp_path):
    # Two families compiled in two worker processes: the report keeps the order of first use,
    # and afterwards both families' loops are in the disk cache a new process reads.
    import json

    assert not any(json.loads(in_fresh_cache(tmp_path, _CACHED)).values())
    report = in_fresh_cache(tmp_path, "from olc.warmup import warmup; print([(r.family, "
                                      "r.learners) for r in warmup(['winnow', 'perceptron'], "
                                      "n_jobs=2)])")
    assert report == "[('experts', ['winnow']), ('linear', ['perceptron'])]"
    cached = json.loads(in_fresh_cache(tmp_path, _CACHED))
    assert all(cached.values()), cached


def test_warmup_multiclass_compiles_the_one_vs_rest_loops():
    res = runner.invoke(app, ["warmup", "perceptron", "--multiclass"])
    assert res.exit_code == 0, res.output
    assert families.is_loaded("linear", loader.ONE_VS_REST)
    for entry in families.OVR_ENTRY_POINTS:
        assert families.is_cached("linear", entry), entry


def test_binary_learning_does_not_load_the_one_vs_rest_loops():
    import subprocess
    import sys

    code = ("import numpy as np, olc; from olc._compiled import loader; "
            "olc.make('pa').fit(np.eye(3), [0, 1, 1]).predict(np.eye(3)); "
            "print(sorted(f for t, f in loader._instances if t == 'binary'), "
            "sorted(f for t, f in loader._instances if t == 'one_vs_rest'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['linear'] []"


def test_parallel_warmup_command_exits():
    """`olc warmup A B --n-jobs 2` (two families: joblib's process pool and its threads) ends
    the process: the CLI's fast exit must not join threads that only the interpreter's own
    shutdown tells to stop (it did, and CI hung after the warm-up)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "olc", "warmup", "perceptron", "alma2",
                          "--n-jobs", "2"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "linear" in out.stdout and "margin" in out.stdout


def test_warmup_averaged_runs_the_wide_averaged_states_and_binds_river():
    # a wide averaged state is stored feature-major for the loops and row by row for River's
    # one-example entries: the warm-up exercises both (it failed on the River binding)
    report = warmup(["perceptron"], averaged=True)
    assert [r.family for r in report] == ["linear"]


def _hold_memory(megabytes):
    """A task that leaves its process 400 MB larger, as compiling a family does (numba keeps
    the compiled code): the memory stays held by the module until the process ends."""
    import os

    import numpy as np

    _HELD.append(np.ones(megabytes * 2**20 // 8))
    return os.getpid()


_HELD = []


def test_the_warm_up_pool_keeps_its_workers_and_warns_nothing():
    """joblib's loky pool retired a worker whose memory had grown by 300 MB (psutil being
    installed) and warned "A worker stopped while some jobs were given to the executor …
    memory leak" — on a fresh machine, every `olc warmup --all --n-jobs 2`. The warm-up's pool
    keeps its n_jobs workers for all the tasks and says nothing."""
    import warnings

    from olc.warmup import in_processes

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pids = in_processes(_hold_memory, [(400,)] * 6, 2)
    assert len(pids) == 6 and len(set(pids)) <= 2, pids
    assert not caught, [str(w.message) for w in caught]
