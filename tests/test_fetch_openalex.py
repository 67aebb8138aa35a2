"""``citemap fetch openalex`` against a local OpenAlex stand-in (never the real API): the dataset built around a
seed, the requests' parameters, retries, time-outs, malformed answers, unknown seeds, the cache, the CLI.

The stand-in serves a small world made from the recorded fixtures (ids changed): the seed W2741809807 cites three
works and is cited by four (two per cursor page); one reference cites a fifth work and one citer is cited by a
sixth, which only two hops reach. Like the real API it filters (``openalex_id``, ``doi``, ``cites``), sorts,
pages with cursors; unlike it, it ignores ``select`` and sends the whole fixture works (abstracts included), so
the tests see what the client keeps.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dashboard.cli import main
from dashboard.dataset.format import read_meta, read_tables
from dashboard.dataset.store import Store
from dashboard.fetch import openalex as oa
from dashboard.fetch.http import FetchError, HttpSettings, RateLimiter, ResponseCache, retry_after
from tests.conftest import FIXTURES
from tests.fetch_server import Fault, Request, StandIn, fast_settings, serving

FIXTURES = FIXTURES / "openalex"
W = "https://openalex.org/"
SEED = "W2741809807"
REFS = ["W1000000001", "W1000000002", "W1000000003"]
CITERS = ["W2000000001", "W2000000002", "W2000000003", "W2000000004"]
FAR_REF, FAR_CITER = "W1000000009", "W2000000009"  # cited by REFS[0], citing CITERS[0]: two hops away
ATTENTION = "W3000000001"  # known by its arXiv DOI
MAILTO = "me@example.org"
HOP1_EDGES = {(c, SEED) for c in CITERS} | {(SEED, r) for r in REFS} | {(REFS[1], REFS[0]), (CITERS[0], REFS[0])}


# -- the world ------------------------------------------------------------------------------------
def rebuilt(raw: dict[str, Any], wid: str, refs: list[str]) -> dict[str, Any]:
    work = copy.deepcopy(raw)
    work["id"] = W + wid
    work["ids"] = {**work.get("ids", {}), "openalex": W + wid}
    work["referenced_works"] = [W + r for r in refs]
    return work


def make_world() -> dict[str, dict[str, Any]]:
    page = json.loads((FIXTURES / "works-list-page.json").read_text())["results"]
    seed = json.loads((FIXTURES / "work-W2741809807.json").read_text())
    assert "abstract_inverted_index" in seed  # what the client must never keep
    plan = [
        (seed, SEED, REFS),
        (page[0], REFS[0], [FAR_REF]),
        (page[1], REFS[1], [REFS[0]]),
        (page[2], REFS[2], []),
        (page[3], CITERS[0], [SEED, REFS[0]]),
        (page[5], CITERS[1], [SEED]),
        (page[6], CITERS[2], [SEED]),
        (page[7], CITERS[3], [SEED]),
        (page[8], FAR_REF, []),
        (page[9], FAR_CITER, [CITERS[0]]),
        (page[12], ATTENTION, []),
    ]
    world = {wid: rebuilt(raw, wid, refs) for raw, wid, refs in plan}
    world[ATTENTION]["doi"] = "https://doi.org/10.48550/arXiv.1706.03762"
    return world


# -- the stand-in server ----------------------------------------------------------------------------
class Api(StandIn):
    page_size = 2  # at most this many works a page, whatever per-page asks: paging is exercised

    def __init__(self) -> None:
        super().__init__()
        self.world = make_world()

    def filters(self) -> list[str]:
        return [q["filter"] for q in self.log]

    def select(self, filter_: str, sort: str | None) -> list[dict[str, Any]]:
        name, _, value = filter_.partition(":")
        values = value.split("|")
        if name == "openalex_id":
            found = [self.world[v] for v in values if v in self.world]
        elif name == "doi":
            wanted = {"https://doi.org/" + v.lower() for v in values}
            found = [w for w in self.world.values() if (w.get("doi") or "").lower() in wanted]
        elif name == "cites":
            found = [w for w in self.world.values() if W + value in w["referenced_works"]]
        else:
            raise ValueError(name)
        return sorted(found, key=lambda w: -w["cited_by_count"]) if sort == "cited_by_count:desc" else found

    def answer(self, query: dict[str, str]) -> dict[str, Any]:
        works = self.select(query["filter"], query.get("sort"))
        start = 0 if query.get("cursor", "*") == "*" else int(query["cursor"][1:])
        size = min(int(query.get("per-page", 25)), self.page_size)
        end = start + size
        meta = {
            "count": len(works),
            "db_response_time_ms": 3,
            "page": None,
            "per_page": size,
            "next_cursor": f"o{end}" if end < len(works) else None,
            "groups_count": None,
        }
        return {"meta": meta, "results": works[start:end]}

    def route(self, request: Request) -> tuple[int, Any]:
        if request.method != "GET" or request.path != "/works":
            return 404, {"error": "not found"}
        return 200, self.answer(request.query)


@pytest.fixture(autouse=True)
def no_real_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that forgets the stand-in's address reaches nothing (port 9 on loopback), never the real API."""
    monkeypatch.setenv(oa.BASE_URL_ENV, "http://127.0.0.1:9")
    for name in (oa.MAILTO_ENV, oa.API_KEY_ENV):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def api() -> Iterator[Api]:
    yield from serving(Api())


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def settings(sleeps: list[float]) -> HttpSettings:
    return fast_settings(sleeps)


