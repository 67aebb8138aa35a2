"""Values and input files shared by the record-based importers (OpenAlex, Semantic Scholar, CSV).

``Where`` says where a record sits, so that a checked value that is wrong raises an
:class:`~dashboard.importers.common.InputError` naming the file, the line or record, and the field.
``iter_json`` reads a JSON document or JSON Lines, gzipped or not (recognised by content).
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import math
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import IO, Any

from dashboard.importers.common import InputError

INT64_MAX = 2**63 - 1
INT32_MAX = 2**31 - 1
YEAR_MIN, YEAR_MAX = 1, 9999
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
GZIP_MAGIC = b"\x1f\x8b"
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson", ".gz")

_NEW_ARXIV = r"\d{4}\.\d{4,5}"
_OLD_ARXIV = r"[a-z][a-z\-]*(?:\.[a-z]{2})?/\d{7}"
ARXIV_BARE = re.compile(rf"^(?P<id>{_NEW_ARXIV}|{_OLD_ARXIV})(?:v\d+)?$", re.IGNORECASE)
ARXIV_URL = re.compile(
    rf"arxiv\.org/(?:abs|pdf)/(?P<id>{_NEW_ARXIV}|{_OLD_ARXIV})(?:v\d+)?(?:\.pdf)?/?(?:[?#]|$)", re.IGNORECASE
)
ARXIV_DOI = re.compile(rf"10\.48550/arxiv\.(?P<id>{_NEW_ARXIV}|{_OLD_ARXIV})(?:v\d+)?$", re.IGNORECASE)


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
        raise where.error(f"expected {what}, found {type(value).__name__} {preview(value)}", field)
    return value


def preview(value: Any) -> str:
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
        date.fromisoformat(text)  # also refuses year 0000
    except ValueError as e:
        raise where.error(f"not a valid date: {text!r}", field) from e
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


def open_bytes(path: Path) -> IO[bytes]:
    """A byte stream of a plain or gzipped file (gzip recognised by content)."""
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")


def open_text(path: Path, encoding: str = "utf-8") -> IO[str]:
    """A text stream of a plain or gzipped file, its lines split at CR, LF and CRLF (``newline=""``)."""
    return io.TextIOWrapper(open_bytes(path), encoding=encoding, newline="")


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
        raise InputError(
            path, f"file is truncated or not valid gzip after {got} complete lines ({e})", line=got + 1
        ) from e
    except UnicodeDecodeError as e:
        line = _bad_utf8_line(path) or (lines.no if lines else 0) + 1
        raise InputError(path, f"not UTF-8 text ({e.reason})", line=line) from e
    except OSError as e:
        raise InputError(path, f"cannot be read ({e.strerror or e})") from e


LINE_BREAK = re.compile(rb"\r\n|\r|\n")  # as a text stream opened with newline="" splits lines


def _bad_utf8_line(path: Path) -> int | None:
    """The line of the first byte that is not UTF-8 (text is decoded a block at a time, so the line being read
    when decoding fails can be an earlier one); None if every block decodes (the file ends inside a character:
    the reader's own count is then right) or the file cannot be read again."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    line, cr_at_end = 1, False

    def breaks(data: bytes) -> int:
        nonlocal cr_at_end
        n = len(LINE_BREAK.findall(data))
        if cr_at_end and data.startswith(b"\n"):
            n -= 1  # the \r\n was cut by the block's end and counted with the \r
        cr_at_end = data.endswith(b"\r")
        return n

    try:
        with open_bytes(path) as f:
            while block := f.read(1 << 20):
                pending = len(decoder.getstate()[0])  # bytes of a character cut at the last block's end
                try:
                    decoder.decode(block)
                except UnicodeDecodeError as e:
                    return line + breaks(block[: max(0, e.start - pending)])
                line += breaks(block)
    except (OSError, EOFError, zlib.error, InputError):
        return None
    return None


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
