"""``[mqtt]``: where the broker is, who the board is on it, and how it signs in.

:func:`check_settings` refuses what cannot work, naming the key, as the
configuration does for every section (``boardctl config show`` and the daemon
alike). :func:`connection` reads the password file when the daemon starts:
never before, and never into the configuration that ``config show`` prints.
"""

from __future__ import annotations

import os
import re
import socket
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from boardctl.errors import ConfigError
from boardctl.message import M_, said

if TYPE_CHECKING:
    from boardctl.config import MqttConfig

#: a board's id: it is a topic level, so none of MQTT's wildcards or separators
BOARD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True, slots=True)
class Broker:
    """A broker's address: ``mqtt://host:port`` (``tls`` for ``mqtts://``)."""

    host: str
    port: int
    tls: bool = False

    @classmethod
    def from_url(cls, url: str) -> Broker:
        """``mqtt://host[:port]`` or ``mqtts://host[:port]``; ValueError saying what to write."""
        example = M_('e.g. "mqtt://192.168.1.10:1883" or "mqtts://broker.example.org:8883"')
        try:
            parts = urlsplit(url.strip())
            port = parts.port
        except ValueError:
            raise ValueError(
                M_("{url} is not a broker's address; {example}", url=repr(url), example=example)
            ) from None
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
            raise ValueError(
                M_(
                    "{url} is not a broker's address: it begins mqtt:// or mqtts:// and names"
                    " the host; {example}",
                    url=repr(url),
                    example=example,
                )
            )
        if parts.username or parts.password:
            raise ValueError(
                M_(
                    "{url} holds a user or password: give them in [mqtt] user and"
                    " password_file, never in the address (it is printed and logged)",
                    url=repr(url),
                )
            )
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(
                M_(
                    "{url}: a broker's address has no path; {example}",
                    url=repr(url),
                    example=example,
                )
            )
        if port == 0:
            raise ValueError(
                M_("{url}: the port is 1 to 65535; {example}", url=repr(url), example=example)
            )
        return cls(parts.hostname, port or DEFAULT_PORTS[parts.scheme], parts.scheme == "mqtts")

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{self.port}"


def board_id_of(configured: str) -> str:
    """The board's id: the configured one, else the host name made fit for a topic."""
    if configured:
        return configured
    host = socket.gethostname().split(".")[0]
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "-", host).strip("-_") or "board"
    return cleaned[:64]


def check_settings(mqtt: MqttConfig, place: Callable[[str], str]) -> None:
    """Refuse ``[mqtt]`` settings that cannot work; ``place(key)`` names where each was set."""
    if not mqtt.broker:
        return
    try:
        broker = Broker.from_url(mqtt.broker)
    except ValueError as exc:
        raise ConfigError(M_("{where}: {fault}", where=place("broker"), fault=said(exc))) from None
    if mqtt.board_id and not BOARD_ID.fullmatch(mqtt.board_id):
        raise ConfigError(
            M_(
                "{where}: {board} cannot name a board on the broker: use letters, digits, -"
                ' and _ (at most 64, the first a letter or digit), e.g. "table-3"',
                where=place("board_id"),
                board=repr(mqtt.board_id),
            )
        )
    if mqtt.password_file and not mqtt.user:
        raise ConfigError(
            M_(
                "{where}: a password without a user; set [mqtt] user as well",
                where=place("password_file"),
            )
        )
    if mqtt.ca_file and not broker.tls:
        raise ConfigError(
            M_(
                "{where}: a certificate authority for a broker without TLS; write the broker"
                " as mqtts://host:8883",
                where=place("ca_file"),
            )
        )
    prefix = mqtt.discovery_prefix
    if not prefix or any(c in prefix for c in "#+") or prefix.startswith("/"):
        raise ConfigError(
            M_(
                '{where}: {prefix} is not a topic prefix; Home Assistant\'s is "homeassistant"',
                where=place("discovery_prefix"),
                prefix=repr(prefix),
            )
        )


@dataclass(frozen=True, slots=True)
class Connection:
    """What the broker client needs: the broker, the board's id, how it signs in."""

    broker: Broker
    board_id: str
    user: str = ""
    password: str = field(default="", repr=False)
    ca_file: str = ""
    discovery: bool = True
    discovery_prefix: str = "homeassistant"

    @property
    def signed_in(self) -> bool:
        """Whether the board signs in as a user (only then does it take commands)."""
        return bool(self.user)


def read_password(path: str, place: str) -> str:
    """The first line of the password file at ``path``, refused when any other
    user of the machine may read it."""
    try:
        info = os.stat(path)
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            M_(
                "{where}: cannot read the password file {path}: {why}; give a file the"
                " service's user may read",
                where=place,
                path=path,
                why=exc.strerror or str(exc),
            )
        ) from None
    if info.st_mode & (stat.S_IRWXO):
        raise ConfigError(
            M_(
                "{where}: {path} may be read by any user of this machine; `chmod 600 {path}`"
                " (or 640 with the service's group)",
                where=place,
                path=path,
            )
        )
    lines = text.splitlines()
    password = lines[0] if lines else ""
    if not password:
        raise ConfigError(M_("{where}: the password file {path} is empty", where=place, path=path))
    return password


def connection(mqtt: MqttConfig, place: Callable[[str], str]) -> Connection:
    """The settings of ``[mqtt]`` with the password read (``[mqtt] broker`` set)."""
    check_settings(mqtt, place)
    password = (
        read_password(mqtt.password_file, place("password_file")) if mqtt.password_file else ""
    )
    return Connection(
        Broker.from_url(mqtt.broker),
        board_id_of(mqtt.board_id),
        mqtt.user,
        password,
        mqtt.ca_file,
        mqtt.discovery,
        mqtt.discovery_prefix,
    )
