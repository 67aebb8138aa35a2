"""The BibTeX export compiled as a LaTeX user compiles it: pdflatex, BibTeX, pdflatex twice, with no package loaded
(LaTeX's default font encoding, OT1) and the ``abbrv`` style, which abbreviates given names and lower-cases titles.
Its papers: every title of the default dataset with a character beyond ASCII or a ``<``, ``>`` or ``|``, and a few
papers whose authors have suffixes, accents or are organisations. Skipped where pdflatex is not installed
(scripts/install-test-tools installs Debian's texlive-latex-base)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from dashboard.view.export import arxiv_id
from dashboard.view.export_bibtex import bibtex_of

pytestmark = pytest.mark.skipif(
    shutil.which("pdflatex") is None or shutil.which("bibtex") is None,
    reason="pdflatex and bibtex are not installed (scripts/install-test-tools installs texlive-latex-base)",
)

DOCUMENT = r"""\documentclass{article}
\begin{document}
\nocite{*}
\bibliographystyle{abbrv}
\bibliography{papers}
\end{document}
"""

AUTHORED = [
    {
        "id": "t-names",
        "title": "Café Straße: Ørsted's Über-Model for Ångström Data",
        "authors": ["Martin Luther King Jr.", "Google DeepMind", "The ATLAS Collaboration", "Élodie Ørsted"],
        "year": 2021,
        "venue": "Journal of Øresund <Studies> | Letters",
        "doi": None,
        "areas": [],
        "arxiv": None,
    },
    {
        "id": "t-greek",
        "title": "β-VAE Beats Δ-VAE When α < ω and |x| > 2: “Quoted” at 25°C",
        "authors": ["John Smith, Jr.", "Łukasz Kaiser", "Ludwig van Beethoven III"],
        "year": 2024,
        "venue": None,
        "doi": None,
        "areas": [],
        "arxiv": None,
    },
]


def _records(store: Store) -> list[dict]:
    """Every paper of the default dataset whose title has a character beyond ASCII or one of < > |, as the export's
    records, then :data:`AUTHORED`."""
    out = []
    for row in range(store.n):
        p = store.paper(row)
        if p["title"].isascii() and not re.search(r"[<>|]", p["title"]):
            continue
        pid = store.ids([row])[0]
        out.append(
            {"id": pid, "title": p["title"], "authors": p["authors"], "year": p["year"], "venue": p["venue"]}
            | {"doi": p["doi"], "areas": p["areas"], "arxiv": arxiv_id(pid, p["alt_ids"], p["doi"])}
        )
    return out + AUTHORED


def _run(tmp: Path, *command: str) -> str:
    done = subprocess.run(command, cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (command, done.stdout[-3000:])
    return done.stdout


@pytest.fixture(scope="module")
def compiled(default_store: Store, tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], str, str]:
    """The records, the .bbl BibTeX wrote and pdflatex's last log."""
    tmp = tmp_path_factory.mktemp("latex")
    records = _records(default_store)
    (tmp / "papers.bib").write_text(bibtex_of(records), encoding="utf-8")
    (tmp / "doc.tex").write_text(DOCUMENT, encoding="ascii")
    latex = ("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
    _run(tmp, *latex)
    _run(tmp, "bibtex", "doc")
    _run(tmp, *latex)
    _run(tmp, *latex)
    assert (tmp / "doc.pdf").stat().st_size > 0
    return records, (tmp / "doc.bbl").read_text("ascii"), (tmp / "doc.log").read_text("latin-1")


def test_every_paper_compiles_with_nothing_missing(compiled) -> None:
    """pdflatex reports no error, no character it could not print, no citation left undefined."""
    records, bbl, log = compiled
    assert len(records) > 60
    assert bbl.count(r"\bibitem") == len(records)
    for problem in ("Error", "not set up for use with LaTeX", "Missing character", "undefined"):
        assert problem not in log, problem


def test_the_bibliography_is_ascii_and_prints_signs_as_math(compiled) -> None:
    """BibTeX's output is ASCII (every letter beyond it written as LaTeX), and <, >, | are never text (LaTeX's
    default font prints them as ¡, ¿ and —)."""
    _, bbl, _ = compiled
    assert bbl.isascii()
    outside_math = re.sub(r"\$[^$]*\$", "", bbl)
    assert not re.search(r"[<>|]", outside_math)
    assert r"{$\beta$}-VAE" in bbl and r"{$<$}" in bbl and r"{$|$}x{$|$}" in bbl
    assert r"25{\textdegree}c" in bbl  # the style lower-cases the C, as it does words


def test_names_are_split_as_written(compiled) -> None:
    """``abbrv`` abbreviates given names: a suffix stays a suffix, an organisation stays whole, an accented initial
    is one letter; in titles, BibTeX lower-cases accented capitals too (but Ø, which it leaves as written)."""
    _, bbl, _ = compiled
    entries = bbl.split(r"\bibitem")
    flat = " ".join(next(e for e in entries if "ngstr" in e).split())
    assert r"M.~L. King, Jr., {Google DeepMind}, {The ATLAS Collaboration}, and {\'E}.~{\O}rsted" in flat
    assert r"Caf{\'e} stra{\ss}e: {\O}rsted's {\"u}ber-model for {\r{a}}ngstr{\"o}m data" in flat
    greek = " ".join(next(e for e in entries if "VAE" in e).split())
    assert r"J.~Smith, Jr., {\L}.~Kaiser, and L.~van Beethoven, III" in greek
