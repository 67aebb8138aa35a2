"""``citemap fetch s2`` against a local Semantic Scholar stand-in (never the real API): the dataset built around a
seed, the requests' parameters, the API key header, retries, time-outs, malformed answers, unknown seeds, the
cache, the CLI.

The stand-in serves a small world made from the recorded fixtures (``tests/fixtures/semanticscholar``, ids
changed): the seed cites three papers and two references known by title only, and is cited by four papers; one
reference cites a fifth paper and one citer is cited by a sixth, which only two hops reach. Like the real API it
answers ``POST /paper/batch`` with a list in the order of the ids asked (``null`` for an unknown one), pages
``/paper/{id}/citations`` and ``/references`` with ``offset``/``limit``/``next`` and refuses a batch of more than
500 ids or a page of more than 1,000; unlike it, it ignores ``fields`` (but for ``references.paperId``) and sends
the whole fixture papers (abstracts, embeddings, contexts included), so the tests see what the client keeps. The
expected papers, edges and request counts are derived from that world and the page size.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dashboard.cli import main
from dashboard.dataset.format import read_meta, read_tables
from dashboard.dataset.store import Store
from dashboard.fetch import s2
from dashboard.fetch.http import FetchError, HttpSettings
from tests.conftest import FIXTURES
from tests.fetch_server import Fault, Request, StandIn, fast_settings, serving

FIXTURES = FIXTURES / "semanticscholar"


def s2id(tag: str) -> str:
    return tag.ljust(40, "0")  # readable made-up paper ids, 40 hex digits as the API's


SEED = s2id("5eed")
REFS = [s2id("aa01"), s2id("aa02"), s2id("aa03")]
CITERS = [s2id("cc01"), s2id("cc02"), s2id("cc03"), s2id("cc04")]
FAR_REF, FAR_CITER = s2id("fa01"), s2id("fc01")  # cited by REFS[0], citing CITERS[0]: two hops away
KNOWN_BY_ARXIV = s2id("ab01")
HOP1 = [SEED, *REFS, *CITERS]
API_KEY = "sekrit-key"


# -- the world ------------------------------------------------------------------------------------
def fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def make_world() -> tuple[dict[str, dict[str, Any]], dict[str, list[str]], list[dict[str, Any]]]:
    """The papers by id (whole fixture objects), the ids each cites, and the seed's references known by title only."""
    turing = fixture("Paper.json")
    refs, cits = turing["references"], turing["citations"]
    title_only = [r for r in refs if r["paperId"] is None][:2]
    assert "abstract" in turing and "embedding" in turing  # what the client must never keep
    plan = [
        (turing, SEED, REFS),
        (refs[0], REFS[0], [FAR_REF]),
        (refs[1], REFS[1], [REFS[0]]),
        (refs[2], REFS[2], []),
        (cits[0], CITERS[0], [SEED, REFS[0]]),
        (cits[1], CITERS[1], [SEED]),
        (cits[2], CITERS[2], [SEED]),
        (cits[3], CITERS[3], [SEED]),
        (refs[3], FAR_REF, []),
        (cits[5], FAR_CITER, [CITERS[0]]),
        (fixture("Reference.json")["citedPaper"], KNOWN_BY_ARXIV, []),
    ]
    world, cites = {}, {}
    for raw, pid, cited in plan:
        paper = {k: copy.deepcopy(v) for k, v in raw.items() if k not in ("citations", "references")}
        paper["paperId"] = pid
        paper["referenceCount"] = len(cited) + (len(title_only) if pid == SEED else 0)
        world[pid], cites[pid] = paper, cited
    return world, cites, title_only


# -- the stand-in server ----------------------------------------------------------------------------
EDGE_PATH = re.compile(r"^/paper/(?P<id>[^/]+)/(?P<endpoint>citations|references)$")


