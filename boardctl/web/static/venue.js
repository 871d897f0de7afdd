// The venue's page (docs/fleet.md): every board on the broker, live, with
// today's results (local times, the winner named) and a leaderboard.
"use strict";

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text === undefined || text === null ? "" : String(text);
  return td;
}

function row(board, ...texts) {
  const tr = document.createElement("tr");
  tr.dataset.board = board;
  for (const t of texts) tr.append(cell(t));
  return tr;
}

function localTime(iso) {
  const when = new Date(iso);
  return isNaN(when) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function boardRow(b) {
  let state;
  if (!b.online) state = _("offline");
  else if (b.fault) state = _("fault: {fault}", { fault: b.fault });
  else if (b.phase === "game_over") state = _("game over");
  else state = "";
  const tr = row(b.board, b.board, b.game || "", b.online ? b.turn || "" : "", b.scores, b.moves, state);
  if (!b.online || b.fault) tr.className = "problem";
  return tr;
}

function resultText(r) {
  const who = r.winner_name === "draw" ? _("a draw") : _("won by {player}", { player: r.winner_name });
  const scores = Array.isArray(r.scores) && r.scores.length ? `, ${r.scores.join(" : ")}` : "";
  return `${localTime(r.ended)} ${r.board}: ${r.game} ${who}${scores} ` + _("({moves} moves)", { moves: r.moves });
}

function show(v) {
  document.querySelector("#boards tbody").replaceChildren(...v.boards.map(boardRow));
  const results = v.results.map((r) => {
    const li = document.createElement("li");
    li.textContent = resultText(r);
    li.dataset.board = r.board;
    return li;
  });
  document.getElementById("results").replaceChildren(...results);
  document.querySelector("#leaderboard tbody").replaceChildren(
    ...v.leaderboard.map((l) => row(l.game, l.game, l.player, _("{wins} of {games}", { wins: l.wins, games: l.games }))),
  );
  const online = v.boards.filter((b) => b.online).length;
  document.getElementById("venue-said").textContent =
    _("{boards} boards, {online} online; {games} games finished today.", { boards: v.boards.length, online, games: v.results.length });
}

async function poll() {
  try {
    const r = await fetch("/api/venue", { credentials: "same-origin" });
    const v = await r.json();
    if (v.ok) show(v);
    else document.getElementById("venue-said").textContent = v.error || "";
  } catch (e) {
    document.getElementById("venue-said").textContent = _("this board does not answer: trying again");
  }
  setTimeout(poll, 2000);
}

poll();
