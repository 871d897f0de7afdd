"""Mosquitto from Debian's package on loopback, for the fleet's tests.

:class:`Mosquitto` runs the broker on a free port of 127.0.0.1 with a
configuration of its own (anonymous, or with a password file and an ACL), and
can be restarted, killed and started again on the same port. :class:`Listener`
is a plain MQTT client that keeps what it receives, so a test waits on what a
subscriber would see. Without ``mosquitto`` the tests that need it are
skipped, saying so (``apt-get install mosquitto``; ``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)
PASSWD = shutil.which("mosquitto_passwd")

needs_mosquitto = pytest.mark.skipif(
    MOSQUITTO is None,
    reason="WARNING: mosquitto is not installed: the broker tests are skipped "
    "(apt-get install mosquitto; .ci/run installs it)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """A broker on ``127.0.0.1:port``; ``users`` (name -> password) with
    ``acl`` lines turn anonymous writing off as the ACL says."""

    def __init__(
        self,
        folder: Path,
        *,
        users: dict[str, str] | None = None,
        acl: str = "",
        anonymous: bool = True,
        persistence: bool = False,
    ) -> None:
        assert MOSQUITTO is not None
        self.folder = folder
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        lines = [f"listener {self.port} 127.0.0.1", f"allow_anonymous {str(anonymous).lower()}"]
        if os.geteuid() == 0:
            lines.insert(0, "user root")  # else it drops to a user that cannot read our files
        lines.append(f"persistence {str(persistence).lower()}")
        if persistence:
            lines.append(f"persistence_location {folder}/")
        if users:
            assert PASSWD is not None
            passwords = folder / "passwords"
            for n, (name, password) in enumerate(users.items()):
                flags = ["-b"] if n else ["-c", "-b"]
                subprocess.run(
                    [PASSWD, *flags, str(passwords), name, password],
                    check=True,
                    capture_output=True,
                )
            passwords.chmod(0o600)
            lines.append(f"password_file {passwords}")
        if acl:
            (folder / "acl").write_text(acl)
            (folder / "acl").chmod(0o600)
            lines.append(f"acl_file {folder / 'acl'}")
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.log = folder / "mosquitto.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> Mosquitto:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [MOSQUITTO, "-c", str(self.config)], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                if self.process.poll() is not None:
                    said = self.log.read_text()[-800:]
                    raise RuntimeError(f"mosquitto stopped: {said}") from None
                threading.Event().wait(0.02)
        raise RuntimeError(f"mosquitto did not listen on {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def kill(self) -> None:
        """Gone at once, as a broker whose machine lost power."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def pause(self) -> None:
        """Stalled: its connections stay open and nothing is answered (SIGSTOP)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()


class Silent:
    """A port that takes connections and never answers: a broker stalled, or
    something else listening where the broker should be."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(8)
        self.port = int(self.socket.getsockname()[1])
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.socket.close()


class Listener:
    """An MQTT client that subscribes to ``topics`` and keeps every message."""

    def __init__(
        self,
        broker: Mosquitto,
        topics: tuple[str, ...] = ("#",),
        user: str | None = None,
        password: str | None = None,
    ) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self._cond = threading.Condition()
        self._topics = topics
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_message = self._on_message
        self.client.on_connect = self._on_connect
        self._connected = threading.Event()
        self.client.connect("127.0.0.1", broker.port, keepalive=10)
        self.client.loop_start()
        assert self._connected.wait(10), "the listener could not connect"

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        for t in self._topics:
            client.subscribe(t, qos=1)
        self._connected.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self._cond:
            self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))
            self._cond.notify_all()

    def wait(
        self, predicate: Callable[[str, bytes], bool], timeout: float = 10.0, start: int = 0
    ) -> tuple[str, bytes]:
        """The first message from number ``start`` on that meets ``predicate``."""
        found: list[tuple[str, bytes]] = []

        def seen() -> bool:
            for t, p, _ in self.messages[start:]:
                if predicate(t, p):
                    found.append((t, p))
                    return True
            return False

        with self._cond:
            if not self._cond.wait_for(seen, timeout):
                shown = [(t, p[:80]) for t, p, _ in self.messages[-8:]]
                raise AssertionError(f"no such message in {timeout} s; the last: {shown}")
        return found[0]

    def json_on(
        self, topic: str, predicate: Callable[[Any], bool] = lambda _: True, **kw: Any
    ) -> Any:
        def match(t: str, p: bytes) -> bool:
            if t != topic or not p:
                return False
            return bool(predicate(json.loads(p)))

        return json.loads(self.wait(match, **kw)[1])

    def last(self, topic: str) -> bytes | None:
        with self._cond:
            for t, p, _ in reversed(self.messages):
                if t == topic:
                    return p
        return None

    def publish(self, topic: str, payload: str | bytes, qos: int = 1, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=qos, retain=retain).wait_for_publish(10)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def brokers(tmp_path: Path) -> Iterator[Callable[..., Mosquitto]]:
    """Start brokers as a test asks; each is killed at its end (a test
    module's fixture: ``yield from brokers(tmp_path)``)."""
    made: list[Mosquitto] = []

    def make(**kwargs: Any) -> Mosquitto:
        folder = tmp_path / f"broker{len(made)}"
        folder.mkdir()
        broker = Mosquitto(folder, **kwargs).start()
        made.append(broker)
        return broker

    yield make
    for broker in made:
        if broker.process is not None:
            broker.resume()  # a paused broker is killed all the same
        broker.kill()
