"""Importer for OpenAlex work objects (https://docs.openalex.org/api-entities/works/work-object).

Accepted inputs (each source a file, or a folder searched for ``*.json``, ``*.jsonl``, ``*.gz``):

* one page of the ``/works`` list endpoint: ``{"meta": ..., "results": [work, ...]}``;
* a single work object (``/works/W2741809807``), or a JSON list of work objects;
* a JSON Lines file, one work per line, as in the OpenAlex snapshot (``part_000.gz``); gzipped files
  are recognised by their content, whatever their name.

Per work: the paper id is the arXiv id when one is discoverable (``ids``, ``doi`` or a location URL:
``10.48550/arxiv.XXXX``, ``arxiv.org/abs/XXXX``), with the short OpenAlex id (``W2741809807``) kept as
an alternative id; otherwise the short OpenAlex id. ``display_name`` (else ``title``) is the title,
``publication_year`` the year, ``publication_date`` the posted date, ``cited_by_count`` /
``counts_by_year`` the citation counts, ``referenced_works_count`` (else the length of
``referenced_works``) the reference count. Areas are the primary topic's field and subfield, else the
three best-scored level-0/1 concepts. A referenced work becomes an edge only when it is itself among
the imported works; other references are only counted.

The JSON reading and value-checking helpers here are shared with :mod:`dashboard.importers.s2`.
Errors name the file, the line (JSON Lines) or record (index in the file), and the field.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from dashboard.importers.common import DatasetBuilder, InputError, PaperRecord

INT64_MAX = 2**63 - 1
INT32_MAX = 2**31 - 1
YEAR_MIN, YEAR_MAX = 1, 9999
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
GZIP_MAGIC = b"\x1f\x8b"
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson", ".gz")

_NEW_ARXIV = r"\d{4}\.\d{4,5}"
_OLD_ARXIV = r"[a-z][a-z\-]*(?:\.[a-z]{2})?/\d{7}"
ARXIV_BARE = re.compile(rf"^(?P<id>{_NEW_ARXIV}|{_OLD_ARXIV})(?:v\d+)?$", re.IGNORECASE)
ARXIV_URL = re.compile(rf"arxiv\.org/(?:abs|pdf)/(?P<id>{_NEW_ARXIV}|{_OLD_ARXIV})(?:v\d+)?(?:\.pdf)?/?(?:[?#]|$)",
                       re.IGNORECASE)
ARXIV_DOI = re.compile(rf"10\.48550/arxiv\.(?P<id>{_NEW_ARXIV}|{_OLD_ARXIV})(?:v\d+)?$", re.IGNORECASE)
WORK_ID = re.compile(r"^(?:https?://(?:api\.)?openalex\.org/(?:works/)?)?(?P<id>[Ww]\d{1,20})$")


# -- shared helpers: where a record is, checked values, JSON files ---------------------------------
@dataclass(frozen=True)
class Where:
    """Where a record sits in its input, so that an error can name it."""

    path: Path
    line: int | None = None
    record: int | str | None = None

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(self.path, message, line=self.line, record=self.record, field=field)

    def at(self, record: int | str | None) -> Where:
        return replace(self, record=record)


def check_type(value: Any, types: type | tuple[type, ...], where: Where, field: str, what: str) -> Any:
    """``value`` if it is None or of ``types`` (``bool`` is never a number here), else an error."""
    if value is None:
        return None
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise where.error(f"expected {what}, found {value!r}", field)
    if not isinstance(value, types):
        raise where.error(f"expected {what}, found {type(value).__name__} {_short(value)}", field)
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def opt_text(value: Any, where: Where, field: str) -> str | None:
    """A string with its whitespace collapsed, or None when missing or blank."""
    text = check_type(value, str, where, field, "a string")
    if text is None:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise where.error(f"not valid Unicode text ({e.reason})", field) from e
    text = " ".join(text.split())
    return text or None


def opt_int(value: Any, where: Where, field: str, lo: int = 0, hi: int = INT64_MAX) -> int | None:
    number = check_type(value, int, where, field, "a whole number")
    if number is not None and not lo <= number <= hi:
        raise where.error(f"{number} is out of range ({lo}..{hi})", field)
    return number


def opt_year(value: Any, where: Where, field: str) -> int | None:
    return opt_int(value, where, field, YEAR_MIN, YEAR_MAX)


def opt_date(value: Any, where: Where, field: str) -> str | None:
    """A ``YYYY-MM-DD`` date that exists, or None."""
    text = opt_text(value, where, field)
    if text is None:
        return None
    if not DATE.match(text):
        raise where.error(f"expected a date YYYY-MM-DD, found {text!r}", field)
    try:
        date.fromisoformat(text)
    except ValueError as e:
        raise where.error(f"not a valid date: {text!r}", field) from e
    if int(text[:4]) < YEAR_MIN:
        raise where.error(f"year of {text!r} is out of range", field)
    return text


def opt_number(value: Any) -> float:
    """A sort key from a score that may be missing or malformed (for ordering only)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        return -math.inf
    return float(value)


