"""Throughput of olc's online protocol against a bare Numba loop, scikit-learn's bulk loop,
a plain C loop (CSR workloads, when a C compiler is present) and the example-at-a-time floors
(River, scikit-learn per-example partial_fit).

    python benchmarks/throughput.py [--quick] [--workloads W1,W2,W3] [--repeat N]

Prints one JSON object on stdout (progress goes to stderr). See benchmarks/README.md for what
each number means and the targets (DESIGN.md, "Numbers we hold ourselves to").
"""
import argparse
import gc
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))

import olc  # noqa: E402
import c_reference  # noqa: E402
from _common import (  # noqa: E402
    SEED,
    compile_bare,
    emit_report,
    machine_info,
    make_csr,
    make_dense,
    run_bare,
    run_tuned,
    versions,
    with_uint32_indices,
)

CLASSES = np.array([-1, 1])
PA_C = 1.0

# name -> (layout, n, d, nnz per row or None, description)
WORKLOADS = {
    "W1": ("dense", 200_000, 100, None, "dense float64, n=200,000, d=100"),
    "W2": ("csr", 200_000, 2**20, 50, "CSR, n=200,000, d=2^20, 50 binary nonzeros per row"),
    "W3": ("dense", 50_000, 1_000, None, "dense float64, n=50,000, d=1,000"),
}
QUICK_SCALE = 0.1  # --quick: a tenth of the rows

OLC_LEARNERS = {"perceptron": {}, "pa-i": {"C": PA_C}, "e-omm": {}}

# Learners also timed through one partial_fit call on the whole X (no record kept).
PARTIAL_FIT_LEARNERS = ("perceptron", "pa-i")

# ratio name -> (numerator impl, denominator impl, target by layout; a layout without a target
# does not get the ratio). The CSR targets against scikit-learn and C are issue 13's.
RATIOS = {
    "olc/bare perceptron": ("olc.perceptron", "bare.perceptron", {"dense": 0.5, "csr": 0.5}),
    "olc/bare pa-i": ("olc.pa-i", "bare.pa-i", {"dense": 0.5, "csr": 0.5}),
    "olc/sklearn perceptron": ("olc.perceptron", "sklearn.Perceptron",
                               {"dense": 1.5, "csr": 1.3}),
    "olc/sklearn pa-i": ("olc.pa-i", "sklearn.SGDClassifier(pa1)", {"dense": 1.5, "csr": 1.3}),
    "olc/c_O2 perceptron": ("olc.perceptron", "c_O2.perceptron", {"csr": 0.8}),
    "olc/c_O2 pa-i": ("olc.pa-i", "c_O2.pa-i", {"csr": 0.8}),
    "e-omm/bare perceptron": ("olc.e-omm", "bare.perceptron", {"dense": 0.25, "csr": 0.35}),
}

FLOOR_RIVER_ROWS = 20_000
FLOOR_SKLEARN_ROWS = 2_000


def log(*args):
    print(*args, file=sys.stderr, flush=True)


# -- timing --------------------------------------------------------------------------------
class Clock:
    """Wall time (time.perf_counter, the reported figure) and this thread's CPU time
    (time.thread_time: robust when other processes compete for the cores)."""

    def __enter__(self):
        gc.collect()
        self._w, self._c = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self._w
        self.cpu = time.thread_time() - self._c
        return False


# -- implementations: each returns (wall s, cpu s, extra dict) for one run ----------------
def run_olc(name, X, y):
    learner = olc.make(name, **OLC_LEARNERS[name])
    with Clock() as c:
        res = olc.progressive(learner, X, y, classes=CLASSES, progress=False)
    # The whole progressive() call, less its (separately reported) compile/warm-up step.
    comp = res.compile_seconds
    return c.wall - comp, c.cpu - comp, {"protocol_seconds": res.seconds,
                                         "compile_seconds": comp,
                                         "updates": res.updates, "mistakes": res.mistakes}


