// The start page: who is playing, their unfinished games, and every game as a tile with a
// picture of its layout and one Play button; its options, a deal-number field (empty: a random
// deal) and "winnable deals only" behind the tile's Settings control, remembered in this browser.

import { api } from "./api.js";
import { h } from "./dom.js";
import { layoutPicture } from "./pictures.js";
import { SCORINGS, chosenScoring, scoringKey } from "./scoring.js";

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

// The grades of the list of proved deals for these options (`{easy: N, medium: N, hard: N}`),
// or null when it has none (or no list ships for them): a grade is offered only then.
export function winnableGrades(winnable, options) {
  if (!winnable || !winnable.available) return null;
  const list = (winnable.lists ?? []).find((entry) => matches(entry.options, options));
  return list?.grades ?? null;
}

const GRADES = ["easy", "medium", "hard"];

// The options a player last played a game with, kept in this browser and, for the player's
// session (or claimed name, across browsers), on the server; only values the game still allows.
const optionsKey = (game) => `patience.options.${game}`;
const winnableKey = (game) => `patience.winnable.${game}`;
const gradeKey = (game) => `patience.grade.${game}`;

/** This browser's choices for `game` (options, winnable deals only, scoring), as the server
 * keeps them (`POST /api/player {"choices"}`); sent without waiting, as a remembered setting. */
function saveChoices(game) {
  let options = {};
  try {
    options = JSON.parse(localStorage.getItem(optionsKey(game)) ?? "{}") ?? {};
  } catch {
    options = {};
  }
  const choice = { options, winnable: localStorage.getItem(winnableKey(game)) === "1" };
  const scoring = localStorage.getItem(scoringKey(game));
  if (scoring) choice.scoring = scoring;
  const grade = localStorage.getItem(gradeKey(game));
  if (GRADES.includes(grade)) choice.grade = grade;
  api.settings({ choices: { [game]: choice } }).catch(() => {
    // Kept in this browser all the same; the server's copy is for the player's other browsers.
  });
}

/** The server's choices (the player's, from any browser) become this browser's: the tiles and
 * the table read them from localStorage. */
function adoptChoices(choices) {
  for (const [game, choice] of Object.entries(choices ?? {})) {
    localStorage.setItem(optionsKey(game), JSON.stringify(choice.options ?? {}));
    localStorage.setItem(winnableKey(game), choice.winnable ? "1" : "0");
    if (choice.scoring) localStorage.setItem(scoringKey(game), choice.scoring);
    localStorage.setItem(gradeKey(game), choice.grade ?? "");
  }
}

export function rememberedOptions(game) {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(optionsKey(game.name)) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  const chosen = {};
  for (const option of game.options) {
    const value = stored[option.name];
    if (value === undefined) continue;
    const allowed = option.kind === "bool" ? ["true", "false"]
      : option.kind === "choice" ? option.choices.map(String) : null;
    if (allowed === null || allowed.includes(String(value))) chosen[option.name] = String(value);
  }
  return chosen;
}

// The options that differ from the defaults, in words: "Cards turned from the stock: 1".
function chosenWords(game, options) {
  const changed = game.options.filter((option) =>
    options[option.name] !== undefined && String(options[option.name]) !== String(option.default));
  if (!changed.length) return "Standard rules";
  return changed.map((option) => {
    const value = options[option.name];
    const words = option.kind === "bool" ? (value === "true" ? "on" : "off") : value;
    return `${option.label ?? option.name}: ${words}`;
  }).join(" · ");
}

// The score shown at the table (a setting of this browser, not an option of the rules: never
// sent with the game's options), for the games that have scorings (scoring.js).
function scoringField(game) {
  const choices = SCORINGS[game.name];
  if (!choices) return null;
  const id = `${game.name}-scoring`;
  const chosen = chosenScoring(game.name);
  return h("div", { class: "field" }, h("label", { for: id }, "Score shown"),
    h("select", { id, name: "scoring", onchange: (event) => {
      event.stopPropagation(); // not one of the game's options
      localStorage.setItem(scoringKey(game.name), event.target.value);
      saveChoices(game.name);
    } }, choices.map(([key, label]) => h("option", { value: key, selected: key === chosen },
      label))),
    h("small", {}, "at the table, beside the time and the moves; it does not change the rules"));
}

// A game's tile: its picture, name and summary, the options it will be played with, one Play
// button, and the options, deal number and "winnable deals only" behind a Settings control.
/**
 * Asks before a new table abandons an unfinished one of the same game (it would count as a game
 * lost in the statistics): resolves true to start the new one. The other way out goes back to
 * the unfinished table; Escape stays on the page.
 */
function confirmAbandon(game, unfinished) {
  return new Promise((resolve) => {
    let box = null;
    const close = (start) => {
      box.close();
      box.remove();
      resolve(start);
    };
    const moves = unfinished.moves === 1 ? "1 move" : `${unfinished.moves} moves`;
    box = h("dialog", { class: "confirm", "aria-labelledby": "abandon-title",
      "aria-describedby": "abandon-text", oncancel: () => resolve(false) },
    h("h2", { id: "abandon-title" }, "Abandon your unfinished game?"),
    h("p", { id: "abandon-text" }, `Your ${unfinished.title ?? game.title} game (deal `
      + `${unfinished.deal}, ${moves}) is not over. A new game leaves it unfinished, and it `
      + "counts as a game lost in your statistics (it ends a winning streak)."),
    h("div", { class: "dialog-buttons" },
      h("a", { class: "button", href: `/play/${unfinished.table}`, autofocus: true,
        "data-testid": "back-to-it" }, "Go back to it"),
      h("button", { type: "button", class: "danger", "data-testid": "abandon",
        onclick: () => close(true) }, "Start a new game")));
    document.body.append(box);
    box.showModal();
  });
}

