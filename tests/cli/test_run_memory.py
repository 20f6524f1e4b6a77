"""``olc run --data FILE`` keeps memory in proportion to the data: the peak resident memory
of the whole command on a 100,000-row svmlight file exceeds the same command's on a
ten-row file by at most 1.5 × the CSR arrays (the arrays once, plus the reader's windows
and the learner's record). scikit-learn's parser, which olc used before, peaked at about
3.3 × the arrays."""
import os
import subprocess
import sys

import numpy as np


def _peak_rss_mb(args, env):
    proc = subprocess.Popen([sys.executable, "-m", "olc", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, proc.stderr.read().decode()
    return usage.ru_maxrss / 1024


def _write(path, rows, nnz=50, d=1 << 20, seed=0):
    rng = np.random.default_rng(seed)
    cols = np.sort(rng.integers(0, d - nnz, (rows, nnz)), axis=1) + np.arange(nnz) + 1
    labels = np.where(rng.random(rows) < 0.5, 1, -1)
    with open(path, "w") as fh:
        for start in range(0, rows, 10_000):
            fh.write("".join(f"{y} " + " ".join(f"{c}:1" for c in row) + "\n" for y, row in
                             zip(labels[start:start + 10_000].tolist(),
                                 cols[start:start + 10_000].tolist())))
    return rows * nnz * 12 / 2 ** 20 + rows * 12 / 2 ** 20  # data, indices, indptr, y (MB)


def test_peak_memory_is_the_arrays_once(tmp_path):
    env = dict(os.environ, OLC_CACHE=str(tmp_path / "cache"), OLC_COMPILE_NOTICE="0")
    small, big = tmp_path / "small.svm", tmp_path / "big.svm"
    _write(small, 10)
    csr_mb = _write(big, 100_000)
    args = ["run", "perceptron", "--json", "--no-parse-cache", "--data"]
    baseline = min(_peak_rss_mb(args + [str(small)], env) for _ in range(2))
    peak = _peak_rss_mb(args + [str(big)], env)
    assert peak - baseline <= 1.5 * csr_mb, (peak, baseline, csr_mb)
