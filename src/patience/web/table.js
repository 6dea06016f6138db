// The table page: draws the view of a table as SVG and turns clicks, drags, double-clicks and
// keys into commands. The page only ever holds the view the server sends (face-down cards are
// null there), and every change comes back from the server as a new view: over the table's
// websocket while it is open (live.js), else over HTTP.

import { api, ApiError } from "./api.js";
import { drawBoard, neighbour, pileName, pileOrder } from "./board.js";
import { CARD_H, el, parseCard } from "./cards.js";
import { slotRight } from "./layout.js";
import { LiveTable } from "./live.js";
import { scoreText } from "./scoring.js";
import { h } from "./dom.js";
import { animateChanges, celebrate, snapshot, stopMotion } from "./motion.js";

// The keys of the table, for the help text and the keys handler alike.
export const KEYS = [
  ["Tab, arrow keys", "go from pile to pile"],
  ["Enter or Space", "pick up the cards of a pile, then put them down on another"],
  ["+ / − or Shift+Up / Shift+Down", "pick up one card more or fewer (runs)"],
  ["Shift+Enter", "send the top card to a foundation"],
  ["Escape", "put the cards back"],
  ["u or Ctrl+Z", "undo"],
  ["r, Ctrl+Y or Ctrl+Shift+Z", "redo"],
  ["h", "hint"],
  ["s", "stock (turn or deal)"],
  ["f", "auto finish"],
  ["n", "new deal"],
  ["/", "type a move"],
];

const DRAG_THRESHOLD = 6; // pixels a pointer moves before a press becomes a drag
const DOUBLE_CLICK_MS = 400;
// Actions that clicking the stock stands for, in order of preference.
const STOCK_ACTIONS = ["stock", "deal", "recycle", "redeal"];
// The web app's setting (this browser's): make the solver's safe moves to the foundations at once.
const AUTOPLAY_KEY = "patience.autoplay";

/** Whether automatic moves are on (the default) in this browser. */
export function autoplayOn() {
  try {
    return localStorage.getItem(AUTOPLAY_KEY) !== "0";
  } catch {
    return true; // storage refused (a private window's settings): the default
  }
}