def run_olc_partial_fit(name, X, y):
    """One ``partial_fit`` call on the whole X (validation, label mapping, the compiled loop;
    the per-row record is allocated and dropped)."""
    learner = olc.make(name, **OLC_LEARNERS[name])
    with Clock() as c:
        learner.partial_fit(X, y, classes=CLASSES)
    return c.wall, c.cpu, {"updates": int(learner.n_updates_)}


def run_c(loops, rule, prepared):
    with Clock() as c:
        u = loops.perceptron(prepared)[0] if rule == "perceptron" else loops.pa1(prepared,
                                                                                 PA_C)[0]
    return c.wall, c.cpu, {"updates": u}


def run_bare_impl(rule, X, y_float, tuned=False):
    with Clock() as c:
        u = (run_tuned if tuned else run_bare)(rule, X, y_float, PA_C)
    return c.wall, c.cpu, {"updates": u}


def _sklearn_estimator(kind):
    from sklearn.linear_model import Perceptron, SGDClassifier

    if kind == "Perceptron":
        return Perceptron(shuffle=False, max_iter=1, tol=None)
    return SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=PA_C,
                         shuffle=False)


def run_sklearn(kind, X, y):
    """scikit-learn's bulk loop on one core, as olc's: with its BLAS/OpenMP pools at one thread
    (threadpoolctl). Its loop is sequential, but a multi-threaded BLAS call on the d-sized
    weight vector waits for a second core: on W2, on a busy 2-core machine, 140 ms against
    50-65 ms on one thread."""
    from threadpoolctl import threadpool_limits

    est = _sklearn_estimator(kind)
    with warnings.catch_warnings(), threadpool_limits(1):
        warnings.simplefilter("ignore")
        with Clock() as c:
            est.partial_fit(X, y, classes=CLASSES)
    return c.wall, c.cpu, {}


# -- diagnostics: where does olc's time go? -------------------------------------------------
def diagnose_olc(name, X, y, repeat):
    """Split olc's time (CPU seconds, best of ``repeat``): the row slicing progressive() does
    per chunk, input preparation (validate_data, CSR canonicalisation), label mapping, one
    predict_then_learn call on the whole array (no chunking), the driver (run_online: record
    allocation, index conversion) and the library's compiled loop alone on prepared arrays.
    Uses private API; any failure is reported, not raised."""
    out = {}
    try:
        from olc._compiled.driver.binary import run_online
        from olc._compiled.driver.inputs import LoopInput, binary_rows, csr_values
        from olc._compiled.families import loops_for
        from olc.evaluate.protocol import DEFAULT_CHUNK
        from olc.learners._framework.validation import as_binary_labels

        ref = olc.make(name, **OLC_LEARNERS[name])
        ref.predict_then_learn(X[:1], y[:1], classes=CLASSES)  # fitted: validate_data knows d

        def best_of(fn):
            times = []
            for _ in range(repeat):
                with Clock() as c:
                    fn()
                times.append(c.cpu)
            return min(times)

        n, d = X.shape

        def slice_chunks():
            for start in range(0, n, DEFAULT_CHUNK):
                X[start:start + DEFAULT_CHUNK]

        out["chunk_slicing_cpu_seconds"] = best_of(slice_chunks)
        out["prepare_X_cpu_seconds"] = best_of(lambda: ref._prepare_X(X, reset=False))
        out["labels_cpu_seconds"] = best_of(
            lambda: as_binary_labels(ref._prepare_y(y, n), ref.classes_))

        def one_call():
            learner = olc.make(name, **OLC_LEARNERS[name])
            learner.predict_then_learn(X, y, classes=CLASSES)

        out["predict_then_learn_one_call_cpu_seconds"] = best_of(one_call)

        y_pm = as_binary_labels(y, ref.classes_)
        hp = ref._hyperparameters()
        order = np.arange(n, dtype=np.int64)
        pred, score = np.empty(n, np.int8), np.empty(n)
        updated, aux = np.empty(n, np.bool_), np.empty(n)

        def fresh_state():
            vecs, scal = ref._initial_state(d)
            return vecs, ref._initial_ints(d), scal

        def driver():
            vecs, ints, scal = fresh_state()
            run_online(ref._rule, LoopInput(X), y_pm, order, 0, n, vecs, ints, scal, hp,
                       (pred, score, updated, aux))

        out["run_online_cpu_seconds"] = best_of(driver)

        fast = not olc.strict_arithmetic()
        loops = loops_for(ref._rule)
        prepared = LoopInput(X)
        if prepared.sparse:
            from olc._compiled.kernels.vector import all_ones

            # The one pass that tells binary input (CSR values all 1) from valued input.
            out["binary_check_cpu_seconds"] = best_of(lambda: all_ones(prepared.data))
            out["binary_rows"] = bool(binary_rows(ref._rule, prepared))
            no_check = (np.zeros(0), np.zeros(0, prepared.indices.dtype),
                        np.zeros(1, np.int64), np.zeros(0))

            def loop_only():
                loops.run_csr(ref._rule, csr_values(ref._rule, prepared), prepared.indices,
                              prepared.indptr, y_pm, order, 0, n, fresh_state(), hp, fast,
                              (pred, score, updated, aux), no_check, False, 0)

            out["compiled_loop_only_cpu_seconds"] = best_of(loop_only)
        else:
            no_check = (np.zeros((0, 1)), np.zeros(0))

            def loop(fast_flag):
                loops.run_dense(ref._rule, X, y_pm, order, 0, n, fresh_state(), hp, fast_flag,
                                (pred, score, updated, aux), no_check, False, 0)

            out["compiled_loop_only_cpu_seconds"] = best_of(lambda: loop(fast))
            # The same compiled loop with strict (left-to-right) dot products.
            out["compiled_loop_only_strict_cpu_seconds"] = best_of(lambda: loop(False))
    except Exception as exc:  # private API may move; the benchmark must still finish
        out["error"] = f"{type(exc).__name__}: {exc}"
    return out


