"""A visitor's own library (BibTeX, RIS or CSL-JSON) matched against the papers of a dataset.

``read_library(name, data)`` parses a file with well-kept libraries (bibtexparser, rispy; CSL-JSON is
JSON) into :class:`Reference` s; ``match(store, refs)`` finds the dataset's papers among them: by DOI,
else by arXiv id (an ``eprint``, an arXiv DOI or an ``arxiv.org`` link), else by the citemap id that
citemap's own BibTeX export writes in ``note``, else by normalised title with years at most one apart.
Nothing is stored: the page keeps the matched ids in the visitor's browser. Knows nothing of Dash.

A file that cannot be read is a :class:`LibraryError` naming the file, and where known the line or
entry and the field; one that is too big or holds too many entries is refused the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from dashboard.dataset.keys import clean_doi, normalise_title
from dashboard.dataset.store import Store

MAX_BYTES = 2 * 1024 * 1024  # a library file
MAX_ENTRIES = 5000
ARXIV_IN_TEXT = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf)/|10\.48550/arxiv\.|arxiv:\s*)(?P<id>\d{4}\.\d{4,5})(?:v\d+)?", re.IGNORECASE
)
ARXIV_BARE = re.compile(r"^\s*(?:arxiv:)?(?P<id>\d{4}\.\d{4,5})(?:v\d+)?\s*$", re.IGNORECASE)
CITEMAP_NOTE = re.compile(r"citemap id (?P<id>[A-Za-z0-9._~\-]{1,128})")
YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d|21\d\d)\b")


def too_large(name: str) -> str:
    """What refuses the file ``name`` when it is over MAX_BYTES, said before it is read whole."""
    return f"{name} is larger than {MAX_BYTES / 2**20:g} MiB, the most this server reads"


class LibraryError(ValueError):
    """A library file that cannot be used; the message names the file and where."""


@dataclass(frozen=True)
class Reference:
    """What one library entry says that can identify a paper."""

    title: str | None = None
    year: int | None = None
    doi: str | None = None
    arxiv: str | None = None
    citemap_id: str | None = None


@dataclass
class Match:
    ids: list[str]  # dataset paper ids, in library order, without repeats
    entries: int  # entries read
    matched: int  # entries that found a paper


def _year(text: Any) -> int | None:
    m = YEAR.search(str(text)) if text is not None else None
    return int(m[1]) if m else None


def _arxiv(*texts: Any) -> str | None:
    for text in texts:
        if isinstance(text, str) and (m := ARXIV_IN_TEXT.search(text) or ARXIV_BARE.match(text)):
            return m["id"]
    return None


def detect_format(name: str, text: str) -> str:
    """``bibtex``, ``ris`` or ``csl-json``, by the file's extension, else by its first characters."""
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    by_ext = {"bib": "bibtex", "bibtex": "bibtex", "ris": "ris", "json": "csl-json"}
    if ext in by_ext:
        return by_ext[ext]
    head = text.lstrip()[:20]
    if head.startswith(("[", "{")):
        return "csl-json"
    if head.startswith("TY  -"):
        return "ris"
    if head.startswith(("@", "%")):
        return "bibtex"
    raise LibraryError(f"{name}: not a BibTeX (.bib), RIS (.ris) or CSL-JSON (.json) file")


def read_bibtex(name: str, text: str) -> list[Reference]:
    import bibtexparser

    lib = bibtexparser.parse_string(text)
    failed = [b for b in lib.failed_blocks if type(b).__name__ != "DuplicateBlockKeyBlock"]
    if failed:
        block = failed[0]
        reason = getattr(block.error, "abort_reason", None) or str(block.error or "") or "syntax error"
        raise LibraryError(f"{name}, line {block.start_line + 1}: not a valid BibTeX entry ({reason.strip()[:160]})")
    refs = []
    for entry in lib.entries:
        f = {k.lower(): str(v.value) for k, v in entry.fields_dict.items()}
        eprint = f.get("eprint") if f.get("archiveprefix", "arxiv").lower() == "arxiv" else None
        note = CITEMAP_NOTE.search(f.get("note", ""))
        refs.append(
            Reference(
                title=_title(_latex(f.get("title"))),
                year=_year(f.get("year") or f.get("date")),
                doi=clean_doi(f.get("doi")),
                arxiv=_arxiv(eprint, f.get("doi"), f.get("url")),
                citemap_id=note["id"] if note else None,
            )
        )
    if not refs and text.strip():
        raise LibraryError(f"{name}: no BibTeX entries (@article{{...}}, @misc{{...}}, ...) found")
    return refs


