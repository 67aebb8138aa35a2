"""The BibTeX and RIS exports read back by the tools researchers use: bibtexparser 2 (what each field says),
pybtex's formatting with the ``plain`` style (what a bibliography prints) and rispy (what a reference manager
imports), on titles with math, braces, accents, acronyms and LaTeX's special characters, and on the default view."""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pylatexenc.latex2text import LatexNodes2Text

from dashboard.dataset.store import Store
from dashboard.graph.state import ViewState
from dashboard.importers.common import PaperRecord
from dashboard.view import export
from dashboard.view.export_bibtex import bib_name, bib_title, math_spans
from dashboard.view.export_ris import ris_name, ris_type
from dashboard.view.payload import compute_view
from dashboard.web.callbacks.common import read_state
from tests.conftest import make_store

# papers whose titles are hard to carry through BibTeX: each with what a style must print of its title (words and
# math as written, whatever case the style gives the rest) and what it must not print (a word the style lower-cased)
PAPERS = [
    (
        PaperRecord(
            title=r"Scaling Up Models and Data with $\texttt{t5x}$ and $\texttt{seqio}$",
            id="2203.17189",
            year=2022,
            areas=["cs.LG"],
            authors=["Adam Roberts", "Hyung Won Chung"],
        ),
        [r"$\texttt t5x$", r"$\texttt seqio$", "Scaling up models"],
        [r"\$"],
    ),
    (
        PaperRecord(
            title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
            id="1810.04805",
            year=2019,
            areas=["cs.CL"],
            authors=["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
            venue="Proceedings of NAACL-HLT 2019",
            doi="10.18653/v1/N19-1423",
        ),
        ["BERT: pre-training of deep bidirectional transformers"],
        ["Bert", "citemap"],
    ),
    (
        PaperRecord(
            title="Language Models are Few-Shot Learners: GPT-3 beats LSTM and U-Net on ImageNet",
            id="2005.14165",
            year=2020,
            areas=["cs.CL"],
            authors=["Tom B. Brown", "Martin Luther King Jr.", "Ludwig van Beethoven"],
            venue="Advances in Neural Information Processing Systems",
        ),
        ["Language models are few-shot learners: GPT-3 beats LSTM and U-Net on ImageNet"],
        ["Gpt", "Imagenet", "Lstm"],
    ),
    (
        PaperRecord(
            title="Café Straße: Ørsted's Über-Model for Ångström Data",
            id="W1000000001",
            year=2021,
            areas=["Computer Science"],
            authors=["José Müller", "Søren Kierkegaard", "王小明", "Plato"],
            venue="Journal of Scandinavian Øresund Studies",
            doi="10.1000/oresund.2021.5",
        ),
        # pybtex keeps the case of a letter written as an accent command ({\O}); BibTeX itself lower-cases it
        # (test_bibtex_compiles_with_pdflatex)
        ["Café straße: Ørsted's Über-model for Ångström data"],
        [],
    ),
    (
        PaperRecord(
            title="word2vec Explained: Deriving Mikolov et al.'s Negative-Sampling Word-Embedding Method",
            id="W1000000002",
            year=2014,
            areas=["cs.CL"],
            alt_ids=["1402.3722"],
            authors=["Yoav Goldberg", "Omer Levy"],
            venue="arXiv (Cornell University)",
        ),
        ["word2vec explained: deriving mikolov"],
        ["Word2vec"],
    ),
    (
        PaperRecord(
            title="Braces {kept} as Text, a Set \\{x\\} and an @ Sign: user@host",
            id="hep-th_9901001",
            year=1999,
            areas=["hep-th"],
            authors=["Ann {Brace}"],
        ),
        # pybtex's text renderer leaves \{ and \} (and \$) undecoded: the braces are checked through bibtexparser
        ["as text, a set", "and an @ sign: user@host"],
        [],
    ),
    (
        PaperRecord(
            title="100% Accuracy & 50% Recall: Q&A with #Tags, snake_case and ~Tildes",
            id="t-percent",
            year=2023,
            authors=["Gus & Sons %"],
            venue="Workshop on Odd Titles",
        ),
        ["100% accuracy & 50% recall: Q&A with #tags, snake_case and ~tildes"],
        ["q&a"],
    ),
    (
        PaperRecord(
            title=r"Adversarial Robustness: Why both $L_0$ and $L_\infty$ Attacks Are Necessary",
            id="2304.00001",
            year=2023,
            areas=["cs.LG"],
        ),
        ["Adversarial robustness: why both $L_0$ and $L_\\infty $ attacks are necessary"],
        ["$l_0$"],
    ),
    (
        PaperRecord(title="S$^3$: Social-network Simulation in 3D", id="2307.14984", year=2023, areas=["cs.SI"]),
        ["S³: social-network simulation in 3D"],  # pybtex prints simple math as Unicode
        ["s³", "3d"],
    ),
    (
        PaperRecord(title="A $5 Model and a $10 Model: Prices -- ``Quoted''", id="t-dollars", year=2020),
        ["5 model and a", "10 model: prices"],
        [],
    ),
    (
        PaperRecord(
            title="β-VAE Beats Δ-VAE When α < ω and |x| > 2: “Quoted” at 25°C",
            id="t-greek",
            year=2024,
            authors=["Google DeepMind", "The ATLAS Collaboration", "John Smith Jr.", "Élodie Ørsted"],
        ),
        ["β-VAE beats Δ-VAE when α", "and", "2: “quoted” at 25°c"],  # pybtex prints < and | as the math they are
        ["Beats", "When"],
    ),
]
# a paper whose title holds characters the export writes as math (Greek letters, <, >, |): read back with math as
# text, its title is the paper's
MATH_WRITTEN = {"t-greek"}


@pytest.fixture(scope="module")
def odd(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, object]:
    """A store of :data:`PAPERS` and the view of all of them."""
    store = make_store(tmp_path_factory.mktemp("odd") / "odd", [p for p, _, _ in PAPERS])
    view = compute_view(store, ViewState(tuple(p.id for p, _, _ in PAPERS)))
    assert sorted(view.ids) == sorted(p.id for p, _, _ in PAPERS)
    return store, view


def _bibtexparser(text: str):
    from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors

    decoder = LatexNodes2Text(math_mode="verbatim")  # math is kept as LaTeX: decoded, it stays as written
    library = bibtexparser.parse_string(
        text, append_middleware=[SeparateCoAuthors(), LatexDecodingMiddleware(decoder=decoder)]
    )
    return library, decoder


_AS_TEXT = LatexNodes2Text()  # pylatexenc reading math as text, as bibtexparser's LatexDecodingMiddleware does


def _spoken(author: str) -> str:
    """An author of an ``author`` field as BibTeX splits it (pybtex's parts), said "First von Last Jr."."""
    from pybtex.database import Person

    p = Person(author)
    return " ".join(p.first_names + p.middle_names + p.prelast_names + p.last_names + p.lineage_names)


def _pybtex(text: str) -> dict[str, str]:
    """Each entry of a BibTeX file as pybtex's ``plain`` style prints it, as text, by its key."""
    from pybtex.database import parse_string
    from pybtex.plugin import find_plugin

    data = parse_string(text, "bibtex")
    style = find_plugin("pybtex.style.formatting", "plain")()
    backend = find_plugin("pybtex.backends", "text")()
    return {e.key: e.text.render(backend) for e in style.format_entries(data.entries.values())}


def test_titles_keep_their_math_and_their_capitals_protected() -> None:
    assert bib_title(r"Scaling up models with $\texttt{t5x}$") == r"Scaling up models with {$\texttt{t5x}$}"
    assert bib_title("BERT: Pre-training of Deep Nets") == "{BERT}: Pre-training of Deep Nets"
    assert (
        bib_title("GPT-3 and ImageNet with LSTM, U-Net, X-ray")
        == "{GPT-3} and {ImageNet} with {LSTM}, {U-Net}, {X-ray}"
    )
    # one capital, first: no braces; letters beyond ASCII as LaTeX
    assert bib_title("Multi-Modal Über Café in 3D") == r"""Multi-Modal {\"U}ber Caf{\'e} in {3D}"""
    assert bib_title("word2vec Explained") == "{word2vec} Explained"  # a small first letter is kept
    assert bib_title("S$^3$ and RL$^2$") == "{S}{$^3$} and {RL}{$^2$}"  # a capital touching math
    # no math: a lone $, a $ before a digit (a price), an escaped \$, unpaired braces or a % in a span
    assert bib_title("Costs $5") == r"Costs \$5"
    assert bib_title("From $5 to $10") == r"From \$5 to \$10"
    assert bib_title(r"A \$ sign") == r"A \textbackslash{}\$ sign"
    assert bib_title("Odd $a}{b$ and $50%$") == r"Odd \$a\}\{b\$ and \$50\%\$"
    assert math_spans(r"$ O(|E|^2) $ and $\{x\}$") == [(0, 12), (17, 24)]
    assert math_spans("$$x$$") == [] and math_spans(r"$x\$") == [] and math_spans("$a\nb$") == []


_PIECES = [*"aBcDxyZ 09-'`!?@$\\{}&%#_~^éßøÅ", "GPT", "LSTM", " and ", "\\texttt{t5x}", "$x$", "$L_2$", "\\$"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=14).map(lambda parts: "".join(parts).strip()))
def test_any_title_reads_back_as_written(title: str) -> None:
    """Any title made of letters, math, LaTeX's special characters and what LaTeX reads as ligatures, written as a
    BibTeX title, reads back through bibtexparser, LaTeX-decoded with math kept, as itself."""
    library, _ = _bibtexparser("@misc{k,\n  title = {" + bib_title(title) + "}\n}\n")
    assert library.failed_blocks == []
    assert [e.fields_dict["title"].value for e in library.entries] == ([title] if title else [""])


