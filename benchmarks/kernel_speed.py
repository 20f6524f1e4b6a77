"""Kernel learners' speed, side by side in one run (issue 24's speed figures):

1. ``unbudgeted``: one pass of the unbudgeted RBF kernel perceptron (γ = 0.01, no intercept)
   over a9a's training file in file order: learning seconds (compilation apart: a warm-up
   call first), mistakes, support vectors. Target: ≤ 2 s.
2. ``budgeted``: the kernel perceptron with a budget B (oldest removed) against a bare Numba
   loop of the same algorithm written here (the simplest one: rows stored dense, row-major,
   in a ring; their squared norms kept; per row one RBF value per stored row), at B = 100 and
   500, on dense a9a (the CSR file densified) and on CSR w8a (permuted with seed 0: the file
   is sorted in blocks, and in file order the learner makes 5 mistakes, never filling B).
   Both must make the same mistakes (checked). Target: olc's per-example time ≥ 0.8× the
   bare loop's speed (``bare_over_olc`` ≥ 0.8). ``flat_cpu_us_per_example``: olc's CPU time
   per example in the 5 % of the pass ending at 10 %, 50 % and 100 % of it.
3. ``vs_sklearn``: scikit-learn's usual answer, ``RBFSampler(γ)`` + ``SGDClassifier(hinge)
   .partial_fit`` (γ = ``--sklearn-gamma``, 0.1, for both sides) over the same pass (chunks
   of 1,000 rows, transform included), at several numbers of random features; for each olc
   learner, the scikit-learn run with the largest number of features whose pass + test time
   does not exceed olc's (equal wall time), test accuracies side by side (a9a's test file), and the online accuracy of the pass.
   ``cpu_seconds`` / ``bare_over_olc_cpu``: the same in this thread's CPU time (what other
   processes on the cores do not inflate). olc's feature-map learners run at the same sizes:
   ``fogd`` at every number of random features (the same ``RBFSampler`` draws as
   scikit-learn's, seed 0: only the learning step differs) and ``nogd`` at B = 100 and 500
   (catalogue defaults, η = 0.5, rank B); their rows add ``sklearn_at_same_size``.

Every timed implementation runs ``--repeat`` times, interleaved in a fresh random order each
round; the best time counts. On a busy machine (other processes on the cores) the ratios
from one interleaved run are what to read; absolute seconds drift.

4. ``high_d``: the kernel perceptron on a 20 Newsgroups-like CSR stream (d = 2^16, ~100
   values per row) at B = 25, 100 and 400: what storing and removing a row costs the pool.

Usage: OLC_DATA=... python benchmarks/kernel_speed.py [--repeat N] [--quick]
Prints one JSON object on stdout.
"""
import argparse
import json
import random
import sys
import time
from pathlib import Path

import numba
import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, versions  # noqa: E402

import olc  # noqa: E402
from olc.data import load  # noqa: E402

GAMMA = 0.01
BUDGETS = (100, 500)


# -- the bare loops ------------------------------------------------------------------------
@numba.njit(cache=True)
def bare_budget_perceptron_dense(X, y, gamma, B):
    """Kernel perceptron, budget B, oldest removed: ring of B dense rows (row-major)."""
    n, d = X.shape
    pool = np.zeros((B, d))
    sq = np.zeros(B)
    coef = np.zeros(B)
    stored = 0
    head = 0                                   # the slot the next row goes to (the oldest)
    mistakes = 0
    for t in range(n):
        x = X[t]
        xx = 0.0
        for j in range(d):
            xx += x[j] * x[j]
        f = 0.0
        for i in range(stored):
            dot = 0.0
            for j in range(d):
                dot += pool[i, j] * x[j]
            f += coef[i] * np.exp(-gamma * (xx + sq[i] - 2.0 * dot))
        if y[t] * f <= 0.0:
            mistakes += 1
            for j in range(d):
                pool[head, j] = x[j]
            sq[head] = xx
            coef[head] = y[t]
            head = (head + 1) % B
            if stored < B:
                stored += 1
    return mistakes


