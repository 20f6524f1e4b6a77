"""Streaming benchmark: a large svmlight file through `olc run` and `olc.progressive(chunks)`
with memory bounded by the chunk (peak RSS from `/usr/bin/time -v`, rows/s).

Writes a synthetic sparse svmlight file of about --gigabytes GB into --dir (kept between runs
when its size matches, so reruns skip the generation): d = 2^20 columns, 50 nonzeros per row
at random columns, values with 6 digits, labels from a random hyperplane. Then,
each in a fresh process:
  cli          `olc run perceptron --data FILE --stream --json --quiet`: the width found by a
               counting pass over the file first, then one learning pass
  cli_width    the same with `--n-features 1048576`: one pass
  progressive  `olc.progressive(Perceptron(), iter_svmlight_chunks(FILE, n_features=2^20))`
and reports wall seconds, rows/s and the peak resident memory of each, beside the file size.
With --versus DIR, `cli` of the olc source folder DIR too, alternating with this tree's runs
(--repeat rounds), so that both see the same machine load (the machine's load average is
reported at the start and the end).

Usage: python benchmarks/stream_memory.py [--gigabytes 2] [--dir /tmp/olc-stream]
       [--chunk-rows 10000] [--repeat 1] [--versus DIR]
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
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--versus", default=None, help="another olc source folder")
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
    versus_env = None
    if args.versus:
        versus_env = dict(env, PYTHONPATH=os.pathsep.join(
            [str(Path(args.versus).resolve())] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH")
                                                  else [])))
    # Warm the compile cache first, so the timings below are the stream's, not numba's.
    for e in filter(None, (env, versus_env)):
        subprocess.run([sys.executable, "-m", "olc", "warmup", "perceptron", "--readers"],
                       env=e, check=True, capture_output=True)
    report = {"file_bytes": size, "chunk_rows": args.chunk_rows,
              "load_average_at_start": os.getloadavg()}
    cli = [sys.executable, "-m", "olc", "run", "perceptron", "--data", str(path), "--stream",
           "--chunk-rows", str(args.chunk_rows), "--json", "--quiet"]
    runs = {"cli": (cli, env), "cli_width": (cli + ["--n-features", str(D)], env),
            "progressive": ([sys.executable, "-c", PROGRESSIVE, str(path),
                             str(args.chunk_rows)], env)}
    if versus_env is not None:
        runs["versus_cli"] = (cli, versus_env)
    results = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, (cmd, e) in runs.items():
            print(f"{name} ...", file=sys.stderr)
            out, wall, rss = timed_rss(cmd, e)
            rows = json.loads(out)["steps" if name != "progressive" else "rows"]
            results[name].append((wall, rss, rows, json.loads(out)["mistakes"]))
    for name, values in results.items():
        wall = min(w for w, _, _, _ in values)
        rows = values[0][2]
        report[name] = {"wall_s": round(wall, 1), "all_wall_s": [round(w, 1) for w, *_ in values],
                        "peak_rss_mb": round(max(r for _, r, _, _ in values)), "rows": rows,
                        "rows_per_s": round(rows / wall) if rows else None,
                        "mistakes": values[0][3]}
    out, wall, rss = timed_rss([sys.executable, "-c", "import olc, numba, sklearn"], env)
    report["baseline_import_rss_mb"] = round(rss)
    report["load_average_at_end"] = os.getloadavg()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