class Api(StandIn):
    page_size = 2  # at most this many items a page, whatever limit asks: paging is exercised

    def __init__(self) -> None:
        super().__init__()
        self.world, self.cites, self.title_only = make_world()
        self.null_lists: set[str] = set()  # papers whose reference list a batch answers as null

    def find(self, lookup: str) -> dict[str, Any] | None:
        kind, _, value = lookup.rpartition(":")
        field_, wanted = {
            "": ("paperId", value),
            "CorpusId": ("CorpusId", int(value) if value.isdigit() else None),
            "DOI": ("DOI", value.lower()),
            "ARXIV": ("ArXiv", value),
        }.get(kind, ("?", None))
        for paper in self.world.values():
            ids = {**paper["externalIds"], "paperId": paper["paperId"]}
            got = ids.get(field_)
            if wanted is not None and (got.lower() if field_ == "DOI" and got else got) == wanted:
                return paper
        return None

    def citers(self, pid: str) -> list[str]:
        return [p for p, cited in self.cites.items() if pid in cited]

    def listed(self, pid: str, endpoint: str) -> list[dict[str, Any]]:
        if endpoint == "citations":
            return [
                {"contexts": ["as in [4]"], "isInfluential": False, "citingPaper": self.world[p]}
                for p in self.citers(pid)
            ]
        extra = self.title_only if pid == SEED else []
        return [{"contexts": [], "citedPaper": paper} for paper in [self.world[p] for p in self.cites[pid]] + extra]

    def links(self, paper: dict[str, Any]) -> dict[str, Any]:
        pid = paper["paperId"]
        if pid in self.null_lists:
            return {"paperId": pid, "references": None}
        refs = [{"paperId": p} for p in self.cites[pid]]
        return {"paperId": pid, "references": refs + [{"paperId": None}] * (len(self.title_only) if pid == SEED else 0)}

    def batch(self, query: dict[str, str], body: Any) -> tuple[int, Any]:
        ids = body["ids"]
        if len(ids) > 500:
            return 400, {"error": "Cannot process more than 500 paper ids at a time"}
        found = [self.find(i) for i in ids]
        if query.get("fields") == "references.paperId":
            return 200, [self.links(p) if p else None for p in found]
        return 200, found

    def page(self, items: list[dict[str, Any]], query: dict[str, str]) -> tuple[int, Any]:
        offset, limit = int(query.get("offset", 0)), int(query.get("limit", 100))
        if limit > 1000:
            return 400, {"error": "The limit parameter must be <= 1000"}
        end = offset + min(limit, self.page_size)
        return 200, {"offset": offset, **({"next": end} if end < len(items) else {}), "data": items[offset:end]}

    def route(self, request: Request) -> tuple[int, Any]:
        if request.method == "POST" and request.path == "/paper/batch":
            return self.batch(request.query, request.body)
        m = EDGE_PATH.match(request.path)
        if request.method != "GET" or not m:
            return 404, {"error": "Not found"}
        if (paper := self.find(m["id"])) is None:
            return 404, {"error": f"Paper with id {m['id']} not found"}
        return self.page(self.listed(paper["paperId"], m["endpoint"]), request.query)

    # what the tests read of the log
    def posts(self) -> list[list[str]]:
        return [q["body"]["ids"] for q in self.log if q["method"] == "POST"]

    def gets(self, endpoint: str) -> list[dict[str, Any]]:
        return [q for q in self.log if q["method"] == "GET" and q["path"].endswith(endpoint)]


@pytest.fixture(autouse=True)
def no_real_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that forgets the stand-in's address reaches nothing (port 9 on loopback), never the real API."""
    monkeypatch.setenv(s2.BASE_URL_ENV, "http://127.0.0.1:9")
    monkeypatch.delenv(s2.API_KEY_ENV, raising=False)


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
        return s2.fetch_s2(
            list(seeds or [SEED]),
            self.tmp / out,
            base_url=self.api.url,
            cache=self.tmp / "cache",
            progress=False,
            settings=self.settings,
            on_warning=self.warnings.append,
            **options,
        )

    def dataset_id(self, pid: str) -> str:
        """A paper's id in the dataset: its arXiv id if the API names one, else its paperId."""
        return self.api.world[pid]["externalIds"].get("ArXiv") or pid

    def expected_ids(self, pids: list[str]) -> set[str]:
        return {self.dataset_id(p) for p in pids}

    def expected_edges(self, pids: list[str]) -> set[tuple[str, str]]:
        """Every citation the world holds between these papers (but a paper's of itself)."""
        return {
            (self.dataset_id(a), self.dataset_id(b)) for a in pids for b in self.api.cites[a] if b in pids and b != a
        }

    def pages(self, items: int) -> int:
        return max(1, math.ceil(items / self.api.page_size))

    def hop1_requests(self) -> int:
        """The seed's batch, its references' and citers' pages, one batch of the other papers' references."""
        refs = len(self.api.listed(SEED, "references"))
        return 1 + self.pages(refs) + self.pages(len(self.api.citers(SEED))) + 1


