// Tables with other people and bots (docs/web.md, "Tables"): the create-table page (/tables) and
// a shared table (/table/ID) played over the table's websocket. The page only ever receives its
// seat's view; the seat token given on joining is kept in localStorage, per table, so a reload
// (or a lost connection) gets the seat back.

import { inTurn } from "./api.js";
import { doubleSolitaireEnd, renderDoubleSolitaire } from "./double_solitaire.js";
import { genericEnd, renderGeneric } from "./generic.js";
import { leopardEnd, leopardHold, renderLeopard } from "./leopard.js";
import { h } from "./dom.js";

// The games drawn their own way; any other is drawn by generic.js (its piles and hands, its
// legal moves as buttons), so that a game added later needs no edit here.
const RENDERERS = { leopard: renderLeopard, "double-solitaire": renderDoubleSolitaire };
// The end of a game in words, with the players' names.
const ENDINGS = { leopard: leopardEnd, "double-solitaire": doubleSolitaireEnd };
// The end of a deal the server holds the table at (the state's `hold`, docs/web.md) in each
// game's words: `hold(state, page)` gives the state to draw (the deal's last position), what
// to say of the deal, and the button's label. Any other game: genericHold.
const HOLDS = { leopard: leopardHold };

/** A hold in a game without words of its own: the deal's last position, and "Go on". */
function genericHold(state) {
  return {
    state: { ...state, turn: null,
      view: { ...state.hold.view, legal_moves: [], outcome: state.view.outcome } },
    words: "The deal is over.",
    label: "Go on",
  };
}

// Names joined in words: "Ann", "Ann and Bob", "Ann, Bob and Cy".
function inWords(names) {
  return names.length <= 1 ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
const tokenKey = (id) => `patience-seat-${id}`;
const NAME_KEY = "patience-name";

async function fetchJson(url, init) {
  const response = await fetch(url, { credentials: "same-origin", ...init });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error ?? `error ${response.status}`);
  return data;
}

// A change waits for the changes before it (api.js, `inTurn`: one session for the browser).
function getJson(url, init) {
  const method = (init?.method ?? "GET").toUpperCase();
  return method === "GET" ? fetchJson(url, init) : inTurn(() => fetchJson(url, init));
}

// -- creating a table -----------------------------------------------------------------------

// An option's field. Its value starts at the option's default; `edited` marks the ones the user
// changed, which alone are sent (the server applies the rule book's defaults to the rest).
function optionInput(game, option, edited) {
  const id = `mp-${game.name}-${option.name}`;
  const mark = () => edited.add(option.name);
  let input;
  if (option.kind === "choice" || option.kind === "bool") {
    const values = option.kind === "bool" ? [true, false] : option.choices;
    input = h("select", { id, name: option.name, onchange: mark },
      values.map((value) => h("option", { value: String(value), selected: value === option.default },
        option.kind === "bool" ? (value ? "on" : "off") : String(value))));
  } else {
    input = h("input", { id, name: option.name, value: String(option.default), size: 8,
      oninput: mark });
  }
  const label = option.label ?? option.name;
  return h("div", { class: "field" },
    h("label", { for: id }, label, " ", h("code", { class: "mp-key" }, option.name)), input,
    // A text field says what it takes; a list shows its choices itself.
    h("small", {}, input.tagName === "INPUT" ? `${option.help} (${option.allowed})` : option.help));
}

