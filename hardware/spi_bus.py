"""What the SPI LEDs and the SPI shift-register reader share: spidev, imported
only when a device opens (it exists only on a Pi), and a device opened with a
message that says how to enable its bus when it cannot be."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from boardctl.message import M_
from hardware.errors import HardwareUnavailable

log = logging.getLogger(__name__)

#: makes an unopened ``spidev.SpiDev``
SpiFactory = Callable[[], Any]

#: the line in /boot/firmware/config.txt that enables each bus; ``{n}`` is how
#: many chip selects (device + 1)
ENABLE = {0: "dtparam=spi=on", 1: "dtoverlay=spi1-{n}cs"}


def spidev_class(what: str) -> SpiFactory:
    """``spidev.SpiDev``; ``what`` starts the message when spidev is missing
    (``"cannot start the SPI LEDs"``)."""
    try:
        import spidev
    except ImportError as e:
        raise HardwareUnavailable(
            M_(
                "{what}: spidev is not installed (on the Pi: pip install spidev, or apt install"
                " python3-spidev)",
                what=what,
            )
        ) from e
    factory: SpiFactory = spidev.SpiDev
    return factory


def open_device(factory: SpiFactory, bus: int, device: int, what: str) -> Any:
    """``/dev/spidev<bus>.<device>`` opened; ``what`` ("for the LEDs") says in the
    error what it was for."""
    spi = factory()
    try:
        spi.open(bus, device)
    except OSError as e:
        close_quietly(spi)
        enable = ENABLE.get(bus, "dtoverlay=spi{bus}-{n}cs").format(bus=bus, n=device + 1)
        raise HardwareUnavailable(
            M_(
                "cannot open /dev/spidev{bus}.{device} {what}: {why}; enable SPI bus {bus}"
                " ({enable} in /boot/firmware/config.txt, then reboot) and add the user to the"
                " spi group",
                bus=bus,
                device=device,
                what=what,
                why=e.strerror or str(e),
                enable=enable,
            )
        ) from None
    return spi


def close_quietly(spi: Any) -> None:
    try:
        spi.close()
    except OSError as e:  # closing what failed to open or configure
        log.debug("closing the SPI device: %s", e)
