"""A library file's bytes as text, in the encoding it was written in, and that encoding's name.

Tried in order: a byte-order mark (UTF-8, UTF-16, UTF-32); JabRef's ``% Encoding: NAME`` first line, when the
bytes are text in that encoding; UTF-8; windows-1252, when every character it gives outside ASCII is one that
Western European text holds (accented letters, typographic quotes and dashes), mostly one at a time;
windows-1251 or windows-1253 when every such character is a Cyrillic or a Greek letter (in words of that script
only) or the punctuation around them; else what charset-normalizer finds most likely. On a short file, a detector
cannot tell the East Asian double-byte encodings apart (a few names read as Korean or as Chinese alike): there GBK
is preferred, the legacy encoding of Chinese reference exports. Knows nothing of formats or datasets.
"""

from __future__ import annotations

import codecs
import itertools
import re

BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32LE"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32BE"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8 with BOM"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16LE"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16BE"),
)
# JabRef writes this as its first line: "% Encoding: windows-1252"
DECLARED = re.compile(rb"\A[ \t]*%[ \t]*Encoding:[ \t]*(?P<name>[A-Za-z0-9_.:\-]{1,40})[ \t]*(?:\r\n|\r|\n|@|\Z)")
# what windows-1252 gives for the bytes of Western European text: letters of Latin-1, and the punctuation such text
# uses. Not the signs that other codes' letters become in it (Polish "ł" as "³", "ż" as "¿", "Ł" as "£").
WESTERN = frozenset(
    "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿŒœŠšŽž"
    "\u2018\u2019\u201a\u201c\u201d\u201e\u2013\u2014\u2026\u2022\u2020\u2021\u2030\u2039\u203a\u20ac\u2122"
    "\u00a0¢§©«®°±´µ¶·»×÷"
)
# three characters outside ASCII in a row: a word of another script (Cyrillic, Greek) read as windows-1252
FOREIGN_RUN = re.compile(r"[^\x00-\x7f]{3,}")
# Cyrillic and Greek text in their windows code pages: every character outside ASCII a letter of the script or
# the punctuation around it (the bytes of double-byte Chinese or Korean text give signs among these letters)
SCRIPTS = (("cp1251", re.compile(r"[\u0400-\u04ff]")), ("cp1253", re.compile(r"[\u0370-\u03ff]")))
LONGEST_WORD = 40  # letters: a longer run of one script's letters is bytes of something else
WORD = re.compile(r"[^\W\d_]+")
SCRIPT_PUNCTUATION = frozenset("\u00a0«»\u2013\u2014\u2018\u2019\u201c\u201d\u201e\u2026\u2116")
EAST_ASIAN = frozenset({"gb18030", "gbk", "gb2312", "hz", "big5", "big5hkscs", "cp950", "cp949", "euc_kr", "johab"})
ASCII = bytes(range(128))
SHORT = 64  # bytes outside ASCII below which a detector's choice among EAST_ASIAN is a guess


class UndecodableError(ValueError):
    """Bytes that are text in no encoding found; ``line`` is where UTF-8 reading stopped."""

    def __init__(self, line: int) -> None:
        super().__init__(f"line {line}")
        self.line = line


def label(codec: str) -> str:
    """An encoding's name as people know it: ``cp1252`` -> ``windows-1252``, ``iso8859-1`` -> ``ISO-8859-1``."""
    name = codecs.lookup(codec).name
    if m := re.fullmatch(r"cp(125\d)", name):
        return f"windows-{m[1]}"
    if m := re.fullmatch(r"iso8859-(\d+)", name):
        return f"ISO-8859-{m[1]}"
    special = {
        "gbk": "GBK",
        "gb18030": "GB18030",
        "big5": "Big5",
        "cp949": "CP949 (Korean)",
        "euc_kr": "EUC-KR",
        "cp932": "Shift_JIS (CP932)",
        "shift_jis": "Shift_JIS",
        "euc_jp": "EUC-JP",
    }
    return special.get(name, name.upper().replace("_", "-"))


def decode(data: bytes) -> tuple[str, str]:
    """``(text, encoding)`` of a file's bytes; raises :class:`UndecodableError` when no encoding reads them."""
    for bom, codec, name in BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(codec), name
            except UnicodeDecodeError as e:
                raise UndecodableError(_line_of(data, e.start + len(bom), codec)) from e
    if (m := DECLARED.match(data)) and (found := _declared(data, m["name"].decode("ascii"))):
        return found
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError as e:
        utf8_stop = data[: e.start].count(b"\n") + 1
    if _western(data):
        return data.decode("cp1252"), "windows-1252"
    found = _one_script(data) or _detected(data)
    if found is None:
        raise UndecodableError(utf8_stop)
    return found


def _line_of(data: bytes, offset: int, codec: str) -> int:
    return data[:offset].decode(codec, "replace").count("\n") + 1


def _declared(data: bytes, name: str) -> tuple[str, str] | None:
    try:
        info = codecs.lookup(name)
    except LookupError:
        return None
    try:
        return data.decode(info.name), label(info.name)
    except UnicodeDecodeError:
        return None  # declared wrongly (JabRef has files that say UTF-8 and are not): found as if undeclared


def _western(data: bytes) -> bool:
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:  # bytes windows-1252 leaves undefined (0x81, 0x8d, 0x8f, 0x90, 0x9d)
        return False
    if not all(c.isascii() or c in WESTERN for c in set(text)):
        return False
    # accented letters stand among plain ones: at most a tenth of them in runs of three or more
    return sum(len(run) for run in FOREIGN_RUN.findall(text)) * 10 <= len(data.translate(None, ASCII))


def _one_script(data: bytes) -> tuple[str, str] | None:
    for codec, letter in SCRIPTS:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if not all(c.isascii() or c in SCRIPT_PUNCTUATION or letter.match(c) for c in set(text)):
            continue
        # a word of the script holds no Latin letter and no capital after a small letter ("кеЯменб" is Greek)
        if not any(_odd_word(w) for w in WORD.findall(text) if not w.isascii()):
            return text, label(codec)
    return None


def _odd_word(word: str) -> bool:
    if len(word) > LONGEST_WORD or any(c.isascii() for c in word):
        return True
    return any(a.islower() and b.isupper() for a, b in itertools.pairwise(word))


def _detected(data: bytes) -> tuple[str, str] | None:
    from charset_normalizer import from_bytes

    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        return None
    codec = codecs.lookup(best.encoding).name
    outside_ascii = len(data.translate(None, ASCII))
    if codec.replace("-", "_") in EAST_ASIAN and outside_ascii < SHORT:
        for candidate in ("gbk", "gb18030"):
            try:
                return data.decode(candidate), label(candidate)
            except UnicodeDecodeError:
                continue
    return str(best), label(codec)