_BEYOND_ASCII = [*"aBcDxyZ 09-'`!?@\\{}&%#_~^<>|", "éßøÅ", "αβΔΣω", "≤∞±°", "“q”", "GPT", " and ", "Über"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_BEYOND_ASCII), min_size=1, max_size=14).map(lambda parts: "".join(parts).strip()))
def test_any_title_beyond_ascii_is_written_in_ascii_and_reads_back(title: str) -> None:
    """Any title (without math of its own) of letters beyond ASCII, Greek letters, mathematical signs, < > | and
    LaTeX's special characters is written in ASCII, and reads back through bibtexparser, with math read as text, as
    itself."""
    field = bib_title(title)
    assert field.isascii()
    library = bibtexparser.parse_string("@misc{k,\n  title = {" + field + "}\n}\n")
    assert library.failed_blocks == []
    assert [_AS_TEXT.latex_to_text(e.fields_dict["title"].value) for e in library.entries] == [title]


def test_bibtex_reads_back_with_bibtexparser(odd) -> None:
    """Every entry parses; each title, LaTeX-decoded with math kept, is the paper's title, character for
    character; authors likewise; the citemap id is in ``citemapid``, no ``note``; arXiv papers carry their arXiv
    fields, whichever of their ids is the arXiv one."""
    store, view = odd
    text, name = export.export(store, view, "bibtex")
    assert name.endswith("-papers.bib")
    library, decoder = _bibtexparser(text)
    raw = {e.fields_dict["citemapid"].value: e.fields_dict for e in bibtexparser.parse_string(text).entries}
    assert library.failed_blocks == [] and len(library.entries) == len(PAPERS)
    by_id = {e.fields_dict["citemapid"].value: e.fields_dict for e in library.entries}
    assert list(by_id) == view.ids
    for paper, _, _ in PAPERS:
        fields = by_id[paper.id]
        assert "note" not in fields
        if paper.id in MATH_WRITTEN:
            assert _AS_TEXT.latex_to_text(raw[paper.id]["title"].value) == paper.title
        else:
            assert fields["title"].value == paper.title, paper.id
        authors = [_spoken(decoder.latex_to_text(a)) for a in fields["author"].value] if "author" in fields else []
        assert authors == paper.authors
        assert fields["year"].value == str(paper.year)
        assert (fields["doi"].value if "doi" in fields else None) == paper.doi
    arxiv = {pid: f["eprint"].value for pid, f in by_id.items() if "eprint" in f}
    assert arxiv == {
        "2203.17189": "2203.17189",
        "1810.04805": "1810.04805",
        "2005.14165": "2005.14165",
        "W1000000002": "1402.3722",  # its other id
        "hep-th_9901001": "hep-th/9901001",  # as arXiv writes an old-style id
        "2304.00001": "2304.00001",
        "2307.14984": "2307.14984",
    }
    for pid, eprint in arxiv.items():
        assert by_id[pid]["archivePrefix"].value == "arXiv"
        assert by_id[pid]["url"].value == "https://arxiv.org/abs/" + eprint
    classes = {pid: f["primaryClass"].value for pid, f in by_id.items() if "primaryClass" in f}
    assert classes == {
        "2203.17189": "cs.LG",
        "1810.04805": "cs.CL",
        "2005.14165": "cs.CL",
        "W1000000002": "cs.CL",
        "hep-th_9901001": "hep-th",
        "2304.00001": "cs.LG",
        "2307.14984": "cs.SI",
    }