def dedupe(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def arxiv_key(raw_id: str) -> str:
    """A found arXiv id as dataset ids spell it: ``math.ag/0101001`` -> ``math.AG_0101001``."""
    if "/" not in raw_id:
        return raw_id
    archive, number = raw_id.split("/", 1)
    name, _, sub = archive.partition(".")
    archive = f"{name.lower()}.{sub.upper()}" if sub else name.lower()
    return f"{archive}_{number}"


def is_gzip(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(2) == GZIP_MAGIC
    except OSError as e:
        raise InputError(path, f"cannot be read ({e.strerror})") from e


def open_text(path: Path) -> IO[str]:
    """A text stream of a plain or gzipped UTF-8 file."""
    if is_gzip(path):
        return gzip.open(path, "rt", encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


class _Lines:
    """Numbered lines of a text stream; remembers how far reading got, for error messages."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.no = 0

    def __iter__(self) -> Iterator[str]:
        for text in self.stream:
            self.no += 1
            yield text


def iter_json(path: Path) -> Iterator[tuple[int | None, Any]]:
    """The top-level JSON values of a file: ``(None, document)`` for one JSON document (pretty-printed
    or not), ``(line, value)`` for each non-blank line of JSON Lines. A file whose first non-blank line
    is a complete JSON value is read as JSON Lines (a one-line document is then line 1)."""
    lines: _Lines | None = None
    try:
        with open_text(path) as stream:
            lines = _Lines(stream)
            yield from _iter_json_stream(path, lines)
    except (EOFError, zlib.error, gzip.BadGzipFile) as e:
        got = lines.no if lines else 0
        raise InputError(path, f"file is truncated or not valid gzip after {got} complete lines ({e})",
                         line=got + 1) from e
    except UnicodeDecodeError as e:
        raise InputError(path, f"not UTF-8 text ({e.reason})", line=(lines.no if lines else 0) + 1) from e
    except OSError as e:
        raise InputError(path, f"cannot be read ({e.strerror or e})") from e


def _iter_json_stream(path: Path, lines: _Lines) -> Iterator[tuple[int | None, Any]]:
    head: list[str] = []
    it = iter(lines)
    for text in it:
        head.append(text)
        if text.strip():
            break
    if not head or not head[-1].strip():
        raise InputError(path, "file is empty", line=1)
    try:
        first = json.loads(head[-1])
    except json.JSONDecodeError:
        yield None, _load_document(path, "".join(head) + "".join(it))
        return
    except RecursionError as e:
        raise InputError(path, "JSON is nested too deeply", line=lines.no) from e
    yield lines.no, first
    for text in it:
        if text.strip():
            yield lines.no, _load_line(path, text, lines.no)


def _load_document(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        hint = " (the file looks truncated)" if e.pos >= len(text.rstrip()) else ""
        raise InputError(path, f"not valid JSON{hint}: {e.msg} at column {e.colno}", line=e.lineno) from e
    except RecursionError as e:
        raise InputError(path, "JSON is nested too deeply") from e


def _load_line(path: Path, text: str, no: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, f"line is not valid JSON: {e.msg} at column {e.colno}", line=no) from e
    except RecursionError as e:
        raise InputError(path, "JSON is nested too deeply", line=no) from e


def source_files(sources: list[Path]) -> list[Path]:
    """The files of the sources: a file as given, a folder's JSON / JSON Lines / gzip files sorted."""
    files: list[Path] = []
    for src in sources:
        if src.is_dir():
            found = sorted(p for p in src.rglob("*") if p.is_file() and p.name.endswith(JSON_SUFFIXES))
            if not found:
                raise InputError(src, "folder holds no .json, .jsonl or .gz file")
            files.extend(found)
        else:
            files.append(src)
    return files


def list_items(value: Any, where: Where, field: str) -> list[Any]:
    """A JSON list field (missing or null = empty)."""
    items = check_type(value, list, where, field, "a list")
    return items or []


# -- OpenAlex works ---------------------------------------------------------------------------------
def short_work_id(value: Any, where: Where, field: str) -> str:
    """``https://openalex.org/W2741809807`` -> ``W2741809807``."""
    text = check_type(value, str, where, field, "an OpenAlex work id")
    m = WORK_ID.match(text.strip()) if text else None
    if not m:
        raise where.error(f"not an OpenAlex work id: {_short(value)}", field)
    return "W" + m["id"][1:]


def find_arxiv_id(raw: dict[str, Any]) -> str | None:
    """The arXiv id a work names in ``doi``, ``ids`` or its locations, if any (best effort: fields of
    an unexpected shape are skipped, they are not imported)."""
    for text in _arxiv_candidates(raw):
        m = ARXIV_DOI.search(text) or ARXIV_URL.search(text)
        if m:
            return arxiv_key(m["id"])
    return None


def _arxiv_candidates(raw: dict[str, Any]) -> Iterator[str]:
    yield from (v for v in (raw.get("doi"),) if isinstance(v, str))
    ids = raw.get("ids")
    if isinstance(ids, dict):
        arxiv = ids.get("arxiv")
        if isinstance(arxiv, str) and (m := ARXIV_BARE.match(arxiv.strip())):
            yield f"arxiv.org/abs/{m['id']}"
        yield from (v for v in ids.values() if isinstance(v, str))
    locations = raw.get("locations")
    locs = [raw.get("primary_location"), raw.get("best_oa_location"),
            *(locations if isinstance(locations, list) else [])]
    for loc in locs:
        if isinstance(loc, dict):
            yield from (loc[k] for k in ("landing_page_url", "pdf_url", "id") if isinstance(loc.get(k), str))


def work_title(raw: dict[str, Any], where: Where) -> str:
    title = opt_text(raw.get("display_name"), where, "display_name") or opt_text(raw.get("title"), where, "title")
    if title is None:
        raise where.error("work has no title (display_name or title)", "display_name")
    return title


def work_areas(raw: dict[str, Any], where: Where) -> list[str]:
    """Field and subfield of the primary topic, else the best level-0/1 concepts (at most 3)."""
    topic = check_type(raw.get("primary_topic"), dict, where, "primary_topic", "an object")
    if topic:
        names = []
        for part in ("field", "subfield"):
            sub = check_type(topic.get(part), dict, where, f"primary_topic.{part}", "an object")
            if sub and (name := opt_text(sub.get("display_name"), where, f"primary_topic.{part}.display_name")):
                names.append(name)
        if names:
            return dedupe(names)
    scored: list[tuple[float, str]] = []
    for i, concept in enumerate(list_items(raw.get("concepts"), where, "concepts")):
        concept = check_type(concept, dict, where, f"concepts[{i}]", "an object")
        if not concept or concept.get("level") not in (0, 1) or isinstance(concept.get("level"), bool):
            continue
        if name := opt_text(concept.get("display_name"), where, f"concepts[{i}].display_name"):
            scored.append((opt_number(concept.get("score")), name))
    scored.sort(key=lambda s: -s[0])
    return dedupe([name for _, name in scored])[:3]


def counts_by_year(raw: dict[str, Any], where: Where) -> dict[int, int] | None:
    if raw.get("counts_by_year") is None:
        return None
    out: dict[int, int] = {}
    for i, item in enumerate(list_items(raw.get("counts_by_year"), where, "counts_by_year")):
        field = f"counts_by_year[{i}]"
        item = check_type(item, dict, where, field, "an object")
        year = opt_year((item or {}).get("year"), where, f"{field}.year")
        count = opt_int((item or {}).get("cited_by_count"), where, f"{field}.cited_by_count", hi=INT32_MAX)
        if year is None or count is None:
            raise where.error("needs a year and a cited_by_count", field)
        out[year] = count
    return out


def referenced_works(raw: Any, where: Where) -> list[str]:
    """Short ids of the works a work cites (empty if it does not say)."""
    if not isinstance(raw, dict):
        return []
    items = list_items(raw.get("referenced_works"), where, "referenced_works")
    return [short_work_id(v, where, f"referenced_works[{i}]") for i, v in enumerate(items)]


def parse_work(raw: Any, where: Where) -> PaperRecord:
    """One OpenAlex work object as a paper record; bad or missing required fields are an InputError."""
    if not isinstance(raw, dict):
        raise where.error(f"expected a work object, found {type(raw).__name__}")
    if raw.get("id") is None:
        raise where.error("work has no id", "id")
    work_id = short_work_id(raw.get("id"), where, "id")
    title = work_title(raw, where)
    arxiv = find_arxiv_id(raw)
    year = opt_year(raw.get("publication_year"), where, "publication_year")
    posted = opt_date(raw.get("publication_date"), where, "publication_date")
    ref_count = opt_int(raw.get("referenced_works_count"), where, "referenced_works_count")
    if ref_count is None and raw.get("referenced_works") is not None:
        ref_count = len(list_items(raw.get("referenced_works"), where, "referenced_works"))
    return PaperRecord(
        title=title,
        id=arxiv or work_id,
        year=year if year is not None else (int(posted[:4]) if posted else None),
        posted=posted,
        areas=work_areas(raw, where),
        cited_by=opt_int(raw.get("cited_by_count"), where, "cited_by_count"),
        reference_count=ref_count,
        citations_by_year=counts_by_year(raw, where),
        alt_ids=[work_id] if arxiv else [],
    )


def iter_works(path: Path) -> Iterator[tuple[Where, Any]]:
    """Each raw work of a file with where it is: a list page's results, a list, one work, JSON Lines."""
    for line, value in iter_json(path):
        where = Where(path, line)
        if isinstance(value, dict) and "results" in value and "id" not in value:
            results = list_items(value["results"], where, "results")
            yield from ((where.at(i), w) for i, w in enumerate(results))
        elif isinstance(value, list):
            yield from ((where.at(i), w) for i, w in enumerate(value))
        else:
            yield (where if line is not None else where.at(0)), value


def build(sources: list[Path], progress: bool = True) -> tuple[DatasetBuilder, dict[str, Any]]:
    """Add every work (authoritative), then the references between imported works as edges."""
    files = source_files(sources)
    builder = DatasetBuilder()
    pending: list[tuple[int, list[str]]] = []
    for path in files:
        works = iter_works(path)
        for where, raw in tqdm(works, desc=path.name, unit=" works", disable=not progress, mininterval=0.5):
            rec = parse_work(raw, where)
            pending.append((builder.add(rec, authoritative=True), referenced_works(raw, where)))
    if not pending:
        raise InputError(files[0] if files else "openalex", "no works found")
    outside = 0
    for key, refs in pending:
        for ref in refs:
            other = builder.find(ref)
            if other is None:
                outside += 1
            else:
                builder.cite(key, other)
    builder.cite_outside(outside)
    info = {
        "name": "OpenAlex works (" + ", ".join(p.name for p in files[:3]) + (", ..." if len(files) > 3 else "") + ")",
        "source": "OpenAlex work objects: " + ", ".join(str(p) for p in files),
        "notes": [
            "cited_by, citations_by_year and reference_count are OpenAlex's counts over all of OpenAlex",
            f"only references between imported works are edges; {outside:,} references to other works "
            "are kept only as counts",
            "areas are the primary topic's field and subfield, else the top level-0/1 concepts",
            "ids are arXiv ids where OpenAlex names one, else OpenAlex work ids (W...)",
        ],
    }
    return builder, info
