"""The HTTP routes of ``olc serve`` (the contract: ``docs/serving.md``). Each handler reads and
checks its request completely (``parsing``) before it touches a model."""
import asyncio
import json

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .metrics import CONTENT_TYPE
from .parsing import RequestError, check_finite, check_label, parse_labels, parse_rows, \
    read_body, read_json, require
from .parsing import Vocabulary
from .compaction import compact
from .host import Job
from .targets import check_target, parse_targets

__all__ = ["api_routes"]

OCTET = "application/octet-stream"


def _service(request):
    return request.app.state.service


def _admin(service):
    """The lock of model operations (create, upload, delete): one at a time."""
    lock = getattr(service, "admin", None)
    if lock is None:
        lock = service.admin = asyncio.Lock()
    return lock


def _json(body, status=200):
    return JSONResponse(body, status_code=status)


def _idempotency_key(request, name, route):
    key = request.headers.get("idempotency-key")
    if key is None:
        return None
    if not key or len(key) > 200:
        raise RequestError(400, "Idempotency-Key must have 1 to 200 characters",
                           "Idempotency-Key")
    return f"{name}\x00{route}\x00{key}"


async def healthz(request):
    service = _service(request)
    return _json({"status": "ok", "models": len(service.hosts),
                  "durable": service.config.durable})


async def metrics(request):
    service = _service(request)
    retained = await asyncio.to_thread(service.store.retained)
    return Response(service.metrics.render(service.hosts, retained), media_type=CONTENT_TYPE)


async def list_models(request):
    service = _service(request)
    return _json({"models": [host.summary() for _, host in sorted(service.hosts.items())]})


async def create_model(request):
    service = _service(request)
    body = await read_json(request, service.config.max_body_bytes)
    name = require(body, "name", (str,), "the model's name (a string)")
    learner = require(body, "learner", (str,), "a catalogue name (see `olc algorithms`)")
    params = body.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise RequestError(422, "'params' must be an object of parameter: value", "params")
    check_finite(params, "params")
    n_features = body.get("n_features")
    if n_features is not None and (isinstance(n_features, bool) or
                                   not isinstance(n_features, int) or n_features < 1):
        raise RequestError(422, f"'n_features' must be a positive integer or null, got "
                           f"{json.dumps(n_features)[:40]}", "n_features")
    unknown = sorted(set(body) - {"name", "learner", "params", "n_features", "classes"})
    if unknown:
        raise RequestError(422, f"unknown field(s) {', '.join(unknown)}", unknown[0])
    async with _admin(service):
        service.check_new_name(name)
        host = await asyncio.to_thread(service.create, name, learner, params, n_features,
                                       body.get("classes"))
        service.hosts[name] = host
    return _json(host.summary(), 201)


async def upload_model(request):
    service = _service(request)
    name = request.path_params["name"]
    service.check_new_name(name)
    data = await read_body(request, service.config.max_body_bytes)
    async with _admin(service):
        service.check_new_name(name)
        host = await asyncio.to_thread(service.upload, name, data)
        service.hosts[name] = host
    return _json(host.summary(), 201)


async def get_model(request):
    return _json(_service(request).host(request.path_params["name"]).summary())


async def download_model(request):
    host = _service(request).host(request.path_params["name"])
    data = await asyncio.to_thread(host.snapshot_bytes)
    return Response(data, media_type=OCTET, headers={
        "Content-Disposition": f'attachment; filename="{host.entry.name}.olc"'})


async def delete_model(request):
    service = _service(request)
    name = request.path_params["name"]
    async with _admin(service):
        host = service.host(name)
        del service.hosts[name]  # no new request reaches it
        await asyncio.to_thread(service.delete, host)
        host.stop_worker()
    return Response(status_code=204)


async def compact_log(request):
    host = _service(request).host(request.path_params["name"])
    return _json(await asyncio.to_thread(compact, host))


async def curve(request):
    host = _service(request).host(request.path_params["name"])
    raw = request.query_params.get("points", "200")
    if not raw.isdigit() or not 1 <= int(raw) <= 100_000:
        raise RequestError(422, f"points must be an integer in [1, 100000], got {raw!r}",
                           "points")
    return _json(host.curve(int(raw)))


async def _prepared(request, route, required=()):
    """(service, host, body, idempotency key, the stored response of a retried key or None);
    the ``required`` body fields are checked only when the request is not a replay."""
    service = _service(request)
    host = service.host(request.path_params["name"])
    key = _idempotency_key(request, host.entry.name, route)
    body = await read_json(request, service.config.max_body_bytes)
    replay = _stored(service, key)
    if replay is None:
        for name in required:
            if name not in body:
                raise RequestError(422, f"'{name}' is missing", name)
    return service, host, body, key, replay