@pytest.fixture
def fetch(api: Api, tmp_path: Path, settings: HttpSettings) -> Run:
    return Run(api, tmp_path, settings)


def edges(store: Store) -> set[tuple[str, str]]:
    table = read_tables(store.build)[1]
    return set(zip(table.column("citing").to_pylist(), table.column("cited").to_pylist(), strict=True))


def ids(store: Store) -> set[str]:
    return set(store.papers.column("id").to_pylist())


def cached(tmp: Path) -> list[str]:
    return [p.read_text() for p in (tmp / "cache").rglob("*.json")]


# -- the dataset ------------------------------------------------------------------------------------
def test_dataset_around_a_seed(fetch: Run) -> None:
    summary = fetch()
    store = Store.load(fetch.tmp / "out")
    assert ids(store) == fetch.expected_ids(HOP1)
    assert "2405.19561" in ids(store) and CITERS[1] not in ids(store)  # a citer the API knows by its arXiv id
    want_edges = fetch.expected_edges(HOP1)
    assert edges(store) == want_edges and (REFS[1], REFS[0]) in want_edges  # edges among the neighbours too
    assert (summary["papers"], summary["citations"]) == (len(HOP1), len(want_edges))
    assert (summary["requests"], summary["from_cache"], summary["retries"]) == (fetch.hop1_requests(), 0, 0)
    world = fetch.api.world[SEED]
    seed = store.paper(store.row(SEED))
    assert (seed["title"], seed["year"], seed["posted"]) == (world["title"], world["year"], world["publicationDate"])
    assert seed["doi"] == world["externalIds"]["DOI"].lower() and seed["venue"] == world["journal"]["name"]
    assert seed["authors"] == [a["name"] for a in world["authors"]] and seed["areas"] == world["fieldsOfStudy"]
    assert (seed["cited_by"], seed["cited_by_from"]) == (world["citationCount"], "Semantic Scholar")
    assert seed["reference_count"] == world["referenceCount"]
    meta = read_meta(fetch.tmp / "out")
    assert meta["name"] == f"Semantic Scholar around {SEED}" and meta["seeds"] == [SEED]
    fetched = meta["fetched"]
    assert {k: fetched[k] for k in ("source", "api", "seeds", "found", "hops", "max_citers", "max_papers")} == {
        "source": "s2",
        "api": fetch.api.url,
        "seeds": [SEED],
        "found": [SEED],
        "hops": 1,
        "max_citers": 200,
        "max_papers": 5000,
    }
    assert fetched["date"].endswith("Z") and fetched["requests"] == summary["requests"]
    assert meta["source"].startswith(f"Semantic Scholar API ({fetch.api.url}), fetched 20")
    assert (
        meta["built_with"] == f"citemap fetch s2 {SEED} --hops 1 --max-citers 200 --max-papers 5000 "
        f"--out {fetch.tmp / 'out'}"
    )
    assert meta["format_in"] == "s2"
    title_only = len(fetch.api.title_only)
    assert any(n.startswith(f"{title_only} listed papers without a Semantic Scholar id") for n in meta["notes"])
    assert not any("shorter" in n for n in meta["notes"])  # lists kept within the dataset are not truncated ones
    kept = cached(fetch.tmp)
    assert len(kept) == summary["requests"]
    assert not any(word in text for text in kept for word in ("abstract", "embedding", "contexts", "tldr"))