@numba.njit(cache=True)
def bare_budget_perceptron_csr(data, indices, indptr, y, d, gamma, B):
    """The same on CSR rows: stored rows dense (B, d), x's nonzeros gathered from them."""
    n = indptr.shape[0] - 1
    pool = np.zeros((B, d))
    sq = np.zeros(B)
    coef = np.zeros(B)
    stored = 0
    head = 0
    mistakes = 0
    for t in range(n):
        a, b = indptr[t], indptr[t + 1]
        xx = 0.0
        for k in range(a, b):
            xx += data[k] * data[k]
        f = 0.0
        for i in range(stored):
            dot = 0.0
            for k in range(a, b):
                dot += pool[i, indices[k]] * data[k]
            f += coef[i] * np.exp(-gamma * (xx + sq[i] - 2.0 * dot))
        if y[t] * f <= 0.0:
            mistakes += 1
            for j in range(d):
                pool[head, j] = 0.0
            for k in range(a, b):
                pool[head, indices[k]] = data[k]
            sq[head] = xx
            coef[head] = y[t]
            head = (head + 1) % B
            if stored < B:
                stored += 1
    return mistakes


# -- helpers -------------------------------------------------------------------------------
def interleaved(impls, repeat, seed=0):
    """{name: (best seconds, all seconds, last value)}: every ``impls[name]()`` run
    ``repeat`` times in a fresh random order per round."""
    rng = random.Random(seed)
    times = {k: [] for k in impls}
    cpu = {k: [] for k in impls}
    values = {}
    for _ in range(repeat):
        order = list(impls)
        rng.shuffle(order)
        for name in order:
            c0, t0 = time.thread_time(), time.perf_counter()
            values[name] = impls[name]()
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(time.thread_time() - c0)
    CPU.update({k: round(min(v), 4) for k, v in cpu.items()})
    return {k: (min(v), [round(s, 4) for s in v], values[k]) for k, v in times.items()}


#: the best thread CPU seconds of the last ``interleaved`` call, by name (this thread's CPU
#: time: what other processes on the cores do not inflate)
CPU = {}


def olc_pass(X, y, **params):
    model = olc.make("kernel-perceptron", kernel="rbf", gamma=GAMMA, **params)
    record = model.predict_then_learn(X, y, classes=[-1.0, 1.0])
    return model, int(np.count_nonzero(record.updated))


def chunked_profile(X, y, budget, pieces=20):
    """olc's per-example µs over each twentieth of a pass (one call per piece), in this
    thread's CPU time (wall time of a 1,600-row piece is at the mercy of the machine's
    other processes)."""
    model = olc.make("kernel-perceptron", kernel="rbf", gamma=GAMMA, budget=budget)
    n = X.shape[0]
    edges = np.linspace(0, n, pieces + 1).astype(int)
    out = []
    for a, b in zip(edges[:-1], edges[1:]):
        t0 = time.thread_time()
        model.predict_then_learn(X[a:b], y[a:b], classes=[-1.0, 1.0])
        out.append((time.thread_time() - t0) / (b - a) * 1e6)
    return out


def flat(profiles):
    """Best (over rounds) µs per example of the pieces ending at 10 %, 50 %, 100 %."""
    best = np.min(np.array(profiles), axis=0)
    pieces = best.size
    return {f"{p}%": round(float(best[int(round(p / 100 * pieces)) - 1]), 3)
            for p in (10, 50, 100)}


# -- the three parts -----------------------------------------------------------------------
def part_unbudgeted(X, y, repeat):
    olc_pass(X[:50], y[:50])                               # compile
    res = interleaved({"olc": lambda: olc_pass(X, y)}, repeat)
    seconds, all_seconds, (model, mistakes) = res["olc"]
    return {"rows": int(X.shape[0]), "layout": type(X).__name__, "seconds": round(seconds, 3),
            "cpu_seconds": CPU["olc"], "all_seconds": all_seconds, "mistakes": mistakes,
            "support_vectors": int(model.n_support_[0]), "target_seconds": 2.0,
            "meets_target": seconds <= 2.0}