@dataclass
class Run:
    api: Api
    tmp: Path
    settings: HttpSettings
    warnings: list[str] = field(default_factory=list)

    def __call__(self, *seeds: str, out: str = "out", **options: Any) -> dict[str, Any]:
        return oa.fetch_openalex(
            list(seeds or [SEED]),
            self.tmp / out,
            base_url=self.api.url,
            mailto=MAILTO,
            cache=self.tmp / "cache",
            progress=False,
            settings=self.settings,
            on_warning=self.warnings.append,
            **options,
        )


@pytest.fixture
def fetch(api: Api, tmp_path: Path, settings: HttpSettings) -> Run:
    return Run(api, tmp_path, settings)


def edges(store: Store) -> set[tuple[str, str]]:
    table = read_tables(store.build)[1]
    return set(zip(table.column("citing").to_pylist(), table.column("cited").to_pylist(), strict=True))


def ids(store: Store) -> set[str]:
    return set(store.papers.column("id").to_pylist())


# -- the dataset ------------------------------------------------------------------------------------
def test_dataset_around_a_seed(fetch: Run) -> None:
    summary = fetch()
    store = Store.load(fetch.tmp / "out")
    assert ids(store) == {SEED, *REFS, *CITERS}
    assert edges(store) == HOP1_EDGES
    assert (summary["papers"], summary["citations"], summary["requests"], summary["from_cache"]) == (8, 9, 5, 0)
    seed = store.paper(store.row(SEED))
    assert seed["title"].startswith("The state of OA") and seed["doi"] == "10.7717/peerj.4375"
    assert seed["cited_by"] == 962 and seed["cited_by_from"] == "OpenAlex"
    meta = read_meta(fetch.tmp / "out")
    assert meta["name"] == f"OpenAlex around {SEED}" and meta["seeds"] == [SEED]
    fetched = meta["fetched"]
    assert {k: fetched[k] for k in ("source", "api", "seeds", "found", "hops", "max_citers", "max_papers")} == {
        "source": "openalex",
        "api": fetch.api.url,
        "seeds": [SEED],
        "found": [SEED],
        "hops": 1,
        "max_citers": 200,
        "max_papers": 5000,
    }
    assert fetched["date"].endswith("Z") and fetched["date"][:2] == "20"
    assert meta["source"].startswith(f"OpenAlex API ({fetch.api.url}), fetched 20")
    assert (
        meta["built_with"] == f"citemap fetch openalex {SEED} --hops 1 --max-citers 200 --max-papers 5000 "
        f"--out {fetch.tmp / 'out'}"
    )
    assert MAILTO not in json.dumps(meta)
    cached = [p.read_text() for p in (fetch.tmp / "cache").rglob("*.json")]
    assert len(cached) == 5 and not any("abstract_inverted_index" in text for text in cached)


