"""The load generators of ``serve_load.py``: ``run_phase`` (httpx, a process per client) and
``raw_phase`` (one process, asyncio keep-alive connections, pre-encoded requests). Each runs
CLIENTS closed loops for SECONDS against a ``serve_load_servers.Server`` and returns (stats,
latencies of the answered requests)."""
import multiprocessing
import os
import time

import httpx
import numpy as np

HEADERS = {"Content-Type": "application/json"}


def closed_loop(url, path, bodies, seconds, start, tag, results):
    """One client (its own process): post bodies in turn from ``start`` for ``seconds``; put
    (latencies of the answered requests, 503s, errors, CPU seconds, wall start, wall end)."""
    latencies, busy, errors = [], 0, []
    with httpx.Client(base_url=url, timeout=httpx.Timeout(30.0, connect=5.0)) as client:
        client.get("/healthz")  # connected before the clock starts
        start.wait()
        cpu0, wall0 = time.process_time(), time.time()
        end = time.perf_counter() + seconds
        i = 0
        while time.perf_counter() < end:
            body = bodies[i % len(bodies)]
            headers = dict(HEADERS, **{"Idempotency-Key": f"{tag}-{i}"})
            i += 1
            t0 = time.perf_counter()
            try:
                response = client.post(path, content=body, headers=headers)
                response.json()
            except httpx.HTTPError as error:
                errors.append(repr(error))
                continue
            latency = time.perf_counter() - t0
            if response.status_code == 503:
                busy += 1
                time.sleep(0.01)
                continue
            if response.status_code != 200:
                errors.append(f"{response.status_code} {response.text[:200]}")
                continue
            latencies.append(latency)
        results.put((latencies, busy, errors, time.process_time() - cpu0, wall0, time.time()))


def run_phase(server, path, bodies_per_client, seconds, tag):
    """Every client in its own process (forked, so the bodies are shared): 16 clients in
    threads of one process would measure that process's GIL, not the server."""
    context = multiprocessing.get_context("fork")
    start, results = context.Event(), context.Queue()
    clients = [context.Process(target=closed_loop, daemon=True,
                               args=(server.url, path, bodies, seconds, start, f"{tag}{c}",
                                     results))
               for c, bodies in enumerate(bodies_per_client)]
    for client in clients:
        client.start()
    time.sleep(1.0)  # every client started and connected
    cpu0 = server.cpu_seconds()
    start.set()
    out = [results.get(timeout=seconds + 120) for _ in clients]
    cpu1 = server.cpu_seconds()
    for client in clients:
        client.join(timeout=30)
    elapsed = max(o[5] for o in out) - min(o[4] for o in out)
    latencies = np.array([x for o in out for x in o[0]])
    errors = [e for o in out for e in o[2]]
    server_cpu = None if cpu0 is None else cpu1 - cpu0
    return {
        "requests": int(latencies.size), "seconds": round(elapsed, 3),
        "busy_503": sum(o[1] for o in out), "errors": len(errors), "first_errors": errors[:3],
        "server_cpu_per_s": None if server_cpu is None else round(server_cpu / elapsed, 2),
        # what one request costs the server, whatever share of the machine it was given
        "server_cpu_ms_per_request": None if server_cpu is None or not latencies.size
        else round(1e3 * server_cpu / latencies.size, 3),
        "clients_cpu_per_s": round(sum(o[3] for o in out) / elapsed, 2),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }, latencies


# -- the light generator: one process, keep-alive connections over asyncio, requests encoded
# before the clock starts (only the Idempotency-Key header is joined in per request), answers
# parsed by their Content-Length, as wrk does: what it costs is small next to the server's.
def raw_request(host_port, path, body, key):
    return (f"POST {path} HTTP/1.1\r\nHost: {host_port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nIdempotency-Key: {key}\r\n\r\n").encode() + body


async def raw_client(port, path, bodies, tag, end_at, go, latencies, failures):
    import asyncio

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    host_port = f"127.0.0.1:{port}"
    await go.wait()
    i = 0
    try:
        while time.perf_counter() < end_at:
            request = raw_request(host_port, path, bodies[i % len(bodies)], f"{tag}-{i}")
            i += 1
            t0 = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            await reader.readexactly(length)
            latency = time.perf_counter() - t0
            status = int(head[9:12])
            if status == 200:
                latencies.append(latency)
            elif status == 503:
                failures["busy"] += 1
                await asyncio.sleep(0.01)
            else:
                failures["errors"].append(f"{status} {head[:200]!r}")
    finally:
        writer.close()


def raw_phase(server, path, bodies_per_client, seconds, tag):
    """``run_phase`` with the light generator: every client a connection of this one
    process (uvloop when present)."""
    import asyncio

    try:
        import uvloop
        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    latencies, failures = [], {"busy": 0, "errors": []}
    clock = {}

    async def phase():
        go = asyncio.Event()
        end_at = time.perf_counter() + seconds + 1.0
        tasks = [asyncio.ensure_future(raw_client(server.port, path, bodies, f"{tag}{c}",
                                                  end_at, go, latencies, failures))
                 for c, bodies in enumerate(bodies_per_client)]
        await asyncio.sleep(1.0)  # every client connected
        clock["cpu0"], clock["server0"] = time.process_time(), server.cpu_seconds()
        clock["wall0"] = time.time()
        go.set()
        await asyncio.gather(*tasks)
        clock["wall1"], clock["cpu1"] = time.time(), time.process_time()
        clock["server1"] = server.cpu_seconds()

    runner(phase())
    elapsed = clock["wall1"] - clock["wall0"]
    latencies = np.array(latencies)
    server_cpu = None if clock["server0"] is None else clock["server1"] - clock["server0"]
    return {
        "generator": "raw", "requests": int(latencies.size), "seconds": round(elapsed, 3),
        "busy_503": failures["busy"], "errors": len(failures["errors"]),
        "first_errors": failures["errors"][:3],
        "server_cpu_per_s": None if server_cpu is None else round(server_cpu / elapsed, 2),
        "server_cpu_ms_per_request": None if server_cpu is None or not latencies.size
        else round(1e3 * server_cpu / latencies.size, 3),
        "clients_cpu_per_s": round((clock["cpu1"] - clock["cpu0"]) / elapsed, 2),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }, latencies