def part_budgeted(name, X, y, repeat):
    dense = not sp.issparse(X)
    out = {}
    for B in BUDGETS:
        if dense:
            def bare():
                return int(bare_budget_perceptron_dense(X, y, GAMMA, B))
        else:
            def bare():
                return int(bare_budget_perceptron_csr(X.data, X.indices, X.indptr, y,
                                                      X.shape[1], GAMMA, B))
        bare()                                              # compile
        olc_pass(X[:50], y[:50], budget=B)
        res = interleaved({"olc": lambda: olc_pass(X, y, budget=B)[1], "bare": bare}, repeat)
        profiles = [chunked_profile(X, y, B) for _ in range(repeat)]
        n = X.shape[0]
        out[f"B={B}"] = {
            "olc_seconds": round(res["olc"][0], 4), "bare_seconds": round(res["bare"][0], 4),
            "olc_all": res["olc"][1], "bare_all": res["bare"][1],
            "olc_us_per_example": round(res["olc"][0] / n * 1e6, 3),
            "bare_us_per_example": round(res["bare"][0] / n * 1e6, 3),
            "bare_over_olc": round(res["bare"][0] / res["olc"][0], 3),
            "bare_over_olc_cpu": round(CPU["bare"] / CPU["olc"], 3),
            "same_mistakes": res["olc"][2] == res["bare"][2],
            "mistakes": {"olc": res["olc"][2], "bare": res["bare"][2]},
            "flat_cpu_us_per_example": flat(profiles)}
    return {"data": name, "layout": "dense" if dense else "csr", "rows": int(X.shape[0]),
            "features": int(X.shape[1]), "gamma": GAMMA, **out}


def high_d_stream(n=4000, d=2 ** 16, nnz=120, seed=0):
    """A 20 Newsgroups-like CSR stream: d = 2^16 columns, ~``nnz`` tf-idf-like values per row
    (Zipf-distributed features, rows of unit norm), labels from a few frequent features."""
    rng = np.random.default_rng(seed)
    rows, cols = [], []
    for i in range(n):
        c = np.unique(np.minimum(rng.zipf(1.3, nnz), d) - 1)
        rows.append(np.full(c.size, i))
        cols.append(c)
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    X = sp.csr_matrix((rng.random(rows.size), (rows, cols)), shape=(n, d))
    X = sp.diags(1.0 / np.sqrt(X.multiply(X).sum(axis=1).A1)) @ X
    y = np.where(X[:, 3].toarray().ravel() + X[:, 5].toarray().ravel() > 0.1, 1.0, -1.0)
    return sp.csr_matrix(X), y


def part_high_d(repeat):
    """µs per example of the kernel perceptron (RBF, γ = 1) on a 20 Newsgroups-like stream
    at d = 2^16, budgets 25, 100 and 400: the pool's cost of storing/removing a row."""
    X, y = high_d_stream()
    out = {"rows": int(X.shape[0]), "features": int(X.shape[1]),
           "mean_nnz": round(X.nnz / X.shape[0], 1)}
    for B in (25, 100, 400):
        def run():
            model = olc.make("kernel-perceptron", kernel="rbf", gamma=1.0, budget=B)
            record = model.predict_then_learn(X, y, classes=[-1.0, 1.0])
            return int(np.count_nonzero(record.updated))
        run()                                               # compile
        res = interleaved({"olc": run}, repeat)
        out[f"B={B}"] = {"seconds": round(res["olc"][0], 4),
                         "us_per_example": round(res["olc"][0] / X.shape[0] * 1e6, 2),
                         "cpu_us_per_example": round(CPU["olc"] / X.shape[0] * 1e6, 2),
                         "mistakes": res["olc"][2]}
    return out


