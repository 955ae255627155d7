"""Every shell block of README.md and docs/cli.md runs as written, against the project's venv.

A fenced block names its language; shell blocks are ```sh and may carry one marker:

- ``sh`` runs with ``bash -e`` and must exit 0;
- ``sh exit=N`` must exit N (a block that shows an error on purpose);
- ``sh server`` starts a server on its first line (ending in ``&``), then runs the rest while
  it serves; the test gives it a free port and stops it afterwards;
- ``sh no-run: REASON`` is not run (it would recurse into this suite, or needs a cluster);
  its ``make`` targets are dry-run and the rest is syntax-checked.

The blocks of one file run in order in one scratch copy of the examples (so later blocks see
what earlier ones wrote), with ``.venv`` linked in, as a reader in a fresh clone would run them.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)  # the venv running the tests (make test: .venv, .venv311 or .venv313)
DOCS = ["README.md", "docs/cli.md"]
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
SHELL = {"sh", "bash", "shell", "console"}


def blocks(doc: str) -> list[tuple[int, str, str]]:
    """(line, info string, body) of every fenced block."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2)) for m in FENCE.finditer(text)]


def shell_blocks(doc: str) -> list[tuple[int, str, str]]:
    return [(line, info, body) for line, info, body in blocks(doc) if info.split(" ")[0] in SHELL]


@pytest.mark.parametrize("doc", DOCS)
def test_every_block_names_its_language(doc):
    unnamed = [line for line, info, _ in blocks(doc) if not info]
    assert not unnamed, f"{doc}: blocks at lines {unnamed} need a language (sh, text, python, yaml, ...)"


@pytest.mark.parametrize("doc", DOCS)
def test_no_run_blocks_give_a_reason(doc):
    for line, info, _ in shell_blocks(doc):
        if "no-run" in info:
            assert re.search(r"no-run:\s*\S", info), f"{doc}:{line}: `no-run` needs a reason"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env["PATH"] = f"{VENV / 'bin'}:{env.get('PATH', '')}"
    env["HOME"] = str(work / "home")
    return env


@pytest.fixture(scope="module")
def venv():
    if not (VENV / "bin" / "syncpatch").exists():
        pytest.fail(f"the tests run outside a venv with syncpatch installed ({VENV}); run `make test`")
    return VENV


def _scratch(tmp_path: Path) -> Path:
    """A reader's checkout: the examples and the venv (linked), nothing the test suite made."""
    work = tmp_path / "checkout"
    work.mkdir()
    shutil.copytree(ROOT / "examples", work / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    (work / ".venv").symlink_to(VENV)
    (work / "home").mkdir()
    return work


def _run(body: str, work: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", body], cwd=work, env=_env(work),
                          capture_output=True, text=True, timeout=timeout)


def _no_run(body: str, work: Path) -> None:
    for command in body.splitlines():
        command = command.split("#", 1)[0].strip()
        target = re.fullmatch(r"make\s+([\w-]+)", command)
        if target:
            dry = subprocess.run(["make", "-n", target.group(1)], cwd=ROOT, capture_output=True, text=True)
            assert dry.returncode == 0, f"`{command}`: {dry.stderr}"
    syntax = subprocess.run(["bash", "-n", "-c", body], capture_output=True, text=True)
    assert syntax.returncode == 0, syntax.stderr


def _server(body: str, work: Path) -> subprocess.CompletedProcess[str]:
    first, _, rest = body.partition("\n")
    assert first.rstrip().endswith("&"), "a `server` block starts its server on the first line, ending in &"
    port = _free_port()
    start = first.rstrip().rstrip("&").strip() + f" --listen 127.0.0.1:{port}"
    server = subprocess.Popen(["bash", "-c", f"exec {start}"], cwd=work, env=_env(work),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert server.poll() is None, f"the server stopped: {server.stdout.read() if server.stdout else ''}"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the server did not listen within 90 s")
        if "kubectl" in rest and shutil.which("kubectl") is None:
            pytest.skip("kubectl is not installed (.ci/run installs it)")
        return _run(rest, work, timeout=120)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@pytest.mark.parametrize("doc", DOCS)
def test_shell_blocks_run_as_written(doc, venv, tmp_path):
    work = _scratch(tmp_path)
    ran = 0
    for line, info, body in shell_blocks(doc):
        where = f"{doc}:{line} ({info})"
        if "no-run" in info:
            _no_run(body, work)
            continue
        result = _server(body, work) if "server" in info.split() else _run(body, work)
        expected = int(m.group(1)) if (m := re.search(r"exit=(\d+)", info)) else 0
        assert result.returncode == expected, f"{where} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr, where
        ran += 1
    assert ran, f"{doc} has no shell block that runs"
