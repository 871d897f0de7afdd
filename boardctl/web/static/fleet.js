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

const fleetHooks = [];

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
