"""The web server without a browser: settings, passwords, cross-site and slow clients."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from tiny_games import dice_profile

from boardctl.cli.main import main
from boardctl.config import load
from boardctl.errors import ConfigError
from boardctl.web.auth import Keys, check_password, check_settings, hash_password
from boardctl.web.publish import Publisher
from boardctl.web.server import WebServer


class FakeLoop:
    """Answers like the loop and counts what it was sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def submit(self, body: Mapping[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        self.sent.append(dict(body))
        if body.get("cmd") == "games":
            return {"ok": True, "games": []}
        return {"ok": True, "phase": "awaiting_move"}


@pytest.fixture
def served() -> Iterator[tuple[WebServer, FakeLoop]]:
    fake = FakeLoop()
    web = WebServer(
        "127.0.0.1:0",
        fake.submit,
        Publisher(dice_profile()),
        dice_profile(),
        keys=Keys(hash_password("open sesame", rounds=1000)),
    )
    try:
        yield web, fake
    finally:
        web.close()


def call(
    url: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_a_lan_address_needs_a_password_or_token() -> None:
    with pytest.raises(ConfigError, match=r"password_hash .*boardctl web password"):
        check_settings("0.0.0.0:8080", "", "")
    check_settings("0.0.0.0:8080", hash_password("pw"), "")
    check_settings("192.168.1.5:8080", "", "a-token-of-enough-length")
    check_settings("127.0.0.1:8080", "", "")
    with pytest.raises(ConfigError, match="not a hashed password"):
        check_settings("0.0.0.0:8080", "hunter2", "")
    with pytest.raises(ConfigError, match='"host:port"'):
        check_settings("8080", "", "")


def test_the_password_is_stored_hashed_and_checked() -> None:
    stored = hash_password("open sesame", rounds=1000)
    assert "open sesame" not in stored
    assert check_password("open sesame", stored)
    assert not check_password("open sesam", stored)
    assert not check_password("open sesame", "garbage")


def test_boardctl_web_password_prints_the_config_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("long enough pw\n"))
    assert main(["web", "password", "--stdin"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith('password_hash = "pbkdf2-sha256$')
    assert check_password("long enough pw", line.split('"')[1])


def test_the_daemon_refuses_a_lan_address_without_a_password(tmp_path: Any) -> None:
    with pytest.raises(ConfigError, match=r"--set: \[web\] listen = '0.0.0.0:0' opens"):
        load(tmp_path / "none.toml", ['web.listen="0.0.0.0:0"'])


def test_commands_need_a_session_and_its_token_and_no_cross_site_request_counts(
    served: tuple[WebServer, FakeLoop],
) -> None:
    web, fake = served
    status, _, _ = call(web.url + "/api/command", {"cmd": "undo"})
    assert status == 401
    status, _, _ = call(web.url + "/api/login", {"password": "wrong"})
    assert status == 401
    status, headers, body = call(web.url + "/api/login", {"password": "open sesame"})
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
    csrf = json.loads(body)["csrf"]
    # the session without its CSRF token: refused
    status, _, _ = call(web.url + "/api/command", {"cmd": "undo"}, {"Cookie": cookie})
    assert status == 401
    # a cross-site request with everything: refused before it is read
    both = {"Cookie": cookie, "X-CSRF-Token": csrf}
    status, _, _ = call(
        web.url + "/api/command", {"cmd": "undo"}, {**both, "Sec-Fetch-Site": "cross-site"}
    )
    assert status == 403
    status, _, _ = call(
        web.url + "/api/command", {"cmd": "undo"}, {**both, "Origin": "http://evil.example"}
    )
    assert status == 403
    assert fake.sent == []
    # only the control socket's commands, not a player's secrets
    status, _, _ = call(web.url + "/api/command", {"cmd": "private", "player": 0}, both)
    assert status == 400
    status, _, body = call(web.url + "/api/command", {"cmd": "undo"}, both)
    assert status == 200 and json.loads(body)["ok"]
    assert fake.sent == [{"cmd": "undo"}]


def test_a_one_time_link_opens_a_players_page_once() -> None:
    keys = Keys()
    code = keys.link(1)
    assert keys.redeem(code) == 1
    assert keys.redeem(code) is None


def test_a_browser_that_sends_nothing_is_cut_off_and_others_are_served() -> None:
    fake = FakeLoop()
    with WebServer(
        "127.0.0.1:0", fake.submit, Publisher(dice_profile()), dice_profile(), request_seconds=0.3
    ) as web:
        host, port = web.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=5) as silent:
            silent.sendall(b"GET / HTTP/1.1\r\n")  # and never the rest
            status, _, _ = call(web.url + "/score")
            assert status == 200
            t0 = time.monotonic()
            silent.settimeout(5)
            answer = silent.recv(1024)
            assert answer.startswith(b"HTTP/1.0 408"), answer
            assert time.monotonic() - t0 < 3


def test_the_push_stream_sends_the_published_state(served: tuple[WebServer, FakeLoop]) -> None:
    web, _ = served
    publisher = web.publisher
    publisher._put("state", {"phase": "awaiting_move", "moves": ["c1"]})
    assert publisher.wake is not None
    publisher.wake()
    got: list[bytes] = []

    def read() -> None:
        with urllib.request.urlopen(web.url + "/api/events", timeout=5) as r:
            while b"event: state" not in b"".join(got):
                got.append(r.read1(4096))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    text = b"".join(got).decode()
    assert 'event: state\ndata: {"phase":"awaiting_move","moves":["c1"]}' in text


@pytest.mark.parametrize("game", ["shiftago", "duploline", "beeline", "bidiline", "linie1"])
def test_every_piece_a_page_draws_is_declared_as_it_looks(game: str) -> None:
    from boardctl.engines import create
    from boardctl.web.publish import declaration
    from hardware.profiles import builtin_profiles, load_profile

    profile = next(load_profile(n) for n in builtin_profiles() if load_profile(n).game == game)
    board = declaration(create(game), profile)
    pieces = {p["code"]: p for p in board["pieces"]}
    for piece in pieces.values():
        # a single piece by its look, one made of parts by theirs
        for part in piece["parts"] or [piece["code"]]:
            assert "look" in pieces[part], part
    # every piece the game has is declared, or made of declared parts its code joins by "+"
    for piece in create(game).board().pieces:
        assert piece.code in pieces or all(part in pieces for part in piece.code.split("+"))
    # sent to each viewer once a game: a few kB, not Linie 1's 1,500 combinations
    assert len(json.dumps(board)) < 40_000
    owned = [p for p in pieces.values() if p["owner"] is not None and "look" in p]
    for p in owned:  # a player's pieces in that player's colour
        assert p["look"]["colour"] == board["players"][p["owner"]]["colour"]


@pytest.mark.parametrize("name", ["shiftago-colour", "duploline", "beeline", "linie1"])
def test_the_pages_light_each_site_in_the_colour_of_its_first_led(name: str) -> None:
    import random

    from boardctl.controller.frame import Frame
    from boardctl.web.publish import lights
    from hardware.profiles import load_profile

    profile = load_profile(name)
    rng = random.Random(name)
    count = profile.leds.count
    frame = Frame(bytes(rng.randrange(256) for _ in range(3 * count)))
    lit = lights(profile, frame)
    sites = [s for s in profile.sites if s.leds]
    assert len(lit) == len(sites)
    for site in sites:
        r, g, b = frame[site.leds[0]]
        assert lit[site.name] == f"#{r:02x}{g:02x}{b:02x}"
    # a frame shorter than the chain (a strip cut short) lights the sites it reaches
    short = Frame(frame.data[: 3 * (count // 2)])
    assert lights(profile, short) == {s.name: lit[s.name] for s in sites if s.leds[0] < count // 2}


def test_a_linie1_tile_shows_the_rails_it_has_turned_as_it_lies() -> None:
    from boardctl.engines import create

    spec = create("linie1").board()
    straight_north, straight_east = spec.piece("1N"), spec.piece("1E")
    assert straight_north is not None and straight_north.look is not None
    assert straight_east is not None and straight_east.look is not None
    assert straight_north.look.rails == ((90.0, 270.0),)  # north to south
    assert straight_east.look.rails == ((0.0, 180.0),)  # turned: east to west
    building = next(s for s in spec.sites if s.label and s.kind == "cell")
    assert not building.sensed and building.label.isalpha()


def test_a_private_links_code_is_drawn_only_for_a_plain_host() -> None:
    from boardctl.web.address import link_address, qr_image

    assert link_address("192.168.1.20:8080", "/player/abc") == "http://192.168.1.20:8080/player/abc"
    assert link_address("[fe80::1]:8080", "/player/abc") == "http://[fe80::1]:8080/player/abc"
    for bad in (None, "", "evil.example/x", "a b", "host:99999999", "x" * 300):
        assert link_address(bad, "/player/abc") is None, bad
    image = qr_image("http://192.168.1.20:8080/player/abc")
    assert image.startswith("data:image/svg+xml") and len(image) < 20_000


def test_the_pages_pieces_follow_the_game_through_a_move_and_its_undo() -> None:
    from controller_support import Table, profile_for

    from boardctl.controller.machine import Controller
    from boardctl.controller.scenes import Palette, render
    from boardctl.engines import create

    engine = create("shiftago")
    table = Table(Controller(profile_for(engine)))
    c = table.controller
    publisher = Publisher(c.profile)

    def published() -> dict[str, str]:
        view = c.view()
        publisher(c, view, render(view, c.profile, Palette(), table.now))
        return publisher.get("state")["layout"]

    assert published() == {}
    table.hands("insert W3", "p0")
    assert published() == dict(c.engine.layout(c.match.state)) == {"a3": "p0"}
    table.hands("lift a3")  # under way to a takeback: the pieces are still the game's
    assert published() == {"a3": "p0"}
    c.undo(table.now)
    assert c.match.moves_text() == []
    assert published() == {}


def test_the_pages_lights_are_the_latest_frames_read_as_each_page_asks() -> None:
    """The loop hands the publisher its frames; a page on another thread
    reading while frames come gets, with each version, that frame's lights."""
    import random

    from controller_support import Table, profile_for

    from boardctl.controller.frame import Frame
    from boardctl.controller.machine import Controller
    from boardctl.engines import create
    from boardctl.web.publish import lights

    table = Table(Controller(profile_for(create("shiftago"))))
    c = table.controller
    publisher = Publisher(c.profile)
    view = c.view()
    rng = random.Random(26)
    count = c.profile.leds.count
    frames = [Frame(bytes(rng.randrange(256) for _ in range(3 * count))) for _ in range(300)]
    versions: list[int] = []  # the version each frame was published as
    read: list[tuple[int, bytes]] = []
    done = threading.Event()

    def page() -> None:
        while not done.is_set():
            read.append(publisher.encoded("lights"))

    reader = threading.Thread(target=page, daemon=True)
    reader.start()
    for n, frame in enumerate(frames):
        publisher(c, view, frame)
        versions.append(publisher.version("lights"))
        if n % 7 == 0:  # a page asking now sees this frame's lights
            assert publisher.get("lights") == lights(c.profile, frame)
    done.set()
    reader.join(5)
    assert versions == sorted(set(versions))  # each frame a new version
    of_version = {v: f for v, f in zip(versions, frames, strict=True)}
    assert len(read) > 1
    for version, data in read:
        if version:
            assert json.loads(data) == lights(c.profile, of_version[version])
    assert (
        publisher.encoded("lights")[1]
        == json.dumps(lights(c.profile, frames[-1]), separators=(",", ":")).encode()
    )


def test_the_pages_state_is_built_off_the_loops_thread_and_is_the_newest_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loop hands the publisher each turn's status; a page reading right
    after a turn gets that turn's state, built on the page's thread (the
    loop's thread never builds it), with a new version only when it says
    something new."""
    from controller_support import Table, profile_for

    from boardctl.controller import present
    from boardctl.controller.machine import Controller
    from boardctl.controller.scenes import Palette, render
    from boardctl.engines import create

    built_on: list[str] = []
    status_of = present._status

    def recorded(*args: Any) -> Any:
        built_on.append(threading.current_thread().name)
        return status_of(*args)

    monkeypatch.setattr(present, "_status", recorded)
    table = Table(Controller(profile_for(create("shiftago"))))
    c = table.controller
    publisher = Publisher(c.profile)

    def turn() -> None:
        view = c.view()
        publisher(c, view, render(view, c.profile, Palette(), table.now))

    def page() -> tuple[int, dict[str, Any]]:
        got: list[tuple[int, bytes]] = []
        reader = threading.Thread(
            target=lambda: got.append(publisher.encoded("state")), name="page"
        )
        reader.start()
        reader.join(30)
        return got[0][0], json.loads(got[0][1])

    turn()
    first, state = page()
    assert state["moves"] == [] and state["phase"] == "awaiting_move"
    turn()  # nothing happened: the same state, the same version
    assert page() == (first, state)
    table.hands("insert W3", "p0")
    turn()
    table.hands("place d4 p1")
    turn()
    version, state = page()
    assert version == first + 1, "the newest turn's state, not each turn's on the way"
    assert state["moves"] == ["W3"] and state["offending"] == ["d4"]
    assert state["layout"] == {"a3": "p0"}
    assert built_on and set(built_on) == {"page"}


def test_a_report_changed_between_the_loops_turns_reaches_the_pages_when_told() -> None:
    """The sound hears a turn on its own thread, after the loop's turn: when
    it tells the publisher, the pages get the state again with the sound's
    newest report, without waiting for another turn of the loop."""
    from controller_support import Table, profile_for

    from boardctl.controller.machine import Controller
    from boardctl.controller.scenes import Palette, render
    from boardctl.engines import create

    table = Table(Controller(profile_for(create("shiftago"))))
    c = table.controller
    heard: list[str] = []
    publisher = Publisher(c.profile, reports={"sound": lambda: {"heard": list(heard)}})
    woken: list[str] = []
    publisher.wake = lambda: woken.append(threading.current_thread().name)
    view = c.view()
    publisher(c, view, render(view, c.profile, Palette(), table.now))
    version = publisher.version("state")
    assert publisher.get("state")["sound"] == {"heard": []}

    def hearing() -> None:
        heard.append("Blue to play")
        publisher.refresh()

    told = threading.Thread(target=hearing, name="hearing")
    told.start()
    told.join(30)
    assert woken[-1] == "hearing"
    assert publisher.get("state")["sound"] == {"heard": ["Blue to play"]}
    assert publisher.version("state") == version + 1
    publisher.refresh()  # nothing new: the same version
    assert publisher.version("state") == version + 1
