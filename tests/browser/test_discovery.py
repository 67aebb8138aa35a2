"""End to end in headless Chromium on the default dataset: the maps beyond the seeds' direct links (similar papers,
chains of citations, clusters) and the prior and derivative works, each checked against counts recomputed here
from the dataset (the store, or its parquet files), not taken from the server."""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter, deque
from collections.abc import Iterator

import pyarrow.parquet as pq
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from dashboard.dataset import builds
from dashboard.dataset.store import Store
from tests.browser.conftest import Page
from tests.conftest import DEFAULT_DATA, SEED_IDS

ATTENTION = "1706.03762"  # 22 references and 743 citers in the default dataset


@pytest.fixture()
def dpage(browser, default_server) -> Iterator[Page]:
    with Page(browser, default_server.url) as p:
        yield p


def wait_query(page: Page, needle: str, timeout: float = 15000) -> None:
    page.page.wait_for_function(
        "n => decodeURIComponent(window.location.search).includes(n)", arg=needle, timeout=timeout
    )
    page.settle()


def neighbours(store: Store, row: int) -> set[int]:
    return set(store.references(row).tolist()) | set(store.citers(row).tolist())


def distances(store: Store, row: int) -> dict[int, int]:
    """Steps from ``row`` to every paper it reaches by citations, direction ignored (breadth-first)."""
    dist, todo = {row: 0}, deque([row])
    while todo:
        u = todo.popleft()
        for v in neighbours(store, u):
            if v not in dist:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist


def strength(store: Store, a: int, b: int) -> tuple[int, int, float]:
    """(co-citation, coupling, similarity score) of two rows, from their lists (see dashboard/graph/similarity)."""
    cit_a, cit_b = set(store.citers(a).tolist()), set(store.citers(b).tolist())
    ref_a, ref_b = set(store.references(a).tolist()), set(store.references(b).tolist())
    cc, bc = len(cit_a & cit_b), len(ref_a & ref_b)
    score = (0.5 * cc / math.sqrt(len(cit_a) * len(cit_b)) if cc else 0.0) + (
        0.5 * bc / math.sqrt(len(ref_a) * len(ref_b)) if bc else 0.0
    )
    return cc, bc, score


