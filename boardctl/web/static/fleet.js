// The operator page's part about other boards (docs/fleet.md): whether the
// broker is reached, and remote play. Uses app.js's helpers ($, el, post, say).
"use strict";

function brokerText(b) {
  if (b.reached) return `Broker ${b.broker}: reached as ${b.board_id} since ${b.since}` + (b.commands ? "." : " (anonymous: it takes no commands).");
  let text = `Broker ${b.broker}: not reached`;
  if (b.error) text += `: ${b.error}`;
  if (b.next_try) text += `; trying again at ${b.next_try}`;
  return text + ".";
}

// Remote play: the game with another board, the invitations with Accept and
// Decline, and a form inviting a board to play the second seat.
function remoteGameText(g) {
  let state;
  if (g.left) state = "has left this game (declined, or began another)";
  else if (g.joined) state = `plays it: ${g.acknowledged} of ${g.seq} moves acknowledged`;
  else state = "has not accepted yet";
  return `Game ${g.number} with ${g.board}: ${g.board} ${state}.`;
}

async function remoteCommand(body) {
  const reply = await post("/api/command", body);
  if (reply.ok) say(body.cmd === "decline" ? `declined ${body.board}'s game` : `${body.cmd}: done`);
  else say(reply.error, true);
}

function inviteForm() {
  const form = el("form", { id: "invite-form" });
  const input = el("input", { id: "invite-board", maxlength: "64", pattern: "[A-Za-z0-9][A-Za-z0-9_-]*", placeholder: "table-2", required: "" });
  const label = el("label", {}, "Play a new game with the board ");
  label.append(input);
  form.append(label, " ", el("button", { type: "submit", id: "invite" }, "Invite"));
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
      `${inv.board} invites this board to ${inv.game} (seats ${inv.seats.join(", ")}). `);
    const yes = el("button", { type: "button", class: "accept" }, "Accept");
    yes.onclick = () => remoteCommand({ cmd: "accept", board: inv.board });
    const no = el("button", { type: "button", class: "decline" }, "Decline");
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
