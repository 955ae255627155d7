"""A real `syncpatch serve` on loopback and Debian's Chromium driven by Playwright.

The browser is the system Chromium (`/usr/bin/chromium`, installed by `.ci/run`); nothing is
downloaded. Without it (or without Playwright) the browser tests skip on a workstation but
fail under `CI=true`, so a CI run can never pass by skipping them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..support.serving import ServerProc, free_port

CHROMIUM = Path(os.environ.get("SYNCPATCH_CHROMIUM", "/usr/bin/chromium"))
SHOTS = Path(__file__).resolve().parent / "screenshots"
BASE = "/apis/management.platform.sh/v1/configs"
SECRET = "oidc-client-secret-value"
TEAM_RAW = ("platformHost: team.example.com\n"
            "auth:\n"
            "  oidc:\n"
            "    issuerUrl: https://issuer.example.com\n"
            "    clientId: platform\n"
            f"    clientSecret: {SECRET}\n"
            "audit:\n"
            "  enabled: true\n"
            "  path: /var/log/audit\n")


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (required under CI=true; .ci/run installs it)")
    pytest.skip(reason)


class Server(ServerProc):
    """`syncpatch serve` with a platform config file; `admin_password`, `admin_token` and API
    helpers."""

    base = BASE
    secret = SECRET

    def __init__(self, root: Path, config: str) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.config = root / "platform.yaml"
        self.config.write_text(config)
        (root / "home").mkdir(exist_ok=True)
        super().__init__(root / "data", free_port(), ["--config", str(self.config)], root / "home")

    def stop(self) -> None:
        self.kill()

    @property
    def admin_password(self) -> str:
        return (self.data / "admin-password").read_text().strip()

    @property
    def admin_token(self) -> str:
        return self.token()

    def admin(self) -> httpx.Client:
        return self.client(self.admin_token)

    def create(self, name: str, raw: str) -> dict[str, Any]:
        body = {"apiVersion": "management.platform.sh/v1", "kind": "Config",
                "metadata": {"name": name}, "spec": {"raw": raw}}
        with self.admin() as c:
            response = c.post(BASE, json=body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    def get(self, name: str, reveal: bool = False) -> dict[str, Any]:
        with self.admin() as c:
            response = c.get(f"{BASE}/{name}", params={"reveal": "true"} if reveal else None)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def viewer_key(self, name: str = "vera") -> str:
        with self.admin() as c:
            made = c.post("/auth/users", json={"username": name, "role": "viewer", "password": "viewer-pass-1"})
            assert made.status_code in (201, 409), made.text
            key = c.post("/auth/keys", json={"user": name})
        assert key.status_code == 201, key.text
        return str(key.json()["token"])


def start_server(root: Path, config: str = "platformHost: platform.example.com\n") -> Server:
    return Server(root, config).start()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    """Factory for a server of the test's own (stopped afterwards)."""
    made: list[Server] = []

    def run(config: str = "platformHost: platform.example.com\n") -> Server:
        made.append(start_server(tmp_path / f"s{len(made)}", config))
        return made[-1]
    try:
        yield run
    finally:
        for srv in made:
            srv.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = start_server(tmp_path_factory.mktemp("ui-server"))
    srv.create("team-a", TEAM_RAW)
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the Python package playwright is not installed")
    if not CHROMIUM.exists():
        _missing(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser context; console errors (CSP violations among them) fail the test."""
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text)
          if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.console_errors = errors
    try:
        yield pg
    finally:
        SHOTS.mkdir(exist_ok=True)
        try:
            pg.screenshot(path=str(SHOTS / f"{request.node.name}-end.png"), full_page=True)
        finally:
            context.close()


@pytest.fixture
def shoot() -> Any:
    """shoot(page, name): a full-page screenshot in tests/ui/screenshots (git-ignored)."""
    def run(page: Any, name: str) -> Path:
        SHOTS.mkdir(exist_ok=True)
        path = SHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path
    return run
