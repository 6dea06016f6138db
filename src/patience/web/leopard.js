// Leopard at a shared table: the squares (face-down jacks and queens as backs, with who laid
// them), the seat's own hand, declaring, the four-player "may I end?" question and its answer,
// and the deal and match scores. Everything comes from the seat's view.

import { CARD_H, CARD_W, defs, drawCard, drawSlot, el, parseCard } from "./cards.js";
import { h } from "./dom.js";
import { reasonText } from "./generic.js";

const GAP = 12;
const POSITION_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9"];
// A square's drawing and the hand's height, in card units (a card is CARD_W x CARD_H).
const SQUARE_W = 3 * CARD_W + 4 * GAP;
const SQUARE_H = 3 * CARD_H + 4 * GAP;
const HAND_H = CARD_H + 2 * GAP;
const handWidth = (count) => Math.max(1, count) * (CARD_W * 0.8) + CARD_W * 0.2 + 2 * GAP;
// Below this width (CSS pixels) the squares stack and the page scrolls down (a phone).
const NARROW = 640;
// How far the cards may shrink so that the hand and the squares fit the window (CSS pixels per
// card unit): a card 55 px wide keeps its corner index at about 16 px.
const SCALE_MIN = 0.55;
const SCALE_MAX = 1.1;
// The suits as text, each followed by U+FE0E so that no font draws them as emoji.
const SUIT_TEXT = { c: "\u2663\uFE0E", d: "\u2666\uFE0E", h: "\u2665\uFE0E", s: "\u2660\uFE0E" };

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

const deals = (n) => `${n} deal${n === 1 ? "" : "s"}`;

/**
 * The end of a deal while the server holds the table there (the state's `hold`, until every
 * person at the table goes on): the deal's last position as this seat saw it (`hold.view`:
 * the squares as scored, the face-down cards of others still hidden), no move to make, and the
 * deal's points in words for the box that holds it: "Deal 1 is over: Ann 3 points, Bob 5 points
 * (Bob declared)."
 */
export function leopardHold(state, page) {
  const ended = state.hold.view;
  const deal = ended.history.length;
  const points = ended.history[deal - 1];
  const declarer = ended.declarers[deal - 1];
  const words = points.map((p, side) => `${sideName(ended, page, side)} ${p} point${p === 1 ? "" : "s"}`)
    .join(", ");
  const declared = declarer !== null && declarer !== undefined
    ? ` (${page.seatName(declarer)} declared)` : " (nobody declared: the stock ran out)";
  return {
    state: { ...state, turn: null,
      view: { ...ended, phase: "deal-end", legal_moves: [], outcome: state.view.outcome } },
    words: `Deal ${deal} is over: ${words}${declared}.`,
    label: `Go on to deal ${deal + 1}`,
  };
}

/**
 * The end of a match in words, with the players' names (the engine's reason numbers the seats):
 * "Bob won the match 6-0 after 1 deal", "Ann and Cy won the match 12-8 after 8 deals".
 * With three players each total is named; a draw says so.
 */
