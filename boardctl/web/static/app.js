// boardctl's web pages: one script, the page says which it is (<body data-page>).
// The board is drawn from the engine's declaration (sites with kind and x/y,
// pieces, players and colours) and the LED colours as lit: no game is named here.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const page = document.body.dataset.page;
const live = { board: null, state: null, lights: {}, me: null };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function playerName(seat) {
  const p = live.board && live.board.players[seat];
  return p ? `${p.name} (player ${seat + 1})` : `player ${seat + 1}`;
}

function pieceOf(code) {
  return (live.board.pieces || []).find((p) => p.code === code);
}

// -- the board picture ---------------------------------------------------------
// Built once per declared board; each update changes attributes in place.
function buildBoard(holder, onClick) {
  const b = live.board;
  const sites = b.sites;
  // a display's pips (a die's face) sit closer than the board's sites: they do not set its scale
  const spaced = sites.filter((s) => s.kind !== "display");
  let gap = Infinity;
  for (let i = 0; i < spaced.length; i++)
    for (let j = i + 1; j < spaced.length; j++) {
      const d = Math.hypot(spaced[i].x - spaced[j].x, spaced[i].y - spaced[j].y);
      if (d > 0 && d < gap) gap = d;
    }
  if (!isFinite(gap)) gap = 1;
  const r = gap * 0.42;
  const xs = sites.map((s) => s.x), ys = sites.map((s) => s.y);
  const x0 = Math.min(...xs) - gap, y0 = Math.min(...ys) - gap;
  const w = Math.max(...xs) - Math.min(...xs) + 2 * gap;
  const h = Math.max(...ys) - Math.min(...ys) + 2 * gap;
  const root = svg("svg", { viewBox: `${x0} ${y0} ${w} ${h}`, role: "img", "aria-label": `${b.game} board` });
  root.appendChild(svg("rect", { x: x0, y: y0, width: w, height: h, rx: gap / 3, class: "plate" }));
  const parts = {};
  for (const s of sites) {
    const g = svg("g", { class: `site ${s.kind}`, "data-site": s.name });
    const attrs = { class: "spot", "stroke-width": r * 0.22 };
    const spot = s.kind === "display"
      ? svg("circle", { cx: s.x, cy: s.y, r: r * 0.4, ...attrs, "stroke-width": r * 0.08 })
      : s.kind === "cell"
      ? svg("circle", { cx: s.x, cy: s.y, r, ...attrs })
      : svg("rect", { x: s.x - r * 0.8, y: s.y - r * 0.8, width: r * 1.6, height: r * 1.6, rx: r * 0.3, ...attrs });
    const piece = svg("circle", { cx: s.x, cy: s.y, r: r * 0.68, class: "piece", visibility: "hidden" });
    const code = svg("text", { x: s.x, y: s.y + r * 0.18, "font-size": r * 0.5, class: "code" });
    const label = svg("text", { x: s.x, y: s.y - r * 1.05, "font-size": r * 0.38, class: "name" });
    label.textContent = s.kind === "display" ? "" : s.name;  // a pip is too small to name
    const title = svg("title");
    g.append(spot, piece, code, label, title);
    if (onClick && s.kind !== "display") g.addEventListener("click", () => onClick(s, g.getAttribute("data-piece")));
    root.appendChild(g);
    parts[s.name] = { g, spot, piece, code, title, site: s };
  }
  holder.replaceChildren(root);
  holder.dataset.key = JSON.stringify([b.game, b.options, b.board]);
  holder.parts = parts;
}

function drawBoard(holder, onClick) {
  const b = live.board;
  if (!b || !holder) return;
  if (holder.dataset.key !== JSON.stringify([b.game, b.options, b.board])) buildBoard(holder, onClick);
  const layout = (live.state || {}).layout || {};
  for (const { g, spot, piece, code, title, site } of Object.values(holder.parts)) {
    const lit = live.lights[site.name];
    if (lit && Math.max(...[1, 3, 5].map((i) => parseInt(lit.slice(i, i + 2), 16))) >= 24) {
      if (g.getAttribute("data-lit") !== lit) {
        spot.style.fill = spot.style.stroke = lit;
        g.setAttribute("data-lit", lit);
      }
    } else if (g.hasAttribute("data-lit")) {
      spot.style.fill = spot.style.stroke = "";
      g.removeAttribute("data-lit");
    }
    const have = layout[site.name] || null;
    if (g.getAttribute("data-piece") === have) continue;
    const p = have ? pieceOf(have) : null;
    const owner = p && p.owner !== null && p.owner !== undefined ? b.players[p.owner] : null;
    if (have) {
      g.setAttribute("data-piece", have);
      piece.setAttribute("visibility", "visible");
      piece.setAttribute("fill", owner ? owner.colour : "#b0b0b0");
      code.textContent = owner ? "" : have;
    } else {
      g.removeAttribute("data-piece");
      piece.setAttribute("visibility", "hidden");
      code.textContent = "";
    }
    title.textContent = `${site.name} (${site.kind})` + (have ? `: ${p ? p.name : have}` : "");
  }
}

