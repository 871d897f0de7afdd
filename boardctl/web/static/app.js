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

// A player as people read them: by the colour of their pieces, and their seat
// counted from 1 ("blue (player 1)"); the JSON counts seats from 0.
function playerName(seat) {
  const p = live.board && live.board.players[seat];
  return p ? p.label : _("player {number}", { number: seat + 1 });
}

// the colour word alone ("blue"), for sentences that need no seat
function playerWord(seat) {
  const p = live.board && live.board.players[seat];
  return p ? p.name : _("player {number}", { number: seat + 1 });
}

// A piece by its code. A piece made of parts whose code is its parts joined
// by "+" is not declared (Linie 1 has over a thousand): it is made up here.
let pieceMap = null;
function pieceOf(code) {
  if (!pieceMap || pieceMap.board !== live.board) {
    pieceMap = { board: live.board, codes: new Map((live.board.pieces || []).map((p) => [p.code, p])) };
  }
  const known = pieceMap.codes.get(code);
  if (known || typeof code !== "string" || !code.includes("+")) return known;
  const parts = code.split("+").map((c) => pieceMap.codes.get(c));
  if (!parts.every((p) => p)) return undefined;
  const made = { code, name: parts.map((p) => p.name).reduce((a, b) => _("{first} and {second}", { first: a, second: b })), owner: null, parts: parts.map((p) => p.code) };
  pieceMap.codes.set(code, made);
  return made;
}

// -- the board picture ---------------------------------------------------------
// Drawn as the board lies on the table: the engine's y runs north, the
// picture's down, so row 1 (and the south tracks) come at the bottom.
// Built once per declared board; each update changes attributes in place.
const X = (s) => s.x, Y = (s) => -s.y;
// the smallest tap target on a page that takes taps, in CSS pixels
const TAP = 44;

function contrast(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? "#161616" : "#f2f2f2";
}

function polygon(cx, cy, radius, corners, turn) {
  const pts = [];
  for (let k = 0; k < corners; k++) {
    const a = (turn + (360 / corners) * k) * Math.PI / 180;
    pts.push(`${cx + radius * Math.cos(a)},${cy - radius * Math.sin(a)}`);
  }
  return pts.join(" ");
}

function text(x, y, size, words, cls) {
  const t = svg("text", { x, y, "font-size": size, class: cls || "label" });
  t.textContent = words;
  return t;
}

function siteSpot(s, byName, r, gap, cells) {
  const x = X(s), y = Y(s);
  if (s.kind === "display") return svg("circle", { cx: x, cy: y, r: r * 0.4, class: "spot" });
  if (s.kind === "point") return svg("circle", { cx: x, cy: y, r: gap * 0.12, class: "spot" });
  if (s.kind === "edge" && s.ends && s.ends.length === 2) {
    const [a, b] = s.ends.map((n) => byName[n]);
    return svg("line", { x1: X(a), y1: Y(a), x2: X(b), y2: Y(b), class: "spot", "stroke-width": gap * 0.14, "stroke-linecap": "round" });
  }
  if (s.kind === "cell" && cells === "square")
    return svg("rect", { x: x - gap * 0.48, y: y - gap * 0.48, width: gap * 0.96, height: gap * 0.96, rx: gap * 0.06, class: "spot" });
  if (s.kind === "cell" && cells === "hex")
    return svg("polygon", { points: polygon(x, y, gap / Math.sqrt(3) * 0.97, 6, 90), class: "spot" });
  if (s.kind === "cell") return svg("circle", { cx: x, cy: y, r, class: "spot" });
  if (s.kind === "track" && s.toward && byName[s.toward]) {
    // an arrow pointing into the board along the track
    const t = byName[s.toward];
    const a = Math.atan2(-(Y(t) - y), X(t) - x) * 180 / Math.PI;
    return svg("polygon", { points: polygon(x, y, r * 0.7, 3, a), class: "spot" });
  }
  return svg("rect", { x: x - r * 0.8, y: y - r * 0.8, width: r * 1.6, height: r * 1.6, rx: r * 0.3, class: "spot" });
}

// what a tap must hit: at least the site's share of the board
function siteHit(s, byName, gap) {
  if (s.kind === "edge" && s.ends && s.ends.length === 2) {
    // a band along the edge, stopping short of its points (a tap there is the point's)
    const [a, b] = s.ends.map((n) => byName[n]);
    const len = Math.hypot(X(b) - X(a), Y(b) - Y(a)), ux = (X(b) - X(a)) / len, uy = (Y(b) - Y(a)) / len;
    const w = gap * 0.22, cut = gap * 0.12;
    const p = (t, side) => `${X(a) + ux * t - uy * w * side},${Y(a) + uy * t + ux * w * side}`;
    return svg("polygon", { points: [p(cut, 1), p(len - cut, 1), p(len - cut, -1), p(cut, -1)].join(" "), class: "hit", "stroke-width": 0 });
  }
  return svg("circle", { cx: X(s), cy: Y(s), r: gap * 0.5, class: "hit", "stroke-width": 0 });
}

// the order parts lie in, bottom first: a tile under its sign and streetcars, a ring round its disc
const LAYER = { tile: 0, ring: 1, node: 1, stick: 1, marble: 2, disc: 2, mark: 2, sign: 3, car: 4 };

