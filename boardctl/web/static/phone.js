// A seat played on a phone (seats "phone", docs/fleet.md). On a player's
// private page: when it is their turn, the moves they may choose, as buttons;
// the board then lights the one chosen for the hands there to make. On the
// operator page: a link for each phone seat's player.
"use strict";

function phoneEl(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// a request the daemon does not answer (stopped, restarting) is an answer
// saying so: the page goes on asking, and never breaks on it
const phoneUnanswered = () => ({ ok: false, error: _("the board's controller is not answering") });

async function phoneSession() {
  try {
    const r = await fetch("/api/session", { credentials: "same-origin" });
    return await r.json();
  } catch (e) {
    return phoneUnanswered();
  }
}

async function phonePost(url, body, csrf) {
  try {
    const r = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" },
      body: JSON.stringify(body),
    });
    return await r.json();
  } catch (e) {
    return phoneUnanswered();
  }
}

async function phonePlayer() {
  const me = await phoneSession();  // the link's session: its CSRF token
  const box = document.getElementById("phone");
  const said = document.getElementById("phone-said");
  const moves = document.getElementById("phone-moves");
  const poll = async () => {
    try {
      const r = await (await fetch("/api/phone", { credentials: "same-origin" })).json();
      if (r.ok && r.turn) {
        box.hidden = false;
        const key = `${r.ply}:${r.moves.join(",")}`;
        if (moves.dataset.shown !== key) {
          moves.dataset.shown = key;
          said.textContent = _("Your turn: choose your move; the board lights it for the hands there.");
          moves.replaceChildren(...r.moves.map((m) => {
            const b = phoneEl("button", { type: "button", class: "phone-move", "data-move": m }, m);
            b.onclick = async () => {
              const sent = await phonePost("/api/phone", { action: m, ply: r.ply }, me.csrf);
              said.textContent = sent.ok ? _("You chose {move}: it is lit on the board.", { move: m }) : sent.error;
              if (sent.ok) moves.replaceChildren();
            };
            return b;
          }));
        }
      } else if (r.ok) {
        moves.dataset.shown = "";
        moves.replaceChildren();
        box.hidden = !said.textContent;
      }
    } catch (e) {
      // the page's own stream says when the board is gone
    }
    setTimeout(poll, 1000);
  };
  poll();
}

async function phoneOperator() {
  // the session app.js began (asking for one here would begin another)
  const me = typeof live !== "undefined" ? live.me : null;
  if (!me || !me.operator) { setTimeout(phoneOperator, 1000); return; }
  const box = document.getElementById("phones");
  const poll = async () => {
    const st = await phonePost("/api/command", { cmd: "status" }, me.csrf);
    const seats = (st.ok && st.seats) || [];
    const phones = seats.map((s, i) => [s, i]).filter(([s]) => s === "phone");
    const key = phones.map(([, i]) => i).join(",");
    if (box.dataset.shown !== key) {
      box.dataset.shown = key;
      box.hidden = !phones.length;
      const rows = phones.map(([, i]) => {
        // named as every page names them (app.js's playerName: "red (player 2)")
        const who = playerName(i);
        const p = phoneEl("p", { class: "phone-seat" }, _("{who} plays on their phone.", { who }) + " ");
        const b = phoneEl("button", { type: "button", "data-phone": String(i) }, _("Make their link"));
        b.onclick = async () => {
          const r = await phonePost("/api/private-link", { player: i }, me.csrf);
          const url = r.ok ? new URL(r.link, location.href).href : r.error;
          p.replaceChildren(_("{who} plays on their phone:", { who }) + " ", phoneEl("a", { href: url, class: "phone-link", "data-player": String(i) }, url));
        };
        p.append(b);
        return p;
      });
      box.replaceChildren(phoneEl("h2", {}, "Phones"), ...rows);
    }
    setTimeout(poll, 3000);
  };
  poll();
}

if (document.body.dataset.page === "player") phonePlayer();
if (document.body.dataset.page === "operator") phoneOperator();
