"""``create_app``: the ASGI application of ``olc serve`` — the routes, the dashboard's (when
``olc.serve.dashboard`` is present), the bearer-token check, the latency metrics, and one JSON
line for every refused request."""
import contextlib
import hmac
import importlib
import importlib.util
import logging
import re
import time

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.requests import Request
from starlette.routing import Route, get_route_path

from .compaction import compact
from .parsing import RequestError
from .predicting import Predictions
from .routes import api_routes, predict
from .service import Config, Service

__all__ = ["create_app"]

log = logging.getLogger("olc.serve")


def create_app(store_dir, *, token=None, snapshot_every=1000, snapshot_seconds=60.0,
               durable=True, max_body_bytes=16 * 2 ** 20, max_batch_rows=10_000,
               queue_size=64, error_window=1000, pending_ttl=7 * 86400.0,
               idempotency_ttl=86400.0, clock=None, compact_log=False):
    """The service over the store folder ``store_dir`` (created if missing; its models are
    recovered now: the newest valid snapshot of each plus the log after it).

    token: when set, every request but ``GET /healthz`` and the dashboard's page and assets
    (``olc.serve.dashboard.is_public_path``: they hold no data) must carry
    ``Authorization: Bearer <token>``. durable: SQLite's ``synchronous=FULL`` (an acknowledged event survives a power
    cut) or ``NORMAL`` (it survives a crash of the process, not of the machine).
    pending_ttl, idempotency_ttl: seconds a pending prediction waits for its feedback (7 days)
    and a stored answer replays a retried key (1 day); 0 keeps them forever. clock: the wall
    clock the store's times are read from (``time.time``; tests pass a fake one).
    compact_log: compact every model's log now, after recovery (``olc.serve.compaction``; a
    model without a verified snapshot is left as it is, with a warning)."""
    config = Config(snapshot_every=snapshot_every, snapshot_seconds=snapshot_seconds,
                    durable=durable, max_body_bytes=max_body_bytes,
                    max_batch_rows=max_batch_rows, queue_size=queue_size,
                    error_window=error_window, token=token, pending_ttl=pending_ttl,
                    idempotency_ttl=idempotency_ttl)
    service = Service(store_dir, config, clock=clock or time.time)
    if compact_log:
        for _, host in sorted(service.hosts.items()):
            try:
                compact(host)
            except RequestError as refused:
                log.warning("olc serve: %s", refused.message)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for host in service.hosts.values():
            host.ensure_worker()
        try:
            yield
        finally:
            for host in list(service.hosts.values()):
                await host.drain()
            service.close()

    dashboard_routes, is_public = _dashboard()
    routes = api_routes() + dashboard_routes
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        RequestError: _refused, HTTPException: _http_error})
    app.state.service = service
    app.state.predictions = Predictions(service.store)
    app.add_middleware(_PredictPath)
    app.add_middleware(_Guard, config=config, metrics=service.metrics, is_public=is_public)
    return app


def _dashboard():
    """(the dashboard's routes, the predicate of its paths that need no token: the page and
    its assets hold no data), or a JSON 404 at ``/`` when it is not installed."""
    if importlib.util.find_spec("olc.serve.dashboard") is None:
        return [Route("/", _no_dashboard, methods=["GET"])], _nothing_public
    dashboard = importlib.import_module("olc.serve.dashboard")

    return list(dashboard.dashboard_routes()), getattr(dashboard, "is_public_path",
                                                       _nothing_public)


def _nothing_public(path):
    return False


async def _no_dashboard(request):
    return JSONResponse({"error": "the dashboard is not installed (olc.serve.dashboard)",
                         "field": None}, status_code=404)


async def _refused(request, error):
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


async def _http_error(request, error):
    messages = {404: f"no route {request.url.path}",
                405: f"{request.method} is not allowed on {request.url.path}"}
    return JSONResponse({"error": messages.get(error.status_code, str(error.detail)),
                         "field": None}, status_code=error.status_code,
                        headers=getattr(error, "headers", None))


class _Guard:
    """ASGI middleware: the token check (constant time), the durability header, and the
    request metrics (by route template, so names do not make new series)."""

    def __init__(self, app, config, metrics, is_public=_nothing_public):
        self.app = app
        self.is_public = is_public
        self.expected = None if config.token is None else f"Bearer {config.token}".encode()
        self.durable = b"true" if config.durable else b"false"
        self.metrics = metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status = [500]

        async def send_with_header(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                message["headers"] = list(message.get("headers", [])) + [
                    (b"x-olc-durable", self.durable)]
            await send(message)

        path, method = scope["path"], scope["method"]
        open_path = method in ("GET", "HEAD") and (path == "/healthz" or self.is_public(path))
        if self.expected is not None and not open_path:
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                what = "missing" if not given else "wrong"
                response = JSONResponse(
                    {"error": f"the bearer token is {what}", "field": "Authorization"},
                    status_code=401, headers={"WWW-Authenticate": "Bearer"})
                await response(scope, receive, send_with_header)
                self.metrics.request(_template(path), method, 401,
                                     time.perf_counter() - started)
                return
        try:
            await self.app(scope, receive, send_with_header)
        finally:
            self.metrics.request(_template(path), method, status[0],
                                 time.perf_counter() - started)


class _PredictPath:
    """ASGI middleware: ``POST /models/{name}/predict`` straight to its handler, past the
    router's matching of every route and its exception wrappers (the hot route: ~20 % of a
    prediction's server time). The handler, its checks, messages and headers are the
    routed ones; a refusal is answered as the application's handler answers it."""

    PATH = re.compile(r"/models/([^/]+)/predict")

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST":
            match = self.PATH.fullmatch(get_route_path(scope))
            if match is not None:
                scope["path_params"] = dict(scope.get("path_params", {}), name=match.group(1))
                request = Request(scope, receive, send)
                try:
                    response = await predict(request)
                except RequestError as error:
                    response = await _refused(request, error)
                return await response(scope, receive, send)
        return await self.app(scope, receive, send)


def _template(path):
    """The route a path belongs to, as a metrics label: a bounded set (model names are
    templated; unknown paths share one label, so a scan cannot make new series)."""
    if path in ("/", "/healthz", "/metrics", "/models"):
        return path
    parts = path.strip("/").split("/")
    if parts[0] == "models" and len(parts) in (2, 3):
        return "/models/{name}" + (f"/{parts[2]}" if len(parts) == 3 and parts[2] in
                                   ("snapshot", "curve", "predict", "learn", "feedback",
                                    "compact") else
                                   ("" if len(parts) == 2 else "/other"))
    if parts[0] == "static":
        return "/static"
    return "other"
