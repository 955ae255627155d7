"""`syncpatch serve`: the kubectl-compatible API server for the platform Config resource."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import click


def _check_port(host: str, port: int) -> None:
    """Fail with a clear message (not a uvicorn log line) when the port is taken."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--listen", default="127.0.0.1:8443", show_default=True, help="HOST:PORT to serve TLS on.")
@click.option("--data", "data_dir", default="syncpatch-data", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Directory for certificates, the kubeconfig and the SQLite store.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="The server's platform config (YAML); governs auth, audit and storage.")
@click.option("--kubeconfig-out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the admin kubeconfig here.")
@click.option("--store", "store_url", help="Database URL, e.g. postgresql://user:pw@host/db.")
def serve(listen: str, data_dir: Path, config_path: Path | None, kubeconfig_out: Path | None,
          store_url: str | None) -> None:
    """Serve Configs (management.platform.sh/v1) to kubectl over TLS.

    On first start it creates a CA, a serving certificate, an admin access key and a
    kubeconfig in --data; it runs in the foreground until interrupted (Ctrl-C).

    \b
    Examples:
      syncpatch serve --data ./platform-data --config examples/platform/minimal.yaml
      syncpatch serve --listen 127.0.0.1:9443 --kubeconfig-out ~/.kube/platform.yaml
      syncpatch serve --store postgresql://platform:secret@db/platform
    \b
    Then, in another shell:
      kubectl --kubeconfig ./platform-data/kubeconfig get config.management.platform.sh
    """
    try:
        from syncpatch.server.app import State, create_app
        from syncpatch.server.runner import run as run_server
        from syncpatch.server.bootstrap import ServeError, ServeOptions, prepare, server_url
    except ImportError as exc:
        raise click.ClickException(f"the server needs the 'server' extra ({exc.name} is missing)") from None
    opts = ServeOptions(listen, data_dir, config_path, kubeconfig_out, store_url)
    try:
        prep = prepare(opts)
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None
    _check_port(prep.host, prep.port)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    state = State(store=prep.store, auth=prep.auth, audit=prep.audit, settings=prep.settings,
                  server_address=f"{prep.host}:{prep.port}")
    app = create_app(state)
    click.echo(f"syncpatch: serving {server_url(prep.host, prep.port)}", err=True)
    click.echo(f"syncpatch: kubeconfig {kubeconfig_out or prep.kubeconfig}", err=True)
    try:
        run_server(app, prep.host, prep.port, prep.cert, prep.key)
    finally:
        prep.store.close()
    sys.exit(0)