def test_bibtex_prints_through_pybtex_with_capitals_and_math_as_written(odd) -> None:
    """pybtex's ``plain`` style lower-cases titles: the protected words and the math come out as written, the
    other words in the style's case; no reference prints the citemap id."""
    store, view = odd
    text = export.to_bibtex(store, view)
    printed = _pybtex(text)
    assert len(printed) == len(PAPERS)
    keys = dict(zip(view.ids, (m[1] for m in re.finditer(r"^@misc\{([^,]+),", text, re.M)), strict=True))
    for paper, shown, not_shown in PAPERS:
        out = printed[keys[paper.id]]
        for part in shown:
            assert part in out, (paper.id, part, out)
        for part in not_shown:
            assert part not in out, (paper.id, part, out)
        assert "citemap" not in out.lower()
    assert "arXiv:1810.04805" in printed[keys["1810.04805"]]  # the eprint is printed as arXiv's id


def _first_last(name: str) -> str:
    """An RIS author ("Last, First" or "Last, First, Suffix") as "First Last [Suffix]"."""
    parts = name.split(", ")
    return " ".join([*parts[1:2], parts[0], *parts[2:]])


def test_ris_reads_back_with_rispy(odd) -> None:
    """rispy reads every record back: the same titles, authors (written "Last, First"), years, DOIs and ids; the
    type from the venue; arXiv papers with their arXiv id and page."""
    import rispy

    store, view = odd
    text, name = export.export(store, view, "ris")
    assert name.endswith("-papers.ris") and text.startswith("TY  - ") and "\n1.\n" not in text
    records = rispy.loads(text)
    assert [r["id"] for r in records] == view.ids
    by_id = {r["id"]: r for r in records}
    for paper, _, _ in PAPERS:
        r = by_id[paper.id]
        assert r["title"] == paper.title
        assert [_first_last(a) for a in r.get("authors", [])] == paper.authors
        assert r["year"] == str(paper.year) and r.get("doi") == paper.doi
        assert r.get("secondary_title") == paper.venue
    assert by_id["1810.04805"]["authors"][:2] == ["Devlin, Jacob", "Chang, Ming-Wei"]
    assert by_id["2005.14165"]["authors"] == ["Brown, Tom B.", "King, Martin Luther, Jr.", "van Beethoven, Ludwig"]
    assert by_id["W1000000001"]["authors"][2:] == ["王小明", "Plato"]
    types = {pid: r["type_of_reference"] for pid, r in by_id.items()}
    assert types["1810.04805"] == types["2005.14165"] == types["t-percent"] == "CONF"
    assert (
        types["W1000000001"] == "JOUR"
        and by_id["W1000000001"]["journal_name"] == "Journal of Scandinavian Øresund Studies"
    )
    assert types["W1000000002"] == types["2203.17189"] == "GEN"  # a preprint server, no venue
    assert by_id["W1000000002"]["accession_number"] == "arXiv:1402.3722"
    assert by_id["W1000000002"]["name_of_database"] == "arXiv"
    assert by_id["W1000000002"]["urls"] == ["https://arxiv.org/abs/1402.3722"]
    assert by_id["hep-th_9901001"]["accession_number"] == "arXiv:hep-th/9901001"
    assert by_id["W1000000001"]["urls"] == ["https://doi.org/10.1000/oresund.2021.5"]
    assert "accession_number" not in by_id["t-percent"] and "urls" not in by_id["t-percent"]


