"""The web pages of a board, served by microdot on a thread of their own.

The loop stays the only owner of the game: the pages read what the loop
publishes (:class:`~.publish.Publisher`, pushed as server-sent events by
:class:`~.push.Pushes`) and send the control socket's own commands through
:meth:`~boardctl.controller.loop.Loop.submit`. A browser cannot stall the
sensors or the LEDs, and a crowd of them cannot lock out the operator:

- every request is read whole, within bounds, before microdot sees it
  (:mod:`.http`): a deadline for the whole request, headers bounded in number
  and size, anything malformed answered 400 with a short reason;
- requests (pages and commands) and the live board's push streams have
  budgets of their own (:data:`MAX_CONNECTIONS` and
  :data:`~.push.MAX_STREAMS`), beyond which the answer is 503 with
  Retry-After at once, never a wait;
- the operator's commands have threads of their own; the public pages' one
  question to the loop (today's games) is asked at most once every
  :data:`TODAY_SECONDS` whoever asks;
- passwords are checked on a thread of their own, never on the server's
  loop, and guesses are slowed per client and overall
  (:class:`~.auth.Throttle`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import errno
import json
import logging
import math
import socket
import threading
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime
from importlib import resources
from typing import Any

from microdot import Microdot, Request, Response
from microdot.csrf import CSRF
from microdot.microdot import NoCaseDict

from boardctl import i18n, plots
from boardctl.board import BoardProfile
from boardctl.errors import shorten
from boardctl.i18n import _
from boardctl.sound.cues import notes_json
from boardctl.textfiles import parse_json
from boardctl.web import languages
from boardctl.web.address import link_address, qr_image
from boardctl.web.auth import LOCKOUT_SECONDS, Keys, Session, Throttle, split_listen
from boardctl.web.http import (
    MAX_BODY,
    MAX_LINE,
    REQUEST_SECONDS,
    Head,
    Refused,
    plain,
    read_request,
)
from boardctl.web.publish import Publisher
from boardctl.web.push import MAX_STREAMS, RETRY_AFTER, Pushes

log = logging.getLogger(__name__)

#: the control socket's commands an operator may send from the web page
OPERATOR_COMMANDS = frozenset(
    {
        "status",
        "new",
        "undo",
        "another",
        "choose",
        "chance",
        "play",
        "games",
        "export",
        "settings",
        "sound",
        # remote play (docs/fleet.md): an invitation from another board
        "accept",
        "decline",
    }
)
#: seconds a browser has to take each piece of an answer (one that stops reading is cut off)
IO_SECONDS = 10.0
#: requests (pages and commands, push streams apart) read or answered at once;
#: more are answered 503 with Retry-After
MAX_CONNECTIONS = 32
#: connections waiting in line for one of those places (a crowd arriving at
#: once); more are answered 503 at once
MAX_QUEUED = 256
#: the longest a connection waits in line before it is answered 503, in seconds
QUEUE_SECONDS = 2.0
#: connections the kernel holds until the server accepts them (a whole café
#: reconnecting at once after a restart is not left to retry in a second)
BACKLOG = 512
#: requests from one address at once (a stranger cannot hold them all); more are answered 503
MAX_PER_CLIENT = 8
#: connections turned away at once (each is answered 503, then closed); more are closed unanswered
MAX_TURNED_AWAY = 32
#: an operator's (or player's) commands waiting for the loop at once; more are answered "busy"
MAX_WAITING = 4
#: the public pages ask the loop for today's games at most once per this many seconds
TODAY_SECONDS = 5.0
#: password checks waiting for their thread at once; more are answered 429
MAX_CHECKING = 2
#: the longest password the login takes, in characters
MAX_PASSWORD = 1024
LOCKOUT_MINUTES = LOCKOUT_SECONDS // 60
COOKIE = "boardctl_session"
PAGES = ("board", "score", "operator", "player", "sim", "venue")
STATIC = {
    "words.js": "text/javascript",
    "app.js": "text/javascript",
    "style.css": "text/css",
    "fleet.js": "text/javascript",
    "venue.js": "text/javascript",
    "stats.js": "text/javascript",
    "phone.js": "text/javascript",
    "sound.js": "text/javascript",
}

Submit = Callable[[Mapping[str, Any], float], dict[str, Any]]
#: the simulator's hands: do what a line says (``lift d4``; None: nothing) and
#: answer what lies on the board then, site by site
Hands = Callable[[str | None], Mapping[str, str]]
Handler = Callable[..., Awaitable[Any]]


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


#: how long a refused client's request is drained after its answer, in seconds
DRAIN_SECONDS = 1.0


async def _say_and_close(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, answer: bytes
) -> None:
    """Write a refusal and end the sending side; what the client still sends
    is read and dropped for a moment, so that closing with it unread does not
    reset the connection before the client has read the answer."""
    writer.write(answer)
    with contextlib.suppress(OSError, RuntimeError):
        writer.write_eof()
    with contextlib.suppress(OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
        async with asyncio.timeout(DRAIN_SECONDS):
            while await reader.read(4096):
                pass


def _client(writer: asyncio.StreamWriter) -> str:
    """The address a connection comes from."""
    peer = writer.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "local"


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
        throttle: Throttle | None = None,
        request_seconds: float = REQUEST_SECONDS,
        max_streams: int = MAX_STREAMS,
        stats: Any = None,
        venue: Callable[[], dict[str, Any]] | None = None,
        venue_stats: Callable[[], dict[str, Any]] | None = None,
        voiced: Callable[[int], bytes | None] | None = None,
        language: str = i18n.DEFAULT,
    ) -> None:
        host, port = split_listen(listen)
        #: the board's newest sentences as WAV, by number (the sound's; None: no voice)
        self.voiced = voiced
        self.listen = listen
        #: the board's language: a page's when its visitor's browser asks for none of ours
        self.language = language
        #: every board of the venue, from the broker (``/venue``; None: on no broker)
        self.venue = venue
        #: their statistics added up (the venue's plots)
        self.venue_stats = venue_stats
        #: this board's statistics (``summary()``, ``csv()``), read on a helper thread
        self.statistics = stats
        self._board_stats: tuple[float, dict[str, Any]] | None = None
        self.submit = submit
        self.publisher = publisher
        self.profile = profile
        self.keys = keys or Keys()
        self.throttle = throttle or Throttle()
        self.hands = hands
        self.brightness = profile.leds.brightness if brightness is None else brightness
        self.request_seconds = request_seconds
        self._sock = socket.create_server(
            (host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET
        )
        bound = self._sock.getsockname()
        shown = "127.0.0.1" if host in ("0.0.0.0", "localhost") else host
        self.url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound[1]}"
        self._aloop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Event | None = None
        #: requests being read or answered, in all and by client
        self._requests = 0
        self._line: collections.deque[asyncio.Future[None]] = collections.deque()
        self._by_client: dict[str, int] = {}
        self._turned_away = 0
        self._waiting = 0
        self._checking = 0
        #: today's games as last asked: when, the game's ending then, the answer
        self._today: tuple[float, Any, dict[str, Any]] | None = None
        self._asking_today: asyncio.Future[dict[str, Any]] | None = None
        self._hands_lock: asyncio.Lock | None = None
        #: the loop's answers to operators, to the public pages, and password checks:
        #: each on threads of its own, so that none waits for the others
        self._commands = ThreadPoolExecutor(MAX_WAITING, thread_name_prefix="web-command")
        self._public = ThreadPoolExecutor(1, thread_name_prefix="web-public")
        self._hashing = ThreadPoolExecutor(1, thread_name_prefix="web-password")
        self.pushes = Pushes(publisher, most=max_streams)
        self._static = {
            name: resources.files("boardctl.web").joinpath("static", name).read_bytes()
            for name in STATIC
        }
        self._started = threading.Event()
        self.app = self._routes()
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()
        self._started.wait(5.0)

    # -- life cycle ---------------------------------------------------------------
    def close(self) -> None:
        aloop = self._aloop
        if aloop is not None and self._stopped is not None and not aloop.is_closed():
            with contextlib.suppress(RuntimeError):
                aloop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(timeout=5.0)
        self.publisher.wake = None
        for pool in (self._commands, self._public, self._hashing):
            pool.shutdown(wait=False, cancel_futures=True)

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
        self._stopped = asyncio.Event()
        self._hands_lock = asyncio.Lock()
        self.publisher.wake = self._wake_soon
        server = await asyncio.start_server(
            self._serve, sock=self._sock, limit=MAX_LINE, backlog=BACKLOG
        )
        self._started.set()
        log.info("web pages on %s", self.url)
        async with server:
            await self._stopped.wait()
            server.close()
            self.pushes.close()
        # the connections' tasks end when asyncio.run cancels them

    def _wake_soon(self) -> None:
        """From the loop's thread (or the sound's, which hears apart): tell the
        push streams there is news (never waits)."""
        aloop = self._aloop
        if aloop is not None:
            with contextlib.suppress(RuntimeError):  # the web server has stopped
                aloop.call_soon_threadsafe(self.pushes.wake)

    # -- connections ---------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = _client(writer)
        mine = self._by_client.get(client, 0)
        if mine >= MAX_PER_CLIENT:
            await self._turn_away(reader, writer)
            return
        self._by_client[client] = mine + 1
        if not await self._enter():
            self._forget(client)
            await self._turn_away(reader, writer)
            return
        counted = True
        try:
            try:
                head = await asyncio.wait_for(read_request(reader), self.request_seconds)
            except TimeoutError:
                why = f"send the whole request within {self.request_seconds:g} s"
                await _say_and_close(reader, writer, plain(408, why))
                return
            except Refused as refused:
                await _say_and_close(reader, writer, plain(refused.status, refused.why))
                return
            if head is None:
                return
            if head.path == "/api/events" and head.method == "GET":
                # a viewer: from now on it counts against the streams' budget
                counted = self._release(client)
                await self.pushes.serve(reader, writer, language=self._language_of(head))
                return
            # the page's words, and the refusals and errors it shows, in its visitor's language
            with i18n.language(self._language_of(head)):
                await self._dispatch(head, writer)
        except (OSError, asyncio.IncompleteReadError):
            pass  # a browser gone or too slow
        finally:
            if counted:
                self._release(client)
            await self._end(writer)

    async def _enter(self) -> bool:
        """A place among the requests: at once, or after waiting in line for
        at most :data:`QUEUE_SECONDS` (a crowd arriving at once is served in
        turn); False when the line is too long or the wait too long."""
        if self._requests < MAX_CONNECTIONS and not self._line:
            self._requests += 1
            return True
        if len(self._line) >= MAX_QUEUED:
            return False
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line.append(turn)
        try:
            await asyncio.wait_for(turn, QUEUE_SECONDS)
        except TimeoutError:
            return False
        finally:
            with contextlib.suppress(ValueError):
                self._line.remove(turn)
        return True

    def _release(self, client: str) -> bool:
        """Give the request's place to the next in line (or free it)."""
        while self._line:
            turn = self._line.popleft()
            if not turn.done():
                turn.set_result(None)
                break
        else:
            self._requests -= 1
        return self._forget(client)

    def _forget(self, client: str) -> bool:
        left = self._by_client.get(client, 1) - 1
        if left > 0:
            self._by_client[client] = left
        else:
            self._by_client.pop(client, None)
        return False

    async def _turn_away(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """503 with Retry-After at once, without reading the request (what the
        browser sent is drained briefly, so that the answer is not lost)."""
        if self._turned_away >= MAX_TURNED_AWAY:
            writer.transport.abort()
            return
        self._turned_away += 1
        try:
            busy = plain(
                503,
                "the board's pages are busy: try again in a moment",
                {"Retry-After": str(RETRY_AFTER)},
            )
            await _say_and_close(reader, writer, busy)
        finally:
            self._turned_away -= 1
            await self._end(writer)

    async def _end(self, writer: asyncio.StreamWriter) -> None:
        transport = writer.transport
        if transport.is_closing():
            return
        writer.close()
        try:
            await asyncio.wait_for(writer.wait_closed(), IO_SECONDS)
        except (TimeoutError, OSError):
            transport.abort()

    def _language_of(self, head: Head) -> str:
        """The language of the visitor who sent ``head`` (see :mod:`.languages`)."""
        return languages.chosen(
            head.header("Cookie"), head.header("Accept-Language"), self.language
        )

    async def _dispatch(self, head: Head, writer: asyncio.StreamWriter) -> None:
        """Hand a request that was read whole to microdot, and write its answer."""
        headers = NoCaseDict()
        for name, value in head.headers:
            headers[name] = value
        timed: Any = _TimedWriter(writer, IO_SECONDS)
        try:
            request = Request(
                self.app,
                writer.get_extra_info("peername"),
                head.method,
                head.target,
                head.version,
                headers,
                body=head.body,
                sock=None,
            )
        except Exception:  # an address microdot cannot decode (a bad %-escape)
            writer.write(plain(400, _("the address is not well formed")))
            return
        try:
            response = await self.app.dispatch_request(request)
        except Exception as exc:  # a guard: the routes answer every request themselves
            log.error("web: %s %s failed: %s", head.method, head.path[:80], shorten(repr(exc), 200))
            writer.write(plain(500, _("the server failed on this request")))
            return
        await response.write(timed)

    # -- talking to the loop -------------------------------------------------------
    async def command(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``body`` answered by the loop for an operator (or a player),
        without holding up this thread."""
        if self._waiting >= MAX_WAITING:
            return {"ok": False, "error": "busy: too many requests wait for the controller"}
        self._waiting += 1
        try:
            aloop = asyncio.get_running_loop()
            reply = await aloop.run_in_executor(self._commands, self.submit, dict(body), 5.0)
        finally:
            self._waiting -= 1
        if isinstance(reply.get("error"), str):
            reply["error"] = shorten(reply["error"])
        return reply

    async def today(self) -> dict[str, Any]:
        """The loop's list of games for the public pages: asked at most once
        every :data:`TODAY_SECONDS`, and once for everyone asking meanwhile;
        at once when the game on the board has ended since (its winner is
        listed while the room still looks)."""
        aloop = asyncio.get_running_loop()
        ending = self._ending()
        if (
            self._today is not None
            and aloop.time() - self._today[0] < TODAY_SECONDS
            and self._today[1] == ending
        ):
            return self._today[2]
        if self._asking_today is None:
            asking = aloop.run_in_executor(
                self._public, self.submit, {"cmd": "games", "limit": 50}, 5.0
            )
            self._asking_today = asking

            def done(fut: asyncio.Future[dict[str, Any]]) -> None:
                self._asking_today = None
                if not fut.cancelled() and fut.exception() is None:
                    self._today = (aloop.time(), ending, fut.result())

            asking.add_done_callback(done)
        return await asyncio.shield(self._asking_today)

    def _ending(self) -> Any:
        """The game on the board as far as today's games care: how many
        actions it ended after, or None while it is under way."""
        state = self.publisher.get("state") or {}
        if state.get("status") in (None, "playing"):
            return None
        return (state.get("game"), len(state.get("moves") or ()))

    async def stats(self, scope: str, csv: bool = False) -> dict[str, Any] | None:
        """The statistics of this board (``board``: read from its database on a
        helper thread, at most once every :data:`TODAY_SECONDS`; with ``csv``
        the games as CSV, read each time) or of the venue's boards (``venue``);
        None where there are none."""
        if scope == "venue":
            return {"summary": self.venue_stats()} if self.venue_stats is not None else None
        if scope != "board" or self.statistics is None:
            return None
        aloop = asyncio.get_running_loop()
        if csv:
            return {"csv": await aloop.run_in_executor(self._public, self.statistics.csv)}
        cached = self._board_stats
        if cached is not None and aloop.time() - cached[0] < TODAY_SECONDS:
            return cached[1]
        got = {"summary": await aloop.run_in_executor(self._public, self.statistics.summary)}
        self._board_stats = (aloop.time(), got)
        return got

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
        Request.max_content_length = MAX_BODY
        Request.max_body_length = MAX_BODY
        Request.max_readline = MAX_LINE

        def route(path: str, method: str = "GET") -> Callable[[Handler], Handler]:
            """A route whose refusals are answered and whose failures are one
            line in the log: nothing a browser sends ends in a traceback."""

            def register(handler: Handler) -> Handler:
                async def safe(request: Request, **args: Any) -> Any:
                    try:
                        return await handler(request, **args)
                    except Refused as refused:
                        return refuse(refused.why, refused.status)
                    except Exception as exc:
                        log.error("web: %s %s failed: %s", method, path, shorten(repr(exc), 200))
                        log.debug("web: how %s %s failed", method, path, exc_info=True)
                        return refuse(_("the server failed on this request"), 500)

                app.route(path, methods=[method])(safe)
                return handler

            return register

        def html(name: str) -> Response:
            code = i18n.current()
            return Response(
                languages.page(name, code),
                headers={
                    "Content-Type": "text/html; charset=utf-8",
                    "Content-Language": code,
                    "Vary": "Accept-Language, Cookie",
                    "Content-Security-Policy": "default-src 'self'; style-src 'self' "
                    "'unsafe-inline'; img-src 'self' data:",
                    "X-Frame-Options": "DENY",
                    "Referrer-Policy": "no-referrer",
                },
            )

        def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Any:
            # the texts for people in it (an option's label, a reason) in the page's language
            return Response(
                json.dumps(i18n.localized(body), default=list),
                status,
                {
                    "Content-Type": "application/json",
                    "Cache-Control": "no-store",
                    **(headers or {}),
                },
            )

        def refuse(why: str, status: int = 403, headers: dict[str, str] | None = None) -> Any:
            return answer({"ok": False, "error": why}, status, headers)

        def cookie(value: str) -> dict[str, str]:
            return {"Set-Cookie": f"{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict"}

        def client(request: Request) -> str:
            addr = request.client_addr
            return str(addr[0]) if isinstance(addr, tuple) and addr else "local"

        def slow_down(request: Request) -> Any:
            """The answer to a client that must wait before its next guess, or None."""
            wait = self.throttle.wait(client(request))
            if wait <= 0:
                return None
            seconds = str(math.ceil(wait))
            return refuse(
                f"too many wrong passwords: try again in {seconds} s", 429, {"Retry-After": seconds}
            )

        def wrong(request: Request) -> None:
            who = client(request)
            if self.throttle.failed(who):
                log.warning(
                    "web: too many wrong passwords from %s: it may not sign in for %d minutes",
                    who,
                    LOCKOUT_MINUTES,
                )

        @route("/")
        async def board_page(request: Request) -> Any:
            return html("board")

        @route("/score")
        async def score_page(request: Request) -> Any:
            return html("score")

        @route("/operator")
        async def operator_page(request: Request) -> Any:
            token = request.args.get("token")
            if token and not self.keys.open:
                waiting = slow_down(request)
                if waiting is not None:
                    return waiting
                if not self.keys.accepts(token=token):
                    wrong(request)
                    return html("operator")
                self.throttle.succeeded(client(request))
                value, _csrf = self.keys.begin("operator")
                return Response("", 303, {"Location": "/operator", **cookie(value)})
            return html("operator")

        @route("/player")
        async def player_page(request: Request) -> Any:
            return html("player")

        @route("/player/<code>")
        async def player_link(request: Request, code: str) -> Any:
            seat = self.keys.redeem(code)
            if seat is None:
                return Response(
                    _(
                        "This link was used already or is not known: "
                        "ask the operator for a new one."
                    ),
                    404,
                    {"Content-Type": "text/plain; charset=utf-8"},
                )
            value, _csrf = self.keys.begin("player", seat)
            return Response("", 303, {"Location": "/player", **cookie(value)})

        @route("/venue")
        async def venue_page(request: Request) -> Any:
            if self.venue is None:
                return Response(
                    _(
                        "This board is on no broker: set [mqtt] broker for the venue's page "
                        "(docs/fleet.md)."
                    ),
                    404,
                    {"Content-Type": "text/plain; charset=utf-8"},
                )
            return html("venue")

        @route("/api/venue")
        async def venue(request: Request) -> Any:
            if self.venue is None:
                return refuse(_("this board is on no broker: set [mqtt] broker"), 404)
            return answer({"ok": True, **self.venue()})

        @route("/api/stats/<scope>")
        async def stats_list(request: Request, scope: str) -> Any:
            got = await self.stats(scope)
            if got is None:
                return refuse(f"no statistics of {shorten(scope, 20)!r} here", 404)
            summary = got["summary"]
            return answer({"ok": True, "games": summary["games"], "plots": plots.names(summary)})

        @route("/stats/board.csv")
        async def stats_csv(request: Request) -> Any:
            got = await self.stats("board", csv=True)
            if got is None:
                return Response("no statistics here", 404)
            return Response(
                got["csv"],
                headers={
                    "Content-Type": "text/csv; charset=utf-8",
                    "Content-Disposition": 'attachment; filename="games.csv"',
                },
            )

        @route("/stats/<scope>/<name>")
        async def stats_plot(request: Request, scope: str, name: str) -> Any:
            got = await self.stats(scope) if name.endswith(".svg") else None
            summary = got["summary"] if got is not None else None
            drawn = (
                plots.plot(name[:-4], summary, plots.palettes(sorted(summary["by_game"])))
                if summary is not None
                else None
            )
            if drawn is None:
                return Response("no such plot", 404)
            return Response(
                drawn, headers={"Content-Type": "image/svg+xml", "Cache-Control": "no-cache"}
            )

        @route("/favicon.ico")
        async def favicon(request: Request) -> Any:
            return Response("", 204)

        @route("/sim")
        async def sim_page(request: Request) -> Any:
            if self.hands is None:
                return Response(_("This board is not simulated: no sim page."), 404)
            return html("sim")

        @route("/static/<name>")
        async def static(request: Request, name: str) -> Any:
            data = self._static.get(name)
            if data is None:
                return Response("not found", 404)
            return Response(
                data, headers={"Content-Type": STATIC[name], "Cache-Control": "no-cache"}
            )

        @route("/qr.svg")
        async def qr(request: Request) -> Any:
            from boardctl.web.address import qr_svg

            return Response(
                qr_svg(self._address(request)),
                headers={"Content-Type": "image/svg+xml", "Cache-Control": "no-cache"},
            )

        @route("/api/cues")
        async def cue_notes(request: Request) -> Any:
            # the notes of the board's cues, for a page that plays them itself
            return answer({"ok": True, "cues": notes_json()})

        @route("/api/voice/<number>")
        async def voice(request: Request, number: str) -> Any:
            # one of the board's newest sentences, spoken by its own voice, for a
            # page whose browser has none in the board's language
            if self.voiced is None or not number.isdigit() or len(number) > 12:
                return refuse("no such sentence", 404)
            aloop = asyncio.get_running_loop()
            wav = await aloop.run_in_executor(self._public, self.voiced, int(number))
            if wav is None:
                return refuse("no such sentence among the newest", 404)
            return Response(
                wav, headers={"Content-Type": "audio/wav", "Cache-Control": "max-age=600"}
            )

        @route("/api/address")
        async def address(request: Request) -> Any:
            return answer({"ok": True, "url": self._address(request)})

        @route("/api/today")
        async def today(request: Request) -> Any:
            reply = await self.today()
            done = [
                {
                    "game": g.get("game"),
                    "moves": g.get("moves"),
                    "ended": g.get("ended"),
                    "winner": g.get("winner"),
                }
                for g in reply.get("games", [])
                if g.get("status") == "finished" and _local_day(g.get("ended")) == date.today()
            ]
            # games ended while the clock did not tell the date: none can be said to be today's
            unsure = sum(
                1
                for g in reply.get("games", [])
                if g.get("status") == "finished" and g.get("ended") is None
            )
            return answer({"ok": reply.get("ok", False), "games": done, "unsure": unsure})

        @route("/api/session")
        async def session(request: Request) -> Any:
            s = self._session(request)
            if s is None and self.keys.open:
                value, s = self.keys.begin("operator")
                return answer(self._me(s), headers=cookie(value))
            return answer(self._me(s))

        @route("/api/login", "POST")
        async def login(request: Request) -> Any:
            waiting = slow_down(request)
            if waiting is not None:
                return waiting
            password = _json_object(request).get("password")
            if not isinstance(password, str) or not 0 < len(password) <= MAX_PASSWORD:
                return refuse('send {"password": "..."}', 400)
            if self._checking >= MAX_CHECKING:
                return refuse(
                    "busy checking passwords: try again in a moment", 429, {"Retry-After": "1"}
                )
            self._checking += 1
            try:
                aloop = asyncio.get_running_loop()
                right = await aloop.run_in_executor(self._hashing, self.keys.accepts, password)
            finally:
                self._checking -= 1
            if not right:
                wrong(request)
                return refuse(_("wrong password"), 401)
            self.throttle.succeeded(client(request))
            value, s = self.keys.begin("operator")
            return answer(self._me(s), headers=cookie(value))

        @route("/api/command", "POST")
        async def command(request: Request) -> Any:
            if self._operator(request, changing=True) is None:
                return refuse(_("sign in on the operator page first"), 401)
            body = _json_object(request)
            cmd = body.get("cmd")
            if not isinstance(cmd, str) or cmd not in OPERATOR_COMMANDS:
                return refuse(f"the commands are {', '.join(sorted(OPERATOR_COMMANDS))}", 400)
            return answer(await self.command(body))

        @route("/api/fleet")
        async def fleet(request: Request) -> Any:
            if self._operator(request, changing=False) is None:
                return refuse(_("sign in on the operator page first"), 401)
            return answer(await self.command({"cmd": "fleet"}))

        @route("/api/export/<game>")
        async def export(request: Request, game: str) -> Any:
            if self._operator(request, changing=False) is None:
                return refuse(_("sign in on the operator page first"), 401)
            if not game.isascii() or not game.isdigit() or len(game) > 10:
                return refuse(_("the game's number, as `boardctl games` lists it"), 404)
            game_id = int(game)
            reply = await self.command({"cmd": "export", "id": game_id})
            if not reply.get("ok"):
                return answer(reply, 404)
            return answer(
                reply["record"],
                headers={"Content-Disposition": f'attachment; filename="game-{game_id}.json"'},
            )

        @route("/api/private-link", "POST")
        async def private_link(request: Request) -> Any:
            if self._operator(request, changing=True) is None:
                return refuse(_("sign in on the operator page first"), 401)
            seat = _json_object(request).get("player")
            board = self.publisher.get("board") or {}
            seats = len(board.get("players", []))
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                return refuse(f"'player' must be a seat from 0 to {seats - 1}", 400)
            link = f"/player/{self.keys.link(seat)}"
            reply: dict[str, Any] = {"ok": True, "player": seat, "link": link}
            address = link_address(request.headers.get("Host"), link)
            if address is not None:
                reply["address"] = address
                reply["qr"] = qr_image(address)
            return answer(reply)

        @route("/api/private")
        async def private(request: Request) -> Any:
            s = self._session(request)
            if s is None or s.role != "player" or s.player is None:
                return refuse(_("open the link the operator gave you"), 401)
            return answer(await self.command({"cmd": "private", "player": s.player}))

        @route("/api/phone")
        async def phone_turn(request: Request) -> Any:
            return await phone(request)

        @route("/api/phone", "POST")
        async def phone_move(request: Request) -> Any:
            return await phone(request)

        async def phone(request: Request) -> Any:
            """A phone seat's page: its turn and the moves it may choose (GET),
            or the move chosen (POST)."""
            s = self._session(request)
            if s is None or s.role != "player" or s.player is None:
                return refuse(_("open the link the operator gave you"), 401)
            body: dict[str, Any] = {"cmd": "phone", "seat": s.player}
            if request.method == "POST":
                if request.headers.get("X-CSRF-Token") != s.csrf:
                    return refuse(_("open the link the operator gave you again"), 401)
                sent = _json_object(request)
                action, ply = sent.get("action"), sent.get("ply")
                if not isinstance(action, str) or not action.strip() or len(action) > 200:
                    return refuse('send {"action": "W3", "ply": 4}', 400)
                body["action"] = action.strip()
                if isinstance(ply, int) and not isinstance(ply, bool):
                    body["ply"] = ply
            return answer(await self.command(body))

        @route("/api/hands")
        async def board_now(request: Request) -> Any:
            """What lies on the simulated board: the sim page draws it, and
            chooses between placing and lifting by it."""
            if self.hands is None:
                return refuse(_("this board is not simulated"), 404)
            if self._session(request) is None:
                return refuse(_("open the sim page again"), 401)
            return answer(await self._hands(None))

        @route("/api/hands", "POST")
        async def hands(request: Request) -> Any:
            if self.hands is None:
                return refuse(_("this board is not simulated"), 404)
            s = self._session(request)
            if s is None or request.headers.get("X-CSRF-Token") != s.csrf:
                return refuse(_("open the sim page again"), 401)
            text = _json_object(request).get("text")
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                return refuse('send {"text": "lift d4"}', 400)
            return answer(await self._hands(text))

        return app

    def _address(self, request: Request) -> str:
        """The live board's address for a phone (see :mod:`.address`)."""
        from boardctl.web.address import lan_address, page_address

        host = request.headers.get("Host")
        return page_address(
            self.listen,
            host if isinstance(host, str) else None,
            lan_address(),
            port=int(self._sock.getsockname()[1]),
        )

    async def _hands(self, text: str | None) -> dict[str, Any]:
        """The hands' work off this thread, one at a time; the board after it."""
        assert self.hands is not None and self._hands_lock is not None
        async with self._hands_lock:
            aloop = asyncio.get_running_loop()
            try:
                board = await aloop.run_in_executor(None, self.hands, text)
            except Exception as exc:
                return {"ok": False, "error": shorten(str(exc), 300)}
        return {"ok": True, "board": dict(board)}

    def _me(self, s: Session | None) -> dict[str, Any]:
        from boardctl.engines import GAMES

        me: dict[str, Any] = {
            "ok": True,
            "operator": s is not None and s.role == "operator",
            "needs_password": bool(self.keys.password_hash),
            "sim": self.hands is not None,
            "brightness": self.brightness,
            # the board's own language ([board] language): the operator page shows it
            "language": self.language,
            "language_name": i18n.NAMES.get(self.language, self.language),
            # the games this board can play: its profile's
            "games": [g for g in sorted(GAMES) if g == self.profile.game],
        }
        if s is not None:
            me["csrf"] = s.csrf
        if me["operator"]:
            me["options"] = {name: _options_of(name) for name in sorted(GAMES)}
        return me


def _local_day(stamp: Any) -> date | None:
    """The local date of a stored time (``2026-11-26T23:30:00Z``, in UTC); None
    for none. A game ended at 23:30 UTC ended tomorrow east of Greenwich."""
    try:
        return datetime.fromisoformat(str(stamp).replace("Z", "+00:00")).astimezone().date()
    except ValueError:
        return None


def _json_object(request: Request) -> dict[str, Any]:
    """A request's JSON body as an object; :class:`Refused` (400) saying
    what is wrong with it, in a few words."""
    kind = (request.content_type or "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(400, "send a JSON object with Content-Type: application/json")
    try:
        body = parse_json(request.body or b"")
    except ValueError as exc:
        raise Refused(400, shorten(f"the body is not JSON: {exc}", 200)) from None
    if not isinstance(body, dict):
        raise Refused(400, 'the body must be a JSON object, like {"cmd": "status"}')
    return body


def _options_of(game: str) -> list[dict[str, Any]]:
    """The game's options as its engine declares them: label, help, type,
    choices and default, for the operator's form."""
    from boardctl.engines import engine_class

    return [spec.to_json() for spec in engine_class(game).option_specs()]
