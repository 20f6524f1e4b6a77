"""Load benchmark of ``olc serve`` on loopback: learn throughput and predict latency.

For durability on (``synchronous=FULL``: a learn is acknowledged after its commit reached the
disk) and off (``--no-durable``), a fresh server runs in its own process (``python -m olc
serve`` under uvicorn) with one model (PA-I, d dense features), and, with each load
generator:

1. learn: CLIENTS clients post batches of BATCH labelled rows in a closed loop for SECONDS;
   throughput = acknowledged rows / elapsed;
2. predict, loaded: CLIENTS clients post single-row predictions for SECONDS; each request's
   latency (send to the whole answer read, as the client sees it) gives p50/p90/p99/max;
3. predict, alone: one client, the same requests one after another (latency without queueing).

The generators (``--generators``):

- ``raw`` (the light one, as wrk is): one process (uvloop when present) with CLIENTS
  keep-alive connections; each request is encoded before the clock starts but for its
  Idempotency-Key header, and each answer is read by its Content-Length. It costs ~40 µs of
  client CPU a request, so the clients take little of the cores the server shares with them.
- ``httpx``: each client its own process with one keep-alive ``httpx.Client`` (threads of one
  process would measure that process's GIL); ~1 ms of client CPU a request, so on a 2-core
  machine it measures httpx as much as the server.

Every request carries an ``Idempotency-Key`` (as ``olc.client.Client`` sends one), so the
server stores each answer as it would in production. Bodies are encoded before the clock
starts (from a pool of different batches, values at 6 significant digits). The server's and
the clients' CPU seconds are read from /proc: the ratio to the wall time says which side is
saturated. A 503 (the model's queue full) is counted and retried after 10 ms.

On a machine shared with other work the server gets only a share of the cores; the CPU
seconds it used per request (``server_cpu_ms_per_request``, ``rows_per_server_cpu_s``) are
the figures that depend least on that share. The load average is recorded with each phase.
``--src DIR`` runs the server from another checkout's sources (compare versions side by side,
alternating runs); ``--processes N`` also runs the loaded predict phase (and the floor)
against N server processes on one port, each over its own copy of the store: what more
processes would give, not a served design (their pending predictions are not shared).

Targets (issue 26): learn ≥ 20,000 rows/s with 100-row batches at d = 100, predict p99 < 10 ms.

Usage: python benchmarks/serve_load.py [--clients 16] [--seconds 10] [--d 100] [--batch 100]
                                       [--durability on,off] [--generators raw,httpx]
                                       [--floor] [--processes N] [--src DIR] [--out FILE.json]
Prints a table on stderr and one JSON object on stdout (and into --out, written atomically).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
from olc._util.atomic import write_text  # noqa: E402
from serve_load_clients import HEADERS, raw_phase, run_phase  # noqa: E402
from serve_load_servers import Server  # noqa: E402

SEED = 20261127
POOL = 32  # different request bodies per client


def uptime():
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return " ".join(f"{x:.2f}" for x in os.getloadavg())


def encoded(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def rounded(X):
    return [[float(f"{v:.6g}") for v in row] for row in X]


def learn_bodies(rng, w, batch, d):
    bodies = []
    for _ in range(POOL):
        X = rng.normal(size=(batch, d))
        y = np.where(X @ w >= 0, 1, -1)
        bodies.append(encoded({"rows": rounded(X), "labels": y.tolist()}))
    return bodies


def predict_bodies(rng, d):
    return [encoded({"rows": rounded(rng.normal(size=(1, d)))}) for _ in range(POOL)]


def percentiles(latencies):
    if latencies.size == 0:
        return {}
    ms = latencies * 1e3
    return {"p50_ms": round(float(np.percentile(ms, 50)), 3),
            "p90_ms": round(float(np.percentile(ms, 90)), 3),
            "p99_ms": round(float(np.percentile(ms, 99)), 3),
            "max_ms": round(float(ms.max()), 3),
            "mean_ms": round(float(ms.mean()), 3)}


PHASES = {"httpx": run_phase, "raw": raw_phase}


def bench(durable, args, log_path):
    rng = np.random.default_rng(SEED)
    w = rng.normal(size=args.d)
    server = Server(durable, log_path, src=args.src)
    try:
        created = httpx.post(server.url + "/models", timeout=30, json={
            "name": "bench", "learner": "pa-i", "params": {"C": 1.0}, "n_features": args.d})
        if created.status_code != 201:
            raise SystemExit(f"POST /models: {created.status_code} {created.text}")
        # warm-up: the learner's compiled loop and the first SQLite pages
        warm = learn_bodies(rng, w, args.batch, args.d)[:4]
        for i, body in enumerate(warm):
            r = httpx.post(server.url + "/models/bench/learn", content=body, timeout=60,
                           headers=dict(HEADERS, **{"Idempotency-Key": f"warm{i}"}))
            if r.status_code != 200:
                raise SystemExit(f"learn: {r.status_code} {r.text[:300]}")
        result = {"durable": durable}
        learn_sets = [learn_bodies(rng, w, args.batch, args.d) for _ in range(args.clients)]
        predict_sets = [predict_bodies(rng, args.d) for _ in range(args.clients)]
        for generator in args.generators:
            phase = PHASES[generator]
            runs = result[generator] = {}
            stats, latencies = phase(server, "/models/bench/learn", learn_sets, args.seconds,
                                     f"learn-{generator}")
            stats["rows_per_s"] = round(stats["requests"] * args.batch / stats["seconds"])
            if stats["server_cpu_ms_per_request"]:
                stats["rows_per_server_cpu_s"] = round(
                    1e3 * args.batch / stats["server_cpu_ms_per_request"])
            stats.update(percentiles(latencies))
            runs["learn"] = stats
            stats, latencies = phase(server, "/models/bench/predict", predict_sets,
                                     args.seconds, f"predict-{generator}")
            stats["requests_per_s"] = round(stats["requests"] / stats["seconds"])
            stats.update(percentiles(latencies))
            runs["predict_loaded"] = stats
            stats, latencies = phase(server, "/models/bench/predict", predict_sets[:1],
                                     min(args.seconds, 5.0), f"alone-{generator}")
            stats["requests_per_s"] = round(stats["requests"] / stats["seconds"])
            stats.update(percentiles(latencies))
            runs["predict_alone"] = stats
        summary = httpx.get(server.url + "/models/bench", timeout=30).json()
        result["model_rows_seen"] = summary.get("rows_seen")
    except BaseException:
        server.close()
        raise
    server.close(keep_store=True)
    try:
        if args.processes > 1:
            replicas(server.store, durable, predict_sets, result, args, log_path)
        return result
    finally:
        import shutil

        shutil.rmtree(server.store, ignore_errors=True)


def replicas(store, durable, predict_sets, result, args, log_path):
    """The loaded predict phase against ``args.processes`` processes on one port, each over
    its own copy of the store (the model as the single server left it): what more processes
    would give, not a served design (their pending predictions are not shared)."""
    server = Server(durable, log_path, src=args.src, processes=args.processes, store=store)
    try:
        # every process warmed (its compiled scorer loaded) before the clock: a new
        # connection per request, spread over the processes by the kernel's hash
        for i in range(16 * args.processes):
            httpx.post(server.url + "/models/bench/predict", content=predict_sets[0][0],
                       headers=HEADERS, timeout=60)
        for generator in args.generators:
            stats, latencies = PHASES[generator](server, "/models/bench/predict", predict_sets,
                                                 args.seconds, f"replicas-{generator}")
            stats["requests_per_s"] = round(stats["requests"] / stats["seconds"])
            stats["processes"] = args.processes
            stats.update(percentiles(latencies))
            result[generator]["predict_processes"] = stats
    finally:
        server.close()


def floor_bench(args, log_path):
    """Single-row predictions against the stack's floor (FLOOR_APP), as in ``bench``."""
    rng = np.random.default_rng(SEED)
    bodies = [predict_bodies(rng, args.d) for _ in range(args.clients)]
    floors = {}
    for processes in sorted({1, args.processes}):
        server = Server(False, log_path, floor=True, processes=processes)
        try:
            for generator in args.generators:
                stats, latencies = PHASES[generator](server, "/models/bench/predict", bodies,
                                                     args.seconds, f"floor-{generator}")
                stats["requests_per_s"] = round(stats["requests"] / stats["seconds"])
                stats["processes"] = processes
                stats.update(percentiles(latencies))
                floors[generator if processes == 1 else f"{generator} x{processes}"] = stats
        finally:
            server.close()
    return floors


