"""The firmware's scanning under CPython, through simulated pins."""

from __future__ import annotations

import pytest

from firmware_bridge.firmware.hardware import CodeBands, MuxBank, ShiftChain
from firmware_bridge.firmware.scanner import Scanner
from firmware_bridge.firmware.simulated import SimMuxBoard, SimShiftBoard


def test_a_change_counts_only_once_it_held_for_the_set_number_of_scans() -> None:
    raw = [0, 0, 0]
    sc = Scanner(lambda: list(raw), 3, stable_scans=3)
    sc.prime()
    raw[1] = 1
    assert sc.scan() == [] and sc.scan() == []
    assert sc.scan() == [(1, 1)]
    assert sc.values == [0, 1, 0]


def test_a_bounce_shorter_than_the_debounce_is_never_reported() -> None:
    raw = [0]
    sc = Scanner(lambda: list(raw), 1, stable_scans=3)
    sc.prime()
    for level in (1, 0, 1, 1, 0, 0, 0):
        raw[0] = level
        assert sc.scan() == []
    assert not sc.pending()


def test_a_reading_that_changes_mid_debounce_starts_again() -> None:
    raw = [0]
    sc = Scanner(lambda: list(raw), 1, stable_scans=2)
    sc.prime()
    raw[0] = 5
    sc.scan()
    raw[0] = 7
    assert sc.scan() == []
    assert sc.scan() == [(0, 7)]


def test_stable_scans_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="stable_scans is 0"):
        Scanner(lambda: [0], 1, stable_scans=0)


def test_mux_bank_reads_every_channel_through_the_select_lines() -> None:
    board = [0] * 40
    board[0] = board[17] = board[39] = 1
    sim = SimMuxBoard(board)
    bank = MuxBank(sim.selects, sim.inputs, 40, sim.enables)
    assert bank.read_all() == board
    board[17] = 0
    board[5] = 1
    assert bank.read_all() == board
    # every multiplexer is disabled again after its read
    assert all(en.state == 1 for en in sim.enables)


def test_mux_bank_reads_piece_codes_through_adc_bands() -> None:
    bands = CodeBands([(12000, 1), (28000, 2), (44000, 3)])
    board = [0, 1, 2, 3, 0, 2]
    sim = SimMuxBoard(board, codes=bands, with_enables=False)
    bank = MuxBank(sim.selects, sim.inputs, 6, codes=bands)
    assert bank.read_all() == board


def test_shift_chain_reads_presence_bit_by_bit() -> None:
    board = [1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1]
    sim = SimShiftBoard(board)
    chain = ShiftChain(sim.load, sim.clock, sim.data, 16)
    assert chain.read_all() == board
    board[2] = 1
    assert chain.read_all() == board


def test_wiring_mistakes_are_refused_with_the_reason() -> None:
    sim = SimMuxBoard([0] * 20)
    with pytest.raises(ValueError, match="4 select lines"):
        MuxBank(sim.selects[:3], sim.inputs, 20)
    with pytest.raises(ValueError, match="need 3 multiplexers"):
        MuxBank(sim.selects, sim.inputs, 40)
    with pytest.raises(ValueError, match="must rise"):
        CodeBands([(100, 1), (50, 2)])
