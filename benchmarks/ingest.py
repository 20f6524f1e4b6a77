"""Ingestion benchmark: from a data file to a result, olc against scikit-learn's reader and
Vowpal Wabbit, side by side in one run (issue 25's targets).

Generates (once, kept in --dir between runs) issue 25's data set: --rows rows (400,000),
2^20 columns, 50 binary nonzeros a row at random distinct columns, labels from a random
hyperplane; written as svmlight (``W.svm``, one-based) and in VW's text format (``W.vw``,
the same columns as integer feature names of namespace ``f``). Then measures:

  reader        olc's ``read_svmlight`` (compiled, threads) against scikit-learn's
                ``load_svmlight_file`` on a9a, w8a (decompressed into --dir) and W.svm,
                alternating, best of --repeat, in one process (its imports and compilation
                excluded): seconds, MB/s, ratio; olc's ``read_vw`` on W.vw too
  olc run       ``olc run perceptron --data W.svm --json`` as a whole command, in a fresh
                process under /usr/bin/time -v: first run (parse and write the parse cache)
                and with the parse cache; wall seconds and peak RSS (against the CSR arrays)
  vw            ``vowpalwabbit.Workspace("--sgd --loss_function hinge -d W.vw --quiet")``
                then ``finish()``, timed in its process (as issue 25 timed it) and as a whole
                process, from the text file and from VW's binary cache (``--cache_file``,
                written by a first run); VW reads through its own reader
  stream        benchmarks/stream_memory.py (unless --skip-stream): ``olc run --stream`` and
                ``olc.progressive(chunks)`` on a --stream-gigabytes file

Usage: python benchmarks/ingest.py [--dir /tmp/olc-ingest] [--rows 400000] [--repeat 3]
       [--skip-stream] [--stream-gigabytes 2]
Prints one JSON object on stdout; progress on stderr. Needs ``vowpalwabbit`` (the bench
extra) for the VW rows; they are reported as skipped without it.
"""
import argparse
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
D, NNZ = 2 ** 20, 50
SHARED = Path(os.environ.get("OLC_DATA", REPO.parent / "shared" / "datasets"))


def log(text):
    print(text, file=sys.stderr, flush=True)


def generate(folder, rows, seed=0):
    """W.svm and W.vw (same rows), unless already there."""
    svm, vw = folder / f"W{rows}.svm", folder / f"W{rows}.vw"
    if svm.exists() and vw.exists():
        return svm, vw
    log(f"generating {rows} rows ...")
    rng = np.random.default_rng(seed)
    cols = np.sort(rng.integers(0, D - NNZ, (rows, NNZ)), axis=1) + np.arange(NNZ)  # distinct
    w = rng.normal(size=D)
    labels = np.where(w[cols].sum(axis=1) > 0, 1, -1)
    tmp_svm, tmp_vw = svm.with_suffix(".partial"), vw.with_suffix(".partial2")
    with open(tmp_svm, "w") as fs, open(tmp_vw, "w") as fv:
        for start in range(0, rows, 20_000):
            block, ys = cols[start:start + 20_000], labels[start:start + 20_000].tolist()
            fs.write("".join(f"{y:+d} " + " ".join(f"{j}:1" for j in (r + 1).tolist()) + "\n"
                             for y, r in zip(ys, block)))
            fv.write("".join(f"{y} |f " + " ".join(map(str, r.tolist())) + "\n"
                             for y, r in zip(ys, block)))
    os.replace(tmp_svm, svm)
    os.replace(tmp_vw, vw)
    return svm, vw


def plain_copies(folder):
    """a9a and w8a decompressed into ``folder`` (both readers then read the same bytes)."""
    out = {}
    for name, width in (("a9a", 123), ("w8a", 300)):
        packed = SHARED / name / f"{name}.xz"
        if not packed.exists():
            continue
        plain = folder / name
        if not plain.exists():
            with lzma.open(packed) as src, open(plain, "wb") as dst:
                shutil.copyfileobj(src, dst)
        out[name] = (plain, width)
    return out


READERS = r"""
import json, sys, time
import numpy as np
from olc.data.svmlight import read_svmlight
from olc.data.vw import read_vw
from sklearn.datasets import load_svmlight_file
files = json.loads(sys.argv[1]); repeat = int(sys.argv[2]); vw_file = sys.argv[3]
read_svmlight(files[0][0], files[0][1]); read_vw(vw_file, 4)  # load the compiled readers
out = {}
for path, width in files:
    best = {"olc": 1e9, "sklearn": 1e9}
    for _ in range(repeat):  # alternating, best of
        t = time.perf_counter(); X, y = read_svmlight(path, width)
        best["olc"] = min(best["olc"], time.perf_counter() - t)
        t = time.perf_counter(); Xs, ys = load_svmlight_file(path, n_features=width)
        best["sklearn"] = min(best["sklearn"], time.perf_counter() - t)
        same = bool(np.array_equal(X.indptr, Xs.indptr) and np.array_equal(X.indices, Xs.indices)
                    and X.data.tobytes() == Xs.data.tobytes() and y.tobytes() == ys.tobytes())
        del Xs, ys
    out[path] = {**best, "identical": same}
best = 1e9
for _ in range(repeat):
    t = time.perf_counter(); read_vw(vw_file, 20); best = min(best, time.perf_counter() - t)
out["vw_text"] = {"olc": best}
print(json.dumps(out))
"""

VW_RUN = r"""
import sys, time
import vowpalwabbit
t = time.perf_counter()
ws = vowpalwabbit.Workspace(sys.argv[1])
ws.finish()
print(time.perf_counter() - t)
"""


