"""Papers that share a title: the merge rule leaves none of the default dataset that it would join, and
``title_groups`` tells the groups it keeps apart from those it missed."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from dashboard.dataset.duplicates import APART_ARXIV, APART_YEARS, MERGEABLE, title_groups
from dashboard.dataset.keys import ARXIV_ID, normalise_title
from dashboard.dataset.store import Store
from dashboard.dataset.write import write_dataset
from dashboard.importers.common import DatasetBuilder, PaperRecord


def test_the_default_dataset_keeps_apart_only_two_arxiv_ids_of_one_title(default_store: Store) -> None:
    groups = title_groups(default_store)
    assert (groups.groups, groups.papers) == (7, 14)
    assert groups.by_reason == {APART_ARXIV: 7, APART_YEARS: 0, MERGEABLE: 0}
    example = groups.examples[APART_ARXIV]
    assert len(example) == 2 and all(ARXIV_ID.match(pid) for pid in example)
    titles = default_store.titles([default_store.row(pid) for pid in example])
    assert normalise_title(titles[0]) == normalise_title(titles[1])


def test_merged_ids_still_name_their_paper(default_store: Store) -> None:
    s = default_store
    for old, pid in (("ogbn-90391", "1610.02415"), ("ogbn-102042", "1106.1813"), ("ogbn-41480", "1706.03762")):
        row = s.resolve(old)
        assert row is not None and s.id(row) == pid, old
        assert old in s.paper(row)["alt_ids"]
    # the citers of both records are one paper's: 12 and 23 before, some citing both
    assert s.n_citers(s.row("1610.02415")) == 30


def store_of(folder: Path, records: list[PaperRecord], years: dict[str, int] | None = None) -> Store:
    """A store of ``records`` as the builder merges them, then with the ``years`` of some papers changed (a
    dataset the rule did not write)."""
    b = DatasetBuilder()
    for rec in records:
        b.add(rec)
    papers, citations, _ = b.build()
    if years:
        ids = papers.column("id").to_pylist()
        new = [years.get(pid, y) for pid, y in zip(ids, papers.column("year").to_pylist(), strict=True)]
        papers = papers.set_column(papers.schema.get_field_index("year"), "year", pa.array(new, pa.int16()))
    write_dataset(folder, papers, citations, {"name": folder.name})
    return Store.load(folder)


def test_groups_by_why_they_are_apart(tmp_path: Path) -> None:
    records = [
        PaperRecord(title="Point Transformer", id="2011.00931", year=2020),
        PaperRecord(title="Point transformer.", id="2012.09164", year=2020),  # two arXiv ids: apart
        PaperRecord(title="A Survey", id="W1", year=2000),
        PaperRecord(title="a survey", id="W2", year=2010),  # ten years apart, not arXiv papers: apart
        PaperRecord(title="Données", id="W3", year=2000),
        PaperRecord(title="donnees", id="W4", year=2010),  # the same once accents are set aside (not ASCII)
        PaperRecord(title="深度学习", id="W5", year=2000),
        PaperRecord(title="强化学习", id="W6", year=2000),  # no key: not a group
        PaperRecord(title="Alone", id="W7", year=2000),
    ]
    groups = title_groups(store_of(tmp_path / "a", records))
    assert groups.by_reason == {APART_ARXIV: 1, APART_YEARS: 2, MERGEABLE: 0} and groups.papers == 6
    # the same papers, two of them now a year apart: the rule would have joined them
    groups = title_groups(store_of(tmp_path / "b", records, years={"W2": 2001}))
    assert groups.by_reason == {APART_ARXIV: 1, APART_YEARS: 1, MERGEABLE: 1}
    assert sorted(groups.examples[MERGEABLE]) == ["W1", "W2"]
    groups = title_groups(store_of(tmp_path / "c", records, years={"W4": 2002}))
    assert sorted(groups.examples[MERGEABLE]) == ["W3", "W4"]
