// The start page: who is playing, their unfinished games, and every game with its options and a
// deal-number field (empty: a random deal).

import { api } from "./api.js";
import { h } from "./dom.js";

function optionField(game, option) {
  const id = `${game.name}-${option.name}`;
  let input;
  if (option.kind === "choice" || option.kind === "bool") {
    const values = option.kind === "bool" ? [true, false] : option.choices;
    input = h("select", { id, name: option.name },
      values.map((value) => h("option", { value: String(value), selected: value === option.default },
        option.kind === "bool" ? (value ? "on" : "off") : String(value))));
  } else {
    input = h("input", { id, name: option.name, value: String(option.default), size: 9,
      "aria-describedby": `${id}-help` });
  }
  return h("div", { class: "field" },
    h("label", { for: id }, option.name), input,
    h("small", { id: `${id}-help` }, `${option.help} (default ${option.kind === "bool"
      ? (option.default ? "on" : "off") : option.default})`));
}

function gameCard(game) {
  const dealId = `${game.name}-deal`;
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "game", "data-game": game.name, onsubmit: async (event) => {
    event.preventDefault();
    const options = {};
    for (const option of game.options) options[option.name] = form.elements[option.name].value;
    const dealText = form.elements.deal.value.trim();
    const winnable = form.elements.winnable.checked;
    if (dealText && !/^\d+$/.test(dealText)) {
      error.textContent = "A deal number is a whole number (or leave it empty for a random deal).";
      return;
    }
    if (dealText && winnable) {
      error.textContent = "Choose a deal number or winnable deals only, not both.";
      return;
    }
    // Remembered for the table's "New deal" button.
    localStorage.setItem(`patience.winnable.${game.name}`, winnable ? "1" : "0");
    try {
      const state = await api.create(game.name, options, dealText ? Number(dealText) : null,
        winnable);
      window.location.assign(`/play/${state.table}`);
    } catch (failure) {
      error.textContent = failure.message;
    }
  } },
  h("h2", {}, game.title),
  h("p", { class: "summary" }, game.summary),
  game.options.map((option) => optionField(game, option)),
  h("div", { class: "field" }, h("label", { for: dealId }, "deal"),
    h("input", { id: dealId, name: "deal", inputmode: "numeric", placeholder: "random",
      size: 12 })),
  h("label", { class: "winnable" }, h("input", { type: "checkbox", name: "winnable",
    checked: localStorage.getItem(`patience.winnable.${game.name}`) === "1" }),
  "Winnable deals only (deals the solver has proved winnable)"),
  h("button", { type: "submit" }, `Play ${game.title}`), error);
  return form;
}

export async function startPage(root) {
  const [games, player, ongoing] = await Promise.all([api.games(), api.player(),
    api.tables(true)]);
  const nameInput = h("input", { id: "player-name", name: "name", value: player.name,
    maxlength: 40, autocomplete: "nickname" });
  const nameNote = h("span", { class: "note", role: "status" });
  const nameForm = h("form", { class: "player", onsubmit: async (event) => {
    event.preventDefault();
    try {
      const answer = await api.setPlayer(nameInput.value);
      nameNote.textContent = `Playing as ${answer.name}.`;
      window.location.reload();
    } catch (failure) {
      nameNote.textContent = failure.message;
    }
  } }, h("label", { for: "player-name" }, "Your name "), nameInput,
  h("button", { type: "submit" }, "Change"), nameNote);
  const resume = ongoing.length ? h("section", { class: "resume" }, h("h2", {}, "Unfinished games"),
    h("ul", {}, ongoing.map((t) => h("li", {}, h("a", { href: `/play/${t.table}` },
      `${t.game}, deal ${t.deal}, ${t.moves} moves`))))) : null;
  root.replaceChildren(...[
    h("section", { class: "intro" }, h("h1", {}, "Play patience"), nameForm,
      h("p", {}, h("a", { href: "/replay" }, "Replay a record file"), " step by step.")),
    resume,
    h("div", { class: "games" }, games.map(gameCard)),
  ].filter(Boolean));
}
