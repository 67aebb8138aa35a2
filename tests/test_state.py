"""URL state: parse, encode, notices for bad values; property-based: never raises, always valid."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dashboard.graph.state import (
    MAX_EXPAND,
    MAX_SEEDS,
    Context,
    ViewState,
    add_seed,
    encode_query,
    parse_query,
    remove_seed,
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


def many_ctx(n: int) -> Context:
    """A context where ``p0`` .. ``p{n-1}`` are papers."""
    known = {f"p{i}" for i in range(n)}
    return Context(is_paper=known.__contains__, default_seeds=["p0"])


def test_caps_are_the_documented_ones() -> None:
    # the README promises at most 20 seeds and 60 expanded papers; distinct ids, so nothing collapses
    ids = ",".join(f"p{i}" for i in range(100))
    state, notices = parse_query(f"?seeds={ids}&expand={ids}", many_ctx(100))
    assert state.seeds == tuple(f"p{i}" for i in range(20))
    assert state.expand == tuple(f"p{i}" for i in range(20, 80))  # seeds are not also expanded
    assert "kept the first 20 of 100" in notices[0] and "kept the first 60 of 80" in notices[1]
    assert (MAX_SEEDS, MAX_EXPAND) == (20, 60)
    # one under the cap keeps everything and says nothing
    state, notices = parse_query("?seeds=" + ",".join(f"p{i}" for i in range(20)), many_ctx(100))
    assert len(state.seeds) == 20 and notices == []


def test_actions_keep_the_caps() -> None:
    s = ViewState(tuple(f"p{i}" for i in range(20)))
    assert add_seed(s, "p99").seeds == s.seeds and add_seed(s, "p99").selected == "p99"
    e = ViewState(("p0",))
    for i in range(1, 70):
        e = toggle_expand(e, f"p{i}")
    assert e.expand == tuple(f"p{i}" for i in range(10, 70)) and e.selected == "p69"  # the oldest go first
    assert add_seed(ViewState(("p0",), expand=("p1", "p2")), "p1") == ViewState(("p0", "p1"), ("p2",), "p1")
    assert remove_seed(ViewState(("p0", "p1"), selected="p1"), "p1") == ViewState(("p0",), selected="p1")
    assert remove_seed(ViewState(("p0",)), "p0") == ViewState(("p0",))
    assert remove_seed(ViewState(("p0", "p1")), "p7") == ViewState(("p0", "p1"))


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
