"""The board's sound on a phone's page, in a real browser (Debian's chromium):
nothing plays before a tap (the browsers' autoplay rules), the visible button
turns it on and off, and then each cue the board plays is played with the
browser's audio (counted on an instrumented AudioContext) and each sentence
said by its voice; the operator changes the sound and checks the speaker."""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from boardctl.sim.session import Simulation

#: bounds on waits for events (each ends as soon as its event comes): what a
#: page shows, in Chromium (ms), and what the daemon does (s), espeak-ng and
#: the sound worker included; a loaded machine may take seconds for either
WAIT = 20000  # ms
DAEMON_WAIT = 30.0  # s

#: counts what the page asks of the browser's audio and voice
INSTRUMENT = """
window.heardHere = { contexts: 0, oscillators: 0, started: 0, said: [] };
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  constructor(...args) { super(...args); window.heardHere.contexts += 1; }
  createOscillator() {
    const osc = super.createOscillator();
    window.heardHere.oscillators += 1;
    const start = osc.start.bind(osc);
    osc.start = (...args) => { window.heardHere.started += 1; return start(...args); };
    return osc;
  }
};
if (window.speechSynthesis) {
  window.speechSynthesis.speak = (u) => window.heardHere.said.push([u.text, u.lang]);
}
"""
#: a browser with an English voice
SPEAKS = """
if (window.speechSynthesis) {
  window.speechSynthesis.getVoices = () => [{ lang: "en-US", name: "English" }];
}
"""
#: a browser without any voice (many on Linux): the board's own is fetched and played
MUTE = """
window.speechSynthesis.getVoices = () => [];
window.heardHere.buffers = 0;
window.AudioContext.prototype.createBufferSource = function () {
  const source = RealContext.prototype.createBufferSource.call(this);
  const start = source.start.bind(source);
  source.start = (...args) => {
    window.heardHere.buffers += 1;
    window.heardHere.seconds = source.buffer.duration;
    return start(...args);
  };
  return source;
};
"""


@pytest.fixture
def sim() -> Iterator[Simulation]:
    with Simulation(
        "shiftago",
        overrides=['web.listen="127.0.0.1:0"', "controller.settle_ms=40", "sound.voice=true"],
    ) as s:
        yield s


def _move(sim: Simulation, page: Any, hand: str) -> None:
    n = len(sim.status()["moves"])
    sim.hands(hand)
    sim.wait_status(lambda st: len(st["moves"]) == n + 1, DAEMON_WAIT)
    page.wait_for_function(f"document.body.dataset.moves === '{n + 1}'", timeout=WAIT)


def _heard(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("window.heardHere"))


def test_the_phone_plays_the_boards_cues_after_a_tap(sim: Simulation, page: Any) -> None:
    page.add_init_script(INSTRUMENT + SPEAKS)
    page.goto(f"{sim.daemon.web.url}/")
    button = page.locator("#sound")
    assert button.inner_text().startswith("Sound off")
    _move(sim, page, "insert W3")
    assert _heard(page) == {"contexts": 0, "oscillators": 0, "started": 0, "said": []}, (
        "nothing plays before a tap"
    )
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert button.inner_text().startswith("Sound on")
    _move(sim, page, "insert E3")
    # the accepted tick (one note) and the turn's two notes, and the words
    page.wait_for_function(
        "window.heardHere.said.some(([text]) => text === 'Blue to play')", timeout=WAIT
    )
    heard = _heard(page)
    assert heard["contexts"] == 1
    assert heard["started"] >= 3 and heard["started"] == heard["oscillators"]
    assert heard["said"] == [["Blue to play", "en"]], "only what came after the tap"
    button.click()  # off again: silence
    assert button.get_attribute("aria-pressed") == "false"
    _move(sim, page, "insert W4")
    sim.wait_status(lambda st: st["sound"]["heard"][-1]["text"] == "Red to play", DAEMON_WAIT)
    assert _heard(page)["said"] == heard["said"]
    assert _heard(page)["started"] == heard["started"]


def test_the_operator_changes_the_sound_and_checks_the_speaker(sim: Simulation, page: Any) -> None:
    page.goto(f"{sim.daemon.web.url}/operator")
    page.wait_for_function(
        "document.getElementById('sound-note').textContent.includes('quiet')", timeout=WAIT
    )
    assert page.locator("#sound-voice").is_checked()
    assert page.locator("#sound-volume").input_value() == "70"
    page.locator("#sound-voice").uncheck()
    page.locator("#sound-quiet").fill("22:00-08:00")
    page.locator("#sound-save").click()
    page.wait_for_function(
        "document.getElementById('said').textContent === 'sound settings saved'", timeout=WAIT
    )
    sound = sim.request({"cmd": "sound"})["sound"]
    assert (sound["voice"], sound["quiet"]) == (False, "22:00-08:00")
    page.locator("#sound-quiet").fill("25:00-08:00")
    page.locator("#sound-save").click()
    page.wait_for_function(
        "document.getElementById('said').textContent.includes('quiet hours')", timeout=WAIT
    )
    sim.audio.fail = "no speaker on ALSA device 'default' (audio open error)"
    page.locator("#sound-check").click()
    assert sim.audio.wait_for(
        lambda heard: any(p.text.startswith("This is the board's voice") for p in heard),
        DAEMON_WAIT,
    )
    # the board knows its speaker failed; then its page must say so
    sim.wait_status(lambda st: "no speaker" in (st["sound"].get("fault") or ""), DAEMON_WAIT)
    page.wait_for_function(
        "document.getElementById('sound-note').textContent.includes('no speaker')", timeout=WAIT
    )


def test_a_browser_without_a_voice_plays_the_boards_own(sim: Simulation, page: Any) -> None:
    if shutil.which("espeak-ng") is None:
        warnings.warn(
            "espeak-ng is not installed: the pages' board voice is not tested", stacklevel=1
        )
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    page.add_init_script(INSTRUMENT + MUTE)
    page.goto(f"{sim.daemon.web.url}/")
    page.locator("#sound").click()
    _move(sim, page, "insert W3")
    page.wait_for_function("window.heardHere.buffers === 1", timeout=WAIT)
    heard = _heard(page)
    assert heard["said"] == [], "the browser's own voice is not asked"
    assert 0.4 < heard["seconds"] < 4, "'Red to play' in the board's voice"
    number = sim.status()["sound"]["heard"][-1]["n"]
    with urllib.request.urlopen(f"{sim.daemon.web.url}/api/voice/{number}") as r:
        assert r.headers["Content-Type"] == "audio/wav" and r.read(4) == b"RIFF"
    for bad in ("999", "x", "1" * 20):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{sim.daemon.web.url}/api/voice/{bad}")
        assert refused.value.code == 404
