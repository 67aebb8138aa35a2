"""How papers are matched across sources: a title's key (its lower-case ASCII words) and a DOI's plain form.
Importers merge papers by them (the rule: :func:`same_paper_by_title`); a visitor's library is matched against the
dataset by them. And how a search matches a title typed exactly (:func:`title_key`, :func:`title_hash`)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import NamedTuple
from urllib.parse import unquote

TITLE_WORD = re.compile(r"[a-z0-9]+")


def normalise_title(title: str) -> str:
    """Lower-case ASCII words of a title, for matching the same paper across sources."""
    if title.isascii():  # NFKD leaves ASCII as it is and none of it combines: skipped, much faster
        return " ".join(TITLE_WORD.findall(title.lower()))
    text = unicodedata.normalize("NFKD", title)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(TITLE_WORD.findall(text))


ARXIV_ID = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})$")
OGBN_ID = re.compile(r"^ogbn-\d+$")  # a node of ogbn-arxiv, a graph of arXiv papers: an arXiv paper
NEARBY_YEARS = 2  # a preprint and its publication: years at most this far apart


class Paper(NamedTuple):
    """What the merge rule reads of a paper: its ids (its id and alternative ids) and year."""

    ids: list[str]
    year: int | None


def arxiv_ids(ids: list[str]) -> set[str]:
    """The arXiv ids among ``ids``."""
    return {i for i in ids if ARXIV_ID.match(i)}


def same_paper_by_title(a: Paper, b: Paper) -> str | None:
    """Whether two papers whose titles are the same once normalised (:func:`normalise_title`, not empty) are one
    paper; the part of the rule that says so, or None:

    * ``"title"``: their years are at most :data:`NEARBY_YEARS` apart, or one is not known;
    * ``"title_arxiv"``: whatever their years, both are arXiv papers (an arXiv id, or a node of ogbn-arxiv) and at
      most one gives an arXiv id: one year may be when it was posted, the other when it was published;
    * never when both give arXiv ids and these differ (arXiv lists them as two papers).

    The other part of the rule: papers that share any id or their DOI are one."""
    arxiv_a, arxiv_b = arxiv_ids(a.ids), arxiv_ids(b.ids)
    if arxiv_a and arxiv_b and not arxiv_a & arxiv_b:
        return None
    if a.year is None or b.year is None or abs(a.year - b.year) <= NEARBY_YEARS:
        return "title"
    if (arxiv_a or any(OGBN_ID.match(i) for i in a.ids)) and (arxiv_b or any(OGBN_ID.match(i) for i in b.ids)):
        return "title_arxiv"
    return None


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
