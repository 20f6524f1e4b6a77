"""Fault benchmark: kill `olc reproduce omm-adult` at random moments, rerun, and compare the
final outputs with a clean run's.

1. A clean run into OUT/clean (its wall time T; the compile cache warmed first).
2. --kills times: start a run into OUT/killed, SIGKILL its process group after a random
   delay drawn uniformly from [0.05·T, 0.95·T] (seeded), then start the next one.
3. A last run into OUT/killed, to completion.
4. The computed outputs (results.json, table_*.csv) are compared with the clean run's after
   dropping what is measured rather than computed (wall and compile seconds, output paths);
   the markdown (the same tables, rendered with their seconds) is reported as the number of
   differing lines; the figure by existence (results.json holds the numbers behind it).

Reports: kills, the runs (cached jobs) found finished before the last run (reused) out of
all, and whether every output equals the clean run's.

Usage: python benchmarks/kill_reproduce.py [--kills 20] [--limit 500] [--out DIR] [--seed 0]
Needs OLC_DATA (the Adult data). Prints one JSON object on stdout; progress on stderr.
"""
import argparse
import csv
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEASURED = ("seconds", "compile_seconds", "seconds_with_tau", "files")
TIME_WORDS = ("time", "second", " s)", "(s)")


def command(out, limit):
    return [sys.executable, "-m", "olc", "reproduce", "omm-adult", "--out", str(out),
            "--limit", str(limit)]


def run(out, limit, env, kill_after=None):
    """Run once; with ``kill_after`` seconds, SIGKILL the whole process group then.
    Returns (wall seconds, killed)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command(out, limit), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        proc.wait(timeout=kill_after)
        if proc.returncode:
            raise SystemExit(f"olc reproduce failed with exit code {proc.returncode}")
        return time.perf_counter() - start, False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return time.perf_counter() - start, True


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in MEASURED}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _csv_rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    keep = [i for i, h in enumerate(rows[0]) if not any(w in h.lower() for w in TIME_WORDS)]
    return [[r[i] for i in keep if i < len(r)] for r in rows]


def _text_lines(path):
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if not any(w in line.lower() for w in TIME_WORDS)]


def compare(clean, killed):
    """{file: "equal" | "differs" | "missing"} over the clean run's outputs."""
    verdict = {}
    for path in sorted(clean.iterdir()):
        if path.is_dir():
            continue
        other = killed / path.name
        if not other.exists():
            verdict[path.name] = "missing"
            continue
        if path.suffix == ".json":
            same = (_strip(json.loads(path.read_text())) ==
                    _strip(json.loads(other.read_text())))
        elif path.suffix == ".csv":
            same = _csv_rows(path) == _csv_rows(other)
        elif path.suffix == ".md":
            # Rendered from the same records as the CSVs and results.json, with the measured
            # seconds in table cells (and the runtime claims of summary.md read them): report
            # how many lines differ instead of a verdict.
            a, b = _text_lines(path), _text_lines(other)
            diff = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
            verdict[path.name] = "equal" if not diff else f"{diff} lines differ (timings)"
            continue
        else:
            same = other.stat().st_size > 0
        verdict[path.name] = "equal" if same else "differs"
    return verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    root = Path(args.out or tempfile.mkdtemp(prefix="olc-kill-"))
    clean, killed = root / "clean", root / "killed"
    for folder in (clean, killed):
        shutil.rmtree(folder, ignore_errors=True)
    env = dict(os.environ, OLC_COMPILE_NOTICE="0")
    print("warm-up run (compiles, builds the data cache) ...", file=sys.stderr)
    run(root / "warmup", args.limit, env)
    shutil.rmtree(root / "warmup")
    wall, _ = run(clean, args.limit, env)
    print(f"clean run: {wall:.1f} s", file=sys.stderr)
    rng = random.Random(args.seed)
    kills = []
    for i in range(args.kills):
        delay = rng.uniform(0.05 * wall, 0.95 * wall)
        seconds, was_killed = run(killed, args.limit, env, kill_after=delay)
        kills.append({"delay_s": round(delay, 2), "killed": was_killed})
        print(f"run {i + 1}/{args.kills}: {'killed' if was_killed else 'finished'} after "
              f"{seconds:.1f} s", file=sys.stderr)
    jobs = sorted((killed / "runs").rglob("*.json")) if (killed / "runs").exists() else []
    finished_before = len(jobs)
    final, _ = run(killed, args.limit, env)
    total = len(list((killed / "runs").rglob("*.json")))
    verdict = compare(clean, killed)
    report = {"limit": args.limit, "clean_run_s": round(wall, 1), "kills": args.kills,
              "killed": sum(k["killed"] for k in kills), "delays_s": [k["delay_s"] for k in kills],
              "jobs_reused_by_last_run": finished_before, "jobs_total": total,
              "last_run_s": round(final, 1), "outputs": verdict,
              "computed_outputs_equal": all(v == "equal" for k, v in verdict.items()
                                            if not k.endswith(".md"))}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