// -- the words -----------------------------------------------------------------
const PHASES = {
  wrong_board: "The board is not as the game allows: see below what to put back.",
  move_in_progress: "A move is being made.",
  takeback_offered: "The board is as it was before the last move: leave it so to take that move back, or play on.",
  choosing: "A choice is waiting.",
  fault: "The board has a fault.",
};
function turnText(st) {
  if (!st) return "waiting for the board";
  if (st.status && st.status !== "playing") {
    if (st.winner !== null && st.winner !== undefined) return `${playerName(st.winner)} wins` + (st.reason ? `: ${st.reason}` : "");
    return `game over: ${st.reason || st.status}`;
  }
  if (st.actor === "chance") return `chance to act (${(st.outcomes || []).join(", ")})`;
  if (st.to_move === null || st.to_move === undefined) return st.task || "";
  const c = st.computer;
  const who = c && c.seat === st.to_move ? ` (the computer, level ${c.level})` : "";
  return `${playerName(st.to_move)}${who} to ${st.task || "move"}`;
}

function computerText(st) {
  const c = st && st.computer;
  if (!c) return [];
  if (c.doing === "thinking") return ["The computer is thinking: a light runs round the board in its colour."];
  if (c.doing === "ready") return [`The computer plays ${c.moves.join(" then ")}: make it on the board as the lights show (blinking: take the piece off; breathing: put one there).`];
  return [];
}

function problemText(st) {
  if (!st) return [];
  const out = [];
  if (st.fault) out.push(`Fault: ${st.fault}`);
  const words = PHASES[st.phase];
  if (words) out.push(words);
  if (st.offending && st.offending.length) out.push(`Not as the game allows: ${st.offending.join(", ")}; put the board back as it was.`);
  if (st.restore) {
    for (const [site, code] of Object.entries(st.restore)) {
      const p = code ? pieceOf(code) : null;
      out.push(code ? `Put ${p ? p.name : code} back on ${site}.` : `Take the piece off ${site}.`);
    }
  }
  if (st.undone_on_board && st.undone_on_board.length) out.push(`Undone on the board: ${st.undone_on_board.join(", ")}.`);
  if (st.told_undone && st.told_undone.length) out.push(`Taken back with the move: ${st.told_undone.join(", ")} (told); tell it again if it still holds.`);
  if (st.to_tell && st.to_tell.length) out.push(`If this is ${st.to_tell[0]}${st.to_tell.length > 1 ? " (or the like)" : ""}, tell it on the operator page.`);
  if (st.candidates && st.candidates.length) out.push(`The board can be read more than one way: ${st.candidates.map((c) => c.join(" ")).join(" or ")}; make the move clearer.`);
  if (st.choices && st.choices.length) out.push(`Choose one: ${st.choices.join(", ")}.`);
  out.push(...computerText(st));
  return out;
}

function scoresText(st) {
  if (!st || !st.scores) return [];
  return st.scores.map((s, i) => [playerName(i), s]);
}

// Lists and tables are rebuilt only when what they say changed: the LEDs
// change many times a second and the words seldom.
function unchanged(node, what) {
  const key = JSON.stringify(what);
  if (node.dataset.shown === key) return true;
  node.dataset.shown = key;
  return false;
}

function fillList(node, items) {
  if (!node || unchanged(node, items)) return;
  node.replaceChildren(...items.map((t) => el("li", {}, t)));
}

function showScores(node, st) {
  if (!node) return;
  const heading = node.previousElementSibling;
  if (heading && heading.tagName === "H2") heading.hidden = !(st && st.scores);
  const scores = scoresText(st);
  if (unchanged(node, scores)) return;
  const rows = scores.map(([who, s]) => {
    const tr = el("tr");
    tr.appendChild(el("th", {}, who));
    tr.appendChild(el("td", {}, String(s)));
    return tr;
  });
  node.replaceChildren(...rows);
}

// -- requests --------------------------------------------------------------------
async function getJSON(url) {
  const r = await fetch(url, { credentials: "same-origin" });
  return r.json();
}

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": (live.me && live.me.csrf) || "" },
    body: JSON.stringify(body),
  });
  return r.json();
}

