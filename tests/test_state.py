"""URL state: parse, encode, notices for bad values; property-based: never raises, always valid."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dashboard.graph.state import (
    MAX_EXPAND,
    MAX_SEEDS,
    Context,
    ViewState,
    encode_query,
    parse_query,
    toggle_expand,
)

KNOWN = {"2110.10090", "2106.03764", "2006.04862", "1706.03762", "t-abc123"}


def ctx() -> Context:
    return Context(is_paper=KNOWN.__contains__, default_seeds=["2106.03764", "2006.04862"],
                   areas=["cs.LG", "cs.CL", "unknown"], year_bounds=(2014, 2025))


def test_full_round_trip() -> None:
    q = ("?seeds=2110.10090,2106.03764&expand=1706.03762&selected=1706.03762&years=2018-2023"
         "&areas=cs.LG,unknown&min_citations=5&layout=timeline&color=year&limit=600")
    state, notices = parse_query(q, ctx())
    assert notices == []
    assert state == ViewState(("2110.10090", "2106.03764"), ("1706.03762",), "1706.03762", (2018, 2023),
                              ("cs.LG", "unknown"), 5, "timeline", "year", 600)
    assert encode_query(state) == q
    assert parse_query(encode_query(state), ctx())[0] == state


def test_defaults_and_unknown_seed() -> None:
    state, notices = parse_query("?seeds=nope", ctx())
    assert state.seeds == ("2106.03764", "2006.04862")
    assert any("'nope'" in n for n in notices) and any("default seeds" in n for n in notices)
    assert parse_query("", ctx()) == (ViewState(("2106.03764", "2006.04862")), [])


def test_malformed_values_give_notices_and_keep_the_rest() -> None:
    state, notices = parse_query("?seeds=2110.10090&years=abc&layout=spiral&color=pink&min_citations=-3&x=1", ctx())
    assert state.seeds == ("2110.10090",)
    assert (state.years, state.layout, state.color, state.min_citations) == (None, "force", "area", 0)
    text = " ".join(notices)
    for word in ("years='abc'", "layout='spiral'", "color='pink'", "min_citations=-3", "Unknown link parameter"):
        assert word in text


def test_years_are_clamped_to_the_dataset() -> None:
    state, notices = parse_query("?years=0-999999", ctx())
    assert state.years is None and notices  # beyond both ends: the whole range, said so
    state, notices = parse_query("?years=2030-2040", ctx())
    assert state.years is None and "holds no paper" in notices[0]
    state, _ = parse_query("?years=2024-2016", ctx())
    assert state.years == (2016, 2024)


def test_limits_on_list_sizes() -> None:
    many = ",".join(["2110.10090"] * 5 + [f"x{i}" for i in range(500)])
    state, notices = parse_query(f"?seeds={many}", ctx())
    assert state.seeds == ("2110.10090",) and "and 495 more" in notices[0]
    assert MAX_SEEDS < 500 and MAX_EXPAND < 500


def test_toggle_expand_collapses_on_second_tap() -> None:
    s = ViewState(("2110.10090",))
    s1 = toggle_expand(s, "1706.03762")
    assert s1.expand == ("1706.03762",) and s1.selected == "1706.03762"
    assert toggle_expand(s1, "1706.03762").expand == ()
    assert toggle_expand(s, "2110.10090").expand == ()  # a seed is always expanded


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_query_string_parses_to_a_valid_state(q: str) -> None:
    state, notices = parse_query(q, ctx())
    assert state.seeds and all(s in KNOWN for s in state.seeds)
    assert all(e in KNOWN for e in state.expand)
    assert state.layout in ("force", "timeline", "concentric") and state.color in ("area", "year")
    assert isinstance(notices, list)
    # canonical form is a fixed point
    assert parse_query(encode_query(state), ctx())[0] == state


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["seeds", "expand", "selected", "years", "areas", "min_citations",
                                        "layout", "color", "limit", "zz"]),
                       st.text(alphabet=st.characters(codec="utf-8"), max_size=60), max_size=9))
def test_any_parameter_values_parse(params: dict[str, str]) -> None:
    from urllib.parse import urlencode

    state, _ = parse_query("?" + urlencode(params), ctx())
    assert parse_query(encode_query(state), ctx())[0] == state
    if state.years:
        assert 2014 <= state.years[0] <= state.years[1] <= 2025
    assert 10 <= state.limit <= 3000 and state.min_citations >= 0
