"""`citemap serve --production`: gunicorn with the settings of dashboard/serving/gunicorn_conf.py, as the Procfile."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def gunicorn_command(data: Path, host: str, port: int, workers: int | None) -> list[str]:
    exe = shutil.which("gunicorn") or str(Path(sys.executable).with_name("gunicorn"))
    cmd = [exe, "--config", "python:dashboard.serving.gunicorn_conf", "--bind", f"{host}:{port}"]
    if workers:
        cmd += ["--workers", str(workers)]
    return [*cmd, "dashboard.app:server"]


def serve_production(
    data: Path, host: str, port: int, workers: int | None = None, library: str | Path | None = None
) -> int:
    """Replace this process by gunicorn serving ``data`` (it never returns on success); ``library``: the
    default "in my library" file (``CITEMAP_LIBRARY``)."""
    os.environ["CITEMAP_DATA"] = str(Path(data).resolve())
    if library:
        os.environ["CITEMAP_LIBRARY"] = str(Path(library).resolve())
    cmd = gunicorn_command(data, host, port, workers)
    print("citemap: " + " ".join(cmd), file=sys.stderr)
    os.execv(cmd[0], cmd)
    return 1  # not reached