def most_similar(store: Store, seed: int, n: int) -> list[int]:
    """The ``n`` rows of a similarity map of ``seed``, every candidate exact: the papers cited by its citers
    (co-citation) and those citing its references (coupling), that share at least 3 citers or 3 references with
    it, ranked by score, then more citers, then lower row; at most a third of them direct references or citers of
    the seed (the best of those), the rest the best of the others."""
    cands = {r for c in store.citers(seed).tolist() for r in store.references(c).tolist()}
    cands |= {c for r in store.references(seed).tolist() for c in store.citers(r).tolist()}
    cands.discard(seed)
    cands = {c for c in cands if max(strength(store, seed, c)[:2]) >= 3}
    scores = {c: round(strength(store, seed, c)[2], 12) for c in cands}
    ranked = sorted((c for c in cands if scores[c] > 0), key=lambda c: (-scores[c], -len(store.citers(c)), c))
    direct = neighbours(store, seed)
    linked = [c for c in ranked if c in direct][: n // 3]
    return linked + [c for c in ranked if c not in direct][: n - len(linked)]


def test_similar_map_goes_beyond_direct_links_and_says_why(dpage: Page, default_store: Store) -> None:
    store = default_store
    dpage.open(f"?seeds={ATTENTION}&mode=similar")
    ids = dpage.node_ids()
    assert 20 <= len(ids) <= 200 and dpage.node_ids(".seed") == {ATTENTION}
    seed = store.row(ATTENTION)
    others = ids - {ATTENTION}
    assert dpage.node_ids(".similar") == others
    # exactly the 40 papers most similar to the seed, recomputed here over every candidate
    assert others == set(store.ids(most_similar(store, seed, 40)))
    direct = set(store.ids(sorted(neighbours(store, seed))))
    # most are neither its references nor its citers (a map of citations cannot show them): 27 of the 40
    assert len(others - direct) > len(others) / 2, sorted(others - direct)
    edges = dpage.page.evaluate(
        "() => cy.edges().not('.leader')"  # a title's line to its paper is not a link
        ".map(e => [e.source().id(), e.target().id(), e.classes(), e.data('why'), e.data('width')])"
    )
    assert edges and all(classes == ["similar"] for _, _, classes, _, _ in edges)
    assert f"40 similar papers · {len(edges)} similarity links" in dpage.text("#span-status")
    # each link's reason and width, from the exact counts of its two papers
    found = {(a, b): strength(store, store.row(a), store.row(b)) for a, b, *_ in edges}
    strongest = max(round(s, 3) for _, _, s in found.values())
    why_of = {(a, b): why for a, b, _, why, _ in edges}
    for a, b, _, why, width in edges:
        cc, bc, s = found[a, b]
        assert cc + bc > 0
        parts = [f"cited together by {cc:,} paper{'s' if cc != 1 else ''}"] * bool(cc) + [
            f"share {bc:,} reference{'s' if bc != 1 else ''}"
        ] * bool(bc)
        assert why == " · ".join(parts), (a, b)
        assert width == pytest.approx(1 + 7 * round(s, 3) / strongest, abs=1e-6), (a, b)
    # hover a link with the real mouse (dash-cytoscape's mouseoverEdgeData): the card says why, with the counts
    box = dpage.page.locator("#graph-citations canvas").first.bounding_box()
    spots = dpage.page.evaluate("""() => cy.edges('.similar').filter(e => e.data('why').includes(' · ')).map(e => {
        const m = e.renderedMidpoint();
        const clear = cy.nodes().every(n => { const b = n.renderedBoundingBox();
            return m.x < b.x1 - 12 || m.x > b.x2 + 12 || m.y < b.y1 - 12 || m.y > b.y2 + 12; });
        return [e.source().id(), e.target().id(), m.x, m.y, clear && m.x > 10 && m.y > 10
                && m.x < cy.width() - 10 && m.y < cy.height() - 10];
    })""")
    spots = [s for s in spots if s[4]]
    assert spots
    want = ""
    for a, b, x, y, _ in spots[:6]:  # another link crossing the midpoint may take the hover: try the next one
        dpage.page.mouse.move(box["x"] + x, box["y"] + y, steps=4)
        want = why_of[a, b] + "\n" + " · ".join(store.titles([store.row(a), store.row(b)]))
        try:
            dpage.page.wait_for_function(
                "w => document.getElementById('div-hover').innerText === w", arg=want, timeout=2000
            )
            break
        except PlaywrightTimeout:
            dpage.page.mouse.move(box["x"] + 5, box["y"] + 5)
    else:
        pytest.fail(f"hovering a link did not show why: {dpage.text('#div-hover')!r}")
    card = dpage.text("#div-hover")
    assert card == want and ("cited together by" in card or "share" in card)
    cc, bc, _ = found[a, b]
    shown = re.match(r"cited together by (\d+) papers? · share (\d+) references?\n", card)
    assert shown and (int(shown[1]), int(shown[2])) == (cc, bc) and cc > 0 and bc > 0
    dpage.page.mouse.move(box["x"] + 3, box["y"] + 3, steps=4)  # off the link: the card goes
    dpage.page.wait_for_function("() => document.getElementById('div-hover').innerText === ''", timeout=3000)


def moderately_cited_pair(store: Store) -> tuple[str, str, int]:
    """Two arXiv papers with 5 to 50 citers in the dataset, four to six steps apart: the first such paper by id,
    and the first by id at that distance from it. Returns their ids and the distance."""
    ids = store.ids(range(store.n))
    pool = sorted(i for r, i in enumerate(ids) if 5 <= store.in_cited[r] <= 50 and i[:1].isdigit())
    a = pool[0]
    dist = distances(store, store.row(a))
    b = next(i for i in pool if 4 <= dist.get(store.row(i), 0) <= 6)
    return a, b, dist[store.row(b)]


def test_path_draws_a_shortest_chain_between_two_distant_papers(dpage: Page, default_store: Store) -> None:
    store = default_store
    a, b, steps = moderately_cited_pair(store)  # 0706.3188 and 0708.3696, 5 steps apart
    assert steps >= 4
    dpage.open(f"?path={a},{b}")
    assert f"path={a},{b}" in dpage.query()
    assert dpage.node_ids(".seed") == {a, b}
    badges = dpage.page.evaluate("() => [...document.querySelectorAll('.badges .badge')].map(b => b.textContent)")
    assert badges == ["start of the chains of citations"]  # the panel's paper: what it is in this view
    ids = dpage.node_ids()
    assert dpage.node_ids(".onpath") == ids - {a, b} and len(ids) >= steps + 1
    assert dpage.text("#span-status").startswith(f"3 shortest chains of {steps} steps · {len(ids)} papers")
    edges = dpage.page.evaluate(
        "() => cy.edges().not('.leader').map(e => [e.source().id(), e.target().id(), e.hasClass('onpath')])"
    )
    assert all(on for *_, on in edges)
    for src, dst, _ in edges:  # each drawn edge is a citation of the dataset, drawn from the citing paper
        assert dst in store.ids(store.references(store.row(src))), (src, dst)
    # every paper drawn is on a shortest chain: its distances to both ends add up to the chain's length
    from_a, from_b = distances(store, store.row(a)), distances(store, store.row(b))
    assert all(from_a[store.row(i)] + from_b[store.row(i)] == steps for i in ids)
    # and the drawn edges join a to b in that many steps: walk them back from b, one step closer to a each time
    drawn = {(s, t) for s, t, _ in edges} | {(t, s) for s, t, _ in edges}
    chain = [b]
    while chain[-1] != a:
        here = chain[-1]
        chain.append(min(i for i in ids if (here, i) in drawn and from_a[store.row(i)] == from_a[store.row(here)] - 1))
    chain.reverse()
    assert chain[0] == a and chain[-1] == b and len(chain) - 1 == steps >= 4
    assert all((p, q) in drawn for p, q in itertools.pairwise(chain))


def hex_rgb(color: str) -> str:
    return "rgb({}, {}, {})".format(*(int(color[k : k + 2], 16) for k in (1, 3, 5)))


def test_clusters_are_named_coloured_and_filter_the_map(dpage: Page, default_store: Store) -> None:
    dpage.open(f"?seeds={ATTENTION}&color=cluster")
    items = dpage.page.evaluate("""() => Array.from(document.querySelectorAll('#div-legend .cluster-item')).map(b =>
        [JSON.parse(b.id).index, b.innerText.replace(/\\s+/g, ' '), b.querySelector('.swatch').style.backgroundColor,
         b.className])""")
    assert len(items) >= 3
    nodes = dpage.page.evaluate("() => cy.nodes('.paper').map(n => [n.id(), n.data('color'), n.hasClass('seed')])")
    colours = Counter(hex_rgb(c) for _, c, _ in nodes)
    assert len(colours) >= 3
    for _, text, swatch, cls in items:
        m = re.fullmatch(r"(.+) \(([\d,]+)\)", text)
        assert m and "off" not in cls, text
        members = [pid for pid, c, _ in nodes if hex_rgb(c) == swatch]
        assert colours[swatch] == int(m[2].replace(",", "")) == len(members)  # its size: the papers of its colour
        titles = [" ".join(t.lower().split()) for t in default_store.titles([default_store.row(p) for p in members])]
        if paper := re.fullmatch(r"around “(.+)”", m[1]):  # named after one of its own papers
            assert any(t.startswith(paper[1].lower()) for t in titles), text
            continue
        terms = m[1].split(" · ")
        assert sum(len(t.split()) for t in terms) >= 2, text
        for term in terms:  # named by words of its own papers' titles
            assert any(term in t for t in titles), (term, text)
    index, text, swatch, _ = items[1]
    before = {pid for pid, c, seed in nodes if hex_rgb(c) == swatch and not seed}
    dpage.page.click(f"#div-legend .cluster-item >> text={text.split(' (')[0]}")
    wait_query(dpage, f"clusters={index}")
    after = dpage.page.evaluate("() => cy.nodes('.paper').map(n => [n.id(), n.data('color'), n.hasClass('seed')])")
    assert len(after) < len(nodes)
    assert {pid for pid, _, seed in after if seed} == {ATTENTION}
    assert all(hex_rgb(c) == swatch for _, c, seed in after if not seed)
    assert {pid for pid, _, seed in after if not seed} == before  # exactly that cluster's papers
    classes = dpage.page.evaluate(
        "() => Array.from(document.querySelectorAll('#div-legend .cluster-item')).map(b => b.classList.contains('off'))"
    )
    assert classes == [k != 1 for k in range(len(items))]


def entries(page: Page, kind: str) -> list[tuple[str, str]]:
    """(paper id, count text) of the entries of the prior or derivative works."""
    return [
        (json.loads(i)["index"], meta)
        for i, meta in page.page.evaluate(
            """k => Array.from(document.querySelectorAll('.list-' + k + ' li.entry')).map(li =>
             [li.querySelector('button.link').id, li.querySelector('.meta').innerText])""",
            kind,
        )
    ]


def test_prior_and_derivative_works_count_the_map(dpage: Page) -> None:
    dpage.open(f"?seeds={ATTENTION}")
    shown = dpage.node_ids(".paper")
    m = len(shown)
    assert m == 323
    folder = builds.served(DEFAULT_DATA)
    cites = pq.read_table(folder / "citations.parquet").to_pandas()
    known = set(pq.read_table(folder / "papers.parquet", columns=["id"]).column("id").to_pylist())
    assert shown <= known
    citing_in, cited_in = cites["citing"].isin(shown), cites["cited"].isin(shown)
    counted = {
        "prior": cites[citing_in & ~cited_in].groupby("cited").size().to_dict(),  # map papers citing it
        "derivative": cites[cited_in & ~citing_in].groupby("citing").size().to_dict(),
    }  # map papers it cites
    for kind, verb in (("prior", "cited by"), ("derivative", "cites")):
        listed = entries(dpage, kind)
        assert len(listed) == 10
        for pid, meta in listed:
            assert pid in known and pid not in shown
            assert meta == f"{verb} {counted[kind][pid]:,} of the {m:,} in view", (kind, pid)
        # the ten most counted (ties aside): the same counts as the best ten recomputed here
        assert [counted[kind][pid] for pid, _ in listed] == sorted(counted[kind].values(), reverse=True)[:10]
    first = entries(dpage, "prior")[0][0]  # 1409.0473, cited by 102 of them
    dpage.page.click(".list-prior li.entry >> nth=0 >> button:has-text('+ seed')")
    wait_query(dpage, f"seeds={ATTENTION},{first}")
    assert dpage.node_ids(".seed") == {ATTENTION, first}
    assert len(dpage.node_ids()) > m


@pytest.mark.parametrize(
    ("query", "notice", "seeds"),
    [
        (f"?seeds={ATTENTION}&path={ATTENTION},{ATTENTION}", "path= joins a paper to itself", (ATTENTION,)),
        (f"?path={ATTENTION},nope", "Unknown paper id in path: 'nope'", SEED_IDS),
    ],
)
def test_a_bad_path_shows_a_notice_and_the_default_map(
    dpage: Page, query: str, notice: str, seeds: tuple[str, ...]
) -> None:
    dpage.open(query)
    notices = dpage.page.evaluate("() => Array.from(document.querySelectorAll('.notice')).map(n => n.innerText)")
    assert len(notices) == 1 and notice in notices[0]
    assert dpage.query() == "?seeds=" + ",".join(seeds)  # path= dropped
    got = dpage.node_ids()
    assert dpage.node_ids(".seed") == set(seeds) and not dpage.node_ids(".onpath")
    assert "chain" not in dpage.text("#span-status")
    dpage.open("?seeds=" + ",".join(seeds))  # the same map as without the path
    assert dpage.node_ids() == got and dpage.node_ids(".seed") == set(seeds)
    dpage.assert_clean()


def test_tapping_a_similarity_link_says_why(browser, default_server, default_store: Store) -> None:
    """Issue 12, item 1: "hovering or clicking an edge says why". On a touch screen there is no hover: a tap on a
    link (a real touch, at its midpoint) shows its reason and its two papers, counted here."""
    store = default_store
    with Page(browser, default_server.url, touch=True) as p:
        p.open(f"?seeds={ATTENTION}&mode=similar")
        spots = p.page.evaluate("""() => cy.edges('.similar').map(e => {
            const m = e.renderedMidpoint();
            const clear = cy.nodes().every(n => { const b = n.renderedBoundingBox();
                return m.x < b.x1 - 14 || m.x > b.x2 + 14 || m.y < b.y1 - 14 || m.y > b.y2 + 14; });
            return [e.source().id(), e.target().id(), e.data('why'), m.x, m.y, clear && m.x > 10 && m.y > 10
                    && m.x < cy.width() - 10 && m.y < cy.height() - 10];
        })""")
        spots = [s for s in spots if s[5]]
        assert spots
        box = p.page.locator("#graph-citations canvas").first.bounding_box()
        query = p.query()
        p.page.evaluate(
            "() => { window.__edgeEvents = []; cy.on('mouseover tap', 'edge', e => window.__edgeEvents.push(e.type)); }"
        )
        for *_, x, y, _ in spots[:8]:  # another link crossing the midpoint may take the tap: try the next
            assert p.text("#div-hover") == ""
            p.page.touchscreen.tap(box["x"] + x, box["y"] + y)
            try:
                p.page.wait_for_function("() => document.getElementById('div-hover').innerText !== ''", timeout=3000)
                break
            except PlaywrightTimeout:
                continue
        else:
            pytest.fail("tapping a link did not show why")
        card = p.text("#div-hover")
        first, ends = card.split("\n")
        pair = next(
            (
                s
                for s in spots
                if s[2] == first and ends == " · ".join(store.titles([store.row(s[0]), store.row(s[1])]))
            ),
            None,
        )
        assert pair, card  # the card of a link drawn: its reason and its two papers' titles
        cc, bc, _ = strength(store, store.row(pair[0]), store.row(pair[1]))
        parts = [f"cited together by {cc:,} paper{'s' if cc != 1 else ''}"] * bool(cc) + [
            f"share {bc:,} reference{'s' if bc != 1 else ''}"
        ] * bool(bc)
        assert first == " · ".join(parts) and cc + bc > 0
        events = p.page.evaluate("() => window.__edgeEvents")
        assert "tap" in events and "mouseover" not in events  # the tap showed it: a touch screen has no hover
        assert p.query() == query and p.node_ids(".seed") == {ATTENTION}  # a tap on a link changes no state


def test_a_seed_beyond_twenty_is_a_notice(dpage: Page, default_store: Store) -> None:
    """Issue 12, item 5: too many seeds is a notice. With 20 seeds, a prior work's "+ seed" selects it, adds
    nothing, and says so."""
    store = default_store
    seeds = store.ids(store.arrays["rank_rows"][:20])
    dpage.open("?seeds=" + ",".join(seeds) + "&mode=similar")
    assert dpage.node_ids(".seed") == set(seeds)
    pid = entries(dpage, "prior")[0][0]
    dpage.page.click(".list-prior li.entry >> nth=0 >> button:has-text('+ seed')")
    wait_query(dpage, f"selected={pid}")
    assert dpage.node_ids(".seed") == set(seeds) and dpage.query().startswith("?seeds=" + ",".join(seeds) + "&")
    notices = dpage.page.evaluate("() => Array.from(document.querySelectorAll('.notice')).map(n => n.innerText)")
    title = store.titles([store.row(pid)])[0]
    assert [n.replace("×", "").strip() for n in notices] == [
        f"A view takes at most 20 seeds: “{title}” is selected, not added. Remove a seed to make room for it."
    ]