def table(results, args):
    lines = [f"olc serve on loopback: {args.clients} clients, d = {args.d}, "
             f"{args.batch}-row learn batches, {args.seconds:g} s per phase",
             f"{'durable':>8} | {'clients':>7} | {'learn rows/s':>12} | {'learn p50/p99 ms':>16} | "
             f"{f'predict p50/p99 ms ({args.clients} clients)':>31} | {'req/s':>6} | "
             f"{'predict p50/p99 ms (1 client)':>29} | {'server CPU/s':>12} | "
             f"{'rows/server CPU-s':>17} | {'CPU ms/predict':>14}"]
    for r in results:
        for generator in args.generators:
            runs = r[generator]
            learn, loaded, alone = runs["learn"], runs["predict_loaded"], runs["predict_alone"]
            lines.append(
                f"{'on' if r['durable'] else 'off':>8} | {generator:>7} | "
                f"{learn['rows_per_s']:>12,} | "
                f"{learn.get('p50_ms', 0):>7.1f} /{learn.get('p99_ms', 0):>7.1f} | "
                f"{loaded.get('p50_ms', 0):>14.2f} /{loaded.get('p99_ms', 0):>14.2f} | "
                f"{loaded['requests_per_s']:>6,} | "
                f"{alone.get('p50_ms', 0):>13.2f} /{alone.get('p99_ms', 0):>13.2f} | "
                f"{learn['server_cpu_per_s']!s:>5} / {loaded['server_cpu_per_s']!s:<5} | "
                f"{learn.get('rows_per_server_cpu_s', 0):>17,} | "
                f"{loaded['server_cpu_ms_per_request']!s:>14}")
            more = runs.get("predict_processes")
            if more:
                lines.append(
                    f"{'':>8} | {generator:>7} | predict with {more['processes']} server "
                    f"processes: p50/p99 {more.get('p50_ms', 0):.2f} / "
                    f"{more.get('p99_ms', 0):.2f} ms, {more['requests_per_s']:,} req/s, "
                    f"server CPU/s {more['server_cpu_per_s']}, CPU ms/predict "
                    f"{more['server_cpu_ms_per_request']}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--d", type=int, default=100)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--durability", default="on,off",
                        help="comma-separated: on, off (default both; empty: none, e.g. "
                             "with --floor)")
    parser.add_argument("--floor", action="store_true",
                        help="also measure the web stack's floor: a bare Starlette route "
                             "under the same uvicorn, with the same clients")
    parser.add_argument("--generators", default="raw,httpx",
                        help="comma-separated load generators: raw (one process, asyncio "
                             "connections, pre-encoded requests), httpx (a process per client)")
    parser.add_argument("--processes", type=int, default=1,
                        help="also run the loaded predict phase (and the floor) against this "
                             "many server processes on one port (SO_REUSEPORT), each over its "
                             "own copy of the store")
    parser.add_argument("--src", default=None,
                        help="the olc sources the server runs (default: this repository's "
                             "src; another checkout's, to compare versions side by side)")
    parser.add_argument("--out", help="also write the JSON here (atomically)")
    parser.add_argument("--server-log", default=None,
                        help="the servers' output (default: a temporary file)")
    args = parser.parse_args(argv)
    args.generators = [g.strip() for g in args.generators.split(",")]
    for generator in args.generators:
        if generator not in PHASES:
            parser.error(f"--generators: unknown generator {generator!r} (raw, httpx)")
    random.seed(SEED)
    log_path = args.server_log or os.path.join(tempfile.gettempdir(), "olc-serve-load.log")
    report = {"benchmark": "serve_load", "clients": args.clients, "d": args.d,
              "generators": args.generators, "src": args.src or str(REPO / "src"),
              "batch": args.batch, "seconds_per_phase": args.seconds,
              "uptime_before": uptime(), "cpu_count": os.cpu_count(), "runs": []}
    for mode in filter(None, args.durability.split(",")):
        durable = {"on": True, "off": False}[mode.strip()]
        print(f"durability {mode}: learn, predict (loaded), predict (alone)...", file=sys.stderr)
        report["runs"].append(bench(durable, args, log_path))
        report[f"uptime_after_{mode.strip()}"] = uptime()
    if args.floor:
        print("floor: a bare Starlette route under the same uvicorn, predict (loaded)...",
              file=sys.stderr)
        report["floor"] = floor_bench(args, log_path)
    report["targets"] = {"learn_rows_per_s": 20000, "predict_p99_ms": 10}
    report["server_log"] = log_path
    print(table(report["runs"], args), file=sys.stderr)
    if args.floor:
        for generator, floor in report["floor"].items():
            print(f"floor (bare Starlette route, {args.clients} clients, {generator}, "
                  f"{floor['processes']} process(es)): p50/p99 "
                  f"{floor.get('p50_ms', 0):.2f} / {floor.get('p99_ms', 0):.2f} ms, "
                  f"{floor['requests_per_s']:,} req/s, server CPU ms/request "
                  f"{floor['server_cpu_ms_per_request']}", file=sys.stderr)
    print(f"load: before {report['uptime_before']}", file=sys.stderr)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        write_text(args.out, text + "\n")


if __name__ == "__main__":
    main()
