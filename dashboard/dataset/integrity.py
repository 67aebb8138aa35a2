"""Checksums of a dataset's files: recorded in ``dataset.json`` (``files``) when a dataset is written, checked at
start-up (:func:`problems`, through ``Store.load``) and by ``citemap verify``. A build whose files changed after it
was written (a disk error, a partial copy, a hand edit) is refused with the file named, before anything serves it.

``dataset.json`` itself is covered by a checksum it records of its own content (``meta_checksum``): every other field,
as canonical JSON (:func:`canonical`). So an edit of what it says (a default seed, a count, a recorded checksum) is
refused like a changed file, while the same content written another way (indented otherwise, keys in another
order, characters escaped or not) is the same content and passes.

xxHash's XXH3-128 over each file, read ``READ_BYTES`` at a time: at about memory speed, so that checking adds
little to start-up, even for a big dataset (bench/startup.py measures it). Not through a memory map: its pages
stay resident while it is open (at an import's end, the whole of papers.arrow).
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import xxhash

from dashboard.dataset.format import META_FILE
from dashboard.errors import DatasetError

FILES_KEY = "files"
META_KEY = "meta_checksum"  # dataset.json's checksum of its own other fields
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


def canonical(meta: dict[str, Any]) -> bytes:
    """What ``meta_checksum`` covers: every field of ``meta`` (a dataset.json) but that one, as canonical JSON (keys
    sorted, no spaces, UTF-8 unescaped): the same bytes for the same content however the file lays it out."""
    content = {k: v for k, v in meta.items() if k != META_KEY}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def seal(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` with its own checksum added, as dataset.json is written (its last field)."""
    return {**meta, META_KEY: {ALGORITHM: xxhash.xxh3_128_hexdigest(canonical(meta))}}


def records_meta_checksum(meta: dict[str, Any], folder: Path) -> bool:
    """Whether ``meta`` (the dataset.json of the build ``folder``) records its own checksum; False if an older citemap
    wrote it without one."""
    recorded = meta.get(META_KEY)
    if recorded is None:
        return False
    if not isinstance(recorded, dict) or not isinstance(recorded.get(ALGORITHM), str):
        raise DatasetError(f"{folder / META_FILE}: {META_KEY} is not an object with an {ALGORITHM} checksum")
    return True


def meta_problem(meta: dict[str, Any], folder: Path) -> str | None:
    """The message naming dataset.json if its content is not what it was when written (its own checksum differs),
    else None (also when it records none: :func:`records_meta_checksum` tells)."""
    if not records_meta_checksum(meta, folder):
        return None
    if xxhash.xxh3_128_hexdigest(canonical(meta)) != meta[META_KEY][ALGORITHM]:
        return (
            f"{folder / META_FILE}: its content changed after it was written (checksum differs from the one it records)"
        )
    return None


def recorded_files(meta: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The sizes and checksums ``meta`` (a dataset.json) records, ``{}`` if none (an older citemap wrote it)."""
    recorded = meta.get(FILES_KEY) or {}
    if not isinstance(recorded, dict):
        raise DatasetError(f"{folder / META_FILE}: files is not an object of sizes and checksums")
    return recorded


def problems(folder: Path, recorded: dict[str, Any]) -> list[str]:
    """What differs from ``recorded``, one message per file naming it: missing, another size, another checksum.
    Files are hashed in parallel threads (xxhash releases the GIL: the threads hash at once, not in turn)."""
    found: list[str | None] = []
    to_hash: list[tuple[int, Path, Any]] = []
    for rel, want in recorded.items():
        path = folder / rel
        if not isinstance(want, dict) or "size" not in want:
            found.append(f"{folder / META_FILE}: files.{rel} is not a size and a checksum")
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
