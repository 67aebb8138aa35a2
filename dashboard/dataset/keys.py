"""How papers are matched across sources: a title's key (its lower-case ASCII words) and a DOI's plain form.
Importers merge papers by them; a visitor's library is matched against the dataset by them. And how a search
matches a title typed exactly (:func:`title_key`, :func:`title_hash`)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from urllib.parse import unquote

TITLE_WORD = re.compile(r"[a-z0-9]+")


def normalise_title(title: str) -> str:
    """Lower-case ASCII words of a title, for matching the same paper across sources."""
    if title.isascii():  # NFKD leaves ASCII as it is and none of it combines: skipped, much faster
        return " ".join(TITLE_WORD.findall(title.lower()))
    text = unicodedata.normalize("NFKD", title)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(TITLE_WORD.findall(text))


DOI = re.compile(r"^10\.\d{4,9}/\S+$")
# a link whose whole path is a DOI: doi.org and its other names, ACM's old resolver
DOI_RESOLVER = re.compile(
    r"^(?:(?:https?://)?(?:www\.|dx\.)?doi\.org/|(?:https?://)?doi\.acm\.org/|doi:\s*)(?P<doi>.+)$", re.IGNORECASE
)
# a publisher's link that carries a DOI: in its path (dl.acm.org/doi/10..., link.springer.com/article/10...,
# onlinelibrary.wiley.com/doi/full/10...) or as a query value (journals.plos.org/...?id=10...)
DOI_IN_LINK = re.compile(
    r"^(?:https?://)?[a-z0-9.-]+\.[a-z]{2,}(?::\d+)?/(?:[^?#]*?/)?(?P<doi>10\.\d{4,9}/[^?#]+)", re.I
)
DOI_IN_QUERY = re.compile(
    r"^(?:https?://)?[a-z0-9.-]+\.[a-z]{2,}[^?#]*\?(?:[^#]*&)?[a-z_]+=(?P<doi>10\.\d{4,9}/[^&#]+)", re.I
)
# what publishers put after a DOI in a link: a page of the article, not part of its DOI
PAGE_SUFFIX = re.compile(
    r"(?:/(?:full|abstract|abs|pdf|epdf|pdfdirect|meta|fulltext|html|summary|references))+/?$|\.pdf$|/$"
)
PERCENT = re.compile(r"%[0-9a-fA-F]{2}")


def clean_doi(value: object) -> str | None:
    """The DOI ``value`` names, lower case (DOIs are case-insensitive), or None for anything that names none.
    Read: a bare DOI, ``doi:10...``, a link to a DOI resolver (``https://doi.org/``, ``dx.doi.org``,
    ``www.doi.org``, ``doi.acm.org``), a publisher's link that carries one (``dl.acm.org/doi/10...``,
    ``link.springer.com/article/10...``, ``...?id=10...``); percent-encoded or not."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if m := DOI_RESOLVER.match(text):
        text = m["doi"].strip()
    elif text[:3] != "10." and (m := DOI_IN_LINK.match(text) or DOI_IN_QUERY.match(text)):
        text = PAGE_SUFFIX.sub("", m["doi"])
    if "%" in text:
        text = PERCENT.sub(lambda p: unquote(p[0]), text)
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
