"""Property tests of the two doors a stranger may knock on: the web server's
HTTP requests and the control socket's request lines. Whatever arrives, in
whatever pieces, the answer is a well-formed refusal or reply (never a 500,
never a traceback in the log) and the next client is served.

The normal suite runs a few dozen examples of each; ``make fuzz`` sets
``BOARDCTL_FUZZ=1`` for thousands."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiny_games import dice_profile

from boardctl.controller.control import ControlServer, request
from boardctl.web.auth import Keys, hash_password
from boardctl.web.http import Head, Refused, read_request
from boardctl.web.publish import Publisher
from boardctl.web.server import WebServer

LONG = bool(os.environ.get("BOARDCTL_FUZZ"))
FUZZ = settings(
    max_examples=3_000 if LONG else 60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
#: what the web server may answer a stranger
ANSWERS = {200, 204, 303, 400, 401, 403, 404, 405, 408, 413, 414, 429, 431, 501, 503}

_JSON: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(),
        st.text(max_size=12),
        st.sampled_from(["status", "undo", "new", "open sesame", "games", "export"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["cmd", "password", "player", "text", "id"]), inner),
    ),
    max_leaves=12,
)


def _body() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=200),
        _JSON.map(lambda v: json.dumps(v).encode()),
        _JSON.map(lambda v: json.dumps(v).encode()[:-1]),  # cut short
        st.sampled_from([b"[" * 3000, b'{"cmd": ' + b"9" * 5000 + b"}", b"\xff\xfe\x00"]),
    )


@st.composite
def _requests(draw: st.DrawFn, cookie: str, csrf: str) -> bytes:
    method = draw(
        st.one_of(
            st.sampled_from(["GET", "POST", "HEAD", "PUT", "OPTIONS", "get", "G ET", ""]),
            st.text(max_size=8),
        )
    )
    target = draw(
        st.one_of(
            st.sampled_from(
                [
                    "/",
                    "/score",
                    "/operator",
                    "/operator?token=abc",
                    "/operator?token=%zz%",
                    "/player/xyz",
                    "/static/app.js",
                    "/static/../x",
                    "/api/today",
                    "/api/session",
                    "/api/login",
                    "/api/command",
                    "/api/private-link",
                    "/api/private",
                    "/api/hands",
                    "/api/export/3",
                    "/api/export/-3",
                    "/api/export/" + "9" * 30,
                    "*",
                    "http://x/",
                ]
            ),
            st.text(max_size=20).map(lambda t: "/" + t),
        )
    )
    version = draw(st.sampled_from(["HTTP/1.1", "HTTP/1.0", "HTTP/2", "HTTP/1.1 x", "", "http"]))
    names = st.one_of(
        st.sampled_from(
            [
                "Content-Type",
                "Content-Length",
                "Cookie",
                "X-CSRF-Token",
                "Origin",
                "Sec-Fetch-Site",
                "Transfer-Encoding",
                "Host",
            ]
        ),
        st.text(max_size=10),
    )
    values = st.one_of(
        st.sampled_from(["application/json", "0", "12", "-1", "99999999", "same-origin", "x"]),
        st.text(max_size=30),
    )
    headers = draw(st.lists(st.tuples(names, values), max_size=40))
    body = draw(_body())
    if draw(st.booleans()):
        headers += [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    if draw(st.booleans()):
        headers += [("Cookie", f"boardctl_session={cookie}"), ("X-CSRF-Token", csrf)]
    eol = draw(st.sampled_from(["\r\n", "\n"]))
    head = f"{method} {target} {version}{eol}" + "".join(f"{k}: {v}{eol}" for k, v in headers)
    data = head.encode("utf-8", "surrogatepass") + eol.encode() + body
    cut = draw(st.one_of(st.none(), st.integers(0, len(data))))
    return data if cut is None else data[:cut]


class _Loop:
    def submit(self, body: Mapping[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        return {"ok": True, "games": [], "record": {}}


_WEB: dict[str, Any] = {}


def _web() -> tuple[WebServer, str, str]:
    """One server for every example, as a daemon's runs for days."""
    if "web" not in _WEB:
        web = WebServer(
            "127.0.0.1:0",
            _Loop().submit,
            Publisher(dice_profile()),
            dice_profile(),
            keys=Keys(hash_password("open sesame", rounds=1000)),
        )
        cookie, session = web.keys.begin("operator")
        _WEB["web"] = (web, cookie, session.csrf)
    return _WEB["web"]  # type: ignore[no-any-return]


