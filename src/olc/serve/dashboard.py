"""The dashboard at ``/``: one static page that draws each model's counts and live progressive
error curve from the JSON API (``GET /models``, ``GET /models/{name}/curve``).

The page and its assets hold no data, so they are served without a token; everything the page
shows comes from API calls that carry the bearer token the user pasted into the page (kept in
the tab's ``sessionStorage``, never in a cookie, a URL or the server's logs). The assets are
plain files (no framework, no CDN: the page works on a closed network) shipped as package data
in ``olc/serve/static/``.

A strict Content-Security-Policy allows only the page's own script, style and API calls, and
the script writes every value as text (``textContent``), so a model name cannot inject markup.
"""
from pathlib import Path

from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

__all__ = ["dashboard_routes", "PUBLIC_PATHS", "STATIC_DIR", "is_public_path"]

STATIC_DIR = Path(__file__).resolve().with_name("static")

#: URL prefix of the page's assets (script, style sheet, icon).
STATIC_PREFIX = "/static"

#: Paths served without a token (they hold no data; the API calls the page makes need one).
PUBLIC_PATHS = frozenset({"/"})

#: Same-origin only: the page's own script and style, and calls to the same server.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

_PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # The page is small and changes with the installed version: always revalidate.
    "Cache-Control": "no-cache",
}


def is_public_path(path):
    """True for the dashboard's page and assets: an auth layer lets these through without a
    token (the data the page shows are fetched with the token the user gives the page)."""
    return path in PUBLIC_PATHS or path.startswith(STATIC_PREFIX + "/")


async def _page(request):
    html = (STATIC_DIR / "index.html").read_bytes()
    return Response(html, media_type="text/html; charset=utf-8", headers=_PAGE_HEADERS)


class _StaticAssets(StaticFiles):
    """The page's assets, with the page's security headers."""

    async def get_response(self, path, scope):
        response = await super().get_response(path, scope)
        for key, value in _PAGE_HEADERS.items():
            response.headers.setdefault(key, value)
        return response


def dashboard_routes():
    """The dashboard's routes: ``GET /`` (the page) and ``/static/...`` (its script, style
    sheet and icon), for the serve app to mount next to the API."""
    if not (STATIC_DIR / "index.html").is_file():  # a broken install: say what is missing
        raise RuntimeError(f"olc's dashboard assets are missing: no index.html in {STATIC_DIR}")
    return [
        Route("/", _page, methods=["GET", "HEAD"], name="dashboard"),
        Mount(STATIC_PREFIX, app=_StaticAssets(directory=STATIC_DIR), name="dashboard-static"),
    ]
