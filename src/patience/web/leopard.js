// Leopard at a shared table: the squares (face-down jacks and queens as backs, with who laid
// them), the seat's own hand, declaring, the four-player "may I end?" question and its answer,
// and the deal and match scores. Everything comes from the seat's view.

import { CARD_H, CARD_W, defs, drawCard, drawSlot, el } from "./cards.js";
import { h } from "./dom.js";

const GAP = 12;
const POSITION_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9"];

function sideName(view, page, side) {
  if (view.players === 4) return `side ${side}: ${page.seatName(side)} and ${page.seatName(side + 2)}`;
  return page.seatName(side);
}

function label(g, x, y, text, cls) {
  const node = el("text", { x, y, class: cls, "text-anchor": "middle" }, g);
  node.textContent = text;
  return node;
}

function drawSquare(view, page, side, targets) {
  const size = 3 * CARD_W + 4 * GAP;
  const svg = el("svg", { class: "board mp-square", viewBox: `0 0 ${size} ${3 * CARD_H + 4 * GAP}`,
    role: "group", "aria-label": `square ${side}`, "data-square": side });
  defs(svg);
  view.squares[side].forEach((cell, index) => {
    const x = GAP + (index % 3) * (CARD_W + GAP);
    const y = GAP + Math.floor(index / 3) * (CARD_H + GAP);
    const key = `${side}-${index + 1}`;
    let g;
    if (cell.length === 0) {
      g = drawSlot(x, y, POSITION_LABELS[index]);
    } else {
      const top = cell[cell.length - 1];
      if (typeof top === "string") {
        g = drawCard(top, x, y);
        g.setAttribute("data-card", top);
      } else {
        // A face-down jack or queen: a back, with who laid it (and what, to the one who did).
        g = drawCard(null, x, y);
        g.setAttribute("data-down-by", top.by);
        const who = top.by === page.seat ? `yours: ${top.down}` : `by seat ${top.by}`;
        el("rect", { x: 4, y: CARD_H - 34, width: CARD_W - 8, height: 28, rx: 4,
          class: "mp-tag" }, g);
        label(g, CARD_W / 2, CARD_H - 14, who.slice(0, 12), "mp-tag-text");
        g.setAttribute("aria-label", `face-down card laid by seat ${top.by}`);
      }
      if (cell.length > 1) {
        el("circle", { cx: CARD_W - 14, cy: 14, r: 12, class: "mp-badge" }, g);
        label(g, CARD_W - 14, 20, `${cell.length - 1}`, "mp-badge-text");
      }
    }
    g.setAttribute("data-position", index + 1);
    g.setAttribute("data-square", side);
    if (targets.has(key)) {
      g.classList.add("target");
      g.addEventListener("click", () => page.send({ action: "play", card: page.selection,
        square: side, position: index + 1 }));
    }
    svg.append(g);
  });
  return svg;
}

function drawHand(cards, page, playable) {
  const width = Math.max(1, cards.length) * (CARD_W * 0.8) + CARD_W * 0.2 + 2 * GAP;
  const svg = el("svg", { class: "board mp-hand", viewBox: `0 0 ${width} ${CARD_H + 2 * GAP}`,
    role: "group", "aria-label": "your hand" });
  defs(svg);
  cards.forEach((card, index) => {
    const g = drawCard(card, GAP + index * CARD_W * 0.8, GAP);
    g.setAttribute("data-card", card);
    if (playable.has(card)) {
      g.classList.add("movable");
      if (page.selection === card) g.classList.add("selected");
      g.addEventListener("click", () => {
        page.selection = page.selection === card ? null : card;
        page.show(page.state);
      });
    }
    svg.append(g);
  });
  return svg;
}