function drawLook(into, look, s, byName, r, gap, nth) {
  const x = X(s), y = Y(s), c = look.colour, edge = contrast(c);
  const add = (tag, attrs) => { const n = svg(tag, attrs); into.appendChild(n); return n; };
  switch (look.shape) {
    case "marble":
      add("circle", { cx: x, cy: y, r: r * 0.74, fill: c, stroke: edge, "stroke-width": r * 0.06 });
      add("circle", { cx: x - r * 0.25, cy: y - r * 0.25, r: r * 0.18, fill: "#ffffff", opacity: 0.45 });
      break;
    case "disc":
      add("circle", { cx: x, cy: y, r: r * 0.48, fill: c, stroke: edge, "stroke-width": r * 0.07 });
      break;
    case "ring":
      add("circle", { cx: x, cy: y, r: r * 0.78, fill: "none", stroke: edge, "stroke-width": r * 0.34 });
      add("circle", { cx: x, cy: y, r: r * 0.78, fill: "none", stroke: c, "stroke-width": r * 0.24 });
      break;
    case "node":
      add("polygon", { points: polygon(x, y, r * 0.9, 6, 90), fill: c, stroke: edge, "stroke-width": r * 0.08 });
      add("circle", { cx: x, cy: y, r: r * 0.28, fill: edge });
      break;
    case "mark": {
      add("circle", { cx: x, cy: y, r: r * 0.74, fill: c, stroke: edge, "stroke-width": r * 0.06 });
      const a = (look.angle || 0) * Math.PI / 180, dx = Math.cos(a), dy = -Math.sin(a);
      // an arrow from the centre to the side the piece leaves by
      add("polygon", { points: `${x + dx * r * 0.95},${y + dy * r * 0.95} ${x + dx * r * 0.35 - dy * r * 0.3},${y + dy * r * 0.35 + dx * r * 0.3} ${x + dx * r * 0.35 + dy * r * 0.3},${y + dy * r * 0.35 - dx * r * 0.3}`, fill: edge });
      if (look.label) into.appendChild(text(x - dx * r * 0.3, y - dy * r * 0.3, r * 0.6, look.label, "on")).setAttribute("fill", edge);
      break;
    }
    case "stick": {
      if (!(s.ends && s.ends.length === 2)) break;
      const [a, b] = s.ends.map((n) => byName[n]);
      add("line", { x1: X(a), y1: Y(a), x2: X(b), y2: Y(b), stroke: edge, "stroke-width": gap * 0.26, "stroke-linecap": "round" });
      add("line", { x1: X(a), y1: Y(a), x2: X(b), y2: Y(b), stroke: c, "stroke-width": gap * 0.18, "stroke-linecap": "round" });
      break;
    }
    case "tile": {
      const h = gap * 0.42;
      add("rect", { x: x - h, y: y - h, width: 2 * h, height: 2 * h, fill: c, stroke: "#7a6f58", "stroke-width": gap * 0.03 });
      for (const [a1, a2] of look.rails || []) {
        const p = (a) => [x + h * Math.cos(a * Math.PI / 180), y - h * Math.sin(a * Math.PI / 180)];
        const [x1, y1] = p(a1), [x2, y2] = p(a2);
        add("path", { d: `M${x1},${y1} Q${x},${y} ${x2},${y2}`, fill: "none", stroke: "#3a3a3a", "stroke-width": gap * 0.11 });
      }
      break;
    }
    case "sign":
      add("circle", { cx: x + gap * 0.27, cy: y - gap * 0.27, r: gap * 0.15, fill: c, stroke: "#ffffff", "stroke-width": gap * 0.03 });
      into.appendChild(text(x + gap * 0.27, y - gap * 0.27, gap * 0.2, look.label || "", "on")).setAttribute("fill", "#ffffff");
      break;
    case "car": {
      // streetcars side by side when more than one stands here
      const cx = x - gap * 0.2 + (nth % 2) * gap * 0.4, cy = y + gap * 0.18 - Math.floor(nth / 2) * gap * 0.3;
      add("rect", { x: cx - gap * 0.18, y: cy - gap * 0.13, width: gap * 0.36, height: gap * 0.26, rx: gap * 0.06, fill: c, stroke: edge, "stroke-width": gap * 0.03 });
      into.appendChild(text(cx, cy, gap * 0.2, look.label || "", "on")).setAttribute("fill", edge);
      break;
    }
  }
}

function drawPiece(into, code, s, byName, r, gap) {
  into.replaceChildren();
  if (!code) return;
  const p = pieceOf(code);
  const parts = (p && p.parts.length ? p.parts : [code]).map(pieceOf).filter((q) => q);
  if (parts.length && parts.every((q) => q.look)) {
    parts.sort((a, b) => LAYER[a.look.shape] - LAYER[b.look.shape]);
    let cars = 0;
    for (const q of parts) drawLook(into, q.look, s, byName, r, gap, q.look.shape === "car" ? cars++ : 0);
    return;
  }
  // a game that declares no looks: a token in its owner's colour, else its code
  const owner = p && p.owner !== null && p.owner !== undefined ? live.board.players[p.owner] : null;
  into.appendChild(svg("circle", { cx: X(s), cy: Y(s), r: r * 0.68, fill: owner ? owner.colour : "#b0b0b0", class: "token" }));
  if (!owner) into.appendChild(text(X(s), Y(s), r * 0.5, code, "on"));
}