function say(text, bad) {
  const node = $("said");
  if (!node) return;
  node.textContent = text;
  node.className = bad ? "said bad" : "said";
}

// -- the push channel ----------------------------------------------------------
// A dropped stream reconnects by itself; one refused (the server answers 503
// when too many people watch) does not, so it is tried again after a while,
// each viewer at a different moment.
function listen(render) {
  const src = new EventSource("/api/events");
  src.addEventListener("board", (e) => { live.board = JSON.parse(e.data); render(); });
  src.addEventListener("state", (e) => { live.state = JSON.parse(e.data); render(); });
  src.addEventListener("lights", (e) => { live.lights = JSON.parse(e.data); render(); });
  src.onerror = () => {
    const c = $("conn");
    if (src.readyState === EventSource.CLOSED) {
      src.close();
      if (c) c.textContent = "many people are watching: trying again shortly…";
      setTimeout(() => listen(render), 8000 + Math.random() * 8000);
    } else if (c) c.textContent = "reconnecting…";
  };
  src.onopen = () => { const c = $("conn"); if (c) c.textContent = ""; };
}

// -- pages ---------------------------------------------------------------------
function renderLive(onClick) {
  const st = live.state;
  const b = live.board;
  if (b && $("game")) $("game").textContent = `${b.game} on ${b.board}`;
  if ($("turn")) $("turn").textContent = turnText(st);
  showScores($("scores"), st);
  fillList($("moves"), st ? (st.moves || []).slice(-8).reverse() : []);
  fillList($("problems"), problemText(st));
  const ph = $("problems") && $("problems").previousElementSibling;
  if (ph && ph.tagName === "H2" && page !== "operator") ph.hidden = !problemText(st).length;
  drawBoard($("board"), onClick);
  document.body.dataset.moves = st ? String((st.moves || []).length) : "0";
  document.body.dataset.phase = st ? st.phase : "";
}

async function scorePage() {
  const today = async () => {
    const t = await getJSON("/api/today");
    fillList($("today"), (t.games || []).map((g) => `${g.game}: ${g.moves} moves, ended ${String(g.ended).slice(11, 16)}`));
  };
  listen(() => {
    const st = live.state;
    renderLive();
    const won = st && st.winner !== null && st.winner !== undefined;
    document.body.classList.toggle("moment", !!won);
    if ($("winner")) $("winner").textContent = won ? `${playerName(st.winner)} wins!` : "";
  });
  await today();
  setInterval(today, 30000);
}

function optionInputs(game) {
  const holder = $("options");
  holder.replaceChildren();
  // the current game's options as they are now, else the engine's defaults
  const now = live.board && live.board.game === game ? live.board.options : {};
  for (const d of (live.me.options || {})[game] || []) {
    const o = { ...d, default: d.name in now ? now[d.name] : d.default };
    const label = el("label", {}, o.name + " ");
    let input;
    if (o.choices) {
      input = el("select", { name: o.name });
      for (const c of o.choices) {
        const opt = el("option", { value: c }, c);
        if (c === o.default) opt.selected = true;
        input.appendChild(opt);
      }
    } else if (typeof o.default === "boolean") {
      input = el("input", { type: "checkbox", name: o.name });
      input.checked = o.default;
    } else {
      input = el("input", { name: o.name, value: o.default === null ? "" : String(o.default), size: 6 });
      input.dataset.number = typeof o.default === "number" ? "1" : "";
    }
    label.appendChild(input);
    holder.appendChild(label);
  }
}

// who plays each seat: hands, or the computer at a level (1 for a child's first games)
const LEVELS = ["1 (first games)", "2", "3", "4", "5 (strongest)"];
function seatInputs() {
  const holder = $("seats");
  const chosen = $("options").querySelector("[name=players]");
  const count = chosen ? Number(chosen.value) || 2 : live.board ? live.board.players.length : 2;
  const now = (live.state && live.state.seats) || [];
  const kept = [...holder.querySelectorAll("select")].map((s) => s.value);
  holder.replaceChildren();
  for (let i = 0; i < count; i++) {
    const label = el("label", {}, `${playerName(i)} `);
    const input = el("select", { name: `seat${i}`, "data-seat": i });
    input.appendChild(el("option", { value: "hands" }, "hands"));
    LEVELS.forEach((text, n) => input.appendChild(el("option", { value: `computer:${n + 1}` }, `computer, level ${text}`)));
    input.value = kept[i] || now[i] || "hands";
    label.appendChild(input);
    holder.appendChild(label);
  }
}

function readSeats() {
  return [...$("seats").querySelectorAll("select")].map((s) => s.value);
}

