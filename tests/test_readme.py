"""The figures the README states are the ones the commands print today."""

from __future__ import annotations

import re

import pytest

from dashboard.store import Store
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def number(text: str) -> int:
    return int(text.replace(",", ""))


def test_default_dataset_figures(store: Store) -> None:
    m = re.search(r"It holds ([\d,]+) papers and ([\d,]+) citation edges", README)
    assert m, "the README no longer states the default dataset's size"
    assert (number(m[1]), number(m[2])) == (store.n, store.n_citations)


@pytest.mark.slow
def test_arxiv_2023_figures(arxiv_store: Store) -> None:
    m = re.search(r"citemap import arxiv2023 .*# ([\d,]+) papers, ([\d,]+) citations", README)
    assert m, "the README no longer states what the arxiv-2023 import gives"
    assert (number(m[1]), number(m[2])) == (arxiv_store.n, arxiv_store.n_citations)
    s = arxiv_store.meta["summary"]
    m = re.search(r"arxiv-2023 has ([\d,]+) rows and ([\d,]+) edge rows", README)
    assert m and (number(m[1]), number(m[2])) == (s["records"], s["edges_seen"])
