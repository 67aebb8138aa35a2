"""A dataset folder's builds: every import writes a new, immutable build beside the others and then points the
folder's ``current`` link at it; a server reads one build from start to exit.

::

    DIR/
      current -> builds/20261203T160501Z-3f2a9c1b7d4e    a relative symbolic link, replaced atomically
      builds/
        20261203T160501Z-3f2a9c1b7d4e/                   papers.parquet, citations.parquet, dataset.json, index/
        20261125T093000Z-8b0e1d2c4a6f/                   the build before it, kept

A build's name is the UTC time it was written and the start of its ``build_id``; a build folder is a complete
dataset on its own, which a store also loads directly (:func:`served`).

Why: a server memory-maps its build's arrays but opens the search database by path, when a worker first searches.
An import that rewrote the folder in place made a running server read the new search database against its old
arrays (wrong papers, index errors). Here an import never changes a build that exists, and a server resolves
``current`` once, when it loads, and reads only that build's files until it exits.

Pins: a server holds a shared ``flock`` on its build's folder for as long as it runs (gunicorn's forked workers
share the master's). After each import, :func:`prune` removes the builds that are neither current nor among the
:data:`KEEP_PREVIOUS` newest before it, and only those no process has pinned: a master still serving the old build
during a reload keeps its files, however many imports happen meanwhile. Pins are advisory locks (``flock``): they
hold between the processes of one machine, and between containers that mount the same local folder, but not across
machines that share a network file system; there, import on the machine that serves, or stop old servers first.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import tempfile
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dashboard.errors import DatasetError

log = logging.getLogger(__name__)

BUILDS = "builds"
CURRENT = "current"
KEEP_PREVIOUS = 1  # builds kept before the current one (besides any still pinned): one step back, by hand


def served(folder: Path) -> Path:
    """The build a server of ``folder`` reads: where ``folder/current`` points, or ``folder`` itself when it has no
    ``current`` (a build folder). A ``current`` that is a folder (the
    dataset copied without keeping links, ``cp -r``) is served as it is."""
    link = folder / CURRENT
    if not os.path.lexists(link):
        return folder
    if not link.is_symlink():
        if (link / "dataset.json").is_file():
            return link
        raise DatasetError(f"{link}: neither a link to a build nor a build")
    target = link.resolve()
    if target.parent != (folder / BUILDS).resolve() or not target.is_dir():
        raise DatasetError(f"{link}: points to {os.readlink(link)}, not a build in {folder / BUILDS}")
    return target


def pinned(folder: Path) -> tuple[Path, int]:
    """The build ``folder`` serves, pinned: ``(build, fd)``; the pin lasts until ``fd`` is closed (and in every
    process forked meanwhile, until each has closed or exited). A build pruned between the link's reading and the
    pin is read again from the link."""
    if not folder.is_dir():
        raise DatasetError(f"{folder}: no such dataset folder")
    for _ in range(5):
        build = served(folder)
        try:
            fd = os.open(build, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            continue
        fcntl.flock(fd, fcntl.LOCK_SH)
        if (build / "dataset.json").is_file() or build == folder:
            return build, fd
        os.close(fd)  # pruned before the pin: read the link again
    raise DatasetError(f"{folder / CURRENT}: its build kept disappearing while being opened")


def unpin_with(owner: object, fd: int) -> None:
    """Release the pin ``fd`` when ``owner`` is garbage-collected (a server's store lives as long as it does)."""
    weakref.finalize(owner, os.close, fd)


def build_name(build_id: str, when: float | None = None) -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(when)) + "-" + build_id[:12]


@contextmanager
def new_build(out: Path) -> Iterator[Path]:
    """A temporary folder in ``out/builds`` to write a build into (locked, so that no prune takes it meanwhile);
    removed if the block fails. Publish it with :func:`publish` inside the block."""
    builds = _prepare(out)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=builds))
    fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        os.close(fd)


def publish(out: Path, tmp: Path, build_id: str, keep: int | None = KEEP_PREVIOUS) -> Path:
    """Move the written build ``tmp`` to its name in ``out/builds``, point ``out/current`` at it (one atomic
    rename of a new link over the old one), then prune unless ``keep`` is None. Returns the build's folder."""
    builds = out / BUILDS
    name = build_name(build_id)
    final, n = builds / name, 1
    while final.exists():  # two imports within a second of each other
        n += 1
        final = builds / f"{name}-{n}"
    os.chmod(tmp, 0o755)
    tmp.rename(final)
    use(out, final.name)
    if keep is not None:
        prune(out, keep)
    return final