def test_requests_fields_pages_and_batches(fetch: Run) -> None:
    fetch()
    log, fields = fetch.api.log, ",".join(s2.FIELDS)
    assert "abstract" not in fields and {q["method"] for q in log} == {"GET", "POST"}
    seed_batch, links_batch = [q for q in log if q["method"] == "POST"]
    assert (seed_batch["path"], seed_batch["fields"], seed_batch["body"]) == ("/paper/batch", fields, {"ids": [SEED]})
    not_listed = [p for p in HOP1[1:] if fetch.api.world[p]["referenceCount"]]  # the others' lists, but empty ones
    assert (links_batch["fields"], links_batch["body"]) == ("references.paperId", {"ids": not_listed})
    assert REFS[2] not in not_listed
    refs, cits = fetch.api.gets("/references"), fetch.api.gets("/citations")
    assert {q["path"] for q in refs + cits} == {f"/paper/{SEED}/references", f"/paper/{SEED}/citations"}
    assert all(q["fields"] == fields for q in refs + cits)
    step = fetch.api.page_size
    assert [q["offset"] for q in refs] == [
        str(step * i) for i in range(fetch.pages(len(fetch.api.listed(SEED, "references"))))
    ]
    assert {q["limit"] for q in refs} == {str(s2.PAGE_LIMIT)}  # all of them, 1,000 a page (the API's maximum)
    assert [(q["offset"], q["limit"]) for q in cits] == [
        (str(step * i), str(200 - step * i)) for i in range(fetch.pages(len(CITERS)))
    ]
    assert all("x-api-key" not in q["headers"] for q in log)


def test_the_api_key_goes_in_a_header_only(fetch: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(s2.API_KEY_ENV, API_KEY)
    fetch()
    assert fetch.api.log and all(q["headers"].get("x-api-key") == API_KEY for q in fetch.api.log)
    assert not any(API_KEY in json.dumps({k: v for k, v in q.items() if k != "headers"}) for q in fetch.api.log)
    assert not any(API_KEY in text for text in cached(fetch.tmp))
    assert not any(API_KEY.encode() in f.read_bytes() for f in (fetch.tmp / "out").rglob("*") if f.is_file())


def test_batches_hold_at_most_the_batch_limit(fetch: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(s2, "BATCH_LIMIT", 2)
    fetch(SEED, "DOI:10.1234/nothing", "arXiv:1402.0030")
    posts = fetch.api.posts()
    assert posts[:2] == [[SEED, "DOI:10.1234/nothing"], ["ARXIV:1402.0030"]]
    assert all(len(p) <= 2 for p in posts) and len(posts) > 3  # the reference lists too
    assert ids(Store.load(fetch.tmp / "out")) == fetch.expected_ids([*HOP1, KNOWN_BY_ARXIV])


def test_link_batches_keep_to_the_documented_limits() -> None:
    assert [len(b) for b in s2.link_batches([str(i) for i in range(1001)], {})] == [500, 500, 1]
    counts = {"a": 6000, "b": 3999, "c": 1, "d": 20000, "e": None}
    assert list(s2.link_batches(list(counts), counts)) == [["a", "b"], ["c"], ["d"], ["e"]]


def test_seeds_by_doi_arxiv_corpus_id_and_url(fetch: Run) -> None:
    world = fetch.api.world[SEED]
    doi, corpus = world["externalIds"]["DOI"], world["externalIds"]["CorpusId"]
    fetch(
        f"https://doi.org/{doi}",
        "arXiv:1402.0030",
        f"CorpusId:{corpus}",
        f"https://www.semanticscholar.org/paper/Computing-Machinery-Turing/{SEED}",
    )
    assert fetch.api.posts()[0] == [f"DOI:{doi.lower()}", "ARXIV:1402.0030", f"CorpusId:{corpus}", SEED]
    meta = read_meta(fetch.tmp / "out")
    assert meta["seeds"] == [SEED, "1402.0030"]  # the dataset's ids: an arXiv paper goes by its arXiv id
    assert meta["fetched"]["found"] == [SEED, KNOWN_BY_ARXIV] and fetch.warnings == []
    store = Store.load(fetch.tmp / "out")
    assert store.row("1402.0030") is not None and store.row(KNOWN_BY_ARXIV) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("649def34f8be52c8b66281af98ae884c09aef38b", "649def34f8be52c8b66281af98ae884c09aef38b"),
        ("649DEF34F8BE52C8B66281AF98AE884C09AEF38B", "649def34f8be52c8b66281af98ae884c09aef38b"),
        (
            "https://www.semanticscholar.org/paper/Construction-Ammar/649def34f8be52c8b66281af98ae884c09aef38b",
            "649def34f8be52c8b66281af98ae884c09aef38b",
        ),
        ("CorpusId:215416146", "CorpusId:215416146"),
        ("corpusid:215416146", "CorpusId:215416146"),
        ("10.18653/V1/N18-3011", "DOI:10.18653/v1/n18-3011"),
        ("DOI:10.18653/v1/N18-3011", "DOI:10.18653/v1/n18-3011"),
        ("https://doi.org/10.18653/v1/N18-3011", "DOI:10.18653/v1/n18-3011"),
        ("2106.09685", "ARXIV:2106.09685"),
        ("2106.09685v2", "ARXIV:2106.09685"),
        ("arXiv:2106.09685", "ARXIV:2106.09685"),
        ("ARXIV:hep-th/9901001", "ARXIV:hep-th/9901001"),
        ("https://arxiv.org/abs/2106.09685", "ARXIV:2106.09685"),
        ("649def34", None),
        ("CorpusId:abc", None),
        ("attention", None),
    ],
)
def test_parse_seed(text: str, expected: str | None) -> None:
    seed = s2.parse_seed(text)
    assert (seed and seed.lookup) == expected


