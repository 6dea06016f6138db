// Leopard at a shared table: the squares (face-down jacks and queens as backs, with who laid
// them), the seat's own hand, declaring, the four-player "may I end?" question and its answer,
// and the deal and match scores. Everything comes from the seat's view.

import { CARD_H, CARD_W, defs, drawCard, drawSlot, el, parseCard } from "./cards.js";
import { h } from "./dom.js";

const GAP = 12;
const POSITION_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9"];

function sideName(view, page, side) {
  if (view.players === 4) return `${page.seatName(side)} and ${page.seatName(side + 2)}`;
  return page.seatName(side);
}

// The value of a square (RULES.md): 2 for each line of three of one suit, else 1 if of one
// colour. A face-down card has no suit: its position counts as empty, as the engine counts it.
const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const RED = { c: false, d: true, h: true, s: false };

export function squareValue(cells) {
  const suits = cells.map((cell) => {
    const top = cell[cell.length - 1];
    return typeof top === "string" ? top[1] : null;
  });
  let value = 0;
  for (const [a, b, c] of LINES) {
    const [x, y, z] = [suits[a], suits[b], suits[c]];
    if (!x || !y || !z) continue;
    if (x === y && y === z) value += 2;
    else if (RED[x] === RED[y] && RED[y] === RED[z]) value += 1;
  }
  return value;
}

// What the page says about the turn, for the seat that is to act, the one that waits for an
// answer, and everybody else (other seats and spectators), in each phase of a turn.
function turnHelp(view, page) {
  const me = page.seat;
  const turn = view.turn;
  const who = page.seatName(turn);
  const sides = view.squares.length;
  const value = squareValue(view.squares[turn % sides]);
  const four = view.players === 4;
  const partner = (seat) => page.seatName((seat + 2) % 4);
  if (view.phase === "over") return null;
  if (view.phase === "answer") {
    const asker = page.seatName(view.asker);
    if (me === turn) {
      return `Your partner ${asker} asks you: may he end the deal? (Your side's square is worth ` +
        `${value}.) Yes: he declares and the deal ends. No: he draws and plays on.`;
    }
    if (me === view.asker) return `You asked ${who}: may I end the deal? Waiting for the answer.`;
    return `${asker} asked ${who}: may I end the deal? Waiting for ${who}'s answer.`;
  }
  if (view.phase === "start") {
    const square = four ? "Your side's square" : "Your square";
    if (me === turn) {
      return `${square} is worth ${value}: declare (the deal ends), or draw and play on` +
        (four ? `, or first ask your partner ${partner(me)}.` : ".");
    }
    return `${who}'s square is worth ${value}: ${who} may declare (end the deal)` +
      `${four ? `, ask ${partner(turn)}` : ""} or draw and play on.`;
  }
  if (me === turn) return "Choose a card of your hand, then a highlighted position (or Discard).";
  return `${who} is playing a card.`;
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
        // A face-down jack or queen: a back, with who laid it (and what, to the one who did,
        // in words too: his screen reader must tell him what sighted players read on the tag).
        g = drawCard(null, x, y);
        g.setAttribute("data-down-by", top.by);
        const face = top.by === page.seat ? parseCard(top.down) : null;
        const who = face ? `yours: ${top.down}` : page.seatName(top.by);
        el("rect", { x: 4, y: CARD_H - 34, width: CARD_W - 8, height: 28, rx: 4,
          class: "mp-tag" }, g);
        const tag = label(g, CARD_W / 2, CARD_H - 14, who, "mp-tag-text");
        // A long name is squeezed into the tag rather than cut.
        if (who.length > 11) {
          tag.setAttribute("textLength", CARD_W - 16);
          tag.setAttribute("lengthAdjust", "spacingAndGlyphs");
        }
        const described = face ? `your ${face.label}, face down`
          : `face-down card laid by ${page.seatName(top.by)}`;
        g.setAttribute("aria-label", described);
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
  const helpText = turnHelp(view, page);
  const help = helpText ? h("p", { class: "help", "data-testid": "turn-help" }, helpText) : null;

  // Each square's value, as the rule book scores it, so nobody has to count the lines.
  const squares = h("div", { class: "mp-squares" }, view.squares.map((cells, side) => {
    const mine = me !== null && me % view.squares.length === side;
    const value = squareValue(cells);
    return h("figure", { class: `mp-square-box${mine ? " mine" : ""}` },
      h("figcaption", {}, `${sideName(view, page, side)}${mine ? " (yours)" : ""}`,
        h("span", { class: "mp-value", "data-testid": "square-value", "data-value": value },
          ` · worth ${value} point${value === 1 ? "" : "s"}`)),
      drawSquare(view, page, side, targets));
  }));
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
