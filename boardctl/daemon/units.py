"""The systemd unit, sysusers.d and udev files, rendered for an installation.

``systemd/`` in the source tree holds these files rendered for the default
installation (a virtual environment in ``/opt/boardctl/venv``); ``boardctl
service install`` renders them for the running one. A test keeps the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_BOARDCTL = "/opt/boardctl/venv/bin/boardctl"
USER = "boardctl"
#: the microcontroller's stable name, made by the udev rule
MCU_LINK = "boardctl-mcu"
#: USB ids of an RP2040 running MicroPython
MCU_VENDOR = "2e8a"
MCU_PRODUCT = "0005"


@dataclass(frozen=True, slots=True)
class UnitFile:
    """One file to install: where it goes and what it says."""

    path: str
    text: str


def service_unit(boardctl: str = DEFAULT_BOARDCTL) -> str:
    """The service unit for the ``boardctl`` executable at ``boardctl``."""
    return f"""\
# boardctl: the board controller daemon.
# Installed by `boardctl service install`; see docs/install.md.
[Unit]
Description=boardctl electronic board game controller
Documentation=man:systemd.service(5)
# No wait for the microcontroller: the daemon starts without it, shows the
# fault and plays once it answers. The default dependencies already order the
# start after udev's coldplug (sysinit.target) and the boardctl user.
StartLimitIntervalSec=120
StartLimitBurst=5

[Service]
Type=notify
NotifyAccess=main
ExecStart={boardctl} run
Restart=on-failure
RestartSec=2
WatchdogSec=10
TimeoutStartSec=30
TimeoutStopSec=10
Environment=PYTHONUNBUFFERED=1

User={USER}
Group={USER}
SupplementaryGroups=gpio spi dialout audio
StateDirectory=boardctl
StateDirectoryMode=0750
RuntimeDirectory=boardctl
RuntimeDirectoryMode=0750
# lgpio writes its notification pipes into the working directory: a
# writable one on tmpfs, not / (read-only under ProtectSystem=strict)
WorkingDirectory=/run/boardctl
ConfigurationDirectory=boardctl
UMask=0077

# Devices: GPIO character devices, SPI, the microcontroller's serial port, the
# speaker (ALSA). char-NAME is a driver's name in /proc/devices: gpiochip, spi
# (spidev), ttyACM, ttyUSB, alsa.
DevicePolicy=closed
DeviceAllow=char-gpiochip rw
DeviceAllow=/dev/gpiomem rw
DeviceAllow=char-spi rw
DeviceAllow=char-ttyACM rw
DeviceAllow=char-ttyUSB rw
DeviceAllow=char-alsa rw

# Sandbox: nothing beyond the state, runtime and configuration directories.
NoNewPrivileges=yes
CapabilityBoundingSet=
AmbientCapabilities=
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateNetwork=yes
IPAddressDeny=any
RestrictAddressFamilies=AF_UNIX
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
# Other processes stay invisible; /proc's other files stay: gpiozero reads
# /proc/device-tree and /proc/cpuinfo to know the Pi whenever it makes a pin,
# and rpi_ws281x does the same (so no ProcSubset=pid)
ProtectProc=invisible
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
MemoryDenyWriteExecute=yes
RemoveIPC=yes
KeyringMode=private
PrivateMounts=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
# but for the computer player's process, which lowers its own priority below the
# loop's (a raise is refused all the same: no capability allows it)
SystemCallFilter=setpriority
SystemCallErrorNumber=EPERM

[Install]
WantedBy=multi-user.target
"""


def sysusers() -> str:
    """The sysusers.d file that makes the service's user and its groups."""
    return f"""\
# boardctl's service user: reads GPIO and SPI, opens the microcontroller's port,
# plays on the speaker.
u {USER} - "boardctl board controller" /var/lib/boardctl
m {USER} gpio
m {USER} spi
m {USER} dialout
m {USER} audio
"""


def udev_rule(vendor: str = MCU_VENDOR, product: str = MCU_PRODUCT) -> str:
    """The udev rule that names the board's microcontroller /dev/boardctl-mcu."""
    return f"""\
# The board's microcontroller (an RP2040 running MicroPython) gets a stable name.
SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{vendor}", ATTRS{{idProduct}}=="{product}", \\
  SYMLINK+="{MCU_LINK}", GROUP="dialout", MODE="0660", TAG+="systemd"
"""


#: where the Debian package puts each file (deb/build.py): where one is there with the
#: same text, ``boardctl service install`` leaves it in force instead of writing a copy
PACKAGED = {
    "/etc/systemd/system/boardctl.service": "/lib/systemd/system/boardctl.service",
    "/etc/sysusers.d/boardctl.conf": "/usr/lib/sysusers.d/boardctl.conf",
    "/etc/udev/rules.d/70-boardctl.rules": "/lib/udev/rules.d/70-boardctl.rules",
}

#: the drop-in that opens the network for the web pages, written only when they are on
WEB_DROPIN = "/etc/systemd/system/boardctl.service.d/web.conf"
#: the addresses a LAN listener answers: this machine, link-local and the private ranges
LAN = "localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"


def web_dropin(listen: str) -> str:
    """The drop-in that lets the daemon serve its web pages on ``listen``
    (``[web] listen``): this machine only for a loopback address, else the LAN."""
    from boardctl.web.auth import loopback, split_listen

    host, _ = split_listen(listen)
    allow = "localhost" if loopback(host) else LAN
    return f"""\
# boardctl's web pages on {listen} ([web] listen); written by `boardctl service install`
# because they are configured, and removed by it when they are not. See docs/web.md.
[Service]
PrivateNetwork=no
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
IPAddressAllow={allow}
"""


#: the drop-in that opens the network for the MQTT broker, written only when one is set
MQTT_DROPIN = "/etc/systemd/system/boardctl.service.d/mqtt.conf"


def mqtt_dropin(broker: str) -> str:
    """The drop-in that lets the daemon reach its MQTT broker (``[mqtt] broker``):
    the broker's own address when it is written as one, else any (a host name,
    resolved when the daemon connects, may be anywhere: a venue's server or a
    broker on the internet)."""
    import ipaddress

    from boardctl.fleet.settings import Broker

    host = Broker.from_url(broker).host
    try:
        allow = str(ipaddress.ip_address(host))
        if ipaddress.ip_address(host).is_loopback:
            allow = "localhost"
    except ValueError:
        allow = "any"
    return f"""\
# boardctl's MQTT broker {broker} ([mqtt] broker); written by `boardctl service install`
# because it is configured, and removed by it when it is not. See docs/fleet.md.
[Service]
PrivateNetwork=no
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
IPAddressAllow={allow}
"""


def unit_files(
    boardctl: str = DEFAULT_BOARDCTL, web_listen: str = "", mqtt_broker: str = ""
) -> tuple[UnitFile, ...]:
    """Every file ``boardctl service install`` writes, with its system path; the
    web drop-in only when ``web_listen`` names where the web pages are served,
    the MQTT drop-in only when ``mqtt_broker`` names a broker."""
    files: tuple[UnitFile, ...] = (
        UnitFile("/etc/systemd/system/boardctl.service", service_unit(boardctl)),
        UnitFile("/etc/sysusers.d/boardctl.conf", sysusers()),
        UnitFile("/etc/udev/rules.d/70-boardctl.rules", udev_rule()),
    )
    if web_listen:
        files += (UnitFile(WEB_DROPIN, web_dropin(web_listen)),)
    if mqtt_broker:
        files += (UnitFile(MQTT_DROPIN, mqtt_dropin(mqtt_broker)),)
    return files
