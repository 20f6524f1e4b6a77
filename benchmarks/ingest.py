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
                and with the parse cache; wall seconds and peak RSS (against the CSR arrays);
                also with ``--tau --margin`` (the two extra metrics, not computed by
                default) from the parse cache
  floor         what any Python process using numba's disk cache pays before olc does
                anything: ``python -c pass``, ``import numpy``, ``import numpy, numba``, and
                one call of a cached one-line numba function (numba's first dispatcher
                load builds its target context), best of --repeat
  vw            ``vowpalwabbit.Workspace("--sgd --loss_function hinge -d W.vw --quiet")``
                then ``finish()``, timed in its process (as issue 25 timed it) and as a whole
                process, from the text file and from VW's binary cache (``--cache_file``,
                written by a first run); VW reads through its own reader
  stream        benchmarks/stream_memory.py (unless --skip-stream): ``olc run --stream`` and
                ``olc.progressive(chunks)`` on a --stream-gigabytes file

Usage: python benchmarks/ingest.py [--dir /tmp/olc-ingest] [--rows 400000] [--repeat 3]
       [--skip-stream] [--stream-gigabytes 2] [--only reader,run,vw,floor]

Python bytecode is written into a PYTHONPYCACHEPREFIX under --dir (an installed olc has its
.pyc files; PYTHONDONTWRITEBYTECODE=1 would make every olc process compile olc's modules
from source, ~0.1-0.25 s). The machine's load average is reported at the start and the end;
on a shared machine compare the ratios, measured side by side.
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


def measure_run_and_vw(svm, vw_file, rows, repeat, env, folder, with_vw=True):
    """olc run (first run, parse cache, parse cache with --tau --margin) and VW (text, binary
    cache) round by round, alternating, so that both see the same machine load."""
    cache = Path(env["OLC_CACHE"])
    cmd = [sys.executable, "-m", "olc", "run", "perceptron", "--data", str(svm), "--json",
           "--quiet"]
    vw_args = vw_commands(vw_file, env, folder) if with_vw else {}
    runs = {"first_run": [], "parse_cache": [], "parse_cache_tau_margin": []}
    runs.update({f"vw_{kind}": [] for kind in vw_args})
    for _ in range(repeat):
        shutil.rmtree(cache / "derived" / "parsed-files", ignore_errors=True)
        log("olc run (first run) ...")
        out, wall, rss = timed(cmd, env)
        runs["first_run"].append((wall, rss, None))
        log("olc run (parse cache) ...")
        out, wall, rss = timed(cmd, env)
        runs["parse_cache"].append((wall, rss, None))
        log("olc run --tau --margin (parse cache) ...")
        with_metrics, wall, rss = timed(cmd + ["--tau", "--margin"], env)
        runs["parse_cache_tau_margin"].append((wall, rss, None))
        for kind, args in vw_args.items():
            log(f"vw ({kind}) ...")
            inside, wall, rss = timed([sys.executable, "-c", VW_RUN, args], env)
            runs[f"vw_{kind}"].append((wall, rss, float(inside)))
    summary = json.loads(out)
    csr = csr_megabytes(rows, rows * NNZ)

    def row(values, olc=True):
        out = {"wall_s": round(min(w for w, _, _ in values), 2),
               "all_wall_s": [round(w, 2) for w, _, _ in values],
               "peak_rss_mb": round(max(r for _, r, _ in values))}
        if olc:
            out["peak_over_csr"] = round(out["peak_rss_mb"] / csr, 2)
        else:
            out["in_process_s"] = round(min(i for _, _, i in values), 3)
        return out

    report = {"olc_run": {key: row(runs[key]) for key in
                          ("first_run", "parse_cache", "parse_cache_tau_margin")}}
    report["olc_run"].update(
        csr_arrays_mb=round(csr), learning_s=round(summary["seconds"], 3),
        mistakes=summary["mistakes"], not_computed_by_default=summary.get("not_computed"),
        tau_margin={k: json.loads(with_metrics)[k] for k in ("tau", "final_margin")})
    if not with_vw:
        return report
    if not vw_args:
        report["vw"] = {"skipped": "vowpalwabbit is not installed (pip install -e '.[bench]')"}
        return report
    report["vw"] = {kind: row(runs[f"vw_{kind}"], olc=False) for kind in vw_args}
    return report