// The coordinates round the board, as printed on it: the cells named "a1"
// share a letter and a number with others; a group lying east-west (a rank,
// a row) is named west of it, any other (a file) south of it.
function coordinates(sites, gap) {
  const groups = {};
  for (const s of sites) {
    const m = (s.kind === "cell" || s.kind === "point") && /^([a-z]+)([0-9]+)$/.exec(s.name);
    if (!m) continue;
    for (const key of ["l" + m[1], "n" + m[2]]) (groups[key] = groups[key] || { word: key.slice(1), cells: [] }).cells.push(s);
  }
  const out = [];
  for (const { word, cells } of Object.values(groups)) {
    if (cells.length < 2) continue;
    const xs = cells.map(X), ys = cells.map(Y);
    const across = Math.max(...xs) - Math.min(...xs) > Math.max(...ys) - Math.min(...ys);
    const end = across
      ? cells.reduce((a, c) => (X(c) < X(a) ? c : a))
      : cells.reduce((a, c) => (Y(c) > Y(a) || (Y(c) === Y(a) && X(c) < X(a)) ? c : a));
    const x = across ? X(end) - gap * 0.62 : X(end), y = across ? Y(end) : Y(end) + gap * 0.62;
    out.push(text(x, y, gap * 0.28, word, "coord"));
  }
  return out;
}

function buildBoard(holder, onClick) {
  const b = live.board;
  const sites = b.sites;
  const byName = Object.fromEntries(sites.map((s) => [s.name, s]));
  // a display's pips (a die's face) and the points between edges sit closer
  // than the board's sites: they do not set its scale
  const spaced = sites.filter((s) => s.kind !== "display" && s.kind !== "edge");
  let gap = Infinity;
  for (let i = 0; i < spaced.length; i++)
    for (let j = i + 1; j < spaced.length; j++) {
      const d = Math.hypot(spaced[i].x - spaced[j].x, spaced[i].y - spaced[j].y);
      if (d > 0 && d < gap) gap = d;
    }
  if (!isFinite(gap)) gap = 1;
  const r = gap * 0.42;
  const xs = sites.map(X), ys = sites.map(Y);
  const x0 = Math.min(...xs) - gap * 0.8, y0 = Math.min(...ys) - gap * 0.8;
  const w = Math.max(...xs) - Math.min(...xs) + 1.6 * gap;
  const h = Math.max(...ys) - Math.min(...ys) + 1.6 * gap;
  const root = svg("svg", { viewBox: `${x0} ${y0} ${w} ${h}`, role: "img", "aria-label": `${b.game} board` });
  // a page that takes taps keeps every site at least TAP pixels apart, the board scrolling sideways if it must
  if (onClick) root.style.minWidth = `${Math.ceil((w / gap) * TAP)}px`;
  root.appendChild(svg("rect", { x: x0, y: y0, width: w, height: h, rx: gap / 3, class: "plate" }));
  const parts = {};
  // edges first, so the points and their labels lie on top
  const order = [...sites].sort((a, c) => (a.kind === "edge" ? 0 : 1) - (c.kind === "edge" ? 0 : 1));
  for (const s of order) {
    const g = svg("g", { class: `site ${s.kind}`, "data-site": s.name });
    const spot = siteSpot(s, byName, r, gap, b.cells);
    spot.setAttribute("stroke-width", s.kind === "edge" ? gap * 0.14 : r * 0.14);
    if (s.colour) spot.style.fill = s.colour;
    const piece = svg("g", { class: "piece" });
    const items = [spot];
    if (s.label) items.push(text(X(s), Y(s), gap * 0.45, s.label, s.colour ? "on" : "mark"));
    if (s.label && s.colour) items[items.length - 1].setAttribute("fill", contrast(s.colour));
    const title = svg("title");
    items.push(piece, title);
    // nothing is put on a display or a point (LEDs only): they take no taps
    const taps = onClick && s.kind !== "display" && s.kind !== "point";
    if (taps) items.push(siteHit(s, byName, gap));
    g.append(...items);
    if (taps) g.addEventListener("click", () => onClick(s, g.getAttribute("data-piece")));
    root.appendChild(g);
    parts[s.name] = { g, spot, piece, title, site: s };
  }
  for (const t of coordinates(sites, gap)) root.appendChild(t);
  holder.replaceChildren(root);
  holder.dataset.key = JSON.stringify([b.game, b.options, b.board]);
  holder.parts = parts;
  holder.geometry = { byName, r, gap };
}

