"""Importer for saved paper pages of a citation-map site (mlsanity), in its two saved forms.

*Markdown pages*: ``# Title``, an ``arXiv: https://arxiv.org/abs/ID`` line, ``## Key facts`` bullets
("Cited by N papers", "Builds on X of its Y references", "First posted on arXiv D M YYYY"), then
``## Builds on (..., A of B)`` and ``## Built on by (..., A of B)`` lists of
``- [Title](https://.../paper/ID/) (YEAR)``.

*Flattened text dumps*: a title line, ``arXiv ID ↗First posted D M YYYYareas...cited by N``, a
``Key facts.`` paragraph, ``References · N`` and ``Built on by`` sections of numbered
``YEARTitlecited by N`` items, and ``Citing papers per year: YYYY: N; ...``.

Facts only are kept (ids, titles, years, dates, counts, areas, edges); abstracts are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from dashboard.importers.common import (
    DatasetBuilder,
    InputError,
    PaperRecord,
    clean_id,
    parse_int,
    read_lines,
)

SOURCE = "mlsanity pages"  # how a paper's list of sources names these pages

MD_TITLE = re.compile(r"^# (?P<title>.+?)\s*$")
MD_ARXIV = re.compile(r"arxiv\.org/abs/(?P<id>[^\s/·)]+)")
MD_SECTION = re.compile(r"^## (?P<name>Builds on|Built on by)\b(?:.*?(?P<shown>\d+) of (?P<total>\d[\d,]*))?")
MD_ITEM = re.compile(r"^- \[(?P<title>.+)\]\((?P<url>[^)\s]+)\)\s*(?:\((?P<year>\d{4})\))?\s*$")
URL_ID = re.compile(r"/paper/(?P<id>[^/?#]+)/?$")

TXT_HEADER = re.compile(r"^mlsanity\s*Data to (?P<date>\d{1,2} \w{3,9} \d{4})")
TXT_ID_LINE = re.compile(
    r"^arXiv\s+(?P<id>\S+?)\s*↗?\s*First posted (?P<date>\d{1,2} \w{3,9} \d{4})"
    r"(?P<areas>.*?)cited by (?P<cited>\d[\d,]*)\s*$"
)
TXT_REFS = re.compile(r"^References\s*·\s*(?P<n>\d[\d,]*)\s*$")
TXT_CITERS = re.compile(r"^Built on by\s*$")
TXT_ITEM_START = re.compile(r"^\s*\d+\.\s")
TXT_ITEM = re.compile(r"^\s*\d+\.\s+(?P<year>\d{4})(?P<title>.+?)cited by (?P<cited>\d[\d,]*)\s*$")
TXT_SHOWN = re.compile(r"^(?P<shown>\d+) most cited of (?P<total>\d[\d,]*)")
TXT_PER_YEAR = re.compile(r"^Citing papers per year:\s*(?P<pairs>.+?)\.?\s*$")

CITED_BY = re.compile(r"Cited by (?P<n>\d[\d,]*) papers")
BUILDS_ON = re.compile(r"Builds on (?P<x>\d[\d,]*) of its (?P<y>\d[\d,]*) references")
POSTED = re.compile(r"First posted on arXiv (?P<date>\d{1,2} \w{3,9} \d{4})")
DATA_THROUGH = re.compile(r"data through (?P<date>\d{1,2} \w{3,9} \d{4})")


@dataclass
class Page:
    """What one saved page says: its own paper, and the papers it lists."""

    path: Path
    paper: PaperRecord
    references: list[PaperRecord] = field(default_factory=list)
    citers: list[PaperRecord] = field(default_factory=list)
    data_through: str | None = None
    in_map_references: int | None = None


def _date(text: str, path: Path, line: int, name: str) -> str:
    for fmt in ("%d %b %Y", "%d %B %Y"):
        try:
            return datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            pass
    raise InputError(path, f"cannot read date {text!r}", line=line, field=name)


def _key_facts(text: str, page: Page, line: int) -> None:
    if m := CITED_BY.search(text):
        page.paper.cited_by = parse_int(m["n"])
    if m := BUILDS_ON.search(text):
        page.in_map_references = parse_int(m["x"])
        page.paper.reference_count = parse_int(m["y"])
    if m := POSTED.search(text):
        page.paper.posted = _date(m["date"], page.path, line, "first posted")
        page.paper.year = int(page.paper.posted[:4])
    if m := DATA_THROUGH.search(text):
        page.data_through = _date(m["date"], page.path, line, "data through")


def _check_count(path: Path, line: int, name: str, expected: int, found: int) -> None:
    if expected != found:
        raise InputError(path, f"the page says {expected} entries, {found} could be read", line=line, field=name)


def parse_markdown(path: Path, lines: list[tuple[int, str]]) -> Page:
    first_line, first = lines[0]
    m = MD_TITLE.match(first)
    if not m:
        raise InputError(path, "expected '# Title' on the first line", line=first_line, field="title")
    page = Page(path, PaperRecord(title=m["title"]))
    section: list[PaperRecord] | None = None
    expected: tuple[int, str, int] | None = None  # (line, section name, count the page states)

    def close_section() -> None:
        if expected and section is not None:
            _check_count(path, expected[0], expected[1], expected[2], len(section))

    for no, text in lines[1:]:
        if text.startswith("## "):
            close_section()
            section, expected = None, None
            if sm := MD_SECTION.match(text):
                section = page.references if sm["name"] == "Builds on" else page.citers
                if sm["shown"]:
                    expected = (no, sm["name"], int(sm["shown"]))
            continue
        if page.paper.id is None and (am := MD_ARXIV.search(text)):
            page.paper.id = clean_id(am["id"])
            if page.paper.id is None:
                raise InputError(path, f"arXiv id {am['id']!r} is not a valid id", line=no, field="arXiv id")
            continue
        if section is None:
            if text.startswith("- "):
                _key_facts(text, page, no)
            continue
        if not text.startswith("- "):
            continue
        im = MD_ITEM.match(text)
        if not im:
            raise InputError(path, f"list entry is not '- [Title](link) (year)': {text[:80]!r}", line=no, field="entry")
        um = URL_ID.search(im["url"])
        pid = clean_id(um["id"]) if um else None
        if um and pid is None:
            raise InputError(path, f"paper id {um['id']!r} in the link is not a valid id", line=no, field="id")
        section.append(PaperRecord(title=im["title"], id=pid, year=int(im["year"]) if im["year"] else None))
    close_section()
    if page.paper.id is None:
        raise InputError(path, "no 'arXiv: https://arxiv.org/abs/ID' line", field="arXiv id")
    return page


def parse_text(path: Path, lines: list[tuple[int, str]]) -> Page:
    header_line, header = lines[0]
    hm = TXT_HEADER.match(header)
    rest = [(no, t.strip()) for no, t in lines[1:]]
    nonblank = [(no, t) for no, t in rest if t]
    if not nonblank:
        raise InputError(path, "page has no title", line=header_line, field="title")
    page = Page(path, PaperRecord(title=nonblank[0][1]))
    page.data_through = _date(hm["date"], path, header_line, "data to")
    section: list[PaperRecord] | None = None
    expected: tuple[int, str, int] | None = None
    in_abstract = False

    def close_section() -> None:
        if expected and section is not None:
            _check_count(path, expected[0], expected[1], expected[2], len(section))

    for no, raw in lines[1:]:
        text = raw.strip()
        if text == "Abstract (arXiv)":
            in_abstract = True
            continue
        if text.startswith("Key facts."):
            in_abstract = False
            _key_facts(text, page, no)
            continue
        if in_abstract or not text:
            continue
        if page.paper.id is None and (im := TXT_ID_LINE.match(text)):
            page.paper.id = clean_id(im["id"])
            if page.paper.id is None:
                raise InputError(path, f"arXiv id {im['id']!r} is not a valid id", line=no, field="arXiv id")
            page.paper.posted = _date(im["date"], path, no, "first posted")
            page.paper.year = int(page.paper.posted[:4])
            page.paper.areas = im["areas"].split()
            page.paper.cited_by = parse_int(im["cited"])
            continue
        if rm := TXT_REFS.match(text):
            close_section()
            section, expected = page.references, (no, "References", parse_int(rm["n"]))
            continue
        if TXT_CITERS.match(text):
            close_section()
            section, expected = page.citers, None
            continue
        if pm := TXT_PER_YEAR.match(text):
            page.paper.citations_by_year = _per_year(pm["pairs"], path, no)
            continue
        if (sm := TXT_SHOWN.match(text)) and section is page.citers:
            _check_count(path, no, "Built on by", int(sm["shown"]), len(section))
            continue
        if section is not None and TXT_ITEM_START.match(raw):
            im = TXT_ITEM.match(raw)
            if not im:
                raise InputError(
                    path, f"list entry is not 'N. YEARTitlecited by N': {text[:80]!r}", line=no, field="entry"
                )
            section.append(
                PaperRecord(title=im["title"].strip(), year=int(im["year"]), cited_by=parse_int(im["cited"]))
            )
    close_section()
    if page.paper.id is None:
        raise InputError(path, "no 'arXiv ID ↗First posted ...' line", field="arXiv id")
    return page


def _per_year(pairs: str, path: Path, line: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for part in pairs.split(";"):
        m = re.fullmatch(r"\s*(\d{4})\s*:\s*(\d[\d,]*)\s*", part)
        if not m:
            raise InputError(
                path, f"cannot read {part.strip()!r} as 'YEAR: COUNT'", line=line, field="citing papers per year"
            )
        out[int(m[1])] = parse_int(m[2])
    return out


def parse_page(path: str | Path) -> Page:
    """Parse one saved page, in whichever of the two forms it is."""
    path = Path(path)
    lines = list(read_lines(path))
    while lines and not lines[0][1].strip():
        lines.pop(0)
    if not lines:
        raise InputError(path, "file is empty", line=1)
    first = lines[0][1]
    if first.startswith("# "):
        return parse_markdown(path, lines)
    if TXT_HEADER.match(first):
        return parse_text(path, lines)
    raise InputError(
        path, "not a saved citation-map page (expected '# Title' or 'mlsanity Data to ...')", line=lines[0][0]
    )


def add_pages(builder: DatasetBuilder, pages: list[Page]) -> None:
    """Add each page's paper, its references (it cites them) and its citers (they cite it)."""
    # own pages first, so that list entries merge into the authoritative records
    keys = [builder.add(page.paper, authoritative=True) for page in pages]
    for key, page in zip(keys, pages, strict=True):
        for ref in page.references:
            builder.cite(key, builder.add(ref))
        for citer in page.citers:
            builder.cite(builder.add(citer), key)