def use(out: Path, name: str) -> None:
    """Point ``out/current`` at the build ``name`` (a new link renamed over the old one: a server starting meanwhile
    sees one or the other, never none). Servers already running keep theirs until reloaded."""
    if not (out / BUILDS / name / "dataset.json").is_file() or "/" in name or name.startswith("."):
        raise DatasetError(f"{out / BUILDS / name}: no such build")
    link = out / f".{CURRENT}-{os.getpid()}"
    if os.path.lexists(link):
        link.unlink()
    os.symlink(f"{BUILDS}/{name}", link)
    try:
        os.replace(link, out / CURRENT)
    except OSError as e:
        link.unlink()
        raise DatasetError(f"{out / CURRENT}: cannot be replaced by a link to the build {name} ({e})") from e


def listing(out: Path) -> list[dict[str, object]]:
    """Each build of ``out``, newest first: name, build id, papers, bytes, whether current, whether a process
    has it pinned."""
    builds = out / BUILDS
    if not builds.is_dir():
        return []
    now = served(out).name
    rows = []
    for path in sorted(
        (p for p in builds.iterdir() if p.is_dir() and not p.name.startswith(".")), key=lambda p: p.name, reverse=True
    ):
        try:
            meta = json.loads((path / "dataset.json").read_text())
        except (OSError, ValueError):
            meta = {}
        rows.append(
            {
                "name": path.name,
                "build_id": meta.get("build_id"),
                "papers": (meta.get("counts") or {}).get("papers"),
                "bytes": sum(f.stat().st_size for f in path.rglob("*") if f.is_file()),
                "current": path.name == now,
                "pinned": _pinned(path),
            }
        )
    return rows


def _pinned(path: Path) -> bool:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing releases a lock taken
    return False


def prune(out: Path, keep: int = KEEP_PREVIOUS) -> tuple[list[str], list[str]]:
    """Remove the builds of ``out`` that are neither current nor among the ``keep`` newest others, and the leftovers
    of imports that stopped half-way, unless a process has pinned them. Returns (removed, kept because pinned)."""
    builds = out / BUILDS
    if not builds.is_dir():
        return [], []
    current = served(out).name
    others = sorted(  # newest first: by the second in the name, then (builds of one second) by when last written
        (p for p in builds.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name != current),
        key=lambda p: (p.name.split("-")[0], _written(p), p.name),
        reverse=True,
    )
    leftovers = [p for p in builds.iterdir() if p.is_dir() and p.name.startswith((".tmp-", ".gone-"))]
    removed, in_use = [], []
    for path in [*others[keep:], *leftovers]:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            in_use.append(path.name)
            continue
        try:
            gone = path if path.name.startswith(".gone-") else builds / f".gone-{path.name}"
            if gone != path:
                path.rename(gone)  # no longer a build by name, before its files go
            shutil.rmtree(gone, ignore_errors=True)
            removed.append(path.name)
        finally:
            os.close(fd)
    if in_use:
        log.info("%s: kept %s: a running server still reads them", builds, ", ".join(in_use))
    return removed, in_use


def _written(path: Path) -> int:
    """When a build's folder last changed (its last file written), in ns; 0 if it is gone."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def _prepare(out: Path) -> Path:
    """``out/builds``, made if need be; ``out`` must be a dataset folder (or new), not a build."""
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} exists and is not a folder")
    if (out / CURRENT).is_dir() and not (out / CURRENT).is_symlink():
        raise DatasetError(
            f"{out / CURRENT}: a folder, not a link to a build (a copy made without links): nothing "
            f"written; import into another folder, or make {CURRENT} a link into {BUILDS}/"
        )
    if not os.path.lexists(out / CURRENT) and (out / "dataset.json").is_file():
        raise DatasetError(
            f"{out} is a build (it holds dataset.json), not a dataset folder of builds: nothing written; "
            f"import into another folder"
        )
    builds = out / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    return builds