// ``layout``: what to draw on each site (the game's, or on the simulator's page
// what lies on the simulated board, a wrong piece included)
function drawBoard(holder, onClick, layout) {
  const b = live.board;
  if (!b || !holder) return;
  if (holder.dataset.key !== JSON.stringify([b.game, b.options, b.board])) buildBoard(holder, onClick);
  const { byName, r, gap } = holder.geometry;
  for (const { g, spot, piece, title, site } of Object.values(holder.parts)) {
    const lit = live.lights[site.name];
    if (lit && Math.max(...[1, 3, 5].map((i) => parseInt(lit.slice(i, i + 2), 16))) >= 24) {
      if (g.getAttribute("data-lit") !== lit) {
        spot.style.stroke = lit;
        if (!site.colour) spot.style.fill = lit;
        g.setAttribute("data-lit", lit);
      }
    } else if (g.hasAttribute("data-lit")) {
      spot.style.stroke = "";
      if (!site.colour) spot.style.fill = "";
      g.removeAttribute("data-lit");
    }
    const have = layout[site.name] || null;
    if (g.getAttribute("data-piece") === have) continue;
    const p = have ? pieceOf(have) : null;
    if (have) g.setAttribute("data-piece", have);
    else g.removeAttribute("data-piece");
    drawPiece(piece, have, site, byName, r, gap);
    title.textContent = `${site.name}` + (have ? `: ${p ? p.name : have}` : "");
  }
}

// -- the words -----------------------------------------------------------------
const PHASES = {
  wrong_board: _("The board is not as the game allows: see below what to put back."),
  move_in_progress: _("A move is being made."),
  takeback_offered: _("The board is as it was before the last move: leave it so to take that move back, or play on."),
  choosing: _("A choice is waiting."),
};
// the staff's pages say what is wrong in a fault; the others that the board rests
const STAFF = page === "operator" || page === "sim";
const RESTING = _("This board is resting: staff have been told.");
const FAULTS = {
  sensors: _("The sensors stopped answering: check the cable to the microcontroller; play resumes by itself once they answer."),
  storage: _("The games cannot be saved (the card is full or read-only): free space on it; play resumes by itself."),
  computer: _("The computer player failed: it is asked again by itself; undo and a new game work meanwhile."),
};
function turnText(st) {
  if (live.connected === false) return _("disconnected: the board's controller is not answering");
  if (!st) return _("waiting for the board");
  if (st.phase === "fault" && !STAFF) return RESTING;
  // a button pressed once that would end the game: what a second press does
  if (st.confirm) return st.confirm.words;
  if (st.status && st.status !== "playing") {
    if (st.winner !== null && st.winner !== undefined) {
      const player = playerName(st.winner);
      return st.reason ? _("{player} wins: {reason}", { player, reason: st.reason }) : _("{player} wins", { player });
    }
    return _("game over: {reason}", { reason: st.reason || st.status });
  }
  if (st.actor === "chance") return _("chance to act ({outcomes})", { outcomes: (st.outcomes || []).join(", ") });
  if (st.to_move === null || st.to_move === undefined) return st.task || "";
  const c = st.computer, r = st.remote;
  const who = c && c.seat === st.to_move ? _("{player} (the computer, level {level})", { player: playerWord(st.to_move), level: c.level })
    : r && r.seat === st.to_move ? remoteWho(r, playerName(st.to_move)) : playerName(st.to_move);
  const task = st.task || _("move");
  return _("{player} to {task}", { player: who, task });
}

// a player who plays apart from this board: at another board, or on their phone
// "blue (player 1) at table-a": a player who plays apart, and where
function remoteWho(r, player) {
  return r.phone ? _("{player} on their phone", { player }) : _("{player} at {board}", { player, board: r.board });
}

function remoteText(st) {
  const r = st && st.remote;
  if (!r || r.error) return [];
  const who = remoteWho(r, playerName(r.seat));
  const moves = r.moves.length ? r.moves.reduce((a, b) => _("{first} then {rest}", { first: a, rest: b })) : "";
  if (r.doing === "ready") return [_("{who} played {moves}: make it on the board as the lights show (blinking: take the piece off; breathing: put one there).", { who, moves })];
  return [r.phone ? _("{who} is choosing a move: the lights show it once chosen.", { who }) : _("{who} is playing there: their move is lit here once made.", { who })];
}

function computerText(st) {
  const c = st && st.computer;
  if (!c) return [];
  const who = _("The computer ({player}, level {level})", { player: playerWord(c.seat), level: c.level });
  if (c.doing === "thinking") return [_("{who} is thinking: a light runs round the board in its colour.", { who })];
  const moves = c.moves.reduce((a, b) => _("{first} then {rest}", { first: a, rest: b }));
  if (c.doing === "ready") return [_("{who} plays {moves}: make it on the board as the lights show (blinking: take the piece off; breathing: put one there).", { who, moves })];
  return [];
}

