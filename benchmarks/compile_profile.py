"""Where a cold ``olc warmup`` spends its compile time: per family, per entry point, per
compiled function and per compiler stage, in CPU seconds (robust to a shared machine).

    python benchmarks/compile_profile.py [--families regularized,linear] [--top 15]
                                         [--no-multiclass] [--no-river]

Each family is warmed up (``olc.warmup._warm_family``: the same runs as ``olc warmup --all``)
in a fresh process on an empty numba cache. Numba's compile events are nested (a callee is
compiled while its caller is typed), so every figure here is *self* time — the time of a
frame minus that of the frames nested in it — and the self times add up to the family's
total:

- per entry: the outermost compile event (the loop or one-row entry the warm-up called);
- per function: the dispatcher being compiled (``rules.regularized.family_step`` …);
- per stage: numba's pass names (``nopython_type_inference``, ``native_lowering`` …), with
  LLVM's work split out of the lowering pass: ``llvm:optimize`` (the per-function and module
  passes), ``llvm:codegen`` (machine code), ``llvm:link``.

Prints one JSON object per family on stdout, then a summary.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _profile_family(family, multiclass, river, top):
    import numba.core.codegen as cg
    from numba.core import event

    import olc.warmup as warm

    stack = []  # [kind, name, start_cpu, child_cpu]
    by_stage, by_function, by_entry = {}, {}, {}
    fn_stack = []

    def push(kind, name):
        stack.append([kind, name, time.process_time(), 0.0])

    def pop():
        kind, name, start, child = stack.pop()
        total = time.process_time() - start
        if stack:
            stack[-1][3] += total
        self_time = total - child
        by_stage[name if kind != "compile" else "dispatch/other"] = (
            by_stage.get(name if kind != "compile" else "dispatch/other", 0.0) + self_time)
        return total, self_time

    class _Passes(event.Listener):
        def on_start(self, ev):
            push("pass", ev.data["name"].split(" [")[0])

        def on_end(self, ev):
            pop()

    class _Compiles(event.Listener):
        def on_start(self, ev):
            disp = ev.data["dispatcher"]
            py = disp.py_func
            name = f"{py.__module__.replace('olc._compiled.', '')}.{py.__qualname__}"
            fn_stack.append([name, time.process_time(), 0.0])
            push("compile", name)

        def on_end(self, ev):
            pop()
            name, start, child = fn_stack.pop()
            total = time.process_time() - start
            if fn_stack:
                fn_stack[-1][2] += total
            else:
                by_entry[name] = by_entry.get(name, 0.0) + total
            by_function[name] = by_function.get(name, 0.0) + total - child

    event.register("numba:run_pass", _Passes())
    event.register("numba:compile", _Compiles())

    def wrap(cls, attr, label):
        original = getattr(cls, attr)

        def wrapper(self, *args, **kwargs):
            push("llvm", label)
            try:
                return original(self, *args, **kwargs)
            finally:
                pop()

        setattr(cls, attr, wrapper)

    lib = cg.CPUCodeLibrary
    wrap(lib, "_optimize_functions", "llvm:optimize")
    wrap(lib, "_optimize_final_module", "llvm:optimize")
    wrap(cg.JITCodeLibrary, "_finalize_specific", "llvm:codegen")
    wrap(lib, "serialize_using_object_code", "llvm:cache-serialize")
    wrap(lib, "add_linking_library", "llvm:link")
    wrap(lib, "_finalize_final_module", "llvm:link+verify")

    if not river:
        warm._river_installed = lambda: False
    from olc.learners.registry import algorithms

    members = [e.name for e in algorithms() if warm.family_of_learner(e.name) == family]
    start = time.process_time()
    warm._warm_family(family, members, multiclass)
    total = time.process_time() - start
    compile_total = sum(by_entry.values())

    def ranked(d):
        return {k: round(v, 2) for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]}

    return {"family": family, "learners": members, "cpu_seconds": round(total, 2),
            "compile_cpu_seconds": round(compile_total, 2), "by_entry": ranked(by_entry),
            "by_stage": ranked(by_stage), "by_function": ranked(by_function)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--families", default="")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--no-multiclass", action="store_true")
    parser.add_argument("--no-river", action="store_true")
    parser.add_argument("--child", default="")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_profile_family(args.child, not args.no_multiclass,
                                         not args.no_river, args.top)))
        return
    from olc._compiled.rule_ids import FAMILIES

    families = args.families.split(",") if args.families else list(FAMILIES)
    rows = []
    for family in families:
        with tempfile.TemporaryDirectory(prefix=f"nbc-profile-{family}-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, OLC_COMPILE_NOTICE="0")
            cmd = [sys.executable, __file__, "--child", family, "--top", str(args.top)]
            cmd += ["--no-multiclass"] * args.no_multiclass + ["--no-river"] * args.no_river
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(json.dumps(row), flush=True)
        print(f"{family}: {row['compile_cpu_seconds']} compile CPU-s", file=sys.stderr)
    summary = {r["family"]: r["compile_cpu_seconds"] for r in rows}
    print(json.dumps({"summary": summary, "total": round(sum(summary.values()), 2)}))


if __name__ == "__main__":
    main()
