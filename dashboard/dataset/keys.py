"""How papers are matched across sources: a title's key (its lower-case ASCII words) and a DOI's plain form.
Importers merge papers by them; a visitor's library is matched against the dataset by them. And how a search
matches a title typed exactly (:func:`title_key`, :func:`title_hash`)."""

from __future__ import annotations

import hashlib
import re
import unicodedata

TITLE_WORD = re.compile(r"[a-z0-9]+")


def normalise_title(title: str) -> str:
    """Lower-case ASCII words of a title, for matching the same paper across sources."""
    if title.isascii():  # NFKD leaves ASCII as it is and none of it combines: skipped, much faster
        return " ".join(TITLE_WORD.findall(title.lower()))
    text = unicodedata.normalize("NFKD", title)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(TITLE_WORD.findall(text))


DOI = re.compile(r"^10\.\d{4,9}/\S+$")


def clean_doi(value: object) -> str | None:
    """``https://doi.org/10.1000/X`` or ``doi:10.1000/x`` -> ``10.1000/x`` (DOIs are case-insensitive); None
    for anything that is not a DOI."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"):
        if text.lower().startswith(prefix):
            text = text[len(prefix) :].strip()
            break
    text = text.lower()
    return text if DOI.match(text) else None


SEARCH_WORD = re.compile(r"[^\W_]+")  # a word of a title as searched: letters and digits of any script


def title_key(title: str) -> str:
    """A title as an exact-title search compares it: accents dropped, case folded, its words of letters and digits
    one space apart (``"World Models."`` -> ``"world models"``)."""
    if not title.isascii():
        title = "".join(c for c in unicodedata.normalize("NFKD", title) if not unicodedata.combining(c))
    return " ".join(SEARCH_WORD.findall(title.casefold()))


def title_hash(key: str) -> int:
    """A :func:`title_key`'s hash, an unsigned 32-bit integer, the same in every process. Titles whose hashes are
    equal are told apart by their keys (``Store`` compares them)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=4).digest(), "little")
