"""The web pages of a board, served by microdot on a thread of their own.

The loop stays the only owner of the game: the pages read what the loop
publishes (:class:`~.publish.Publisher`, pushed as server-sent events) and send
the control socket's own commands through :meth:`~boardctl.controller.loop.Loop.submit`.
A browser cannot stall the sensors or the LEDs: the loop only hands over the
latest state, each connection has read and write time limits, the number of
connections and of commands waiting is bounded, and a push stream sends the
latest state, never a backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import socket
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from datetime import date, datetime
from importlib import resources
from typing import Any

from microdot import Microdot, Request, Response
from microdot.csrf import CSRF

from boardctl.board import BoardProfile
from boardctl.web.auth import Keys, Session, split_listen
from boardctl.web.publish import Publisher

log = logging.getLogger(__name__)

#: the control socket's commands an operator may send from the web page
OPERATOR_COMMANDS = frozenset(
    {"status", "new", "undo", "another", "choose", "chance", "play", "games", "export"}
)
#: seconds a browser has to send its request, or to take each piece of an answer
IO_SECONDS = 10.0
#: connections open at once (push streams included); more are closed at once
MAX_CONNECTIONS = 32
#: commands waiting for the loop at once; more are answered "busy"
MAX_WAITING = 4
#: a push stream sends at most one update per this many seconds (latest state only)
PUSH_GAP = 0.04
#: a push stream sends a keep-alive comment after this many quiet seconds
KEEPALIVE = 15.0
COOKIE = "boardctl_session"
PAGES = ("board", "score", "operator", "player", "sim")
STATIC = {"app.js": "text/javascript", "style.css": "text/css"}

Submit = Callable[[Mapping[str, Any], float], dict[str, Any]]
Hands = Callable[[str], Any]


class _TimedReader:
    """A stream reader whose every read gives up after ``seconds``."""

    def __init__(self, reader: asyncio.StreamReader, seconds: float) -> None:
        self._r = reader
        self._s = seconds

    async def _timed(self, step: Any) -> bytes:
        try:
            return await asyncio.wait_for(step, self._s)
        except TimeoutError:
            raise ConnectionResetError(errno.ECONNRESET, "Connection lost") from None

    async def readline(self) -> bytes:
        return await self._timed(self._r.readline())

    async def read(self, n: int = -1) -> bytes:
        return await self._timed(self._r.read(n))

    async def readexactly(self, n: int) -> bytes:
        return await self._timed(self._r.readexactly(n))


class _TimedWriter:
    """A stream writer whose every write gives up after ``seconds`` (a
    browser that stops reading is cut off, not waited for)."""

    def __init__(self, writer: asyncio.StreamWriter, seconds: float) -> None:
        self._w = writer
        self._s = seconds

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._w.get_extra_info(name, default)

    async def awrite(self, data: bytes) -> None:
        self._w.write(data)
        try:
            await asyncio.wait_for(self._w.drain(), self._s)
        except TimeoutError:
            self._w.transport.abort()
            raise ConnectionResetError(errno.ECONNRESET, "Connection lost") from None

    async def aclose(self) -> None:
        self._w.close()
        try:
            await asyncio.wait_for(self._w.wait_closed(), self._s)
        except (TimeoutError, OSError):
            self._w.transport.abort()


def _page(name: str) -> bytes:
    return resources.files("boardctl.web").joinpath("static", f"{name}.html").read_bytes()


class WebServer:
    """Serves ``profile``'s board pages on ``listen`` (``"host:port"``; port 0
    picks a free one). ``submit`` is the loop's; ``publisher`` one of the
    loop's watchers; ``hands`` (the simulator's) makes the sim page."""

    def __init__(
        self,
        listen: str,
        submit: Submit,
        publisher: Publisher,
        profile: BoardProfile,
        *,
        keys: Keys | None = None,
        hands: Hands | None = None,
        brightness: float | None = None,
    ) -> None:
        host, port = split_listen(listen)
        self.submit = submit
        self.publisher = publisher
        self.profile = profile
        self.keys = keys or Keys()
        self.hands = hands
        self.brightness = profile.leds.brightness if brightness is None else brightness
        self._sock = socket.create_server(
            (host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET
        )
        bound = self._sock.getsockname()
        shown = "127.0.0.1" if host in ("0.0.0.0", "localhost") else host
        self.url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound[1]}"
        self._aloop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._stopped: asyncio.Event | None = None
        self._connections = 0
        self._waiting = 0
        self._hands_lock: asyncio.Lock | None = None
        self._started = threading.Event()
        self.app = self._routes()
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()
        self._started.wait(5.0)

    # -- life cycle ---------------------------------------------------------------
    def close(self) -> None:
        aloop = self._aloop
        if aloop is not None and self._stopped is not None and not aloop.is_closed():
            aloop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(timeout=5.0)
        self.publisher.wake = None

    def __enter__(self) -> WebServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:
            log.exception("the web server stopped")

    async def _main(self) -> None:
        self._aloop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        self._stopped = asyncio.Event()
        self._hands_lock = asyncio.Lock()
        self.publisher.wake = self._wake_soon
        server = await asyncio.start_server(self._serve, sock=self._sock)
        self._started.set()
        log.info("web pages on %s", self.url)
        async with server:
            await self._stopped.wait()
            server.close()
        # push streams end when the loop's tasks are cancelled by asyncio.run

    def _wake_soon(self) -> None:
        """From the loop's thread: tell the push streams there is news (never waits)."""
        aloop = self._aloop
        if aloop is not None:
            with contextlib.suppress(RuntimeError):  # the web server has stopped
                aloop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        old, self._event = self._event, asyncio.Event()
        if old is not None:
            old.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._connections >= MAX_CONNECTIONS:
            writer.transport.abort()
            return
        self._connections += 1
        try:
            # microdot reads and writes through these two methods only
            timed_reader: Any = _TimedReader(reader, IO_SECONDS)
            timed_writer: Any = _TimedWriter(writer, IO_SECONDS)
            await self.app.handle_request(timed_reader, timed_writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.CancelledError):
            # a browser gone or too slow, or the server stopping
            writer.transport.abort()
        finally:
            self._connections -= 1

    # -- talking to the loop -------------------------------------------------------
    async def command(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``body`` answered by the loop, without holding up this thread."""
        if self._waiting >= MAX_WAITING:
            return {"ok": False, "error": "busy: too many requests wait for the controller"}
        self._waiting += 1
        try:
            aloop = asyncio.get_running_loop()
            return await aloop.run_in_executor(None, self.submit, dict(body), 5.0)
        finally:
            self._waiting -= 1

    # -- the pages -----------------------------------------------------------------
    def _session(self, request: Request) -> Session | None:
        return self.keys.session(request.cookies.get(COOKIE))

    def _operator(self, request: Request, changing: bool) -> Session | None:
        """The operator's session, and for a changing request its CSRF token checked."""
        s = self._session(request)
        if s is None or s.role != "operator":
            return None
        if changing and request.headers.get("X-CSRF-Token") != s.csrf:
            return None
        return s

    def _routes(self) -> Microdot:
        app = Microdot()
        CSRF(app)
        Request.max_content_length = 16 * 1024
        Request.max_body_length = 16 * 1024

        def html(name: str) -> Response:
            return Response(
                _page(name),
                headers={
                    "Content-Type": "text/html; charset=utf-8",
                    "Content-Security-Policy": "default-src 'self'; style-src 'self' "
                    "'unsafe-inline'; img-src 'self' data:",
                    "X-Frame-Options": "DENY",
                    "Referrer-Policy": "no-referrer",
                },
            )

        def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Any:
            return Response(
                json.dumps(body, default=list),
                status,
                {
                    "Content-Type": "application/json",
                    "Cache-Control": "no-store",
                    **(headers or {}),
                },
            )

        def refuse(why: str, status: int = 403) -> Any:
            return answer({"ok": False, "error": why}, status)

        def cookie(value: str) -> dict[str, str]:
            return {"Set-Cookie": f"{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict"}

        @app.get("/")
        async def board_page(request: Request) -> Any:
            return html("board")

        @app.get("/score")
        async def score_page(request: Request) -> Any:
            return html("score")

        @app.get("/operator")
        async def operator_page(request: Request) -> Any:
            token = request.args.get("token")
            if token and self.keys.accepts(token=token):
                value, _ = self.keys.begin("operator")
                return Response("", 303, {"Location": "/operator", **cookie(value)})
            return html("operator")

        @app.get("/player")
        async def player_page(request: Request) -> Any:
            return html("player")

        @app.get("/player/<code>")
        async def player_link(request: Request, code: str) -> Any:
            seat = self.keys.redeem(code)
            if seat is None:
                return Response(
                    "This link was used already or is not known: ask the operator for a new one.",
                    404,
                    {"Content-Type": "text/plain; charset=utf-8"},
                )
            value, _ = self.keys.begin("player", seat)
            return Response("", 303, {"Location": "/player", **cookie(value)})

        @app.get("/favicon.ico")
        async def favicon(request: Request) -> Any:
            return Response("", 204)

        @app.get("/sim")
        async def sim_page(request: Request) -> Any:
            if self.hands is None:
                return Response("This board is not simulated: no sim page.", 404)
            return html("sim")

        @app.get("/static/<name>")
        async def static(request: Request, name: str) -> Any:
            kind = STATIC.get(name)
            if kind is None:
                return Response("not found", 404)
            data = resources.files("boardctl.web").joinpath("static", name).read_bytes()
            return Response(data, headers={"Content-Type": kind, "Cache-Control": "no-cache"})

        @app.get("/api/events")
        async def events(request: Request) -> Any:
            stream: Any = self._stream()  # microdot streams an async generator's pieces
            return Response(
                stream,
                headers={
                    "Content-Type": "text/event-stream",
                    "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",
                },
            )

        @app.get("/api/today")
        async def today(request: Request) -> Any:
            reply = await self.command({"cmd": "games", "limit": 50})
            day = date.today().isoformat()
            done = [
                {"game": g.get("game"), "moves": g.get("moves"), "ended": g.get("ended")}
                for g in reply.get("games", [])
                if g.get("status") == "finished" and str(g.get("ended") or "").startswith(day)
            ]
            return answer({"ok": reply.get("ok", False), "games": done})

        @app.get("/api/session")
        async def session(request: Request) -> Any:
            s = self._session(request)
            if s is None and self.keys.open:
                value, s = self.keys.begin("operator")
                return answer(self._me(s), headers=cookie(value))
            return answer(self._me(s))

        @app.post("/api/login")
        async def login(request: Request) -> Any:
            body = request.json if isinstance(request.json, dict) else {}
            password = body.get("password")
            if not isinstance(password, str) or not self.keys.accepts(password=password):
                await asyncio.sleep(0.5)  # guesses come slowly
                return refuse("wrong password", 401)
            value, s = self.keys.begin("operator")
            return answer(self._me(s), headers=cookie(value))

        @app.post("/api/command")
        async def command(request: Request) -> Any:
            if self._operator(request, changing=True) is None:
                return refuse("sign in on the operator page first", 401)
            body = request.json if isinstance(request.json, dict) else None
            if body is None or body.get("cmd") not in OPERATOR_COMMANDS:
                return refuse(f"the commands are {', '.join(sorted(OPERATOR_COMMANDS))}", 400)
            return answer(await self.command(body))

        @app.get("/api/export/<int:game_id>")
        async def export(request: Request, game_id: int) -> Any:
            if self._operator(request, changing=False) is None:
                return refuse("sign in on the operator page first", 401)
            reply = await self.command({"cmd": "export", "id": game_id})
            if not reply.get("ok"):
                return answer(reply, 404)
            return answer(
                reply["record"],
                headers={"Content-Disposition": f'attachment; filename="game-{game_id}.json"'},
            )

        @app.post("/api/private-link")
        async def private_link(request: Request) -> Any:
            if self._operator(request, changing=True) is None:
                return refuse("sign in on the operator page first", 401)
            body = request.json if isinstance(request.json, dict) else {}
            seat = body.get("player")
            board = self.publisher.get("board") or {}
            seats = len(board.get("players", []))
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                return refuse(f"'player' must be a seat from 0 to {seats - 1}", 400)
            return answer({"ok": True, "player": seat, "link": f"/player/{self.keys.link(seat)}"})

        @app.get("/api/private")
        async def private(request: Request) -> Any:
            s = self._session(request)
            if s is None or s.role != "player" or s.player is None:
                return refuse("open the link the operator gave you", 401)
            return answer(await self.command({"cmd": "private", "player": s.player}))

        @app.post("/api/hands")
        async def hands(request: Request) -> Any:
            if self.hands is None:
                return refuse("this board is not simulated", 404)
            s = self._session(request)
            if s is None or request.headers.get("X-CSRF-Token") != s.csrf:
                return refuse("open the sim page again", 401)
            body = request.json if isinstance(request.json, dict) else {}
            text = body.get("text")
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                return refuse('send {"text": "lift d4"}', 400)
            assert self._hands_lock is not None
            async with self._hands_lock:
                aloop = asyncio.get_running_loop()
                try:
                    await aloop.run_in_executor(None, self.hands, text)
                except Exception as exc:
                    return answer({"ok": False, "error": str(exc)})
            return answer({"ok": True})

        return app

    def _me(self, s: Session | None) -> dict[str, Any]:
        from boardctl.engines import GAMES

        me: dict[str, Any] = {
            "ok": True,
            "operator": s is not None and s.role == "operator",
            "needs_password": bool(self.keys.password_hash),
            "sim": self.hands is not None,
            "brightness": self.brightness,
            "games": sorted(GAMES),
        }
        if s is not None:
            me["csrf"] = s.csrf
        if me["operator"]:
            me["options"] = {name: _options_of(name) for name in sorted(GAMES)}
        return me

    async def _stream(self) -> AsyncIterator[bytes]:
        """The push stream: the board, state and lights whenever they change
        (each as its latest version), a comment now and then to keep it open."""
        sent: dict[str, int] = {}
        yield b"retry: 1000\n\n"
        while True:
            event = self._event
            for part in ("board", "state", "lights"):
                version, data = self.publisher.encoded(part)
                if version and sent.get(part) != version:
                    sent[part] = version
                    yield b"event: " + part.encode() + b"\ndata: " + data + b"\n\n"
            assert event is not None
            if not event.is_set():
                try:
                    await asyncio.wait_for(event.wait(), KEEPALIVE)
                except TimeoutError:
                    yield b": " + datetime.now().strftime("%H:%M:%S").encode() + b"\n\n"
            await asyncio.sleep(PUSH_GAP)


def _options_of(game: str) -> list[dict[str, Any]]:
    """The engine's own options: name, default and, where it declares them, the choices."""
    import dataclasses

    from boardctl.engines import engine_class

    engine = engine_class(game)
    cls = getattr(engine, "Options", None)
    if cls is None or not dataclasses.is_dataclass(cls):
        return []
    variants = tuple(engine.variants)
    out = []
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else None
        entry: dict[str, Any] = {"name": f.name, "default": default}
        if f.name == "variant" and variants:
            entry["choices"] = list(variants)
        out.append(entry)
    return out
