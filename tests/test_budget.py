"""The work each client address may cause: a view's cost estimated from its state (dashboard/graph/cost.py) and the
per-address budget that spends it (dashboard/web/budget.py), on its own, across processes, and in the app, where
every route and callback that builds a view spends from it."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import sys
from dataclasses import replace

import pytest

from dashboard.dataset.store import Store
from dashboard.graph.cost import KINDS, force_units, papers_in_view, view_cost
from dashboard.graph.neighbourhood import MAX_NODES
from dashboard.graph.state import MAX_SEEDS, parse_query
from dashboard.view.payload import build_subgraph
from dashboard.web import budget as budget_mod
from dashboard.web.app import create_app
from dashboard.web.budget import BUSY_FOR, Budget, address_key, is_trusted, trusted_networks
from dashboard.web.callbacks.common import context
from tests.conftest import DEFAULT_DATA
from tests.servers import dash_payload


def state_of(store: Store, query: str):
    state, notices = parse_query(query, context(store))
    assert notices == [], notices
    return state


def most_cited(store: Store, n: int) -> list[str]:
    return [store.id(int(r)) for r in store.arrays["rank_rows"][:n]]


# -- the estimate ------------------------------------------------------------------------------------------------------
def test_the_estimate_bounds_the_papers_a_view_shows(default_store: Store) -> None:
    """For views of 1 to 20 seeds, expanded papers, limits and a similarity map, the estimate (read from neighbour
    counts alone) is at least the papers the view really holds, never more than the cap, and close to it for plain
    maps (their neighbour lists overlap little) and near it with expanded papers (each counts the few dozen of its
    references and citers it shows, not whole lists)."""
    rng = random.Random(4)
    top = most_cited(default_store, 300)
    close, expands = [], []
    for _ in range(40):
        seeds = rng.sample(top, rng.choice([1, 2, 5, 20]))
        extra = rng.choice(["", "&limit=3000", "&limit=50", f"&expand={','.join(rng.sample(top, 3))}", "&mode=similar"])
        state = state_of(default_store, f"?seeds={','.join(seeds)}{extra}")
        real = len(build_subgraph(default_store, state).rows)
        guess = papers_in_view(default_store, state)
        assert real <= guess <= MAX_NODES, (state, real, guess)
        if not extra:
            close.append(guess / real)
        elif "expand" in extra:
            expands.append(guess / real)
    assert max(close) < 1.5, close
    assert expands and max(expands) < 2, expands


def test_costs_grow_with_what_a_view_asks(default_store: Store) -> None:
    top = most_cited(default_store, MAX_SEEDS)
    one = state_of(default_store, f"?seeds={top[0]}")
    many = state_of(default_store, f"?seeds={','.join(top)}&limit=3000")
    cost = {k: view_cost(default_store, many, k) for k in KINDS}
    assert view_cost(default_store, many, "graph") > 20 * view_cost(default_store, one, "graph")
    assert cost["preview"] > cost["graph"] == cost["export"] > cost["side"] == cost["subgraph"] > 0
    assert cost["subgraph"] < 0.01 * cost["graph"]  # the papers alone: no positions
    timeline = replace(many, layout="timeline")
    assert view_cost(default_store, timeline, "graph") < 0.05 * cost["graph"]
    clusters = replace(many, color="cluster")
    assert view_cost(default_store, clusters, "side") > 10 * cost["side"]  # its legend names the clusters
    assert view_cost(default_store, replace(clusters, clusters=(1,)), "subgraph") > 10 * cost["subgraph"]
    similar = replace(one, mode="similar", limit=200)
    assert view_cost(default_store, similar, "subgraph") > view_cost(default_store, one, "subgraph")
    assert force_units(5000) == pytest.approx(11.25) and force_units(1000) == pytest.approx(1.25)
    with pytest.raises(ValueError, match="not a kind of request"):
        view_cost(default_store, one, "nope")


# -- the budget on its own ---------------------------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_its_rate_and_says_when_to_ask_again() -> None:
    clock = Clock()
    b = Budget(capacity=10, rate=0.5, heavy=100, clock=clock, slots=64)  # nothing is heavy here
    a, other = address_key("10.0.0.1"), address_key("10.0.0.2")
    granted = 0
    while b.take(a, 3)[0] is None:
        granted += 1
    assert granted == 3  # 10 units: three of 3
    refusal, mark = b.take(a, 3)
    assert mark == 0 and refusal.retry_after == 4  # 1 unit left: 2 more at 0.5 a second
    assert b.take(other, 3)[0] is None  # another address has its own bucket
    clock.now += 3.9
    assert b.take(a, 3)[0] is not None
    clock.now += 0.2
    assert b.take(a, 3)[0] is None
    assert b.take(a, 1000)[0] is not None  # a view dearer than the whole bucket needs a full one
    clock.now += 60
    assert b.tokens(a) == 10 and b.take(a, 1000)[0] is None and b.tokens(a) == 0


def test_one_map_at_a_time_per_address() -> None:
    clock = Clock()
    b = Budget(capacity=100, rate=1, heavy=0.5, clock=clock, slots=64)
    a, other = address_key("10.0.0.1"), address_key("10.0.0.2")
    first, mark = b.take(a, 2)
    assert first is None and mark
    second, _ = b.take(a, 2)
    assert second is not None and second.retry_after == 1 and "being made" in second.reason
    assert b.take(a, 0.1) == (None, 0)  # a cheap request of the same address goes on meanwhile
    assert b.take(other, 2)[0] is None  # another address is not held up
    b.done(a, mark)
    refusal, again = b.take(a, 2)
    assert refusal is None and again and again != mark
    b.done(a, mark)  # a stale mark frees nothing
    assert b.take(a, 2)[0] is not None
    clock.now += BUSY_FOR + 1  # a request that never said it was done stops counting
    assert b.take(a, 2)[0] is None


def _hold_a_map(table_budget: Budget, key: int, ready, leave) -> None:
    refusal, _ = table_budget.take(key, 5)
    ready.put(refusal is None)
    leave.wait(30)
    os._exit(0)  # killed mid-request: done() is never called


def test_the_budget_is_shared_by_forked_workers_and_a_dead_ones_map_frees() -> None:
    """A map running in one forked process holds the address in another (gunicorn's workers); when that process
    dies without saying it is done, the address may start another at once."""
    b = Budget(capacity=100, rate=1, heavy=0.5, slots=64)
    key = address_key("10.9.9.9")
    fork = multiprocessing.get_context("fork")
    ready, leave = fork.Queue(), fork.Event()
    worker = fork.Process(target=_hold_a_map, args=(b, key, ready, leave))
    worker.start()
    try:
        assert ready.get(timeout=30) is True
        refusal, _ = b.take(key, 5)
        assert refusal is not None and "being made" in refusal.reason
        assert b.tokens(key) == pytest.approx(95, abs=1)  # the other process spent them
    finally:
        leave.set()
        worker.join(30)
    refusal, mark = b.take(key, 5)
    assert refusal is None and mark


def test_the_address_nginx_forwards_counts_only_from_a_trusted_peer() -> None:
    b = Budget(trusted="127.0.0.1,10.1.0.0/16", slots=64)
    forwarded = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "203.0.113.7"}
    assert b.client(forwarded) == "203.0.113.7"
    assert b.client({**forwarded, "REMOTE_ADDR": "10.1.2.3"}) == "203.0.113.7"
    assert b.client({**forwarded, "REMOTE_ADDR": "198.51.100.1"}) == "198.51.100.1"  # a client saying who it is
    assert b.client({**forwarded, "HTTP_X_REAL_IP": "not an address"}) == "127.0.0.1"
    assert b.client({"REMOTE_ADDR": "127.0.0.1"}) == "127.0.0.1"
    assert trusted_networks("*") is None and is_trusted("198.51.100.1", None)
    assert is_trusted("", trusted_networks("127.0.0.1"))  # a Unix socket's peer: nginx on the same machine
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1")  # one /64, one host
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:192.0.2.1") == address_key("192.0.2.1")


# -- in the app --------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def budgeted():
    """The app on the default dataset with a small budget: 6 units, hardly refilled, a map at a time."""
    return create_app(DEFAULT_DATA, budget=Budget(capacity=6, rate=1e-6, trusted="127.0.0.1", slots=256))


def from_address(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": "127.0.0.1"}, "headers": {"X-Real-IP": address}}


def test_every_route_that_builds_a_view_spends_from_one_budget(budgeted) -> None:
    """An address that spent its budget on distinct heavy maps is refused by every route and callback that builds a
    view (a map, its picture, the field's layer, a story's step, an image's title, the state, side and panel
    callbacks), with Retry-After; another address is served by each; what costs nothing is still served."""
    store = budgeted.server.config["CITEMAP_STORE"]
    client = budgeted.server.test_client()
    top = most_cited(store, 60)
    rng = random.Random(7)
    spent = []
    for _ in range(20):  # distinct 20-seed maps: some 10 units each, more than the bucket holds after the first
        query = f"?seeds={','.join(rng.sample(top, MAX_SEEDS))}&limit=3000"
        spent.append(client.get("/graph" + query, **from_address("203.0.113.1")).status_code)
        if spent[-1] == 429:
            break
    assert spent[0] == 200 and spent[-1] == 429 and len(spent) == 2

    callbacks = {c["output"]: c for c in json.loads(client.get("/_dash-dependencies").data)}

    def callback(prefix: str, query: str, address: str) -> int:
        output = next(
            k for k in callbacks if k.lstrip(".").startswith(prefix) and not callbacks[k].get("clientside_function")
        )
        body = dash_payload(callbacks[output], {"store-view-state.data": query, "url.search": query})
        return client.post(
            "/_dash-update-component", data=body, content_type="application/json", **from_address(address)
        ).status_code

    story = store.folder / "stories"
    name = sorted(p.stem for p in story.glob("*.json"))[0]
    light = f"?seeds={top[30]}"
    families = {
        "map": lambda a: client.get("/graph" + light, **from_address(a)).status_code,
        "picture": lambda a: client.get("/preview.svg" + light + "&layout=concentric", **from_address(a)).status_code,
        "field": lambda a: client.get("/field" + light + "&min_citations=3", **from_address(a)).status_code,
        "story step": lambda a: client.get(f"/graph?story={name}&step=1", **from_address(a)).status_code,
        "image title": lambda a: client.get("/image-title" + light + "&years=2015-2020", **from_address(a)).status_code,
        "state": lambda a: callback("url.search", light + "&min_citations=1", a),
        "side": lambda a: callback("span-status.children", light + "&min_citations=2", a),
        "panel": lambda a: callback("div-paper.children", light + "&min_citations=4", a),
    }
    refused = {}
    for family, ask in families.items():
        refused[family] = (ask("203.0.113.1"), ask("203.0.113.2"))
    assert all(r == (429, 200) for r in refused.values()), refused
    answer = client.get("/graph" + light + "&layout=timeline", **from_address("203.0.113.1"))
    assert answer.status_code == 429 and int(answer.headers["Retry-After"]) >= 1
    assert json.loads(answer.data)["error"].startswith("this address has asked for much work: try again in ")
    # what costs nothing: the map the other address has (a 304), a view this worker has just built, /health
    first = client.get("/graph" + light, **from_address("203.0.113.2"))
    again = client.get("/graph" + light, headers={"If-None-Match": first.headers["ETag"], "X-Real-IP": "203.0.113.1"})
    assert again.status_code == 304
    assert client.get("/graph" + light, **from_address("203.0.113.1")).status_code == 200
    assert client.get("/health", **from_address("203.0.113.1")).status_code == 200


def test_without_a_budget_nothing_is_refused(default_store: Store) -> None:
    app = create_app(DEFAULT_DATA, store=default_store)
    assert app.server.config[budget_mod.CONFIG_KEY] is None
    client = app.server.test_client()
    top = most_cited(default_store, 40)
    for k in range(3):
        assert client.get(f"/graph?seeds={','.join(top[k : k + 20])}&layout=concentric").status_code == 200


def test_the_environment_sizes_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEMAP_BUDGET_UNITS", "8")
    monkeypatch.setenv("CITEMAP_BUDGET_RATE", "0.25")
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "172.30.48.10")
    b = budget_mod.from_env()
    assert (b.capacity, b.rate) == (8, 0.25) and b.client(
        {"REMOTE_ADDR": "172.30.48.10", "HTTP_X_REAL_IP": "::1"}
    ) == "::1"
    assert b.client({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "::1"}) == "127.0.0.1"
    for bad in ("lots", "0", "-1"):
        monkeypatch.setenv("CITEMAP_BUDGET_RATE", bad)
        with pytest.raises(ValueError, match="CITEMAP_BUDGET_RATE="):
            budget_mod.from_env()
    monkeypatch.setenv("CITEMAP_BUDGET", "0")
    assert not budget_mod.wanted()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice value is Linux's")
def test_a_maps_work_runs_nicer_in_the_requests_context(default_store: Store) -> None:
    """In the app, the work of a request that lays a map out runs on the process's thread for maps, 10 nicer than
    the request's own thread, with the request's context (Flask's ``request``); a light request's work runs where
    the request does."""
    from flask import request

    app = create_app(DEFAULT_DATA, store=default_store, budget=Budget(trusted="127.0.0.1", slots=64))
    top = most_cited(default_store, 20)
    heavy = state_of(default_store, f"?seeds={','.join(top)}")
    light = state_of(default_store, f"?seeds={top[0]}")
    seen = []

    def make() -> str:
        import threading

        seen.append((threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, threading.get_native_id())))
        return request.path

    with app.server.test_request_context("/graph?x=1", environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert budget_mod.work(default_store, heavy, "graph", make) == "/graph"
        assert budget_mod.work(default_store, light, "subgraph", make) == "/graph"
        assert budget_mod.work(default_store, heavy, "graph", make) == "/graph"  # built a moment ago: free, here
    assert seen[0][0].startswith("citemap-maps") and seen[0][1] == min(19, own + budget_mod.LOWER_PRIORITY)
    assert seen[1] == (seen[2][0], own) and not seen[1][0].startswith("citemap-maps")