async function createPage(root) {
  const catalogue = await getJson("/api/shared/games");
  const error = h("p", { class: "error", role: "alert" });
  const gameSelect = h("select", { id: "mp-game", name: "game" },
    catalogue.games.map((game) => h("option", { value: game.name }, game.title)));
  const optionsBox = h("div", { class: "mp-options" });
  const seatsBox = h("fieldset", { class: "mp-seats" });
  const absence = h("input", { id: "mp-absence", name: "absence", inputmode: "decimal",
    value: String(catalogue.absence), size: 6, "aria-describedby": "mp-absence-help" });
  const limits = `more than 0 and at most ${catalogue.max_absence} seconds` +
    `${catalogue.max_absence === 86400 ? " (a day)" : ""}`;
  const standIn = h("select", { id: "mp-stand-in", name: "stand_in" },
    catalogue.bots.map((bot) => h("option", { value: bot.name,
      selected: bot.name === catalogue.stand_in, title: bot.summary }, `${bot.name} bot`)));
  // Listed only if the creator chooses: a table is otherwise reached by its link alone.
  const listed = h("input", { type: "checkbox", id: "mp-listed", name: "listed" });
  const gameOf = () => catalogue.games.find((game) => game.name === gameSelect.value);
  let edited = new Set();

  function seatCount() {
    const players = optionsBox.querySelector('[name="players"]');
    return players ? Number(players.value) : gameOf().players;
  }
  function drawSeats() {
    const kept = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
    seatsBox.replaceChildren(h("legend", {}, "Seats"));
    for (let seat = 0; seat < seatCount(); seat += 1) {
      const chosen = kept[seat] ?? (seat === 0 ? "open" : "greedy");
      seatsBox.append(h("div", { class: "field" },
        h("label", { for: `mp-seat-${seat}` }, `seat ${seat + 1}`),
        h("select", { id: `mp-seat-${seat}`, name: `seat-${seat}` },
          h("option", { value: "open", selected: chosen === "open" }, "open (a person joins)"),
          catalogue.bots.map((bot) => h("option", { value: bot.name,
            selected: chosen === bot.name }, `${bot.name} bot`)))));
    }
  }
  // The rule book's defaults may depend on the number of players (Leopard: 6 deals with
  // three): the options the user has not changed show the defaults for the count chosen.
  function playersChanged() {
    const defaults = gameOf().defaults_by_players?.[String(seatCount())] ?? {};
    for (const [name, value] of Object.entries(defaults)) {
      const input = optionsBox.querySelector(`[name="${name}"]`);
      if (input && !edited.has(name)) input.value = String(value);
    }
    drawSeats();
  }
  function drawOptions() {
    const game = gameOf();
    edited = new Set();
    optionsBox.replaceChildren(h("p", { class: "summary" }, game.summary),
      ...game.options.map((option) => optionInput(game, option, edited)));
    const players = optionsBox.querySelector('[name="players"]');
    if (players) players.addEventListener("change", playersChanged);
    drawSeats();
  }
  gameSelect.addEventListener("change", drawOptions);

  const form = h("form", { class: "game mp-create", onsubmit: async (event) => {
    event.preventDefault();
    const game = gameOf();
    const options = {};
    for (const option of game.options) {
      if (edited.has(option.name)) options[option.name] = form.elements[option.name].value;
    }
    const seats = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
    // The server's limits, checked here so that a typing slip is not silently replaced.
    const text = absence.value.trim();
    const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
    const absenceOk = seconds > 0 && seconds <= catalogue.max_absence;
    absence.setAttribute("aria-invalid", String(!absenceOk));
    if (!absenceOk) {
      error.textContent = `The absence is a number of seconds, ${limits}: not "${text}".`;
      absence.focus();
      return;
    }
    error.textContent = "";
    try {
      const made = await getJson("/api/shared", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: game.name, options, seats, absence: seconds,
          stand_in: standIn.value, listed: listed.checked }),
      });
      window.location.assign(made.url);
    } catch (failure) {
      error.textContent = failure.message;
    }
  } },
  h("div", { class: "field" }, h("label", { for: "mp-game" }, "Game"), gameSelect),
  optionsBox, seatsBox,
  h("div", { class: "field" }, h("label", { for: "mp-absence" }, "Absence (seconds)"), absence,
    h("small", { id: "mp-absence-help" },
      `a bot plays for a player gone this long, until he returns: ${limits}`)),
  h("div", { class: "field" }, h("label", { for: "mp-stand-in" }, "Stand-in"), standIn,
    h("small", {}, "the bot that plays for an absent player")),
  h("label", { class: "mp-listed", for: "mp-listed" }, listed,
    " List this table in the lobby, so that anybody may join it"),
  h("button", { type: "submit" }, "Create the table"), error);
  const lobby = h("section", { class: "mp-lobby", "aria-labelledby": "mp-lobby-title" });
  root.replaceChildren(h("h1", {}, "Play with others"), lobby,
    h("h2", { id: "mp-new-title" }, "A new table"),
    h("p", {}, "Choose a game and who sits where: a bot, or an open seat for a person. Then " +
      "share the table's link; people join the open seats."), form);
  drawOptions();
  await drawLobby(lobby);
}

