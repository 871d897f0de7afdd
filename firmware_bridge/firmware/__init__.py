"""The reference firmware for the board's microcontroller (MicroPython on an RP2040).

Every module here except ``main.py`` and ``simulated.py`` runs unchanged under
MicroPython and CPython: ``core`` speaks the protocol, ``scanner`` debounces,
``hardware`` reads multiplexers and shift registers through pin objects.
``main.py`` wires them to ``machine`` pins on the Pico; ``simulated`` gives
CPython pin twins, and :mod:`firmware_bridge.virtual` runs it all behind a pty.
"""
