"""deploy/systemd/: the replica's unit (citemap@.service) and nginx's (citemap-nginx.service), as ``systemd-analyze
verify`` reads them, and their commands run as systemd would run them (this machine runs no systemd to start
them): nginx's renders a config nginx accepts, the replica's serves and tells systemd it is ready."""

from __future__ import annotations

import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import requests

from dashboard.dataset.format import read_meta
from dashboard.importers.defaults import cache_root
from tests import servers
from tests.conftest import DEFAULT_DATA

UNITS = servers.ROOT / "deploy" / "systemd"
REPLICA = UNITS / "citemap@.service"
NGINX_UNIT = UNITS / "citemap-nginx.service"
VENV_BIN = "/opt/citemap/venv/bin/"  # where the units expect citemap's virtual environment
CHECKOUT = "/opt/citemap/src"  # and a checkout of citemap (nginx's unit runs its deploy/render.py)

needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
needs_nginx = pytest.mark.skipif(not servers.NGINX.exists(), reason=f"no nginx at {servers.NGINX}")


def settings(text: str) -> dict[str, list[str]]:
    """A unit file's ``Key=value`` lines: every value of each key, in order."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = re.fullmatch(r"([A-Za-z]+)=(.*)", line.strip())
        if m:
            found.setdefault(m[1], []).append(m[2])
    return found


def environment(unit: dict[str, list[str]], instance: str = "") -> dict[str, str]:
    """The variables a unit's ``Environment=`` lines set (quoted words as systemd splits them; ``%i``: ``instance``)."""
    env: dict[str, str] = {}
    for line in unit.get("Environment", []):
        for word in shlex.split(line.replace("%i", instance)):
            name, _, value = word.partition("=")
            env[name] = value
    return env


def argv(line: str, env: dict[str, str]) -> list[str]:
    """An ``Exec...=`` command line as systemd runs it: quoted words kept whole, a word ``$NAME`` replaced by the
    words of that variable."""
    out: list[str] = []
    for word in shlex.split(line):
        out += env[word[1:]].split() if re.fullmatch(r"\$[A-Z_]+", word) else [word]
    return out


def here(text: str, moves: dict[str, str] | None = None) -> str:
    """A unit's text with its programs where this machine has them (``verify`` checks that they exist): the
    virtual environment's programs from this Python's, the checkout this one, nginx the deployment tests' nginx;
    and each path of ``moves`` moved."""
    for old, new in {
        **(moves or {}),
        VENV_BIN + "python ": sys.executable + " ",
        VENV_BIN: str(Path(sys.executable).parent) + "/",
        CHECKOUT: str(servers.ROOT),
        "/usr/sbin/nginx": str(servers.NGINX),
    }.items():
        text = text.replace(old, new)
    return text


def verify(folder: Path, name: str, text: str) -> list[str]:
    """``systemd-analyze verify`` of ``text`` saved as ``folder/name``: what it says about that unit (every line
    naming it, warnings about ignored settings included, which leave its exit status 0), and its exit status when
    not 0. Empty: systemd takes the unit as written."""
    unit = folder / name
    unit.write_text(text)
    r = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60)
    stem = name.split("@")[0].removesuffix(".service")
    said = [line for line in (r.stdout + r.stderr).splitlines() if stem in line]
    return said + ([f"exit status {r.returncode}"] if r.returncode else [])


@needs_systemd_analyze
def test_the_replica_unit_verifies_for_an_instance(tmp_path: Path) -> None:
    text = REPLICA.read_text()
    unit = settings(text)
    assert unit["Restart"] == ["always"] and unit["RestartSec"] == ["3s"]
    assert verify(tmp_path, "citemap@8051.service", here(text)) == []


@needs_systemd_analyze
@needs_nginx
def test_the_nginx_unit_verifies(tmp_path: Path) -> None:
    text = NGINX_UNIT.read_text()
    assert settings(text)["Restart"] == ["always"]
    assert verify(tmp_path, "citemap-nginx.service", here(text)) == []


