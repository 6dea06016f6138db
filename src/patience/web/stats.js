// The statistics page: a player's games played and won, win rate, streaks and best times, one
// row per game and options ("Spider, 1 suit" apart from "Spider").

import { api } from "./api.js";

function cell(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

// As the table page's clock (table.js) shows a time: whole seconds cut off, not rounded, so a
// best time reads as the win's banner did (3.6 s is 0:03 in both), and h:mm:ss past an hour.
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  const s = Math.floor(seconds);
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
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
    row.dataset.title = g.title ?? g.game;
    for (const value of [g.title ?? g.game, g.played, g.won, `${Math.round(g.win_rate * 100)}%`,
      g.current_streak, g.best_streak, duration(g.best_seconds), g.best_moves ?? "—"]) {
      row.appendChild(cell("td", String(value)));
    }
  }
  root.replaceChildren(heading, table);
}