function scores(view, page) {
  const sides = view.totals.length;
  const head = h("tr", {}, h("th", {}, "deal"),
    [...Array(sides).keys()].map((side) => h("th", {}, sideName(view, page, side))));
  const rows = view.history.map((points, index) => h("tr", {}, h("td", {}, String(index + 1)),
    points.map((p, side) => h("td", {}, `${p}${view.declarers[index] !== null
      && view.declarers[index] % sides === side ? " (declared)" : ""}`))));
  const total = h("tr", { class: "total" }, h("th", {}, "match"),
    view.totals.map((t) => h("th", {}, String(t))));
  return h("table", { class: "stats mp-scores", "data-testid": "scores" }, head, ...rows, total);
}

export function renderLeopard(container, state, page) {
  const view = state.view;
  const me = page.seat;
  const legal = view.legal_moves ?? [];
  const playable = new Set(legal.filter((m) => m.card).map((m) => m.card));
  if (page.selection && !playable.has(page.selection)) page.selection = null;
  const targets = new Set(legal
    .filter((m) => m.action === "play" && m.card === page.selection)
    .map((m) => `${m.square}-${m.position}`));

  const info = h("p", { class: "mp-info" },
    `Deal ${view.deal_index + 1}${state.options.deals !== "off" ? ` of ${state.options.deals}` : ""}` +
    ` · dealer ${page.seatName(view.dealer)} · stock ${view.stock} cards · ` +
    view.hand_sizes.map((n, seat) => `${page.seatName(seat)}: ${n} in hand`).join(", "));

  const buttons = [];
  for (const move of legal) {
    if (move.action === "declare") {
      buttons.push(h("button", { type: "button", "data-action": "declare",
        onclick: () => page.send(move) }, "Declare (end the deal)"));
    } else if (move.action === "draw") {
      buttons.push(h("button", { type: "button", "data-action": "draw",
        onclick: () => page.send(move) }, "Draw (do not declare)"));
    } else if (move.action === "ask") {
      buttons.push(h("button", { type: "button", "data-action": "ask",
        onclick: () => page.send(move) }, "Ask my partner: may I end?"));
    } else if (move.action === "answer") {
      buttons.push(h("button", { type: "button", "data-action": `answer-${move.yes}`,
        onclick: () => page.send(move) }, move.yes ? "Yes, end the deal" : "No, play on"));
    }
  }
  if (page.selection && legal.some((m) => m.action === "discard" && m.card === page.selection)) {
    buttons.push(h("button", { type: "button", "data-action": "discard", onclick: () =>
      page.send({ action: "discard", card: page.selection }) }, `Discard ${page.selection}`));
  }
  const question = view.phase === "answer" && view.asker !== null
    ? h("p", { class: "mp-question", role: "status" },
      `${page.seatName(view.asker)} asks ${page.seatName(view.turn)}: may I end the deal?`)
    : null;
  const help = legal.length
    ? h("p", { class: "help" }, view.phase === "play"
      ? "Choose a card of your hand, then a highlighted position (or Discard)."
      : "Your square is worth 5 or more: declare, or draw and play on.")
    : null;

  const squares = h("div", { class: "mp-squares" }, view.squares.map((_, side) =>
    h("figure", { class: `mp-square-box${me !== null && me % view.squares.length === side
      ? " mine" : ""}` },
    h("figcaption", {}, `Square ${side}: ${sideName(view, page, side)}`),
    drawSquare(view, page, side, targets))));
  const hand = me !== null && view.hands[me]
    ? h("div", { class: "mp-hand-box", "data-testid": "hand" }, h("h2", {}, "Your hand"),
      drawHand(view.hands[me], page, playable))
    : h("p", { class: "help" }, "Spectators see the squares and the discards, never a hand.");
  const discards = view.piles.discards.up;
  container.replaceChildren(...[info, question, h("div", { class: "actions" }, buttons), help,
    hand, squares,
    h("p", { class: "mp-discards" }, `Discards: ${discards.length ? discards.join(" ") : "none"}`),
    scores(view, page)].filter(Boolean));
}
