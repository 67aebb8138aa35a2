"""What a researcher types or links for a paper, as the keys the store looks up (dashboard/dataset/id_forms.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dashboard.dataset.id_forms import MAX_TEXT, arxiv_spelling, candidates, doi_of, readable, typed_prefix

S2_ID = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"


@pytest.mark.parametrize(
    "text",
    [
        "1706.03762",
        "  1706.03762 ",
        "1706.03762v5",
        "1706.03762V12",
        "arXiv:1706.03762",
        "arxiv:1706.03762v5",
        "ARXIV: 1706.03762",
        "https://arxiv.org/abs/1706.03762",
        "https://arxiv.org/abs/1706.03762v5",
        "http://arxiv.org/abs/1706.03762",
        "https://www.arxiv.org/abs/1706.03762",
        "https://export.arxiv.org/abs/1706.03762v2",
        "arxiv.org/abs/1706.03762",
        "https://arxiv.org/pdf/1706.03762",
        "https://arxiv.org/pdf/1706.03762.pdf",
        "https://arxiv.org/pdf/1706.03762v5.pdf",
        "https://arxiv.org/pdf/1706.03762v5",
        "https://arxiv.org/html/1706.03762v7",
        "https://arxiv.org/abs/1706.03762/",
        "https://arxiv.org/abs/1706.03762?context=cs",
        "https://arxiv.org/abs/1706.03762#section",
        "HTTPS://ARXIV.ORG/ABS/1706.03762",
    ],
)
def test_every_form_of_an_arxiv_id_names_it_first(text: str) -> None:
    assert candidates(text)[0] == ("arxiv", "1706.03762")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("hep-th/9901001", "hep-th_9901001"),
        ("hep-th/9901001v2", "hep-th_9901001"),
        ("arXiv:hep-th/9901001", "hep-th_9901001"),
        ("https://arxiv.org/abs/hep-th/9901001v3", "hep-th_9901001"),
        ("https://arxiv.org/pdf/hep-th/9901001.pdf", "hep-th_9901001"),
        ("math.AG/0101001", "math.AG_0101001"),
        ("math.ag/0101001", "math.AG_0101001"),
        ("MATH.AG/0101001", "math.AG_0101001"),
        ("hep-th_9901001", "hep-th_9901001"),  # as datasets spell it
        ("hep-th_9901001v2", "hep-th_9901001"),
        ("10.48550/arXiv.hep-th/9901001", "hep-th_9901001"),
        ("1501.00001", "1501.00001"),  # five digits after the dot
        ("0704.0001", "0704.0001"),  # four
    ],
)
def test_old_style_and_both_new_style_arxiv_ids(text: str, key: str) -> None:
    assert candidates(text)[0] == ("arxiv", key)


def test_arxiv_spelling_is_the_importers() -> None:
    from dashboard.importers.fields import arxiv_key

    for raw in ("1706.03762", "hep-th/9901001", "math.ag/0101001", "Math.AG/0101001", "cond-mat/0001001"):
        assert arxiv_spelling(raw) == arxiv_key(raw)


@pytest.mark.parametrize(
    "text",
    [
        "10.48550/arXiv.1706.03762",
        "10.48550/ARXIV.1706.03762",
        "10.48550/arxiv.1706.03762v5",
        "doi:10.48550/arXiv.1706.03762",
        "https://doi.org/10.48550/arXiv.1706.03762",
        "http://dx.doi.org/10.48550/arXiv.1706.03762",
        "https://doi.org/10.48550%2FarXiv.1706.03762",
    ],
)
def test_arxivs_dois_name_the_arxiv_id_then_the_doi(text: str) -> None:
    found = candidates(text)
    assert found[0] == ("arxiv", "1706.03762")
    assert found[1][0] == "doi" and found[1][1].startswith("10.48550/arxiv.1706.03762") and len(found) == 2


@pytest.mark.parametrize(
    "text",
    [
        "10.1038/nature14539",
        "10.1038/NATURE14539",
        " 10.1038/nature14539 ",
        "doi:10.1038/nature14539",
        "DOI: 10.1038/nature14539",
        "https://doi.org/10.1038/nature14539",
        "http://doi.org/10.1038/nature14539",
        "https://dx.doi.org/10.1038/nature14539",
        "https://www.doi.org/10.1038/nature14539",
        "doi.org/10.1038/nature14539",
        "https://doi.org/10.1038%2Fnature14539",
    ],
)
def test_every_form_of_a_doi_names_it_in_lower_case(text: str) -> None:
    assert candidates(text) == [("doi", "10.1038/nature14539")]
    assert doi_of(text) == "10.1038/nature14539"


@pytest.mark.parametrize(
    "text",
    [
        "W2741809807",
        "w2741809807",
        "https://openalex.org/W2741809807",
        "http://openalex.org/W2741809807",
        "https://openalex.org/w2741809807",
        "openalex.org/W2741809807",
        "https://openalex.org/works/W2741809807",
        "openalex.org/works/w2741809807",
        "https://api.openalex.org/works/W2741809807",
        "https://openalex.org/W2741809807/",
        "openalex:W2741809807",
    ],
)
def test_every_form_of_an_openalex_id_names_it(text: str) -> None:
    assert candidates(text)[0] == ("openalex", "W2741809807")


@pytest.mark.parametrize(
    "text",
    [
        S2_ID,
        S2_ID.upper(),
        f"https://www.semanticscholar.org/paper/Attention-is-All-you-Need-Vaswani-Shazeer/{S2_ID}",
        f"https://www.semanticscholar.org/paper/{S2_ID}",
        f"semanticscholar.org/paper/{S2_ID}/",
        f"https://api.semanticscholar.org/graph/v1/paper/{S2_ID}",
        f"https://www.semanticscholar.org/paper/Some-Title/{S2_ID}?utm_source=x",
    ],
)
def test_every_form_of_a_semantic_scholar_paper_id_names_it(text: str) -> None:
    assert candidates(text)[0] == ("s2", S2_ID)


def test_any_other_dataset_id_is_tried_as_typed() -> None:
    assert candidates("t-bd3e244602bb") == [("id", "t-bd3e244602bb")]
    assert candidates("ogbn-94029") == [("id", "ogbn-94029")]
    assert candidates("W123-2") == [("id", "W123-2")]
    # a key is tried once, whatever kinds name it; a lower-case OpenAlex id also as typed
    assert candidates("1706.03762") == [("arxiv", "1706.03762")]
    assert candidates("w5") == [("openalex", "W5"), ("id", "w5")]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "world models",
        "Attention Is All You Need",
        "1706.037",  # too short for an arXiv id, but a dataset id as typed could be anything URL-safe
        "https://example.org/abs/1706.03762",
        "https://arxiv.org/list/cs.LG/recent",
        "10.1038",
        "doi:",
        "https://openalex.org/A123",
        "204e3073870fae3d05bcbc2f6a8e263d9b72e77",  # 39 hex digits
        "1706.03762\x00",
        "arXiv:1706\n.03762",
        None,
        17,
    ],
)
def test_text_that_is_no_id_form_names_no_arxiv_doi_openalex_or_s2_key(text: object) -> None:
    assert [kind for kind, _ in candidates(text) if kind != "id"] == []


def test_only_url_safe_text_is_tried_as_a_dataset_id() -> None:
    assert candidates("1706.037") == [("id", "1706.037")]
    assert candidates("world models") == [] and candidates("a/b") == []


def test_over_long_text_and_control_characters_name_nothing() -> None:
    url = "https://arxiv.org/abs/1706.03762?" + "x" * MAX_TEXT
    assert len(url) > MAX_TEXT and candidates(url) == [] and readable(url) is None
    assert candidates("https://arxiv.org/abs/1706.03762?" + "x" * (MAX_TEXT - 40))[0] == ("arxiv", "1706.03762")
    for bad in ("1706.03762\x00", "arXiv:\x1b1706.03762", "1706.03762\x7f"):
        assert candidates(bad) == [] and readable(bad) is None
    assert readable("  1706.03762\t") == "1706.03762"  # spaces around are not part of it


def test_typed_prefix_drops_an_arxiv_label() -> None:
    assert typed_prefix("arXiv:1706.03") == "1706.03" and typed_prefix(" arxiv: 1706") == "1706"
    assert typed_prefix("1706.03") == "1706.03" and typed_prefix("world") == "world"


@given(st.text(max_size=400))
def test_any_text_gives_keys_of_known_kinds_without_repeats(text: str) -> None:
    found = candidates(text)
    assert all(kind in ("arxiv", "openalex", "s2", "doi", "id") and key for kind, key in found)
    assert len({(kind == "doi", key) for kind, key in found}) == len(found)
