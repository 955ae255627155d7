"""Load on the Config API server: ``python -m benchmarks.bench_server_load [--quick]``.

Opt-in (not part of ``python -m benchmarks``), loopback only, bounded in time: every phase
runs for a fixed number of seconds. It starts ``syncpatch serve`` on 127.0.0.1 (SQLite, and
PostgreSQL when ``initdb`` is on the machine) and measures

- requests/s and latency percentiles of GET (the minimal and the maximal example), LIST and
  PATCH, with a few concurrent clients;
- the latency of ``/healthz`` and of an admin GET, one request at a time, while zero, one
  and two other processes flood ``/auth/login`` (64 KB YAML bodies, as a hostile client
  would send, and wrong passwords in JSON).

Results go to ``benchmarks/results/server_load.json`` and are printed as a table. The
numbers depend on the machine and on whatever else runs on it; compare runs side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import multiprocessing
import os
import pwd
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).parent / "results"
BASE = "/apis/management.platform.sh/v1/configs"
LOOPBACK = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


def _percentiles(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)

    def pick(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)
    return {"n": len(ordered), "p50_ms": pick(0.50), "p90_ms": pick(0.90), "p99_ms": pick(0.99),
            "mean_ms": round(1000 * statistics.fmean(ordered), 2)}


# ---- the server and its store ------------------------------------------------------------
@contextmanager
def postgres() -> Iterator[str | None]:
    """A throw-away PostgreSQL on loopback (as an unprivileged user when root), or None."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    initdb = bins[0] if bins else shutil.which("initdb")
    if not initdb:
        yield None
        return
    bindir = Path(initdb).parent
    base = Path(tempfile.mkdtemp(prefix="sp-bench-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres") if "postgres" in {p.pw_name for p in pwd.getpwall()} \
            else pwd.getpwnam("nobody")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", user.pw_name, "--"]
    port, data = _free_port(), base / "data"
    subprocess.run(prefix + [str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                             "--auth=trust", "-E", "UTF8", "--no-sync"], check=True, capture_output=True)
    opts = f"-p {port} -k {base} -c listen_addresses={LOOPBACK} -c max_connections=200"
    subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l",
                             str(base / "log"), "-w", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@{LOOPBACK}:{port}/postgres"
    finally:
        subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


class Server:
    def __init__(self, store_url: str | None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="sp-bench-serve-"))
        self.port = _free_port()
        self.url = f"https://{LOOPBACK}:{self.port}"
        cmd = [sys.executable, "-m", "syncpatch", "serve", "--listen", f"{LOOPBACK}:{self.port}",
               "--data", str(self.dir / "data")]
        if store_url:
            cmd += ["--store", store_url]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.log = open(self.dir / "serve.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError((self.dir / "serve.log").read_text())
            try:
                with self.client() as c:
                    if c.get("/healthz").status_code == 200:
                        return
            except (httpx.HTTPError, OSError, FileNotFoundError):
                pass
            time.sleep(0.2)
        raise RuntimeError("the server did not start")

    @property
    def ca(self) -> str:
        return str(self.dir / "data" / "ca.crt")

    def token(self) -> str:
        import yaml

        doc = yaml.safe_load((self.dir / "data" / "kubeconfig").read_text())
        return str(doc["users"][0]["user"]["token"])

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, verify=ssl.create_default_context(cafile=self.ca),
                            headers=headers, timeout=30)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _config(name: str, raw: str) -> dict[str, Any]:
    return {"apiVersion": "management.platform.sh/v1", "kind": "Config",
            "metadata": {"name": name}, "spec": {"raw": raw}}


# ---- throughput ----------------------------------------------------------------------------
async def _drive(server: Server, token: str, seconds: float, concurrency: int,
                 request: Callable[[httpx.AsyncClient, int], Any]) -> dict[str, Any]:
    latencies: list[float] = []
    errors = 0
    deadline = time.monotonic() + seconds
    ctx = ssl.create_default_context(cafile=server.ca)

    async def worker(index: int) -> None:
        nonlocal errors
        async with httpx.AsyncClient(base_url=server.url, verify=ctx, timeout=30,
                                     headers={"Authorization": f"Bearer {token}"}) as client:
            i = 0
            while time.monotonic() < deadline:
                started = time.perf_counter()
                response = await request(client, index * 1_000_000 + i)
                latencies.append(time.perf_counter() - started)
                errors += response.status_code >= 400
                i += 1
    started = time.monotonic()
    await asyncio.gather(*(worker(n) for n in range(concurrency)))
    elapsed = time.monotonic() - started
    return {"requests_per_s": round(len(latencies) / elapsed, 1), "errors": errors,
            **_percentiles(latencies)}


def throughput(server: Server, seconds: float, concurrency: int) -> dict[str, Any]:
    token = server.token()
    minimal = (REPO / "examples/platform/minimal.yaml").read_text()
    maximal = (REPO / "examples/platform/maximal.yaml").read_text()
    with server.client(token) as c:
        for name, raw in [("minimal", minimal), ("maximal", maximal)]:
            assert c.post(BASE, json=_config(name, raw)).status_code == 201
        for i in range(20):
            c.post(BASE, json=_config(f"item-{i:02d}", minimal))
        for name in ("minimal", "maximal"):  # steady state: the first read has happened
            assert c.get(f"{BASE}/{name}").status_code == 200
    merge = {"Content-Type": "application/merge-patch+json"}
    cases: dict[str, Callable[[httpx.AsyncClient, int], Any]] = {
        "get_minimal": lambda c, i: c.get(f"{BASE}/minimal"),
        "get_maximal": lambda c, i: c.get(f"{BASE}/maximal"),
        "list_22": lambda c, i: c.get(BASE),
        "patch_label": lambda c, i: c.patch(f"{BASE}/item-{i % 20:02d}", headers=merge,
                                            content=json.dumps({"metadata": {"labels": {"n": str(i)}}})),
    }
    out = {name: asyncio.run(_drive(server, token, seconds, concurrency, fn))
           for name, fn in cases.items()}
    out["maximal_to_minimal_get_rate"] = round(
        out["get_maximal"]["requests_per_s"] / max(out["get_minimal"]["requests_per_s"], 1e-9), 3)
    return out


