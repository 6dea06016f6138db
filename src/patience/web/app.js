// The front end's entry point: one page, three views chosen by the address.

import { api } from "./api.js";
import { startPage } from "./start.js";
import { statsPage } from "./stats.js";
import { replayPage } from "./replay.js";
import { TablePage } from "./table.js";

async function main() {
  const root = document.getElementById("app");
  const who = document.getElementById("who");
  api.player().then((player) => { who.textContent = `Player: ${player.name}`; }).catch(() => {});
  const path = window.location.pathname;
  const play = path.match(/^\/play\/([A-Za-z0-9_-]+)$/);
  try {
    if (play) await new TablePage(root, play[1]).start();
    else if (path === "/stats") await statsPage(root);
    else if (path === "/replay") await replayPage(root);
    else await startPage(root);
  } catch (error) {
    const p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    p.textContent = `Something went wrong: ${error.message}`;
    root.replaceChildren(p);
  }
}

main();
