"""The web server among a crowd and strangers: viewers' streams have a budget of
their own and free it at once, the operator is never made busy by the public,
requests are bounded and answered, passwords are checked off the server's loop
and guesses slowed."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from typing import Any

import pytest
from tiny_games import dice_profile

from boardctl.web import auth, http
from boardctl.web import server as web_server
from boardctl.web.auth import Keys, Throttle, hash_password
from boardctl.web.publish import Publisher
from boardctl.web.server import WebServer

PASSWORD = "open sesame"


class FakeLoop:
    """Answers like the loop; "games" (today's games) can be made slow."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.games_gate = threading.Event()
        self.games_gate.set()

    def submit(self, body: Mapping[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        self.sent.append(dict(body))
        if body.get("cmd") == "games":
            self.games_gate.wait(5)
            return {"ok": True, "games": []}
        return {"ok": True, "phase": "awaiting_move"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _server(**kwargs: Any) -> tuple[WebServer, FakeLoop]:
    fake = FakeLoop()
    keys = kwargs.pop("keys", Keys(hash_password(PASSWORD, rounds=1000)))
    web = WebServer(
        "127.0.0.1:0", fake.submit, Publisher(dice_profile()), dice_profile(), keys=keys, **kwargs
    )
    return web, fake


@pytest.fixture
def served() -> Iterator[tuple[WebServer, FakeLoop]]:
    web, fake = _server()
    with web:
        yield web, fake


def _address(web: WebServer) -> tuple[str, int]:
    host, port = web.url.removeprefix("http://").split(":")
    return host, int(port)


def raw(web: WebServer, data: bytes, timeout: float = 5.0) -> bytes:
    """Send ``data`` and read the whole answer (the server closes after it)."""
    with socket.create_connection(_address(web), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        try:
            while chunk := s.recv(65536):
                chunks.append(chunk)
        except ConnectionResetError:
            pass
        return b"".join(chunks)


def post(web: WebServer, path: str, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    head = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    return raw(
        web,
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{head}\r\n".encode()
        + body,
    )


def status_of(answer: bytes) -> int:
    assert answer.startswith(b"HTTP/1.0 "), answer[:100]
    return int(answer[9:12])


def body_of(answer: bytes) -> Any:
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])


def open_stream(web: WebServer, stack: ExitStack) -> tuple[socket.socket, bytes]:
    s = stack.enter_context(socket.create_connection(_address(web), timeout=5))
    s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
    return s, s.recv(4096)


# -- viewers -----------------------------------------------------------------------------


def test_streams_beyond_their_budget_are_told_to_come_back_and_a_closed_one_frees_its_place(
    caplog: pytest.LogCaptureFixture,
) -> None:
    web, _ = _server(max_streams=3)
    with web, ExitStack() as stack:
        streams = [open_stream(web, stack) for _ in range(3)]
        assert all(first.startswith(b"HTTP/1.0 200") for _, first in streams)
        # pages and commands are not in the streams' budget
        assert status_of(raw(web, b"GET /score HTTP/1.1\r\n\r\n")) == 200
        answer = raw(web, b"GET /api/events HTTP/1.1\r\n\r\n")
        assert status_of(answer) == 503 and b"\r\nRetry-After: " in answer
        streams[0][0].close()
        t0 = time.monotonic()
        while len(web.pushes) > 2:  # freed when the viewer closes, not at the next write
            assert time.monotonic() - t0 < 1.0, "the closed stream kept its place"
            threading.Event().wait(0.005)
        _, first = open_stream(web, stack)
        assert first.startswith(b"HTTP/1.0 200")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_every_stream_gets_the_latest_lights(served: tuple[WebServer, FakeLoop]) -> None:
    web, _ = served
    with ExitStack() as stack:
        streams = [open_stream(web, stack)[0] for _ in range(5)]
        web.publisher._put("lights", {"a1": "#ff0000"})
        assert web.publisher.wake is not None
        web.publisher.wake()
        for s in streams:
            got = b""
            while b'event: lights\ndata: {"a1":"#ff0000"}' not in got:
                got += s.recv(4096)


def test_a_viewer_that_stops_reading_is_skipped_then_cut_off(
    served: tuple[WebServer, FakeLoop],
) -> None:
    web, _ = served
    clock = Clock()
    web.pushes.clock = clock
    with ExitStack() as stack:
        stuck = stack.enter_context(socket.socket())
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.settimeout(5)
        stuck.connect(_address(web))
        stuck.sendall(b"GET /api/events HTTP/1.1\r\n\r\n")  # and never reads again
        reader, _ = open_stream(web, stack)
        t0 = time.monotonic()
        n = 0
        while len(web.pushes) == 2:
            n += 1
            web.publisher._put("lights", {"n": n, "pad": "x" * 100_000})
            assert web.publisher.wake is not None
            web.publisher.wake()
            threading.Event().wait(0.02)
            while True:  # the reading viewer takes everything
                reader.setblocking(False)
                try:
                    if not reader.recv(1 << 20):
                        break
                except BlockingIOError:
                    break
            clock.now += 1.0  # each round a second later for the stuck one
            assert time.monotonic() - t0 < 20, "the stuck viewer was never cut off"
        assert len(web.pushes) == 1  # the one that reads is still there


# -- the operator among the public ---------------------------------------------------------


def test_a_crowd_of_public_reads_never_makes_the_operator_busy(
    served: tuple[WebServer, FakeLoop],
) -> None:
    web, fake = served
    fake.games_gate.clear()  # the loop is slow to list the games
    readers = [
        threading.Thread(target=raw, args=(web, b"GET /api/today HTTP/1.1\r\n\r\n"), daemon=True)
        for _ in range(6)
    ]
    for t in readers:
        t.start()
    answer = post(web, "/api/login", json.dumps({"password": PASSWORD}).encode())
    assert status_of(answer) == 200
    cookie = next(
        line.split(b": ", 1)[1].split(b";")[0].decode()
        for line in answer.split(b"\r\n")
        if line.startswith(b"Set-Cookie")
    )
    csrf = body_of(answer)["csrf"]
    for _ in range(6):  # more than the operator's own budget, each answered
        answer = post(
            web,
            "/api/command",
            b'{"cmd": "status"}',
            {"Cookie": cookie, "X-CSRF-Token": csrf},
        )
        assert status_of(answer) == 200 and body_of(answer)["ok"], answer
    fake.games_gate.set()
    for t in readers:
        t.join(5)
    assert sum(1 for body in fake.sent if body["cmd"] == "games") == 1, fake.sent


def test_a_crowd_arriving_at_once_waits_in_line_and_is_served(
    served: tuple[WebServer, FakeLoop], monkeypatch: pytest.MonkeyPatch
) -> None:
    web, _ = served
    monkeypatch.setattr(web_server, "MAX_CONNECTIONS", 2)  # nearly everyone waits in line
    answers: list[int] = []
    ready = threading.Barrier(60)

    def one(n: int) -> None:
        with socket.socket() as s:
            s.bind((f"127.0.3.{n + 1}", 0))  # a phone of its own
            s.settimeout(10)
            ready.wait(5)
            s.connect(_address(web))
            s.sendall(b"GET /score HTTP/1.1\r\n\r\n")
            got = b""
            while chunk := s.recv(65536):
                got += chunk
            answers.append(status_of(got))

    crowd = [threading.Thread(target=one, args=(n,)) for n in range(60)]
    for t in crowd:
        t.start()
    for t in crowd:
        t.join(10)
    assert answers == [200] * len(crowd)


def test_one_client_cannot_hold_every_request_place(served: tuple[WebServer, FakeLoop]) -> None:
    web, _ = served
    with ExitStack() as stack:
        for _ in range(web_server.MAX_PER_CLIENT):
            s = stack.enter_context(socket.create_connection(_address(web), timeout=5))
            s.sendall(b"GET / HTTP/1.1\r\n")  # and slowly the rest, never
        threading.Event().wait(0.1)
        answer = raw(web, b"GET /score HTTP/1.1\r\n\r\n")
        assert status_of(answer) == 503 and b"\r\nRetry-After: " in answer


# -- bounded requests ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 40 + b"\r\n", 431),
        (b"GET / HTTP/1.1\r\nX-A: " + b"b" * 5000 + b"\r\n\r\n", 431),
        (b"GET / HTTP/1.1\r\n" + (b"X-Abcdefgh: " + b"b" * 1000 + b"\r\n") * 9 + b"\r\n", 431),
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n", 414),
        (b"GET / HTTP/2\r\n\r\n", 400),
        (b"\xff\xfe\r\n\r\n", 400),
        (b"GET\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nX-\xff: a\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nX-A: \xff\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400),
        (b"GET /operator?token=%zz HTTP/1.1\r\n\r\n", 400),
        (b"GET /operator?token=%ff HTTP/1.1\r\n\r\n", 400),
        (b"POST /api/login HTTP/1.1\r\nContent-Length: 99999\r\n\r\n", 413),
        (b"POST /api/login HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
        (b"POST /api/login HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", 400),
        (b"POST /api/login HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        (b"GET /api/export/" + b"9" * 5000 + b" HTTP/1.1\r\n\r\n", 414),
        (b"GET /api/export/99999999999999999999 HTTP/1.1\r\n\r\n", 401),
    ],
)
def test_a_malformed_or_oversized_request_is_refused_with_a_short_reason(
    served: tuple[WebServer, FakeLoop],
    request_bytes: bytes,
    status: int,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    web, _ = served
    answer = raw(web, request_bytes)
    assert status_of(answer) == status, answer
    assert len(answer) < 600
    assert status_of(raw(web, b"GET /score HTTP/1.1\r\n\r\n")) == 200
    assert "Traceback" not in capfd.readouterr().err
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_slow_client_has_one_deadline_for_the_whole_request() -> None:
    web, _ = _server(request_seconds=0.5)
    with web, socket.create_connection(_address(web), timeout=5) as s:
        t0 = time.monotonic()
        s.sendall(b"GET / HTTP/1.1\r\n")
        answer = b""
        for n in range(40):  # a header line every 0.05 s: each line in time, the whole late
            try:
                s.sendall(f"X-Slow-{n}: a\r\n".encode())
            except OSError:
                break
            threading.Event().wait(0.05)
        s.settimeout(3)
        try:
            while chunk := s.recv(4096):
                answer += chunk
        except ConnectionResetError:
            pass
        assert answer.startswith(b"HTTP/1.0 408"), answer
        assert time.monotonic() - t0 < 3


@pytest.mark.parametrize(
    "body",
    [
        b'{"password": "open',
        b"\x00\xff\xfe binary",
        b"[" * 5000,
        b'{"password": ' + b"9" * 5000 + b"}",
        b'{"password": ["open sesame"]}',
        b'"just text"',
        b"",
    ],
)
@pytest.mark.parametrize("path", ["/api/login", "/api/command", "/api/private-link"])
def test_a_malformed_json_body_is_answered_400_without_a_traceback(
    served: tuple[WebServer, FakeLoop],
    body: bytes,
    path: str,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    web, fake = served
    headers: dict[str, str] = {}
    if path != "/api/login":
        answer = post(web, "/api/login", json.dumps({"password": PASSWORD}).encode())
        cookie = next(
            line.split(b": ", 1)[1].split(b";")[0].decode()
            for line in answer.split(b"\r\n")
            if line.startswith(b"Set-Cookie")
        )
        headers = {"Cookie": cookie, "X-CSRF-Token": body_of(answer)["csrf"]}
    answer = post(web, path, body, headers)
    assert status_of(answer) == 400, answer
    error = body_of(answer)["error"]
    assert isinstance(error, str) and len(error) <= 200, error
    assert "Traceback" not in capfd.readouterr().err
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert all(sent.get("cmd") != ["status"] for sent in fake.sent)


def test_a_command_named_by_a_list_is_refused(served: tuple[WebServer, FakeLoop]) -> None:
    web, fake = served
    answer = post(web, "/api/login", json.dumps({"password": PASSWORD}).encode())
    cookie = next(
        line.split(b": ", 1)[1].split(b";")[0].decode()
        for line in answer.split(b"\r\n")
        if line.startswith(b"Set-Cookie")
    )
    headers = {"Cookie": cookie, "X-CSRF-Token": body_of(answer)["csrf"]}
    answer = post(web, "/api/command", b'{"cmd": ["undo"]}', headers)
    assert status_of(answer) == 400 and "the commands are" in body_of(answer)["error"]
    assert fake.sent == []


# -- passwords ------------------------------------------------------------------------------


def test_wrong_passwords_wait_longer_and_longer_then_lock_the_client_out_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    web, _ = _server(throttle=Throttle(clock))

    def guess(password: str) -> bytes:
        return post(web, "/api/login", json.dumps({"password": password}).encode())

    waits = []
    with web, caplog.at_level(logging.WARNING):
        for _ in range(auth.FREE_GUESSES):
            assert status_of(guess("wrong")) == 401
        for _ in range(auth.LOCKOUT_GUESSES - auth.FREE_GUESSES):
            answer = guess("wrong")
            assert status_of(answer) == 429  # not even checked: it must wait
            header = next(x for x in answer.split(b"\r\n") if x.startswith(b"Retry-After"))
            waits.append(int(header.split(b": ")[1]))
            clock.now += waits[-1]
            assert status_of(guess("wrong")) == 401
        assert waits == sorted(waits) and waits[-1] > waits[0]
        # locked out: even the right password is not checked
        answer = guess(PASSWORD)
        assert status_of(answer) == 429
        clock.now += auth.LOCKOUT_SECONDS + 1
        assert status_of(guess(PASSWORD)) == 200
    said = [r for r in caplog.records if "too many wrong passwords" in r.getMessage()]
    assert len(said) == 1 and "127.0.0.1" in said[0].getMessage()


def test_guesses_from_many_clients_are_slowed_overall() -> None:
    clock = Clock()
    throttle = Throttle(clock)
    for n in range(auth.FREE_GUESSES_OVERALL):
        assert throttle.wait(f"10.0.0.{n}") == 0
        throttle.failed(f"10.0.0.{n}")
    assert throttle.wait("10.0.1.1") > 0  # a new client waits too
    clock.now += auth.MAX_GUESS_DELAY
    assert throttle.wait("10.0.1.1") == 0  # never longer than the longest wait
    clock.now += auth.FORGET_SECONDS + 1
    throttle.failed("10.0.1.1")
    assert throttle.wait("10.0.1.2") == 0  # forgotten an hour after the last


def test_a_password_check_never_stalls_the_pages() -> None:
    checking = threading.Event()
    release = threading.Event()

    class SlowKeys(Keys):
        def accepts(self, password: str | None = None, token: str | None = None) -> bool:
            checking.set()
            release.wait(5)
            return super().accepts(password, token)

    web, _ = _server(keys=SlowKeys(hash_password(PASSWORD, rounds=1000)))
    with web:
        login = threading.Thread(
            target=post,
            args=(web, "/api/login", json.dumps({"password": "guess"}).encode()),
            daemon=True,
        )
        login.start()
        assert checking.wait(5)
        t0 = time.monotonic()
        assert status_of(raw(web, b"GET /score HTTP/1.1\r\n\r\n")) == 200
        assert time.monotonic() - t0 < 1.0
        release.set()
        login.join(5)


def test_the_limits_read_the_same_everywhere() -> None:
    assert http.MAX_LINE <= http.MAX_HEAD
    assert web_server.MAX_PER_CLIENT <= web_server.MAX_CONNECTIONS
