"""A visitor's own library (BibTeX, RIS, Web of Science, CSL-JSON, or citemap's JSON export) matched against the
papers of a dataset.

``read_library(name, data)`` decodes a file (:mod:`dashboard.view.library_text`: a byte-order mark, JabRef's
``% Encoding:`` line, UTF-8, else the legacy encoding it was written in) and reads its entries
(:mod:`dashboard.view.library_formats`: bibtexparser, rispy, JSON) into :class:`Reference` s, skipping the entries
it cannot read and saying where they are. ``match(store, refs)`` finds the dataset's papers among them: by DOI
(also from a link that carries one), else by arXiv id (an ``eprint``, an arXiv DOI, an ``arxiv.org`` link, an
``arXiv:ID`` in the journal or a note), else by the citemap id that citemap's own exports write (BibTeX
``citemapid``, or ``note = {citemap id X}`` in older exports; RIS ``ID``; JSON ``id``), else by normalised title
with years at most one apart. Nothing is stored: the page keeps the matched ids in the visitor's browser. Knows
nothing of Dash.

A file that cannot be read at all is a :class:`LibraryError` naming the file, and where known the line and the
field; one that is empty, holds no entry, is too big or holds too many entries is refused the same way (the page
then keeps the library it had).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dashboard.dataset.keys import normalise_title
from dashboard.dataset.store import Store
from dashboard.view.library_formats import (
    READERS,
    LibraryError,
    Reading,
    Reference,
    Skip,
    detect_format,
)
from dashboard.view.library_text import UndecodableError, decode

__all__ = ["LibraryError", "Reading", "Reference", "Skip", "find", "match", "match_file", "read_library"]

MAX_BYTES = 2 * 1024 * 1024  # a library file
MAX_ENTRIES = 5000
MAX_LOG = 40  # skipped entries an answer names one by one; it counts them all


def too_large(name: str) -> str:
    """What refuses the file ``name`` when it is over MAX_BYTES, said before it is read whole."""
    return f"{name} is larger than {MAX_BYTES / 2**20:g} MiB, the most this server reads"


@dataclass
class Match:
    ids: list[str]  # dataset paper ids, in library order, without repeats
    entries: int  # entries read
    matched: int  # entries that found a paper


def read_library(name: str, data: bytes) -> Reading:
    """The references of a library file (``name`` is only for messages and the format), the entries skipped and
    the encoding it was read in."""
    name = (name or "library").replace("\n", " ")[:120]
    if len(data) > MAX_BYTES:
        raise LibraryError(f"{name}: {len(data):,} bytes; a library file may have at most {MAX_BYTES:,}")
    try:
        text, encoding = decode(data)
    except UndecodableError as e:
        raise LibraryError(f"{name}, line {e.line}: not text in UTF-8 nor in another encoding found") from e
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # old Mac files end lines with CR alone
    if not text.strip(" \t\n\f\v\ufeff"):  # nothing but blank lines (other spaces are text of some kind)
        raise LibraryError(f"{name}: the file is empty")
    reading = READERS[detect_format(name, text)](name, text)
    if not reading.refs:  # each reader says why where it can; no library is ever read as empty
        raise LibraryError(f"{name}: no entries found")
    if len(reading.refs) > MAX_ENTRIES:
        raise LibraryError(f"{name}: {len(reading.refs):,} entries; a library may have at most {MAX_ENTRIES:,}")
    reading.encoding = encoding
    return reading


def find(store: Store, ref: Reference) -> int | None:
    """The dataset row a reference names, or None."""
    if ref.doi is not None and (row := store.row_by_doi(ref.doi)) is not None:
        return row
    for key in (ref.arxiv, ref.citemap_id):
        if key is not None and (row := store.row(key)) is not None:
            return row
    if ref.title is None:
        return None
    want = normalise_title(ref.title)
    if not want:
        return None
    for row in store.search(ref.title, 20):
        if normalise_title(store.titles([row])[0]) != want:
            continue
        year = int(store.year[row])
        if ref.year is None or year < 0 or abs(year - ref.year) <= 1:
            return row
    return None


def skip_log(skipped: list[Skip]) -> list[dict[str, Any]]:
    """The first MAX_LOG skipped entries as the page lists them: ``{"line", "entry", "reason"}``."""
    return [{"line": s.line, "entry": s.entry, "reason": s.reason} for s in skipped[:MAX_LOG]]


def summary(name: str, entries: int, matched: int) -> str:
    """What the page says of a library read: "mine.bib: 3 of 4 entries are papers of this dataset.", in the
    singular where a count is one ("1 of 1 entry is a paper ...", "1 of 4 entries is a paper ...")."""
    noun = "entry" if entries == 1 else "entries"
    verb = "is a paper" if matched == 1 or entries == 1 else "are papers"
    return f"{name}: {matched:,} of {entries:,} {noun} {verb} of this dataset."


def match_file(store: Store, name: str, data: bytes) -> dict[str, Any]:
    """A library file's answer as the page keeps it: ``{"name", "format", "encoding", "entries", "matched",
    "ids", "skipped", "log", "summary"}``: ``entries`` read, ``skipped`` the count of entries that could not be
    read and ``log`` the first of them, each with its line, its key (where known) and why; ``summary`` the sentence
    the page shows (:func:`summary`)."""
    reading = read_library(name, data)
    found = match(store, reading.refs)
    return {
        "name": name,
        "format": reading.format,
        "encoding": reading.encoding,
        "entries": found.entries,
        "matched": found.matched,
        "ids": found.ids,
        "skipped": len(reading.skipped),
        "log": skip_log(reading.skipped),
        "summary": summary(name, found.entries, found.matched),
    }


def match(store: Store, refs: list[Reference]) -> Match:
    """The dataset's papers among ``refs``."""
    rows: dict[int, None] = {}
    matched = 0
    for ref in refs:
        row = find(store, ref)
        if row is not None:
            matched += 1
            rows.setdefault(row)
    return Match(ids=store.ids(list(rows)), entries=len(refs), matched=matched)