// The lobby: the tables their creators listed (GET /api/lobby), each with its game, its free
// seats and its bots, and a link to join it. The list is read again every 15 s while the page
// is in view (never while the keyboard is on one of its links), and by the Refresh button.
const LOBBY_EVERY = 15000;
const LOBBY_URL = "/api/lobby";

export async function drawLobby(section) {
  const list = h("div", { class: "mp-lobby-tables", "aria-live": "polite" });
  const refresh = h("button", { type: "button", onclick: () => fillLobby(list) }, "Refresh");
  section.replaceChildren(h("h2", { id: "mp-lobby-title" }, "Tables to join"), list, refresh);
  await fillLobby(list);
  setInterval(() => {
    if (!document.hidden && !list.contains(document.activeElement)) fillLobby(list);
  }, LOBBY_EVERY);
}

async function fillLobby(list) {
  let found;
  try {
    // {"tables": [...]} (GET /api/lobby), or a bare list of the same entries (the sessions
    // work's GET /api/shared, which also lists the player's own and ended tables).
    const answer = await getJson(LOBBY_URL);
    found = Array.isArray(answer) ? answer : answer.tables;
  } catch (failure) {
    list.replaceChildren(h("p", { class: "error", role: "alert" }, failure.message));
    return;
  }
  const count = (table, kind) => table.seats.filter((seat) => seat.kind === kind).length;
  const open = found.filter((table) => (table.result ?? "ongoing") === "ongoing"
    && (table.listed ?? true) && count(table, "open") > 0);
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const rows = open.map((table) => {
    const people = table.seats.filter((seat) => seat.kind === "person").map((seat) => seat.name);
    const free = count(table, "open");
    const bots = count(table, "bot");
    const facts = [`${plural(free, "seat", "seats")} free of ${table.seats.length}`];
    if (bots) facts.push(plural(bots, "bot", "bots"));
    if (people.length) facts.push(`with ${people.join(", ")}`);
    return h("li", { "data-table": table.table },
      h("span", { class: "mp-lobby-game" }, table.heading ?? table.title), " ",
      h("span", { class: "mp-lobby-facts" }, facts.join(" · ")), " ",
      h("a", { class: "button", href: table.url,
        "aria-label": `Join ${table.heading ?? table.title}` }, "Join"));
  });
  list.replaceChildren(rows.length
    ? h("ul", { class: "mp-lobby-list", "data-testid": "lobby" }, rows)
    : h("p", { "data-testid": "lobby-empty" },
      "No listed table has a free seat just now: create one below."));
}

// -- a shared table -------------------------------------------------------------------------

// What a seat is called before any number is added: a person's name, "greedy bot"; null for an
// open seat.
function baseName(seat) {
  if (!seat || seat.kind === "open" || seat.name === null || seat.name === undefined) return null;
  return seat.kind === "bot" ? `${seat.name} bot` : seat.name;
}

/**
 * A seat's name on the page: its player's name; its number (from 1) shows only where there is
 * no name (an open seat) or to tell apart two players of one name (two greedy bots, two
 * "guest"s).
 */
export function seatName(seats, index) {
  const seat = seats[index];
  const base = baseName(seat);
  // People count from 1: the server's seat 0 is "seat 1".
  if (base === null) return seat ? `seat ${index + 1} (open)` : `seat ${index + 1}`;
  const twin = seats.some((other) => other.seat !== index && baseName(other) === base);
  return twin ? `${base} #${index + 1}` : base;
}

class SharedTablePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.seat = null;
    this.socket = null;
    this.retry = 500;
    this.ui = {};
    this.selection = null;
    // When the hold at the end of a deal ends by itself (this page's clock), and the timer
    // that counts the seconds down.
    this.holdEnds = null;
    this.holdTicker = null;
    // A card being dragged (double_solitaire.js), and whether a state came meanwhile.
    this.dragging = false;
    this.redraw = false;
  }

  /** Tells the server that this seat's person has looked at the end of the deal. */
  goOn() {
    if (!this.state?.hold || !this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ type: "go-on", seq: this.state.seq }));
    const button = this.ui.hold.querySelector('button[data-action="go-on"]');
    if (button) button.disabled = true;  // until the server says who is still waited for
  }

  start() {
    const ui = this.ui;
    ui.title = h("h1", {}, "Table");
    ui.link = h("input", { class: "mp-link", readonly: true, value: window.location.href,
      "aria-label": "the table's link", size: 40 });
    ui.copy = h("button", { type: "button", onclick: () => {
      ui.link.select();
      navigator.clipboard?.writeText(ui.link.value).catch(() => {});
    } }, "Copy link");
    ui.facts = h("p", { class: "facts", "data-testid": "facts" });
    ui.seats = h("ul", { class: "mp-seat-list", "data-testid": "seats" });
    ui.name = h("input", { id: "mp-name", value: localStorage.getItem(NAME_KEY) ?? "",
      placeholder: "your name", size: 14 });
    ui.join = h("div", { class: "mp-join", "data-testid": "join" });
    ui.status = h("p", { class: "message", role: "status", "aria-live": "polite",
      "data-testid": "message" });
    ui.banner = h("div", { class: "banner", hidden: true, role: "alert", "data-testid": "banner" });
    ui.hold = h("div", { class: "mp-deal-end", hidden: true, role: "status",
      "data-testid": "deal-end" });
    ui.board = h("div", { class: "mp-board", "data-testid": "board" });
    ui.record = h("p", { hidden: true }, h("a", { href: `/api/shared/${this.id}/record`,
      download: "" }, "Download the record"));
    ui.rulesButton = h("button", { type: "button", "aria-expanded": "false",
      "aria-controls": "rules-panel", onclick: () => this.toggleRules() }, "How to play");
    ui.rules = h("section", { id: "rules-panel", class: "rules", hidden: true,
      "aria-label": "how to play", tabindex: "-1" });
    this.root.replaceChildren(ui.title,
      h("div", { class: "toolbar" }, ui.link, ui.copy, ui.rulesButton), ui.rules,
      ui.facts, ui.seats, ui.join, ui.status, ui.banner, ui.hold, ui.board, ui.record);
    this.root.classList.add("mp-page");
    // The boards suit the room the window gives them: draw again when that changes.
    let resizing = null;
    window.addEventListener("resize", () => {
      clearTimeout(resizing);
      resizing = setTimeout(() => { if (this.state) this.show(this.state); }, 120);
    });
    this.connect();
  }

  /** Shows or hides "How to play" (the server's HTML, rendered with raw HTML escaped). */
  async toggleRules() {
    const ui = this.ui;
    const opening = ui.rules.hidden;
    ui.rulesButton.setAttribute("aria-expanded", String(opening));
    ui.rules.hidden = !opening;
    if (!opening) return;
    // Opened before the table's first state arrived: show() fills the panel when it comes.
    if (!this.state) ui.rules.replaceChildren(h("p", {}, "Loading…"));
    else await this.loadRules(this.state.game);
    ui.rules.focus();
  }

  async loadRules(game) {
    const ui = this.ui;
    if (this.rulesFor === game || this.rulesLoading === game) return;
    this.rulesLoading = game;
    try {
      const { html } = await getJson(`/api/rules/${encodeURIComponent(game)}`);
      const body = h("div", { class: "rules-text" });
      body.innerHTML = html;
      ui.rules.replaceChildren(h("button", { type: "button", class: "close",
        onclick: () => this.toggleRules() }, "Close"), body);
      this.rulesFor = game;
    } catch (failure) {
      ui.rules.replaceChildren(h("p", { class: "error", role: "alert" }, failure.message));
    } finally {
      this.rulesLoading = null;
    }
  }

  connect() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${window.location.host}/ws/shared/${this.id}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 500;
      const token = localStorage.getItem(tokenKey(this.id));
      if (token) socket.send(JSON.stringify({ type: "resume", token }));
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.say("Connection lost: reconnecting…");
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    });
  }

  receive(message) {
    if (message.type === "joined") {
      if (message.token) localStorage.setItem(tokenKey(this.id), message.token);
      this.seat = message.seat;
      const name = message.name ?? `seat ${message.seat + 1}`;
      this.say(message.token ? `You joined as ${name}.` : `Welcome back, ${name}: your seat is yours again.`);
      return;
    }
    if (message.type === "error") {
      if (message.status === 403 && this.seat === null) localStorage.removeItem(tokenKey(this.id));
      // A go-on that crossed the hold's end on the way: nothing to say, the table goes on.
      if (message.reason?.kind === "not_held") {
        if (message.state) this.show(message.state);
        return;
      }
      this.say(this.errorText(message), true);
      if (message.state) this.show(message.state);
      return;
    }
    // Two broadcasts may cross on the way: never go back to an older position.
    if (message.type === "state" && !(this.state && message.seq < this.state.seq)) {
      this.show(message);
    }
  }

  /**
   * A refusal in words. Where the server says which seat it is about (`reason`), the seat is
   * named as everywhere on the page, by its player or counting from 1: the server's own text
   * numbers seats from 0, as its API does.
   */
  errorText(message) {
    const reason = message.reason ?? {};
    if (reason.kind === "not_your_turn" && Number.isInteger(reason.turn) && this.state) {
      return `It is not your turn: ${this.seatName(reason.turn)} plays.`;
    }
    if (reason.kind === "seat_taken" && Number.isInteger(reason.seat)) {
      return `Seat ${reason.seat + 1} is taken: choose another.`;
    }
    if (reason.kind === "hold") return "The table waits for everyone to go on.";
    return message.error;
  }

  send(move) {
    if (!this.state || !this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    this.selection = null;
    this.socket.send(JSON.stringify({ type: "move", move, seq: this.state.seq }));
  }

  say(text, isError = false) {
    this.ui.status.textContent = text;
    this.ui.status.classList.toggle("error", isError);
  }

  // A seat is named by its player everywhere; its number shows only where there is no name
  // (an open seat) or to tell apart two players of one name (bots, two "guest"s).
  seatName(index) {
    return seatName(this.state.seats, index);
  }

  // What the seat to move is doing: a question to answer is not a card to play.
  doing() {
    const view = this.state.view ?? {};
    if (view.phase === "answer") return "to answer a question";
    if (view.stop_offered) return "to decide whether to call stop";
    return "to play";
  }

  show(latest) {
    this.state = latest;
    if (!this.ui.rules.hidden) this.loadRules(latest.game);
    if (latest.seat !== null && latest.seat !== undefined) this.seat = latest.seat;
    // A drag in progress (double_solitaire.js) is not redrawn under the pointer: the table
    // is drawn as it now stands when the cards are let go.
    this.redraw = Boolean(this.dragging);
    if (this.dragging) return;
    // Held at the end of a deal (the server's hold): the deal's last position is drawn, with
    // no move offered, until everybody has gone on.
    const held = latest.hold ? (HOLDS[latest.game] ?? genericHold)(latest, this) : null;
    this.drawHold(latest.hold, held);
    const state = held?.state ?? latest;
    const ui = this.ui;
    // The heading reads as words ("Leopard · 4 players · 8 deals a match"); the options' keys
    // (players=4,deals=8,...) stay in the tooltip, for whoever creates tables through the API.
    const heading = state.heading ?? `${state.title}: ${state.options_text}`;
    ui.title.textContent = heading;
    ui.title.title = state.options_text;
    document.title = `Patience: ${heading}`;
    const turn = state.turn;
    const parts = [];
    if (state.waiting) parts.push("Waiting for players: play starts when every seat is taken.");
    else if (turn !== null) {
      parts.push(turn === this.seat ? "Your turn." : `${this.seatName(turn)} ${this.doing()}.`);
    }
    parts.push(this.seat === null ? "You are watching." : `You play as ${this.seatName(this.seat)}.`);
    if (state.deal !== null) parts.push(`Deal ${state.deal}.`);
    ui.facts.textContent = parts.join(" ");
    ui.facts.dataset.seq = String(latest.seq);
    ui.seats.replaceChildren(...latest.seats.map((seat) => h("li", {
      class: `mp-seat${seat.seat === turn ? " turn" : ""}${seat.seat === this.seat ? " me" : ""}`,
      "data-seat": seat.seat,
    }, this.seatName(seat.seat),
    // The server says so (stand_in) as soon as a bot takes the seat over, not only on his turn.
    seat.stand_in ? ` (away: the ${state.stand_in} bot plays until he returns)`
      : seat.kind === "person" && !seat.connected ? " (away)" : "",
    seat.seat === turn ? ` ◀ ${this.doing()}` : "")));
    this.drawJoin();
    const over = state.outcome.result !== "ongoing";
    ui.banner.hidden = !over;
    if (over) {
      ui.banner.className = `banner ${state.outcome.result === "won" ? "won" : "lost"}`;
      const ending = ENDINGS[state.game] ?? genericEnd;
      ui.banner.textContent = `Game over: ${ending(state, this)}`;
    }
    ui.record.hidden = !over;
    (RENDERERS[state.game] ?? renderGeneric)(ui.board, state, this);
  }

  /**
   * The box of a hold: what the deal came to, whom the table waits for (by name), the seconds
   * left before it goes on by itself, and Go on for a person it waits for.
   */
  drawHold(hold, held) {
    const ui = this.ui;
    clearInterval(this.holdTicker);
    this.holdTicker = null;
    ui.hold.hidden = !hold;
    if (!hold) {
      ui.hold.replaceChildren();
      this.holdEnds = null;
      return;
    }
    const waiting = hold.waiting;
    const mine = this.seat !== null && waiting.includes(this.seat);
    const others = waiting.filter((seat) => seat !== this.seat).map((seat) => this.seatName(seat));
    let who;
    if (mine) {
      who = others.length ? `The table waits for you and ${inWords(others)} to go on.`
        : "The table waits for you to go on.";
    } else if (others.length) {
      who = `${this.seat !== null && hold.gone_on.includes(this.seat) ? "You went on. " : ""}` +
        `Waiting for ${inWords(others)} to go on.`;
    } else {
      who = "Play goes on.";
    }
    this.holdEnds = Date.now() + hold.seconds * 1000;
    const left = h("span", { class: "mp-hold-left", "data-testid": "hold-left" });
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((this.holdEnds - Date.now()) / 1000));
      left.textContent = ` The table goes on by itself in ${seconds} s at most.`;
    };
    tick();
    this.holdTicker = setInterval(tick, 1000);
    ui.hold.dataset.waiting = waiting.join(" ");
    ui.hold.replaceChildren(h("p", {}, held.words),
      h("p", { "data-testid": "hold-waiting" }, who, left),
      mine ? h("button", { type: "button", "data-action": "go-on", onclick: () => this.goOn() },
        held.label) : null);
  }

  drawJoin() {
    const ui = this.ui;
    const open = this.state.seats.filter((seat) => seat.kind === "open");
    if (this.seat !== null || open.length === 0) {
      ui.join.replaceChildren();
      return;
    }
    ui.join.replaceChildren(h("label", { for: "mp-name" }, "Your name "), ui.name,
      ...open.map((seat) => h("button", { type: "button", "data-join": seat.seat, onclick: () => {
        const name = ui.name.value.trim() || "guest";
        localStorage.setItem(NAME_KEY, name);
        this.socket.send(JSON.stringify({ type: "join", seat: seat.seat, name }));
      } }, `Sit in seat ${seat.seat + 1}`)));
  }
}

function main() {
  const root = document.getElementById("app");
  const who = document.getElementById("who");
  fetch("/api/player", { credentials: "same-origin" }).then((answer) => answer.json())
    .then((player) => {
      if (who && player.name) who.textContent = `Player: ${player.name}`;
      const field = document.getElementById("mp-name");
      if (field && !field.value && player.name !== "guest") field.value = player.name;
    }).catch(() => {});
  const table = window.location.pathname.match(/^\/table\/([A-Za-z0-9_-]+)$/);
  const fail = (error) => {
    root.replaceChildren(h("p", { class: "error", role: "alert" },
      `Something went wrong: ${error.message}`));
  };
  try {
    if (table) new SharedTablePage(root, table[1]).start();
    else createPage(root).catch(fail);
  } catch (error) {
    fail(error);
  }
}

main();
