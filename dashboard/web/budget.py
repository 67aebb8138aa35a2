"""How much work each client address may cause: a budget of the estimated cost of views
(dashboard/graph/cost.py), kept per address and shared by the worker processes of one server.

Every request that builds a view (``GET /graph``, ``GET /preview.svg``, ``GET /field``, ``GET /image-title``, a
story's step, and the callbacks that compute: the state, the status line and legends, the panel, the figures'
sources, an export) estimates the view's cost from its parsed state first, then spends it here:

* **a bucket of units** per address: it holds at most ``capacity`` units and refills at ``rate`` units a second; a
  request that costs more than the bucket holds is refused (429, with the seconds to wait in ``Retry-After``);
* **one map at a time**: a request that costs ``heavy`` units or more (it lays out a map of some 100 papers or
  more, finds clusters, similar papers or a path) is refused (429, ``Retry-After: 1``) while another one of the
  same address is running on this server, so one address never holds more than one worker with maps, however many
  connections it opens; the page asks again a moment later.

A map's work runs on a thread of its own at a lower CPU priority (:func:`at_lower_priority`), so that the other
workers' light requests go first on a busy machine's cores.

A view this worker built a moment ago (it is in the worker's caches) costs nothing. The address is the one nginx
forwards in ``X-Real-IP`` when the request comes from an address ``FORWARDED_ALLOW_IPS`` trusts (gunicorn's
setting, by default this machine), else the peer's own address; an IPv6 address counts by its /64 network (one
host holds all of one). Refusals write no log line of their own (gunicorn's access log samples them:
dashboard/serving/gunicorn_conf.py).

The counts live in a shared memory table made before gunicorn forks its workers (``preload_app``), locked with a
record lock that the kernel lets go of if a worker dies holding it; a request still marked as running after
``BUSY_FOR`` seconds, or whose process is gone, no longer counts. Each server (each replica) keeps its own table.
"""

from __future__ import annotations

import contextlib
import contextvars
import fcntl
import hashlib
import ipaddress
import math
import mmap
import os
import struct
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app, request
from werkzeug.exceptions import TooManyRequests

from dashboard.dataset.store import Store
from dashboard.graph.cost import view_cost
from dashboard.graph.state import ViewState

T = TypeVar("T")

CAPACITY = 40.0  # units an address may spend at once: three maps of 5,000 papers, or 120 of 300 papers
RATE = 0.5  # units a second its bucket refills: a 5,000-paper map every 23 s, or 1.5 maps of 300 papers a second
HEAVY = 0.1  # a request that costs this much (a map of 100 papers, a similarity search, a path): one at a time
BUSY_FOR = 60.0  # seconds after which a request still marked as running no longer counts (gunicorn kills at 30)
SLOTS = 4096  # addresses kept; a new one takes the slot of the one seen least recently among PROBE candidates
PROBE = 8
REMEMBERED = 32  # views a worker remembers having built (its view caches hold at least as many)
FREE_KINDS = {"graph": "map", "preview": "map", "side": "side", "subgraph": "subgraph"}  # kinds a worker caches
TRUSTED_DEFAULT = "127.0.0.1,::1"  # gunicorn's forwarded_allow_ips default
# an address's record: its key, tokens, when they were counted (monotonic seconds), the process running its map,
# since when, and that request's own mark
RECORD = struct.Struct("<QddqdQ")


@dataclass(frozen=True)
class Refusal:
    """Why a request was refused, and in how many seconds it may be asked again."""

    reason: str
    retry_after: int


