"""The control socket takes bounded requests from a bounded number of
connections: a huge line, idle connections by the hundred, deeply nested JSON
or enormous numbers get an answer (or a closed connection), never a stalled
or dead server."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from boardctl.controller import control
from boardctl.controller.control import ControlServer, request

ROOT = Path(__file__).resolve().parent.parent


def _echo(body: Mapping[str, Any]) -> dict[str, Any]:
    return {"ok": True, "cmd": body.get("cmd")}


@contextmanager
def _server(tmp_path: Path, **limits: Any) -> Iterator[ControlServer]:
    with ControlServer(tmp_path / "c.sock", _echo, **limits) as server:
        yield server


def _raw(path: Path, data: bytes, timeout: float = 5.0) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(path))
        # the server closes on a request too long: its answer may still be there
        with suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(data)
        chunks = []
        try:
            while chunk := s.recv(65536):
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    break
        except ConnectionResetError:
            pass
        return b"".join(chunks)


def test_a_request_longer_than_the_limit_is_refused_without_reading_it_all(
    tmp_path: Path,
) -> None:
    with _server(tmp_path) as server:
        big = b"x" * (control.MAX_REQUEST * 4)  # no newline at all
        answer = json.loads(_raw(server.path, big))
        assert not answer["ok"] and "longer than" in answer["error"]
        assert request(server.path, {"cmd": "status"})["ok"]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b"[" * 60_000, "nested"),
        (b'{"a":' * 5_000 + b"1" + b"}" * 5_000, "nested"),
        (b'{"cmd": "new", "options": {"a": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}}', "nested"),
        (b'{"cmd": "export", "id": ' + b"9" * 5000 + b"}", "bad request"),
        (b"\xff\xfe{}", "bad request"),
        (b"null", "a request is a JSON object"),
    ],
)
def test_a_malformed_request_is_answered_and_the_server_goes_on(
    tmp_path: Path, line: bytes, words: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with _server(tmp_path) as server:
        answer = json.loads(_raw(server.path, line + b"\n"))
        assert not answer["ok"] and words in answer["error"], answer
        assert request(server.path, {"cmd": "status"})["ok"]
    assert "Traceback" not in capfd.readouterr().err


def test_silent_clients_give_their_place_to_a_new_one(tmp_path: Path) -> None:
    with _server(tmp_path, max_clients=4) as server, ExitStack() as held:
        silent = []
        for _ in range(12):
            s = held.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
            s.connect(str(server.path))
            silent.append(s)
        t0 = time.monotonic()
        assert request(server.path, {"cmd": "status"}, retry=0)["ok"]
        assert time.monotonic() - t0 < 2.0
        assert server.clients <= 4


def test_a_busy_server_is_asked_again_until_a_place_is_free(tmp_path: Path) -> None:
    release = threading.Event()
    entered = threading.Event()

    def slow(body: Mapping[str, Any]) -> dict[str, Any]:
        if body.get("cmd") == "slow":
            entered.set()
            release.wait(5)
        return {"ok": True, "cmd": body.get("cmd")}

    with ControlServer(tmp_path / "c.sock", slow, max_clients=1) as server:
        held = threading.Thread(target=request, args=(server.path, {"cmd": "slow"}), daemon=True)
        held.start()
        assert entered.wait(5)
        # the one place is being answered: a newcomer is told "busy" ...
        answer = request(server.path, {"cmd": "status"}, retry=0)
        assert answer.get("busy") and "busy" in answer["error"]
        # ... and request() asks again until the place is free
        threading.Timer(0.2, release.set).start()
        assert request(server.path, {"cmd": "status"}, retry=5)["ok"]
        held.join(5)


def test_a_full_backlog_is_tried_again_not_given_up_at_once(tmp_path: Path) -> None:
    path = tmp_path / "c.sock"
    with ExitStack() as held:
        listener = held.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
        listener.bind(str(path))
        listener.listen(0)
        fillers = 0
        while True:  # fill the backlog: the next connect is "Resource temporarily unavailable"
            s = held.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
            s.setblocking(False)
            try:
                s.connect(str(path))
            except BlockingIOError:
                break
            fillers += 1
        with pytest.raises(control.ControlError, match="busy"):
            request(path, {"cmd": "status"}, timeout=1, retry=0)

        def serve() -> None:
            for n in range(fillers + 1):
                conn, _ = listener.accept()
                with conn:
                    if n == fillers:
                        conn.makefile("rb").readline()
                        conn.sendall(b'{"ok": true}\n')

        threading.Timer(0.2, serve).start()
        assert request(path, {"cmd": "status"}, timeout=2, retry=5) == {"ok": True}


def test_idle_connections_are_closed_after_the_idle_time(tmp_path: Path) -> None:
    with _server(tmp_path, idle=0.2) as server, socket.socket(socket.AF_UNIX) as s:
        s.connect(str(server.path))
        s.settimeout(5)
        assert s.recv(10) == b""


SERVER = textwrap.dedent(
    """
    import resource, sys, threading
    resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))
    from boardctl.controller.control import ControlServer
    server = ControlServer(sys.argv[1], lambda body: {"ok": True}, idle=0.5)
    print("serving", flush=True)
    sys.stdin.read()
    server.close()
    """
)


def test_the_server_outlives_running_out_of_file_descriptors(tmp_path: Path) -> None:
    path = tmp_path / "c.sock"
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "serving"
        with ExitStack() as held:
            for _ in range(120):  # far more than the server may hold open
                s = held.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
                s.setblocking(False)
                with suppress(BlockingIOError, OSError):
                    s.connect(str(path))
            threading.Event().wait(0.3)
        deadline = time.monotonic() + 8
        while True:
            try:
                if request(path, {"cmd": "status"}, timeout=1)["ok"]:
                    break
            except control.ControlError:
                pass
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the accept thread died"
            threading.Event().wait(0.1)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(10)
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