def test_two_hops_and_the_caps(fetch: Run) -> None:
    fetch(out="two", hops=2)
    store = Store.load(fetch.tmp / "two")
    two_hops = [*HOP1, FAR_REF, FAR_CITER]
    assert ids(store) == fetch.expected_ids(two_hops)
    assert edges(store) == fetch.expected_edges(two_hops)
    fetch(out="capped", hops=2, max_papers=len(HOP1) + 1)  # references first: the far citer has no room left
    assert ids(Store.load(fetch.tmp / "capped")) == fetch.expected_ids([*HOP1, FAR_REF])
    fetch.api.log.clear()
    fetch(out="citers", max_citers=2)  # the first two citers the API lists, in one page
    assert ids(Store.load(fetch.tmp / "citers")) == fetch.expected_ids([SEED, *REFS, *CITERS[:2]])
    assert [(q["offset"], q["limit"]) for q in fetch.api.gets("/citations")] == [("0", "2")]
    assert read_meta(fetch.tmp / "citers")["fetched"]["max_citers"] == 2


def test_odd_answers_are_taken_in_stride(fetch: Run) -> None:
    """A listed paper without a title is left out (the importer would refuse it), a citation of itself is not an
    edge, a reference list answered as null is an empty one."""
    fetch.api.world[CITERS[3]]["title"] = None
    fetch.api.cites[CITERS[2]].append(CITERS[2])
    fetch.api.null_lists.add(CITERS[1])
    fetch.api.cites[CITERS[1]].append(REFS[2])  # not seen: its list comes as null
    summary = fetch()
    store = Store.load(fetch.tmp / "out")
    kept = HOP1[:-1]
    assert ids(store) == fetch.expected_ids(kept)
    assert edges(store) == fetch.expected_edges(kept) - {(fetch.dataset_id(CITERS[1]), REFS[2])}
    assert (fetch.dataset_id(CITERS[1]), SEED) in edges(store)  # known from the seed's citers
    assert summary["self_loops"] == 0
    title_only = len(fetch.api.title_only)
    assert any(n.startswith(f"{title_only + 1} listed papers") for n in read_meta(fetch.tmp / "out")["notes"])


# -- retries, time-outs, bad answers ----------------------------------------------------------------------
def test_429_waits_as_retry_after_says(fetch: Run, sleeps: list[float]) -> None:
    fetch.api.faults = [Fault(429, b'{"message": "Too Many Requests", "code": "429"}', {"Retry-After": "1"})]
    summary = fetch()
    assert sleeps == [pytest.approx(1.0)]
    assert (summary["requests"], summary["retries"], summary["papers"]) == (fetch.hop1_requests() + 1, 1, len(HOP1))
    assert fetch.api.posts()[:2] == [[SEED], [SEED]]


def test_503_twice_backs_off_exponentially(fetch: Run, sleeps: list[float]) -> None:
    fetch.api.faults = [Fault(503, b"busy", times=2, match="/citations")]
    summary = fetch()
    assert sleeps == [1.0, 2.0] and summary["retries"] == 2
    assert edges(Store.load(fetch.tmp / "out")) == fetch.expected_edges(HOP1)


def test_a_slow_answer_is_retried(fetch: Run, sleeps: list[float]) -> None:
    fetch.settings.timeout = 0.2
    fetch.api.faults = [Fault(delay=1.0)]
    summary = fetch()
    assert summary["retries"] == 1 and sleeps == [1.0] and summary["papers"] == len(HOP1)