def test_requests_select_mailto_per_page_and_batch(fetch: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(oa.API_KEY_ENV, "sekrit")
    fetch()
    log = fetch.api.log
    assert {q["path"] for q in log} == {"/works"}
    assert all(q["select"] == ",".join(oa.SELECT) and "abstract_inverted_index" not in q["select"] for q in log)
    assert all(q["mailto"] == MAILTO and q["per-page"] == str(oa.PER_PAGE) and q["api_key"] == "sekrit" for q in log)
    assert fetch.api.filters() == [
        f"openalex_id:{SEED}",
        "openalex_id:" + "|".join(REFS),
        "openalex_id:" + "|".join(REFS),
        f"cites:{SEED}",
        f"cites:{SEED}",
    ]
    assert [q["cursor"] for q in log] == ["*", "*", "o2", "*", "o2"]
    assert [q.get("sort") for q in log] == [None, None, None, "cited_by_count:desc", "cited_by_count:desc"]
    cached = [p.read_text() for p in (fetch.tmp / "cache").rglob("*.json")]
    assert cached and not any("sekrit" in text or MAILTO in text for text in cached)


def test_batches_hold_at_most_the_or_limit(fetch: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(oa, "OR_LIMIT", 2)
    fetch()
    lookups = [f for f in fetch.api.filters() if f.startswith("openalex_id:W1")]
    assert lookups == [f"openalex_id:{REFS[0]}|{REFS[1]}", f"openalex_id:{REFS[2]}"]
    assert ids(Store.load(fetch.tmp / "out")) == {SEED, *REFS, *CITERS}


def test_seeds_by_doi_and_arxiv_id(fetch: Run) -> None:
    fetch("https://doi.org/10.7717/PEERJ.4375", "arXiv:1706.03762", f"{W}{SEED}")
    assert fetch.api.filters()[:2] == [f"openalex_id:{SEED}", "doi:10.7717/peerj.4375|10.48550/arxiv.1706.03762"]
    meta = read_meta(fetch.tmp / "out")
    assert meta["seeds"] == [SEED, "1706.03762"]  # the dataset's ids: an arXiv paper goes by its arXiv id
    assert meta["fetched"]["found"] == [SEED, ATTENTION] and fetch.warnings == []
    store = Store.load(fetch.tmp / "out")
    assert store.row("1706.03762") is not None and store.row(ATTENTION) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("W2741809807", ("openalex_id", "W2741809807")),
        ("https://openalex.org/W2741809807", ("openalex_id", "W2741809807")),
        ("https://api.openalex.org/works/w2741809807", ("openalex_id", "W2741809807")),
        ("10.7717/PeerJ.4375", ("doi", "10.7717/peerj.4375")),
        ("https://doi.org/10.7717/peerj.4375", ("doi", "10.7717/peerj.4375")),
        ("1706.03762", ("doi", "10.48550/arxiv.1706.03762")),
        ("1706.03762v5", ("doi", "10.48550/arxiv.1706.03762")),
        ("arXiv:hep-th/9901001", ("doi", "10.48550/arxiv.hep-th/9901001")),
        ("https://arxiv.org/abs/1706.03762", ("doi", "10.48550/arxiv.1706.03762")),
        ("attention", None),
        ("W12x", None),
    ],
)
def test_parse_seed(text: str, expected: tuple[str, str] | None) -> None:
    seed = oa.parse_seed(text)
    assert (seed and (seed.field, seed.value)) == expected


def test_two_hops_and_the_caps(fetch: Run) -> None:
    fetch(out="two", hops=2)
    store = Store.load(fetch.tmp / "two")
    assert ids(store) == {SEED, *REFS, *CITERS, FAR_REF, FAR_CITER}
    assert edges(store) == HOP1_EDGES | {(REFS[0], FAR_REF), (FAR_CITER, CITERS[0])}
    fetch(out="capped", hops=2, max_papers=9)  # references first: the far citer has no room left
    assert ids(Store.load(fetch.tmp / "capped")) == {SEED, *REFS, *CITERS, FAR_REF}
    fetch.api.log.clear()
    fetch(out="citers", max_citers=2)  # the two most cited citers, one page
    assert ids(Store.load(fetch.tmp / "citers")) == {SEED, *REFS, CITERS[1], CITERS[0]}
    assert fetch.api.log == []  # all of it was in the cache already
    assert read_meta(fetch.tmp / "citers")["fetched"]["max_citers"] == 2


