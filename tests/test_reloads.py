"""A reload never goes backwards for a browser (dashboard/web/reloads.py): answers name their build in a cookie, and
a server of an older build than the one its folder now points at refuses a browser that has seen the newer one."""

from __future__ import annotations

from pathlib import Path

from dashboard.dataset import builds
from dashboard.dataset.format import read_meta
from dashboard.web.app import create_app
from dashboard.web.reloads import COOKIE
from tests.conftest import write_records
from tests.test_builds import world


def cookie_of(resp) -> str | None:
    """The build a response's Set-Cookie names, or None."""
    for header in resp.headers.getlist("Set-Cookie"):
        name, _, rest = header.partition("=")
        if name == COOKIE:
            assert "HttpOnly" in header and "SameSite=Strict" in header and "Path=/" in header
            return rest.split(";", 1)[0]
    return None


def test_an_old_builds_server_refuses_a_browser_that_has_seen_the_new_one(tmp_path: Path) -> None:
    data = tmp_path / "d"
    write_records(data, *world("a", "Kernels", 6))
    first = builds.served(data).name
    old_id = read_meta(builds.served(data))["build_id"]
    old = create_app(data).server.test_client(use_cookies=False)  # on the first build, serving it below
    write_records(data, *world("b", "Kernels", 6))
    new_id = read_meta(builds.served(data))["build_id"]
    new = create_app(data).server.test_client(use_cookies=False)
    assert old_id != new_id

    seen = new.get("/graph?seeds=b-3")
    assert seen.status_code == 200 and cookie_of(seen) == new_id
    assert cookie_of(new.get("/health", headers={"Cookie": f"{COOKIE}={new_id}"})) is None  # named once
    for path in ("/graph?seeds=a-3", "/health", "/", "/_dash-layout", "/preview.svg?seeds=a-3"):
        refused = old.get(path, headers={"Cookie": f"{COOKIE}={new_id}"})
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "1", path
        assert "newer build you have seen" in refused.get_json()["error"] and cookie_of(refused) is None
    # a browser that has not seen the new build is served the old one, told which it is
    fresh = old.get("/graph?seeds=a-3")
    assert fresh.status_code == 200 and cookie_of(fresh) == old_id
    assert old.get("/health", headers={"Cookie": f"{COOKIE}={old_id}"}).get_json()["build"] == old_id
    assert old.get("/health", headers={"Cookie": f"{COOKIE}=something-else"}).status_code == 200
    # the files nginx may keep carry no cookie
    script = old.get("/assets/js/main.js")
    assert script.status_code == 200 and cookie_of(script) is None
    # a roll-back: the folder points at the first build again; the newer build is no longer insisted on
    builds.use(data, first)
    back = old.get("/graph?seeds=a-3", headers={"Cookie": f"{COOKIE}={new_id}"})
    assert back.status_code == 200 and cookie_of(back) == old_id
    assert new.get("/health", headers={"Cookie": f"{COOKIE}={new_id}"}).status_code == 200


def test_a_flat_build_folder_is_never_stale(tmp_path: Path) -> None:
    from tests.conftest import seed_data

    client = create_app(seed_data()).server.test_client(use_cookies=False)
    mine = client.get("/health").get_json()["build"]
    assert client.get("/health", headers={"Cookie": f"{COOKIE}=other"}).status_code == 200
    assert cookie_of(client.get("/health", headers={"Cookie": f"{COOKIE}=other"})) == mine