function setAutoplay(on) {
  try {
    localStorage.setItem(AUTOPLAY_KEY, on ? "1" : "0");
  } catch {
    // Not kept: the setting holds for this page only.
  }
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Card texts and pile names of the notation in words: "4d on Js, t3" -> "4♦ on J♠, pile 3". */
export function inWords(text) {
  return String(text)
    .replace(/\b([A2-9TJQK])([cdhs])\b/g, (all) => cardShort(all)[0])
    .replace(/\b([tf])(\d+)\b/g, (all) => pileName(all))
    // "1 face-up card(s)" -> "1 face-up card", "3 card(s)" -> "3 cards".
    .replace(/\b(\d+)((?: [a-z-]+)*?) ([a-z]+)\(s\)/g,
      (all, n, between, word) => `${n}${between} ${word}${n === "1" ? "" : "s"}`)
    .replace(/\(s\)/g, "s");
}

/**
 * A refused command in words with card symbols, from the server's reason (docs/web.md,
 * "Errors"): "4♦ cannot go on J♠: the tableau builds down in alternating colours". Without a
 * reason, the server's text.
 */
export function refusalText(error, game, view) {
  const reason = error?.reason;
  if (!reason || typeof reason !== "object") return error?.message ?? String(error);
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  if (reason.kind === "game_over") return "The game is over.";
  if (reason.kind === "not_your_turn") return "It is not your turn.";
  const why = inWords(reason.why ?? error.message);
  if (reason.kind === "unreadable_move") return capital(why);
  if (/\b(?:cannot|only)\b/.test(reason.why ?? "") && /[A2-9TJQK][cdhs]/.test(reason.why ?? "")) {
    return capital(why); // the reason names the cards already: "4♦ cannot go on J♠: ..."
  }
  let what;
  if (reason.from && reason.to) {
    const card = reason.card;
    what = `${card ? `${cardShort(card)[0]} from ` : ""}${pileName(reason.from)} to `
      + `${pileName(reason.to)}`;
  } else {
    // An action (stock, recycle, ...): its button's words.
    const action = reason.move ? String(reason.move).replace(/\(.*$/, "") : null;
    what = action ? actionLabel({ action }, game, view)[0] : "That move";
  }
  return capital(`${what}: not allowed, ${why}.`.replace(/\.\.$/, "."));
}

function clock(seconds) {
  const s = Math.floor(seconds);
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** A move's JSON form in the text notation of docs/notation.md (`t3-f1`, `play(card=Th)`). */
export function moveText(move) {
  if (move.action !== undefined) {
    const args = Object.entries(move).filter(([key]) => key !== "action");
    return args.length ? `${move.action}(${args.map(([k, v]) => `${k}=${v}`).join(",")})`
      : move.action;
  }
  return `${move.from}-${move.to}${move.count > 1 ? `:${move.count}` : ""}`;
}

/** "Qh" -> "Q♥" (the button's text) and "queen of hearts" (what a screen reader says). */
function cardShort(card) {
  const face = parseCard(card);
  return face ? [`${face.rank}${face.suit.symbol}`, face.label] : [String(card), String(card)];
}

/**
 * A move that is not a card move in words, for its button: [text, spoken] ("Deal a row",
 * "Turn up exile 3 (from the bottom)", "Q♥ from pile 13 (card 6) to foundation 7"). The
 * notation (moveText) goes with it as the button's tooltip and description.
 */
export function actionLabel(move, game, view) {
  const same = (text) => [text, text];
  const draw = view?.options?.draw;
  switch (move.action) {
    case "stock":
      if (game === "spider") return same("Deal a row");
      return same(draw === 3 ? "Turn three cards" : "Turn a card");
    case "deal":
      return same(game === "accordion" ? "Deal a card" : "Deal");
    case "recycle":
      return same("Turn the waste over");
    case "redeal":
      return same("Gather the piles and deal again");
    case "exile": {
      if (move.at === undefined) return same("Turn up the top exile");
      // With exile=choose the view names the face-down exiles (the player saw them dealt).
      const known = view?.piles?.exiles?.down?.[move.at - 1];
      const place = `exile ${move.at} (from the bottom)`;
      if (!known) return same(`Turn up ${place}`);
      const [short, spoken] = cardShort(known);
      return [`Turn up ${short}, ${place}`, `Turn up ${spoken}, ${place}`];
    }
    case "resign":
      return same("Give up");
    default:
      break;
  }
  if (move.card !== undefined && move.to !== undefined) {
    const [short, spoken] = cardShort(move.card);
    const from = move.at !== undefined ? ` from pile 13 (card ${move.at})` : "";
    const to = pileName(String(move.to));
    return [`${short}${from} to ${to}`, `${spoken}${from} to ${to}`];
  }
  // An action this page does not know: its name and arguments, spelt out.
  const args = Object.entries(move).filter(([key]) => key !== "action")
    .map(([key, value]) => `${key} ${value}`);
  const name = String(move.action);
  return same(`${name[0].toUpperCase()}${name.slice(1)}${args.length ? ` (${args.join(", ")})` : ""}`);
}

export class TablePage {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.state = null;
    this.selected = null; // {pile, index}
    this.press = null; // a pointer press that may become a drag
    this.busy = false;
    this.clockBase = 0;
    this.clockAt = 0;
    this.timer = null;
    this.live = null;
    this.cursor = null; // the pile the keyboard is on
    this.hint = null; // {from, to}: the piles of the hint shown
  }

  async start() {
    try {
      this.show(await api.table(this.tableId));
    } catch (error) {
      this.root.replaceChildren(h("p", { class: "error", role: "alert" }, error.message),
        h("p", {}, h("a", { href: "/" }, "Back to the games")));
      return;
    }
    document.addEventListener("keydown", (event) => this.onKey(event));
    // The layout suits the room the window gives the board: draw again when that changes.
    let resizing = null;
    window.addEventListener("resize", () => {
      clearTimeout(resizing);
      resizing = setTimeout(() => {
        if (this.press?.dragging) return;
        this.sizing = null; // the window's size chooses the card size
        this.renderBoard();
      }, 120);
    });
    this.timer = setInterval(() => this.tick(), 1000);
    this.connect();
  }

  /** Opens the websocket of the table shown (a new deal is another table, another socket). */
  connect() {
    this.live?.close();
    this.live = new LiveTable(this.tableId, {
      onState: (state) => this.showIfNewer(state),
      onStatus: (status) => this.showConnection(status),
    });
    this.live.connect();
  }

  showConnection(status) {
    if (!this.connection) return;
    this.connection.dataset.status = status;
    this.connection.textContent = { live: "live", connecting: "connecting…",
      offline: "reconnecting…", refused: "not live (refused by the server)" }[status] ?? status;
  }

  /** A state pushed by the server: shown unless the page already shows it or a later one. */
  showIfNewer(state) {
    const current = this.state;
    if (current && state.table === current.table && state.events <= current.events) return;
    if (this.press?.dragging) {
      this.deferred = state; // shown when the drag ends
      return;
    }
    this.selected = null;
    this.show(state);
  }

  // -- sending commands ------------------------------------------------------------------------

  send(command, extra = {}) {
    // A move is followed by the solver's safe moves to the foundations when the setting is on.
    if (command === "move" && this.state.has_safe_moves && autoplayOn()) {
      extra = { ...extra, autoplay: true };
    }
    const body = { command, ...extra, events: this.state.events };
    return this.request(async () => {
      if (this.live?.isOpen) {
        try {
          return await this.live.request(body);
        } catch (error) {
          // A refused command comes without the table's state: fetch it if it may have changed.
          if (error.status === 409 || error.status === 0) {
            error.state = await api.table(this.tableId).catch(() => null);
          }
          throw error;
        }
      }
      return api.command(this.tableId, command, { ...extra, events: this.state.events });
    });
  }

  /** The server makes the remaining foundation moves, each stored like a move of the player's. */
  autoFinish() {
    return this.request(() => api.autofinish(this.tableId, this.state.events));
  }

  async request(call) {
    if (this.busy) return;
    this.busy = true;
    this.selected = null;
    try {
      const state = await call();
      this.message("");
      // The table's socket may have brought this very state already (an HTTP command's result
      // is sent to every socket too): drawn again, it would cut its motion short.
      const shown = this.state;
      if (!shown || state.table !== shown.table || state.events !== shown.events) this.show(state);
    } catch (error) {
      this.message(refusalText(error, this.state.game, this.state.view), true);
      if (error instanceof ApiError && error.state) this.show(error.state);
      else this.render();
    } finally {
      this.busy = false;
    }
  }

  sendMove(move) {
    return this.send("move", { move });
  }

  /** The move from `source` to `target` with `count` cards, matched against the legal moves. */
  cardMove(source, target, count) {
    const legal = this.state.view.legal_moves.filter(
      (m) => m.from === source && m.to === target);
    return legal.find((m) => m.count === count) ?? (legal.length === 1 ? legal[0]
      : { from: source, to: target, count });
  }

  stockAction() {
    const actions = this.state.view.legal_moves.filter((m) => m.action !== undefined);
    for (const name of STOCK_ACTIONS) {
      const found = actions.find((m) => m.action === name);
      if (found) return found;
    }
    // Nothing to turn: at an empty stock the waste's turning over is what is refused, and the
    // server says why (no pass left, or it would repeat a position).
    const piles = this.state.view.piles;
    const stock = piles.stock;
    if (stock && piles.waste && stock.down.length + stock.up.length === 0) {
      return { action: "recycle" };
    }
    return { action: "stock" };
  }

  // -- drawing -------------------------------------------------------------------------------

  show(state) {
    const previous = this.state;
    const newTable = !previous || state.table !== previous.table;
    if (newTable || state.events !== previous.events) {
      // The hint was for the table as it was: it goes with any change.
      this.hint = null;
      if (this.hintLine && !this.hintBusy) {
        this.hintLine.hidden = true;
        this.hintLine.textContent = "";
      }
    }
    // A fresh deal is dealt from the stock; a game just won is celebrated (motion.js).
    this.dealNext = newTable && state.events === 0;
    const stockSize = (s) => (s?.view.piles.stock
      ? s.view.piles.stock.down.length + s.view.piles.stock.up.length : 0);
    this.stockChange = newTable ? 0 : stockSize(state) - stockSize(previous);
    this.celebrateNext = !newTable && previous.outcome.result !== "won"
      && state.outcome.result === "won";
    if (newTable && previous && (previous.game !== state.game
        || previous.options_text !== state.options_text)) {
      this.sizing = null; // another game's grid: the card size is chosen again
    }
    this.state = state;
    this.clockBase = state.elapsed;
    this.clockAt = performance.now();
    if (window.location.pathname !== `/play/${state.table}`) {
      history.replaceState(null, "", `/play/${state.table}`);
    }
    if (this.tableId !== state.table) {
      this.tableId = state.table;
      if (this.live) this.connect();
    }
    this.render();
  }

  render() {
    const s = this.state;
    const over = s.outcome.result !== "ongoing";
    if (!this.frame) this.build();
    this.title.textContent = `${s.title}`;
    // In words ("1 suit, draw 1"); the exact options (the notation of -o) as its tooltip.
    this.optionsLine.textContent = s.options_words || s.options_text || "no options";
    this.optionsLine.title = s.options_text || "";
    this.dealNumber.textContent = s.deal ?? "—";
    this.counter.textContent = String(s.moves);
    // The score of the scoring chosen on the start page (scoring.js), if the game has one.
    const score = scoreText(s);
    this.scoreText.textContent = score ? ` · ${score}` : "";
    this.undoButton.disabled = !s.can_undo;
    this.hintButton.disabled = over || this.hintsMissing;
    this.redoButton.disabled = !s.can_redo;
    this.restartButton.disabled = !s.can_undo;
    this.finishButton.hidden = !s.can_autofinish;
    this.giveUpButton.hidden = over;
    this.autoplayLabel.hidden = !s.has_safe_moves;
    this.autoplayBox.checked = autoplayOn();
    this.download.href = api.recordUrl(s.table);
    this.tick();
    this.renderActions();
    if (over) {
      const won = s.outcome.result === "won";
      const score = s.outcome.score !== undefined ? ` Score: ${s.outcome.score}.` : "";
      this.banner.textContent = won
        ? `You won, in ${plural(s.moves, "move")} and ${clock(s.elapsed)}!${score}`
        : `Game over: ${s.outcome.result}${s.outcome.reason ? ` (${s.outcome.reason})` : ""}.${score}`;
      this.banner.className = `banner ${won ? "won" : "lost"}`;
      this.banner.hidden = false;
      // Nothing to hint at any more: no hint under the end's banner.
      this.hint = null;
      this.hintLine.hidden = true;
      this.hintLine.textContent = "";
    } else {
      this.banner.hidden = true;
    }
    // Last: the board is fitted to the room the lines above it (the banner too) leave.
    this.renderBoard();
  }

  build() {
    const button = (label, onclick, key) => h("button", { type: "button", onclick,
      "aria-keyshortcuts": key, title: key ? `${label} (${key})` : label }, label);
    this.title = h("h1");
    this.optionsLine = h("span", { class: "options" });
    this.dealNumber = h("code", { class: "deal", "data-testid": "deal" });
    this.counter = h("span", { "data-testid": "moves" });
    this.clockText = h("span", { "data-testid": "clock" });
    this.scoreText = h("span", { "data-testid": "score" });
    this.undoButton = button("Undo", () => this.send("undo"), "u");
    this.redoButton = button("Redo", () => this.send("redo"), "r");
    this.restartButton = button("Restart", () => this.send("restart"));
    this.finishButton = button("Auto finish", () => this.autoFinish(), "f");
    this.finishButton.hidden = true;
    this.hintButton = button("Hint", () => this.askHint(), "h");
    this.newDealButton = button("New deal", () => this.newDeal(), "n");
    this.giveUpButton = button("Give up", () => this.confirmGiveUp());
    this.giveUpButton.dataset.testid = "give-up";
    this.autoplayBox = h("input", { type: "checkbox", "data-testid": "autoplay",
      onchange: () => {
        setAutoplay(this.autoplayBox.checked);
        const s = this.state;
        if (this.autoplayBox.checked && s.safe_moves?.length && s.outcome.result === "ongoing") {
          this.send("autoplay");
        }
      } });
    this.autoplayLabel = h("label", { class: "autoplay-setting",
      title: "Cards that no winning line needs elsewhere go up to the foundations by "
        + "themselves (the solver's proved safe moves; Undo takes each back)" },
    this.autoplayBox, " Automatic moves");
    this.connection = h("span", { class: "connection", "data-testid": "connection",
      "aria-live": "polite", title: "the table's connection to the server" });
    this.download = h("a", { class: "button", download: "", href: "#" }, "Download record");
    this.rulesButton = h("button", { type: "button", "aria-expanded": "false",
      "aria-controls": "rules-panel", onclick: () => this.toggleRules() }, "How to play");
    this.rulesPanel = h("section", { id: "rules-panel", class: "rules", hidden: true,
      "aria-label": "the rules of the game", tabindex: "-1" });
    const copy = h("button", { type: "button", class: "copy", title: "copy the deal number",
      onclick: (event) => this.copyDeal(event.currentTarget) }, "Copy");
    this.messageLine = h("p", { class: "message", role: "alert", "aria-live": "assertive" });
    this.hintLine = h("p", { class: "hint-line", role: "status", "data-testid": "hint",
      hidden: true });
    this.announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
    this.banner = h("p", { class: "banner", role: "status", hidden: true });
    this.actions = h("div", { class: "actions", role: "group",
      "aria-label": "moves that are not card moves" });
    this.moveInput = h("input", { type: "text", name: "move", placeholder: "t7-f1, stock, …",
      "aria-label": "type a move", autocomplete: "off", spellcheck: "false", size: 14 });
    const moveForm = h("form", { class: "move-form", onsubmit: (event) => {
      event.preventDefault();
      const text = this.moveInput.value.trim();
      if (text) this.sendMove(text).then(() => { this.moveInput.value = ""; });
    } }, h("label", {}, "Move ", this.moveInput), h("button", { type: "submit" }, "Play"));
    this.svg = el("svg", { class: "board", role: "group", id: "table-board",
      "aria-label": "the table: Tab or the arrow keys go from pile to pile, Enter picks up and "
        + "puts down" });
    this.svg.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.svg.addEventListener("pointermove", (event) => this.onPointerMove(event));
    this.svg.addEventListener("pointerup", (event) => this.onPointerUp(event));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    this.svg.addEventListener("focusin", (event) => {
      const pile = event.target.closest?.("[data-pile]")?.dataset.pile;
      if (pile && pile !== this.cursor) {
        this.cursor = pile;
        this.markCursor();
      }
    });
    this.frame = h("section", { class: "table-page" },
      h("div", { class: "table-head" }, this.title,
        h("p", { class: "facts" },
          h("span", {}, "Deal ", this.dealNumber, " ", copy), " · ", this.optionsLine,
          " · Moves ", this.counter, " · ", "Time ",
          this.clockText, this.scoreText, " · ", this.connection)),
      h("div", { class: "toolbar" }, this.undoButton, this.redoButton, this.restartButton,
        this.hintButton, this.finishButton, this.newDealButton, this.giveUpButton,
        this.download, this.rulesButton, this.autoplayLabel, moveForm, this.actions),
      this.rulesPanel, this.banner, this.messageLine, this.hintLine, this.svg,
      this.announcer,
      h("details", { class: "help" }, h("summary", {}, "How to play with the mouse, a finger or "
        + "the keyboard"),
      h("p", {}, "Click a card then where it goes, or drag it; double-click sends a card to a "
        + "foundation; click the stock to deal."),
      h("dl", { class: "keys" }, KEYS.flatMap(([keys, what]) => [h("dt", {}, keys),
        h("dd", {}, what)]))));
    this.root.replaceChildren(this.frame);
    // The table is many Tabs down the page: a link first in the page skips there (shown when
    // it has the focus). The page's HTML is shared with the other pages, so it is added here.
    const skip = h("a", { class: "skip-link", href: "#table-board", onclick: (event) => {
      event.preventDefault();
      this.keyboardUsed = true;
      this.cursor = this.cursor ?? pileOrder(this.layout)[0];
      this.markCursor();
      this.focusPile(this.cursor);
    } }, "Skip to the table");
    document.body.prepend(skip);
  }

  /**
   * Copies the deal number. The Clipboard API exists only in secure contexts (https, or this
   * very machine): elsewhere the number is selected and copied the old way, or left selected
   * for Ctrl+C. The button says which happened.
   */
  async copyDeal(copyButton) {
    const text = String(this.state.deal ?? "");
    let copied = false;
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
        copied = true;
      }
    } catch {
      copied = false; // refused (no permission): fall back below
    }
    if (!copied) {
      const range = document.createRange();
      range.selectNodeContents(this.dealNumber);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      try {
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      }
    }
    copyButton.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
    this.announce(copied ? `deal number ${text} copied` : `deal number ${text} selected: `
      + "press Ctrl+C to copy it");
    clearTimeout(this.copyTimer);
    this.copyTimer = setTimeout(() => { copyButton.textContent = "Copy"; }, 2500);
  }

  renderActions() {
    const { view, game } = this.state;
    const actions = view.legal_moves.filter((m) => m.action !== undefined);
    this.actions.replaceChildren(...actions.map((move) => {
      const [text, spoken] = actionLabel(move, game, view);
      const notation = moveText(move);
      return h("button", { type: "button", class: "action", onclick: () => this.sendMove(move),
        title: notation, "aria-label": spoken === text ? undefined : spoken,
        "aria-description": notation, "data-move": notation }, text);
    }));
  }

  renderBoard() {
    const { view, game } = this.state;
    const hadFocus = this.svg.contains(document.activeElement);
    const movable = new Set(view.legal_moves.map((m) => m.from).filter(Boolean));
    // Where the cards are now, so that those that move slide from there (motion.js).
    const before = snapshot(this.svg);
    const room = this.boardRoom();
    this.layout = drawBoard(this.svg, game, view, { selected: this.selected, movable,
      hint: this.hint, cursor: this.keyboardUsed ? this.cursor : null, focusable: true,
      fit: { ...room, sizing: this.sizing } });
    // The card size is kept for the game and the window: only a resize chooses it again.
    this.sizing = this.layout.sizing;
    animateChanges(this.svg, before, { deal: this.dealNext, stock: this.stockChange,
      index: this.layout.index });
    if (this.celebrateNext) celebrate(this.svg, this.layout.index);
    this.dealNext = false;
    this.celebrateNext = false;
    this.stockChange = 0; // drawn again for another reason, nothing comes from the stock
    if (this.cursor && !this.layout.slots[this.cursor]) this.cursor = null;
    // Drawing again replaces the piles: the keyboard's focus goes back to the pile it was on.
    if (hadFocus && this.cursor) this.focusPile(this.cursor);
  }

  /**
   * The room for the board in CSS pixels: its width, and the window's height below its top (as
   * if the page were scrolled to the top), so that a table fits the window when it can.
   */
  boardRoom() {
    // The container's width: the board itself may be drawn narrower (layoutTable).
    const width = this.svg.parentElement.getBoundingClientRect().width;
    const top = this.svg.getBoundingClientRect().top + window.scrollY;
    return { width, height: Math.max(window.innerHeight - top - 8, 200) };
  }

  focusPile(name) {
    this.svg.querySelector(`g.pile[data-pile="${name}"]`)?.focus({ preventScroll: false });
  }

  /** Moves the keyboard's outline to the cursor's pile without drawing the table again. */
  markCursor() {
    if (!this.keyboardUsed) return;
    for (const mark of this.svg.querySelectorAll(".cursor-mark")) mark.remove();
    const group = this.svg.querySelector(`g.pile[data-pile="${this.cursor}"]`);
    const slot = this.layout?.slots[this.cursor];
    if (!group || !slot) return;
    const right = slotRight(slot);
    const bottom = Math.max(slot.bottom ?? 0, slot.y + CARD_H);
    const mark = el("rect", { class: "cursor-mark", x: slot.x - 4, y: slot.y - 4,
      width: right - slot.x + 8, height: bottom - slot.y + 8, rx: 11 });
    group.prepend(mark);
  }

  announce(text) {
    if (this.announcer) this.announcer.textContent = text;
  }

  tick() {
    if (!this.state || !this.clockText) return;
    const over = this.state.outcome.result !== "ongoing";
    const seconds = over ? this.state.elapsed
      : this.clockBase + (performance.now() - this.clockAt) / 1000;
    this.clockText.textContent = clock(seconds);
  }

  message(text, isError = false) {
    if (!this.messageLine) return;
    this.messageLine.textContent = text;
    this.messageLine.classList.toggle("error", isError);
  }

  /** Shows or hides the rules; they are fetched once, as HTML the server rendered and escaped. */
  async toggleRules() {
    const opening = this.rulesPanel.hidden;
    this.rulesButton.setAttribute("aria-expanded", String(opening));
    if (!opening) {
      this.rulesPanel.hidden = true;
      return;
    }
    this.rulesPanel.hidden = false;
    if (this.rulesFor === this.state.game) return;
    try {
      const { html } = await api.rules(this.state.game);
      const close = h("button", { type: "button", class: "close",
        onclick: () => this.toggleRules() }, "Close rules");
      const body = h("div", { class: "rules-text" });
      // The server renders the Markdown with raw HTML escaped, so this is markup we made.
      body.innerHTML = html;
      this.rulesPanel.replaceChildren(close, body);
      this.rulesFor = this.state.game;
    } catch (error) {
      this.rulesPanel.replaceChildren(h("p", { class: "error", role: "alert" }, error.message));
    }
    this.rulesPanel.focus();
  }

  /** New deal (button or `n`): asks first when it would abandon a game in progress. */
  newDeal() {
    const s = this.state;
    if (s.events > 0 && s.outcome.result === "ongoing") this.confirmNewDeal();
    else this.dealAgain();
  }

  /**
   * An in-page dialog (no window.confirm: it blocks the page and cannot be styled): a modal
   * <dialog> keeps the keyboard's focus inside it, and Escape keeps playing.
   */
  confirmNewDeal() {
    if (!this.confirmDialog) {
      this.confirmDialog = this.dialog("confirm", "Abandon this game?", "This game is not over. "
        + "A new deal leaves it unfinished, and it counts as a game lost in your statistics (it "
        + "ends a winning streak).", "Abandon it and deal", "abandon", () => this.dealAgain());
    }
    if (!this.confirmDialog.open) this.confirmDialog.showModal();
  }

  /** Give up (a button): after a confirmation, the game ends as lost ("resigned"). */
  confirmGiveUp() {
    if (this.state.outcome.result !== "ongoing") return;
    if (!this.giveUpDialog) {
      this.giveUpDialog = this.dialog("give-up", "Give up this game?", "The game ends here as "
        + "lost, and counts so in your statistics (it ends a winning streak).", "Give up",
      "confirm-give-up", () => this.send("resign"));
    }
    if (!this.giveUpDialog.open) this.giveUpDialog.showModal();
  }

  /** A modal dialog whose first button keeps playing and whose second does `action`. */
  dialog(name, title, text, yes, testid, action) {
    let box = null;
    const close = (go) => {
      box.close();
      if (go) action();
    };
    const keep = h("button", { type: "button", autofocus: true, onclick: () => close(false) },
      "Keep playing");
    const confirm = h("button", { type: "button", class: "danger", "data-testid": testid,
      onclick: () => close(true) }, yes);
    box = h("dialog", { class: "confirm", "aria-labelledby": `${name}-title`,
      "aria-describedby": `${name}-text` },
    h("h2", { id: `${name}-title` }, title),
    h("p", { id: `${name}-text` }, text),
    h("div", { class: "dialog-buttons" }, keep, confirm));
    this.frame.append(box);
    return box;
  }

  async dealAgain() {
    if (this.dealing) return;
    this.dealing = true;
    try {
      this.selected = null;
      // A table dealt from "winnable deals only" deals the next one the same way; where no
      // proved list ships, the server searches for up to a few seconds: say so meanwhile.
      const winnable = localStorage.getItem(`patience.winnable.${this.state.game}`) === "1";
      // The grade chosen on the start page ("" for any), kept only where the options had one.
      const grade = localStorage.getItem(`patience.grade.${this.state.game}`) || null;
      this.message(winnable ? "Searching for a winnable deal…" : "");
      this.newDealButton.disabled = true;
      this.show(await api.newDeal(this.tableId, null, winnable, grade));
      this.message("");
    } catch (error) {
      this.message(error.message, true);
    } finally {
      this.dealing = false;
      this.newDealButton.disabled = false;
    }
  }

  /** Asks the server's solver for a move, and shows it with the chance of winning from here. */
  async askHint() {
    if (this.hintBusy || !this.state) return;
    this.hintBusy = true;
    const asked = this.state.events;
    this.hintLine.hidden = false;
    this.hintLine.classList.remove("error");
    this.hintLine.textContent = "Thinking…";
    try {
      const answer = await api.hint(this.tableId);
      if (this.state.events !== asked) {
        this.hintLine.hidden = true; // the table moved on meanwhile
        return;
      }
      this.showHint(answer);
    } catch (error) {
      if (error instanceof ApiError && error.status === 501) {
        this.hintsMissing = true;
        this.hintButton.disabled = true;
        this.hintLine.textContent = "No hints here: this server has no solver.";
      } else {
        this.hintLine.textContent = `No hint: ${error.message}`;
      }
      this.hintLine.classList.add("error");
    } finally {
      this.hintBusy = false;
    }
  }

  showHint(answer) {
    const percent = (share) => Math.round((Number(share) || 0) * 100);
    const interval = answer.exact || answer.low === undefined ? ""
      : `, ${percent(answer.low)}-${percent(answer.high)}% at 95%`;
    const how = answer.exact ? "proved by the solver"
      : `estimated from ${answer.samples} possible deal${answer.samples === 1 ? "" : "s"}` +
        ` of the hidden cards${interval}`;
    const chance = `${answer.exact ? "" : "about "}${percent(answer.chance)}% to win from here (${how})`;
    const move = answer.move_json;
    if (!answer.move || !move) {
      this.hint = null;
      this.hintLine.textContent = `No move to suggest: ${chance}.`;
    } else {
      // An action (stock, deal, ...) is shown on the stock when the game has one, and on its
      // target pile when it names one (Leoni's Own's plays from the hand).
      const piles = this.state.view.piles;
      const from = move.from ?? (move.action !== undefined && piles.stock ? "stock" : null);
      const to = move.to && piles[move.to] ? move.to : null;
      this.hint = { from, to, move: answer.move };
      const where = move.from ? ` (${pileName(move.from)} to ${pileName(move.to)})`
        : ` (${actionLabel(move, this.state.game, this.state.view)[0]})`;
      this.hintLine.textContent = `Hint: ${answer.move}${where}, about ${chance}.`
        .replace("about about", "about");
    }
    this.announce(this.hintLine.textContent);
    this.render();
  }

  // -- pointer input -------------------------------------------------------------------------

  svgPoint(event) {
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  /** The pile under an SVG point: its slot, widened to cover its fanned cards. */
  pileAt(point) {
    for (const [name, slot] of Object.entries(this.layout.slots)) {
      const right = slotRight(slot);
      const bottom = Math.max(slot.bottom ?? 0, slot.y + CARD_H);
      if (point.x >= slot.x && point.x <= right && point.y >= slot.y && point.y <= bottom) {
        return name;
      }
    }
    return null;
  }

  onPointerDown(event) {
    if (event.button !== 0 || this.busy) return;
    const cardNode = event.target.closest?.(".card");
    const pileNode = event.target.closest?.("[data-pile]");
    this.press = {
      id: event.pointerId, x: event.clientX, y: event.clientY, dragging: false,
      pile: pileNode?.dataset.pile ?? null,
      index: cardNode?.dataset.card ? Number(cardNode.dataset.index) : null,
    };
  }

  onPointerMove(event) {
    const press = this.press;
    if (!press || press.id !== event.pointerId || press.index === null) return;
    if (!press.dragging) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD) return;
      press.dragging = true;
      stopMotion(this.svg); // the cards are picked up where they are drawn
      press.origin = this.svgPoint(event);
      press.nodes = [...this.svg.querySelectorAll(`.card[data-pile="${press.pile}"]`)]
        .filter((node) => Number(node.dataset.index) >= press.index);
      press.starts = press.nodes.map((node) => node.getAttribute("transform"));
      const layer = el("g", { class: "dragging" }, this.svg);
      for (const node of press.nodes) layer.appendChild(node);
      this.svg.setPointerCapture?.(event.pointerId);
    }
    const point = this.svgPoint(event);
    const dx = point.x - press.origin.x;
    const dy = point.y - press.origin.y;
    press.nodes.forEach((node, i) => {
      node.setAttribute("transform", `translate(${dx} ${dy}) ${press.starts[i]}`);
    });
  }

  onPointerUp(event) {
    const press = this.press;
    this.press = null;
    if (!press || press.id !== event.pointerId) return;
    if (press.dragging && this.deferred) {
      // The table changed elsewhere during the drag: show it as it now is.
      const state = this.deferred;
      this.deferred = null;
      this.show(state);
      return;
    }
    if (press.dragging) {
      const target = this.pileAt(this.svgPoint(event));
      const count = this.pileCount(press.pile) - press.index;
      if (target && target !== press.pile) {
        this.sendMove(this.cardMove(press.pile, target, count));
      } else {
        this.render(); // dropped nowhere: the cards go back
      }
      return;
    }
    // Double clicks are recognised here rather than by "dblclick": the first click re-renders
    // the table, so the two clicks do not land on the same element.
    const now = performance.now();
    const last = this.lastClick;
    this.lastClick = { pile: press.pile, index: press.index, at: now };
    if (last && press.index !== null && last.pile === press.pile && last.index === press.index
        && now - last.at < DOUBLE_CLICK_MS) {
      this.lastClick = null;
      this.onDoubleClick(press.pile);
      return;
    }
    this.onClick(press.pile, press.index);
  }

  cancelDrag() {
    if (this.press?.dragging) {
      const state = this.deferred;
      this.deferred = null;
      if (state) this.show(state);
      else this.render();
    }
    this.press = null;
  }

  pileCount(name) {
    const pile = this.state.view.piles[name];
    return pile.down.length + pile.up.length;
  }

  onClick(pile, index) {
    if (!pile) {
      this.selected = null;
      this.render();
      return;
    }
    if (this.selected) {
      const from = this.selected;
      this.selected = null;
      if (from.pile === pile) {
        this.render();
        return;
      }
      this.sendMove(this.cardMove(from.pile, pile, this.pileCount(from.pile) - from.index));
      return;
    }
    if (pile === "stock") {
      this.sendMove(this.stockAction());
      return;
    }
    if (index !== null) {
      this.selected = { pile, index };
      this.render();
    }
  }

  onDoubleClick(pile) {
    this.selected = null;
    if (pile === "stock") return;
    this.sendMove(`${pile}-f`);
  }

  onKey(event) {
    // An open dialog has the keys.
    if (!this.state || this.confirmDialog?.open || this.giveUpDialog?.open) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
        || target instanceof HTMLSelectElement || event.altKey || event.metaKey) {
      return;
    }
    const key = event.key;
    const onPile = target instanceof Element && target.closest?.("g.pile") !== null;
    if (event.ctrlKey) {
      if (key === "z" || key === "Z") {
        event.preventDefault();
        this.send(event.shiftKey ? "redo" : "undo");
      } else if (key === "y") {
        event.preventDefault();
        this.send("redo");
      }
      return;
    }
    const arrows = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
    if (arrows[key] && event.shiftKey && this.selected) {
      event.preventDefault();
      this.changeCount(key === "ArrowUp" ? 1 : -1);
    } else if (arrows[key] && (onPile || target === document.body || target === this.root)) {
      event.preventDefault();
      this.keyboardUsed = true;
      const next = this.cursor ? neighbour(this.layout, this.cursor, arrows[key])
        : pileOrder(this.layout)[0];
      this.cursor = next;
      this.markCursor();
      this.focusPile(next);
    } else if ((key === "Enter" || key === " ") && onPile) {
      event.preventDefault();
      this.keyboardUsed = true;
      this.cursor = target.closest("g.pile").dataset.pile;
      if (key === "Enter" && event.shiftKey) this.onDoubleClick(this.cursor);
      else this.keyPick(this.cursor);
    } else if ((key === "+" || key === "=") && this.selected) this.changeCount(1);
    else if ((key === "-" || key === "−") && this.selected) this.changeCount(-1);
    else if (key === "u") this.send("undo");
    else if (key === "r") this.send("redo");
    else if (key === "h") this.askHint();
    else if (key === "n") this.newDeal();
    else if (key === "s") this.sendMove(this.stockAction());
    else if (key === "f" && this.state.can_autofinish) this.autoFinish();
    else if (key === "/") {
      event.preventDefault();
      this.moveInput.focus();
    } else if (key === "Escape" && this.selected) {
      this.selected = null;
      this.announce("cards put back");
      this.render();
    } else if (key === "Tab" && !onPile && !this.keyboardUsed) {
      this.keyboardUsed = true; // Tab into the table: show where the keyboard is
    }
  }

  /** Enter or Space on a pile: pick up its cards, or put the picked-up cards down on it. */
  keyPick(name) {
    if (this.selected) {
      const from = this.selected;
      if (from.pile === name) {
        this.selected = null;
        this.announce("cards put back");
        this.render();
        return;
      }
      this.selected = null;
      this.sendMove(this.cardMove(from.pile, name, this.pileCount(from.pile) - from.index));
      return;
    }
    const pile = this.state.view.piles[name];
    const total = pile.down.length + pile.up.length;
    if (name === "stock") {
      this.sendMove(this.stockAction());
      return;
    }
    if (pile.up.length === 0 || pile.up[pile.up.length - 1] === null) {
      this.announce(`${pileName(name)} has no card to pick up`);
      return;
    }
    // Pick up as many cards as the longest legal move from this pile takes (a whole run).
    const counts = this.state.view.legal_moves.filter((m) => m.from === name)
      .map((m) => m.count ?? 1);
    const count = Math.max(1, ...counts);
    this.selected = { pile: name, index: Math.max(pile.down.length, total - count) };
    this.announceSelection();
    this.render();
  }

  changeCount(delta) {
    const { pile: name, index } = this.selected;
    const pile = this.state.view.piles[name];
    const total = pile.down.length + pile.up.length;
    const slot = this.layout.slots[name];
    // Only a fanned pile shows the cards under its top one.
    const lowest = slot?.mode === "down" ? pile.down.length : total - 1;
    const next = Math.min(total - 1, Math.max(lowest, index - delta));
    this.selected = { pile: name, index: next };
    this.announceSelection();
    this.render();
  }

  announceSelection() {
    const { pile: name, index } = this.selected;
    const count = this.pileCount(name) - index;
    this.announce(`${count} card${count === 1 ? "" : "s"} picked up from ${pileName(name)}: `
      + "go to where they go and press Enter; + or − for more or fewer");
  }
}