def _stored(service, key):
    if key is None:
        return None
    found = service.store.stored_response(key)
    if found is None:
        return None
    status, body = found
    return JSONResponse(body, status_code=status, headers={"Idempotent-Replay": "true"})


def _rows(service, host, body):
    vocabulary = Vocabulary(host.vocabulary, host.width)
    X = parse_rows(body.get("rows"), host.width, vocabulary, service.config.max_batch_rows)
    return X, vocabulary


def _keep_vocabulary(host, vocabulary):
    # Logged before any event that uses the new columns: synchronously, in the event loop,
    # so no other request can use a column whose name is not yet stored.
    if vocabulary.new:
        host.store.add_vocabulary(host.entry.name, vocabulary.new)
        host.vocabulary.update(vocabulary.new)


async def predict(request):
    service, host, body, key, replay = await _prepared(request, "predict", ("rows",))
    if replay is not None:
        return replay
    X, vocabulary = _rows(service, host, body)
    _keep_vocabulary(host, vocabulary)
    body, replayed = await request.app.state.predictions.predict(host, X, key)
    return JSONResponse(body, headers={"Idempotent-Replay": "true"} if replayed else None)


async def learn(request):
    service, host, body, key, replay = await _prepared(request, "learn", ("rows", "labels"))
    if replay is not None:
        return replay
    X, vocabulary = _rows(service, host, body)
    labels = parse_targets(body["labels"], X.shape[0]) if host.regression else \
        parse_labels(body["labels"], X.shape[0], host.classes())
    _keep_vocabulary(host, vocabulary)
    result = await host.submit(Job("learn", X=X, labels=labels, key=key))
    return _answer(result)


async def feedback(request):
    service, host, body, key, replay = await _prepared(request, "feedback")
    if replay is not None:
        return replay
    events = body.get("events")
    if not isinstance(events, list) or not events:
        raise RequestError(422, "'events' must be a non-empty list of {event_id, label}",
                           "events")
    if len(events) > service.config.max_batch_rows:
        raise RequestError(413, f"'events' has {len(events)} items; the limit is "
                           f"{service.config.max_batch_rows}", "events")
    pids, labels, seen = [], [], set()
    classes = host.classes()
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise RequestError(422, f"events[{i}] must be an object {{event_id, label}}",
                               f"events[{i}]")
        event_id = event.get("event_id")
        if not isinstance(event_id, str) or not event_id[:1] == "p" or \
                not event_id[1:].isdigit():
            raise RequestError(404, f"events[{i}].event_id {json.dumps(event_id)[:40]} is "
                               f"not a prediction's event id of model {host.entry.name!r}",
                               f"events[{i}].event_id")
        if event_id in seen:
            raise RequestError(422, f"events[{i}].event_id {event_id!r} appears twice",
                               f"events[{i}].event_id")
        seen.add(event_id)
        if "label" not in event:
            raise RequestError(422, f"events[{i}].label is missing", f"events[{i}].label")
        if host.regression:
            labels.append(check_target(event["label"], f"events[{i}].label"))
        else:
            check_label(event["label"], f"events[{i}].label", classes)
            labels.append(event["label"])
        pids.append(int(event_id[1:]))
    result = await host.submit(Job("feedback", labels=labels, pids=pids, key=key))
    return _answer(result)


def _answer(result):
    if isinstance(result, tuple):  # a stored response (an idempotent retry)
        status, body = result
        return JSONResponse(body, status_code=status, headers={"Idempotent-Replay": "true"})
    return _json(result)


def api_routes():
    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/models", list_models, methods=["GET"]),
        Route("/models", create_model, methods=["POST"]),
        Route("/models/{name}", get_model, methods=["GET"]),
        Route("/models/{name}", delete_model, methods=["DELETE"]),
        Route("/models/{name}/snapshot", download_model, methods=["GET"]),
        Route("/models/{name}/snapshot", upload_model, methods=["PUT"]),
        Route("/models/{name}/curve", curve, methods=["GET"]),
        Route("/models/{name}/compact", compact_log, methods=["POST"]),
        Route("/models/{name}/predict", predict, methods=["POST"]),
        Route("/models/{name}/learn", learn, methods=["POST"]),
        Route("/models/{name}/feedback", feedback, methods=["POST"]),
    ]
