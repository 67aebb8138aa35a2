"""The figures the README states are the ones the commands print today."""

from __future__ import annotations

import re

import pytest

from dashboard.dataset.store import Store
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def number(text: str) -> int:
    return int(text.replace(",", ""))


def test_default_dataset_figures(default_store: Store, store: Store) -> None:
    m = re.search(r"It holds ([\d,]+) papers and ([\d,]+) citation edges \((\d+) MB with its index\)", README)
    assert m, "the README no longer states the default dataset's size"
    assert (number(m[1]), number(m[2])) == (default_store.n, default_store.n_citations)
    size = sum(f.stat().st_size for f in default_store.build.rglob("*") if f.is_file())  # the build it serves
    assert abs(size / 2**20 - int(m[3])) < 1
    m = re.search(r"counts them: mlsanity pages ([\d,]+), arxiv-2023 ([\d,]+)\)", README)
    assert m and default_store.source_counts() == {"mlsanity pages": number(m[1]), "arxiv-2023": number(m[2])}
    m = re.search(r"the (\d+) papers the pages list that arxiv-2023 also holds", README)
    shared = sum(1 for s in default_store.papers.column("sources").to_pylist() if len(s) == 2)
    assert m and number(m[1]) == shared
    m = re.search(r"give ([\d,]+) papers and ([\d,]+) citations", README)  # the pages alone
    assert m and (number(m[1]), number(m[2])) == (store.n, store.n_citations)


@pytest.mark.slow
def test_arxiv_2023_figures(arxiv_store: Store) -> None:
    m = re.search(r"citemap import arxiv2023 .*# ([\d,]+) papers, ([\d,]+) citations", README)
    assert m, "the README no longer states what the arxiv-2023 import gives"
    assert (number(m[1]), number(m[2])) == (arxiv_store.n, arxiv_store.n_citations)
    s = arxiv_store.meta["summary"]
    m = re.search(r"arxiv-2023 has ([\d,]+) rows and ([\d,]+) edge rows", README)
    assert m and (number(m[1]), number(m[2])) == (s["records"], s["edges_seen"])