@pytest.fixture(scope="module", autouse=True)
def _close_web() -> Iterator[None]:
    yield
    if "web" in _WEB:
        _WEB.pop("web")[0].close()


def _exchange(web: WebServer, data: bytes) -> bytes:
    host, port = web.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        try:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)  # all it will say: the server need not wait
        except OSError:
            pass  # refused before it was all sent: the answer may still be there
        chunks = []
        try:
            while chunk := s.recv(65536):
                chunks.append(chunk)
        except ConnectionResetError:
            pass
        return b"".join(chunks)


@st.composite
def _any_request(draw: st.DrawFn) -> bytes:
    _, cookie, csrf = _web()
    return draw(_requests(cookie, csrf))


@FUZZ
@given(data=_any_request())
def test_any_request_is_answered_and_the_next_one_served(
    data: bytes, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    web, _, _ = _web()
    with caplog.at_level(logging.WARNING):
        answer = _exchange(web, data)
        if answer:  # nothing at all only for a request that never began
            assert answer.startswith(b"HTTP/1.0 "), answer[:80]
            assert int(answer[9:12]) in ANSWERS, answer[:300]
            if answer[9:12] != b"200":
                assert len(answer) < 2000
        else:
            assert not data.strip(), data[:80]
        assert _exchange(web, b"GET /score HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 200")
    assert "Traceback" not in capfd.readouterr().err
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@FUZZ
@given(data=st.binary(max_size=400), pieces=st.lists(st.integers(1, 64), max_size=8))
def test_the_request_reader_only_reads_or_refuses(data: bytes, pieces: list[int]) -> None:
    async def read() -> Head | None:
        reader = asyncio.StreamReader(limit=4096)
        rest = data
        for size in pieces:
            reader.feed_data(rest[:size])
            rest = rest[size:]
        reader.feed_data(rest)
        reader.feed_eof()
        return await read_request(reader)

    try:
        head = _apart(read)
    except Refused as refused:
        assert 400 <= refused.status < 600 and len(refused.why) < 200
        return
    if head is not None:
        assert head.target.startswith("/") and head.version in ("1.0", "1.1")


def _apart(make: Callable[[], Coroutine[Any, Any, Head | None]]) -> Head | None:
    """Run a coroutine on an event loop of its own, on a thread of its own
    (the browser tests leave one running on this thread)."""
    got: list[Head | None] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            got.append(asyncio.run(make()))
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    if failed:
        raise failed[0]
    return got[0]


# -- the control socket ------------------------------------------------------------------------


def _echo(body: Mapping[str, Any]) -> dict[str, Any]:
    return {"ok": True, "cmd": str(body.get("cmd"))[:20]}


_LINES = st.one_of(
    st.binary(max_size=60).map(lambda b: b.replace(b"\n", b"")),
    _JSON.map(lambda v: json.dumps(v).encode()),
    st.sampled_from([b"[" * 2000, b'{"cmd": "status"', b"\xff\xfe{}", b"null", b"{}"]),
)


@FUZZ
@given(
    lines=st.lists(_LINES, max_size=6),
    tail=_LINES,
    pieces=st.lists(st.integers(1, 50), max_size=10),
)
def test_any_control_lines_in_any_pieces_get_one_answer_each(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    tail: bytes,
    pieces: list[int],
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = _socket_path(tmp_path_factory)
    data = b"".join(line + b"\n" for line in lines) + tail
    with caplog.at_level(logging.WARNING):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(10)
            s.connect(str(path))
            rest = data
            for size in pieces:
                s.sendall(rest[:size])
                rest = rest[size:]
            s.sendall(rest)
            s.shutdown(socket.SHUT_WR)
            got = b""
            while chunk := s.recv(65536):
                got += chunk
        answers = [json.loads(line) for line in got.splitlines()]
        assert len(answers) == len(lines) + (1 if tail else 0), (data, got)
        assert all(isinstance(a, dict) and isinstance(a["ok"], bool) for a in answers)
        assert request(path, {"cmd": "status"})["ok"]
    assert not [r for r in caplog.records if r.exc_info]


_CONTROL: dict[str, Any] = {}


def _socket_path(factory: pytest.TempPathFactory) -> Path:
    if "server" not in _CONTROL:
        _CONTROL["server"] = ControlServer(factory.mktemp("control") / "c.sock", _echo)
    server: ControlServer = _CONTROL["server"]
    return server.path


@pytest.fixture(scope="module", autouse=True)
def _close_control() -> Iterator[None]:
    yield
    if "server" in _CONTROL:
        _CONTROL.pop("server").close()
