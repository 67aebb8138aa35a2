"""Render deploy/nginx.conf.template into a complete nginx.conf for citemap replicas (stdlib only).

    python deploy/render.py --listen 8080 --upstream 127.0.0.1:8051 --upstream 127.0.0.1:8052 --root /srv/nginx
    nginx -p /srv/nginx -c /srv/nginx/nginx.conf -e /srv/nginx/error.log -g 'daemon off;'

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

TEMPLATE = Path(__file__).resolve().with_name("nginx.conf.template")
RATE, BURST, CONN_LIMIT = "20r/s", 40, 20  # per client address (see the template)


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
) -> str:
    """The nginx.conf text: listen on ``listen`` (a port, or "address:port"), proxy to ``upstreams`` ("host:port"
    each), write state under ``root`` (and logs under ``log_dir``, default ``root``)."""
    if not upstreams:
        raise ValueError("at least one upstream is needed")
    for u in [str(listen), *upstreams]:
        if not re.fullmatch(r"[\w.\-\[\]:]+", u):
            raise ValueError(f"not an address: {u!r}")
    if not re.fullmatch(r"\d+r/[sm]", rate):
        raise ValueError(f"not an nginx rate (like 20r/s): {rate!r}")
    for p in (root, log_dir or root):
        if not Path(p).is_absolute() or re.search(r"[\s;{}'\"$]", str(p)):
            raise ValueError(f"not an absolute path nginx can take as is: {p}")
    values = {
        "LISTEN": str(listen),
        "UPSTREAMS": "\n        ".join(f"server {u};" for u in upstreams),
        "STATE_DIR": str(root),
        "LOG_DIR": str(log_dir or root),
        "RATE": rate,
        "BURST": str(int(burst)),
        "CONN_LIMIT": str(int(conn_limit)),
    }
    try:
        return _Braced(TEMPLATE.read_text()).substitute(values)
    except (KeyError, ValueError) as e:
        raise ValueError(f"{TEMPLATE}: placeholder not filled: {e}") from e


def write(
    listen: int | str,
    upstreams: list[str],
    root: Path,
    *,
    log_dir: Path | None = None,
    rate: str = RATE,
    burst: int = BURST,
    conn_limit: int = CONN_LIMIT,
) -> Path:
    """Render into ``root``/nginx.conf (``root`` created) and return its path."""
    text = render(listen, upstreams, root, log_dir=log_dir, rate=rate, burst=burst, conn_limit=conn_limit)
    root.mkdir(parents=True, exist_ok=True)
    conf = root / "nginx.conf"
    conf.write_text(text)
    return conf


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--listen", required=True, help="port, or address:port")
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
    ap.add_argument("--stdout", action="store_true", help="print the config instead of writing ROOT/nginx.conf")
    a = ap.parse_args(argv)
    root = a.root.resolve()
    log_dir = a.log_dir.resolve() if a.log_dir else None
    try:
        if a.stdout:
            sys.stdout.write(
                render(a.listen, a.upstream, root, log_dir=log_dir, rate=a.rate, burst=a.burst, conn_limit=a.conn_limit)
            )
            return 0
        conf = write(a.listen, a.upstream, root, log_dir=log_dir, rate=a.rate, burst=a.burst, conn_limit=a.conn_limit)
    except ValueError as e:
        print(f"render.py: {e}", file=sys.stderr)
        return 2
    print(f"wrote {conf}; run: nginx -p {root} -c {conf} -e {root / 'error.log'} -g 'daemon off;'", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
