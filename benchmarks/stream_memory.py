"""Streaming benchmark: a large svmlight file through `olc run` and `olc.progressive(chunks)`
with memory bounded by the chunk (peak RSS from `/usr/bin/time -v`, rows/s).

Writes a synthetic sparse svmlight file of about --gigabytes GB into --dir (kept between runs
when its size matches, so reruns skip the generation): d = 2^20 columns, 50 nonzeros per row
at random columns, values with 6 digits, labels from a random hyperplane. Then,
each in a fresh process:
  cli          `olc run perceptron --data FILE --stream --json`
  progressive  `olc.progressive(Perceptron(), iter_svmlight_chunks(FILE))`
and reports wall seconds, rows/s and the peak resident memory of each, beside the file size.

Usage: python benchmarks/stream_memory.py [--gigabytes 2] [--dir /tmp/olc-stream]
       [--chunk-rows 10000]
Prints one JSON object on stdout; progress on stderr.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
D, NNZ = 2 ** 20, 50

PROGRESSIVE = r"""
import json, sys, time
import olc
from olc.data.svmlight import iter_svmlight_chunks
start = time.perf_counter()
result = olc.progressive(olc.make("perceptron"),
                         iter_svmlight_chunks(sys.argv[1], int(sys.argv[2]), n_features=%d))
print(json.dumps({"rows": int(result.n_steps), "mistakes": int(result.mistakes),
                  "seconds": time.perf_counter() - start}))
""" % D


def write_file(path, gigabytes, seed=0, unique_rows=200_000):
    """A sparse svmlight file of about ``gigabytes`` GB: ``unique_rows`` generated rows,
    repeated in order until the size is reached (parsing and learning cost the same per
    row; the generation stays short). Returns the file's size in bytes."""
    target = int(gigabytes * 1e9)
    rng = np.random.default_rng(seed)
    w = rng.normal(size=D)
    lines = []
    for _ in range(unique_rows):
        cols = np.unique(rng.integers(0, D, size=NNZ))
        vals = np.round(rng.random(cols.size), 6) + 1e-6
        label = 1 if w[cols] @ vals > 0 else -1
        pairs = " ".join(f"{c + 1}:{v:g}" for c, v in zip(cols, vals))
        lines.append(f"{label:+d} {pairs}\n")
    block = "".join(lines)
    tmp = path.with_suffix(".partial")
    with open(tmp, "w", encoding="ascii") as fh:
        while fh.tell() < target:
            fh.write(block)
            print(f"\rwriting {path.name}: {fh.tell() / 1e9:.2f} GB", end="", file=sys.stderr)
    print(file=sys.stderr)
    os.replace(tmp, path)
    return path.stat().st_size


def timed_rss(cmd, env):
    """(stdout, wall seconds, peak RSS in MB) of ``cmd`` under /usr/bin/time -v."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], env=env, capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"{cmd} failed:\n{proc.stderr[-3000:]}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)[1])
    return proc.stdout, wall, rss_kb / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gigabytes", type=float, default=2.0)
    parser.add_argument("--dir", default=str(Path(tempfile.gettempdir()) / "olc-stream"))
    parser.add_argument("--chunk-rows", type=int, default=10_000)
    args = parser.parse_args()
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"stream-{args.gigabytes:g}GB.svm"
    if path.exists():
        size = path.stat().st_size
        print(f"reusing {path} ({size / 1e9:.2f} GB)", file=sys.stderr)
    else:
        size = write_file(path, args.gigabytes)
    env = dict(os.environ, OLC_COMPILE_NOTICE="0")
    # Warm the compile cache first, so the timings below are the stream's, not numba's.
    subprocess.run([sys.executable, "-m", "olc", "warmup", "perceptron"], env=env,
                   check=True, capture_output=True)
    report = {"file_bytes": size, "chunk_rows": args.chunk_rows}
    print("olc run --stream ...", file=sys.stderr)
    out, wall, rss = timed_rss([sys.executable, "-m", "olc", "run", "perceptron", "--data",
                                str(path), "--stream", "--chunk-rows", str(args.chunk_rows),
                                "--json"], env)
    cli = json.loads(out)
    rows = cli["steps"]
    report["cli"] = {"wall_s": round(wall, 1), "peak_rss_mb": round(rss),
                     "rows": rows, "rows_per_s": round(rows / wall) if rows else None}
    print("olc.progressive(chunks) ...", file=sys.stderr)
    out, wall, rss = timed_rss([sys.executable, "-c", PROGRESSIVE, str(path),
                                str(args.chunk_rows)], env)
    prog = json.loads(out)
    report["progressive"] = {"wall_s": round(wall, 1), "peak_rss_mb": round(rss),
                             "rows": prog["rows"], "rows_per_s": round(prog["rows"] / wall),
                             "mistakes": prog["mistakes"]}
    out, wall, rss = timed_rss([sys.executable, "-c", "import olc, numba, sklearn"], env)
    report["baseline_import_rss_mb"] = round(rss)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
