"""The entries of a library's text: BibTeX (bibtexparser), RIS and Web of Science (rispy), CSL-JSON and citemap's
own JSON export; which of them a file holds by its extension, else (``.txt``) by its text (:func:`detect_format`).

Each reader returns a :class:`Reading`: the :class:`Reference` s of the entries it could read, and a :class:`Skip`
for each entry it could not (its line, its key or item number where known, why in plain words), the way a
reference manager's import log lists them. A file in which no entry can be read, or that holds none, is a
:class:`LibraryError` naming the file, the line and, where known, the field. Knows nothing of Dash or of datasets.
"""

from __future__ import annotations

import itertools
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
# bibtexparser's reasons for a block it cannot read, each said in plain words (its own words name parser states)
_PARSER_WORDS = (
    (re.compile(r"looking for field-value closing `\"`"), "a quotation mark that opens a value is never closed"),
    (VALUE_LEFT_OPEN, "the entry never ends (a brace is never closed)"),
    (re.compile(r"Expected a `=` after entry key `(?P<name>[^`]{1,40})`"), "field '{name}' has no '=' and value"),
    (re.compile(r"Expected a `=` after entry key, but found `,`"), "a comma where a field ('name = value') should be"),
    (re.compile(r"Expected a `=` after entry key"), "a field is not written 'name = value'"),
    (re.compile(r"after a closed entry field value"), "a comma is missing after a field's value"),
    (re.compile(r"Expected comma after entry key"), "no comma after the entry's key, or no key at all"),
    (re.compile(r"Expected equals sign after field key"), "an @string definition has no '='"),
)


def bibtex_reason(parser_reason: object, raw: str) -> str:
    """Why bibtexparser could not read an entry (its ``abort_reason``; ``raw``: the entry's text), in plain words,
    naming the field whose value opens a brace it never closes where there is one."""
    text = str(parser_reason)
    if VALUE_LEFT_OPEN.search(text) and '`"`' not in text and (name := unclosed_field(raw)):
        return f"the value of field '{name}' opens a brace that is never closed"
    for pattern, words in _PARSER_WORDS:
        if m := pattern.search(text):
            return words.format(**m.groupdict())
    return "not written as BibTeX entries are"


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
        key = ENTRY_KEY.match(block.raw or "")
        reason = bibtex_reason(getattr(error, "abort_reason", None) or error or "", block.raw or "")
        skipped.append(Skip(block.start_line + 1, key["key"] if key else None, reason))
    entries.sort(key=lambda pair: pair[0])
    refs = [bibtex_reference(_bibtex_fields(e)) for _, e in entries]
    if not refs and skipped:
        first = skipped[0]
        raise LibraryError(f"{name}, line {first.line}: not a valid BibTeX entry: {first.reason}")
    if not refs:
        raise LibraryError(f"{name}: no BibTeX entries (@article{{...}}, @misc{{...}}, ...) found")
    return Reading(refs, skipped, "BibTeX")


# RIS and Web of Science: records split here, each parsed by rispy, so that one bad record costs only itself


@dataclass(frozen=True)
class Tagged:
    """A tagged line format: how a line's tag is found, the tag that opens a record, the tags of a title and rispy's
    parser."""

    name: str
    tag: re.Pattern[str]
    start: str
    titles: frozenset[str]
    parser: str


RIS = Tagged("RIS", re.compile(r"^\s*([A-Z][A-Z0-9])  -(?: |$)"), "TY", frozenset({"TI", "T1", "CT"}), "RisParser")
WOS = Tagged("Web of Science", re.compile(r"^([A-Z][A-Z0-9])(?: |$)"), "PT", frozenset({"TI"}), "WokParser")
Line = tuple[int, str, str | None]  # a line of a record: its number (1 is the first), its text, its tag


def _records(text: str, fmt: Tagged) -> tuple[list[tuple[int, list[str]]], list[Skip]]:
    """The records of a tagged text, each with the line it starts on, and the skips of broken ones: a record runs
    from its type line to its end line (``ER``); what :func:`_split_record` finds between them is one record or
    several whose end lines are missing."""
    records: list[tuple[int, list[str]]] = []
    skipped: list[Skip] = []
    block: list[Line] | None = None  # the open record's lines
    stray: int | None = None  # first tagged line outside any record
    for no, line in enumerate(text.split("\n"), start=1):
        m = fmt.tag.match(line)
        tag = m[1] if m else None
        if tag is not None:
            line = line.lstrip()  # rispy reads a tag only at the start of its line
        if tag == fmt.start and block is None:
            block, stray = [(no, line, tag)], None
        elif tag == "ER":
            if block is not None:
                found, broken = _split_record([*block, (no, line, tag)], fmt, ended=True)
                records += found
                skipped += broken
            elif stray is not None:
                skipped.append(Skip(stray, None, f"a record without its type line ('{fmt.start}')"))
            block, stray = None, None
        elif block is not None:
            block.append((no, line, tag))
        elif tag is not None and tag not in ("FN", "VR", "EF") and stray is None:
            stray = no
    if block is not None:
        skipped += _split_record(block, fmt, ended=False)[1]
    return records, skipped


