// The statistics page: a player's games played and won, win rate, streaks and best times.

import { api } from "./api.js";

function cell(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function duration(seconds) {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export async function statsPage(root) {
  const player = new URLSearchParams(window.location.search).get("player");
  const data = await api.stats(player);
  const heading = cell("h1", `Statistics of ${data.player}`);
  if (!data.games.length) {
    root.replaceChildren(heading, cell("p", "No games played yet."));
    return;
  }
  const table = document.createElement("table");
  table.className = "stats";
  const head = table.createTHead().insertRow();
  for (const title of ["Game", "Played", "Won", "Win rate", "Streak", "Best streak",
    "Best time", "Fewest moves"]) head.appendChild(cell("th", title));
  const body = table.createTBody();
  for (const g of data.games) {
    const row = body.insertRow();
    row.dataset.game = g.game;
    for (const value of [g.game, g.played, g.won, `${Math.round(g.win_rate * 100)}%`,
      g.current_streak, g.best_streak, duration(g.best_seconds), g.best_moves ?? "—"]) {
      row.appendChild(cell("td", String(value)));
    }
  }
  root.replaceChildren(heading, table);
}
