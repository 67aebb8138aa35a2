"""URL state: parse, encode, notices for bad values; property-based: never raises, always valid."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from dashboard.graph.state import (
    EXPAND_FIRST,
    EXPAND_STEP,
    MAX_EXPAND,
    MAX_MORE,
    MAX_SEEDS,
    Context,
    ViewState,
    add_seed,
    encode_query,
    parse_query,
    remove_seed,
    show_more_of,
    switch_mode,
    toggle_expand,
)

KNOWN = {"2110.10090", "2106.03764", "2006.04862", "1706.03762", "t-abc123"}


def ctx() -> Context:
    return Context(
        is_paper=KNOWN.__contains__,
        default_seeds=["2106.03764", "2006.04862"],
        areas=["cs.LG", "cs.CL", "unknown"],
        year_bounds=(2014, 2025),
    )


def test_full_round_trip() -> None:
    q = (
        "?seeds=2110.10090,2106.03764&expand=1706.03762&selected=1706.03762&years=2018-2023"
        "&areas=cs.LG,unknown&min_citations=5&layout=timeline&color=year&limit=600"
    )
    state, notices = parse_query(q, ctx())
    assert notices == []
    assert state == ViewState(
        ("2110.10090", "2106.03764"),
        ("1706.03762",),
        "1706.03762",
        (2018, 2023),
        ("cs.LG", "unknown"),
        5,
        "timeline",
        "year",
        600,
    )
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
    assert toggle_expand(s, "2110.10090") == ViewState(("2110.10090",), selected="2110.10090")  # always expanded
    collapsed = toggle_expand(replace(s1, selected=None), "1706.03762")
    assert collapsed == ViewState(("2110.10090",), selected="1706.03762")  # collapsed, and still selected


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
@given(
    st.dictionaries(
        st.sampled_from(
            ["seeds", "expand", "selected", "years", "areas", "min_citations", "layout", "color", "limit", "more", "zz"]
        ),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
        max_size=9,
    )
)
def test_any_parameter_values_parse(params: dict[str, str]) -> None:
    from urllib.parse import urlencode

    state, _ = parse_query("?" + urlencode(params), ctx())
    assert parse_query(encode_query(state), ctx())[0] == state
    if state.years:
        assert 2014 <= state.years[0] <= state.years[1] <= 2025
    assert 10 <= state.limit <= 3000 and state.min_citations >= 0
    assert all(pid in state.expand and 1 <= n <= MAX_MORE for pid, n in state.more)


def test_each_notice_says_exactly_what_was_dropped() -> None:
    def notes(q: str, c: Context | None = None) -> list[str]:
        return parse_query(q, c or ctx())[1]

    assert notes("?seeds=2110.10090&a=1&b=2&zz=3&c=4&d=5&e=6") == ["Unknown link parameter(s) ignored: a, b, c, d, e."]
    assert notes("?seeds=2110.10090&" + "k" * 50 + "=1") == [f"Unknown link parameter(s) ignored: {'k' * 30}."]
    bad = ",".join(f"x{i}" for i in range(7))
    assert notes(f"?seeds=2110.10090,{bad}") == [
        "Unknown paper id in seeds: 'x0', 'x1', 'x2', 'x3', 'x4' and 2 more (not in this dataset; left out)."
    ]
    assert notes("?seeds=2110.10090&expand=" + "y" * 80) == [
        f"Unknown paper id in expand: '{'y' * 60}' (not in this dataset; left out)."
    ]
    assert notes("?seeds=bad id") == [
        "Unknown paper id in seeds: 'bad id' (not in this dataset; left out).",
        "No known seed paper in the link; showing the default seeds.",
    ]
    assert notes("?seeds=") == ["No known seed paper in the link; showing the default seeds."]
    assert notes("?seeds=2110.10090&selected=nope") == [
        "Unknown paper id in selected: 'nope' (not in this dataset; left out)."
    ]
    assert notes("?years=x") == ["years='x' is not a range like 2018-2023; ignored."]
    assert notes("?years=2030-2040") == ["years=2030-2040 holds no paper of this dataset (2014-2025); ignored."]
    assert notes("?years=2000-2013") == ["years=2000-2013 holds no paper of this dataset (2014-2025); ignored."]
    assert notes("?years=2010-2020") == ["years=2010-2020 reaches beyond this dataset; using 2014-2020."]
    assert notes("?years=2020-2030") == ["years=2020-2030 reaches beyond this dataset; using 2020-2025."]
    assert notes("?years=2025-2025") == []
    assert notes("?years=2014-2025") == [
        "years=2014-2025 holds every year of this dataset (2014-2025): no year filter."
    ]
    assert notes("?years=1900-2100") == [
        "years=1900-2100 holds every year of this dataset (2014-2025): no year filter."
    ]
    assert notes("?min_citations=x") == ["min_citations='x' is not a whole number; ignored."]
    assert notes("?limit=5") == ["limit=5 is outside 10-3000; using 10."] and notes_of("?limit=10") == []
    assert notes("?limit=3000") == [] and notes("?min_citations=0") == [] and notes("?min_citations=1000000000") == []
    assert notes("?min_citations=1000000001") == ["min_citations=1000000001 is outside 0-1000000000; using 1000000000."]
    assert notes("?min_citations=" + "x" * 50) == [f"min_citations='{'x' * 40}' is not a whole number; ignored."]
    assert notes("?years=" + "y" * 50) == [f"years='{'y' * 40}' is not a range like 2018-2023; ignored."]
    assert notes("?seeds=,,2110.10090,") == [] and parse_query("?seeds=,2110.10090", ctx())[0].seeds == ("2110.10090",)
    five = ",".join(f"x{i}" for i in range(5))
    assert notes(f"?seeds=2110.10090,{five}") == [
        "Unknown paper id in seeds: 'x0', 'x1', 'x2', 'x3', 'x4' (not in this dataset; left out)."
    ]
    assert notes("?XYZ=1") == ["Unknown link parameter(s) ignored: XYZ."]
    areas = ",".join(f"{i}" * 40 for i in range(1, 8))
    assert notes(f"?areas={areas}") == [
        "Unknown area in areas: "
        + ", ".join(f"'{i * 30}'" for i in "12345")
        + " and 2 more (not in this dataset; no area filter)."
    ]
    longest = "?seeds=2110.10090&x=" + "a" * 7980
    assert len(longest) == 8000 and notes(longest) == ["Unknown link parameter(s) ignored: x."]  # 8,000: read whole
    assert notes("?limit=99999") == ["limit=99999 is outside 10-3000; using 3000."]
    assert notes("?layout=Spiral") == ["layout='Spiral' is not one of force, timeline, concentric; using force."]
    assert notes("?color=x") == ["color='x' is not one of area, year, cluster; using area."]
    assert notes("?color=" + "c" * 50) == [f"color='{'c' * 40}' is not one of area, year, cluster; using area."]
    assert notes("?areas=cs.LG,nope,zz") == ["Unknown area in areas: 'nope', 'zz' (not in this dataset; left out)."]
    assert notes("?seeds=2110.10090" + "," * 8000) == ["The link is too long (8,017 characters); read the first 8,000."]


def notes_of(q: str) -> list[str]:
    return parse_query(q, ctx())[1]


def test_values_as_parsed() -> None:
    def state(q: str, c: Context | None = None) -> ViewState:
        return parse_query(q, c or ctx())[0]

    assert state("?years=2010-2020").years == (2014, 2020) and state("?years=2020-2030").years == (2020, 2025)
    assert state("?years=2014-2025").years is None and state("?years=2016..2018").years == (2016, 2018)
    assert state("?years= 2016 – 2018 ").years == (2016, 2018) and state("?years=2019-2019").years == (2019, 2019)
    assert state("?years=2000-2014").years == (2014, 2014) and state("?years=2025-2030").years == (2025, 2025)
    assert state("?limit=5").limit == 10 and state("?limit=99999").limit == 3000
    assert state("?years=2016-2018", Context(KNOWN.__contains__, ["2110.10090"])).years == (2016, 2018)
    assert state("?years=1-99999", Context(KNOWN.__contains__, ["2110.10090"])).years == (1, 99999)
    assert state("?min_citations=12").min_citations == 12 and state("?min_citations=").min_citations == 0
    assert state("?min_citations=-3").min_citations == 0 and state("?limit=").limit == 300
    assert state("?limit=10").limit == 10 and state("?limit=3000").limit == 3000 and state("?limit=x").limit == 300
    assert state("?layout=TimeLine ").layout == "timeline" and state("?color=YEAR").color == "year"
    assert state("?layout=concentric").layout == "concentric" and state("?layout=").layout == "force"
    assert state("?areas=cs.LG,cs.LG,nope,cs.CL").areas == ("cs.LG", "cs.CL")
    assert state("?areas=").areas is None and state("?areas=cs.LG,cs.CL,unknown").areas is None  # every area
    assert state("?areas=a,b", Context(KNOWN.__contains__, ["2110.10090"])).areas == ("a", "b")
    many = ",".join(f"a{i}" for i in range(150))
    assert len(state(f"?areas={many}", Context(KNOWN.__contains__, ["2110.10090"])).areas) == 100
    assert state("?selected=2106.03764").selected == "2106.03764" and state("?selected=").selected is None
    assert state("?selected=2106.03764,1706.03762").selected == "2106.03764"  # one paper at most
    assert notes_of("?selected=2106.03764,1706.03762") == ["Too many papers in selected: kept the first 1 of 2."]
    assert state("?seeds=2110.10090&seeds=2006.04862").seeds == ("2006.04862",)  # the last value wins
    assert state("?seeds=%202110.10090%20,,").seeds == ("2110.10090",)
    assert state(None).seeds == ("2106.03764", "2006.04862")  # type: ignore[arg-type]
    assert parse_query(5, ctx()) == (ViewState(("2106.03764", "2006.04862")), [])  # type: ignore[arg-type]
    c = Context(is_paper={"a", "b"}.__contains__, default_seeds=["zz", "b", "a"])
    assert state("", c).seeds == ("b", "a")  # default seeds that are papers, in order
    assert state("?expand=2110.10090,2106.03764&seeds=2110.10090").expand == ("2106.03764",)


def test_encode_query_leaves_defaults_out_and_quotes() -> None:
    assert encode_query(ViewState(("a",))) == "?seeds=a"
    assert encode_query(ViewState(("a", "b/c"), ("d",), "e", (1, 2), ("x y", "z"), 3, "concentric", "year", 10)) == (
        "?seeds=a,b%2Fc&expand=d&selected=e&years=1-2&areas=x%20y,z&min_citations=3&layout=concentric"
        "&color=year&limit=10"
    )
    assert encode_query(ViewState(("a",), areas=())) == "?seeds=a&areas="
    assert encode_query(ViewState(("a",), areas=("x/y", "a~b"))) == "?seeds=a&areas=x%2Fy,a~b"


def test_discovery_parameters_round_trip_with_their_own_defaults() -> None:
    q = "?seeds=2110.10090&color=cluster&clusters=0,2&mode=similar&limit=80"
    state, notices = parse_query(q, ctx())
    assert notices == []
    assert (state.mode, state.limit, state.path, state.clusters) == ("similar", 80, None, (0, 2))
    assert encode_query(state) == q
    q = "?seeds=2110.10090&color=cluster&clusters=0,2&mode=field&path=2106.03764,1706.03762"
    state, notices = parse_query(q, ctx())
    assert notices == [] and (state.mode, state.path) == ("field", ("2106.03764", "1706.03762"))
    assert encode_query(state) == q
    similar, _ = parse_query("?seeds=2110.10090&mode=similar", ctx())
    assert similar.limit == 40 and encode_query(similar) == "?seeds=2110.10090&mode=similar"  # its own default
    big, notices = parse_query("?seeds=2110.10090&mode=similar&limit=900", ctx())
    assert big.limit == 200 and notices == ["limit=900 is outside 5-200; using 200."]
    citations, _ = parse_query("?seeds=2110.10090&limit=900", ctx())
    assert citations.limit == 900  # a citation map's limit is neighbours per paper, up to 3,000


def test_bad_discovery_parameters_give_notices() -> None:
    state, notices = parse_query("?seeds=2110.10090&path=2106.03764,2106.03764&mode=fancy", ctx())
    assert state.path is None and state.mode == "citations"
    assert notices == [
        "mode='fancy' is not one of citations, similar, field; using citations.",
        "path= joins a paper to itself; give two different papers.",
    ]
    state, notices = parse_query("?seeds=2110.10090&path=2106.03764,nope", ctx())
    assert state.path is None and notices == ["Unknown paper id in path: 'nope' (not in this dataset; left out)."]
    state, notices = parse_query("?seeds=2110.10090&path=2106.03764", ctx())
    assert state.path is None and notices == ["path= needs two paper ids, like path=1706.03762,1810.04805; ignored."]
    state, notices = parse_query("?seeds=2110.10090&clusters=1,5", ctx())
    assert state.clusters is None  # clusters= means something with color=cluster only
    assert notices == ["clusters= applies with color=cluster only; left out."]
    state, notices = parse_query("?seeds=2110.10090&color=cluster&clusters=1,99,x", ctx())
    assert state.clusters == (1,) and notices == ["clusters= takes cluster numbers 0-11; left out: 99, x."]


def test_toggling_clusters_picks_some_and_none_means_all() -> None:
    from dashboard.graph.state import toggle_cluster

    state = ViewState(("2110.10090",))
    one = toggle_cluster(state, "2")
    assert (one.color, one.clusters) == ("cluster", (2,))
    two = toggle_cluster(one, "0")
    assert two.clusters == (0, 2)
    assert toggle_cluster(toggle_cluster(two, "0"), "2").clusters is None
    assert toggle_cluster(state, "x") == state and toggle_cluster(state, "40") == state


def test_cluster_numbers_stop_at_the_palette_and_notices_cut_what_they_quote() -> None:
    from dashboard.graph.state import MAX_CLUSTERS, toggle_cluster

    state, notices = parse_query(f"?seeds=2110.10090&color=cluster&clusters={MAX_CLUSTERS}", ctx())
    assert state.clusters is None and notices == [
        f"clusters= takes cluster numbers 0-{MAX_CLUSTERS - 1}; left out: {MAX_CLUSTERS}."
    ]
    bad = ",".join(["x"] * 6 + ["y" * 15])
    _, notices = parse_query(f"?seeds=2110.10090&color=cluster&clusters={bad}", ctx())
    assert notices == [f"clusters= takes cluster numbers 0-{MAX_CLUSTERS - 1}; left out: x, x, x, x, x."]
    _, notices = parse_query("?seeds=2110.10090&color=cluster&clusters=1," + "z" * 15, ctx())
    assert notices == [f"clusters= takes cluster numbers 0-{MAX_CLUSTERS - 1}; left out: {'z' * 10}."]
    many = ",".join(str(k % MAX_CLUSTERS) for k in range(2 * MAX_CLUSTERS)) + ",zz"
    _, notices = parse_query(f"?seeds=2110.10090&color=cluster&clusters={many}", ctx())
    assert notices == []  # values past twice the palette are not read
    assert toggle_cluster(ViewState(("2110.10090",)), str(MAX_CLUSTERS)) == ViewState(("2110.10090",))


def test_a_seed_beyond_the_cap_is_selected_not_added_and_a_notice_says_so(store) -> None:
    """Issue 12, item 5: too many seeds is a notice (never a silent no-op). With MAX_SEEDS seeds, every action that
    adds one ("+ seed" of prior / derivative works, the search's seed button, "Add as seed") keeps the seeds, the
    expanded papers and the path, selects the paper, and says why it was not added."""
    from dashboard.graph.state import seeds_full
    from dashboard.web.callbacks.state import apply_action

    ids = store.ids(range(MAX_SEEDS + 2))
    full = ViewState(tuple(ids[:MAX_SEEDS]), expand=(ids[MAX_SEEDS],), path=(ids[0], ids[1]))
    new = ids[MAX_SEEDS]  # expanded, not a seed
    title = store.titles([store.row(new)])[0]
    want = [
        f"A view takes at most {MAX_SEEDS} seeds: “{title}” is selected, not added. Remove a seed to make room for it."
    ]
    assert seeds_full(full, new) and not seeds_full(full, ids[0])
    for trig in (
        {"type": "seed-add", "index": new, "list": "prior"},
        {"type": "search-seed", "index": new},
        {"type": "seed-toggle", "index": new},
    ):
        state, notices = apply_action(store, full, trig, 1, None)
        assert notices == want, trig
        assert state == replace(full, selected=new), trig  # seeds, expand and path as they were
    # one under the cap: added, no notice
    room = replace(full, seeds=full.seeds[:-1])
    state, notices = apply_action(store, room, {"type": "seed-add", "index": new, "list": "prior"}, 1, None)
    assert notices == [] and state.seeds == (*room.seeds, new) and state.expand == () and state.path is None
    # a seed already there: nothing to say
    assert apply_action(store, full, {"type": "seed-toggle", "index": ids[3]}, 1, None)[1] == []


def test_add_seed_with_the_seeds_full_keeps_the_expanded_paper() -> None:
    full = ViewState(tuple(f"p{i}" for i in range(MAX_SEEDS)), expand=("p99",))
    assert add_seed(full, "p99") == replace(full, selected="p99")  # it stays expanded, since it is no seed


# -- ids in any form ----------------------------------------------------------------------------------------------
ALT = {"W10": "1706.03762", "f" * 40: "2110.10090"}  # alternative ids of two known papers


def resolving_ctx() -> Context:
    """:func:`ctx` with a resolver as the store's: each key a text may name, looked up among ids and alt ids."""
    from dashboard.dataset.id_forms import candidates

    def resolve(text: str) -> str | None:
        for kind, key in candidates(text):
            if kind != "doi" and key in KNOWN:
                return key
            if kind != "doi" and key in ALT:
                return ALT[key]
        return None

    return replace(ctx(), resolve=resolve)


def test_ids_in_any_form_are_read_as_the_datasets_own() -> None:
    for text in (
        "arXiv:1706.03762",
        "1706.03762v5",
        "https://arxiv.org/abs/1706.03762",
        "https://arxiv.org/abs/1706.03762v5",
        "https://arxiv.org/pdf/1706.03762v5.pdf",
        "https://doi.org/10.48550/arXiv.1706.03762",
        "W10",
        "https://openalex.org/w10",
    ):
        state, notices = parse_query(f"?seeds={text}", resolving_ctx())
        assert (state.seeds, notices) == (("1706.03762",), []), text
        assert encode_query(state) == "?seeds=1706.03762", text
    q = (
        "?seeds=arXiv:2110.10090,https://arxiv.org/abs/2106.03764v2&expand=https%3A%2F%2Farxiv.org%2Fabs%2F1706.03762"
        "&selected=arxiv:1706.03762"
    )
    state, notices = parse_query(q, resolving_ctx())
    assert notices == []
    assert state.seeds == ("2110.10090", "2106.03764") and state.expand == ("1706.03762",)
    assert state.selected == "1706.03762"
    assert encode_query(state) == "?seeds=2110.10090,2106.03764&expand=1706.03762&selected=1706.03762"
    state, notices = parse_query(
        f"?seeds=W10&path=https://www.semanticscholar.org/paper/X/{'f' * 40},W10", resolving_ctx()
    )
    assert notices == [] and state.path == ("2110.10090", "1706.03762")
    assert encode_query(state) == "?seeds=1706.03762&path=2110.10090,1706.03762"


def test_two_forms_of_one_paper_are_one_paper() -> None:
    state, notices = parse_query("?seeds=1706.03762,arXiv:1706.03762,W10&expand=1706.03762v2", resolving_ctx())
    assert state.seeds == ("1706.03762",) and state.expand == ()
    assert notices == ["A seed's references and citers are always shown: 1706.03762 left out of expand."]
    state, notices = parse_query("?seeds=2110.10090&path=W10,arXiv:1706.03762", resolving_ctx())
    assert state.path is None and notices == ["path= joins a paper to itself; give two different papers."]


def test_an_id_in_a_form_that_names_nothing_is_named_in_a_notice() -> None:
    state, notices = parse_query("?seeds=arXiv:0000.00000", resolving_ctx())
    assert state.seeds == ("2106.03764", "2006.04862")
    assert notices == [
        "Unknown paper id in seeds: 'arXiv:0000.00000' (not in this dataset; left out).",
        "No known seed paper in the link; showing the default seeds.",
    ]
    _, notices = parse_query("?seeds=2110.10090&selected=https://arxiv.org/abs/0000.00000", resolving_ctx())
    assert notices == [
        "Unknown paper id in selected: 'https://arxiv.org/abs/0000.00000' (not in this dataset; left out)."
    ]
    _, notices = parse_query("?seeds=2110.10090&path=W10,https://doi.org/10.1000/none", resolving_ctx())
    assert notices == ["Unknown paper id in path: 'https://doi.org/10.1000/none' (not in this dataset; left out)."]


def test_over_long_ids_and_control_characters_are_refused_before_any_resolver() -> None:
    asked: list[str] = []

    def anything(text: str) -> str:
        asked.append(text)
        return "1706.03762"

    c = replace(ctx(), resolve=anything)
    long = "https://arxiv.org/abs/1706.03762?" + "x" * 300
    state, notices = parse_query(f"?seeds={long},%011706.03762,1706.03762%7F", c)
    assert state.seeds == ("2106.03764", "2006.04862") and asked == []
    assert notices[0].startswith(f"Unknown paper id in seeds: '{long[:60]}', '\x011706.03762', '1706.03762\x7f'")
    assert parse_query("?seeds=%20arXiv:1706.03762%20", c)[0].seeds == ("1706.03762",)  # spaces around: fine


def test_without_a_resolver_only_the_id_itself_is_taken() -> None:
    state, notices = parse_query("?seeds=arXiv:1706.03762,1706.03762", ctx())
    assert state.seeds == ("1706.03762",)
    assert notices == ["Unknown paper id in seeds: 'arXiv:1706.03762' (not in this dataset; left out)."]


def test_a_story_steps_plain_context_keeps_the_resolver() -> None:
    from dashboard.graph.state import replace_ctx

    c = resolving_ctx()
    assert replace_ctx(c).resolve is c.resolve
    assert parse_query("?seeds=W10", replace_ctx(c))[0].seeds == ("1706.03762",)


def test_the_apps_context_resolves_through_the_store(default_store) -> None:
    from dashboard.web.callbacks.common import read_state

    state, notices = read_state(default_store, "?seeds=https://arxiv.org/abs/1706.03762v5&selected=arXiv:1803.10122")
    assert (state.seeds, state.selected, notices) == (("1706.03762",), "1803.10122", [])
    assert encode_query(state) == "?seeds=1706.03762&selected=1803.10122"
    state, notices = read_state(default_store, "?seeds=arXiv:0000.00000")
    assert notices[0] == "Unknown paper id in seeds: 'arXiv:0000.00000' (not in this dataset; left out)."


# -- areas in any case; link parameters that do nothing -------------------------------------------------------------
def test_areas_are_matched_whatever_their_case_and_unknown_ones_never_empty_the_map() -> None:
    def read(q: str) -> tuple[tuple[str, ...] | None, list[str]]:
        state, notices = parse_query(q, ctx())
        return state.areas, notices

    assert read("?areas=CS.lg") == (("cs.LG",), []) and read("?areas=cs.cl,Cs.Cl,UNKNOWN") == (("cs.CL", "unknown"), [])
    assert encode_query(parse_query("?areas=CS.lg", ctx())[0]) == "?seeds=2106.03764,2006.04862&areas=cs.LG"
    assert read("?areas=cs.XX") == (None, ["Unknown area in areas: 'cs.XX' (not in this dataset; no area filter)."])
    assert read("?areas=cs.xx,CS.CL") == (
        ("cs.CL",),
        ["Unknown area in areas: 'cs.xx' (not in this dataset; left out)."],
    )
    assert read("?areas=,") == (None, ["areas= names no area: no area filter."])
    assert read("?areas=CS.LG,cs.cl,Unknown") == (None, ["areas= names every area of this dataset: no area filter."])


def test_areas_of_a_link_narrow_the_map_whatever_their_case(default_store) -> None:
    """``?seeds=1706.03762&areas=cs.cv`` once said "Unknown area(s) ignored" and hid all but the seed."""
    from dashboard.view.payload import build_subgraph
    from dashboard.web.callbacks.common import read_state

    plain = build_subgraph(default_store, read_state(default_store, "?seeds=1706.03762")[0])
    for q in ("?seeds=1706.03762&areas=cs.cv", "?seeds=1706.03762&areas=CS.CV", "?seeds=1706.03762&areas=cs.CV,cs.zz"):
        state, notices = read_state(default_store, q)
        assert state.areas == ("cs.CV",) and encode_query(state) == "?seeds=1706.03762&areas=cs.CV", q
        sub = build_subgraph(default_store, state)
        want = default_store.area_mask(plain.rows, ["cs.CV"])
        assert len(sub.rows) == int(want.sum()) + 1 > 20 and sub.hidden == len(plain.rows) - len(sub.rows), q
        assert notices == (["Unknown area in areas: 'cs.zz' (not in this dataset; left out)."] if "zz" in q else []), q
    state, notices = read_state(default_store, "?seeds=1706.03762&areas=cs.XX")
    assert state.areas is None and notices == ["Unknown area in areas: 'cs.XX' (not in this dataset; no area filter)."]
    assert len(build_subgraph(default_store, state).rows) == len(plain.rows)


def test_parameters_that_do_nothing_are_left_out_with_a_notice() -> None:
    cases = {
        "?seeds=2110.10090&expand=1706.03762&path=2106.03764,1706.03762": (
            "?seeds=2110.10090&path=2106.03764,1706.03762",
            ["expand= does nothing while a path is shown; left out."],
        ),
        "?seeds=2110.10090&limit=600&path=2106.03764,1706.03762": (
            "?seeds=2110.10090&path=2106.03764,1706.03762",
            ["limit= does nothing while a path is shown; left out."],
        ),
        "?seeds=2110.10090&mode=similar&path=2106.03764,1706.03762": (
            "?seeds=2110.10090&path=2106.03764,1706.03762",
            ["mode=similar does nothing while a path is shown (the path is drawn); left out."],
        ),
        "?seeds=2110.10090&expand=1706.03762&mode=similar": (
            "?seeds=2110.10090&mode=similar",
            ["expand= does nothing on a map of similar papers; left out."],
        ),
        "?seeds=2110.10090&clusters=1": ("?seeds=2110.10090", ["clusters= applies with color=cluster only; left out."]),
        "?seeds=2110.10090&step=2": ("?seeds=2110.10090", ["step= applies to a story (story=NAME) only; left out."]),
        "?seeds=2110.10090&story=": ("?seeds=2110.10090", ["story= names no story of this dataset; left out."]),
        "?seeds=2110.10090&expand=2110.10090,1706.03762": (
            "?seeds=2110.10090&expand=1706.03762",
            ["A seed's references and citers are always shown: 2110.10090 left out of expand."],
        ),
        "?seeds=1706.03762&layout=timeline&seeds=2110.10090&layout=concentric": (
            "?seeds=2110.10090&layout=concentric",
            ["seeds=, layout= given more than once in the link: the last value used."],
        ),
        # a field view keeps the citation map's state: nothing there does nothing
        "?seeds=2110.10090&expand=1706.03762&mode=field&limit=600&layout=timeline": (
            "?seeds=2110.10090&expand=1706.03762&layout=timeline&mode=field&limit=600",
            [],
        ),
    }
    for q, (canonical, want) in cases.items():
        state, notices = parse_query(q, ctx())
        assert (encode_query(state), notices) == (canonical, want), q
        assert parse_query(encode_query(state), ctx())[1] == [], q  # the rewritten link says nothing more


def test_expanded_papers_not_in_the_map_and_absent_clusters_are_left_out_with_a_notice(default_store) -> None:
    """``?seeds=2006.04862&expand=1412.6980`` (Adam, not in that map) was ignored in silence, and kept in the link."""
    from dashboard.view.payload import build_subgraph
    from dashboard.web.callbacks.common import read_state

    s = default_store
    adam = "“Adam: A Method for Stochastic Optimization” (1412.6980)"
    state, notices = read_state(s, "?seeds=2006.04862&expand=1412.6980")
    assert s.row("1412.6980") not in set(build_subgraph(s, ViewState(("2006.04862",))).rows.tolist())
    assert encode_query(state) == "?seeds=2006.04862"
    assert notices == [f"Not in this map, so nothing to expand: {adam}; left out of expand."]
    # one in the map stays, the other goes; in the field view too (it marks the same map)
    inside = s.id(int(build_subgraph(s, ViewState(("2006.04862",))).rows[5]))
    for mode in ("", "&mode=field"):
        state, notices = read_state(s, f"?seeds=2006.04862&expand=1412.6980,{inside}{mode}")
        assert encode_query(state) == f"?seeds=2006.04862&expand={inside}{mode}"
        assert notices == [f"Not in this map, so nothing to expand: {adam}; left out of expand."]
        assert read_state(s, encode_query(state))[1] == []
    # filters hide papers but keep expanded ones: an expand that fails them still does something
    state, notices = read_state(s, f"?seeds=2006.04862&expand={inside}&years=2010-2011")
    assert state.expand == (inside,) and notices == []
    # clusters the map does not have
    state, notices = read_state(s, "?seeds=2006.04862&color=cluster&clusters=0,11")
    assert state.clusters == (0,) and encode_query(state) == "?seeds=2006.04862&color=cluster&clusters=0"
    assert len(notices) == 1 and notices[0].endswith("cluster 11 left out.")
    state, notices = read_state(s, "?seeds=2006.04862&color=cluster&clusters=11")
    assert state.clusters is None and notices[0].endswith("cluster 11 left out: showing them all.")


def test_the_graph_endpoint_answers_the_rewritten_link(client, store) -> None:
    from dashboard.view.payload import build_subgraph

    shown = set(build_subgraph(store, ViewState(("2006.04862",))).rows.tolist())
    outside = next(store.id(r) for r in range(store.n) if r not in shown)
    r = client.get(f"/graph?seeds=2006.04862&expand={outside}&path=2106.03764,2110.10090&limit=600")
    assert r.status_code == 200
    assert r.get_json()["query"] == "?seeds=2006.04862&path=2106.03764,2110.10090"
    r = client.get(f"/graph?seeds=2006.04862&expand={outside}")
    assert r.get_json()["query"] == "?seeds=2006.04862"


def test_show_more_of_an_expanded_paper_is_in_the_link() -> None:
    """``more=ID:N``: an expanded paper shows EXPAND_FIRST of its references and citers, EXPAND_STEP more a step."""
    q = "?seeds=2110.10090&expand=1706.03762,2106.03764&more=1706.03762:2,2106.03764:1"
    state, notices = parse_query(q, ctx())
    assert notices == [] and state.more == (("1706.03762", 2), ("2106.03764", 1))
    assert encode_query(state) == q and parse_query(encode_query(state), ctx())[0] == state
    assert state.expand_total("1706.03762") == EXPAND_FIRST + 2 * EXPAND_STEP
    assert state.expand_total("2110.10090") == EXPAND_FIRST  # not asked for more
    # in the order of expand, whatever order the link gives; the last of a repeated id wins; zero steps are no steps
    state, notices = parse_query(
        "?seeds=2110.10090&expand=1706.03762,2106.03764&more=2106.03764:1,1706.03762:4,2106.03764:3", ctx()
    )
    assert state.more == (("1706.03762", 4), ("2106.03764", 3)) and notices == []
    assert parse_query("?expand=1706.03762&more=1706.03762:0", ctx())[0].more == ()
    # capped at MAX_MORE steps
    assert parse_query(f"?expand=1706.03762&more=1706.03762:{MAX_MORE + 5}", ctx())[0].more == (
        ("1706.03762", MAX_MORE),
    )
    # in any id form, written back as the dataset's own id
    state, notices = parse_query("?expand=1706.03762&more=arXiv:1706.03762v2:2", resolving_ctx())
    assert (state.more, notices) == ((("1706.03762", 2),), [])
    assert encode_query(state).endswith("&expand=1706.03762&more=1706.03762:2")


def test_bad_show_more_entries_are_named_and_left_out() -> None:
    for bad in ("1706.03762", "1706.03762:x", "1706.03762:-1", "nope:2", "2110.10090:2", ":3"):
        state, notices = parse_query(f"?seeds=2110.10090&expand=1706.03762&more={bad},2106.03764:9", ctx())
        assert state.more == () and state.expand == ("1706.03762",), bad
        assert len(notices) == 1 and f"'{bad}'" in notices[0] and "'2106.03764:9'" in notices[0], (bad, notices)
        assert "more=" in notices[0]


def test_show_more_steps_follow_expands_and_collapses() -> None:
    s = toggle_expand(ViewState(("2110.10090",)), "1706.03762")
    s = show_more_of(show_more_of(s, "1706.03762"), "1706.03762")
    assert s.more == (("1706.03762", 2),)
    assert show_more_of(s, "2106.03764") == s  # not expanded: nothing to show more of
    t = toggle_expand(s, "2106.03764", steps=3)  # an expand that starts further down its lists
    assert t.expand == ("1706.03762", "2106.03764") and t.more == (("1706.03762", 2), ("2106.03764", 3))
    assert toggle_expand(t, "1706.03762").more == (("2106.03764", 3),)  # collapsed: its steps go with it
    assert add_seed(t, "2106.03764").more == (("1706.03762", 2),)  # a seed shows its lists by ``limit``
    assert switch_mode(t, "similar").more == () and switch_mode(t, "field").more == t.more
    full = ViewState(("2110.10090",), expand=("1706.03762",), more=(("1706.03762", MAX_MORE),))
    assert show_more_of(full, "1706.03762") == full
    # a step asked for a paper that is no longer expanded is not written
    assert encode_query(replace(t, expand=("1706.03762",))) == (
        "?seeds=2110.10090&expand=1706.03762&selected=2106.03764&more=1706.03762:2"
    )
