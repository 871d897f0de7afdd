"""boardctl: turns a physical line-game board into an electronic one.

The package is layered. ``boardctl.engines`` (the rules), ``boardctl.records``
(game records) and the reconciliation and LED scene modules are pure: no I/O,
no threads, no clock. Hardware (``hardware``), the serial link
(``firmware_bridge``), storage and the daemon wrap that core.
"""

__version__ = "0.1.0"
