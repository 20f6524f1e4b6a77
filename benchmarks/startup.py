"""Start-up benchmark: what a new user waits for (the compiled-core targets of the design).

Measures, each in a fresh process (wall seconds):
  import           `python -c "import olc"` (best of --repeat)
  cli_help         `olc --help`
  compare_cold     `olc compare` with an empty numba cache (NUMBA_CACHE_DIR in a temp dir),
                   plus the seconds until its first stderr line (the compile notice)
  compare_warm     the same command again, cache warm (best of --repeat)
  run_cold         `olc run perceptron --data a9a` with an empty cache (needs OLC_DATA)
  warmup_all       `olc warmup --all` with an empty cache: compile seconds per family

Usage: python benchmarks/startup.py [--repeat N] [--skip-a9a] [--skip-warmup]
Prints one JSON object on stdout; progress on stderr.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OLC = [sys.executable, "-m", "olc"]


def timed(cmd, env, cwd):
    """(wall seconds, seconds to the first stderr line or None, returncode, stderr)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    first = []
    lines = []

    def read():
        for line in proc.stderr:
            if not first:
                first.append(time.perf_counter() - start)
            lines.append(line)

    reader = threading.Thread(target=read)
    reader.start()
    proc.wait()
    reader.join()
    return time.perf_counter() - start, (first[0] if first else None), proc.returncode, \
        "".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-a9a", action="store_true")
    parser.add_argument("--skip-warmup", action="store_true")
    args = parser.parse_args()
    report = {"load_average_at_start": os.getloadavg()}
    base_env = dict(os.environ, OLC_COMPILE_NOTICE="1", MPLBACKEND="Agg")
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)

        def fresh_cache(name):
            env = dict(base_env, NUMBA_CACHE_DIR=str(cwd / f"numba-{name}"))
            return env

        print("import olc ...", file=sys.stderr)
        report["import_seconds"] = min(
            timed([sys.executable, "-c", "import olc"], base_env, cwd)[0]
            for _ in range(args.repeat))
        report["cli_help_seconds"] = min(
            timed(OLC + ["--help"], base_env, cwd)[0] for _ in range(args.repeat))

        print("olc compare, cold ...", file=sys.stderr)
        env = fresh_cache("compare")
        wall, first, rc, err = timed(OLC + ["compare", "--out", str(cwd / "out")], env, cwd)
        report["compare_cold"] = {"seconds": wall, "first_stderr_line_seconds": first,
                                  "returncode": rc, "stderr_head": err.splitlines()[:4]}
        print("olc compare, warm ...", file=sys.stderr)
        report["compare_warm_seconds"] = min(
            timed(OLC + ["compare", "--out", str(cwd / "out")], env, cwd)[0]
            for _ in range(args.repeat))

        if not args.skip_a9a:
            print("olc run perceptron --data a9a, cold ...", file=sys.stderr)
            wall, first, rc, err = timed(OLC + ["run", "perceptron", "--data", "a9a"],
                                         fresh_cache("run"), cwd)
            report["run_a9a_cold"] = {"seconds": wall, "first_stderr_line_seconds": first,
                                      "returncode": rc, "stderr_tail": err.splitlines()[-3:]}
        if not args.skip_warmup:
            print("olc warmup --all, cold ...", file=sys.stderr)
            env = fresh_cache("warmup")
            proc = subprocess.run(OLC + ["warmup", "--all", "--json"], env=env, cwd=cwd,
                                  capture_output=True, text=True)
            report["warmup_all"] = {"returncode": proc.returncode,
                                    "stdout": proc.stdout[-4000:],
                                    "stderr_tail": proc.stderr.splitlines()[-3:]}
    report["load_average_at_end"] = os.getloadavg()
    json.dump(report, sys.stdout, indent=2, default=str)
    print()


if __name__ == "__main__":
    main()
