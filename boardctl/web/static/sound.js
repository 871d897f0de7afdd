// The board's sound on this phone or screen (docs/sound.md): for a board
// without a speaker, the page plays the same cues with the browser's audio and
// says the same sentences with its voice (or, where the browser has none of the
// board's language, with the board's own, fetched as WAV). Browsers play nothing before a tap,
// so it is off until the button is tapped; the button always shows whether it
// is on. It plays what the board plays: the sounds in the state's "sound"
// part, each once, in order, none from before the page was opened.
"use strict";

const boardSound = {
  on: false,
  ctx: null,
  notes: null,
  seen: null,  // the number of the newest sound already heard (or skipped)
  button: null,
  voiceAt: 0,  // when the board's voice played on this page is done (the context's time)
};

function soundButtonText() {
  return boardSound.on ? _("Sound on (tap for silence)") : _("Sound off (tap to hear the board)");
}

function soundButton() {
  const header = document.querySelector("header");
  if (!header || !(window.AudioContext || window.webkitAudioContext)) return;
  const b = document.createElement("button");
  b.type = "button";
  b.id = "sound";
  b.className = "sound";
  b.setAttribute("aria-pressed", "false");
  b.textContent = soundButtonText();
  b.onclick = soundToggle;
  header.append(b);
  boardSound.button = b;
  soundNotes();
}

async function soundToggle() {
  const s = boardSound;
  s.on = !s.on;
  s.button.textContent = soundButtonText();
  s.button.setAttribute("aria-pressed", String(s.on));
  if (s.on) {
    // created and resumed inside the tap: the browser lets it play from now on
    if (!s.ctx) s.ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (s.ctx.state === "suspended") await s.ctx.resume();
    if (!s.notes) await soundNotes();
  } else if (window.speechSynthesis) {
    window.speechSynthesis.cancel();
  }
}

// the notes of every cue, as the board plays them
async function soundNotes() {
  try {
    const r = await fetch("/api/cues", { credentials: "same-origin" });
    boardSound.notes = (await r.json()).cues;
  } catch (e) {
    boardSound.notes = null;  // asked again at the next tap
  }
}

// One cue: each note a sine with its overtones, a quick attack and a gentle
// decay, as the board draws them (boardctl/sound/cues.py).
function playCue(name, volume) {
  const s = boardSound;
  const notes = s.notes && s.notes[name];
  if (!s.ctx || !notes) return;
  const start = s.ctx.currentTime + 0.02;
  const loudness = 0.5 * Math.max(0, Math.min(1, volume / 100));
  for (const n of notes) {
    const t0 = start + n.at;
    const gain = s.ctx.createGain();
    gain.gain.setValueAtTime(0, t0);
    gain.gain.linearRampToValueAtTime(loudness * n.level, t0 + 0.006);
    gain.gain.setTargetAtTime(0, t0 + 0.006, n.ring);
    gain.gain.linearRampToValueAtTime(0, t0 + n.seconds);
    gain.connect(s.ctx.destination);
    const osc = s.ctx.createOscillator();
    osc.type = "sine";
    osc.frequency.setValueAtTime(n.hz, t0);
    osc.connect(gain);
    osc.start(t0);
    osc.stop(t0 + n.seconds + 0.01);
  }
}

// Whether the browser has a voice of the language (many desktop browsers on
// Linux have none: the board's own voice is fetched instead).
function browserSpeaks(language) {
  const synth = window.speechSynthesis;
  if (!synth || !window.SpeechSynthesisUtterance) return false;
  const code = (language || "en").toLowerCase().split(/[-_]/)[0];
  return synth.getVoices().some((v) => (v.lang || "").toLowerCase().split(/[-_]/)[0] === code);
}

function sayText(item, cueSeconds) {
  if (!item.text) return;
  if (browserSpeaks(item.language)) {
    const synth = window.speechSynthesis;
    const u = new SpeechSynthesisUtterance(item.text);
    u.lang = item.language || "en";
    u.volume = Math.max(0, Math.min(1, item.volume / 100));
    // words not yet said are stale once newer ones come: the newest is said
    if (synth.pending) synth.cancel();
    synth.speak(u);
    return;
  }
  sayWav(item, cueSeconds);
}

