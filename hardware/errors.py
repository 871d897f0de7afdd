"""The errors of the hardware package, all rooted in :mod:`boardctl.errors`."""

from __future__ import annotations

from boardctl.errors import BoardctlError, ConfigError
from boardctl.message import Mn_, joined


class HardwareError(BoardctlError, RuntimeError):
    """Root of the errors raised while driving sensors and LEDs."""


class HardwareUnavailable(HardwareError):
    """A backend cannot start here: its library, device or permission is missing.

    The message says which and what to do on the board (install a package, enable
    SPI, choose another backend in the profile); each command adds its own way to
    go on without the board (``--sim``, or ``boardctl sim``)."""


class ProfileError(ConfigError):
    """A board profile with one or more problems; ``problems`` lists them all."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = list(problems)
        head = Mn_(
            "{source}: {n} problem in the board profile",
            "{source}: {n} problems in the board profile",
            len(self.problems),
            source=source,
        )
        # each problem on a line of its own, indented under the head
        super().__init__(joined([head, *self.problems], "\n  "))