# -- retries, time-outs, bad answers ----------------------------------------------------------------------
def test_429_waits_as_retry_after_says(fetch: Run, sleeps: list[float]) -> None:
    fetch.api.faults = [Fault(429, b'{"error": "slow down"}', {"Retry-After": "1"})]
    summary = fetch()
    assert sleeps == [pytest.approx(1.0)]
    assert (summary["requests"], summary["retries"], summary["papers"]) == (6, 1, 8)
    assert fetch.api.filters()[:2] == [f"openalex_id:{SEED}"] * 2


def test_503_twice_backs_off_exponentially(fetch: Run, sleeps: list[float]) -> None:
    fetch.api.faults = [Fault(503, b"busy", times=2, match="cites")]
    summary = fetch()
    assert sleeps == [1.0, 2.0] and summary["retries"] == 2
    assert edges(Store.load(fetch.tmp / "out")) == HOP1_EDGES


def test_a_slow_answer_is_retried(fetch: Run, sleeps: list[float]) -> None:
    fetch.settings.timeout = 0.2
    fetch.api.faults = [Fault(delay=1.0)]
    summary = fetch()
    assert summary["retries"] == 1 and sleeps == [1.0] and summary["papers"] == 8


def test_time_outs_give_up_after_max_tries(fetch: Run) -> None:
    fetch.settings.timeout = 0.1
    fetch.api.faults = [Fault(delay=0.6, times=None)]
    with pytest.raises(
        FetchError,
        match=r"GET http://127\.0\.0\.1:\d+/works\?filter=openalex_id:W2741809807.*: "
        r"no answer within 0\.1 s; gave up after 3 tries",
    ):
        fetch()
    assert len(fetch.api.log) == 3 and not (fetch.tmp / "out").exists()


def test_a_long_retry_after_is_an_error(fetch: Run, sleeps: list[float]) -> None:
    fetch.api.faults = [Fault(429, headers={"Retry-After": "86400"})]
    with pytest.raises(FetchError, match="asks to wait 86400 s"):
        fetch()
    assert sleeps == [] and not (fetch.tmp / "out").exists()


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"<html>Service unavailable</html>", "the answer is not JSON"),
        (b'{"meta": {"count": 1}}', "the answer is not a list page (no 'results' list)"),
        (b'{"meta": {}, "results": [{"display_name": "no id"}]}', "results[0] is not a work with an OpenAlex id"),
    ],
)
def test_a_malformed_answer_names_the_url(fetch: Run, body: bytes, problem: str) -> None:
    fetch.api.faults = [Fault(200, body, match="cites")]
    url = re.escape(f"GET {fetch.api.url}/works?filter=cites:{SEED}&")
    with pytest.raises(FetchError, match=rf"{url}.*: {re.escape(problem)}"):
        fetch()
    assert not (fetch.tmp / "out").exists()


def test_a_refusal_is_not_retried(fetch: Run) -> None:
    fetch.api.faults = [Fault(400, b'{"error": "Invalid query", "message": "select: unknown field"}')]
    with pytest.raises(FetchError, match="HTTP 400: select: unknown field"):
        fetch()
    assert len(fetch.api.log) == 1


# -- seeds that are not found ------------------------------------------------------------------------------
def test_unknown_seeds_are_named_and_skipped(fetch: Run) -> None:
    fetch(SEED, "W999", "10.1234/nothing", "nonsense")
    assert fetch.warnings == [
        "seed W999: not found in OpenAlex; fetched around the others",
        "seed 10.1234/nothing: not found in OpenAlex; fetched around the others",
        "seed nonsense: not an OpenAlex work id (W...), a DOI (10..../...) or an arXiv id (1706.03762); "
        "fetched around the others",
    ]
    meta = read_meta(fetch.tmp / "out")
    assert meta["seeds"] == [SEED] and meta["name"] == f"OpenAlex around {SEED}"
    assert fetch.api.filters()[0] == f"openalex_id:{SEED}|W999"