class Table:
    """The per-address records, in memory shared by every process forked after it was made."""

    def __init__(self, slots: int = SLOTS) -> None:
        self.slots = slots
        size = slots * RECORD.size
        try:
            self._fd = os.memfd_create("citemap-budget")
        except (AttributeError, OSError):  # not Linux: an unlinked temporary file
            with tempfile.TemporaryFile() as handle:
                self._fd = os.dup(handle.fileno())
        os.ftruncate(self._fd, size)
        self._map = mmap.mmap(self._fd, size)
        self._thread_lock = threading.Lock()

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """The table to this thread alone: a thread lock within the process, a record lock between processes."""
        with self._thread_lock:
            fcntl.lockf(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def read(self, i: int) -> tuple[int, float, float, int, float, int]:
        return RECORD.unpack_from(self._map, i * RECORD.size)

    def write(self, i: int, record: tuple[int, float, float, int, float, int]) -> None:
        RECORD.pack_into(self._map, i * RECORD.size, *record)

    def find(self, key: int) -> int:
        """The slot of ``key``: its own, else an empty one, else the one seen least recently (under the lock)."""
        start = key % self.slots
        candidates = [(start + k) % self.slots for k in range(min(PROBE, self.slots))]
        empty = None
        for i in candidates:
            found = self.read(i)[0]
            if found == key:
                return i
            if found == 0 and empty is None:
                empty = i
        if empty is not None:
            return empty
        return min(candidates, key=lambda i: self.read(i)[2])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Budget:
    """The budget of each address on one server (see the module's docstring)."""

    def __init__(
        self,
        capacity: float = CAPACITY,
        rate: float = RATE,
        heavy: float = HEAVY,
        trusted: str | None = None,
        slots: int = SLOTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if capacity <= 0 or rate <= 0:
            raise ValueError("a budget needs a capacity and a rate above 0")
        self.capacity, self.rate, self.heavy = capacity, rate, heavy
        if trusted is None:
            trusted = os.environ.get("FORWARDED_ALLOW_IPS", TRUSTED_DEFAULT)
        self.trusted = trusted_networks(trusted)
        self.table = Table(slots)
        self.clock = clock
        self._built: OrderedDict[tuple[str, ViewState], None] = OrderedDict()  # this process's own
        self._built_lock = threading.Lock()

    # -- the accounts ----------------------------------------------------------------------------------------------
    def take(self, key: int, cost: float) -> tuple[Refusal | None, int]:
        """Spend ``cost`` units of address ``key``'s budget: (None, mark) when granted (``mark`` names a map now
        running, 0 for a request that lays none out; give it to :meth:`done`), or (why not, 0)."""
        heavy = cost >= self.heavy
        need = min(cost, self.capacity)
        with self.table.locked():
            now = self.clock()
            i = self.table.find(key)
            found, tokens, stamp, pid, since, mark = self.table.read(i)
            if found != key:
                tokens, stamp, pid, since, mark = self.capacity, now, 0, 0.0, 0
            tokens = min(self.capacity, tokens + max(0.0, now - stamp) * self.rate)
            if pid and (now - since > BUSY_FOR or not _alive(pid)):
                pid, since, mark = 0, 0.0, 0  # a request that never said it was done
            refusal = None
            if heavy and pid:
                refusal = Refusal("a map for this address is being made", 1)
            elif tokens < need:
                wait = max(1, math.ceil((need - tokens) / self.rate))
                refusal = Refusal("this address has asked for much work", wait)
            granted = 0
            if refusal is None:
                tokens -= need
                if heavy:
                    granted = int.from_bytes(os.urandom(8), "little") or 1
                    pid, since, mark = os.getpid(), now, granted
            self.table.write(i, (key, tokens, now, pid, since, mark))
        return refusal, granted

    def done(self, key: int, mark: int) -> None:
        """The map ``mark`` of address ``key`` is made (or failed): the address may start another."""
        if not mark:
            return
        with self.table.locked():
            i = self.table.find(key)
            found, tokens, stamp, _, _, running = self.table.read(i)
            if found == key and running == mark:
                self.table.write(i, (key, tokens, stamp, 0, 0.0, 0))

    def tokens(self, key: int) -> float:
        """The units address ``key`` has now (a full bucket for one not seen)."""
        with self.table.locked():
            found, tokens, stamp, *_ = self.table.read(self.table.find(key))
        if found != key:
            return self.capacity
        return min(self.capacity, tokens + max(0.0, self.clock() - stamp) * self.rate)

    # -- a request's view ------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def spending(self, address: str, store: Store, state: ViewState, kind: str) -> Iterator[bool]:
        """Around the work of a request of ``kind`` on ``state`` from ``address``: refused with a 429
        (TooManyRequests) beyond the address's budget; a view this worker has just built costs nothing. Yields
        whether the work lays a map out (is one of the address's maps at a time)."""
        group = FREE_KINDS.get(kind)
        if group is not None and self._remembered((group, state)):
            yield False
            return
        key = address_key(address)
        refusal, mark = self.take(key, view_cost(store, state, kind))
        if refusal is not None:
            wait = refusal.retry_after
            raise TooManyRequests(f"{refusal.reason}: try again in {wait} s", retry_after=wait)
        try:
            yield bool(mark)
        finally:
            self.done(key, mark)
        if group is not None:
            with self._built_lock:
                self._built[(group, state)] = None
                while len(self._built) > REMEMBERED:
                    self._built.popitem(last=False)

    def _remembered(self, what: tuple[str, ViewState]) -> bool:
        with self._built_lock:
            if what in self._built:
                self._built.move_to_end(what)
                return True
        return False

    def client(self, environ: dict[str, Any]) -> str:
        """The address a request counts against: nginx's ``X-Real-IP`` from a trusted peer, else the peer."""
        peer = environ.get("REMOTE_ADDR") or ""
        forwarded = (environ.get("HTTP_X_REAL_IP") or "").strip()
        if forwarded and is_trusted(peer, self.trusted):
            try:
                return str(ipaddress.ip_address(forwarded))
            except ValueError:
                pass
        return peer


def trusted_networks(value: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None:
    """``FORWARDED_ALLOW_IPS`` as gunicorn reads it (addresses and networks, comma-separated): the networks, or None
    for ``*`` (every peer)."""
    parts = [p.strip() for p in value.split(",") if p.strip()]
    if "*" in parts:
        return None
    networks = []
    for p in parts:
        with contextlib.suppress(ValueError):
            networks.append(ipaddress.ip_network(p, strict=False))
    return networks


def is_trusted(peer: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None) -> bool:
    """Whether a peer may say whose request it passes on: every peer for None (``*``), a Unix socket's (no
    address) always, else one in ``networks``."""
    if networks is None or not peer:
        return True
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in n for n in networks)


def address_key(address: str) -> int:
    """The key an address is counted under: an IPv4 address itself, an IPv6 address its /64 network."""
    with contextlib.suppress(ValueError):
        parsed = ipaddress.ip_address(address)
        if parsed.version == 6 and not parsed.ipv4_mapped:
            address = str(ipaddress.ip_network(f"{parsed}/64", strict=False))
        elif parsed.version == 6:
            address = str(parsed.ipv4_mapped)
    return int.from_bytes(hashlib.blake2b(address.encode(), digest_size=8).digest(), "little") or 1


# -- in the app --------------------------------------------------------------------------------------------------------
CONFIG_KEY = "CITEMAP_BUDGET"


def wanted() -> bool:
    """Whether a server bounds each address's work (``CITEMAP_BUDGET=0`` turns it off)."""
    return os.environ.get("CITEMAP_BUDGET", "1").strip().lower() not in ("0", "false", "no", "off")


def from_env() -> Budget:
    """The budget the environment sets: ``CITEMAP_BUDGET_UNITS`` (the bucket, default CAPACITY) and
    ``CITEMAP_BUDGET_RATE`` (units a second, default RATE); the trusted peers from ``FORWARDED_ALLOW_IPS``."""

    def number(name: str, default: float) -> float:
        text = os.environ.get(name, "").strip()
        try:
            value = float(text) if text else default
        except ValueError:
            raise ValueError(f"{name}={text!r} is not a number") from None
        if not value > 0:
            raise ValueError(f"{name}={text!r} must be above 0")
        return value

    return Budget(capacity=number("CITEMAP_BUDGET_UNITS", CAPACITY), rate=number("CITEMAP_BUDGET_RATE", RATE))


def work(store: Store, state: ViewState, kind: str, make: Callable[[], T]) -> T:
    """``make()``, the work of the current request on ``state`` (``kind``: see dashboard/graph/cost.py), spent from
    the client address's budget when the app has one (create_app's ``budget``). A map's work runs at a lower CPU
    priority than the rest (:func:`at_lower_priority`)."""
    budget: Budget | None = current_app.config.get(CONFIG_KEY)
    if budget is None:
        return make()
    with budget.spending(budget.client(request.environ), store, state, kind) as lays_out_a_map:
        return at_lower_priority(make) if lays_out_a_map else make()


LOWER_PRIORITY = 10  # how much nicer (os.setpriority) a map's work runs than the worker's other requests
_MAPS_THREAD = "citemap-maps"
_maps: tuple[int, ThreadPoolExecutor] | None = None  # this process's thread for maps (made after the fork)
_maps_lock = threading.Lock()


def _nicer() -> None:
    """This thread (Linux: the nice value is a thread's own) LOWER_PRIORITY nicer than it was."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + LOWER_PRIORITY))


def at_lower_priority(make: Callable[[], T]) -> T:
    """``make()`` on this process's thread for maps, which runs LOWER_PRIORITY nicer than the rest, in the caller's
    context (Flask's request, Dash's callback); the caller waits for it. While a worker lays out one address's map,
    the machine's cores go first to the light requests of the other workers (a health check, a plain map): a
    visitor waits for a free worker, not for the cores. (The thread is the process's own: a nice value, once
    raised, cannot be lowered again without privileges.)"""
    global _maps
    if threading.current_thread().name.startswith(_MAPS_THREAD):
        return make()
    with _maps_lock:
        if _maps is None or _maps[0] != os.getpid():  # none yet, or the parent's, which a fork does not bring along
            _maps = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix=_MAPS_THREAD, initializer=_nicer))
        pool = _maps[1]
    return pool.submit(contextvars.copy_context().run, make).result()
