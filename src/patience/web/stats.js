// The statistics page: a player's games played and won, win rate, streaks and best times, one
// row per game and options ("Spider, 1 suit" apart from "Spider"). On one's own page, the name:
// claim it with a password, log in to it from another browser, log out, and whether others may
// see these statistics (docs/web.md, "Sessions and names").

import { api } from "./api.js";
import { h } from "./dom.js";

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

// The account's part of one's own statistics page. Every change reloads the page, so that the
// header, the statistics and this section show the session as it now is.
function accountSection(me) {
  const message = h("p", { class: "message", role: "status", "data-testid": "account-message" });
  const fail = (error) => {
    message.className = "message error";
    message.textContent = error.message;
  };
  const reload = () => window.location.reload();
  if (me.claimed) {
    const show = h("input", { type: "checkbox", id: "show-stats", checked: me.show_stats,
      onchange: () => api.settings({ show_stats: show.checked }).then((now) => {
        message.className = "message";
        message.textContent = now.show_stats
          ? "Anybody may see these statistics (at /stats?player=your name)."
          : "Only you see these statistics.";
      }).catch(fail) });
    return h("section", { class: "account", "aria-label": "Your name" },
      h("p", {}, `You are logged in as ${me.name}: any browser that logs in with your `
        + "password reaches your tables and statistics."),
      h("p", {}, show, " ", h("label", { for: "show-stats" }, "Show my statistics to others")),
      h("button", { type: "button", onclick: () => api.logout().then(reload).catch(fail) },
        "Log out"),
      message);
  }
  const name = h("input", { id: "account-name", name: "name", required: true, maxlength: 40,
    autocomplete: "username", value: me.name === "guest" ? "" : me.name });
  const password = h("input", { id: "account-password", name: "password", type: "password",
    required: true, minlength: 8, maxlength: 1024, autocomplete: "current-password" });
  const form = h("form", { class: "account", "aria-label": "Your name",
    onsubmit: (event) => {
      event.preventDefault();
      const action = event.submitter?.value === "login" ? api.login : api.claim;
      action(name.value, password.value).then(reload).catch(fail);
    } },
  h("p", {}, "Your tables and statistics are this browser's. Claim your name with a password "
    + "to reach them from another browser too, or log in to a name you claimed."),
  h("p", {}, h("label", { for: "account-name" }, "Name "), name, " ",
    h("label", { for: "account-password" }, "Password "), password),
  h("p", {}, h("button", { type: "submit", value: "claim" }, "Claim this name"), " ",
    h("button", { type: "submit", value: "login" }, "Log in")),
  message);
  return form;
}

export async function statsPage(root) {
  const player = new URLSearchParams(window.location.search).get("player");
  const data = await api.stats(player);
  const heading = cell("h1", `Statistics of ${data.player}`);
  // Only one's own page has the account's controls (another's, shown, has none).
  const account = player ? [] : [accountSection(await api.player())];
  if (!data.games.length) {
    root.replaceChildren(heading, ...account, cell("p", "No games played yet."));
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
  root.replaceChildren(heading, ...account, table);
}
