"""Ids as researchers type and link them: the search box and the link find the paper in any common id form, and a
link naming no paper says so on the page."""

from __future__ import annotations

from tests.browser.conftest import Page

ATTENTION = "1706.03762"
ATTENTION_TITLE = "Attention Is All You Need"


def first_suggestion(page: Page, text: str) -> str:
    """Type ``text`` into the search box; the first suggestion's text, once the suggestions are for it."""
    page.page.fill("#input-search", "")
    page.page.wait_for_function("() => !document.querySelector('.search-item')")
    page.page.fill("#input-search", text)
    page.page.wait_for_selector(".search-item")
    return page.text(".search-item >> nth=0")


def test_arxiv_ids_typed_in_any_form_suggest_the_paper_first(page: Page) -> None:
    page.open("?seeds=2006.04862")
    for text in ("arXiv:1706.03762", "https://arxiv.org/abs/1706.03762v5"):
        first = first_suggestion(page, text)
        assert first.startswith(ATTENTION_TITLE), (text, first)
        assert ATTENTION in page.text(".search-item >> nth=0 >> .search-meta")
    page.page.click(".search-select >> nth=0")
    page.page.wait_for_function("id => window.location.search.includes('selected=' + id)", arg=ATTENTION)
    page.settle()
    assert page.query() == f"?seeds=2006.04862&selected={ATTENTION}"
    assert page.text("#paper-title") == ATTENTION_TITLE


def test_enter_in_the_search_box_selects_the_paper_an_id_names(page: Page) -> None:
    page.open("?seeds=2006.04862")
    assert first_suggestion(page, "https://arxiv.org/pdf/1706.03762v5.pdf").startswith(ATTENTION_TITLE)
    page.page.press("#input-search", "Enter")
    page.page.wait_for_function("id => window.location.search.includes('selected=' + id)", arg=ATTENTION)
    page.settle()
    assert page.text("#paper-title") == ATTENTION_TITLE


def test_a_link_with_an_arxiv_url_as_seed_shows_that_seed(page: Page) -> None:
    page.open(f"?seeds=https://arxiv.org/abs/{ATTENTION}")
    assert page.query() == f"?seeds={ATTENTION}"  # the canonical link names the plain id
    assert page.node_ids(".seed") == {ATTENTION}
    assert page.page.locator("#div-notices .notice").count() == 0
    page.open(f"?seeds=arXiv:{ATTENTION}v5,2006.04862&selected=https://doi.org/10.48550/arXiv.{ATTENTION}")
    assert page.query() == f"?seeds={ATTENTION},2006.04862&selected={ATTENTION}"
    assert page.node_ids(".seed") == {ATTENTION, "2006.04862"} and page.text("#paper-title") == ATTENTION_TITLE


def test_a_link_naming_no_paper_says_so_on_the_page(page: Page) -> None:
    page.open("?seeds=arXiv:0000.00000")
    notices = page.page.locator("#div-notices .notice")
    notices.first.wait_for()
    text = " ".join(notices.all_inner_texts())
    assert "Unknown paper id in seeds: 'arXiv:0000.00000'" in text
    assert "showing the default seeds" in text
    assert notices.first.is_visible()
    page.page.wait_for_timeout(1500)  # the notice stays once the default view has drawn
    assert "Unknown paper id in seeds: 'arXiv:0000.00000'" in page.text("#div-notices")


def test_words_typed_wrong_get_a_did_you_mean_whose_click_searches_it(page: Page) -> None:
    page.open("?seeds=2006.04862")
    page.page.fill("#input-search", "atention is all you need")
    page.page.wait_for_selector(".search-suggestion")
    assert page.text(".search-suggestion") == "Did you mean attention is all you need?"
    assert page.text(".search-item >> nth=0").startswith(ATTENTION_TITLE)  # the corrected words' papers, already
    page.page.click(".search-fix")
    page.page.wait_for_function("() => document.querySelector('#input-search').value === 'attention is all you need'")
    page.page.wait_for_function(
        "() => document.querySelector('.search-item') && !document.querySelector('.search-suggestion')"
    )
    assert page.text(".search-item >> nth=0").startswith(ATTENTION_TITLE)
    assert page.page.evaluate("document.activeElement.id") == "input-search"
    page.assert_clean()


def test_a_papers_common_name_suggests_it_first_and_plus_seed_adds_it(browser, default_server) -> None:
    with Page(browser, default_server.url) as page:
        _common_name_then_plus_seed(page)


def _common_name_then_plus_seed(page: Page) -> None:
    """On the default dataset, whose import kept data/names.csv."""
    page.open("?seeds=2006.04862")
    for text in ("gpt3", "GPT-3"):
        assert first_suggestion(page, text).startswith("Language Models are Few-Shot Learners"), text
        assert "2005.14165" in page.text(".search-item >> nth=0 >> .search-meta")
    assert page.page.locator(".search-suggestion").count() == 0  # a name is not taken for a typo
    assert page.page.locator(".search-item").count() > 1  # the papers whose titles say "GPT-3" follow
    page.page.click(".search-seed >> nth=0")
    page.page.wait_for_function("() => window.location.search.includes('seeds=2006.04862,2005.14165')")
    page.settle()
    assert page.node_ids(".seed") == {"2006.04862", "2005.14165"}