@pytest.mark.parametrize(
    ("name", "first", "von", "last", "jr"),
    [
        ("Martin Luther King Jr.", "Martin Luther", "", "King", "Jr."),
        ("John Smith, Jr.", "John", "", "Smith", "Jr."),
        ("Smith, Jr., John", "John", "", "Smith", "Jr."),
        ("Smith, John, Jr.", "John", "", "Smith", "Jr."),
        ("Henry Ford II", "Henry", "", "Ford", "II"),
        ("Ludwig van Beethoven III", "Ludwig", "van", "Beethoven", "III"),
        ("Ludwig van Beethoven", "Ludwig", "van", "Beethoven", ""),
        ("Devlin, Jacob", "Jacob", "", "Devlin", ""),
        ("Google DeepMind", "", "", "{Google DeepMind}", ""),
        ("The ATLAS Collaboration", "", "", "{The ATLAS Collaboration}", ""),
        ("Meta AI", "", "", "{Meta AI}", ""),
        ("Allen Institute for AI", "", "", "{Allen Institute for AI}", ""),
        ("Qingyao Ai", "Qingyao", "", "Ai", ""),  # "AI" marks an organisation only in capitals
        ("The Anh Nguyen", "The Anh", "", "Nguyen", ""),  # a first word "The" is no sign
        ("Élodie Ørsted", r"{\'E}lodie", "", r"{\O}rsted", ""),
        ("Plato", "", "", "Plato", ""),
    ],
)
def test_bibtex_names_split_as_bibtex_reads_them(name: str, first: str, von: str, last: str, jr: str) -> None:
    """pybtex splits an author of the export as BibTeX does: a suffix is the suffix, an organisation one last name."""
    from pybtex.database import Person

    p = Person(bib_name(name))
    parts = (p.first_names + p.middle_names, p.prelast_names, p.last_names, p.lineage_names)
    assert tuple(" ".join(part) for part in parts) == (first, von, last, jr)


