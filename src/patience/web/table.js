// The table page: draws the view of a table as SVG and turns clicks, drags, double-clicks and
// keys into commands. The page only ever holds the view the server sends (face-down cards are
// null there), and every change comes back from the server as a new view.

import { api, ApiError } from "./api.js";
import { CARD_H, CARD_W, defs, drawCard, drawSlot, el } from "./cards.js";
import { cardPositions, layoutTable } from "./layout.js";

const DRAG_THRESHOLD = 6; // pixels a pointer moves before a press becomes a drag
const DOUBLE_CLICK_MS = 400;
// Actions that clicking the stock stands for, in order of preference.
const STOCK_ACTIONS = ["stock", "deal", "recycle", "redeal"];

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function clock(seconds) {
  const s = Math.floor(seconds);
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

function moveText(move) {
  if (move.action !== undefined) {
    const args = Object.entries(move).filter(([key]) => key !== "action");
    return args.length ? `${move.action}(${args.map(([k, v]) => `${k}=${v}`).join(",")})`
      : move.action;
  }
  return `${move.from}-${move.to}${move.count > 1 ? `:${move.count}` : ""}`;
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
    this.timer = setInterval(() => this.tick(), 1000);
  }

  // -- sending commands ------------------------------------------------------------------------

  send(command, extra = {}) {
    return this.request(() => api.command(this.tableId, command, { ...extra,
      events: this.state.events }));
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
      this.show(state);
    } catch (error) {
      this.message(error.message, true);
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
    return { action: "stock" };
  }

  // -- drawing -------------------------------------------------------------------------------

  show(state) {
    this.state = state;
    this.clockBase = state.elapsed;
    this.clockAt = performance.now();
    if (window.location.pathname !== `/play/${state.table}`) {
      history.replaceState(null, "", `/play/${state.table}`);
      this.tableId = state.table;
    }
    this.render();
  }

  render() {
    const s = this.state;
    const over = s.outcome.result !== "ongoing";
    if (!this.frame) this.build();
    this.title.textContent = `${s.title}`;
    this.optionsLine.textContent = s.options_text || "no options";
    this.dealNumber.textContent = s.deal ?? "—";
    this.counter.textContent = String(s.moves);
    this.undoButton.disabled = !s.can_undo;
    this.redoButton.disabled = !s.can_redo;
    this.restartButton.disabled = !s.can_undo;
    this.finishButton.hidden = !s.can_autofinish;
    this.download.href = api.recordUrl(s.table);
    this.tick();
    this.renderActions();
    this.renderBoard();
    if (over) {
      const won = s.outcome.result === "won";
      const score = s.outcome.score !== undefined ? ` Score: ${s.outcome.score}.` : "";
      this.banner.textContent = won
        ? `You won, in ${s.moves} moves and ${clock(s.elapsed)}!${score}`
        : `Game over: ${s.outcome.result}${s.outcome.reason ? ` (${s.outcome.reason})` : ""}.${score}`;
      this.banner.className = `banner ${won ? "won" : "lost"}`;
      this.banner.hidden = false;
    } else {
      this.banner.hidden = true;
    }
  }

  build() {
    const button = (label, onclick, key) => h("button", { type: "button", onclick,
      "aria-keyshortcuts": key, title: key ? `${label} (${key})` : label }, label);
    this.title = h("h1");
    this.optionsLine = h("span", { class: "options" });
    this.dealNumber = h("code", { class: "deal", "data-testid": "deal" });
    this.counter = h("span", { "data-testid": "moves" });
    this.clockText = h("span", { "data-testid": "clock" });
    this.undoButton = button("Undo", () => this.send("undo"), "u");
    this.redoButton = button("Redo", () => this.send("redo"), "r");
    this.restartButton = button("Restart", () => this.send("restart"));
    this.finishButton = button("Auto finish", () => this.autoFinish(), "f");
    this.finishButton.hidden = true;
    this.download = h("a", { class: "button", download: "", href: "#" }, "Download record");
    this.rulesButton = h("button", { type: "button", "aria-expanded": "false",
      "aria-controls": "rules-panel", onclick: () => this.toggleRules() }, "Rules");
    this.rulesPanel = h("section", { id: "rules-panel", class: "rules", hidden: true,
      "aria-label": "the rules of the game", tabindex: "-1" });
    const copy = button("Copy", () => navigator.clipboard?.writeText(String(this.state.deal)));
    this.messageLine = h("p", { class: "message", role: "alert", "aria-live": "assertive" });
    this.banner = h("p", { class: "banner", role: "status", hidden: true });
    this.actions = h("div", { class: "actions", "aria-label": "moves that are not card moves" });
    this.moveInput = h("input", { type: "text", name: "move", placeholder: "t7-f1, stock, …",
      "aria-label": "type a move", autocomplete: "off", spellcheck: "false", size: 14 });
    const moveForm = h("form", { class: "move-form", onsubmit: (event) => {
      event.preventDefault();
      const text = this.moveInput.value.trim();
      if (text) this.sendMove(text).then(() => { this.moveInput.value = ""; });
    } }, h("label", {}, "Move ", this.moveInput), h("button", { type: "submit" }, "Play"));
    this.svg = el("svg", { class: "board", role: "group", "aria-label": "the table" });
    this.svg.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.svg.addEventListener("pointermove", (event) => this.onPointerMove(event));
    this.svg.addEventListener("pointerup", (event) => this.onPointerUp(event));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    this.frame = h("section", { class: "table-page" },
      h("div", { class: "table-head" }, this.title,
        h("p", { class: "facts" },
          h("span", {}, "Deal ", this.dealNumber, " ", copy), " · ", this.optionsLine,
          " · Moves ", this.counter, " · ", "Time ",
          this.clockText)),
      h("div", { class: "toolbar" }, this.undoButton, this.redoButton, this.restartButton,
        this.finishButton, button("New deal", () => this.newDeal()), this.download,
        this.rulesButton, moveForm),
      this.rulesPanel, this.banner, this.messageLine, this.actions, this.svg,
      h("p", { class: "help" }, "Click a card then where it goes, or drag it; double-click sends a "
        + "card to a foundation; click the stock to deal. Keys: u undo, r redo, s stock, f auto finish, / type a move."));
    this.root.replaceChildren(this.frame);
  }

  renderActions() {
    const actions = this.state.view.legal_moves.filter((m) => m.action !== undefined);
    this.actions.replaceChildren(...actions.map((move) => h("button", {
      type: "button", class: "action", onclick: () => this.sendMove(move) }, moveText(move))));
  }

  renderBoard() {
    const { view, game } = this.state;
    const layout = layoutTable(game, view);
    this.layout = layout;
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
    defs(svg);
    const legalSources = new Set(view.legal_moves.map((m) => m.from).filter(Boolean));
    for (const [name, slot] of Object.entries(layout.slots)) {
      const pile = view.piles[name];
      const group = el("g", { class: "pile", "data-pile": name,
        "aria-label": `${name}: ${pile.down.length + pile.up.length} cards` }, svg);
      const slotNode = drawSlot(slot.x, slot.y, slot.label);
      slotNode.dataset.pile = name;
      group.appendChild(slotNode);
      const positions = cardPositions(slot, pile);
      for (const pos of positions) {
        const node = drawCard(pos.faceUp ? pos.card : null, pos.x, pos.y);
        node.dataset.pile = name;
        node.dataset.index = String(pos.index);
        if (pos.faceUp && pos.card) {
          node.dataset.card = pos.card;
          if (legalSources.has(name)) node.classList.add("movable");
        }
        if (this.selected && this.selected.pile === name && pos.index >= this.selected.index) {
          node.classList.add("selected");
        }
        group.appendChild(node);
      }
      const total = pile.down.length + pile.up.length;
      if (slot.mode === "squared" && total > 1) {
        const badge = el("text", { class: "count", x: slot.x + CARD_W - 6, y: slot.y + CARD_H + 22,
          "text-anchor": "end" }, group);
        badge.textContent = String(total);
      }
    }
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

  async newDeal() {
    try {
      this.selected = null;
      this.message("");
      this.show(await api.newDeal(this.tableId));
    } catch (error) {
      this.message(error.message, true);
    }
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
      const right = slot.x + CARD_W + (slot.mode === "right" ? 52 : 0);
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
    if (this.press?.dragging) this.render();
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
    if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    if (event.key === "u") this.send("undo");
    else if (event.key === "r") this.send("redo");
    else if (event.key === "s") this.sendMove(this.stockAction());
    else if (event.key === "f" && this.state?.can_autofinish) this.autoFinish();
    else if (event.key === "/") {
      event.preventDefault();
      this.moveInput.focus();
    } else if (event.key === "Escape" && this.selected) {
      this.selected = null;
      this.render();
    } else return;
  }
}
