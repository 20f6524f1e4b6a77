# Run once with olc 0.1.0 installed (commit e2edd12) from the repository root; kept for the record.
"""Saved by olc 0.1.0 (commit e2edd12): one fitted model per catalogue entry, with the
decision values it gave on a fixed probe set."""
import json, numpy as np, olc, scipy.sparse as sp
from olc.learners.registry import algorithms
out = "tests/persistence_fixtures/v0_1_0"
rng = np.random.default_rng(7)
X = rng.normal(size=(40, 6)); y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.1 > 0, 1, -1)
Xp = rng.normal(size=(8, 6))
Xb = (rng.random((40, 6)) < 0.4).astype(float); yb = np.where(Xb[:, 0] + Xb[:, 2] > 0, 1, -1)
Xpm = np.where(rng.random((8, 6)) < 0.5, 1.0, -1.0)
Xm = np.where(rng.random((40, 6)) < 0.5, 1.0, -1.0); ym = Xm[:, 1].astype(int)
expected = {}
for info in algorithms():
    name = info.name
    L = olc.make(name)
    dom = getattr(L, "input_domain", None)
    if name == "winnow": A, b, P = Xb, yb, (rng.random((8, 6)) < 0.4).astype(float)
    elif name in ("weighted-majority", "randomized-weighted-majority"): A, b, P = Xm, ym, Xpm
    else: A, b, P = X, y, Xp
    if info.kind == "regressor": b = A @ np.arange(1.0, 7.0) + 0.3
    L.partial_fit(A[:25], b[:25], **({"classes": np.array([-1, 1])} if info.kind == "classifier" else {}))
    L.partial_fit(A[25:], b[25:])
    f = f"{out}/{name}.npz"
    olc.save(L, f)
    vals = L.decision_function(P) if info.kind == "classifier" else L.predict(P)
    expected[name] = {"probe": P.tolist(), "values": [float(v) for v in vals]}
json.dump(expected, open(f"{out}/expected.json", "w"), indent=0)
print(len(expected))