function problemText(st) {
  if (!st) return [];
  const out = [];
  if (st.fault && !STAFF) return st.phase === "fault" ? [RESTING] : [];
  if (st.fault) out.push(_("Fault: {fault}", { fault: st.fault }));
  if (st.fault && FAULTS[st.fault_kind]) out.push(FAULTS[st.fault_kind]);
  const words = PHASES[st.phase];
  if (words) out.push(words);
  const setup = st.phase === "setup";
  if (setup) out.push(st.offending && st.offending.length ? _("Set up: clear the board for a new game.") : _("Set up: put out the pieces a new game starts with."));
  if (st.why) out.push(_("Not allowed: {why}.", { why: st.why }));
  if (st.offending && st.offending.length) {
    const sites = st.offending.join(", ");
    out.push(setup ? _("Take off: {sites}.", { sites }) : _("Not as the game allows: {sites}; put the board back as it was.", { sites }));
  }
  if (st.restore) {
    for (const [site, code] of Object.entries(st.restore)) {
      const p = code ? pieceOf(code) : null;
      const name = p ? p.name : code;
      out.push(!code ? _("Take the piece off {site}.", { site }) : setup ? _("Put {piece} on {site}.", { piece: name, site }) : _("Put {piece} back on {site}.", { piece: name, site }));
    }
  }
  if (st.undone_on_board && st.undone_on_board.length) out.push(_("Undone on the board: {moves}.", { moves: st.undone_on_board.join(", ") }));
  if (st.told_undone && st.told_undone.length) out.push(_("Taken back with the move: {moves} (told); tell it again if it still holds.", { moves: st.told_undone.join(", ") }));
  if (st.to_tell && st.to_tell.length) out.push(st.to_tell.length > 1 ? _("If this is {action} (or the like), tell it on the operator page.", { action: st.to_tell[0] }) : _("If this is {action}, tell it on the operator page.", { action: st.to_tell[0] }));
  if (st.candidates && st.candidates.length) {
    const moves = st.candidates.map((c) => c.join(" ")).reduce((a, b) => _("{first} or {second}", { first: a, second: b }));
    out.push(_("The board can be read more than one way: {moves}; make the move clearer.", { moves }));
  }
  if (st.choices && st.choices.length) out.push(_("Choose one: {choices}.", { choices: st.choices.join(", ") }));
  out.push(...computerText(st));
  out.push(...remoteText(st));
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

// A game under way ends only on a second press: the first says what the
// second would do, for a few seconds.
function secondPress(btn, warning) {
  const st = live.state;
  const underWay = st && st.status === "playing" && (st.moves || []).length > 0;
  const words = btn.dataset.words || btn.textContent;
  if (!underWay || btn.dataset.armed === "1") {
    btn.dataset.armed = "";
    btn.textContent = words;
    return true;
  }
  btn.dataset.words = words;
  btn.dataset.armed = "1";
  btn.textContent = warning;
  setTimeout(() => { if (btn.dataset.armed) { btn.dataset.armed = ""; btn.textContent = words; } }, 6000);
  return false;
}

// -- requests --------------------------------------------------------------------
// A request the daemon does not answer (it stopped, the network dropped) is an
// answer saying so, as a refusal is: the page says it, and never breaks on it.
const unanswered = () => ({ ok: false, error: _("the board's controller is not answering") });

async function getJSON(url) {
  try {
    const r = await fetch(url, { credentials: "same-origin" });
    return await r.json();
  } catch (e) {
    return unanswered();
  }
}

async function post(url, body) {
  try {
    const r = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": (live.me && live.me.csrf) || "" },
      body: JSON.stringify(body),
    });
    return await r.json();
  } catch (e) {
    return unanswered();
  }
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
  src.addEventListener("board", (e) => { live.board = JSON.parse(e.data); drawPast(); render(); });
  src.addEventListener("state", (e) => {
    live.state = JSON.parse(e.data);
    render();
    // for the page's other parts (sound.js plays the board's sounds)
    document.dispatchEvent(new CustomEvent("boardctl:state", { detail: live.state }));
  });
  src.addEventListener("lights", (e) => { live.lights = JSON.parse(e.data); render(); });
  src.onerror = () => {
    // the page says so at once: a turn shown from before is not the board's now
    live.connected = false;
    render();
    const c = $("conn");
    if (src.readyState === EventSource.CLOSED) {
      src.close();
      if (c) c.textContent = _("many people are watching: trying again shortly…");
      setTimeout(() => listen(render), 8000 + Math.random() * 8000);
    } else if (c) c.textContent = _("reconnecting…");
  };
  src.onopen = () => { live.connected = true; const c = $("conn"); if (c) c.textContent = ""; render(); };
}

// -- pages ---------------------------------------------------------------------
function renderLive(onClick, layout) {
  const st = live.state;
  const b = live.board;
  if (b && $("game")) $("game").textContent = STAFF ? _("{game} on {board}", { game: b.title, board: b.board }) : b.title;
  if ($("turn")) $("turn").textContent = turnText(st);
  lightsNote(b);
  showScores($("scores"), st);
  fillList($("moves"), st ? (st.moves || []).slice(-8).reverse() : []);
  fillList($("problems"), problemText(st));
  const ph = $("problems") && $("problems").previousElementSibling;
  if (ph && ph.tagName === "H2" && page !== "operator") ph.hidden = !problemText(st).length;
  drawBoard($("board"), onClick, layout || (st || {}).layout || {});
  document.body.dataset.moves = st ? String((st.moves || []).length) : "0";
  document.body.dataset.phase = st ? st.phase : "";
}

// under the turn, why a player is lit in another colour than their pieces'
// ("black is lit a cold blue-white: an LED cannot glow black")
function lightsNote(b) {
  const turn = $("turn");
  if (!turn) return;
  let note = $("lights-note");
  if (!note) {
    note = el("p", { id: "lights-note", class: "note" });
    turn.after(note);
  }
  const words = b && b.lights_note ? _("Lights: {note}.", { note: b.lights_note }) : "";
  if (note.textContent !== words) note.textContent = words;
  note.hidden = !words;
}