def test_ris_names_and_types() -> None:
    assert ris_name("Jacob Devlin") == "Devlin, Jacob"
    assert ris_name("Google DeepMind") == "Google DeepMind" and ris_name("John Smith, Jr.") == "Smith, John, Jr."
    assert ris_name("Ludwig van der Berg") == "van der Berg, Ludwig"
    assert ris_name("Devlin, Jacob") == "Devlin, Jacob" and ris_name("Plato") == "Plato"
    assert ris_name("Ann\nLee") == "Lee, Ann"  # a line break is a space
    assert ris_name("Henry Ford II") == "Ford, Henry, II" and ris_name("Li Xi") == "Xi, Li"
    assert ris_type(None) == ris_type("arXiv (Cornell University)") == ris_type("bioRxiv") == "GEN"
    assert ris_type("ICML") == ris_type("Proceedings of the ACM Conference") == ris_type("NeurIPS 2020") == "CONF"
    assert ris_type("Nature") == ris_type("IEEE Transactions on Pattern Analysis") == "JOUR"
    assert ris_type("Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition") == "CONF"
    for journal in ("Proceedings of the National Academy of Sciences", "Proceedings of the IEEE", "Proc. VLDB Endow."):
        assert ris_type(journal) == "JOUR", journal
    assert ris_type("Proceedings of the ACM on Programming Languages") == "JOUR"