def timed(cmd, env):
    """(stdout, wall seconds, peak RSS MB) of ``cmd`` under /usr/bin/time -v."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"{cmd} failed:\n{proc.stderr[-3000:]}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)[1]) / 1024
    return proc.stdout, wall, rss


def csr_megabytes(rows, nnz):
    return (nnz * (8 + 4) + (rows + 1) * 4 + rows * 8) / 2 ** 20


def measure_readers(files, vw_file, repeat, env):
    log("readers: olc and scikit-learn, alternating ...")
    out, _, _ = timed([sys.executable, "-c", READERS, json.dumps([[str(p), w] for p, w in files]),
                       str(repeat), str(vw_file)], env)
    raw = json.loads(out)
    report = {}
    for path, width in files:
        r = raw[str(path)]
        mb = path.stat().st_size / 1e6
        report[path.name] = {"MB": round(mb, 1), "olc_s": round(r["olc"], 3),
                             "sklearn_s": round(r["sklearn"], 3),
                             "olc_MB_per_s": round(mb / r["olc"]),
                             "sklearn_MB_per_s": round(mb / r["sklearn"], 1),
                             "speedup": round(r["sklearn"] / r["olc"], 1),
                             "bit_identical": r["identical"]}
    mb = vw_file.stat().st_size / 1e6
    report[vw_file.name] = {"MB": round(mb, 1), "olc_read_vw_s": round(raw["vw_text"]["olc"], 3),
                            "olc_MB_per_s": round(mb / raw["vw_text"]["olc"])}
    return report


def measure_run(svm, rows, repeat, env):
    cache = Path(env["OLC_CACHE"])
    cmd = [sys.executable, "-m", "olc", "run", "perceptron", "--data", str(svm), "--json"]
    first, cached = [], []
    for _ in range(repeat):
        shutil.rmtree(cache / "derived" / "parsed-files", ignore_errors=True)
        log("olc run (first run) ...")
        out, wall, rss = timed(cmd, env)
        first.append((wall, rss))
        log("olc run (parse cache) ...")
        out, wall, rss = timed(cmd, env)
        cached.append((wall, rss))
    summary = json.loads(out)
    csr = csr_megabytes(rows, rows * NNZ)
    return {"first_run": {"wall_s": round(min(w for w, _ in first), 2),
                          "peak_rss_mb": round(max(r for _, r in first)),
                          "peak_over_csr": round(max(r for _, r in first) / csr, 2)},
            "parse_cache": {"wall_s": round(min(w for w, _ in cached), 2),
                            "peak_rss_mb": round(max(r for _, r in cached)),
                            "peak_over_csr": round(max(r for _, r in cached) / csr, 2)},
            "csr_arrays_mb": round(csr), "learning_s": round(summary["seconds"], 3),
            "mistakes": summary["mistakes"]}


def measure_vw(vw_file, repeat, env, folder):
    try:
        import vowpalwabbit
        del vowpalwabbit  # only its presence
    except ImportError:
        return {"skipped": "vowpalwabbit is not installed (pip install -e '.[bench]')"}
    cache_file = folder / f"{vw_file.name}.vwcache"
    cache_file.unlink(missing_ok=True)
    text_args = f"--sgd --loss_function hinge -d {vw_file} --quiet"
    cache_args = f"{text_args} --cache_file {cache_file}"
    timed([sys.executable, "-c", VW_RUN, cache_args], env)  # writes the cache
    rows = {"text": [], "cache": []}
    for _ in range(repeat):
        for kind, args in (("text", text_args), ("cache", cache_args)):
            log(f"vw ({kind}) ...")
            out, wall, rss = timed([sys.executable, "-c", VW_RUN, args], env)
            rows[kind].append((float(out), wall, rss))
    return {kind: {"in_process_s": round(min(r[0] for r in v), 3),
                   "wall_s": round(min(r[1] for r in v), 2),
                   "peak_rss_mb": round(max(r[2] for r in v))} for kind, v in rows.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(Path(tempfile.gettempdir()) / "olc-ingest"))
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-stream", action="store_true")
    parser.add_argument("--stream-gigabytes", type=float, default=2.0)
    args = parser.parse_args()
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    svm, vw_file = generate(folder, args.rows)
    env = dict(os.environ, OLC_COMPILE_NOTICE="0", OLC_CACHE=str(folder / "olc-cache"))
    subprocess.run([sys.executable, "-m", "olc", "warmup", "perceptron", "--readers"], env=env,
                   check=True,
                   capture_output=True)
    files = [(p, w) for p, w in plain_copies(folder).values()] + [(svm, D)]
    report = {"rows": args.rows, "svm_MB": round(svm.stat().st_size / 1e6, 1),
              "vw_MB": round(vw_file.stat().st_size / 1e6, 1), "cores": os.cpu_count(),
              "load_average": os.getloadavg()}
    report["reader"] = measure_readers(files, vw_file, args.repeat, env)
    report["olc_run"] = measure_run(svm, args.rows, args.repeat, env)
    report["vw"] = measure_vw(vw_file, args.repeat, env, folder)
    if "text" in report["vw"]:
        report["ratios"] = {
            "first_run_vs_vw_text_wall": round(report["vw"]["text"]["wall_s"]
                                               / report["olc_run"]["first_run"]["wall_s"], 2),
            "parse_cache_vs_vw_cache_wall": round(report["vw"]["cache"]["wall_s"]
                                                  / report["olc_run"]["parse_cache"]["wall_s"], 2)}
    if not args.skip_stream:
        log("stream_memory.py ...")
        out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "stream_memory.py"),
                              "--gigabytes", str(args.stream_gigabytes), "--dir", str(folder)],
                             env=env, capture_output=True, text=True, check=True).stdout
        report["stream"] = json.loads(out)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