# -- one workload ---------------------------------------------------------------------------
def generate(wname, quick):
    layout, n, d, nnz, desc = WORKLOADS[wname]
    if quick:
        n = int(n * QUICK_SCALE)
    seed = SEED + int(wname[1:])
    t0 = time.perf_counter()
    if layout == "dense":
        X, y = make_dense(n, d, seed)
    else:
        X, y = make_csr(n, d, nnz, seed)
    gen = time.perf_counter() - t0
    meta = {"description": desc, "layout": layout, "n": n, "d": d, "seed": seed,
            "nnz": int(X.nnz) if sp.issparse(X) else n * d,
            "positive_fraction": round(float((y == 1).mean()), 4),
            "generate_seconds": round(gen, 3)}
    return X, y, meta


def bench_workload(wname, X, y, repeat, diagnose):
    layout = "csr" if sp.issparse(X) else "dense"
    n = X.shape[0]
    y_float = y.astype(np.float64)

    compile_bare_s = compile_bare(X, y_float)
    # Warm olc (numba disk cache / compile) and sklearn once, outside the timings.
    t0 = time.perf_counter()
    for name in OLC_LEARNERS:
        olc.progressive(olc.make(name, **OLC_LEARNERS[name]), X[:64], y[:64], classes=CLASSES,
                        progress=False)
    olc_warm_s = time.perf_counter() - t0
    for kind in ("Perceptron", "SGDClassifier(pa1)"):
        run_sklearn(kind, X[:64], y[:64])

    impls = {}
    for name in OLC_LEARNERS:
        impls[f"olc.{name}"] = (lambda name=name: run_olc(name, X, y))
    for name in PARTIAL_FIT_LEARNERS:
        impls[f"olc_partial_fit.{name}"] = (lambda name=name: run_olc_partial_fit(name, X, y))
    skipped = {}
    if layout == "csr":
        prepared = c_reference.CLoops.prepare(X, y_float)  # outside the timings
        for build_name, loops in c_reference.build_all().items():
            if isinstance(loops, str):
                skipped[build_name] = loops
                continue
            for rule in ("perceptron", "pa-i"):
                impls[f"{build_name}.{rule}"] = (
                    lambda loops=loops, rule=rule: run_c(loops, rule, prepared))
    impls["bare.perceptron"] = lambda: run_bare_impl("perceptron", X, y_float)
    impls["bare.pa-i"] = lambda: run_bare_impl("pa-i", X, y_float)
    # Reference points only (no target): a tuned hand loop (dense: reassociated dot products;
    # CSR: uint32 indices, converted here outside the timing).
    Xt = with_uint32_indices(X) if layout == "csr" else X
    impls["bare_tuned.perceptron"] = lambda: run_bare_impl("perceptron", Xt, y_float, True)
    impls["bare_tuned.pa-i"] = lambda: run_bare_impl("pa-i", Xt, y_float, True)
    impls["sklearn.Perceptron"] = lambda: run_sklearn("Perceptron", X, y)
    impls["sklearn.SGDClassifier(pa1)"] = lambda: run_sklearn("SGDClassifier(pa1)", X, y)

    walls = {k: [] for k in impls}
    cpus = {k: [] for k in impls}
    extras = {k: {} for k in impls}
    # Interleave implementations across repeats so that background noise hits all of them, in
    # a fresh (seeded) order each round: no implementation always runs right after the same
    # one (what the previous run left in the caches and the allocator differs by position).
    rng = np.random.default_rng(SEED)
    keys = list(impls)
    for r in range(repeat):
        for key in rng.permutation(keys):
            key = str(key)
            wall, cpu, extra = impls[key]()
            walls[key].append(wall)
            cpus[key].append(cpu)
            if wall <= min(walls[key]):
                extras[key] = extra
            log(f"  {wname} repeat {r + 1}/{repeat} {key:28s} {wall:8.4f} s "
                f"({n / wall:,.0f} rows/s; cpu {cpu:.4f} s)")

    results = {}
    for key in impls:
        sec, cpu = min(walls[key]), min(cpus[key])
        row = {"rows_per_s": round(n / sec), "seconds": round(sec, 5),
               "all_seconds": [round(t, 5) for t in walls[key]],
               "cpu_rows_per_s": round(n / cpu), "cpu_seconds": round(cpu, 5)}
        for k, v in extras[key].items():
            row[k] = round(v, 5) if isinstance(v, float) else v
        if key.startswith("olc.") and "protocol_seconds" in extras[key]:
            row["rows_per_s_by_protocol_seconds"] = round(n / extras[key]["protocol_seconds"])
        results[key] = row

    ratios = {}
    for rname, (num, den, targets) in RATIOS.items():
        if layout not in targets or num not in results or den not in results:
            continue
        value = results[num]["rows_per_s"] / results[den]["rows_per_s"]
        value_cpu = results[num]["cpu_rows_per_s"] / results[den]["cpu_rows_per_s"]
        ratios[rname] = {"value": round(value, 3), "target": targets[layout],
                         "pass": bool(value >= targets[layout]),
                         "value_cpu_time": round(value_cpu, 3)}

    checks = {}
    for rule in ("perceptron", "pa-i"):
        keys = [k for k in (f"olc.{rule}", f"olc_partial_fit.{rule}", f"bare.{rule}",
                            f"bare_tuned.{rule}", f"c_O2.{rule}", f"c_O3_fastmath.{rule}")
                if k in results]
        checks[f"{rule}_updates"] = {k: results[k]["updates"] for k in keys}
    out = {"c_reference_skipped": skipped,
           "compile_seconds": {"bare_loops": round(compile_bare_s, 3),
                               "olc_warmup_all_learners": round(olc_warm_s, 3)},
           "results": results, "ratios": ratios, "same_work_checks": checks}
    if diagnose:
        out["olc_diagnostics"] = {}
        for name in OLC_LEARNERS:
            log(f"  {wname} diagnostics {name}")
            d = diagnose_olc(name, X, y, repeat)
            out["olc_diagnostics"][name] = {k: (round(v, 5) if isinstance(v, float) else v)
                                            for k, v in d.items()}
    return out