def sklearn_pass(X, y, Xt, yt, n_components, gamma, seed=0, chunk=1000):
    """(seconds, test accuracy, online accuracy: each chunk predicted before it is learned)."""
    from sklearn.kernel_approximation import RBFSampler
    from sklearn.linear_model import SGDClassifier

    t0 = time.perf_counter()
    sampler = RBFSampler(gamma=gamma, n_components=n_components, random_state=seed)
    sampler.fit(X[:1])
    sgd = SGDClassifier(loss="hinge", random_state=seed)
    right = 0
    for a in range(0, X.shape[0], chunk):
        Z = sampler.transform(X[a:a + chunk])
        if a:
            right += int(np.count_nonzero(sgd.predict(Z) == y[a:a + chunk]))
        sgd.partial_fit(Z, y[a:a + chunk], classes=[-1.0, 1.0])
    accuracy = float(np.mean(sgd.predict(sampler.transform(Xt)) == yt))
    return time.perf_counter() - t0, accuracy, right / max(1, X.shape[0] - chunk)


def olc_timed(X, y, Xt, yt, name, gamma, **params):
    t0 = time.perf_counter()
    kernel = {} if name == "fogd" else {"kernel": "rbf"}  # FOGD's map is RBF's
    model = olc.make(name, gamma=gamma, **kernel, **params)
    record = model.predict_then_learn(X, y, classes=[-1.0, 1.0])
    accuracy = float(np.mean(model.predict(Xt) == yt))
    return time.perf_counter() - t0, accuracy, float(np.mean(record.pred == y))