export function leopardEnd(state, page) {
  const outcome = state.outcome;
  const view = state.view;
  const totals = outcome.scores ?? view.totals;
  const after = `after ${deals(view.history.length)}`;
  const named = () => totals.map((total, side) => `${sideName(view, page, side)} ${total}`)
    .join(", ");
  if (outcome.result === "won" && outcome.winner !== null && outcome.winner !== undefined) {
    const winner = outcome.winner;
    const who = sideName(view, page, winner);
    if (totals.length === 2) {
      return `${who} won the match ${totals[winner]}-${totals[1 - winner]} ${after}.`;
    }
    return `${who} won the match ${after}: ${named()}.`;
  }
  if (outcome.result === "draw") {
    if (totals.length === 2) return `The match is drawn ${totals[0]}-${totals[1]} ${after}.`;
    return `The match is drawn ${after}: ${named()}.`;
  }
  return reasonText(outcome, page) || outcome.result;
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
  if (view.phase === "over" || view.phase === "deal-end") return null;
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

/**
 * A card as a small one in the text ("3♣", red for hearts and diamonds), which a screen reader
 * reads by its name ("3 of clubs"): the discards, and a card named in a button.
 */
export function miniCard(card) {
  const face = parseCard(card);
  if (!face) return h("span", {}, String(card));
  return h("span", { class: `mp-mini ${face.suit.red ? "red" : "black"}`, role: "img",
    "aria-label": face.label, "data-card": card }, `${face.rank}${SUIT_TEXT[card[1].toLowerCase()]}`);
}

function drawSquare(view, page, side, targets) {
  const svg = el("svg", { class: "board mp-square", viewBox: `0 0 ${SQUARE_W} ${SQUARE_H}`,
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
      } else if (view.phase === "over" && top.down) {
        // The match is over: every face-down card is shown, tagged with who laid it.
        g = drawCard(top.down, x, y);
        g.setAttribute("data-down-by", top.by);
        g.setAttribute("data-down-card", top.down);
        g.classList.add("mp-revealed");
        const who = top.by === page.seat ? "yours" : page.seatName(top.by);
        el("rect", { x: 4, y: CARD_H - 34, width: CARD_W - 8, height: 28, rx: 4,
          class: "mp-tag" }, g);
        const tag = label(g, CARD_W / 2, CARD_H - 14, who, "mp-tag-text");
        if (who.length > 8) {
          tag.setAttribute("textLength", CARD_W - 16);
          tag.setAttribute("lengthAdjust", "spacingAndGlyphs");
        }
        const face = parseCard(top.down);
        g.setAttribute("aria-label", `${face ? face.label : top.down}, laid face down by ` +
          `${top.by === page.seat ? "you" : page.seatName(top.by)}`);
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
        if (who.length > 8) {
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
  const svg = el("svg", { class: "board mp-hand", viewBox: `0 0 ${handWidth(cards.length)} ${HAND_H}`,
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
      page.send({ action: "discard", card: page.selection }) }, "Discard ",
    miniCard(page.selection)));
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
  const handSvg = me !== null && view.hands[me] ? drawHand(view.hands[me], page, playable) : null;
  const hand = handSvg
    ? h("div", { class: "mp-hand-box", "data-testid": "hand" }, h("h2", {}, "Your hand"), handSvg)
    : h("p", { class: "help" }, "Spectators see the squares and the discards, never a hand.");
  const discards = view.piles.discards.up;
  const discardLine = h("p", { class: "mp-discards", "data-testid": "discards" }, "Discards: ",
    discards.length ? discards.flatMap((card, i) => (i ? [" ", miniCard(card)] : [miniCard(card)]))
      : "none");
  const handColumn = h("div", { class: "mp-hand-col" }, hand, discardLine);
  const table = h("div", { class: "mp-table" }, handColumn, squares);
  container.replaceChildren(...[info, question,
    h("div", { class: "mp-turn" }, h("div", { class: "actions" }, buttons), help), table,
    scores(view, page)].filter(Boolean));
  fitLeopard(table, handColumn, handSvg, view.hands[me]?.length ?? 0, squares);
}

/**
 * On a wide screen, sizes the hand and the squares alike (one scale, CSS pixels per card unit)
 * so that they fit the window's height below their top (as if the page were scrolled to the
 * top): the squares side by side, and the hand either above them or beside them, whichever
 * lets the cards be larger. Cards never shrink below SCALE_MIN: below it the page scrolls down.
 * A phone keeps the style sheet's sizes (the squares one under the other, as wide as it allows).
 */
function fitLeopard(table, handColumn, handSvg, handCount, squares) {
  const figures = [...squares.children];
  const svgs = figures.map((figure) => figure.querySelector("svg"));
  const width = table.isConnected ? table.getBoundingClientRect().width : 0;
  if (width < NARROW || !figures.length) return;
  const count = figures.length;
  const handW = handWidth(handCount);
  const top = table.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - 8;
  const height = (node) => node.getBoundingClientRect().height;
  const apply = (side, scale) => {
    table.classList.toggle("side", side);
    for (const figure of figures) {
      figure.classList.add("fitted");
      figure.style.width = `${Math.floor(SQUARE_W * scale)}px`;
    }
    if (handSvg) handSvg.style.width = `${Math.floor(handW * scale)}px`;
  };
  // The largest scale of a layout: its drawings fit the width, and with its texts (headings,
  // captions, the discards: measured at a trial scale, then at the scale found, as captions
  // wrap differently) the height.
  const largest = (side) => {
    apply(side, 0.7);
    const gap = parseFloat(getComputedStyle(squares).columnGap) || 0;
    const between = side ? parseFloat(getComputedStyle(table).columnGap) || 0 : 0;
    // Whole pixels are taken (Math.floor), and one more for rounding.
    const wide = side
      ? (width - between - gap * (count - 1) - count - 2) / (SQUARE_W * count + handW)
      : Math.min((width - gap * (count - 1) - count) / (SQUARE_W * count),
        handSvg ? (width - 1) / handW : 9);
    let scale = Math.min(wide, 0.7);
    for (let pass = 0; pass < 2; pass += 1) {
      apply(side, Math.max(scale, 0.3));
      const captions = Math.max(...figures.map((figure, i) => height(figure) - height(svgs[i])));
      const handTexts = height(handColumn) - (handSvg ? height(handSvg) : 0);
      const high = side
        ? Math.min((room - captions) / SQUARE_H, (room - handTexts) / HAND_H)
        : (room - captions - handTexts) / (SQUARE_H + (handSvg ? HAND_H : 0));
      scale = Math.min(wide, high, SCALE_MAX);
    }
    return scale;
  };
  const stacked = largest(false);
  const beside = handSvg ? largest(true) : 0;
  apply(beside > stacked, Math.max(SCALE_MIN, Math.max(beside, stacked)));
}
