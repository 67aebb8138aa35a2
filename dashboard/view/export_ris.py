"""The RIS export: a view's papers as RIS records (written with rispy), the format Zotero, EndNote, Mendeley and
JabRef import.

Each paper is one record of the records :func:`dashboard.view.export.references` makes, with these tags:

- ``TY``: the kind of work, from the venue (:func:`ris_type`): ``CONF`` when the venue names a conference,
  proceedings, workshop or symposium, or is a well-known conference's name (NeurIPS, ICML, ACL, CVPR, ...), but
  for journals named proceedings (PNAS, Proceedings of the IEEE, Proceedings of the ACM on ..., PVLDB);
  ``GEN`` (generic) when there is no venue or the venue is a preprint server (arXiv, bioRxiv, SSRN, ...);
  ``JOUR`` for any other venue.
- ``TI``: the title, as plain text (math such as ``$L_2$`` stays as written; RIS has no markup).
- ``AU``: one tag per author, in order, written "Last, First" or "Last, First, Suffix" as RIS asks
  (:func:`ris_name`; how a name is read: :mod:`dashboard.view.person_names`); an organisation ("Google DeepMind")
  or a name of one word is written whole.
- ``PY``: the year; ``DA``: the day the paper was posted (``YYYY/MM/DD``), when known.
- ``DO``: the DOI; ``T2`` (and ``JO`` for a journal): the venue.
- For a paper with an arXiv id: ``DB - arXiv`` and ``AN - arXiv:<id>`` (the database and the paper's accession
  number in it, which Zotero keeps as Archive and Loc. in Archive), and ``UR`` its arxiv.org page; else ``UR``
  the DOI's link, when there is one.
- ``ID``: the paper's id in this dataset. RIS names ``ID`` the record's reference id; reference managers keep or
  drop it but print it in no reference.

RIS is a format of lines: a value's line breaks are written as spaces."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rispy import RisWriter
from rispy import dumps as ris_dumps

from dashboard.view.export_bibtex import ARXIV_ABS, ARXIV_PREFIX
from dashboard.view.person_names import split_name

_CONFERENCE = re.compile(
    r"\b(?:conference|proceedings|proc|workshop|symposium|congress|meeting|colloquium|"
    r"neural information processing systems|"
    r"neurips|nips|icml|iclr|aaai|ijcai|acl|naacl|eacl|emnlp|coling|cvpr|iccv|eccv|wacv|bmvc|kdd|sigir|wsdm|"
    r"cikm|recsys|sigmod|vldb|icde|uist|interspeech|icassp|aistats|colt|corl|icra|iros|miccai)\b",
    re.IGNORECASE,
)
# journals whose names say proceedings: PNAS, Proceedings of the IEEE, the Proceedings of the ACM on ... series,
# PVLDB, the Royal Society's
_PROCEEDINGS_JOURNAL = re.compile(
    r"national academy of sciences|\bpnas\b|\bproc(?:eedings|\.)? (?:of )?(?:the )?ieee\s*$|\bacm on\b|"
    r"\bproc\.? acm\b(?!.*\b(?:conf|conference|symposium|workshop)\b)|\bpacm|vldb endow|\bpvldb\b|royal society",
    re.IGNORECASE,
)
_PREPRINT = re.compile(r"\b(?:arxiv|biorxiv|medrxiv|chemrxiv|ssrn|research square|preprints?|zenodo)\b", re.I)
_BREAKS = re.compile(r"\s*[\r\n]+\s*")


class _Writer(RisWriter):
    """rispy's RIS writer without the number it writes above each record (which some readers take for text)."""

    def set_header(self, count: int) -> str:
        return ""


def ris_type(venue: str | None) -> str:
    """The RIS type of a paper published in ``venue`` (see the module's docstring)."""
    if not venue or _PREPRINT.search(venue):
        return "GEN"
    return "CONF" if _CONFERENCE.search(venue) and not _PROCEEDINGS_JOURNAL.search(venue) else "JOUR"


def ris_name(name: str) -> str:
    """An author's name as RIS writes it: "Last, First[, Suffix]", or whole (see the module's docstring)."""
    parts = split_name(name)
    if parts.whole is not None:
        return parts.whole
    return ", ".join(p for p in (parts.family, parts.given, parts.suffix) if p)


def _line(text: str) -> str:
    """``text`` on one line: each line break, with the spaces around it, one space."""
    return _BREAKS.sub(" ", text).strip()


def ris_of(records: Iterable[dict]) -> str:
    """RIS of papers (records of :func:`dashboard.view.export.references`), one record each, in order."""
    out = []
    for rec in records:
        ref: dict = {"type_of_reference": ris_type(rec["venue"]), "title": _line(rec["title"])}
        if rec["authors"]:
            ref["authors"] = [ris_name(a) for a in rec["authors"]]
        if rec["year"] is not None:
            ref["year"] = str(rec["year"])
        if rec["posted"]:
            ref["date"] = rec["posted"].replace("-", "/")
        if rec["venue"]:
            ref["secondary_title"] = _line(rec["venue"])
            if ref["type_of_reference"] == "JOUR":
                ref["journal_name"] = _line(rec["venue"])
        if rec["doi"]:
            ref["doi"] = _line(rec["doi"])
        if arxiv := rec.get("arxiv"):
            ref |= {
                "name_of_database": ARXIV_PREFIX,
                "accession_number": f"{ARXIV_PREFIX}:{arxiv}",
                "urls": [ARXIV_ABS + arxiv],
            }
        elif rec["doi"]:
            ref["urls"] = ["https://doi.org/" + _line(rec["doi"])]
        ref["id"] = rec["id"]
        out.append(ref)
    return ris_dumps(out, implementation=_Writer)
