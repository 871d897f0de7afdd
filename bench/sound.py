"""The board's sound: what it costs the loop, the worker's render times and its memory.

Prints:

- the loop's share: hearing one turn's status (``Sounder.hear``, nothing due, and a
  turn with a cue and a sentence due) and handing an utterance to the worker
  (``Speaker.say``), in microseconds (target: under 100 us, a small part of a
  30 frames/s turn);
- drawing each cue's tones (pure Python), in milliseconds;
- rendering a sentence with espeak-ng (a process each), cold and from the cache, in
  English, German and French, in milliseconds (skipped without espeak-ng);
- the worker's resident memory: this process with the daemon's controller imported, then
  the sound imported, the worker started, and its cache full of rendered sentences (target:
  under 10 MB for the whole of it).

    .venv/bin/python bench/sound.py [--sentences 64]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import time
from datetime import datetime
from pathlib import Path


def rss_mb() -> float:
    for line in Path(f"/proc/{os.getpid()}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def median_us(run, repeat: int = 2000) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sentences", type=int, default=64, help="sentences rendered into the cache"
    )
    args = parser.parse_args()

    # the daemon's own modules, loaded in any case: the sound's cost is what comes after
    import boardctl.controller.lighting
    import boardctl.controller.loop  # noqa: F401

    before = rss_mb()
    from boardctl.daemon.sound import Sounder
    from boardctl.sound.cues import Cue, wav_of
    from boardctl.sound.notices import Board
    from boardctl.sound.settings import SoundSettings
    from hardware.audio import RecordingAudio, Speaker, Utterance
    from hardware.audio.espeak import Espeak

    imported = rss_mb()
    espeak = Espeak() if shutil.which("espeak-ng") else None
    twin = RecordingAudio(limit=100)
    speaker = Speaker(twin, espeak)
    speaker.start()
    started = rss_mb()

    # -- the loop's share ---------------------------------------------------------------
    board = Board(("blue", "red"), {"p0": "blue marble", "p1": "red marble"}, {})
    idle = Sounder(SoundSettings(voice=True), None, local=lambda: datetime(2026, 1, 1, 12))
    still = {
        "game": "shiftago",
        "options": {},
        "phase": "awaiting_move",
        "moves": ["W1"],
        "to_move": 1,
    }
    idle.hear(still, board)
    print(f"hear a turn, nothing due          {median_us(lambda: idle.hear(still, board)):8.1f} us")
    turns = [
        {**still, "moves": ["W1", "E1"], "to_move": 0},
        {**still, "moves": ["W1", "E1", "W2"], "to_move": 1},
    ]
    busy = Sounder(SoundSettings(voice=True), None, local=lambda: datetime(2026, 1, 1, 12))
    flip = [0]

    def hear_due() -> None:
        flip[0] ^= 1
        busy.hear(turns[flip[0]], board)

    print(f"hear a turn, cue and sentence due {median_us(hear_due):8.1f} us")
    line = Speaker(RecordingAudio(), None)  # not started: say() alone
    u = Utterance("turn", "your_turn", "Red to play")
    print(f"Speaker.say                       {median_us(lambda: line.say(u)):8.1f} us")

    # -- the worker's share ---------------------------------------------------------------
    for cue in Cue:
        ms = median_us(lambda c=cue: wav_of(c, 0.7), repeat=20) / 1000
        print(f"draw cue {cue.value:<10}               {ms:8.1f} ms")
    if espeak is None:
        print("espeak-ng is not installed: no render times (apt-get install espeak-ng)")
    else:
        for language, text in [
            ("en", "The computer plays e3 to e4"),
            ("de", "Der Computer spielt e3 nach e4"),
            ("fr", "L'ordinateur joue e3 vers e4"),
        ]:
            cold = []
            for n in range(10):
                start = time.perf_counter()
                espeak.render(f"{text} {n}", language, 70)
                cold.append(time.perf_counter() - start)
            print(
                f"espeak-ng render, {language}, cold      {statistics.median(cold) * 1000:8.1f} ms"
            )
        key = ("Red to play", "en", 70)
        speaker.cache.get(key, lambda: espeak.render("Red to play", "en", 70))
        hit = median_us(lambda: speaker.cache.get(key, lambda: b""), repeat=1000)
        print(f"rendered sentence from the cache  {hit:8.1f} us")
    for n in range(args.sentences):
        speaker.say(Utterance(f"s{n}", None, f"The computer plays W{n % 7 + 1}, then E{n}"))
        speaker.idle(30)
    full = rss_mb()
    speaker.close()
    print(f"cache: {len(speaker.cache)} sentences, {speaker.cache.bytes / 1e6:.2f} MB")
    print(
        f"resident memory: {before:.1f} MB before, {imported:.1f} MB imported, "
        f"{started:.1f} MB worker started, {full:.1f} MB cache full "
        f"(+{full - before:.1f} MB in all)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