def test_the_default_view_exports_arxiv_fields_and_no_printed_id(default_store: Store) -> None:
    """The page's first view on the default dataset, exported as BibTeX and RIS: every arXiv paper has ``eprint``
    and ``archivePrefix`` (in RIS its accession number); no reference prints the citemap id; every entry parses
    in bibtexparser, pybtex and rispy."""
    import rispy

    state, _ = read_state(default_store, "")
    view = compute_view(default_store, state)
    assert view.n_nodes > 100
    text = export.to_bibtex(default_store, view)
    assert "note = " not in text and "citemap id" not in text
    library, _ = _bibtexparser(text)
    assert library.failed_blocks == [] and len(library.entries) == view.n_nodes
    arxiv = re.compile(r"^\d{4}\.\d{4,5}$")
    for entry in library.entries:
        fields = entry.fields_dict
        pid = fields["citemapid"].value
        if arxiv.match(pid):
            assert fields["eprint"].value == pid and fields["archivePrefix"].value == "arXiv", pid
    assert sum(bool(arxiv.match(pid)) for pid in view.ids) > 100
    printed = _pybtex(text)
    assert len(printed) == view.n_nodes and not any("citemap" in out.lower() for out in printed.values())
    records = rispy.loads(export.to_ris(default_store, view))
    assert [r["id"] for r in records] == view.ids
    for r in records:
        if arxiv.match(r["id"]):
            assert r["accession_number"] == "arXiv:" + r["id"] and r["name_of_database"] == "arXiv"


def test_every_title_of_the_default_dataset_with_latex_or_special_characters_reads_back(
    default_store: Store, tmp_path: Path
) -> None:
    """Each title of the default dataset holding math or one of LaTeX's special characters, written as a BibTeX
    title, reads back through bibtexparser as the title, and pybtex formats it; its math is printed as math (kept,
    or as pybtex renders it), not as escaped text."""
    titles = [t for t in default_store.titles(list(range(default_store.n))) if re.search(r"[\\{}$&%#_~^@]", t)]
    assert len(titles) > 200
    with_math = [t for t in titles if math_spans(t)]
    assert len(with_math) > 80
    text = "".join(
        f"@misc{{t{k},\n  title = {{{bib_title(t)}}},\n  year = {{2000}}\n}}\n\n" for k, t in enumerate(titles)
    )
    library, _ = _bibtexparser(text)
    assert library.failed_blocks == []
    decoded = [e.fields_dict["title"].value for e in library.entries]
    assert [d for d, t in zip(decoded, titles, strict=True) if t.isascii()] == [t for t in titles if t.isascii()]
    # a title with characters beyond ASCII: written in ASCII (as LaTeX), and read with math as text, it holds each
    beyond = [
        (e.fields_dict["title"].value, t)
        for e, t in zip(bibtexparser.parse_string(text).entries, titles, strict=True)
        if not t.isascii()
    ]
    assert len(beyond) > 5
    for field, t in beyond:
        assert field.isascii(), t
        assert all(c in _AS_TEXT.latex_to_text(field) for c in t if not c.isascii()), (t, field)
    printed = _pybtex(text)
    assert len(printed) == len(titles)
    for k, t in enumerate(titles):
        if t in with_math:
            assert not re.search(r"\\[${}]|textbackslash", printed[f"t{k}"]), (t, printed[f"t{k}"])
