"""Routes that serve the UI's files, with headers that keep the page self-contained.

Only the files shipped in `static/` are served, by exact name; the Content-Security-Policy
allows scripts, styles and requests from this origin alone and no inline script or style,
so injected markup cannot run and the page cannot reach other hosts.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}
FILES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
}


STATIC = Path(__file__).parent / "static"


def _asset(name: str) -> bytes:
    return (STATIC / name).read_bytes()


def _file_response(name: str) -> Response:
    return Response(_asset(name), media_type=FILES[name], headers=SECURITY_HEADERS)


async def page(request: Request) -> Response:
    """The one page; the script routes within it by the URL fragment."""
    return _file_response("index.html")


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in FILES or name == "index.html":
        return Response("not found", status_code=404, media_type="text/plain", headers=SECURITY_HEADERS)
    return _file_response(name)


async def to_page(request: Request) -> Response:
    return RedirectResponse("/ui/", status_code=308, headers=SECURITY_HEADERS)


def ui_routes() -> list[BaseRoute]:
    """The routes to mount before the API's catch-all."""
    return [Route("/ui", to_page), Route("/ui/", page), Route("/ui/static/{name}", static)]
