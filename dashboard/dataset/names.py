"""Common names of papers ("ResNet", "word2vec", "GPT-3"): a table an import is given (``citemap import ...
--names FILE``; the default dataset's is ``data/names.csv``), kept in the build's search index as table ``names``
(key, name, row), so that a search for a paper's name finds that paper first.

The table is a CSV file with the header ``name,id`` and one name a line: the name as people write it, and the id of
the paper it names in any form a link takes (``1512.03385``, ``arXiv:1512.03385``, a DOI). A name is matched
whatever its case, spaces and punctuation (:func:`name_key`: "GPT-3", "gpt3" and "Gpt 3" are one name). A line
that cannot be read, a name said twice, or an id that names no paper of the dataset stops the import, naming the
file, the line and the field.
"""

from __future__ import annotations

import csv
import hashlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from dashboard.dataset import index
from dashboard.dataset.keys import normalise_title
from dashboard.errors import InputError

HEADER = ["name", "id"]
MAX_NAME = 100  # characters of a name, at most: a name is a word or a few, not a title


def name_key(text: str) -> str:
    """What a name is matched by: its letters and digits, lower case, accents aside, nothing between them
    ("GPT-3" -> "gpt3", "U-Net" -> "unet", "Llama 2" -> "llama2")."""
    return normalise_title(text).replace(" ", "") if isinstance(text, str) else ""


@dataclass(frozen=True)
class Names:
    """A table of names as read (:func:`read_names`): its file, and each name's line, name and id as written."""

    path: Path
    lines: list[tuple[int, str, str]]

    def digest(self) -> bytes:
        """A hash of the names and the ids they name: part of the build id of a dataset that keeps them."""
        h = hashlib.blake2b(digest_size=12)
        for _, name, paper_id in self.lines:
            h.update(f"{name}\0{paper_id}\0".encode())
        return h.digest()


def read_names(path: str | Path) -> Names:
    """The names of a table (see the module's doc), each checked but for its id (which :func:`write_names` looks
    up in the dataset); an InputError names the file, the line and the field of the first line that is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, f"cannot be read as UTF-8 text ({e})") from e
    rows = csv.reader(text.splitlines())
    header = next(rows, None)
    if header is None or [h.strip().lower() for h in header] != HEADER:
        raise InputError(path, f"the first line must be the header {','.join(HEADER)}, found {header!r}", line=1)
    lines: list[tuple[int, str, str]] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        if not row or not "".join(row).strip():
            continue  # a blank line
        if len(row) != len(HEADER):
            field = HEADER[1] if len(row) < len(HEADER) else None
            raise InputError(
                path, f"expected {len(HEADER)} fields (name,id), found {len(row)}", line=number, field=field
            )
        name, paper_id = (cell.strip() for cell in row)
        key = name_key(name)
        if not key or len(name) > MAX_NAME:
            raise InputError(
                path,
                f"a name needs a letter or digit and at most {MAX_NAME} characters, found {name!r}",
                line=number,
                field="name",
            )
        if key in seen:
            raise InputError(
                path,
                f"{name!r} is the name of line {seen[key]} once case and punctuation are set aside",
                line=number,
                field="name",
            )
        if not paper_id:
            raise InputError(path, "no id", line=number, field="id")
        seen[key] = number
        lines.append((number, name, paper_id))
    return Names(path, lines)


def write_names(build: Path, names: Names) -> None:
    """Table ``names`` (key, name, row) in the search index of ``build`` (a build being written, its index done):
    each name's key (:func:`name_key`) and the row of the paper its id names; an id naming no paper of the build is
    an InputError naming the table's file, line and field."""
    arrays = index.load_arrays(build)
    rows = []
    for number, name, paper_id in names.lines:
        row = index.resolve_row(arrays, paper_id)
        if row is None:
            raise InputError(names.path, f"no paper of the dataset has the id {paper_id!r}", line=number, field="id")
        rows.append((name_key(name), name, row))
    con = sqlite3.connect(build / index.INDEX_DIR / "search.sqlite")
    try:
        con.execute("CREATE TABLE names(key TEXT PRIMARY KEY, name TEXT NOT NULL, row INTEGER NOT NULL) WITHOUT ROWID")
        con.executemany("INSERT INTO names VALUES (?, ?, ?)", rows)
        con.commit()
    finally:
        con.close()