function gameCard(game, ongoing) {
  const dealId = `${game.name}-deal`;
  const error = h("p", { class: "error", role: "alert" });
  const note = h("span", { class: "winnable-note" });
  const playText = `Play ${game.title}`;
  const button = h("button", { type: "submit", class: "play" }, playText);
  const chosen = h("p", { class: "chosen", "data-testid": "chosen" });
  const formOptions = () => Object.fromEntries(game.options.map((option) =>
    [option.name, form.elements[option.name].value]));
  // The grade asked for: only while its select is offered (winnable deals of graded options).
  const chosenGrade = () => (gradeField.hidden ? null : form.elements.grade.value || null);
  const describe = () => {
    note.textContent = ` (${winnableNote(game.winnable, formOptions())})`;
    const grades = winnableGrades(game.winnable, formOptions());
    gradeField.hidden = !(grades && form.elements.winnable.checked);
    for (const option of form.elements.grade.options) {
      if (option.value) option.textContent = `${option.value} (${grades?.[option.value] ?? 0} deals)`;
    }
    const grade = chosenGrade();
    const winnable = form.elements.winnable.checked
      ? ` · winnable deals only${grade ? ` (${grade})` : ""}` : "";
    chosen.textContent = chosenWords(game, formOptions()) + winnable;
  };
  const remember = () => {
    localStorage.setItem(optionsKey(game.name), JSON.stringify(formOptions()));
    localStorage.setItem(winnableKey(game.name), form.elements.winnable.checked ? "1" : "0");
    // Kept only while offered, so that "New deal" at the table never asks for a grade that
    // these options do not have.
    localStorage.setItem(gradeKey(game.name), chosenGrade() ?? "");
    saveChoices(game.name);
  };
  const gradeId = `${game.name}-grade`;
  const savedGrade = localStorage.getItem(gradeKey(game.name)) ?? "";
  // Offered (by describe) only for winnable deals of options whose proved list is graded.
  const gradeField = h("div", { class: "field grade", hidden: true },
    h("label", { for: gradeId }, "Winnable deals of grade"),
    h("select", { id: gradeId, name: "grade", "aria-describedby": `${gradeId}-help` },
      h("option", { value: "", selected: !GRADES.includes(savedGrade) }, "any"),
      GRADES.map((grade) => h("option", { value: grade, selected: grade === savedGrade }, grade))),
    h("small", { id: `${gradeId}-help` },
      "thirds of the proved deals by the solver's effort to win them, not a person's"));
  const settingsId = `${game.name}-settings`;
  const form = h("form", { class: "game tile", "data-game": game.name,
    onchange: () => { remember(); describe(); },
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
      // Remembered for the next visit and for the table's "New deal" button.
      remember();
      const unfinished = ongoing.find((table) => table.game === game.name && table.moves > 0);
      if (unfinished && !(await confirmAbandon(game, unfinished))) return;
      // A winnable deal may be searched for on demand, for seconds: say so, and take no second
      // click meanwhile.
      button.disabled = true;
      if (winnable) button.textContent = "Searching for a winnable deal…";
      try {
        const state = await api.create(game.name, options, dealText ? Number(dealText) : null,
          winnable, winnable ? chosenGrade() : null);
        window.location.assign(`/play/${state.table}`);
      } catch (failure) {
        error.textContent = failure.message;
        button.disabled = false;
        button.textContent = playText;
      }
    } },
  h("div", { class: "tile-picture" }, layoutPicture(game.name)),
  h("h2", {}, game.title),
  h("p", { class: "summary" }, game.summary),
  chosen,
  h("div", { class: "tile-buttons" }, button,
    h("button", { type: "button", class: "settings-button", "aria-expanded": "false",
      "aria-controls": settingsId, "aria-label": `Settings for ${game.title}`,
      onclick: (event) => {
        const open = settings.hidden;
        settings.hidden = !open;
        form.classList.toggle("open", open);
        event.currentTarget.setAttribute("aria-expanded", String(open));
        if (open) settings.querySelector("select, input")?.focus();
      } }, h("span", { "aria-hidden": "true" }, "⚙"), h("span", { class: "settings-word" },
      " Settings"))),
  error);
  const settings = h("fieldset", { class: "settings", id: settingsId, hidden: true },
    h("legend", {}, `Settings for ${game.title}`),
    game.options.map((option) => optionField(game, option)),
    h("div", { class: "field" }, h("label", { for: dealId }, "deal"),
      h("input", { id: dealId, name: "deal", inputmode: "numeric", placeholder: "random",
        size: 12 })),
    h("label", { class: "winnable" }, h("input", { type: "checkbox", name: "winnable",
      checked: localStorage.getItem(winnableKey(game.name)) === "1" }),
    "Winnable deals only", note),
    gradeField,
    scoringField(game));
  form.insertBefore(settings, error);
  for (const [name, value] of Object.entries(rememberedOptions(game))) {
    form.elements[name].value = value;
  }
  describe();
  return form;
}

export async function startPage(root) {
  const [games, player, ongoing] = await Promise.all([api.games(), api.player(),
    api.tables(true)]);
  adoptChoices(player.choices);
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
    h("div", { class: "games" }, games.map((game) => gameCard(game, ongoing))),
  ].filter(Boolean));
}
