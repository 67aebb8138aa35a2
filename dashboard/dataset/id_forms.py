"""What a researcher types for a paper, as the keys the store finds papers by.

:func:`candidates` turns one typed or linked text into the keys it may name, most specific first, each with its
kind: ``arxiv`` (an arXiv id as dataset ids spell it: ``1706.03762``, ``hep-th_9901001``), ``openalex``
(``W2741809807``), ``s2`` (a Semantic Scholar paperId, 40 lower-case hex digits), ``doi`` (lower case, no
``https://doi.org/``) and ``id`` (the text as typed, which may be any dataset id). The store looks a ``doi`` up
among the papers' DOIs and every other kind among the papers' ids and alternative ids
(:meth:`dashboard.dataset.store.Store.resolve`).

Forms understood (letters in any case, surrounding spaces ignored):

- arXiv: ``1706.03762``, ``1706.03762v5``, ``arXiv:1706.03762``, ``arxiv.org/abs/1706.03762`` and ``/pdf/``
  (``.pdf`` or not) and ``/html/`` links, ``http`` or ``https``, ``www.`` or ``export.``; old-style ids
  ``hep-th/9901001`` and ``math.AG/0101001`` (spelt ``hep-th_9901001``, ``math.AG_0101001`` in datasets);
  arXiv's DOIs ``10.48550/arXiv.1706.03762`` (which name the arXiv id).
- DOIs: ``10.1038/nature14539``, ``doi:10...``, ``https://doi.org/10...``, ``dx.doi.org``, ``doi.acm.org``, publishers'
  links that carry a DOI (``dl.acm.org/doi/10...``), percent-encoded or not.
- OpenAlex: ``W2741809807`` (or ``w...``), ``https://openalex.org/W...``, ``openalex.org/works/W...``,
  ``api.openalex.org/works/W...``.
- Semantic Scholar: a 40-hex paperId, ``semanticscholar.org/paper/<title-slug>/<paperId>``,
  ``api.semanticscholar.org/graph/v1/paper/<paperId>``.

Pure functions of text; nothing here knows a dataset.
"""

from __future__ import annotations

import re
from typing import Literal

from dashboard.dataset.keys import clean_doi

Kind = Literal["arxiv", "openalex", "s2", "doi", "id"]
Candidate = tuple[Kind, str]

MAX_TEXT = 300  # longest text read as an id (a long URL); longer text names no paper
NEW_ARXIV = r"\d{4}\.\d{4,5}"
OLD_ARXIV = r"[a-z][a-z\-]*(?:\.[a-z]{2})?[/_]\d{7}"
_VERSION = r"(?:v\d{1,3})?"
ARXIV_BARE = re.compile(rf"^(?:arxiv:\s*)?(?P<id>{NEW_ARXIV}|{OLD_ARXIV}){_VERSION}$", re.IGNORECASE)
ARXIV_URL = re.compile(
    rf"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/(?P<id>{NEW_ARXIV}|{OLD_ARXIV}){_VERSION}"
    r"(?:\.pdf)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)
ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.(?P<id>{NEW_ARXIV}|{OLD_ARXIV}){_VERSION}$", re.IGNORECASE)
OPENALEX = re.compile(
    r"^(?:(?:https?://)?(?:api\.)?openalex\.org/(?:works/)?|openalex:\s*)?(?P<id>[Ww]\d{1,20})/?$", re.IGNORECASE
)
S2 = re.compile(
    r"^(?:(?:https?://)?(?:www\.|api\.)?semanticscholar\.org/(?:paper/(?:[^/?#]+/)?|graph/v1/paper/))?"
    r"(?P<id>[0-9a-f]{40})/?(?:[?#].*)?$",
    re.IGNORECASE,
)
AS_TYPED = re.compile(r"^[A-Za-z0-9._~\-]{1,128}$")  # what a dataset id may be (URL-safe)
FORBIDDEN = re.compile(r"[\x00-\x1f\x7f]")  # control characters: no id holds one


def arxiv_spelling(raw_id: str) -> str:
    """An arXiv id as dataset ids spell it: new-style as it is, old-style with ``_`` for ``/`` and the archive in
    lower case, its subject class in upper case (``math.ag/0101001`` -> ``math.AG_0101001``)."""
    if "/" not in raw_id and "_" not in raw_id:
        return raw_id
    archive, number = re.split(r"[/_]", raw_id, maxsplit=1)
    name, _, sub = archive.partition(".")
    archive = f"{name.lower()}.{sub.upper()}" if sub else name.lower()
    return f"{archive}_{number}"


def readable(text: object) -> str | None:
    """``text`` stripped, if it can name a paper at all: a string of at most :data:`MAX_TEXT` characters without
    control characters; else None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not text or len(text) > MAX_TEXT or FORBIDDEN.search(text):
        return None
    return text


def candidates(text: object) -> list[Candidate]:
    """The keys ``text`` may name, most specific first (empty: no id form). A key is given once: the ids of every
    kind but ``doi`` are looked up the same way."""
    value = readable(text)
    if value is None:
        return []
    out: list[Candidate] = []
    if AS_TYPED.match(value):
        out.append(("id", value))
    if m := ARXIV_BARE.match(value) or ARXIV_URL.match(value):
        out.insert(0, ("arxiv", arxiv_spelling(m["id"])))
    if m := OPENALEX.match(value):
        out.insert(0, ("openalex", "W" + m["id"][1:]))
    if m := S2.match(value):
        out.insert(0, ("s2", m["id"].lower()))
    if doi := doi_of(value):
        if m := ARXIV_DOI.match(doi):
            out.insert(0, ("arxiv", arxiv_spelling(m["id"])))
        out.append(("doi", doi))
    seen: dict[tuple[bool, str], Candidate] = {}
    for kind, key in out:
        seen.setdefault((kind == "doi", key), (kind, key))
    return list(seen.values())


def doi_of(text: str) -> str | None:
    """The DOI ``text`` names, lower case, or None: :func:`dashboard.dataset.keys.clean_doi` reads every form (a
    bare DOI, ``doi:``, doi.org and the other resolvers' links, publishers' links that carry one, percent-encoded
    or not)."""
    return clean_doi(text)


def typed_prefix(text: str) -> str:
    """The start of an id being typed, without an ``arXiv:`` before it (what ids are matched by prefix against)."""
    value = text.strip()
    return re.sub(r"^arxiv:\s*", "", value, flags=re.IGNORECASE)
