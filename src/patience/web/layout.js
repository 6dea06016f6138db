// Where each game's piles lie on the table. A layout gives every pile a column and a row on a
// grid of card-sized cells and a way to show its cards:
//   "down"    fanned downwards, every card visible (tableaux, Leoni's Own's pile 13);
//   "right"   the top three fanned to the right (a waste in draw-3 games);
//   "squared" only the top card seen, with the number of cards beneath it.

import { CARD_H, CARD_W } from "./cards.js";

export const GAP = 16;
export const MARGIN = 12;
export const ROW_GAP = 34;

const range = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

function place(piles, names, row, firstCol, mode, label) {
  names.forEach((name, i) => {
    piles[name] = { col: firstCol + i, row, mode, label: label?.(name, i) ?? "" };
  });
}

const foundationLabel = () => "";

const LAYOUTS = {
  klondike(view) {
    const piles = {};
    place(piles, ["stock"], 0, 0, "squared", () => "↻");
    place(piles, ["waste"], 0, 1, view.options?.draw === 3 ? "right" : "squared");
    place(piles, range(4, "f"), 0, 3, "squared", () => "A");
    place(piles, range(7, "t"), 1, 0, "down", () => "K");
    return { columns: 7, piles };
  },
  spider() {
    const piles = {};
    place(piles, ["stock"], 0, 0, "squared");
    place(piles, range(8, "f"), 0, 2, "squared", foundationLabel);
    place(piles, range(10, "t"), 1, 0, "down");
    return { columns: 10, piles };
  },
  napoleon() {
    const piles = {};
    place(piles, ["stock"], 0, 0, "squared");
    place(piles, ["waste"], 0, 1, "squared");
    place(piles, range(8, "f"), 0, 2, "squared", () => "A");
    place(piles, range(10, "t"), 1, 0, "down");
    return { columns: 10, piles };
  },
  canfield(view) {
    const piles = {};
    place(piles, ["stock"], 0, 0, "squared", () => "↻");
    place(piles, ["waste"], 0, 1, view.options?.draw === 3 ? "right" : "squared");
    place(piles, range(4, "f"), 0, 3, "squared");
    place(piles, ["reserve"], 1, 0, "squared");
    place(piles, range(4, "t"), 1, 3, "down");
    return { columns: 7, piles };
  },
  "leonis-own"() {
    const piles = {};
    place(piles, range(4, "f"), 0, 0, "squared", () => "A");
    place(piles, range(4, "f").map((_, i) => `f${i + 5}`), 0, 4, "squared", () => "K");
    place(piles, ["exiles"], 0, 10, "squared", () => "exiles");
    place(piles, ["hand"], 0, 12, "squared", () => "hand");
    place(piles, range(12, "t"), 1, 0, "squared", (_, i) => String(i + 1));
    place(piles, ["t13"], 1, 12, "down", () => "13");
    return { columns: 13, piles };
  },
  accordion(view) {
    // The row of piles wraps, 13 to a line; only piles in play (and the next place) are shown.
    const piles = {};
    place(piles, ["stock"], 0, 0, "squared");
    const names = Object.keys(view.piles).filter((name) => /^t\d+$/.test(name));
    const inPlay = names.filter((name) => view.piles[name].up.length + view.piles[name].down.length);
    const shown = names.slice(0, Math.max(1, inPlay.length));
    shown.forEach((name, i) => {
      piles[name] = { col: i % 13, row: 1 + Math.floor(i / 13), mode: "squared", label: "" };
    });
    return { columns: 13, piles };
  },
};

// Any other game: piles that are not tableaux (t1, t2, ...) in the first row, tableaux below.
function generic(view) {
  const piles = {};
  const names = Object.keys(view.piles);
  const tableau = names.filter((name) => /^t\d+$/.test(name));
  const others = names.filter((name) => !tableau.includes(name));
  place(piles, others, 0, 0, "squared");
  place(piles, tableau, 1, 0, "down");
  return { columns: Math.max(others.length, tableau.length, 1), piles };
}

const DOWN_STEP = 14; // a face-down card under a fanned pile
const UP_STEP = 30; // a face-up card under a fanned pile: its corner index stays readable
const RIGHT_STEP = 26;

/** Card positions for a pile: [{card, x, y, index}] bottom to top (only the cards drawn). */
export function cardPositions(slot, pile) {
  const cards = [...pile.down, ...pile.up];
  const downCount = pile.down.length;
  const out = [];
  if (slot.mode === "down") {
    let y = slot.y;
    cards.forEach((card, index) => {
      out.push({ card, x: slot.x, y, index, faceUp: index >= downCount });
      y += index < downCount ? DOWN_STEP : UP_STEP;
    });
  } else if (slot.mode === "right") {
    const first = Math.max(0, cards.length - 3);
    cards.slice(first).forEach((card, i) => {
      const index = first + i;
      out.push({ card, x: slot.x + i * RIGHT_STEP, y: slot.y, index, faceUp: index >= downCount });
    });
  } else if (cards.length) {
    const index = cards.length - 1;
    out.push({ card: cards[index], x: slot.x, y: slot.y, index, faceUp: index >= downCount });
  }
  return out;
}

/** The whole table: {width, height, slots: {pile: {x, y, mode, label, bottom}}}. */
export function layoutTable(game, view) {
  const spec = (LAYOUTS[game] ?? generic)(view);
  const rows = {};
  for (const slot of Object.values(spec.piles)) rows[slot.row] = true;
  // A row is as tall as its longest fanned pile; the next row starts below it.
  const rowTop = {};
  let y = MARGIN;
  const rowNumbers = Object.keys(rows).map(Number).sort((a, b) => a - b);
  const slots = {};
  for (const row of rowNumbers) {
    rowTop[row] = y;
    let bottom = y + CARD_H;
    for (const [name, slot] of Object.entries(spec.piles)) {
      if (slot.row !== row || !view.piles[name]) continue;
      const placed = { ...slot, x: MARGIN + slot.col * (CARD_W + GAP), y };
      const cards = cardPositions(placed, view.piles[name]);
      const last = cards.length ? cards[cards.length - 1].y + CARD_H : y + CARD_H;
      // A squared pile's count is written under it.
      placed.bottom = last + (slot.mode === "squared" ? 28 : 0);
      slots[name] = placed;
      bottom = Math.max(bottom, placed.bottom);
    }
    y = bottom + ROW_GAP;
  }
  const width = MARGIN * 2 + spec.columns * CARD_W + (spec.columns - 1) * GAP;
  return { width, height: Math.max(y - ROW_GAP + MARGIN, CARD_H * 2), slots };
}