# ---- latency under a login flood ---------------------------------------------------------
def _flood(url: str, ca: str, kind: str, ready: Any, stop: Any, counts: Any) -> None:
    """One hostile client: login requests back to back until `stop` is set."""
    yaml_body = ("username: admin\npassword: " + "x" * (64 * 1024 - 40) + "\n").encode()
    with httpx.Client(base_url=url, verify=ssl.create_default_context(cafile=ca), timeout=30) as c:
        ready.set()
        sent = 0
        while not stop.is_set():
            try:
                if kind == "yaml":
                    c.post("/auth/login", content=yaml_body,
                           headers={"Content-Type": "application/yaml"})
                else:
                    c.post("/auth/login", json={"username": "admin", "password": f"guess-{sent}"})
            except httpx.HTTPError:
                pass
            sent += 1
        counts.put(sent)


def under_flood(server: Server, seconds: float, flooders: int, kind: str) -> dict[str, Any]:
    """Latency of /healthz and of an admin GET, one at a time, while `flooders` processes
    send login requests as fast as the server answers them."""
    token = server.token()
    mp = multiprocessing.get_context("spawn")
    stop, counts = mp.Event(), mp.Queue()
    readies = [mp.Event() for _ in range(flooders)]
    procs = [mp.Process(target=_flood, args=(server.url, server.ca, kind, ready, stop, counts))
             for ready in readies]
    for p in procs:
        p.start()
    for ready in readies:
        ready.wait(60)
    time.sleep(0.3 if flooders else 0)  # let the flood reach its pace
    health: list[float] = []
    admin: list[float] = []
    started_at = time.monotonic()
    with server.client() as anon, server.client(token) as c:
        while time.monotonic() - started_at < seconds:
            started = time.perf_counter()
            anon.get("/healthz")
            health.append(time.perf_counter() - started)
            started = time.perf_counter()
            c.get(f"{BASE}/minimal")
            admin.append(time.perf_counter() - started)
            time.sleep(0.02)
    elapsed = time.monotonic() - started_at
    stop.set()
    sent = sum(counts.get(timeout=30) for _ in procs)
    for p in procs:
        p.join(30)
    return {"flood_clients": flooders, "flood_kind": kind,
            "flood_requests_per_s": round(sent / (elapsed + 0.3), 1), "healthz": _percentiles(health),
            "admin_get": _percentiles(admin)}


def run(seconds: float, concurrency: int, stores: list[str]) -> dict[str, Any]:
    results: dict[str, Any] = {"seconds_per_phase": seconds, "concurrency": concurrency}
    for store in stores:
        with (postgres() if store == "postgres" else _no_store()) as url:
            if store == "postgres" and url is None:
                results[store] = {"skipped": "no PostgreSQL server binaries"}
                continue
            server = Server(url)
            try:
                section: dict[str, Any] = {"throughput": throughput(server, seconds, concurrency)}
                section["flood"] = [under_flood(server, seconds, n, kind)
                                    for n, kind in [(0, "none"), (1, "yaml"), (2, "yaml"),
                                                    (1, "json"), (2, "json")]]
                results[store] = section
            finally:
                server.stop()
    return results


@contextmanager
def _no_store() -> Iterator[str | None]:
    yield None


def _print(results: dict[str, Any]) -> None:
    for store in ("sqlite", "postgres"):
        section = results.get(store)
        if not section or "skipped" in section:
            continue
        print(f"\n== {store}")
        for name, row in section["throughput"].items():
            if isinstance(row, dict):
                print(f"  {name:<12} {row['requests_per_s']:>8} req/s  p50 {row['p50_ms']:>7} ms"
                      f"  p90 {row['p90_ms']:>7} ms  p99 {row['p99_ms']:>7} ms  errors {row['errors']}")
        print(f"  GET maximal / GET minimal rate: {section['throughput']['maximal_to_minimal_get_rate']}")
        for row in section["flood"]:
            print(f"  flood {row['flood_clients']} x {row['flood_kind']:<4} ({row['flood_requests_per_s']:>7}"
                  f" req/s): /healthz p50 {row['healthz']['p50_ms']} ms p99 {row['healthz']['p99_ms']}"
                  f" ms; admin GET p50 {row['admin_get']['p50_ms']} ms p99 {row['admin_get']['p99_ms']} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_server_load", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1 s phases: checks the code runs")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each phase")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--out", type=Path, default=RESULTS / "server_load.json")
    args = parser.parse_args(argv)
    seconds = 1.0 if args.quick else min(args.seconds, 60.0)
    stores = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    results = run(seconds, max(1, min(args.concurrency, 32)), stores)
    results["machine"] = {"cpus": os.cpu_count(), "loadavg_at_end": os.getloadavg()}
    _print(results)
    if not args.quick:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