FLOOR = {"python": "pass", "numpy": "import numpy", "numpy_numba": "import numpy, numba"}
CACHED_CALL = r"""
import numba, numpy
@numba.njit(cache=True)
def total(a):
    s = 0.0
    for v in a:
        s += v
    return s
total(numpy.ones(3))
"""


def measure_floor(repeat, env, folder):
    """Best wall seconds of processes that do nothing of olc's: the start-up floor."""
    script = folder / "floor_cached_call.py"
    script.write_text(CACHED_CALL)
    floor_env = dict(env, NUMBA_CACHE_DIR=str(folder / "floor-numba-cache"))
    subprocess.run([sys.executable, str(script)], env=floor_env, check=True)  # fills the cache
    cmds = {k: [sys.executable, "-c", v] for k, v in FLOOR.items()}
    cmds["numpy_numba_first_cached_call"] = [sys.executable, str(script)]
    best = {k: 1e9 for k in cmds}
    for _ in range(repeat):
        for k, cmd in cmds.items():
            best[k] = min(best[k], timed(cmd, floor_env)[1])
    return {k: round(v, 3) for k, v in best.items()}


def vw_commands(vw_file, env, folder):
    """{kind: VW arguments} for its text file and its binary cache (written here by a first
    run), or {} when the wheel is not installed."""
    try:
        import vowpalwabbit
        del vowpalwabbit  # only its presence
    except ImportError:
        return {}
    cache_file = folder / f"{vw_file.name}.vwcache"
    cache_file.unlink(missing_ok=True)
    text_args = f"--sgd --loss_function hinge -d {vw_file} --quiet"
    cache_args = f"{text_args} --cache_file {cache_file}"
    timed([sys.executable, "-c", VW_RUN, cache_args], env)  # writes the cache
    return {"text": text_args, "cache": cache_args}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(Path(tempfile.gettempdir()) / "olc-ingest"))
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-stream", action="store_true")
    parser.add_argument("--stream-gigabytes", type=float, default=2.0)
    parser.add_argument("--only", default="reader,run,vw,floor",
                        help="comma-separated parts among reader, run, vw, floor")
    args = parser.parse_args()
    only = set(args.only.split(","))
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    svm, vw_file = generate(folder, args.rows)
    env = dict(os.environ, OLC_COMPILE_NOTICE="0", OLC_CACHE=str(folder / "olc-cache"),
               PYTHONPYCACHEPREFIX=str(folder / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "olc", "warmup", "perceptron", "--readers"], env=env,
                   check=True,
                   capture_output=True)
    files = [(p, w) for p, w in plain_copies(folder).values()] + [(svm, D)]
    report = {"rows": args.rows, "svm_MB": round(svm.stat().st_size / 1e6, 1),
              "vw_MB": round(vw_file.stat().st_size / 1e6, 1), "cores": os.cpu_count(),
              "load_average": os.getloadavg()}
    if "reader" in only:
        report["reader"] = measure_readers(files, vw_file, args.repeat, env)
    if "run" in only:
        report.update(measure_run_and_vw(svm, vw_file, args.rows, args.repeat, env, folder,
                                         with_vw="vw" in only))
    if "floor" in only:
        log("floor: python, numpy, numba, one cached numba call ...")
        report["floor"] = measure_floor(args.repeat, env, folder)
    if "text" in report.get("vw", {}) and "olc_run" in report:
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
    report["load_average_at_end"] = os.getloadavg()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
