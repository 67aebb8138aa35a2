"""The map of the whole field (the field view's picture: every paper's place, ``index/field_xy.npy``), made for a
build after the build is published and served: an import is usable as soon as its tables, index and search are
written, and the map, the one step whose cost grows with the whole graph's citations, follows.

``citemap import`` (and ``fetch``) go on to make it once the build is published; ``citemap serve`` starts a
background process making it when the build it serves has none (an import stopped during it, say); ``citemap
field-map`` makes it by hand. One process at a time makes a build's map (a lock on its ``index/`` folder); it says
how far along it is in ``index/field_progress.json``, which the field view reads, and adds the map whole, by one
rename (:func:`dashboard.dataset.index_write.save_field_xy`): a build is never seen half-written.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from dashboard.dataset import builds, index, index_write
from dashboard.errors import DatasetError

PROGRESS_EVERY = 0.5  # seconds between two writes of the progress file
BACKGROUND_NICE = 10  # a map made beside a server yields the processor to it


def has_map(build: Path) -> bool:
    """Whether the build holds its field map."""
    meta = index.read_index_meta(build)
    return meta is not None and index.load_field_xy(build, int(meta["papers"])) is not None


def make(folder: str | Path, progress: bool = False) -> bool:
    """Make the field map of the build the dataset folder ``folder`` serves (or of ``folder``, a build), unless it
    has one or another process is making it; the build is pinned meanwhile (no prune removes it). ``progress``: a
    bar on stderr. Returns whether the build has its map at the end."""
    from dashboard.graph.field_layout import field_layout

    build, pin = builds.pinned(Path(folder).resolve())
    try:
        meta = index.read_index_meta(build)
        if meta is None:
            raise DatasetError(f"{build / index.INDEX_DIR}: missing or from another version; import it again")
        lock = index.field_lock(build)
        if lock is None:  # another process is making it
            return False
        try:
            n = int(meta["papers"])
            if index.load_field_xy(build, n) is not None:
                return True
            started = time.time()
            index_write.save_field_progress(build, 0.0, started)
            lists = [
                np.load(build / index.INDEX_DIR / f"{name}.npy", mmap_mode="r", allow_pickle=False)
                for name in ("ref_offsets", "ref_targets", "cit_offsets", "cit_sources")
            ]
            xy = field_layout(*lists, progress=_reporter(build, started, progress, n))
            del lists
            index_write.save_field_xy(build, xy)
        except BaseException:
            index_write.clear_field_progress(build)
            raise
        finally:
            os.close(lock)
    finally:
        os.close(pin)
    return True


def _reporter(build: Path, started: float, bar: bool, n: int):
    """What the layout tells its progress to: the progress file (every ``PROGRESS_EVERY`` seconds) and a bar."""
    from tqdm import tqdm

    shown = tqdm(total=100, desc=f"map of the field ({n:,} papers)", unit="%", disable=not bar, mininterval=0.5)
    last = [0.0]

    def told(share: float) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or share >= 1.0:
            last[0] = now
            index_write.save_field_progress(build, share, started)
        shown.update(round(share * 100) - shown.n)
        if share >= 1.0:
            shown.close()

    return told


def start(folder: str | Path) -> subprocess.Popen | None:
    """Start a background process making the field map of the build ``folder`` serves, if it has none and no
    process is making it (``citemap field-map``, at a lower priority); returns it, or None."""
    try:
        build = builds.served(Path(folder).resolve())
    except DatasetError:
        return None
    if index.read_index_meta(build) is None or has_map(build) or index.read_field_progress(build) is not None:
        return None
    with contextlib.suppress(OSError):
        if not os.access(build / index.INDEX_DIR, os.W_OK):
            return None  # a read-only host: the field view says how to make it
    return subprocess.Popen(
        [sys.executable, "-m", "dashboard", "field-map", "--data", str(folder), "--quiet", "--background"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        start_new_session=True,  # not stopped with the server's terminal: the map is finished either way
    )


def background() -> None:
    """Lower this process's priority (a map made beside a server)."""
    with contextlib.suppress(OSError):
        os.nice(BACKGROUND_NICE)
