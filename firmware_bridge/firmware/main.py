"""MicroPython entry point for the RP2040 (Raspberry Pi Pico) board controller.

Copy to the Pico's filesystem together with ``protocol.py``, ``core.py``,
``scanner.py`` and ``hardware.py`` (see docs/firmware.md), edit BOARD below,
and reset. It speaks the boardctl protocol over USB CDC (the REPL's port), so
keyboard interrupts are switched off while it runs: join GP0 to GND at reset
to keep the REPL instead.
"""

import os
import select
import sys
import time

import core
import machine
import micropython
import scanner

import hardware

# ---------------------------------------------------------------- the board
BOARD = {
    "board_id": "shiftago-1",
    # "mux": 74HC4067s sharing S0..S3; "shift": a 74HC165 chain
    "bus": "mux",
    "channels": 77,
    # per channel: 1 presence, 2 piece code (ADC bands), 3 light gate
    "kinds": bytes([1] * 49 + [3] * 28),
    "mux_selects": (2, 3, 4, 5),
    "mux_inputs": (6, 7, 8, 9, 10),
    "mux_enables": (),
    "adc_inputs": (),  # e.g. (26, 27, 28) for piece codes through ADC0..2
    "code_bands": [(12000, 1), (28000, 2), (44000, 3)],
    "shift_pins": (14, 15, 16),  # SH/LD, CLK, QH
    "stable_scans": 3,
    "leds": 28,
    "led_pin": 22,
    # joined to GND at reset: main.py exits and the REPL stays (to update files)
    "repl_pin": 0,
}


def build_reader():
    Pin = machine.Pin
    if BOARD["bus"] == "shift":
        ld, clk, qh = BOARD["shift_pins"]
        chain = hardware.ShiftChain(
            Pin(ld, Pin.OUT), Pin(clk, Pin.OUT), Pin(qh, Pin.IN, Pin.PULL_UP), BOARD["channels"]
        )
        return chain.read_all
    selects = [Pin(n, Pin.OUT) for n in BOARD["mux_selects"]]
    enables = [Pin(n, Pin.OUT) for n in BOARD["mux_enables"]]
    if BOARD["adc_inputs"]:
        inputs = [machine.ADC(n) for n in BOARD["adc_inputs"]]
        codes = hardware.CodeBands(BOARD["code_bands"])
    else:
        inputs = [Pin(n, Pin.IN, Pin.PULL_UP) for n in BOARD["mux_inputs"]]
        codes = None
    bank = hardware.MuxBank(
        selects, inputs, BOARD["channels"], enables, codes, settle=lambda: time.sleep_us(2)
    )
    return bank.read_all


def build_leds():
    if not BOARD["leds"]:
        return None
    import neopixel

    strip = neopixel.NeoPixel(machine.Pin(BOARD["led_pin"]), BOARD["leds"])

    def show(pixels):
        for i in range(BOARD["leds"]):
            strip[i] = (pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2])
        strip.write()

    return show


def new_boot_id():
    """A random number at every reset, so the host notices a restart. The rp2
    port's os.urandom reads the RP2040's ring oscillator; a port without it
    falls back to random, which MicroPython seeds from the chip at start."""
    try:
        return int.from_bytes(os.urandom(4), "big")
    except (AttributeError, OSError):
        import random

        return random.getrandbits(32)


def main():
    if machine.Pin(BOARD["repl_pin"], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        return  # the jumper is on: keep the REPL for maintenance
    micropython.kbd_intr(-1)  # 0x03 in a frame must not stop the program
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    boot_id = new_boot_id()
    scan = scanner.Scanner(build_reader(), BOARD["channels"], BOARD["stable_scans"])
    scan.prime()
    link = core.McuLink(
        out.write,
        scan.values,
        BOARD["kinds"],
        BOARD["leds"],
        BOARD["board_id"],
        boot_id,
        show_leds=build_leds(),
        ticks_diff=time.ticks_diff,
    )
    wdt = machine.WDT(timeout=2000)
    while True:
        now = time.ticks_ms()
        if poll.poll(0):
            data = inp.read(1)  # USB CDC: read what is there, byte by byte
            while data and poll.poll(0):
                data += inp.read(1)
            link.receive(data, now)
        changes = scan.scan()
        if changes:
            link.changes(changes)
        link.poll(now)
        wdt.feed()
        time.sleep_ms(1)


main()