def _split_record(block: list[Line], fmt: Tagged, *, ended: bool) -> tuple[list[tuple[int, list[str]]], list[Skip]]:
    """The lines from a type line to an end line (``ended``; else to the end of the file), as one record or as
    several. A type line after other fields begins a new record only when the lines before it and the lines from it
    on both hold a title: then a record's end line is missing. Any other type line is one more line of the same
    record (JabRef and rispy read such a record whole; its first type counts)."""
    parts: list[list[Line]] = []
    last_tag = None
    for no, text, tag in block:
        if not parts or (tag == fmt.start and last_tag != fmt.start):
            parts.append([])
        parts[-1].append((no, text, tag))
        last_tag = tag or last_tag
    merged: list[list[Line]] = []
    for part in parts:
        if merged and _titled(merged[-1], fmt) and _titled(part, fmt):
            merged.append(part)
        elif merged:
            merged[-1] += part
        else:
            merged.append(part)
    skipped = [
        Skip(
            part[0][0],
            None,
            f"the record has no end line ('ER') before the next record, on line {nxt[0][0]}",
        )
        for part, nxt in itertools.pairwise(merged)
    ]
    if not ended:
        skipped.append(Skip(merged[-1][0][0], None, "the record has no end line ('ER')"))
        return [], skipped
    return [(merged[-1][0][0], [text for _, text, _ in merged[-1]])], skipped


def _titled(lines: list[Line], fmt: Tagged) -> bool:
    return any(tag in fmt.titles for _, _, tag in lines)