// The board's own voice (espeak-ng on the board, /api/voice/N), after the cue
// and after the sentence before it.
async function sayWav(item, cueSeconds) {
  const s = boardSound;
  let buffer;
  try {
    const r = await fetch(`/api/voice/${item.n}`, { credentials: "same-origin" });
    if (!r.ok) return;  // no voice on the board, or gone from its newest
    buffer = await s.ctx.decodeAudioData(await r.arrayBuffer());
  } catch (e) {
    return;
  }
  if (!s.on) return;
  const source = s.ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(s.ctx.destination);
  const at = Math.max(s.ctx.currentTime + cueSeconds, s.voiceAt || 0);
  s.voiceAt = at + buffer.duration;
  source.start(at);
}

function cueSeconds(name) {
  const notes = boardSound.notes && boardSound.notes[name];
  return notes ? Math.max(...notes.map((n) => n.at + n.seconds)) : 0;
}

function hearState(state) {
  const s = boardSound;
  const heard = ((state || {}).sound || {}).heard || [];
  const newest = heard.length ? heard[heard.length - 1].n : 0;
  if (s.seen === null || newest < s.seen) {
    s.seen = newest;  // a page just opened, or a daemon restarted: nothing from before
    return;
  }
  for (const item of heard) {
    if (item.n <= s.seen) continue;
    s.seen = item.n;
    if (!s.on) continue;
    if (item.cue) playCue(item.cue, item.volume);
    if (item.text) sayText(item, item.cue ? cueSeconds(item.cue) : 0);
  }
}

// The operator page's sound settings: shown as the board has them (unless
// being changed), saved and checked with the control socket's "sound" command.
function soundForm() {
  const form = document.getElementById("sound-form");
  if (!form) return null;
  const $s = (id) => document.getElementById(id);
  const shown = () => { $s("sound-volume-shown").textContent = `${$s("sound-volume").value} %`; };
  form.oninput = () => { form.dataset.touched = "1"; shown(); };
  const send = async (body, done) => {
    const reply = await post("/api/command", { cmd: "sound", ...body });
    if (!reply.ok) { say(reply.error, true); return; }
    delete form.dataset.touched;
    showSound(reply.sound, false);  // the note follows the board's pushes alone: they are newer
    say(done);
  };
  form.onsubmit = (e) => {
    e.preventDefault();
    send({
      cues: $s("sound-cues").checked,
      voice: $s("sound-voice").checked,
      volume: Number($s("sound-volume").value),
      quiet: $s("sound-quiet").value.trim(),
    }, _("sound settings saved"));
  };
  $s("sound-check").onclick = () => send({ check: true }, _("a cue and a sentence are on their way to the speaker"));
  return form;
}

function showSound(sound, note = true) {
  const form = document.getElementById("sound-form");
  if (!form || !sound) return;
  const $s = (id) => document.getElementById(id);
  if (!form.dataset.touched && !form.contains(document.activeElement)) {
    $s("sound-cues").checked = sound.cues;
    $s("sound-voice").checked = sound.voice;
    $s("sound-volume").value = sound.volume;
    $s("sound-volume-shown").textContent = `${sound.volume} %`;
    $s("sound-quiet").value = sound.quiet;
  }
  if (!note) return;
  const quiet = sound.quiet ? _("quiet {hours}", { hours: sound.quiet }) : _("never quiet");
  const where = sound.speaker ? _("played on the board's speaker") : _("no speaker on the board");
  const trouble = sound.fault || sound.note || "";
  const line = $s("sound-note");
  line.textContent = `${quiet}; ${where}${trouble ? `: ${trouble}` : ""}.`;
  line.className = sound.fault ? "note bad" : "note";
}

soundForm();
document.addEventListener("boardctl:state", (e) => {
  hearState(e.detail);
  showSound((e.detail || {}).sound);
});
soundButton();
