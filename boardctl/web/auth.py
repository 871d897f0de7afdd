"""Who may do what on the web pages: the operator's password (stored hashed)
or token, the sessions they open, and the one-time links to a player's page.

Kept in memory only: a restart signs everyone out and voids unused links.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from boardctl.errors import ConfigError

#: PBKDF2 rounds for a new password (about a tenth of a second on a Pi Zero 2 W)
ROUNDS = 200_000
#: how many sessions and unused links are kept at most (the oldest go first)
KEEP = 64
#: how long an operator's session lasts, in seconds
SESSION_SECONDS = 12 * 3600


def hash_password(password: str, *, rounds: int = ROUNDS, salt: bytes | None = None) -> str:
    """The ``[web] password_hash`` line's value for ``password``."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, rounds)
    return f"pbkdf2-sha256${rounds}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` (a :func:`hash_password` value) hashes."""
    try:
        scheme, rounds, salt, digest = stored.split("$")
        if scheme != "pbkdf2-sha256":
            return False
        got = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(rounds))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


def split_listen(listen: str, where: str = "[web] listen") -> tuple[str, int]:
    """``"host:port"`` as (host, port); :class:`ConfigError` naming ``where`` if it is not."""
    host, sep, port = listen.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f'{where}: write "host:port", e.g. "127.0.0.1:8080", not {listen!r}')
    return host, int(port)


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_settings(listen: str, password_hash: str, token: str, where: str = "[web]") -> None:
    """Refuse a LAN address without a password or token, and a password that is not hashed."""
    host, _ = split_listen(listen, f"{where} listen")
    if password_hash and not password_hash.startswith("pbkdf2-sha256$"):
        raise ConfigError(
            f"{where} password_hash: not a hashed password; run `boardctl web password` "
            "and paste the line it prints"
        )
    if token and len(token) < 16:
        raise ConfigError(f"{where} token: use at least 16 random characters")
    if not loopback(host) and not (password_hash or token):
        raise ConfigError(
            f"{where} listen = {listen!r} opens the pages to the network: set password_hash "
            "(`boardctl web password`) or token for the operator page, or listen on "
            '"127.0.0.1:8080"'
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
        self, password_hash: str = "", token: str = "", clock: Callable[[], float] = time.time
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
