"""Render deploy/nginx.conf.template (and the files it includes) into a complete nginx config for citemap
replicas (stdlib only).

    python deploy/render.py --listen 8080 --upstream 127.0.0.1:8051 --upstream 127.0.0.1:8052 --root /srv/nginx
    nginx -p /srv/nginx -c /srv/nginx/nginx.conf -e /srv/nginx/error.log -g 'daemon off;'

With ``--tls-listen 443 --tls-cert FULLCHAIN.pem --tls-key KEY.pem --server-name HOST`` the app is served over
HTTPS, with HSTS, and plain HTTP on ``--listen`` redirects to https://HOST/ (never to the Host a client sent).

``--root`` is the directory nginx writes (pid file, temporary files, cache, logs); nginx needs no other writable
path, so it runs as any user. The official nginx Docker image fills the same template with envsubst instead
(deploy/docker-compose.yml).
"""

from __future__ import annotations

import argparse
import re
import string
import sys
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent  # the templates: nginx.conf.template and the files it includes
RATE, BURST, CONN_LIMIT = "20r/s", 40, 20  # per client address (see the template)
TRANSFERS = 512  # requests in progress in all (see the template)


class Tls(NamedTuple):
    """HTTPS: what to listen on (a port, or "address:port"), the certificate chain and key files (PEM), and the
    site's host name (what the redirect from HTTP names)."""

    listen: int | str
    cert: Path
    key: Path
    server_name: str


class _Braced(string.Template):
    """Only ``${NAME}`` (upper case) is a placeholder: nginx's own ``$variables`` pass through untouched."""

    flags = 0
    pattern = r"""
    \$(?:
      (?P<escaped>(?!))
    | (?P<named>(?!))
    | \{(?P<braced>[A-Z][A-Z0-9_]*)\}
    | (?P<invalid>\{[^}]*\})
    )
    """


def render(
    listen: int | str,
    upstreams: list[str],
    root: Path,
    *,
    log_dir: Path | None = None,
    rate: str = RATE,
    burst: int = BURST,
    conn_limit: int = CONN_LIMIT,
    transfers: int = TRANSFERS,
    tls: Tls | None = None,
) -> dict[str, str]:
    """The files of the config, by name (nginx.conf and the files it includes): listen on ``listen`` (a port, or
    "address:port") for HTTP, and with ``tls`` on ``tls.listen`` for HTTPS (HTTP then redirects there); proxy to
    ``upstreams`` ("host:port" each); write state under ``root`` (and logs under ``log_dir``, default ``root``)."""
    if not upstreams:
        raise ValueError("at least one upstream is needed")
    for u in [str(listen), *upstreams, *([str(tls.listen)] if tls else [])]:
        if not re.fullmatch(r"[\w.\-\[\]:]+", u):
            raise ValueError(f"not an address: {u!r}")
    if not re.fullmatch(r"\d+r/[sm]", rate):
        raise ValueError(f"not an nginx rate (like 20r/s): {rate!r}")
    if tls and not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9.\-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]", tls.server_name):
        raise ValueError(f"not a host name: {tls.server_name!r}")
    for p in (root, log_dir or root, *((tls.cert, tls.key) if tls else ())):
        if not Path(p).is_absolute() or re.search(r"[\s;{}'\"$]", str(p)):
            raise ValueError(f"not an absolute path nginx can take as is: {p}")
    site = "https" if tls else "http"
    values = {
        "SITE": site,
        "LISTEN": str(listen),
        "UPSTREAMS": "\n        ".join(f"server {u};" for u in upstreams),
        "STATE_DIR": str(root),
        "LOG_DIR": str(log_dir or root),
        "RATE": rate,
        "BURST": str(int(burst)),
        "CONN_LIMIT": str(int(conn_limit)),
        "TRANSFERS": str(int(transfers)),
    }
    if tls:
        port = str(tls.listen).rsplit(":", 1)[-1]
        values |= {
            "TLS_LISTEN": str(tls.listen),
            "TLS_CERT": str(tls.cert),
            "TLS_KEY": str(tls.key),
            "HTTPS_PORT": "" if port == "443" else f":{port}",
            "SERVER_NAME": tls.server_name,
        }
    out = {}
    for name in ("nginx.conf", "citemap-app.conf", f"citemap-{site}.conf"):
        template = HERE / f"{name}.template"
        try:
            out[name] = _Braced(template.read_text()).substitute(values)
        except (KeyError, ValueError) as e:
            raise ValueError(f"{template}: placeholder not filled: {e}") from e
    return out


def write(listen: int | str, upstreams: list[str], root: Path, **options: Any) -> Path:
    """Render into ``root`` (created; ``options``: the keywords :func:`render` takes) and return the path of its
    nginx.conf."""
    files = render(listen, upstreams, root, **options)
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(text)
    return root / "nginx.conf"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--listen", required=True, help="port, or address:port, for HTTP")
    ap.add_argument("--upstream", action="append", required=True, help="a replica's host:port (repeat)")
    ap.add_argument("--root", required=True, type=Path, help="directory nginx writes; nginx.conf goes there")
    ap.add_argument("--log-dir", type=Path, default=None, help="access.log and error.log (default: --root)")
    ap.add_argument("--rate", default=RATE, help=f"requests per second per client address (default {RATE})")
    ap.add_argument("--burst", type=int, default=BURST, help=f"burst above the rate (default {BURST})")
    ap.add_argument(
        "--conn-limit",
        type=int,
        default=CONN_LIMIT,
        help=f"requests in progress per client address (default {CONN_LIMIT})",
    )
    ap.add_argument(
        "--transfers",
        type=int,
        default=TRANSFERS,
        help=f"requests in progress in all, whoever asks (default {TRANSFERS})",
    )
    ap.add_argument("--tls-listen", help="port, or address:port, for HTTPS (HTTP then redirects there)")
    ap.add_argument("--tls-cert", type=Path, help="the certificate chain (PEM) for --tls-listen")
    ap.add_argument("--tls-key", type=Path, help="its private key (PEM)")
    ap.add_argument("--server-name", help="the site's host name, which the redirect to HTTPS names (with --tls-*)")
    ap.add_argument("--stdout", action="store_true", help="print the files instead of writing them under ROOT")
    a = ap.parse_args(argv)
    root = a.root.resolve()
    log_dir = a.log_dir.resolve() if a.log_dir else None
    given = [x is not None for x in (a.tls_listen, a.tls_cert, a.tls_key, a.server_name)]
    if any(given) and not all(given):
        ap.error("--tls-listen, --tls-cert, --tls-key and --server-name go together")
    # absolute, links kept: Let's Encrypt's live/ names link to the newest certificate, which nginx reads at reload
    tls = Tls(a.tls_listen, a.tls_cert.absolute(), a.tls_key.absolute(), a.server_name) if all(given) else None
    options = {
        "log_dir": log_dir,
        "rate": a.rate,
        "burst": a.burst,
        "conn_limit": a.conn_limit,
        "transfers": a.transfers,
        "tls": tls,
    }
    try:
        if a.stdout:
            for name, text in render(a.listen, a.upstream, root, **options).items():
                sys.stdout.write(f"# ---- {name}\n{text}")
            return 0
        conf = write(a.listen, a.upstream, root, **options)
    except ValueError as e:
        print(f"render.py: {e}", file=sys.stderr)
        return 2
    print(f"wrote {conf}; run: nginx -p {root} -c {conf} -e {root / 'error.log'} -g 'daemon off;'", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