# -- floors ---------------------------------------------------------------------------------
def bench_floors(X, y, repeat, quick):
    floors = {}
    n_sk = min(FLOOR_SKLEARN_ROWS, X.shape[0])
    if quick:
        n_sk = min(n_sk, 500)
    from sklearn.linear_model import Perceptron

    Xs, ys = X[:n_sk], y[:n_sk]
    times = []
    for _ in range(repeat):
        est = Perceptron(shuffle=False, max_iter=1, tol=None)
        with Clock() as c:
            for i in range(n_sk):
                est.partial_fit(Xs[i:i + 1], ys[i:i + 1], classes=CLASSES)
        times.append(c.wall)
    sec = min(times)
    floors["sklearn.Perceptron per-example partial_fit"] = {
        "rows": n_sk, "rows_per_s": round(n_sk / sec), "seconds": round(sec, 4),
        "all_seconds": [round(t, 4) for t in times]}

    try:
        from river import linear_model
    except ImportError:
        floors["river"] = {"skipped": "river is not importable (pip install 'olc[bench]')"}
        return floors
    n_rv = min(FLOOR_RIVER_ROWS, X.shape[0])
    if quick:
        n_rv = min(n_rv, 2_000)
    # Rows as dicts, built outside the timing (River's native input): generous to River.
    rows = [dict(enumerate(r)) for r in X[:n_rv].tolist()]
    labels = [bool(v == 1) for v in y[:n_rv]]
    models = {"river.Perceptron": lambda: linear_model.Perceptron(),
              "river.PAClassifier(C=1, mode=1)": lambda: linear_model.PAClassifier(C=PA_C,
                                                                                   mode=1)}
    for key, make in models.items():
        times = []
        for _ in range(repeat):
            model = make()
            with Clock() as c:
                for xi, yi in zip(rows, labels):
                    model.predict_one(xi)
                    model.learn_one(xi, yi)
            times.append(c.wall)
        sec = min(times)
        floors[key] = {"rows": n_rv, "rows_per_s": round(n_rv / sec), "seconds": round(sec, 4),
                       "protocol": "predict_one then learn_one per row",
                       "all_seconds": [round(t, 4) for t in times]}
    return floors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the rows (smoke test)")
    ap.add_argument("--workloads", default="W1,W2,W3", help="comma-separated, e.g. W1,W3")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument("--no-diagnostics", action="store_true",
                    help="skip the per-learner breakdown of olc's time")
    ap.add_argument("--no-floors", action="store_true",
                    help="skip River / per-example scikit-learn floors")
    args = ap.parse_args(argv)
    names = [w.strip().upper() for w in args.workloads.split(",") if w.strip()]
    unknown = [w for w in names if w not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload(s) {unknown}; choose from {sorted(WORKLOADS)}")
    if args.repeat < 1:
        ap.error("--repeat must be ≥ 1")

    report = {"benchmark": "olc throughput",
              "config": {"quick": args.quick, "repeat": args.repeat, "workloads": names,
                         "seed": SEED, "pa_C": PA_C,
                         "timing": "time.perf_counter (wall), best of --repeat; ratios and "
                                   "pass/fail use wall time; cpu_* figures use "
                                   "time.thread_time (robust to other processes); data "
                                   "generation and compilation excluded"},
              "machine": machine_info(), "versions": versions(), "workloads": {}}
    for wname in names:
        log(f"{wname}: generating data")
        X, y, meta = generate(wname, args.quick)
        log(f"{wname}: {meta}")
        res = bench_workload(wname, X, y, args.repeat, not args.no_diagnostics)
        report["workloads"][wname] = {**meta, **res}
        if wname == "W1" and not args.no_floors:
            log("W1: floors")
            report["floors"] = {"data": "first rows of W1",
                                **bench_floors(X, y, args.repeat, args.quick)}
        del X, y
        gc.collect()

    failed = [f"{w}: {r}" for w, wres in report["workloads"].items()
              for r, v in wres["ratios"].items() if not v["pass"]]
    report["summary"] = {"all_targets_pass": not failed, "failed": failed}
    emit_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
