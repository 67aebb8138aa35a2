"""A polite JSON-over-HTTP client for the fetchers: one request at a time (a GET, or a POST of a JSON body), at
most ``rate`` requests a second, a timeout on every request, retries with exponential backoff on 429, 5xx,
time-outs and dropped connections (honouring ``Retry-After``), and an on-disk cache of every good answer.

The cache stores each answer under a hash of its *public* URL (and, for a POST, its body): the URL without the
parameters or headers that only say who asks (``mailto``, ``api_key``, ``x-api-key``), which are also never
shown in messages. A fetch that stopped half-way reads what it already has from the cache and asks only for the
rest; a repeated fetch asks for nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlencode

import requests

from dashboard.errors import DatasetError

REQUEST_TIMEOUT = 30.0  # seconds: connecting, and each wait for the answer's bytes
MAX_TRIES = 5  # tries of one request before giving up
MAX_REQUESTS_PER_SECOND = 10.0
BACKOFF_BASE = 1.0  # seconds before the first retry without Retry-After; doubled each time
MAX_RETRY_WAIT = 120.0  # a Retry-After longer than this (a daily limit reached) is an error, not a wait
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})

Params = list[tuple[str, str]]
Shape = Callable[[Any], Any]  # an answer's body -> the body to keep; raises ValueError saying what is wrong


class FetchError(DatasetError):
    """A request that failed for good, or an answer that cannot be used; the message names the URL."""


@dataclass
class HttpSettings:
    """How the client treats the server; tests make it fast and record the waits through ``sleep``."""

    timeout: float = REQUEST_TIMEOUT
    max_tries: int = MAX_TRIES
    rate: float = MAX_REQUESTS_PER_SECOND
    backoff: float = BACKOFF_BASE
    max_wait: float = MAX_RETRY_WAIT
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic


@dataclass
class HttpStats:
    requests: int = 0  # sent to the server, retries included
    from_cache: int = 0
    retries: int = 0


class RateLimiter:
    """Spaces the calls of :meth:`wait` at least ``1 / rate`` seconds apart."""

    def __init__(self, rate: float, sleep: Callable[[float], None], clock: Callable[[], float]) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.sleep, self.clock = sleep, clock
        self.last: float | None = None

    def wait(self) -> None:
        now = self.clock()
        if self.last is not None and (pause := self.last + self.interval - now) > 0:
            self.sleep(pause)
            now += pause
        self.last = now


class ResponseCache:
    """Answers kept as ``FOLDER/ab/abcdef....json`` (a SHA-256 of the public URL), written atomically."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    @staticmethod
    def key(url: str) -> str:
        return hashlib.sha256(url.encode()).hexdigest()

    def path(self, url: str) -> Path:
        key = self.key(url)
        return self.folder / key[:2] / f"{key}.json"

    def get(self, url: str) -> Any | None:
        """The body stored for ``url``, or None (a missing or unreadable entry is simply asked for again)."""
        try:
            entry = json.loads(self.path(url).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry.get("body") if isinstance(entry, dict) and entry.get("url") == url else None

    def put(self, url: str, body: Any) -> None:
        path = self.path(url)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"url": url, "body": body}, f, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError as e:
            raise FetchError(f"{path}: cannot write the cache ({e.strerror or e})") from e


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), or None."""
    if not value:
        return None
    with contextlib.suppress(ValueError):
        return max(0.0, float(value))
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def one_line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def error_detail(resp: requests.Response) -> str:
    """What a refusal says: the JSON ``message``/``error`` if any, else the start of the body."""
    with contextlib.suppress(ValueError):
        body = resp.json()
        if isinstance(body, dict) and (text := body.get("message") or body.get("error")):
            return one_line(str(text))
    return one_line(resp.text or resp.reason or "")


@dataclass
class JsonClient:
    """GETs (or POSTs for) JSON from ``base_url``. ``private`` parameters and ``private_headers`` (who asks) are
    sent but kept out of cache keys and messages; ``on_answer(from_cache)`` is called once per answer (a
    progress bar)."""

    base_url: str
    private: Params = field(default_factory=list)
    cache: ResponseCache | None = None
    settings: HttpSettings = field(default_factory=HttpSettings)
    user_agent: str = "citemap"
    on_answer: Callable[[bool], None] | None = None
    stats: HttpStats = field(default_factory=HttpStats)
    private_headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        s = self.settings
        self.limiter = RateLimiter(s.rate, s.sleep, s.clock)
        self.session = requests.Session()
        self.session.headers.update(
            {"User-Agent": self.user_agent, "Accept": "application/json", **self.private_headers}
        )

    def __enter__(self) -> JsonClient:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.session.close()

    def public_url(self, path: str, params: Params) -> str:
        return f"{self.base_url}{path}?{urlencode(params, safe=':|,*/')}" if params else f"{self.base_url}{path}"

    def get(self, path: str, params: Params, shape: Shape | None = None) -> Any:
        """The JSON body at ``path?params`` as ``shape`` keeps it: from the cache if there, else from the server
        (then cached as kept)."""
        return self._answer("GET", path, params, None, shape)

    def post(self, path: str, params: Params, payload: Any, shape: Shape | None = None) -> Any:
        """The JSON answer to POSTing ``payload`` (as JSON) to ``path?params``, as ``get`` gives it; cached under
        the URL and the payload (a POST that only reads, as a batch lookup)."""
        return self._answer("POST", path, params, payload, shape)

    def _answer(self, method: str, path: str, params: Params, payload: Any, shape: Shape | None) -> Any:
        url = self.public_url(path, params)
        key = url if method == "GET" else f"{method} {url} {json.dumps(payload, sort_keys=True, separators=(',', ':'))}"
        if (body := self._cached(key, shape)) is not None:
            self.stats.from_cache += 1
            self._answered(True)
            return body
        sep = "&" if "?" in url else "?"
        full = url + (sep + urlencode(self.private) if self.private else "")
        what = f"{method} {url}"
        body = self._parse(what, self._send(what, method, full, payload), shape)
        if self.cache:
            self.cache.put(key, body)
        self._answered(False)
        return body

    def _cached(self, url: str, shape: Shape | None) -> Any | None:
        body = self.cache.get(url) if self.cache else None
        if body is None or shape is None:
            return body
        try:
            return shape(body)
        except ValueError:
            return None  # not what this version keeps: asked for again

    def _answered(self, from_cache: bool) -> None:
        if self.on_answer:
            self.on_answer(from_cache)

    def _send(self, what: str, method: str, full: str, payload: Any) -> requests.Response:
        """The 200 answer to ``method full`` (with ``payload`` as JSON if not None), retrying what may pass;
        ``what`` (the method and the URL without private parameters) in messages."""
        s, problem = self.settings, ""
        for attempt in range(1, s.max_tries + 1):
            if attempt > 1:
                self.stats.retries += 1
            self.limiter.wait()
            self.stats.requests += 1
            wait: float | None = None
            try:
                resp = self.session.request(method, full, json=payload, timeout=s.timeout)
            except requests.Timeout:
                problem = f"no answer within {s.timeout:g} s"
            except requests.ConnectionError as e:
                problem = f"connection failed ({type(e).__name__})"
            except requests.RequestException as e:
                raise FetchError(f"{what}: {one_line(str(e))}") from e
            else:
                if resp.status_code == 200:
                    return resp
                if resp.status_code not in RETRY_STATUSES and resp.status_code < 500:
                    raise FetchError(f"{what}: HTTP {resp.status_code}: {error_detail(resp)}")
                problem = f"HTTP {resp.status_code}"
                wait = retry_after(resp.headers.get("Retry-After"))
            if attempt < s.max_tries:
                self._pause(what, problem, wait if wait is not None else s.backoff * 2 ** (attempt - 1))
        raise FetchError(f"{what}: {problem}; gave up after {s.max_tries} tries")

    def _pause(self, what: str, problem: str, seconds: float) -> None:
        if seconds > self.settings.max_wait:
            raise FetchError(
                f"{what}: {problem}, and the server asks to wait {seconds:.0f} s (more than "
                f"{self.settings.max_wait:.0f} s; a daily limit?): try again later, the cache keeps "
                "what was fetched"
            )
        self.settings.sleep(seconds)

    @staticmethod
    def _parse(what: str, resp: requests.Response, shape: Shape | None) -> Any:
        try:
            body = resp.json()
        except ValueError as e:
            raise FetchError(f"{what}: the answer is not JSON ({one_line(resp.text, 80)!r})") from e
        try:
            return shape(body) if shape is not None else body
        except ValueError as e:
            raise FetchError(f"{what}: {e}") from e
