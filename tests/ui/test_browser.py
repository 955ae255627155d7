"""End-to-end: the Config UI in headless Chromium against a real `syncpatch serve`.

Sign in (password by keyboard, access key), view with masked secrets, edit with an error
shown at its line and column, fix and save, a stale edit refused and recovered, a viewer
reading only, and `disableConfigEndpoint` switching every edit control off while the server
refuses the write as well.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

BASE = "/apis/management.platform.sh/v1/configs"
SECRET = "oidc-client-secret-value"  # the team-a Config's client secret (conftest)
TEAM_RAW_WITH_SECRET = ("platformHost: a.example.com\nauth:\n  oidc:\n    issuerUrl: https://issuer.example.com\n"
                        f"    clientId: platform\n    clientSecret: {SECRET}\n")
pytestmark = pytest.mark.browser


def expect(locator: Any) -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect(locator)


def sign_in_with_password(page: Any, url: str, user: str, password: str) -> None:
    page.goto(url + "/ui/")
    page.get_by_label("Username").focus()
    page.keyboard.type(user)
    page.keyboard.press("Tab")
    page.keyboard.type(password)
    page.keyboard.press("Enter")
    expect(page.locator("#who-name")).to_have_text(user)


def open_config(page: Any, name: str) -> None:
    page.get_by_role("link", name=name, exact=True).click()
    expect(page.locator("#detail-title")).to_have_text(f"Config {name}")


def test_sign_in_and_view_with_masked_secrets(server: Any, page: Any, shoot: Any) -> None:
    sign_in_with_password(page, server.url, "admin", server.admin_password)
    expect(page.locator("#who-role")).to_have_text("admin")
    expect(page.get_by_role("link", name="platform", exact=True)).to_be_visible()
    open_config(page, "team-a")
    status = page.locator("#status")
    for section in ("auth", "audit", "platformHost", "projectNamespacePrefix", "costControl"):
        expect(status.locator("summary", has_text=re.compile(f"^{section}$"))).to_be_visible()
    expect(status.locator(".masked").first).to_have_text("********")
    assert SECRET not in page.content()  # neither in the status nor in the editor
    assert "clientSecret: '********'" in page.locator("#raw").input_value() or \
        "clientSecret: ********" in page.locator("#raw").input_value()
    shoot(page, "view")
    assert page.console_errors == []


def test_wrong_password_is_refused(server: Any, page: Any) -> None:
    page.goto(server.url + "/ui/")
    page.get_by_label("Username").fill("admin")
    page.get_by_label("Password", exact=True).fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#signin-error")).to_contain_text("wrong username or password")
    expect(page.locator("#app")).to_be_hidden()


def test_edit_with_error_then_fix_and_save(server: Any, page: Any, shoot: Any) -> None:
    server.create("edit-me", "platformHost: before.example.com\n")
    before = server.get("edit-me")["metadata"]["resourceVersion"]
    sign_in_with_password(page, server.url, "admin", server.admin_password)
    open_config(page, "edit-me")
    editor = page.get_by_label("YAML text of the platform config")
    editor.fill("platformHost: after.example.com\nauth:\n  password:\n    disabled: maybe\n")
    page.get_by_role("button", name="Check").click()
    problem = page.locator("#raw-errors li").first
    expect(problem).to_contain_text("auth.password.disabled")
    jump = page.get_by_role("button", name="Go to line 4, column 15")
    expect(jump).to_be_visible()
    expect(editor).to_have_attribute("aria-invalid", "true")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-result")).to_contain_text("Not saved: 1 problem")
    stored = server.get("edit-me")
    assert stored["metadata"]["resourceVersion"] == before  # nothing saved while invalid
    assert stored["spec"]["raw"] == "platformHost: before.example.com\n"
    shoot(page, "edit-error")
    jump.click()  # the caret lands on the bad value
    assert page.evaluate("document.activeElement.id") == "raw"
    offset = page.evaluate("document.getElementById('raw').selectionStart")
    text = editor.input_value()
    assert text[offset:offset + 5] == "maybe"
    editor.fill("platformHost: after.example.com\nauth:\n  password:\n    disabled: true\n")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-result")).to_contain_text("Saved: resourceVersion")
    stored = server.get("edit-me")
    assert stored["spec"]["raw"].startswith("platformHost: after.example.com")
    assert stored["status"]["auth"]["password"] == {"disabled": True}
    assert stored["metadata"]["managedFields"][-1]["manager"] == "syncpatch-ui"
    expect(page.locator("#status")).to_contain_text("after.example.com")
    assert page.console_errors == []


def test_stale_edit_is_refused_and_not_lost(server: Any, page: Any, shoot: Any) -> None:
    server.create("shared", "platformHost: one.example.com\n")
    sign_in_with_password(page, server.url, "admin", server.admin_password)
    open_config(page, "shared")
    with server.admin() as c:  # someone else writes after the page loaded
        r = c.patch(f"{BASE}/shared", json={"spec": {"raw": "platformHost: other.example.com\n"}},
                    headers={"Content-Type": "application/merge-patch+json"})
        assert r.status_code == 200
    mine = "platformHost: mine.example.com\n"
    page.get_by_label("YAML text of the platform config").fill(mine)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-result")).to_contain_text("changed by someone else")
    assert server.get("shared")["spec"]["raw"] == "platformHost: other.example.com\n"
    assert page.get_by_label("YAML text of the platform config").input_value() == mine
    shoot(page, "stale")
    page.get_by_role("button", name="Show the latest version").click()
    expect(page.locator("#latest-raw")).to_have_text("platformHost: other.example.com\n")
    assert page.get_by_label("YAML text of the platform config").input_value() == mine
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-result")).to_contain_text("Saved")
    assert server.get("shared")["spec"]["raw"] == mine


def test_viewer_reads_only(server: Any, page: Any, shoot: Any) -> None:
    key = server.viewer_key()
    page.goto(server.url + "/ui/")
    page.get_by_label("Access key").fill(key)
    page.get_by_role("button", name="Use key").click()
    expect(page.locator("#who-role")).to_have_text("viewer")
    open_config(page, "team-a")
    expect(page.locator("#locked")).to_contain_text("viewers may only get, list and watch")
    editor = page.get_by_label("YAML text of the platform config")
    expect(editor).to_have_attribute("readonly", "")
    for name in ("Check", "Save"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    expect(page.locator("#reveal")).to_be_hidden()
    assert SECRET not in page.content()
    shoot(page, "viewer")
    with server.client(key) as c:  # and the server refuses the viewer's write, whatever the page shows
        r = c.patch(f"{BASE}/team-a", json={"spec": {"raw": ""}},
                    headers={"Content-Type": "application/merge-patch+json"})
    assert r.status_code == 403


def test_disable_config_endpoint_turns_editing_off(make_server: Any, page: Any, shoot: Any) -> None:
    srv = make_server()
    sign_in_with_password(page, srv.url, "admin", srv.admin_password)
    open_config(page, "platform")
    editor = page.get_by_label("YAML text of the platform config")
    editor.fill("platformHost: platform.example.com\ndisableConfigEndpoint: true\n")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-result")).to_contain_text("Saved")
    # The written Config governs the running server at once: the page locks ...
    expect(page.locator("#locked")).to_contain_text("disableConfigEndpoint is true")
    expect(editor).to_have_attribute("readonly", "")
    for name in ("Check", "Save"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    shoot(page, "disabled")
    # ... and the server refuses the write even when the page's controls are forced on.
    page.evaluate("""() => {
        document.getElementById('raw').readOnly = false;
        document.getElementById('save').disabled = false;
    }""")
    editor.fill("platformHost: platform.example.com\n")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-result")).to_contain_text("Not saved")
    expect(page.locator("#edit-result")).to_contain_text("disableConfigEndpoint")
    assert "disableConfigEndpoint: true" in srv.get("platform")["spec"]["raw"]
    with srv.admin() as c:
        r = c.post(BASE, json={"apiVersion": "management.platform.sh/v1", "kind": "Config",
                               "metadata": {"name": "new"}, "spec": {"raw": ""}})
    assert r.status_code == 403 and "disableConfigEndpoint" in r.json()["message"]


def test_sign_out_revokes_the_login_key(server: Any, page: Any) -> None:
    sign_in_with_password(page, server.url, "admin", server.admin_password)
    token = page.evaluate("JSON.parse(sessionStorage.getItem('syncpatch.token')).token")
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("#signin")).to_be_visible()
    assert page.evaluate("sessionStorage.getItem('syncpatch.token')") is None
    with server.client(token) as c:
        assert c.get(BASE).status_code == 401


def test_masked_text_is_refused_until_an_admin_loads_the_real_values(server: Any, page: Any) -> None:
    server.create("secretive", TEAM_RAW_WITH_SECRET)
    sign_in_with_password(page, server.url, "admin", server.admin_password)
    open_config(page, "secretive")
    editor = page.get_by_label("YAML text of the platform config")
    assert SECRET not in editor.input_value()
    editor.fill(editor.input_value().replace("a.example.com", "b.example.com"))
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#raw-errors")).to_contain_text("mask placeholder")  # the mask is never written back
    assert server.get("secretive", reveal=True)["spec"]["raw"] == TEAM_RAW_WITH_SECRET
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Load real secret values to edit").click()
    expect(editor).to_have_value(TEAM_RAW_WITH_SECRET)
    editor.fill(TEAM_RAW_WITH_SECRET.replace("a.example.com", "b.example.com"))
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-result")).to_contain_text("Saved")
    stored = server.get("secretive", reveal=True)["spec"]["raw"]
    assert "b.example.com" in stored and SECRET in stored
