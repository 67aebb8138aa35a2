"""The default dataset: built from the inputs the project ships (``data/``) the first time it is needed.

The inputs are the three saved seed pages, arxiv-2023 and the papers' common names (``data/README.md``); the build
is what ``citemap import mlsanity data/seed-pages/*.txt --merge arxiv2023:data/arxiv-2023 --names data/names.csv``
writes, plus the stories of ``data/stories/``. It goes into a cache folder, ``$CITEMAP_CACHE`` (else
``$XDG_CACHE_HOME/citemap``, else ``~/.cache/citemap``), under a name that hashes the inputs and the code that
writes a dataset: the same inputs and code give the same folder (and the same build id, the import being
deterministic), so later starts reuse it, and a changed input or importer builds a new one. Two processes that
need it at once build it once (a file lock).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from dashboard.dataset.format import read_meta
from dashboard.errors import DatasetError
from dashboard.resources import INPUTS, PACKAGE

SEED_PAGES = "seed-pages"
ARXIV2023 = "arxiv-2023"
STORIES = "stories"
NAMES = "names.csv"  # common names of papers (resnet -> 1512.03385), kept in the search index
# the code whose output is the dataset: a change to any of it builds the default dataset anew
WRITERS = ("errors.py", "importers/*.py", "dataset/*.py", "graph/field_layout.py")


def cache_root() -> Path:
    """Where built default datasets are kept."""
    if os.environ.get("CITEMAP_CACHE"):
        return Path(os.environ["CITEMAP_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "citemap"


def seed_pages(inputs: Path = INPUTS) -> list[Path]:
    return sorted((inputs / SEED_PAGES).glob("*.txt"))


def input_files(inputs: Path = INPUTS) -> list[Path]:
    """Every file the default dataset is made of, in a fixed order."""
    files = [
        *seed_pages(inputs),
        *sorted((inputs / ARXIV2023).glob("*.csv.gz")),
        *sorted((inputs / "ogbn-arxiv-meta").glob("*.csv.gz")),
        *sorted((inputs / STORIES).glob("*.json")),
        inputs / NAMES,
    ]
    if not seed_pages(inputs) or not (inputs / ARXIV2023).is_dir() or not (inputs / NAMES).is_file():
        raise DatasetError(f"{inputs}: the default dataset's inputs are missing (seed-pages/, arxiv-2023/, {NAMES})")
    return files


def recipe_key(files: list[Path]) -> str:
    """A hash of ``files`` (names and bytes) and of the code that writes a dataset."""
    h = hashlib.blake2b(digest_size=8)
    code = sorted(p for pattern in WRITERS for p in PACKAGE.glob(pattern))
    for f in [*files, *code]:
        h.update(f.name.encode() + b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()


def import_command(inputs: Path = INPUTS) -> list[str]:
    """The import that makes the default dataset, as a command a reader can run from the repository's root."""
    return [
        "citemap",
        "import",
        "mlsanity",
        *(f"data/{SEED_PAGES}/{p.name}" for p in seed_pages(inputs)),
        "--merge",
        f"arxiv2023:data/{ARXIV2023}",
        "--names",
        f"data/{NAMES}",
        "--out",
        "DIR",
    ]


def built(folder: Path) -> bool:
    try:
        return bool(read_meta(folder)["counts"]["papers"])
    except (DatasetError, KeyError, TypeError):
        return False


def build(out: Path, inputs: Path = INPUTS, progress: bool = True) -> Path:
    """Import the default dataset from ``inputs`` into the dataset folder ``out`` (a new build of it), with its
    stories beside it; returns ``out``."""
    from dashboard.importers import run_import

    stories = out / STORIES  # first: the folder counts as built once the import has published its build
    shutil.rmtree(stories, ignore_errors=True)
    shutil.copytree(inputs / STORIES, stories)
    run_import(
        "mlsanity",
        seed_pages(inputs),
        out,
        argv=import_command(inputs),
        merge=[("arxiv2023", [inputs / ARXIV2023])],
        names=inputs / NAMES,
        progress=progress,
        extra_meta={
            "source": f"saved mlsanity.com paper pages: {', '.join(p.name for p in seed_pages(inputs))}; {ARXIV2023}"
        },
    )
    return out


def cached(name: str, files: list[Path], make: Callable[[Path], object], note: str = "") -> Path:
    """The dataset folder ``name``-KEY in the cache, KEY hashing ``files`` and the code that writes a dataset;
    ``make(folder)`` writes it there first if it is not built yet (``note`` is then printed)."""
    folder = cache_root() / f"{name}-{recipe_key(files)}"
    if built(folder):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building it: wait, then use what it built
        if not built(folder):
            if note:
                print(note.format(folder=folder), file=sys.stderr, flush=True)
            make(folder)
    return folder


def default_data(progress: bool | None = None) -> Path:
    """The default dataset's folder in the cache, built first if it is not there yet."""
    show = sys.stderr.isatty() if progress is None else progress
    return cached(
        "default",
        input_files(),
        lambda out: build(out, progress=show),
        f"citemap: building the default dataset from {INPUTS} into {{folder}} (once; later starts reuse it)",
    )
