"""``olc serve``: the online-learning service (``olc.serve``) under uvicorn."""
import ipaddress
from pathlib import Path

import typer

from .support import fail

LOOPBACK = ("localhost",)


def _is_loopback(host):
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def read_token(path):
    """The token of a --token-file (its first line, stripped); one-line errors."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"--token-file {path}: cannot read it ({exc})")
    token = text.strip().splitlines()[0].strip() if text.strip() else ""
    if len(token) < 16:
        fail(f"--token-file {path}: the token must have at least 16 characters")
    return token


def serve_cmd(
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to bind; any but loopback needs --token-file."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to bind."),
    store: Path = typer.Option(Path("olc-store"), "--store",
                               help="Store folder (SQLite log + snapshots); created if missing."),
    token_file: Path = typer.Option(None, "--token-file",
                                    help="File whose first line is the bearer token every "
                                         "request must carry (all but GET /healthz)."),
    snapshot_every: int = typer.Option(1000, "--snapshot-every", min=1,
                                       help="Snapshot a model every N learned events."),
    snapshot_seconds: float = typer.Option(60.0, "--snapshot-seconds", min=0.001,
                                           help="... or every T seconds with new events."),
    no_durable: bool = typer.Option(False, "--no-durable",
                                    help="SQLite synchronous=NORMAL: an acknowledged event "
                                         "survives a crash of olc, not of the machine."),
    max_body_bytes: int = typer.Option(16 * 2 ** 20, "--max-body-bytes", min=1,
                                       help="Largest request body."),
    max_batch_rows: int = typer.Option(10_000, "--max-batch-rows", min=1,
                                       help="Most rows (or feedback events) in one request."),
    queue_size: int = typer.Option(64, "--queue-size", min=1,
                                   help="Learn/feedback requests waiting per model before 503."),
    pending_ttl: float = typer.Option(7 * 86400.0, "--pending-ttl", min=0.0,
                                      help="Seconds a prediction waits for its feedback "
                                           "(default 7 days; 0: forever)."),
    idempotency_ttl: float = typer.Option(86400.0, "--idempotency-ttl", min=0.0,
                                          help="Seconds a stored answer replays a retried "
                                               "Idempotency-Key (default 1 day; 0: forever)."),
    compact_log: bool = typer.Option(False, "--compact-log",
                                     help="At start, drop the features of logged events "
                                          "inside each model's oldest snapshot verified to "
                                          "load (no replay from zero after that)."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn's log level."),
):
    """Serve online learning over HTTP: create models, predict, learn, feedback (delayed
    labels); every acknowledged event is in the store's log (docs/serving.md)."""
    token = read_token(token_file) if token_file is not None else None
    if token is None and not _is_loopback(host):
        fail(f"--host {host} is not a loopback address: give --token-file so that requests "
             "must carry a bearer token")
    try:
        import uvicorn
        from ..serve import create_app
    except ImportError as exc:
        fail(f"olc serve needs the 'serve' extra (pip install 'olc[serve]'): {exc}")
    from ..serve.store import StoreError

    try:
        app = create_app(store, token=token, snapshot_every=snapshot_every,
                         snapshot_seconds=snapshot_seconds, durable=not no_durable,
                         max_body_bytes=max_body_bytes, max_batch_rows=max_batch_rows,
                         queue_size=queue_size, pending_ttl=pending_ttl,
                         idempotency_ttl=idempotency_ttl, compact_log=compact_log)
    except (StoreError, OSError, ValueError) as exc:
        fail(str(exc))
    durability = "durable" if not no_durable else "NOT durable: synchronous=NORMAL"
    typer.echo(f"olc serve: store {store} ({durability}), http://{host}:{port}", err=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False)