async function scorePage() {
  let listed = null, unsure = 0;
  const drawToday = () => {
    $("today").dataset.board = live.board ? live.board.game : "";
    const games = listed.map((g) => _("{result} in {moves} moves, ended {time}", { result: wonText(g), moves: g.moves, time: new Date(g.ended).toLocaleTimeString(WORDS.language || [], { hour: "2-digit", minute: "2-digit" }) }));
    // with no date known (the board's clock not set yet) no game is said to be today's
    const none = unsure ? _("The board's clock is not set yet, so its games are not listed by day.") : _("No game has finished here today yet.");
    fillList($("today"), games.length ? games : [none]);
  };
  const today = async () => {
    // a list not fetched (the page left, the daemon gone) is asked again in 30 s
    const t = await getJSON("/api/today");
    if (!t.games) return;
    listed = t.games;
    unsure = t.unsure || 0;
    drawToday();
  };
  let ended = "";
  listen(() => {
    const st = live.state;
    renderLive();
    // a game just over is listed at once
    const over = st && st.status && st.status !== "playing" ? `${st.game} ${(st.moves || []).length}` : "";
    if (over && over !== ended) today();
    ended = over;
    // drawn again once the board is known: a winner is named by their colour
    if (listed && live.board && $("today").dataset.board !== live.board.game) drawToday();
    const won = st && st.winner !== null && st.winner !== undefined;
    document.body.classList.toggle("moment", !!won);
    if ($("winner")) $("winner").textContent = won ? _("{player} wins!", { player: playerName(st.winner) }) : "";
  });
  await today();
  setInterval(today, 30000);
}

// The new game's options, as the engine declares them: a label and a line of
// help each, a list where there is a fixed choice, a number with its bounds,
// a box for yes or no.
function optionInputs(game) {
  const holder = $("options");
  holder.replaceChildren();
  // the current game's options as they are now, else the engine's defaults
  const now = live.board && live.board.game === game ? live.board.options : {};
  holder.dataset.built = JSON.stringify([game, now]);
  delete holder.dataset.touched;
  for (const d of (live.me.options || {})[game] || []) {
    const value = d.name in now ? now[d.name] : d.default;
    const field = el("div", { class: "field" });
    const label = el("label", { for: `option-${d.name}` }, d.label);
    let input;
    if (d.type === "choice") {
      input = el("select", { name: d.name });
      d.choices.forEach((c, n) => {
        const opt = el("option", { value: JSON.stringify(c) }, d.choice_labels[n]);
        if (c === value) opt.selected = true;
        input.appendChild(opt);
      });
      input.dataset.json = "1";
    } else if (d.type === "bool") {
      input = el("input", { type: "checkbox", name: d.name });
      input.checked = !!value;
    } else if (d.type === "int") {
      input = el("input", { type: "number", name: d.name, value: String(value), step: 1, inputmode: "numeric" });
      if (d.min !== undefined) input.min = d.min;
      if (d.max !== undefined) input.max = d.max;
      input.dataset.number = "1";
    } else {
      input = el("input", { name: d.name, value: value === null ? "" : String(value) });
    }
    input.id = `option-${d.name}`;
    field.append(label, input);
    if (d.help) field.appendChild(el("span", { class: "help" }, d.help));
    holder.appendChild(field);
  }
}

// who plays each seat: hands, or the computer at a level (1 for a child's first games)
const LEVELS = [_("1 (first games)"), "2", "3", "4", _("5 (strongest)")];
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
    input.appendChild(el("option", { value: "hands" }, _("hands")));
    LEVELS.forEach((text, n) => input.appendChild(el("option", { value: `computer:${n + 1}` }, _("computer, level {level}", { level: text }))));
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
    else if (input.dataset.json) out[input.name] = JSON.parse(input.value);
    else if (input.dataset.number) { if (input.value.trim() !== "") out[input.name] = Number(input.value); }
    else out[input.name] = input.value;
  }
  return out;
}

async function operatorCommand(body) {
  const reply = await post("/api/command", body);
  if (reply.ok) say(body.cmd === "undo" ? _("undone: {move}", { move: reply.undone }) : body.cmd === "play" ? _("played {move}", { move: reply.played }) : body.cmd === "another" ? _("the computer thinks again, instead of {move}", { move: reply.instead_of }) : _("{command}: done", { command: body.cmd }));
  else say(reply.error, true);
  if (reply.ok) pastGames();
  return reply;
}

// the brightness and opening hours in force (kept across restarts)
function showLighting(s) {
  $("lighting-brightness").value = Math.round(s.brightness * 100);
  $("brightness").textContent = `${Math.round(s.brightness * 100)} %`;
  $("lighting-hours").value = s.hours;
  const hours = s.hours ? _("open {hours}", { hours: s.hours }) : _("always open");
  const now = s.open ? _("open now") : _("closed now: an idle board is dark, a board someone plays on lights up");
  const clock = s.clock_synchronised ? "" : _("; the clock is not set yet, so the board stays lit");
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
  if (Object.keys(body).length) say(_("settings saved"));
}

