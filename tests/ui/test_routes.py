"""The UI's routes and headers, and the server's own Config governing the running server,
at the HTTP level (no browser)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from syncpatch.server.app import State, create_app
from syncpatch.server.audit import AuditLog
from syncpatch.server.auth import Authenticator, AuthSettings
from syncpatch.server.bootstrap import ServeOptions, prepare
from syncpatch.server.model_adapter import effective_status
from syncpatch.server.store import Store, sqlite_url

BASE = "/apis/management.platform.sh/v1/configs"
STATIC = Path(__file__).resolve().parents[2] / "server" / "ui" / "static"
MERGE = {"Content-Type": "application/merge-patch+json"}


class Api:
    def __init__(self, client: TestClient, state: State, admin: str, viewer: str) -> None:
        self.client, self.state, self.admin, self.viewer = client, state, admin, viewer

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        headers = dict(kw.pop("headers", {}) or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.client.request(method, path, headers=headers, **kw)


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    store = Store(sqlite_url(tmp_path))
    settings = AuthSettings.from_status(effective_status(""))
    auth = Authenticator(store, settings)
    boot = auth.bootstrap_admin()
    assert boot is not None
    auth.create_user("vera", "viewer", "viewer-password")
    viewer, _, _ = auth.issue("vera", "api")
    state = State(store=store, auth=auth, audit=AuditLog({}), settings=settings)
    client = TestClient(create_app(state), base_url="https://testserver")
    with client:
        yield Api(client, state, boot[0], viewer)
    store.close()


def config(name: str, raw: str) -> dict[str, Any]:
    return {"apiVersion": "management.platform.sh/v1", "kind": "Config",
            "metadata": {"name": name}, "spec": {"raw": raw}}


# ---- the page and its files ----------------------------------------------------------------
def test_page_is_served_with_a_strict_policy(api: Api) -> None:
    page = api.call("GET", "/ui/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["cache-control"] == "no-store"


def test_redirect_and_files(api: Api) -> None:
    bare = api.call("GET", "/ui", follow_redirects=False)
    assert bare.status_code == 308 and bare.headers["location"] == "/ui/"
    script = api.call("GET", "/ui/static/app.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert api.call("GET", "/ui/static/app.css").headers["content-type"].startswith("text/css")
    for name in ("../app.py", "index.html", "missing.js", "%2e%2e%2fapp.py"):
        assert api.call("GET", f"/ui/static/{name}").status_code == 404


def test_page_has_no_inline_script_style_or_external_asset() -> None:
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # every script has a src
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers
    assert not re.search(r"\sstyle=", html)
    for text in (html, (STATIC / "app.js").read_text(), (STATIC / "app.css").read_text()):
        assert not re.search(r"https?://", text)  # nothing loaded from elsewhere
    assert "innerHTML" not in (STATIC / "app.js").read_text()  # text only via textContent
    total = sum(p.stat().st_size for p in STATIC.iterdir())
    assert total < 40_000, total


def test_every_form_control_has_a_label() -> None:
    html = (STATIC / "index.html").read_text()
    labelled = set(re.findall(r'<label for="([^"]+)"', html))
    controls = set(re.findall(r'<(?:input|textarea|select)[^>]*\bid="([^"]+)"', html))
    assert controls and controls <= labelled


# ---- the server's own Config governs at once -----------------------------------------------
def test_writing_disable_config_endpoint_takes_effect_at_once(api: Api) -> None:
    assert api.call("POST", BASE, api.admin, json=config("platform", "")).status_code == 201
    assert api.call("POST", BASE, api.admin, json=config("other", "")).status_code == 201
    r = api.call("PATCH", f"{BASE}/platform", api.admin, headers=MERGE,
                 json={"spec": {"raw": "disableConfigEndpoint: true\n"}})
    assert r.status_code == 200
    refused = api.call("PATCH", f"{BASE}/other", api.admin, headers=MERGE,
                       json={"spec": {"raw": "platformHost: x.example.com\n"}})
    assert refused.status_code == 403 and "disableConfigEndpoint" in refused.json()["message"]
    review = api.call("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", api.admin, json={
        "spec": {"resourceAttributes": {"verb": "patch", "group": "management.platform.sh",
                                        "resource": "configs"}}})
    assert review.json()["status"]["allowed"] is False
    assert api.call("GET", f"{BASE}/other", api.viewer).status_code == 200  # reads still work


def test_other_settings_follow_too_and_dry_runs_and_other_names_do_not(api: Api) -> None:
    assert api.call("POST", BASE, api.admin, json=config("platform", "")).status_code == 201
    dry = api.call("PATCH", f"{BASE}/platform?dryRun=All", api.admin, headers=MERGE,
                   json={"spec": {"raw": "auth: {password: {disabled: true}}\n"}})
    assert dry.status_code == 200
    other = api.call("POST", BASE, api.admin, json=config("elsewhere", "auth: {password: {disabled: true}}\n"))
    assert other.status_code == 201
    login = {"username": "vera", "password": "viewer-password"}
    assert api.call("POST", "/auth/login", json=login).status_code == 200
    r = api.call("PATCH", f"{BASE}/platform", api.admin, headers=MERGE,
                 json={"spec": {"raw": "auth: {password: {disabled: true}}\n"}})
    assert r.status_code == 200
    assert api.call("POST", "/auth/login", json=login).status_code == 403


def test_base64_raw_is_stored_as_text(api: Api) -> None:
    import base64

    raw = "platformHost: exported.example.com\n"
    body = config("exported", base64.b64encode(raw.encode()).decode())
    created = api.call("POST", BASE, api.admin, json=body)
    assert created.status_code == 201, created.text
    assert created.json()["spec"]["raw"] == raw
    assert created.json()["status"]["platformHost"] == "exported.example.com"


def test_without_a_file_the_stored_server_config_governs_on_start(tmp_path: Path) -> None:
    opts = ServeOptions(listen="127.0.0.1:18443", data_dir=tmp_path / "data")
    first = prepare(opts)
    assert first.settings.disable_config_endpoint is False
    current = first.store.get("platform")
    assert current is not None
    from syncpatch.server.service import ConfigService, WriteCtx
    from syncpatch.server.objects import Clock

    ConfigService(first.store, Clock()).patch(
        "platform", "application/merge-patch+json",
        {"spec": {"raw": "disableConfigEndpoint: true\n"}}, WriteCtx(manager="test"))
    first.store.close()
    again = prepare(opts)
    assert again.settings.disable_config_endpoint is True  # the stored Config, not defaults
    again.store.close()
    cfg = tmp_path / "platform.yaml"
    cfg.write_text("platformHost: file.example.com\n")
    with_file = prepare(ServeOptions(listen="127.0.0.1:18443", data_dir=tmp_path / "data", config_path=cfg))
    assert with_file.settings.disable_config_endpoint is False  # the file is the source of truth
    stored = with_file.store.get("platform")
    assert stored is not None and stored["status"]["platformHost"] == "file.example.com"
    with_file.store.close()
