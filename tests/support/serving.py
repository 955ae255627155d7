"""A real `syncpatch serve` process on a free loopback port, for the server and UI tests."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProc:
    """`syncpatch serve` in a temp dir on a free loopback port."""

    def __init__(self, data: Path, port: int, extra: list[str], home: Path) -> None:
        self.data, self.port, self.extra, self.home = data, port, extra, home
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data.parent / f"serve-{port}.log"

    @property
    def kubeconfig(self) -> Path:
        return self.data / "kubeconfig"

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> "ServerProc":
        cmd = [sys.executable, "-m", "syncpatch", "serve", "--listen", f"127.0.0.1:{self.port}",
               "--data", str(self.data), *self.extra]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                if self.client().get("/healthz").status_code == 200:
                    return self
            except (httpx.HTTPError, OSError, ssl.SSLError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()}")

    def token(self) -> str:
        import yaml

        return str(yaml.safe_load(self.kubeconfig.read_text())["users"][0]["user"]["token"])

    def client(self, token: str | None = None, timeout: float = 10) -> httpx.Client:
        ctx = ssl.create_default_context(cafile=str(self.data / "ca.crt"))
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, verify=ctx, headers=headers, timeout=timeout)

    def kubectl(self, *args: str, input: str | None = None, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KUBE")}
        env["HOME"] = str(self.home)
        return subprocess.run(["kubectl", "--kubeconfig", str(self.kubeconfig), *args],
                              capture_output=True, text=True, env=env, input=input, timeout=timeout)

    def kill(self, sig: int = signal.SIGTERM) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
