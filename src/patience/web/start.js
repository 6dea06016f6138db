// The start page: who is playing, their unfinished games, and every game with its options and a
// deal-number field (empty: a random deal).

import { api } from "./api.js";
import { h } from "./dom.js";

// An option's key with a line-break opportunity after each underscore ("from_" "foundation"),
// so that a narrow column breaks it there rather than mid-word.
function keyParts(key) {
  return key.split("_").flatMap((part, index, parts) =>
    index < parts.length - 1 ? [`${part}_`, h("wbr")] : [part]);
}

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
  // A readable label, with the option's key (as the command line and records name it) below.
  return h("div", { class: "field" },
    h("label", { for: id }, option.label ?? option.name, " ",
      h("code", { class: "option-key" }, keyParts(option.name))), input,
    h("small", { id: `${id}-help` }, `${option.help} (default ${option.kind === "bool"
      ? (option.default ? "on" : "off") : option.default})`));
}

// Whether every option named in `wanted` has that value in `options` (the form's values are
// text, the server's are JSON values: both compared as text).
function matches(wanted, options) {
  return Object.entries(wanted).every(([name, value]) => String(options[name]) === String(value));
}

// What "winnable deals only" does for these options, as the server described it: a shipped list
// of proved deals, or a search on demand (which may find nothing, and rarely does for some).
export function winnableNote(winnable, options) {
  if (!winnable || !winnable.available) {
    return "this server has no solver, so it cannot deal them";
  }
  const list = (winnable.lists ?? []).find((entry) => matches(entry.options, options));
  if (list) return `dealt from ${list.deals} deals the solver has proved winnable`;
  const budget = winnable.seconds ? ` for up to ${winnable.seconds} s` : "";
  const rarely = (winnable.rarely ?? []).find((entry) => matches(entry.options, options));
  if (rarely) {
    return `no proved list ships for these options: a deal is searched for on demand${budget}, ` +
      `and ${rarely.note}, so usually none is found`;
  }
  return `no proved list ships for these options: a deal is searched for on demand${budget} ` +
    "and may not be found";
}

function gameCard(game) {
  const dealId = `${game.name}-deal`;
  const error = h("p", { class: "error", role: "alert" });
  const note = h("span", { class: "winnable-note" });
  const playText = `Play ${game.title}`;
  const button = h("button", { type: "submit" }, playText);
  const formOptions = () => Object.fromEntries(game.options.map((option) =>
    [option.name, form.elements[option.name].value]));
  const describe = () => { note.textContent = ` (${winnableNote(game.winnable, formOptions())})`; };
  const form = h("form", { class: "game", "data-game": game.name, onchange: describe,
    onsubmit: async (event) => {
      event.preventDefault();
      if (button.disabled) return;
      const options = formOptions();
      const dealText = form.elements.deal.value.trim();
      const winnable = form.elements.winnable.checked;
      error.textContent = "";
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
      // A winnable deal may be searched for on demand, for seconds: say so, and take no second
      // click meanwhile.
      button.disabled = true;
      if (winnable) button.textContent = "Searching for a winnable deal…";
      try {
        const state = await api.create(game.name, options, dealText ? Number(dealText) : null,
          winnable);
        window.location.assign(`/play/${state.table}`);
      } catch (failure) {
        error.textContent = failure.message;
        button.disabled = false;
        button.textContent = playText;
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
  "Winnable deals only", note),
  button, error);
  describe();
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
      `${t.title ?? t.game} · deal ${t.deal} · ${t.moves} moves`))))) : null;
  root.replaceChildren(...[
    h("section", { class: "intro" }, h("h1", {}, "Play patience"), nameForm,
      h("p", {}, h("a", { href: "/replay" }, "Replay a record file"), " step by step.")),
    resume,
    h("div", { class: "games" }, games.map(gameCard)),
  ].filter(Boolean));
}