def _ris_reference(r: dict[str, Any]) -> Reference:
    urls = [r.get(k) for k in ("urls", "url", "link_to_pdf", "file_attachments1")]
    notes = [r.get(k) for k in ("notes", "note", "custom3", "number", "accession_number")]
    titles = [v for k, v in r.items() if k in ("title", "primary_title", "document_title") and title_of(v)]
    years = (_year(r.get(k)) for k in ("year", "publication_year", "date", "publication_date"))
    return Reference(
        title=title_of(titles[0]) if titles else None,  # the record's first title line (TI or T1)
        year=next((y for y in years if y is not None), None),
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
        except Exception:  # rispy raises what its line handling meets; the record is skipped, the file read
            parsed = []
        if not parsed:
            skipped.append(Skip(start, None, f"the record's lines cannot be read as {fmt.name}"))
            continue
        refs.append(_ris_reference(parsed[0]))
    skipped.sort(key=lambda s: s.line or 0)
    if not refs:
        if skipped:
            raise LibraryError(f"{name}, line {skipped[0].line}: {skipped[0].reason}")
        raise LibraryError(f"{name}, line 1: no {fmt.name} records (each begins with a '{fmt.start}' line)")
    return Reading(refs, skipped, fmt.name)


# the first line of a record: RIS's type line, Web of Science's (after its file's FN and VR lines)
FIRST_TAGGED = re.compile(r"^(?:\s*(?P<ris>TY)  -|(?P<wos>PT|FN) )", re.MULTILINE)


def tagged_format(text: str) -> Tagged | None:
    """RIS or Web of Science, by the first line of ``text`` that begins a record of either; None if none does."""
    m = FIRST_TAGGED.search(text)
    return None if m is None else RIS if m["ris"] else WOS


def read_ris(name: str, text: str) -> Reading:
    return read_tagged(name, text, tagged_format(text) or RIS)


# CSL-JSON, and citemap's own JSON export


BETWEEN_ITEMS = re.compile(r"[\s,]*")
WHITESPACE = re.compile(r"\s*")
# what a JSON value that is not an object is, in words
JSON_KINDS = {str: "a text", int: "a number", float: "a number", list: "a list", bool: "true or false"}


def _item_lines(text: str, start: int | None) -> list[int]:
    """The line each item of the JSON array that begins at ``start`` starts on (empty when there is none)."""
    if start is None or not text.startswith("[", start):
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


def _value_at(text: str, key: str) -> int | None:
    """Where the value of ``key`` in the JSON object ``text`` begins, or None."""
    decoder = json.JSONDecoder()
    at = WHITESPACE.match(text).end()
    if not text.startswith("{", at):
        return None
    at += 1
    try:
        while True:
            at = WHITESPACE.match(text, at).end()
            found, at = decoder.raw_decode(text, at)
            at = WHITESPACE.match(text, at).end() + 1  # past the ':'
            at = WHITESPACE.match(text, at).end()
            if found == key:
                return at
            _, at = decoder.raw_decode(text, at)
            at = BETWEEN_ITEMS.match(text, at).end()
    except ValueError:
        return None


def _csl_year(issued: Any) -> int | None:
    if issued is None:
        return None
    if isinstance(issued, str | int):
        return _year(issued)
    if not isinstance(issued, dict):
        raise ValueError("its date ('issued') is not written as CSL-JSON writes dates ({\"date-parts\": [[2017]]})")
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return _year(parts[0][0])
    return _year(issued.get("raw") or issued.get("literal"))


def _not_an_entry(item: Any) -> str:
    return f"not an entry but {JSON_KINDS.get(type(item), 'empty (null)')}"


def _csl_reference(item: Any) -> Reference:
    if not isinstance(item, dict):
        raise ValueError(_not_an_entry(item))
    title = item.get("title")
    if title is not None and not isinstance(title, str):
        raise ValueError("its title is not text")
    urls = [item.get("URL"), item.get("link")]
    return Reference(
        title=title_of(title),
        year=_csl_year(item.get("issued")),
        doi=doi_of(item.get("DOI"), *urls),
        arxiv=arxiv_of(item.get("DOI"), *urls, item.get("number"), item.get("archive_location"), item.get("note")),
    )


def _citemap_reference(paper: Any) -> Reference:
    """A paper of citemap's JSON export (``{"id", "title", "year", "doi", ...}``)."""
    if not isinstance(paper, dict):
        raise ValueError(_not_an_entry(paper))
    title, year, doi = paper.get("title"), paper.get("year"), paper.get("doi")
    if title is not None and not isinstance(title, str):
        raise ValueError("its title is not text")
    pid = str(paper.get("id") or "").strip()
    return Reference(
        title=title_of(title),
        year=year if isinstance(year, int) and not isinstance(year, bool) else None,
        doi=doi_of(doi),
        arxiv=arxiv_of(doi),
        citemap_id=pid if id_forms.AS_TYPED.match(pid) else None,
    )


def _is_citemap_export(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("papers"), list) and "query" in data


def read_csl_json(name: str, text: str) -> Reading:
    """CSL-JSON (a list of items, an object with ``items``, or one item), or citemap's own JSON export (an object
    with ``query`` and ``papers``, each paper found again by its id)."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as e:
        raise LibraryError(f"{name}, line {e.lineno}: not valid JSON ({_reason(e.msg)})") from e
    read, fmt = _csl_reference, "CSL-JSON"
    if isinstance(data, list):
        items, lines = data, _item_lines(text, WHITESPACE.match(text).end())
    elif _is_citemap_export(data):
        items, lines, read, fmt = (
            data["papers"],
            _item_lines(text, _value_at(text, "papers")),
            _citemap_reference,
            "citemap JSON",
        )
    elif isinstance(data, dict) and isinstance(data.get("items"), list):
        items, lines = data["items"], _item_lines(text, _value_at(text, "items"))
    elif isinstance(data, dict) and any(k in data for k in ("title", "DOI", "URL")):
        items, lines = [data], [1]  # one item, as DOI content negotiation answers
    else:
        raise LibraryError(
            f"{name}, line 1: CSL-JSON is a list of items, an object with 'items', or one item (with 'title' or 'DOI')"
        )
    if not items:
        raise LibraryError(
            f"{name}: no entries (the list of {'papers' if read is _citemap_reference else 'items'} is empty)"
        )
    refs, skipped = [], []
    for i, item in enumerate(items):
        try:
            refs.append(read(item))
        except ValueError as e:
            key = item.get("id") if isinstance(item, dict) else None
            entry = str(key)[:80] if isinstance(key, str | int) and not isinstance(key, bool) else None
            line = lines[i] if i < len(lines) else None
            skipped.append(Skip(line, entry or f"item {i + 1}", _reason(e)))
    if not refs:
        first = skipped[0]
        where = ", ".join([name, *([f"line {first.line}"] if first.line else []), first.entry or ""])
        raise LibraryError(f"{where}: {first.reason}")
    return Reading(refs, skipped, fmt)


READERS: dict[str, Callable[[str, str], Reading]] = {"bibtex": read_bibtex, "ris": read_ris, "csl-json": read_csl_json}
BY_EXTENSION = {"bib": "bibtex", "bibtex": "bibtex", "ris": "ris", "json": "csl-json"}
BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)


def detect_format(name: str, text: str) -> str:
    """``bibtex``, ``ris`` or ``csl-json``: by the file's extension (``.bib``, ``.ris``, ``.json``), else by what it
    holds (a ``.txt`` file as Web of Science and some databases save RIS): JSON when it begins with ``[`` or ``{``,
    else RIS (or Web of Science) or BibTeX, whichever of a record's first line and an entry's comes first."""
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    if ext in BY_EXTENSION:
        return BY_EXTENSION[ext]
    if text.lstrip().startswith(("[", "{")):
        return "csl-json"
    tagged, entry = FIRST_TAGGED.search(text), BIBTEX_ENTRY.search(text)
    if tagged and (entry is None or tagged.start() < entry.start()):
        return "ris"
    if entry:
        return "bibtex"
    raise LibraryError(
        f"{name}: not a BibTeX (.bib), RIS (.ris or .txt), Web of Science (.txt) or CSL-JSON (.json) file"
    )