function readOptions() {
  const out = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    if (input.type === "checkbox") out[input.name] = input.checked;
    else if (input.dataset.number) out[input.name] = Number(input.value);
    else out[input.name] = input.value;
  }
  return out;
}

async function operatorCommand(body) {
  const reply = await post("/api/command", body);
  if (reply.ok) say(body.cmd === "undo" ? `undone: ${reply.undone}` : body.cmd === "play" ? `played ${reply.played}` : body.cmd === "another" ? `the computer thinks again, instead of ${reply.instead_of}` : `${body.cmd}: done`);
  else say(reply.error, true);
  if (reply.ok) pastGames();
  return reply;
}

// the brightness and opening hours in force (kept across restarts)
function showLighting(s) {
  $("lighting-brightness").value = Math.round(s.brightness * 100);
  $("brightness").textContent = `${Math.round(s.brightness * 100)} %`;
  $("lighting-hours").value = s.hours;
  const hours = s.hours ? `open ${s.hours}` : "always open";
  const now = s.open ? "open now" : "closed now: an idle board is dark, a board someone plays on lights up";
  const clock = s.clock_synchronised ? "" : "; the clock is not set yet, so the board stays lit";
  $("lighting-note").textContent = `${hours} (${now}${clock}).`;
}

async function lighting(body) {
  const reply = await post("/api/command", { cmd: "settings", ...body });
  if (!reply.ok) {
    if (Object.keys(body).length) say(reply.error, true);
    else $("lighting-note").textContent = reply.error;
    return;
  }
  showLighting(reply.settings);
  if (Object.keys(body).length) say("settings saved");
}

async function pastGames() {
  const reply = await post("/api/command", { cmd: "games" });
  if (!reply.ok) return;
  const rows = reply.games.map((g) => {
    const li = el("li", {}, `#${g.id} ${g.game}, ${g.status}, ${g.moves} moves, ${g.started ?? "date unsure"} `);
    li.appendChild(el("a", { href: `/api/export/${g.id}`, download: `game-${g.id}.json` }, "record"));
    return li;
  });
  $("past").replaceChildren(...rows);
}

function renderOperator() {
  renderLive();
  const st = live.state, b = live.board;
  const sel = $("game-choice");
  if (b && live.me && live.me.operator && !sel.dataset.touched && sel.value !== b.game && live.me.games.includes(b.game)) {
    sel.value = b.game;
    optionInputs(b.game);
    seatInputs();
  }
  if (b) $("rules").textContent = b.rules;
  if (st && st.version) $("version").textContent = `boardctl ${st.version}`;
  // the buttons are rebuilt only when the actions on offer change: one replaced
  // under a finger (the LEDs change many times a second) would lose its click
  const acts = $("acts");
  const choices = (st && st.choices) || [];
  const outcomes = st && st.actor === "chance" && st.chance === "operator" ? st.outcomes || [] : [];
  const another = !!(st && st.computer && st.computer.doing === "ready");
  if (!unchanged(acts, [choices, outcomes, another])) {
    acts.replaceChildren();
    for (const c of choices) {
      const btn = el("button", { type: "button" }, `choose ${c}`);
      btn.onclick = () => operatorCommand({ cmd: "choose", option: c });
      acts.appendChild(btn);
    }
    for (const o of outcomes) {
      const btn = el("button", { type: "button" }, `chance: ${o}`);
      btn.onclick = () => operatorCommand({ cmd: "chance", action: o });
      acts.appendChild(btn);
    }
    if (another) {
      const btn = el("button", { type: "button", id: "another" }, "Another move, computer");
      btn.onclick = () => operatorCommand({ cmd: "another" });
      acts.appendChild(btn);
    }
  }
  $("play-form").hidden = !(st && st.told);
  const links = $("links");
  if (b && b.secrets && links.dataset.game !== b.game + b.players.length) {
    links.dataset.game = b.game + b.players.length;
    links.replaceChildren(...b.players.map((p, i) => {
      const btn = el("button", { type: "button", "data-player": i }, `private link for ${playerName(i)}`);
      btn.onclick = async () => {
        const r = await post("/api/private-link", { player: i });
        if (!r.ok) return say(r.error, true);
        const url = new URL(r.link, location.href).href;
        const a = el("a", { href: url, class: "private-link", "data-player": i }, url);
        btn.replaceWith(a);
      };
      return btn;
    }));
  } else if (b && !b.secrets) {
    links.dataset.game = "";
    links.textContent = "This game deals no secrets.";
  }
}