def test_no_seed_found_stops(fetch: Run) -> None:
    with pytest.raises(FetchError, match="no seed found: W999: not found in OpenAlex; nonsense: not an OpenAlex"):
        fetch("W999", "nonsense")
    assert not (fetch.tmp / "out").exists()


# -- the cache ----------------------------------------------------------------------------------------------
def test_a_second_run_asks_nothing(fetch: Run) -> None:
    fetch(out="first")
    made = len(fetch.api.log)
    summary = fetch(out="second")
    assert len(fetch.api.log) == made and (summary["requests"], summary["from_cache"]) == (0, 5)
    first, second = read_meta(fetch.tmp / "first"), read_meta(fetch.tmp / "second")
    assert first["build_id"] == second["build_id"] and second["fetched"]["from_cache"] == 5


def test_a_stopped_fetch_resumes(fetch: Run) -> None:
    fetch.api.faults = [Fault(500, times=None, match="cursor=o2")]  # every second page fails
    with pytest.raises(FetchError, match="HTTP 500; gave up after 3 tries"):
        fetch()
    assert not (fetch.tmp / "out").exists()
    assert fetch.api.filters() == [
        f"openalex_id:{SEED}",
        "openalex_id:" + "|".join(REFS),
        *["openalex_id:" + "|".join(REFS)] * 3,
    ]
    fetch.api.faults, fetch.api.log[:] = [], []
    summary = fetch()
    assert [q["cursor"] for q in fetch.api.log] == ["o2", "*", "o2"]  # from where it stopped
    assert (summary["requests"], summary["from_cache"], summary["papers"]) == (3, 2, 8)


def test_cache_keys_leave_out_who_asks(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    cache.put("http://x/works?filter=a", {"results": []})
    assert cache.get("http://x/works?filter=a") == {"results": []} and cache.get("http://x/works?filter=b") is None
    cache.path("http://x/works?filter=a").write_text("{not json")
    assert cache.get("http://x/works?filter=a") is None  # asked for again


# -- politeness ---------------------------------------------------------------------------------------------
def test_rate_limit_spaces_requests() -> None:
    now, slept = [100.0], []

    def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s

    limiter = RateLimiter(10.0, sleep, lambda: now[0])
    for _ in range(4):
        limiter.wait()
    assert slept == pytest.approx([0.1, 0.1, 0.1])
    now[0] += 5
    limiter.wait()
    assert len(slept) == 3
    assert HttpSettings().rate == 10.0 and HttpSettings().timeout == 30.0 and HttpSettings().max_tries == 5


def test_retry_after_forms() -> None:
    assert retry_after("2") == 2.0 and retry_after(None) is None and retry_after("soon") is None
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past: no wait


# -- the command line ----------------------------------------------------------------------------------------
def test_cli_fetch(
    api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(oa.BASE_URL_ENV, api.url)
    monkeypatch.setenv(oa.MAILTO_ENV, MAILTO)
    out = tmp_path / "data-oa"
    assert main(["fetch", "openalex", SEED, "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert f"citemap: wrote {out}" in text
    for line in ("requests    5 (0 of them retries)", "from cache  0", "papers      8", "citations   9"):
        assert line in text
    assert (tmp_path / "data-oa.cache").is_dir() and all(q["mailto"] == MAILTO for q in api.log)
    assert Store.load(out).n == 8
    assert main(["fetch", "openalex", SEED, "--out", str(out), "--quiet"]) == 0
    assert "from cache  5" in capsys.readouterr().out and len(api.log) == 5


def test_cli_fetch_errors(
    api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(oa.BASE_URL_ENV, api.url)
    api.faults = [Fault(200, b"<html>oops</html>", times=None)]
    out = tmp_path / "out"
    assert main(["fetch", "openalex", SEED, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"citemap: error: GET {api.url}/works?filter=openalex_id:{SEED}&") and "\n" not in err
    assert "the answer is not JSON" in err and not out.exists()
    assert main(["fetch", "openalex", "W999x", "--out", str(out), "--quiet"]) == 2
    assert capsys.readouterr().err.strip().startswith("citemap: error: no seed found: W999x: not an OpenAlex")
    assert main(["fetch", "openalex", SEED, "--out", str(out), "--max-citers", "0", "--quiet"]) == 2
    assert "--max-citers must be at least 1" in capsys.readouterr().err
