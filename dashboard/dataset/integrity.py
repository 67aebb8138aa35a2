"""Checksums of a dataset's files: recorded in ``dataset.json`` (``files``) when a dataset is written, checked at
start-up (:func:`verify`, through ``Store.load``) and by ``citemap verify``. A build whose files changed after it
was written (a disk error, a partial copy, a hand edit) is refused with the file named, before anything serves it.

xxHash's XXH3-128 over each file, read ``READ_BYTES`` at a time: at about memory speed, so that checking adds
little to start-up, even for a big dataset (bench/startup.py measures it). Not through a memory map: its pages
stay resident while it is open (at an import's end, the whole of papers.arrow).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import xxhash

from dashboard.errors import DatasetError

FILES_KEY = "files"
ALGORITHM = "xxh3_128"
HASH_THREADS = min(4, os.cpu_count() or 1)
READ_BYTES = 1 << 22


def digest(path: Path) -> str:
    h = xxhash.xxh3_128()
    buf = bytearray(READ_BYTES)
    view = memoryview(buf)
    with open(path, "rb") as f:
        while got := f.readinto(buf):
            h.update(view[:got])
    return h.hexdigest()


def record(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    """``{relative path: {"size": bytes, "xxh3_128": hex}}`` of every file under ``folder`` but ``skip``."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if rel not in skip:
            out[rel] = {"size": path.stat().st_size, ALGORITHM: digest(path)}
    return out


def recorded_files(meta: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The sizes and checksums ``meta`` (a dataset.json) records, ``{}`` if none (an older citemap wrote it)."""
    recorded = meta.get(FILES_KEY) or {}
    if not isinstance(recorded, dict):
        raise DatasetError(f"{folder / 'dataset.json'}: files is not an object of sizes and checksums")
    return recorded


def problems(folder: Path, recorded: dict[str, Any]) -> list[str]:
    """What differs from ``recorded``, one message per file naming it: missing, another size, another checksum.
    Files are hashed in parallel threads (xxhash releases the GIL: the threads hash at once, not in turn)."""
    found: list[str | None] = []
    to_hash: list[tuple[int, Path, Any]] = []
    for rel, want in recorded.items():
        path = folder / rel
        if not isinstance(want, dict) or "size" not in want:
            found.append(f"{folder / 'dataset.json'}: files.{rel} is not a size and a checksum")
        elif not path.is_file():
            found.append(f"{path}: missing")
        elif path.stat().st_size != want["size"]:
            found.append(f"{path}: {path.stat().st_size:,} bytes where {want['size']:,} were written")
        else:
            to_hash.append((len(found), path, want.get(ALGORITHM)))
            found.append(None)
    with ThreadPoolExecutor(max_workers=HASH_THREADS) as pool:
        digests = pool.map(digest, [path for _, path, _ in to_hash])
        for (at, path, want), got in zip(to_hash, digests, strict=True):
            if got != want:
                found[at] = f"{path}: its content changed after it was written (checksum differs from dataset.json)"
    return [f for f in found if f is not None]


def fix_hint(meta: dict[str, Any], folder: Path) -> str:
    """The command that rebuilds a dataset: the one that built it (``built_with``) or its general form."""
    built = meta.get("built_with")
    return f"rebuild it with: {built}" if built else f"rebuild it with: citemap import FORMAT PATHS --out {folder}"