@needs_systemd_analyze
@pytest.mark.parametrize(
    ("broken", "said"),
    [
        (("Restart=always", "Restart=sometimes"), "Failed to parse service restart specifier"),
        (("RestartSec=3s", "RestartSek=3s"), "Unknown key"),
        (("ProtectSystem=strict", "ProtectSystem=very"), "Failed to parse"),
        ((VENV_BIN + "gunicorn", "/nonexistent/gunicorn"), "is not executable"),
    ],
    ids=["bad-value", "misspelt-key", "bad-hardening", "missing-program"],
)
def test_verify_reports_a_broken_replica_unit(tmp_path: Path, broken: tuple[str, str], said: str) -> None:
    """The checks above can fail: one broken line in the replica's unit, and ``verify`` names the problem."""
    old, new = broken
    text = REPLICA.read_text()
    assert old in text
    problems = verify(tmp_path, "citemap@8051.service", here(text.replace(old, new)))
    assert any(said in line for line in problems), problems


@needs_nginx
def test_the_nginx_units_commands_give_a_config_nginx_accepts(tmp_path: Path) -> None:
    """ExecStartPre (deploy/render.py) and ExecStart (nginx, here with ``-t``), with the unit's state and log
    directories moved under ``tmp_path``: the config is written where nginx reads it, and nginx takes it."""
    state, logs = tmp_path / "state", tmp_path / "logs"
    logs.mkdir()
    text = NGINX_UNIT.read_text()
    unit = settings(text)
    moves = {f"/var/lib/{unit['StateDirectory'][0]}": str(state), f"/var/log/{unit['LogsDirectory'][0]}": str(logs)}
    for old in moves:  # the unit's commands use exactly those directories
        assert old in unit["ExecStartPre"][0] and old in unit["ExecStart"][0]
    moved = settings(here(text, moves))
    env = environment(moved)
    render = subprocess.run(argv(moved["ExecStartPre"][0], env), capture_output=True, text=True, timeout=60)
    assert render.returncode == 0, render.stderr
    conf = (state / "nginx.conf").read_text()
    assert f"pid {state}/nginx.pid;" in conf and f"error_log {logs}/error.log" in conf
    rendered = "".join(p.read_text() for p in state.glob("*.conf"))
    assert "server 127.0.0.1:8051;" in rendered and "server 127.0.0.1:8052;" in rendered
    check = subprocess.run([*argv(moved["ExecStart"][0], env), "-t"], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and "test is successful" in check.stderr, check.stderr
    # open files: the unit allows more than the config's workers take, which is more than their connections
    workers = int(re.search(r"^worker_rlimit_nofile (\d+);", conf, re.M)[1])
    connections = int(re.search(r"^\s*worker_connections (\d+);", conf, re.M)[1])
    assert int(unit["LimitNOFILE"][0]) >= workers > connections >= 9000


@pytest.mark.slow
def test_the_replica_units_command_serves_and_tells_systemd_it_is_ready(tmp_path: Path) -> None:
    """ExecStart with the unit's environment (the instance a free port; the default dataset from this machine's
    cache, as the unit's empty CITEMAP_DATA asks): gunicorn sends systemd's READY=1 (the unit is Type=notify), and
    serves the default dataset on loopback, uncompressed (nginx compresses)."""
    unit = settings(here(REPLICA.read_text()))
    port = servers.free_port()
    env = environment(unit, str(port))
    assert env["CITEMAP_DATA"] == "" and env["HOST"] == "127.0.0.1" and env["PORT"] == str(port)
    folder = Path(tempfile.mkdtemp(prefix="citemap-notify-"))  # short: a Unix socket's path has a small limit
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server = None
    try:
        notify.bind(str(folder / "notify"))
        notify.settimeout(120)
        env |= {"CITEMAP_CACHE": str(cache_root()), "NOTIFY_SOCKET": str(folder / "notify")}
        server = servers.Server(
            argv(unit["ExecStart"][0], env), port, env=env, log=tmp_path / "replica.log", group=True
        )
        assert b"READY=1" in notify.recv(4096).split(b"\n")
        health = requests.get(server.url + "/health", timeout=10).json()
        assert health["build"] == read_meta(DEFAULT_DATA)["build_id"]
        page = requests.get(server.url + "/", headers={"Accept-Encoding": "br, gzip"}, timeout=10)
        assert page.status_code == 200 and len(page.content) > 1000 and "Content-Encoding" not in page.headers
        assert f"Listening at: http://127.0.0.1:{port} " in server.log.read_text()
    finally:
        if server is not None:
            server.stop()
        notify.close()
        shutil.rmtree(folder, ignore_errors=True)
    assert "Traceback" not in (tmp_path / "replica.log").read_text()