def test_time_outs_give_up_after_max_tries(fetch: Run) -> None:
    fetch.settings.timeout = 0.1
    fetch.api.faults = [Fault(delay=0.6, times=None)]
    with pytest.raises(
        FetchError,
        match=r"POST http://127\.0\.0\.1:\d+/paper/batch\?fields=paperId,externalIds,"
        r".*: no answer within 0\.1 s; gave up after 3 tries",
    ):
        fetch()
    assert len(fetch.api.log) == 3 and not (fetch.tmp / "out").exists()


def test_a_long_retry_after_is_an_error(fetch: Run, sleeps: list[float]) -> None:
    fetch.api.faults = [Fault(429, headers={"Retry-After": "86400"})]
    with pytest.raises(FetchError, match="asks to wait 86400 s"):
        fetch()
    assert sleeps == [] and not (fetch.tmp / "out").exists()


@pytest.mark.parametrize(
    ("match", "body", "problem"),
    [
        ("/citations", b"<html>Service unavailable</html>", "the answer is not JSON"),
        ("/citations", b'{"offset": 0}', "the answer is not a page (no 'data' list)"),
        ("/citations", b'{"offset": 0, "next": "more", "data": []}', "the answer's 'next' is not an offset"),
        ("/citations", b'{"data": [{"contexts": []}]}', "data[0] is not an item with a 'citingPaper'"),
        ("/references", b'{"data": [{"citedPaper": "W1"}]}', "data[0].citedPaper is not a paper with a paperId"),
        ("POST /paper/batch", b'{"data": []}', "the answer is not a list of 1 papers or nulls (one per id asked)"),
        ("POST /paper/batch", b"[]", "the answer holds 0 items, not 1 papers or nulls (one per id asked)"),
        ("POST /paper/batch", b'[{"title": "no id"}]', "[0] is not a paper with a paperId"),
    ],
)
def test_a_malformed_answer_names_the_url(fetch: Run, match: str, body: bytes, problem: str) -> None:
    fetch.api.faults = [Fault(200, body, match=match)]
    where = "POST {}/paper/batch?fields=" if match.startswith("POST") else f"GET {{}}/paper/{SEED}{match}?fields="
    with pytest.raises(FetchError, match=rf"^{re.escape(where.format(fetch.api.url))}.*: {re.escape(problem)}"):
        fetch()
    assert not (fetch.tmp / "out").exists()


def test_a_refusal_is_not_retried(fetch: Run) -> None:
    fetch.api.faults = [Fault(400, b'{"error": "Unrecognized or unsupported fields: [bad]"}')]
    with pytest.raises(FetchError, match=r"HTTP 400: Unrecognized or unsupported fields: \[bad\]"):
        fetch()
    assert len(fetch.api.log) == 1


# -- seeds that are not found ------------------------------------------------------------------------------
def test_unknown_seeds_are_named_and_skipped(fetch: Run) -> None:
    fetch(SEED, "DOI:10.1234/nothing", "CorpusId:1", "nonsense")
    assert fetch.warnings == [
        "seed DOI:10.1234/nothing: not found in Semantic Scholar; fetched around the others",
        "seed CorpusId:1: not found in Semantic Scholar; fetched around the others",
        "seed nonsense: not a Semantic Scholar paper id (40 hex digits), a DOI (10..../...), an arXiv id "
        "(2106.09685) or CorpusId:NNN; fetched around the others",
    ]
    meta = read_meta(fetch.tmp / "out")
    assert meta["seeds"] == [SEED] and meta["name"] == f"Semantic Scholar around {SEED}"
    assert fetch.api.posts()[0] == [SEED, "DOI:10.1234/nothing", "CorpusId:1"]


def test_no_seed_found_stops(fetch: Run) -> None:
    with pytest.raises(
        FetchError,
        match=re.escape(
            "no seed found: DOI:10.1234/nothing: not found in Semantic "
            "Scholar; nonsense: not a Semantic Scholar paper id"
        ),
    ):
        fetch("DOI:10.1234/nothing", "nonsense")
    assert not (fetch.tmp / "out").exists() and len(fetch.api.log) == 1