def part_vs_sklearn(X, y, Xt, yt, repeat, gamma, components=(10, 25, 50, 100, 200, 400, 800, 1600)):
    from threadpoolctl import threadpool_limits

    components = tuple(sorted(set(components) | set(BUDGETS)))  # NOGD's sizes too
    learners = {"kernel-perceptron (no budget)": ("kernel-perceptron", {}),
                **{f"kernel-perceptron B={B}": ("kernel-perceptron", {"budget": B})
                   for B in BUDGETS},
                **{f"forgetron B={B}": ("forgetron", {"budget": B}) for B in BUDGETS},
                # the feature-map learners at scikit-learn's sizes (catalogue defaults: η 0.5)
                **{f"fogd D={D}": ("fogd", {"n_components": D}) for D in components},
                **{f"nogd B={B}": ("nogd", {"budget": B}) for B in BUDGETS}}
    size = {k: p.get("n_components", p.get("budget")) for k, (n, p) in learners.items()
            if n in ("fogd", "nogd")}
    for name, params in learners.values():
        olc_timed(X[:50], y[:50], Xt[:10], yt[:10], name, gamma, **params)     # compile
    impls = {f"olc {k}": (lambda n=n, p=p: olc_timed(X, y, Xt, yt, n, gamma, **p))
             for k, (n, p) in learners.items()}
    impls.update({f"sklearn D={D}": (lambda D=D: sklearn_pass(X, y, Xt, yt, D, gamma))
                  for D in components})
    with threadpool_limits(1):             # one core each, as olc's loop
        res = interleaved({k: (lambda f=f: f()) for k, f in impls.items()}, repeat)
    sk = {D: (res[f"sklearn D={D}"][0], *res[f"sklearn D={D}"][2][1:]) for D in components}
    rows = []
    for k in learners:
        seconds, (_, acc, online) = res[f"olc {k}"][0], res[f"olc {k}"][2]
        fits = [D for D in components if sk[D][0] <= seconds]
        D = max(fits) if fits else None
        rows.append({"olc": k, "olc_seconds": round(seconds, 3), "olc_accuracy": round(acc, 4),
                     "olc_online_accuracy": round(online, 4),
                     "sklearn_components_at_equal_time": D,
                     "sklearn_seconds": None if D is None else round(sk[D][0], 3),
                     "sklearn_accuracy": None if D is None else round(sk[D][1], 4),
                     "sklearn_online_accuracy": None if D is None else round(sk[D][2], 4)})
        if k in size:  # the same number of features: FOGD's are RBFSampler's own (seed 0)
            rows[-1]["sklearn_at_same_size"] = {
                "components": size[k], "seconds": round(sk[size[k]][0], 3),
                "accuracy": round(sk[size[k]][1], 4),
                "online_accuracy": round(sk[size[k]][2], 4)}
    return {"pipeline": "RBFSampler + SGDClassifier(hinge).partial_fit, chunks of 1000, "
                        "one pass; times include transform and test prediction; online "
                        "accuracy: olc per row, scikit-learn per chunk before learning it",
            "gamma": gamma,
            "sklearn": {str(D): {"seconds": round(s, 3), "accuracy": round(a, 4),
                                 "online_accuracy": round(o, 4)}
                        for D, (s, a, o) in sk.items()},
            "equal_time": rows}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="a tenth of the rows (smoke test)")
    ap.add_argument("--parts", default="unbudgeted,budgeted,high_d,vs_sklearn")
    ap.add_argument("--sklearn-gamma", type=float, default=0.1,
                    help="γ of the comparison with scikit-learn (0.1: a9a's γ chosen by "
                         "`olc reproduce kernel-budget`; at 0.01 the RBF kernel is nearly "
                         "constant on a9a's rows and the last model of a mistake-driven "
                         "learner follows its last update)")
    args = ap.parse_args(argv)
    parts = args.parts.split(",")
    if parts == ["high_d"]:  # no data set to load
        out = {"machine": machine_info(), "high_d": part_high_d(args.repeat)}
        json.dump(out, sys.stdout, indent=1)
        print()
        return
    X, y = load("a9a", split="train")[:2]
    Xt, yt = load("a9a", split="test")[:2]
    W, wy = load("w8a", split="train")[:2]
    width = max(X.shape[1], Xt.shape[1])
    X, Xt = sp.csr_matrix(X), sp.csr_matrix(Xt)
    X.resize(X.shape[0], width)
    Xt.resize(Xt.shape[0], width)
    y, yt, wy = (np.where(np.asarray(v) > 0, 1.0, -1.0) for v in (y, yt, wy))
    if args.quick:
        X, y, W, wy = X[: X.shape[0] // 10], y[: y.size // 10], W[: W.shape[0] // 10], \
            wy[: wy.size // 10]
    out = {"machine": machine_info(), "versions": versions(), "repeat": args.repeat,
           "note": "best of --repeat interleaved rounds; the machine may be shared: read the "
                   "ratios"}
    if "unbudgeted" in parts:
        print("unbudgeted …", file=sys.stderr)
        out["unbudgeted"] = part_unbudgeted(X, y, args.repeat)
    # w8a's training file is sorted in blocks (positives in rows 740–2218): in file order the
    # kernel perceptron makes 5 mistakes and never fills a budget, so it runs permuted
    perm = np.random.default_rng(0).permutation(W.shape[0])
    W = sp.csr_matrix(W)
    if "budgeted" in parts:
        print("budgeted …", file=sys.stderr)
        out["budgeted"] = [part_budgeted("a9a", np.ascontiguousarray(X.toarray()), y,
                                         args.repeat),
                           part_budgeted("w8a (permuted, seed 0)", W[perm], wy[perm],
                                         args.repeat)]
    if "high_d" in parts:
        print("high d …", file=sys.stderr)
        out["high_d"] = part_high_d(args.repeat)
    if "vs_sklearn" in parts:
        print("vs scikit-learn …", file=sys.stderr)
        out["vs_sklearn"] = part_vs_sklearn(X, y, Xt, yt, args.repeat, args.sklearn_gamma)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
