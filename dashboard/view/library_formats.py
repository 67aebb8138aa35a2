"""The entries of a library's text: BibTeX (bibtexparser), RIS and Web of Science (rispy), CSL-JSON.

Each reader returns a :class:`Reading`: the :class:`Reference` s of the entries it could read, and a :class:`Skip`
for each entry it could not (its line, its key where known, why), the way a reference manager's import log lists
them. A file in which no entry can be read is a :class:`LibraryError` naming the file, the line and, where known,
the field. Knows nothing of Dash or of datasets.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from dashboard.dataset import id_forms
from dashboard.dataset.keys import clean_doi

YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d|21\d\d)\b")
# an arXiv id inside other text: Google Scholar's journal "arXiv preprint arXiv:1706.03762", Zotero's
# "arXiv:1706.03762 [cs]" note; what it finds is read as an id by id_forms
ARXIV_IN_TEXT = re.compile(r"arxiv:\s*[\w.\-/]+", re.IGNORECASE)
CITEMAP_NOTE = re.compile(r"citemap id (?P<id>[A-Za-z0-9._~\-]{1,128})")  # what older citemap exports wrote
# an entry's key: the word after its opening brace, unless that is a field's name (an entry without a key)
ENTRY_KEY = re.compile(r"@\s*\w+\s*[{(]\s*(?P<key>[^,\s{}()=\"]{1,80})(?![^,\s{}()=\"])(?!\s*=)")
MAX_REASON = 160  # characters of a reason kept

# bibtexparser logs a warning for every entry it cannot parse: a visitor's file, not the server's concern
logging.getLogger("bibtexparser.splitter").setLevel(logging.CRITICAL)


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


@dataclass(frozen=True)
class Skip:
    """An entry that could not be read: the line it starts on (1 is the first), its key where known, and why."""

    line: int | None
    entry: str | None
    reason: str


@dataclass
class Reading:
    """What a file gave: the references read, the entries skipped, the format and the encoding it was read in."""

    refs: list[Reference]
    skipped: list[Skip] = field(default_factory=list)
    format: str = ""
    encoding: str = ""


def _reason(text: object) -> str:
    return " ".join(str(text).split())[:MAX_REASON] or "syntax error"


def _year(text: Any) -> int | None:
    m = YEAR.search(str(text)) if text is not None else None
    return int(m[1]) if m else None


def _texts(values: Iterable[Any]) -> Iterable[str]:
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


def arxiv_of(*values: Any) -> str | None:
    """The arXiv id the first of ``values`` that names one names (an id, ``arXiv:ID``, an arxiv.org link, an arXiv
    DOI, or text holding ``arXiv:ID``), as dataset ids spell it; lists are read item by item."""
    texts = list(_texts(values))
    for text in texts:
        for kind, key in id_forms.candidates(text):
            if kind == "arxiv":
                return key
    for text in texts:
        for m in ARXIV_IN_TEXT.finditer(text):
            for kind, key in id_forms.candidates(m[0].rstrip(".,;)")):
                if kind == "arxiv":
                    return key
    return None


def doi_of(*values: Any) -> str | None:
    """The DOI the first of ``values`` that names one names (a DOI, a resolver's or a publisher's link)."""
    for text in _texts(values):
        if doi := clean_doi(text):
            return doi
    return None


def title_of(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.replace("{", "").replace("}", "").split())
    return text or None


def _latex(value: str | None) -> str | None:
    """LaTeX in a BibTeX title (``Schr{\\"o}dinger``) as text; only where there is some (decoding is slow)."""
    if value is None or "\\" not in value:
        return value
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text().latex_to_text(value)


# BibTeX


def _bibtex_fields(entry: Any) -> dict[str, str]:
    fields: dict[str, str] = {}
    for f in entry.fields:  # a duplicated field: its first value, as BibTeX itself reads it
        fields.setdefault(f.key.lower(), str(f.value))
    return fields


def bibtex_reference(fields: dict[str, str]) -> Reference:
    """What a BibTeX entry's fields (keys in lower case) say of its paper."""
    archive = (fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv").lower()
    eprint = fields.get("eprint") if archive == "arxiv" else None
    note = CITEMAP_NOTE.search(fields.get("note", ""))
    citemap_id = (fields.get("citemapid") or "").strip() or (note["id"] if note else None)
    urls = [fields.get(k) for k in ("url", "howpublished", "link")]
    return Reference(
        title=title_of(_latex(fields.get("title"))),
        year=_year(fields.get("year") or fields.get("date")),
        doi=doi_of(fields.get("doi"), *urls),
        arxiv=arxiv_of(eprint, fields.get("arxivid"), fields.get("doi"), *urls, fields.get("journal")),
        citemap_id=citemap_id if citemap_id and id_forms.AS_TYPED.match(citemap_id) else None,
    )


# what bibtexparser says when a value runs on: into the next entry, or to the end of the file
VALUE_LEFT_OPEN = re.compile(r"Unexpected block start|end of file", re.IGNORECASE)
FIELD_START = re.compile(r"([\w:+.\-]+)\s*=\s*")


def unclosed_field(raw: str) -> str | None:
    """The field of a BibTeX entry whose value opens a brace that is never closed (``publisher = {Taylor {{\\&}
    Francis},``: the value then ends at the entry's last brace, and the entry never ends), or None."""
    depth, field_, open_field, closed_last = 0, None, None, None
    at, paren = 0, False  # paren: the entry is delimited by ( ), not { }
    while at < len(raw):
        c = raw[at]
        if depth == 1 and (m := FIELD_START.match(raw, at)) and raw[at - 1 : at] in " \t\n,{(":
            field_, closed_last, at = m[1].lower(), None, m.end()
            continue
        if c == "\\":
            at += 2  # an escaped character: \{ is a brace of the text, not of the structure
            continue
        if c == "{" or (c == "(" and depth == 0):
            paren = paren or (c == "(" and depth == 0)
            depth += 1
            if depth == 2:
                open_field = field_
        elif (c == "}" and not (paren and depth == 1)) or (c == ")" and paren and depth == 1):
            depth -= 1
            if depth == 1:
                open_field, closed_last = None, field_
        at += 1
    if depth >= 2:
        return open_field
    return closed_last if depth == 1 else None  # the entry never ends: the value that took its last brace


def read_bibtex(name: str, text: str) -> Reading:
    import bibtexparser

    lib = bibtexparser.parse_string(text)
    entries = [(e.start_line, e) for e in lib.entries]
    skipped: list[Skip] = []
    for block in lib.failed_blocks:
        kept = getattr(block, "ignore_error_block", None)
        if kept is not None and type(kept).__name__ == "Entry":
            entries.append((block.start_line, kept))  # a repeated key or field: the entry itself is whole
            continue
        error = getattr(block, "error", None)
        reason = getattr(error, "abort_reason", None) or error or "syntax error"
        key = ENTRY_KEY.match(block.raw or "")
        field_ = unclosed_field(block.raw or "") if VALUE_LEFT_OPEN.search(str(reason)) else None
        reason = f"field '{field_}': {reason}" if field_ else reason
        skipped.append(Skip(block.start_line + 1, key["key"] if key else None, _reason(reason)))
    entries.sort(key=lambda pair: pair[0])
    refs = [bibtex_reference(_bibtex_fields(e)) for _, e in entries]
    if not refs and skipped:
        first = skipped[0]
        raise LibraryError(f"{name}, line {first.line}: not a valid BibTeX entry ({first.reason})")
    if not refs and text.strip(" \t\n\f\v"):  # an empty file is an empty library; other text is not BibTeX
        raise LibraryError(f"{name}: no BibTeX entries (@article{{...}}, @misc{{...}}, ...) found")
    return Reading(refs, skipped, "BibTeX")


# RIS and Web of Science: records split here, each parsed by rispy, so that one bad record costs only itself


@dataclass(frozen=True)
class Tagged:
    """A tagged line format: how a line's tag is found, the tags that open and close a record, rispy's parser."""

    name: str
    tag: re.Pattern[str]
    start: str
    parser: str


RIS = Tagged("RIS", re.compile(r"^\s*([A-Z][A-Z0-9])  -(?: |$)"), "TY", "RisParser")
WOS = Tagged("Web of Science", re.compile(r"^([A-Z][A-Z0-9])(?: |$)"), "PT", "WokParser")


def _records(text: str, fmt: Tagged) -> tuple[list[tuple[int, list[str]]], list[Skip]]:
    """The records of a tagged text, each with the line it starts on, and the skips of broken ones."""
    records: list[tuple[int, list[str]]] = []
    skipped: list[Skip] = []
    start: int | None = None  # line of the open record's first tag
    lines: list[str] = []
    fields = False  # the open record has a tag besides its type
    stray: int | None = None  # first tagged line outside any record
    for no, line in enumerate(text.split("\n"), start=1):
        m = fmt.tag.match(line)
        tag = m[1] if m else None
        if tag is not None:
            line = line.lstrip()  # rispy reads a tag only at the start of its line
        if tag == fmt.start:
            if start is not None and fields:
                skipped.append(Skip(start, None, f"the record does not end (field 'ER') before line {no}"))
                start = None
            if start is None:
                start, lines, fields, stray = no, [], False, None
            lines.append(line)
        elif tag == "ER":
            if start is not None:
                records.append((start, [*lines, line]))
            elif stray is not None:
                skipped.append(Skip(stray, None, f"a record without its type (field '{fmt.start}')"))
            start, stray = None, None
        elif start is not None:
            lines.append(line)
            fields = fields or tag is not None
        elif tag is not None and tag not in ("FN", "VR", "EF") and stray is None:
            stray = no
    if start is not None:
        skipped.append(Skip(start, None, "this record has no end (field 'ER')"))
    return records, skipped


def _ris_reference(r: dict[str, Any]) -> Reference:
    urls = [r.get(k) for k in ("urls", "url", "link_to_pdf", "file_attachments1")]
    notes = [r.get(k) for k in ("notes", "note", "custom3", "number", "accession_number")]
    return Reference(
        title=title_of(r.get("title") or r.get("primary_title") or r.get("document_title")),
        year=_year(r.get("year") or r.get("publication_year") or r.get("date") or r.get("publication_date")),
        doi=doi_of(r.get("doi"), *urls),
        arxiv=arxiv_of(r.get("doi"), *urls, *notes),
        citemap_id=_ris_id(r.get("id")),  # citemap's RIS export writes the paper's id there
    )


def _ris_id(value: Any) -> str | None:
    text = value.strip() if isinstance(value, str) else ""
    return text if id_forms.AS_TYPED.match(text) else None


def read_tagged(name: str, text: str, fmt: Tagged = RIS) -> Reading:
    import rispy

    parser = getattr(rispy, fmt.parser)
    records, skipped = _records(text, fmt)
    refs = []
    for start, lines in records:
        try:
            parsed = rispy.loads("\n".join(lines), implementation=parser)
        except Exception as e:  # rispy raises what its line handling meets; the record is skipped, the file read
            skipped.append(Skip(start, None, _reason(f"not a valid {fmt.name} record ({e})")))
            continue
        if not parsed:
            skipped.append(Skip(start, None, f"not a valid {fmt.name} record"))
            continue
        refs.append(_ris_reference(parsed[0]))
    skipped.sort(key=lambda s: s.line or 0)
    if not refs:
        if skipped:
            raise LibraryError(f"{name}, line {skipped[0].line}: {skipped[0].reason}")
        raise LibraryError(f"{name}, line 1: no {fmt.name} records (field '{fmt.start}')")
    return Reading(refs, skipped, fmt.name)


def read_ris(name: str, text: str) -> Reading:
    first = next((line for line in text.split("\n") if line.strip()), "")
    return read_tagged(name, text, WOS if re.match(r"^(?:FN|PT) ", first) else RIS)


# CSL-JSON


BETWEEN_ITEMS = re.compile(r"[\s,]*")


def _item_lines(text: str) -> list[int]:
    """The line each item of a top-level JSON array starts on (empty when the text is no array)."""
    start = len(text) - len(text.lstrip())
    if not text.startswith("[", start):
        return []
    decoder = json.JSONDecoder()
    lines, at, line, counted = [], start + 1, 1, 0
    while True:
        at = BETWEEN_ITEMS.match(text, at).end()
        if at >= len(text) or text[at] == "]":
            return lines
        line += text.count("\n", counted, at)
        counted = at
        lines.append(line)
        try:
            _, at = decoder.raw_decode(text, at)
        except ValueError:
            return lines


def _csl_year(issued: Any) -> int | None:
    if issued is None:
        return None
    if isinstance(issued, str | int):
        return _year(issued)
    if not isinstance(issued, dict):
        raise ValueError("field 'issued': expected an object with 'date-parts'")
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return _year(parts[0][0])
    return _year(issued.get("raw") or issued.get("literal"))


def _csl_reference(item: Any) -> Reference:
    if not isinstance(item, dict):
        raise ValueError(f"expected an object, found {type(item).__name__}")
    title = item.get("title")
    if title is not None and not isinstance(title, str):
        raise ValueError("field 'title': expected text")
    urls = [item.get("URL"), item.get("link")]
    return Reference(
        title=title_of(title),
        year=_csl_year(item.get("issued")),
        doi=doi_of(item.get("DOI"), *urls),
        arxiv=arxiv_of(item.get("DOI"), *urls, item.get("number"), item.get("archive_location"), item.get("note")),
    )


def read_csl_json(name: str, text: str) -> Reading:
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as e:
        raise LibraryError(f"{name}, line {e.lineno}: not valid JSON ({_reason(e.msg)})") from e
    lines: list[int] = []
    if isinstance(data, list):
        items, lines = data, _item_lines(text)
    elif isinstance(data, dict) and isinstance(data.get("items"), list):
        items = data["items"]
    elif isinstance(data, dict) and any(k in data for k in ("title", "DOI", "URL")):
        items, lines = [data], [1]  # one item, as DOI content negotiation answers
    else:
        raise LibraryError(
            f"{name}, line 1: CSL-JSON is a list of items, an object with 'items', or one item (with 'title' or 'DOI')"
        )
    refs, skipped = [], []
    for i, item in enumerate(items):
        try:
            refs.append(_csl_reference(item))
        except ValueError as e:
            key = item.get("id") if isinstance(item, dict) else None
            entry = str(key)[:80] if isinstance(key, str | int) and not isinstance(key, bool) else None
            line = lines[i] if i < len(lines) else None
            skipped.append(Skip(line, entry or (None if line else f"item {i + 1}"), _reason(e)))
    if not refs and skipped:
        first = skipped[0]
        where = ", ".join(
            [name, *([f"line {first.line}"] if first.line else []), *([first.entry] if first.entry else [])]
        )
        raise LibraryError(f"{where}: {first.reason}")
    return Reading(refs, skipped, "CSL-JSON")


READERS: dict[str, Callable[[str, str], Reading]] = {"bibtex": read_bibtex, "ris": read_ris, "csl-json": read_csl_json}
RIS_TAG = re.compile(r"^\s*(?:[A-Z][A-Z0-9]  -|FN |PT )", re.MULTILINE)


def detect_format(name: str, text: str) -> str:
    """``bibtex``, ``ris`` or ``csl-json``, by the file's extension, else by its first characters."""
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    by_ext = {"bib": "bibtex", "bibtex": "bibtex", "ris": "ris", "json": "csl-json"}
    if ext in by_ext:
        return by_ext[ext]
    head = text.lstrip()[:2000]
    if head.startswith(("[", "{")):
        return "csl-json"
    if RIS_TAG.match(head):
        return "ris"
    if head.startswith(("@", "%")):
        return "bibtex"
    raise LibraryError(f"{name}: not a BibTeX (.bib), RIS (.ris) or CSL-JSON (.json) file")
