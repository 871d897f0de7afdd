"""Who may do what on the web pages: the operator's password (stored hashed)
or token, the sessions they open, and the one-time links to a player's page.

Kept in memory only: a restart signs everyone out and voids unused links.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from boardctl.errors import ConfigError, excerpt
from boardctl.message import M_, said

#: PBKDF2 rounds for a new password (about a tenth of a second on a Pi Zero 2 W)
ROUNDS = 200_000
#: the fewest and most rounds a stored password hash may ask for: fewer is
#: guessed too easily, more makes every login (and every guess) hold the
#: server's hashing thread for seconds
MIN_ROUNDS = 100_000
MAX_ROUNDS = 2_000_000
#: the shortest token the operator page accepts instead of a password
MIN_TOKEN = 16
#: how many sessions and unused links are kept at most (the oldest go first)
KEEP = 64
#: how long an operator's session lasts, in seconds
SESSION_SECONDS = 12 * 3600
_SCHEME = "pbkdf2-sha256"


def hash_password(password: str, *, rounds: int = ROUNDS, salt: bytes | None = None) -> str:
    """The ``[web] password_hash`` line's value for ``password``."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, rounds)
    return f"{_SCHEME}${rounds}${salt.hex()}${digest.hex()}"


def parse_hash(stored: str) -> tuple[int, bytes, bytes]:
    """A stored hash's rounds, salt and digest; ValueError saying what is
    wrong with it (without repeating it)."""
    parts = stored.split("$")
    if len(parts) != 4 or parts[0] != _SCHEME:
        raise ValueError(
            M_('not a hashed password: it reads "{scheme}$ROUNDS$SALT$DIGEST"', scheme=_SCHEME)
        )
    _, rounds, salt, digest = parts
    if not rounds.isdigit() or len(rounds) > 9:
        raise ValueError(M_("its rounds are not a whole number"))
    if not MIN_ROUNDS <= int(rounds) <= MAX_ROUNDS:
        raise ValueError(
            M_(
                "its rounds must be {low} to {high}, not {rounds}",
                low=MIN_ROUNDS,
                high=MAX_ROUNDS,
                rounds=int(rounds),
            )
        )
    try:
        salt_bytes, digest_bytes = bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        raise ValueError(M_("its salt and digest must be hexadecimal")) from None
    if not 8 <= len(salt_bytes) <= 64:
        raise ValueError(M_("its salt must be 8 to 64 bytes"))
    if len(digest_bytes) != hashlib.sha256().digest_size:
        raise ValueError(M_("its digest is not a SHA-256 digest (64 hexadecimal digits)"))
    return int(rounds), salt_bytes, digest_bytes


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` (a :func:`hash_password` value) hashes."""
    try:
        scheme, rounds, salt, digest = stored.split("$")
        if scheme != _SCHEME or not rounds.isdigit() or int(rounds) > MAX_ROUNDS:
            return False
        got = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(rounds))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


def split_listen(listen: str, where: str = "[web] listen") -> tuple[str, int]:
    """``"host:port"`` as (host, port); :class:`ConfigError` naming ``where`` if it is not."""
    host, sep, port = listen.rpartition(":")
    bracketed = host.startswith("[") and host.endswith("]")
    host = host[1:-1] if bracketed else host
    example = M_('write "host:port", e.g. "127.0.0.1:8080" (or "" for no web pages)')
    if "/" in listen:
        raise ConfigError(
            M_(
                "{where}: {example}: an address to listen on, not a URL",
                where=where,
                example=example,
            )
        )
    if not sep or not host or not _HOST.fullmatch(host) or (":" in host and not bracketed):
        raise ConfigError(
            M_(
                "{where}: {example}, not {listen}",
                where=where,
                example=example,
                listen=excerpt(listen),
            )
        )
    if not port.isdigit() or len(port) > 5 or not 0 <= int(port) <= 65535:
        raise ConfigError(
            M_(
                "{where}: the port must be a number from 1 to 65535 ({example})",
                where=where,
                example=example,
            )
        )
    return host, int(port)


#: a host to listen on: a name, an IPv4 address or (in brackets) an IPv6 one
_HOST = re.compile(r"[A-Za-z0-9._-]{1,253}|[0-9A-Fa-f:.]{2,45}")


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_settings(
    listen: str,
    password_hash: str,
    token: str,
    where: str | Callable[[str], str] = "[web]",
) -> None:
    """Refuse what the web server cannot work with: an address that is not
    "host:port", a LAN address without a password or token, a password that
    is not hashed or whose hash is malformed, a short token. ``where`` names
    each key: a section (``"[web]"``) or a function of the key's name."""

    def place(key: str) -> str:
        return where(key) if callable(where) else f"{where} {key}"

    if password_hash:
        try:
            parse_hash(password_hash)
        except ValueError as exc:
            raise ConfigError(
                M_(
                    "{where}: {fault}; run `boardctl web password` and paste the line it prints",
                    where=place("password_hash"),
                    fault=said(exc),
                )
            ) from None
    if token and len(token) < MIN_TOKEN:
        raise ConfigError(
            M_(
                "{where}: use at least {least} random characters",
                where=place("token"),
                least=MIN_TOKEN,
            )
        )
    if not listen:
        return
    host, _ = split_listen(listen, place("listen"))
    if not loopback(host) and not (password_hash or token):
        raise ConfigError(
            M_(
                "{where} = {listen} opens the pages to the network: set password_hash"
                " (`boardctl web password`) or token for the operator page, or listen on"
                ' "127.0.0.1:8080"',
                where=place("listen"),
                listen=excerpt(listen),
            )
        )


@dataclass(frozen=True, slots=True)
class Session:
    #: "operator" or "player"
    role: str
    #: the seat of a player's session
    player: int | None
    #: what changing requests must carry in the X-CSRF-Token header
    csrf: str
    until: float


class Keys:
    """The operator's credentials and the sessions and links handed out."""

    def __init__(
        self,
        password_hash: str = "",
        token: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.password_hash = password_hash
        self.token = token
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._links: OrderedDict[str, int] = OrderedDict()

    @property
    def open(self) -> bool:
        """Whether the operator page needs no password (served to this machine only)."""
        return not (self.password_hash or self.token)

    def accepts(self, password: str | None = None, token: str | None = None) -> bool:
        if self.open:
            return True
        if token and self.token and hmac.compare_digest(token, self.token):
            return True
        return bool(password and self.password_hash) and check_password(
            password or "", self.password_hash
        )

    def _keep(self, table: OrderedDict[str, object], key: str, value: object) -> None:
        table[key] = value
        while len(table) > KEEP:
            table.popitem(last=False)

    def begin(self, role: str, player: int | None = None) -> tuple[str, Session]:
        """A new session's cookie value and the session."""
        cookie = secrets.token_urlsafe(24)
        session = Session(role, player, secrets.token_urlsafe(24), self.clock() + SESSION_SECONDS)
        self._keep(self._sessions, cookie, session)  # type: ignore[arg-type]
        return cookie, session

    def session(self, cookie: str | None) -> Session | None:
        if not cookie:
            return None
        found = self._sessions.get(cookie)
        if found is None or found.until < self.clock():
            self._sessions.pop(cookie, None)
            return None
        return found

    def link(self, player: int) -> str:
        """A one-time code that opens ``player``'s private page once."""
        code = secrets.token_urlsafe(18)
        self._keep(self._links, code, player)  # type: ignore[arg-type]
        return code

    def redeem(self, code: str) -> int | None:
        """The seat a one-time code was made for (and the code is spent); None if unknown."""
        return self._links.pop(code, None)


#: wrong passwords a client may give before it must wait between guesses
FREE_GUESSES = 3
#: the first wait after those, in seconds; each further wrong password doubles it
GUESS_DELAY = 1.0
#: the longest wait between two guesses, in seconds
MAX_GUESS_DELAY = 60.0
#: wrong passwords from one client after which it is locked out
LOCKOUT_GUESSES = 10
#: how long a locked-out client may not try, in seconds
LOCKOUT_SECONDS = 15 * 60
#: wrong passwords from all clients together before everyone must wait between
#: guesses (as one client would after its free ones; never a lockout, so the
#: operator gets in within a minute however many guess)
FREE_GUESSES_OVERALL = 20
#: a client's wrong passwords, and everyone's, are forgotten this long after the last
FORGET_SECONDS = 60 * 60
#: clients whose wrong passwords are remembered (the longest quiet are forgotten first)
TRACKED_CLIENTS = 1024


@dataclass(slots=True)
class _Guesses:
    wrong: int = 0
    last: float = 0.0
    locked_until: float = 0.0


class Throttle:
    """Wrong passwords slow further guesses, per client and overall: after a
    few free ones each needs a wait that doubles with every wrong password,
    and a client that keeps guessing is locked out for a while. Pure: the
    clock is given; the web server asks :meth:`wait` before checking a
    password and reports :meth:`failed` or :meth:`succeeded` after."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._clients: OrderedDict[str, _Guesses] = OrderedDict()
        self._overall = _Guesses()

    def _current(self, client: str) -> _Guesses | None:
        found = self._clients.get(client)
        now = self.clock()
        if found is not None and now - found.last > FORGET_SECONDS and found.locked_until <= now:
            del self._clients[client]
            return None
        return found

    def wait(self, client: str) -> float:
        """Seconds ``client`` must wait before its next guess (0: it may try now)."""
        now = self.clock()
        waits = [0.0]
        mine = self._current(client)
        if mine is not None:
            waits.append(mine.locked_until - now)
            waits.append(mine.last + _delay(mine.wrong, FREE_GUESSES) - now)
        overall = self._overall
        if now - overall.last > FORGET_SECONDS:
            overall.wrong = 0
        waits.append(overall.last + _delay(overall.wrong, FREE_GUESSES_OVERALL) - now)
        return max(waits)

    def locked(self, client: str) -> bool:
        mine = self._current(client)
        return mine is not None and mine.locked_until > self.clock()

    def failed(self, client: str) -> bool:
        """A wrong password from ``client``; True when this one locks it out
        (the moment to say so, once)."""
        now = self.clock()
        mine = self._current(client) or _Guesses()
        mine.wrong += 1
        mine.last = now
        self._clients[client] = mine
        self._clients.move_to_end(client)
        while len(self._clients) > TRACKED_CLIENTS:
            self._clients.popitem(last=False)
        if now - self._overall.last > FORGET_SECONDS:
            self._overall.wrong = 0
        self._overall.wrong += 1
        self._overall.last = now
        if mine.wrong >= LOCKOUT_GUESSES and mine.locked_until <= now:
            mine.locked_until = now + LOCKOUT_SECONDS
            mine.wrong = 0
            return True
        return False

    def succeeded(self, client: str) -> None:
        """The right password from ``client``: its wrong ones are forgotten."""
        self._clients.pop(client, None)


def _delay(wrong: int, free: int) -> float:
    """The wait after ``wrong`` wrong passwords of which ``free`` cost none."""
    if wrong < free:
        return 0.0
    return min(GUESS_DELAY * 2 ** min(wrong - free, 16), MAX_GUESS_DELAY)