async function operatorPage() {
  live.me = await getJSON("/api/session");
  const token = new URLSearchParams(location.search).get("token");
  const showPanel = () => {
    $("login").hidden = live.me.operator;
    $("panel").hidden = !live.me.operator;
    if (!live.me.operator) return;
    lighting({});
    getJSON("/api/address").then((r) => { if (r.ok) { $("address").textContent = r.url; $("address").href = r.url; } });
    const sel = $("game-choice");
    sel.replaceChildren(...live.me.games.map((g) => el("option", { value: g }, g)));
    const current = live.board && live.board.game;
    if (current && live.me.games.includes(current)) sel.value = current;
    optionInputs(sel.value);
    seatInputs();
    sel.onchange = () => { sel.dataset.touched = "1"; optionInputs(sel.value); seatInputs(); };
    $("options").onchange = () => seatInputs();
    pastGames();
  };
  $("login-form").onsubmit = async (e) => {
    e.preventDefault();
    const r = await fetch("/api/login", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password: $("password").value }),
    }).then((x) => x.json());
    if (!r.ok) { say(r.error, true); return; }
    live.me = r;
    say("signed in");
    showPanel();
  };
  $("new-form").onsubmit = (e) => {
    e.preventDefault();
    operatorCommand({ cmd: "new", game: $("game-choice").value, options: readOptions(), seats: readSeats() });
  };
  $("undo").onclick = () => operatorCommand({ cmd: "undo" });
  $("lighting-brightness").oninput = () => { $("brightness").textContent = `${$("lighting-brightness").value} %`; };
  $("lighting-form").onsubmit = (e) => {
    e.preventDefault();
    lighting({ brightness: Number($("lighting-brightness").value) / 100, hours: $("lighting-hours").value.trim() });
  };
  $("play-form").onsubmit = (e) => {
    e.preventDefault();
    // the actions seen played: a second click after the first was played is refused
    const ply = ((live.state || {}).moves || []).length;
    operatorCommand({ cmd: "play", action: $("play-action").value.trim(), ply });
  };
  if (token) say("the token was not accepted", true);
  showPanel();
  listen(renderOperator);
}

async function playerPage() {
  const show = async () => {
    const r = await getJSON("/api/private");
    const node = $("secret");
    if (!r.ok) { node.textContent = r.error; return; }
    $("who").textContent = playerName(r.player);
    node.replaceChildren(...Object.entries(r.private).map(([k, v]) => el("li", {}, `${k}: ${JSON.stringify(v)}`)));
    if (!Object.keys(r.private).length) node.replaceChildren(el("li", {}, "nothing hidden for you now"));
  };
  listen(() => { renderLive(); show(); });
  show();
}

async function simPage() {
  live.me = await getJSON("/api/session");
  const hand = async (text) => {
    say(`${text} …`);
    const r = await post("/api/hands", { text });
    say(r.ok ? text : r.error, !r.ok);
  };
  const pick = $("piece");
  const refreshPieces = () => {
    if (!live.board || pick.dataset.game === live.board.game) return;
    pick.dataset.game = live.board.game;
    pick.replaceChildren(el("option", { value: "" }, "the mover's own"), ...live.board.pieces.map((p) => el("option", { value: p.code }, p.name)));
  };
  const click = (site, code) => {
    if (site.kind === "cell") {
      if (code) hand(`lift ${site.name}`);
      else {
        const st = live.state || {};
        const own = live.board.pieces.find((p) => p.owner === st.to_move && p.parts.length === 0);
        const piece = pick.value || (own ? own.code : live.board.pieces[0].code);
        hand(`place ${site.name} ${piece}`);
      }
    } else {
      hand(pick.value ? `insert ${site.name} ${pick.value}` : `insert ${site.name}`);
    }
  };
  $("hand-form").onsubmit = (e) => { e.preventDefault(); hand($("hand").value); };
  $("new-game").onclick = async () => {
    const r = await post("/api/command", { cmd: "new" });
    say(r.ok ? "new game" : r.error, !r.ok);
  };
  $("another").onclick = async () => {
    const r = await post("/api/command", { cmd: "another" });
    say(r.ok ? `the computer thinks again, instead of ${r.instead_of}` : r.error, !r.ok);
  };
  listen(() => { refreshPieces(); renderLive(click); const c = (live.state || {}).computer; $("another").hidden = !(c && c.doing === "ready"); if ($("winner")) { const st = live.state; $("winner").textContent = st && st.winner !== null && st.winner !== undefined ? `${playerName(st.winner)} wins!` : ""; } });
}

({ board: () => listen(() => renderLive()), score: scorePage, operator: operatorPage, player: playerPage, sim: simPage })[page]();
