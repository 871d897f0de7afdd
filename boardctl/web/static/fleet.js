// The operator page's part about other boards (docs/fleet.md): whether the
// broker is reached, and remote play. Uses app.js's helpers ($, el, post, say).
"use strict";

function brokerText(b) {
  const where = { broker: b.broker, board: b.board_id, since: b.since };
  if (b.reached) return b.commands ? _("Broker {broker}: reached as {board} since {since}.", where) : _("Broker {broker}: reached as {board} since {since} (anonymous: it takes no commands).", where);
  let text = _("Broker {broker}: not reached", where);
  if (b.error) text += `: ${b.error}`;
  if (b.next_try) text += _("; trying again at {time}", { time: b.next_try });
  return text + ".";
}

// Remote play: the game with another board, the invitations with Accept and
// Decline, and a form inviting a board to play the second seat.
function remoteGameText(g) {
  let state;
  if (g.left) state = _("{board} has left this game (declined, or began another)", { board: g.board });
  else if (g.joined) state = _("{board} plays it: {acknowledged} of {moves} moves acknowledged", { board: g.board, acknowledged: g.acknowledged, moves: g.seq });
  else state = _("{board} has not accepted yet", { board: g.board });
  return _("Game {number} with {board}: {state}.", { number: g.number, board: g.board, state });
}

async function remoteCommand(body) {
  const reply = await post("/api/command", body);
  if (reply.ok) say(body.cmd === "decline" ? _("declined {board}'s game", { board: body.board }) : _("{command}: done", { command: body.cmd }));
  else say(reply.error, true);
}

function inviteForm() {
  const form = el("form", { id: "invite-form" });
  const input = el("input", { id: "invite-board", maxlength: "64", pattern: "[A-Za-z0-9][A-Za-z0-9_-]*", placeholder: "table-2", required: "" });
  const label = el("label", {}, _("Play a new game with the board") + " ");
  label.append(input);
  form.append(label, " ", el("button", { type: "submit", id: "invite" }, _("Invite")));
  form.onsubmit = (e) => {
    e.preventDefault();
    remoteCommand({ cmd: "new", seats: ["hands", `remote:${input.value.trim()}`] });
  };
  return form;
}

function showRemote(reply) {
  const play = reply.remote_play;
  const box = $("remote");
  if (!play) { box.replaceChildren(); return; }
  if (!$("invite-form")) box.replaceChildren(el("div", { id: "remote-rows" }), inviteForm());
  const key = JSON.stringify(play);
  const rowsBox = $("remote-rows");
  if (rowsBox.dataset.shown === key) return;
  rowsBox.dataset.shown = key;
  const rows = [];
  if (play.game) rows.push(el("p", { id: "remote-game" }, remoteGameText(play.game)));
  for (const inv of play.invitations || []) {
    const p = el("p", { class: "invitation", "data-board": inv.board },
      _("{board} invites this board to {game} (seats {seats}).", { board: inv.board, game: inv.game, seats: inv.seats.join(", ") }) + " ");
    const yes = el("button", { type: "button", class: "accept" }, _("Accept"));
    yes.onclick = () => remoteCommand({ cmd: "accept", board: inv.board });
    const no = el("button", { type: "button", class: "decline" }, _("Decline"));
    no.onclick = () => remoteCommand({ cmd: "decline", board: inv.board });
    p.append(yes, " ", no);
    rows.push(p);
  }
  rowsBox.replaceChildren(...rows);
}

const fleetHooks = [showRemote];

async function fleetPoll() {
  const panel = document.getElementById("panel");
  if (panel && !panel.hidden) {
    try {
      const reply = await getJSON("/api/fleet");
      const section = $("fleet");
      if (reply.ok && reply.broker) {
        section.hidden = false;
        const text = brokerText(reply.broker);
        const p = $("broker");
        if (p.textContent !== text) p.textContent = text;
        p.className = reply.broker.reached ? "" : "problems";
        for (const hook of fleetHooks) hook(reply);
      } else {
        section.hidden = true;
      }
    } catch (e) {
      // the page's own stream says when the board is gone
    }
  }
  setTimeout(fleetPoll, 3000);
}

if (document.body.dataset.page === "operator") setTimeout(fleetPoll, 500);