def read_ris(name: str, text: str) -> list[Reference]:
    import rispy

    open_line = None
    for no, line in enumerate(text.splitlines(), start=1):
        tag = line[:6]
        if tag.startswith("TY  -"):
            if open_line is not None:
                raise LibraryError(
                    f"{name}, line {no}: a record starts before the one of line {open_line} ends (field 'ER')"
                )
            open_line = no
        elif tag.startswith("ER  -"):
            open_line = None
    if open_line is not None:
        raise LibraryError(f"{name}, line {open_line}: this record has no end (field 'ER')")
    try:
        records = rispy.loads(text)
    except (ValueError, KeyError, OSError) as e:
        raise LibraryError(f"{name}: not a valid RIS file ({str(e)[:120]})") from e
    if not records and text.strip():
        raise LibraryError(f"{name}, line 1: no RIS records (field 'TY')")
    refs = []
    for r in records:
        urls = r.get("urls") or []
        refs.append(
            Reference(
                title=_title(r.get("title") or r.get("primary_title")),
                year=_year(r.get("year") or r.get("publication_year") or r.get("date")),
                doi=clean_doi(r.get("doi")),
                arxiv=_arxiv(r.get("doi"), *(u for u in urls if isinstance(u, str))),
            )
        )
    return refs


def read_csl_json(name: str, text: str) -> list[Reference]:
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as e:
        raise LibraryError(f"{name}: not valid JSON ({str(e)[:120]})") from e
    items = data if isinstance(data, list) else data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise LibraryError(f"{name}: CSL-JSON is a list of items (or an object with 'items')")
    refs = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise LibraryError(f"{name}, entry {i}: expected an object, found {type(item).__name__}")
        title = item.get("title")
        if title is not None and not isinstance(title, str):
            raise LibraryError(f"{name}, entry {i}, field 'title': expected text")
        refs.append(
            Reference(
                title=_title(title),
                year=_csl_year(item.get("issued"), name, i),
                doi=clean_doi(item.get("DOI")),
                arxiv=_arxiv(item.get("DOI"), item.get("URL"), item.get("number")),
            )
        )
    return refs


def _csl_year(issued: Any, name: str, i: int) -> int | None:
    if issued is None:
        return None
    if not isinstance(issued, dict):
        raise LibraryError(f"{name}, entry {i}, field 'issued': expected an object with 'date-parts'")
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return _year(parts[0][0])
    return _year(issued.get("raw") or issued.get("literal"))


def _latex(value: str | None) -> str | None:
    """LaTeX in a BibTeX title (``Schr{\\"o}dinger``) as text; only where there is some (decoding is slow)."""
    if value is None or "\\" not in value:
        return value
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text().latex_to_text(value)


def _title(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.replace("{", "").replace("}", "").split())
    return text or None


READERS = {"bibtex": read_bibtex, "ris": read_ris, "csl-json": read_csl_json}


def read_library(name: str, data: bytes) -> list[Reference]:
    """The references of a library file (``name`` is only for messages and the format)."""
    name = (name or "library").replace("\n", " ")[:120]
    if len(data) > MAX_BYTES:
        raise LibraryError(f"{name}: {len(data):,} bytes; a library file may have at most {MAX_BYTES:,}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise LibraryError(f"{name}, line {line}: not UTF-8 text") from e
    refs = READERS[detect_format(name, text)](name, text)
    if len(refs) > MAX_ENTRIES:
        raise LibraryError(f"{name}: {len(refs):,} entries; a library may have at most {MAX_ENTRIES:,}")
    return refs


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


def match_file(store: Store, name: str, data: bytes) -> dict[str, Any]:
    """A library file's answer as the page keeps it: ``{"name", "entries", "matched", "ids"}``."""
    found = match(store, read_library(name, data))
    return {"name": name, "entries": found.entries, "matched": found.matched, "ids": found.ids}


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
