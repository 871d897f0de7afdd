// The statistics drawn as SVG (docs/fleet.md): each element with
// data-stats-scope ("board" or "venue") gets the plots of that scope, and the
// board's a link to its games as CSV. Asked again every minute.
"use strict";

async function showStats(box) {
  const scope = box.dataset.statsScope;
  try {
    const r = await fetch(`/api/stats/${scope}`, { credentials: "same-origin" });
    const s = await r.json();
    if (!s.ok) { box.hidden = true; return; }
    box.hidden = false;
    const stamp = Date.now();
    const shown = s.plots.map((name) => {
      const img = document.createElement("img");
      img.src = `/stats/${scope}/${name}.svg?at=${stamp}`;
      img.alt = name;
      img.dataset.plot = name;
      img.className = "plot";
      return img;
    });
    const said = document.createElement("p");
    said.className = "note";
    said.textContent = _("{games} games finished.", { games: s.games });
    if (scope === "board") {
      const link = document.createElement("a");
      link.href = "/stats/board.csv";
      link.textContent = _("Every game as CSV");
      link.id = "stats-csv";
      said.append(" ", link);
    }
    box.querySelector(".plots").replaceChildren(said, ...shown);
  } catch (e) {
    // the page's own stream says when the board is gone
  }
}

for (const box of document.querySelectorAll("[data-stats-scope]")) {
  showStats(box);
  setInterval(() => showStats(box), 60000);
}