# -- the cache ----------------------------------------------------------------------------------------------
def test_a_second_run_asks_nothing(fetch: Run) -> None:
    fetch(out="first")
    made = len(fetch.api.log)
    summary = fetch(out="second")
    assert len(fetch.api.log) == made and (summary["requests"], summary["from_cache"]) == (0, made)
    first, second = read_meta(fetch.tmp / "first"), read_meta(fetch.tmp / "second")
    assert first["build_id"] == second["build_id"] and second["fetched"]["from_cache"] == made


def test_a_stopped_fetch_resumes(fetch: Run) -> None:
    fetch.api.faults = [Fault(500, times=None, match=f"/references?fields={','.join(s2.FIELDS)}&offset=2&")]
    with pytest.raises(FetchError, match="HTTP 500; gave up after 3 tries"):
        fetch()
    assert not (fetch.tmp / "out").exists()
    answered = 2  # the seed's batch and the first page of its references
    assert [q["method"] for q in fetch.api.log] == ["POST", "GET", "GET", "GET", "GET"]
    fetch.api.faults, fetch.api.log[:] = [], []
    summary = fetch()
    assert fetch.api.gets("/references")[0]["offset"] == "2"  # from where it stopped
    assert (summary["requests"], summary["from_cache"]) == (fetch.hop1_requests() - answered, answered)
    assert summary["papers"] == len(HOP1)


# -- politeness ---------------------------------------------------------------------------------------------
def test_one_request_a_second_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without test settings the client keeps to the documented rate of a key (the rate limiter itself is tested
    in test_fetch_openalex.py)."""
    made: list[HttpSettings] = []

    class Spy(s2.JsonClient):
        def __post_init__(self) -> None:
            made.append(self.settings)
            super().__post_init__()

    monkeypatch.setattr(s2, "JsonClient", Spy)
    with pytest.raises(FetchError, match="no seed found"):  # an id that asks nothing
        s2.fetch_s2(["nonsense"], tmp_path / "out", progress=False)
    assert [(m.rate, m.timeout, m.max_tries) for m in made] == [(1.0, 30.0, 5)]


# -- the command line ----------------------------------------------------------------------------------------
def test_cli_fetch_s2(
    api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(s2.BASE_URL_ENV, api.url)
    monkeypatch.setenv(s2.API_KEY_ENV, API_KEY)
    monkeypatch.setattr(s2, "RATE", 0)  # no pause between requests (the stand-in has no limit)
    out = tmp_path / "data-s2"
    assert main(["fetch", "s2", SEED, "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    made = len(api.log)
    assert f"citemap: wrote {out}" in text
    store = Store.load(out)
    for line in (
        f"requests    {made} (0 of them retries)",
        "from cache  0",
        f"papers      {store.n}",
        f"citations   {store.n_citations}",
    ):
        assert line in text
    assert (tmp_path / "data-s2.cache").is_dir() and all(q["headers"]["x-api-key"] == API_KEY for q in api.log)
    assert store.n == len(HOP1)
    assert main(["fetch", "s2", SEED, "--out", str(out), "--quiet", "--hops", "1"]) == 0
    assert f"from cache  {made}" in capsys.readouterr().out and len(api.log) == made


def test_cli_fetch_s2_errors(
    api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(s2.BASE_URL_ENV, api.url)
    monkeypatch.setattr(s2, "RATE", 0)
    api.faults = [Fault(200, b"<html>oops</html>", times=None)]
    out = tmp_path / "out"
    assert main(["fetch", "s2", SEED, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"citemap: error: POST {api.url}/paper/batch?fields=paperId,") and "\n" not in err
    assert "the answer is not JSON" in err and not out.exists()
    assert main(["fetch", "s2", "W999x", "--out", str(out), "--quiet"]) == 2
    assert capsys.readouterr().err.strip().startswith("citemap: error: no seed found: W999x: not a Semantic Scholar")
    assert main(["fetch", "s2", SEED, "--out", str(out), "--max-citers", "0", "--quiet"]) == 2
    assert "--max-citers must be at least 1" in capsys.readouterr().err


def test_cli_fetch_s2_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["fetch", "s2", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert stop.value.code == 0
    for words in (
        "--out OUT",
        "--hops {1,2}",
        "--max-citers",
        "--max-papers",
        "--cache",
        "--quiet",
        "S2_API_KEY",
        "CorpusId:",
    ):
        assert words in text
    assert "--mailto" not in text