// a stored time (UTC) as the local date and time people read
function localTime(stamp) {
  const d = new Date(stamp);
  return isNaN(d) ? String(stamp || "") : d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

// who won a finished game of the list ("blue won", "a draw"); a game of
// another kind than the board's by its seat alone
function wonText(g) {
  if (g.winner === null || g.winner === undefined) return _("a draw");
  const own = live.board && live.board.game === g.game;
  return _("{player} won", { player: own ? playerName(g.winner) : _("player {number}", { number: g.winner + 1 }) });
}

async function pastGames() {
  const reply = await post("/api/command", { cmd: "games" });
  if (!reply.ok) return;
  live.past = reply.games;
  drawPast();
}

// drawn again when the board's players arrive, so a winner is never left named
// by a seat number the page said before it knew the board
function drawPast() {
  const games = live.past;
  if (!games || !$("past")) return;
  // games left with no move at all are set apart, counted, not listed one by one
  const empty = games.filter((g) => g.status === "abandoned" && !g.moves);
  const rows = games.filter((g) => !empty.includes(g)).map((g) => {
    const ending = g.status === "finished" ? wonText(g) : g.status;
    const when = g.started ? _("started {time}", { time: localTime(g.started) }) : _("date unsure");
    const li = el("li", { "data-game": g.id }, _("#{number} {game}, {status}, {moves} moves, {when}", { number: g.id, game: g.game, status: ending, moves: g.moves, when }) + " ");
    li.appendChild(el("a", { href: `/api/export/${g.id}`, download: `game-${g.id}.json` }, _("record")));
    return li;
  });
  if (empty.length) rows.push(el("li", { class: "note" }, empty.length > 1 ? _("{n} games left with no move", { n: empty.length }) : _("1 game left with no move")));
  $("past").replaceChildren(...rows);
}

// The buttons for what the game waits on and the board cannot show: a choice,
// chance's outcome told by a person, an action to tell, another move of the
// computer. Rebuilt only when what is on offer changes: a button replaced
// under a finger (the LEDs change many times a second) would lose its click.
function actButtons(holder, st, run) {
  const choices = (st && st.choices) || [];
  const outcomes = st && st.actor === "chance" && st.chance === "operator" ? st.outcomes || [] : [];
  const tell = (st && st.to_tell) || [];
  const another = !!(st && st.computer && st.computer.doing === "ready");
  if (unchanged(holder, [choices, outcomes, tell, another])) return;
  holder.replaceChildren();
  const button = (words, body, attrs) => {
    const btn = el("button", { type: "button", ...(attrs || {}) }, words);
    btn.onclick = () => run(body);
    holder.appendChild(btn);
  };
  for (const c of choices) button(_("choose {option}", { option: c }), { cmd: "choose", option: c }, { "data-choose": c });
  for (const o of outcomes) button(_("chance: {outcome}", { outcome: o }), { cmd: "chance", action: o }, { "data-chance": o });
  const ply = ((st || {}).moves || []).length;
  for (const t of tell) button(_("tell {action}", { action: t }), { cmd: "play", action: t, ply }, { "data-tell": t });
  if (another) button(_("Another move, computer"), { cmd: "another" }, { id: "another" });
}

function renderOperator() {
  renderLive();
  const st = live.state, b = live.board;
  const sel = $("game-choice"), opts = $("options");
  // the form shows the game on the board, its options as they are, until the operator changes it
  const untouched = !sel.dataset.touched && !opts.dataset.touched;
  if (b && live.me && live.me.operator && untouched && live.me.games.includes(b.game) && opts.dataset.built !== JSON.stringify([b.game, b.options])) {
    sel.value = b.game;
    optionInputs(b.game);
    seatInputs();
  }
  if (b) $("rules").textContent = b.rules;
  if (st && st.version) {
    const spoken = live.me && live.me.language_name ? _("; the board speaks {language} ([board] language)", { language: live.me.language_name }) : "";
    $("version").textContent = `boardctl ${st.version}${spoken}`;
  }
  actButtons($("acts"), st, operatorCommand);
  $("play-form").hidden = !(st && st.told);
  const links = $("links");
  if (b && b.secrets && links.dataset.game !== b.game + b.players.length) {
    links.dataset.game = b.game + b.players.length;
    links.replaceChildren(...b.players.map((p, i) => {
      // one block per player: the button, then the link and its code in its place
      const block = el("div", { class: "private", "data-player": i });
      const btn = el("button", { type: "button", "data-player": i }, _("Make a private link for {player}", { player: playerName(i) }));
      btn.onclick = async () => {
        const r = await post("/api/private-link", { player: i });
        if (!r.ok) return say(r.error, true);
        const url = r.address || new URL(r.link, location.href).href;
        const shown = [el("p", {}, _("{player}: open this on your own phone, once; it is spent when opened.", { player: playerName(i) }))];
        if (r.qr) shown.push(el("img", { src: r.qr, alt: _("QR code of the private link for {player}", { player: playerName(i) }), class: "qr", width: 180, height: 180 }));
        const line = el("p");
        line.appendChild(el("a", { href: url, class: "private-link", "data-player": i }, url));
        shown.push(line);
        block.replaceChildren(...shown);
      };
      block.appendChild(btn);
      return block;
    }));
  } else if (b && !b.secrets) {
    links.dataset.game = "";
    links.textContent = _("This game deals no secrets.");
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
    $("options").onchange = () => { $("options").dataset.touched = "1"; seatInputs(); };
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
    say(_("signed in"));
    showPanel();
  };
  $("new-form").onsubmit = (e) => {
    e.preventDefault();
    if (!secondPress($("new"), _("Press again to end the game under way"))) return;
    operatorCommand({ cmd: "new", game: $("game-choice").value, options: readOptions(), seats: readSeats() });
    // the new game's options come back with the board: the form follows them again
    delete $("game-choice").dataset.touched;
    delete $("options").dataset.touched;
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
  if (token) say(_("the token was not accepted"), true);
  showPanel();
  listen(renderOperator);
}

async function playerPage() {
  const show = async () => {
    const r = await getJSON("/api/private");
    const node = $("secret");
    if (!r.ok) { node.textContent = r.error; return; }
    $("who").textContent = playerName(r.player);
    // each thing in words ("Route card: B4", "Stops: C, E, M"), and marked on the
    // board where it names a site or a site's letter (a terminal, a stop)
    const items = (v) => (Array.isArray(v) ? v.map(String) : typeof v === "string" && /^[A-Z]{2,}$/.test(v) ? [...v] : [String(v)]);
    const marks = new Set();
    node.replaceChildren(...Object.entries(r.private).map(([k, v]) => {
      items(v).forEach((t) => marks.add(t));
      const label = k.replace(/_/g, " ");
      return el("li", { "data-key": k }, `${label[0].toUpperCase()}${label.slice(1)}: ${items(v).join(", ")}`);
    }));
    if (!Object.keys(r.private).length) node.replaceChildren(el("li", {}, _("nothing hidden for you now")));
    const holder = $("board");
    for (const { g, site } of Object.values((holder && holder.parts) || {}))
      g.classList.toggle("mine", marks.has(site.name) || (!!site.label && marks.has(site.label)));
  };
  listen(() => { renderLive(); show(); });
  show();
}

// The simulator's page: the board as it lies (a wrong piece too), played by
// taps. A tap on a track pushes a piece in; on a site with something on it,
// lifts it (or, with a piece chosen, lifts that part or sets the piece onto
// it); on an empty site, puts down the piece chosen, else the one the board
// is missing there, else the mover's only kind of piece.
async function simPage() {
  live.me = await getJSON("/api/session");
  live.physical = {};
  let done = 0;
  const pick = $("piece");
  const redraw = () => {
    refreshPieces();
    renderLive(click, live.physical);
    actButtons($("acts"), live.state, command);
    const st = live.state;
    if ($("winner")) $("winner").textContent = st && st.winner !== null && st.winner !== undefined ? _("{player} wins!", { player: playerName(st.winner) }) : "";
  };
  const hand = async (text) => {
    say(`${text} …`);
    const r = await post("/api/hands", { text });
    if (r.ok) live.physical = r.board;
    say(r.ok ? text : r.error, !r.ok);
    document.body.dataset.hands = String(++done);
    redraw();
  };
  const look = async () => {
    const r = await getJSON("/api/hands");
    if (r.ok) { live.physical = r.board; redraw(); }
  };
  const command = async (body) => {
    const r = await post("/api/command", body);
    const words = { undo: _("undone: {move}", { move: r.undone }), another: _("the computer thinks again, instead of {move}", { move: r.instead_of }), play: _("told: {move}", { move: r.played }), new: _("new game") };
    const finished = _("done");
    say(r.ok ? words[body.cmd] || `${body.cmd}: ${r.chosen || r.played || body.option || body.action || finished}` : r.error, !r.ok);
    document.body.dataset.hands = String(++done);
  };
  function refreshPieces() {
    if (!live.board || pick.dataset.game === live.board.game + live.board.players.length) return;
    pick.dataset.game = live.board.game + live.board.players.length;
    const singles = live.board.pieces.filter((p) => !p.parts.length);
    pick.replaceChildren(el("option", { value: "" }, _("as the board needs")), ...singles.map((p) => el("option", { value: p.code }, p.name)));
  }
  const partsOf = (code) => { const p = pieceOf(code); return p && p.parts.length ? p.parts : [code]; };
  function click(site) {
    const have = live.physical[site.name] || null;
    const chosen = pick.value;
    if (site.kind === "track") return hand(chosen ? `insert ${site.name} ${chosen}` : `insert ${site.name}`);
    if (have) {
      if (!chosen || chosen === have) return hand(`lift ${site.name}`);
      if (partsOf(have).includes(chosen)) return hand(`lift ${site.name} ${chosen}`);
      return hand(`place ${site.name} ${chosen}`);
    }
    const st = live.state || {};
    const own = live.board.pieces.filter((p) => !p.parts.length && p.owner === st.to_move);
    const piece = chosen || (st.restore || {})[site.name] || (own.length === 1 ? own[0].code : null);
    if (!piece) return say(_("choose the piece to put on {site} first", { site: site.name }), true);
    return hand(`place ${site.name} ${piece}`);
  }
  $("hand-form").onsubmit = (e) => { e.preventDefault(); hand($("hand").value); };
  $("new-game").onclick = () => {
    if (secondPress($("new-game"), _("Press again to end this game"))) command({ cmd: "new" });
  };
  $("undo").onclick = () => command({ cmd: "undo" });
  let seen = null;
  listen(() => {
    // the hands may have been moved elsewhere too (the terminal): look again when the game changes
    const key = JSON.stringify([(live.state || {}).moves, (live.state || {}).phase]);
    if (key !== seen) { seen = key; look(); }
    redraw();
  });
}

({ board: () => listen(() => renderLive()), score: scorePage, operator: operatorPage, player: playerPage, sim: simPage })[page]();
