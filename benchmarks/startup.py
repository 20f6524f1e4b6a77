"""Start-up benchmark: what a new user waits for (the compiled-core targets of the design).

Measures, each in a fresh process (wall seconds):
  import           `python -c "import olc"` (best of --repeat)
  cli_help         `olc --help`
  compare_cold     `olc compare` with an empty numba cache (NUMBA_CACHE_DIR in a temp dir),
                   plus the seconds until its first stderr line (the compile notice)
  compare_warm     the same command again, cache warm (best of --repeat)
  run_cold         `olc run perceptron --data a9a` with an empty numba cache (needs OLC_DATA);
                   the parsed-data cache (olc.data.parsed_cache) as a returning user has it
  run_first        the same with an empty olc cache too (OLC_CACHE): a9a parsed from its file
  run_warm         `olc run perceptron --data a9a`, every cache warm (best of --repeat)
  warmup_all       `olc warmup --all` with an empty cache: compile seconds per family

Python bytecode: an installed olc has its .pyc files; a source tree run with
PYTHONDONTWRITEBYTECODE=1 compiles every olc module from source in every process (~0.1 s).
By default the benchmark writes bytecode into a temporary PYTHONPYCACHEPREFIX (the source
tree is not touched); --no-bytecode measures the other way.

--src DIR measures the olc whose package is in DIR (put first on PYTHONPATH); --versus DIR
measures a second tree in the same run, alternating the two run by run (A B A B ...), so
that both see the same machine load: the honest before/after on a shared machine.

Usage: python benchmarks/startup.py [--repeat N] [--only NAMES] [--src DIR] [--versus DIR]
       [--skip-a9a] [--skip-warmup] [--no-bytecode]
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
MEASURES = ("import", "cli_help", "compare_cold", "compare_warm", "run_cold", "run_first",
            "run_warm", "warmup_all")


def timed(cmd, env, cwd):
    """(wall seconds, seconds to the first stderr line or None, returncode, stderr, CPU
    seconds of the process and its children)."""
    before = os.times()
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
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)
    return wall, (first[0] if first else None), proc.returncode, "".join(lines), cpu


class Tree:
    """One olc to measure: its environment and its own caches."""

    def __init__(self, label, src, tmp, base_env, bytecode):
        self.label = label
        self.dir = tmp / label
        self.dir.mkdir()
        env = dict(base_env)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join(
                [str(Path(src).resolve())] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH")
                                              else []))
        if bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(self.dir / "pycache")
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["OLC_CACHE"] = str(self.dir / "olc-cache")  # parsed data, markers: kept
        self.env = env
        self.warm_numba = str(self.dir / "numba-warm")

    def fresh(self, name, olc_cache=True):
        """An environment with an empty numba cache (and an empty olc cache if asked)."""
        env = dict(self.env, NUMBA_CACHE_DIR=str(self.dir / f"numba-{name}-{time.time_ns()}"))
        if not olc_cache:
            env["OLC_CACHE"] = str(self.dir / f"olc-cache-{time.time_ns()}")
        return env

    def warm(self):
        return dict(self.env, NUMBA_CACHE_DIR=self.warm_numba)


def best(trees, cmd_of, env_of, repeat, cwd):
    """Best wall (and its CPU) per tree over ``repeat`` runs, the trees alternating."""
    results = {t.label: [] for t in trees}
    for _ in range(repeat):
        for t in trees:
            wall, _, rc, err, cpu = timed(cmd_of(t), env_of(t), cwd)
            if rc != 0:
                raise SystemExit(f"{t.label}: {cmd_of(t)} failed ({rc}):\n{err}")
            results[t.label].append((wall, cpu))
    return {label: {"seconds": round(min(r)[0], 3), "cpu_seconds": round(min(r)[1], 3),
                    "all_seconds": [round(w, 3) for w, _ in r]}
            for label, r in results.items()}


def once(trees, cmd_of, env_of, cwd, head=None):
    out = {}
    for t in trees:
        wall, first, rc, err, cpu = timed(cmd_of(t), env_of(t), cwd)
        lines = err.splitlines()
        out[t.label] = {"seconds": round(wall, 3), "cpu_seconds": round(cpu, 3),
                        "first_stderr_line_seconds": None if first is None else round(first, 3),
                        "returncode": rc,
                        "stderr": lines[:head] if head else lines[-3:]}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=",".join(MEASURES),
                        help=f"comma-separated measures among {', '.join(MEASURES)}")
    parser.add_argument("--src", default=None, help="folder holding the olc package to "
                                                    "measure (default: the importable one)")
    parser.add_argument("--versus", default=None,
                        help="a second olc source folder, measured alternately")
    parser.add_argument("--skip-a9a", action="store_true")
    parser.add_argument("--skip-warmup", action="store_true")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="PYTHONDONTWRITEBYTECODE=1: olc compiled from source each run")
    args = parser.parse_args()
    only = [m.strip() for m in args.only.split(",") if m.strip()]
    unknown = sorted(set(only) - set(MEASURES))
    if unknown:
        parser.error(f"unknown measures {unknown}; known: {', '.join(MEASURES)}")
    if args.skip_a9a:
        only = [m for m in only if not m.startswith("run_")]
    if args.skip_warmup:
        only = [m for m in only if m != "warmup_all"]
    report = {"load_average_at_start": os.getloadavg(), "bytecode": not args.no_bytecode,
              "cpu_count": os.cpu_count()}
    base_env = dict(os.environ, OLC_COMPILE_NOTICE="1", MPLBACKEND="Agg")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        trees = [Tree("src", args.src, tmp, base_env, not args.no_bytecode)]
        if args.versus:
            trees.append(Tree("versus", args.versus, tmp, base_env, not args.no_bytecode))
        report["trees"] = {t.label: t.env.get("PYTHONPATH", "(installed olc)") for t in trees}
        cwd = tmp
        compare = lambda t: OLC + ["compare", "--out", str(t.dir / "out")]  # noqa: E731
        run = OLC + ["run", "perceptron", "--data", "a9a"]

        if "import" in only:
            print("import olc ...", file=sys.stderr)
            report["import"] = best(trees, lambda t: [sys.executable, "-c", "import olc"],
                                    lambda t: t.env, args.repeat, cwd)
        if "cli_help" in only:
            report["cli_help"] = best(trees, lambda t: OLC + ["--help"], lambda t: t.env,
                                      args.repeat, cwd)
        if "compare_cold" in only or "compare_warm" in only:
            print("olc compare, cold ...", file=sys.stderr)
            cold = once(trees, compare, lambda t: t.warm(), cwd, head=4)  # fills warm caches
            if "compare_cold" in only:
                report["compare_cold"] = cold
        if "compare_warm" in only:
            print("olc compare, warm ...", file=sys.stderr)
            report["compare_warm"] = best(trees, compare, lambda t: t.warm(), args.repeat, cwd)
        if "run_first" in only:
            print("olc run perceptron --data a9a, first run (empty caches) ...",
                  file=sys.stderr)
            report["run_first"] = once(trees, lambda t: run,
                                       lambda t: t.fresh("first", olc_cache=False), cwd)
        if "run_cold" in only:
            print("olc run perceptron --data a9a, cold numba cache ...", file=sys.stderr)
            once(trees, lambda t: run, lambda t: t.warm(), cwd)  # parsed data, warm numba
            report["run_cold"] = once(trees, lambda t: run, lambda t: t.fresh("run"), cwd)
        if "run_warm" in only:
            print("olc run perceptron --data a9a, warm ...", file=sys.stderr)
            once(trees, lambda t: run, lambda t: t.warm(), cwd)
            report["run_warm"] = best(trees, lambda t: run, lambda t: t.warm(), args.repeat,
                                      cwd)
        if "warmup_all" in only:
            print("olc warmup --all, cold ...", file=sys.stderr)
            report["warmup_all"] = {}
            for t in trees:
                proc = subprocess.run(OLC + ["warmup", "--all", "--json"],
                                      env=t.fresh("warmup"), cwd=cwd, capture_output=True,
                                      text=True)
                report["warmup_all"][t.label] = {"returncode": proc.returncode,
                                                 "stdout": proc.stdout[-4000:],
                                                 "stderr_tail": proc.stderr.splitlines()[-3:]}
    report["load_average_at_end"] = os.getloadavg()
    json.dump(report, sys.stdout, indent=2, default=str)
    print()


if __name__ == "__main__":
    main()
