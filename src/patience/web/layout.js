// Where each game's piles lie on the table. A layout gives every pile a column and a row on a
// grid of card-sized cells (fewer columns on a narrow screen where a game has many) and a way to
// show its cards:
//   "down"    fanned downwards, every card visible (tableaux, Leoni's Own's pile 13);
//   "right"   the top three fanned to the right (a waste in draw-3 games);
//   "squared" only the top card seen, with the number of cards beneath it.

import { CARD_H, CARD_W, INDEX, INDEX_MAX, INDEX_MIN, indexStrip } from "./cards.js";

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
  "leonis-own"(view, narrow) {
    const piles = {};
    if (narrow) {
      // Seven columns, so that the cards stay readable on a phone: the ace foundations over the
      // king foundations, piles 1-6 over piles 7-12, pile 13 spread down at the bottom right.
      place(piles, range(4, "f"), 0, 0, "squared", () => "A");
      place(piles, ["exiles"], 0, 6, "squared", () => "exiles");
      place(piles, range(4, "f").map((_, i) => `f${i + 5}`), 1, 0, "squared", () => "K");
      place(piles, ["hand"], 1, 6, "squared", () => "hand");
      place(piles, range(6, "t"), 2, 0, "squared", (_, i) => String(i + 1));
      place(piles, range(6, "t").map((_, i) => `t${i + 7}`), 3, 0, "squared",
        (_, i) => String(i + 7));
      place(piles, ["t13"], 3, 6, "down", () => "13");
      return { columns: 7, piles };
    }
    place(piles, range(4, "f"), 0, 0, "squared", () => "A");
    place(piles, range(4, "f").map((_, i) => `f${i + 5}`), 0, 4, "squared", () => "K");
    place(piles, ["exiles"], 0, 10, "squared", () => "exiles");
    place(piles, ["hand"], 0, 12, "squared", () => "hand");
    place(piles, range(12, "t"), 1, 0, "squared", (_, i) => String(i + 1));
    place(piles, ["t13"], 1, 12, "down", () => "13");
    return { columns: 13, piles };
  },
  accordion(view, narrow) {
    // The row of piles wraps, 13 to a line (7 on a narrow screen); only piles in play (and the
    // next place) are shown. With everything dealt at the start the stock stays empty: no row.
    const piles = {};
    const perLine = narrow ? 7 : 13;
    const withStock = view.options?.dealing !== "all";
    if (withStock) place(piles, ["stock"], 0, 0, "squared");
    const names = Object.keys(view.piles).filter((name) => /^t\d+$/.test(name));
    const inPlay = names.filter((name) => view.piles[name].up.length + view.piles[name].down.length);
    const shown = names.slice(0, Math.max(1, inPlay.length));
    const first = withStock ? 1 : 0;
    shown.forEach((name, i) => {
      piles[name] = { col: i % perLine, row: first + Math.floor(i / perLine), mode: "squared",
        label: "" };
    });
    return { columns: perLine, piles };
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

const DOWN_STEP = 14; // a face-down card under a fanned pile, when there is room
const DOWN_STEPS = [DOWN_STEP, 10, 7]; // ... and squeezed, before the corner index shrinks
const RIGHT_STEP = 26;
const RIGHT_STEP_MAX = 58; // a waste fanned right has the empty column beside it
// Below this width (CSS pixels) games of many columns take a narrower layout.
const NARROW = 640;
// The sizes on screen (CSS pixels) aimed at: a corner index's rank, a squared pile's count.
const INDEX_PX = 24;
const INDEX_MIN_PX = 13; // never smaller: a phone scrolls down instead
const COUNT_PX = 13;

/**
 * Card positions for a pile: [{card, x, y, index, faceUp}] bottom to top (only the cards drawn).
 * A fanned slot carries its steps (downStep, upStep); a face-up card covered by the next one
 * keeps `upStep` units in view, enough for its corner index.
 */
export function cardPositions(slot, pile) {
  const cards = [...pile.down, ...pile.up];
  const downCount = pile.down.length;
  const out = [];
  if (slot.mode === "down") {
    const downStep = slot.downStep ?? DOWN_STEP;
    const upStep = slot.upStep ?? indexStrip(INDEX);
    let y = slot.y;
    cards.forEach((card, index) => {
      out.push({ card, x: slot.x, y, index, faceUp: index >= downCount });
      y += index < downCount ? downStep : upStep;
    });
  } else if (slot.mode === "right") {
    const first = Math.max(0, cards.length - 3);
    cards.slice(first).forEach((card, i) => {
      const index = first + i;
      out.push({ card, x: slot.x + i * (slot.rightStep ?? RIGHT_STEP), y: slot.y, index,
        faceUp: index >= downCount });
    });
  } else if (cards.length) {
    const index = cards.length - 1;
    out.push({ card: cards[index], x: slot.x, y: slot.y, index, faceUp: index >= downCount });
  }
  return out;
}

const clamp = (value, low, high) => Math.max(low, Math.min(high, value));

/** The right edge of a pile's cards (a waste fanned right reaches past its slot). */
export function slotRight(slot) {
  return slot.x + CARD_W + (slot.mode === "right" ? 2 * (slot.rightStep ?? RIGHT_STEP) : 0);
}

/** The table with given sizes: {width, height, slots}. */
function arrange(spec, view, sizes) {
  const { index, downStep, countFont } = sizes;
  const upStep = indexStrip(index);
  // Cards fanned right keep their corner index in view: the rank and the pip beside it.
  const rightStep = Math.min(RIGHT_STEP_MAX, Math.ceil(1.9 * index + 10));
  const rowNumbers = [...new Set(Object.values(spec.piles).map((slot) => slot.row))]
    .sort((a, b) => a - b);
  // A row is as tall as its longest fanned pile; the next row starts below it.
  let y = MARGIN;
  const slots = {};
  for (const row of rowNumbers) {
    let bottom = y + CARD_H;
    for (const [name, slot] of Object.entries(spec.piles)) {
      if (slot.row !== row || !view.piles[name]) continue;
      const placed = { ...slot, x: MARGIN + slot.col * (CARD_W + GAP), y, downStep, upStep,
        rightStep };
      const cards = cardPositions(placed, view.piles[name]);
      const last = cards.length ? cards[cards.length - 1].y + CARD_H : y + CARD_H;
      // A squared pile's count is written under it.
      placed.bottom = last + (slot.mode === "squared" ? countFont + 10 : 0);
      slots[name] = placed;
      bottom = Math.max(bottom, placed.bottom);
    }
    y = bottom + ROW_GAP;
  }
  const width = MARGIN * 2 + spec.columns * CARD_W + (spec.columns - 1) * GAP;
  return { width, height: Math.max(y - ROW_GAP + MARGIN, CARD_H * 2), slots };
}

/**
 * The sizes that fit `spec` into `pxWidth` x `pxHeight` CSS pixels: the largest corner index
 * (up to about INDEX_PX on screen) whose steps let every row fit, face-down steps squeezed
 * first; null when even the smallest readable index does not fit.
 */
function fitSizes(spec, view, width, pxWidth, pxHeight) {
  const scale = pxWidth / width; // CSS pixels per unit
  const countFont = Math.round(clamp(COUNT_PX / scale, 18, 44));
  const largest = Math.round(clamp(INDEX_PX / scale, INDEX_MIN, INDEX_MAX));
  const smallest = Math.min(largest, Math.ceil(clamp(INDEX_MIN_PX / scale, INDEX_MIN, INDEX_MAX)));
  const budget = pxHeight > 0 ? pxHeight / scale : Infinity;
  for (let index = largest; index >= smallest; index -= 1) {
    for (const downStep of DOWN_STEPS) {
      const sizes = { index, downStep, countFont };
      const table = arrange(spec, view, sizes);
      if (table.height <= budget) return { ...table, ...sizes };
    }
  }
  return null;
}

/**
 * The whole table: {width, height, slots: {pile: {x, y, mode, label, bottom, ...}}, index,
 * countFont, displayWidth}. `fit` ({width, height}: the CSS pixels the board may take, its
 * height being what the window shows below the board's top) lets the layout suit the screen:
 * fewer columns when narrow, the corner index and the counts sized for the scale, and fanned
 * piles' steps squeezed so that they fit the window's height while every covered face-up card
 * keeps its rank and suit in view. When that is not enough on a wide screen the whole board is
 * drawn narrower (`displayWidth`, CSS pixels; down to 60%); a phone scrolls down instead.
 */
export function layoutTable(game, view, fit = null) {
  const narrow = Boolean(fit && fit.width > 0 && fit.width < NARROW);
  const spec = (LAYOUTS[game] ?? generic)(view, narrow);
  const width = MARGIN * 2 + spec.columns * CARD_W + (spec.columns - 1) * GAP;
  if (!fit || !(fit.width > 0)) {
    const sizes = { index: INDEX, downStep: DOWN_STEP, countFont: 18 };
    return { ...arrange(spec, view, sizes), ...sizes, displayWidth: null };
  }
  for (const factor of narrow ? [1] : [1, 0.9, 0.8, 0.7, 0.6]) {
    const pxWidth = fit.width * factor;
    if (factor < 1 && pxWidth < NARROW) break;
    const chosen = fitSizes(spec, view, width, pxWidth, fit.height);
    if (chosen) return { ...chosen, displayWidth: factor < 1 ? pxWidth : null };
  }
  // Too long to fit: the smallest readable index, and the page scrolls down.
  const scale = fit.width / width;
  const sizes = {
    index: Math.ceil(clamp(INDEX_MIN_PX / scale, INDEX_MIN, INDEX_MAX)),
    downStep: DOWN_STEPS[DOWN_STEPS.length - 1],
    countFont: Math.round(clamp(COUNT_PX / scale, 18, 44)),
  };
  return { ...arrange(spec, view, sizes), ...sizes, displayWidth: null };
}
