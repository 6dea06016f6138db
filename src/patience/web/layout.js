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
const RIGHT_STEP = 26;
const RIGHT_STEP_MAX = 58; // a waste fanned right has the empty column beside it
// Below this width (CSS pixels) games of many columns take a narrower layout.
const NARROW = 640;
// The sizes on screen (CSS pixels) aimed at: a corner index's rank, a squared pile's count.
const INDEX_PX = 24;
const INDEX_MIN_PX = 13; // never smaller: a phone scrolls down instead
const COUNT_PX = 13;
// A face-down step thinner than this on screen (CSS pixels) is a sliver nobody can count: the
// pile's face-down cards are then drawn as one squared stack with their number on it.
const SLIVER_PX = 6;
// A face-up card covered by the next one shows this much of itself when there is room (card
// units); long piles close up to the corner index's strip, never less.
const UP_STEP = 40;
// The room a table's design keeps below a fanned row for its fans (card units): the card size is
// chosen so that such a table fits the window, whatever the piles hold now.
const FAN_ROOM = 2 * CARD_H;

/**
 * Card positions for a pile: [{card, x, y, index, faceUp}] bottom to top (only the cards drawn).
 * A fanned slot carries its steps (downStep, upStep); a face-up card covered by the next one
 * keeps `upStep` units in view, enough for its corner index. A slot with `stacked` draws its
 * face-down cards as one back (the last of them), `stackStep` units above the first face-up
 * card, with their number written on it (board.js).
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
      if (slot.stacked && index < downCount) {
        if (index < downCount - 1) return; // squared under the last face-down card
        out.push({ card, x: slot.x, y, index, faceUp: false, stack: downCount });
        y += slot.stackStep;
        return;
      }
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

/**
 * The steps of a fanned pile that make it end above `limit` (card units from the board's top;
 * Infinity: no limit): the face-down step first closes up from DOWN_STEP to what `minDown`
 * allows, below that the face-down cards are stacked with their number, and then the face-up
 * step closes up from UP_STEP down to the corner index's strip (`strip`). A pile that does not
 * fit even so keeps the tightest steps, and the board grows.
 */
function fanSteps(slot, pile, limit, sizes) {
  const downs = pile.down.length;
  const ups = pile.up.length;
  const strip = indexStrip(sizes.index);
  const upStep = Math.max(strip, sizes.upStep);
  const covered = Math.max(0, ups - 1); // face-up cards with another one on them
  const room = limit - slot.y - CARD_H;
  const natural = Math.max(DOWN_STEP, sizes.minDown); // never a sliver when there is room
  const steps = { downStep: natural, upStep, stacked: false, stackStep: sizes.stackStep };
  if (downs * natural + covered * upStep <= room) return steps;
  // Face-down cards first: as thin as still readable, then stacked.
  const downRoom = room - covered * upStep;
  const downStep = downs ? Math.min(natural, downRoom / downs) : natural;
  if (downs && downStep >= sizes.minDown) return { ...steps, downStep };
  const stacked = downs > 1 && sizes.minDown * downs > sizes.stackStep;
  const downPart = stacked ? sizes.stackStep : downs * sizes.minDown;
  const next = { ...steps, downStep: sizes.minDown, stacked };
  if (!covered) return next;
  const up = clamp((room - downPart) / covered, strip, upStep);
  return { ...next, upStep: up };
}

/** The table with given sizes: {width, height, slots}. `limit`: the board's bottom to aim at. */
function arrange(spec, view, sizes, limit = Infinity) {
  const { index, countFont } = sizes;
  // Cards fanned right keep their corner index in view: the rank and the pip beside it.
  const rightStep = Math.min(RIGHT_STEP_MAX, Math.ceil(1.9 * index + 10));
  const rowNumbers = [...new Set(Object.values(spec.piles).map((slot) => slot.row))]
    .sort((a, b) => a - b);
  const lastRow = rowNumbers[rowNumbers.length - 1];
  // A row is as tall as its longest fanned pile; the next row starts below it.
  let y = MARGIN;
  const slots = {};
  for (const row of rowNumbers) {
    let bottom = y + CARD_H;
    for (const [name, slot] of Object.entries(spec.piles)) {
      if (slot.row !== row || !view.piles[name]) continue;
      let placed = { ...slot, x: MARGIN + slot.col * (CARD_W + GAP), y, rightStep,
        downStep: Math.max(DOWN_STEP, sizes.minDown),
        upStep: Math.max(indexStrip(index), sizes.upStep), stacked: false,
        stackStep: sizes.stackStep };
      if (slot.mode === "down") {
        // Only the last row closes up to the window's height (rows above it keep their room).
        const steps = fanSteps(placed, view.piles[name], row === lastRow ? limit : Infinity,
          sizes);
        placed = { ...placed, ...steps };
      }
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
 * The sizes of a table for a window: how wide the board is drawn (`displayWidth`, CSS pixels;
 * null: its container's width), so the card size, and the corner index, the counts and the
 * thinnest readable face-down step that go with it. They depend on the room (`fit`) and on the
 * game's grid (columns and rows), never on what the piles hold: the cards keep their size for
 * the whole game, and only the window's size changes it. The board is as wide as its container
 * unless a table of this grid, with room for its fans, would not fit the window's height; it is
 * then drawn narrower (down to 60%; a phone is never narrowed, it scrolls).
 */
export function tableSizing(spec, fit) {
  const width = MARGIN * 2 + spec.columns * CARD_W + (spec.columns - 1) * GAP;
  const rows = new Set(Object.values(spec.piles).map((slot) => slot.row));
  const fanned = new Set(Object.values(spec.piles).filter((slot) => slot.mode === "down")
    .map((slot) => slot.row));
  const design = MARGIN * 2 + rows.size * CARD_H + (rows.size - 1) * ROW_GAP
    + fanned.size * FAN_ROOM;
  const full = fit.width / width;
  const narrow = fit.width < NARROW;
  let scale = full;
  if (!narrow && fit.height > 0) scale = clamp(fit.height / design, 0.6 * full, full);
  const index = Math.round(clamp(INDEX_PX / scale, INDEX_MIN, INDEX_MAX));
  return {
    columns: spec.columns,
    scale,
    displayWidth: scale < full - 1e-9 ? width * scale : null,
    index: Math.max(index, Math.ceil(clamp(INDEX_MIN_PX / scale, INDEX_MIN, INDEX_MAX))),
    countFont: Math.round(clamp(COUNT_PX / scale, 18, 44)),
    minDown: SLIVER_PX / scale,
    stackStep: Math.round(clamp(COUNT_PX / scale, 18, 44)) + 12,
    upStep: UP_STEP,
  };
}

/**
 * The whole table: {width, height, slots: {pile: {x, y, mode, label, bottom, ...}}, index,
 * countFont, displayWidth, sizing}. `fit` ({width, height}: the CSS pixels the board may take,
 * its height being what the window shows below the board's top; `sizing`: the sizes chosen
 * before for this window and game, kept so that the cards never change size while a game goes
 * on) lets the layout suit the screen: fewer columns when narrow, the card size, the corner
 * index and the counts from the window's size and the game's grid (tableSizing), and the
 * fanned piles of the last row closing up (face-down cards first, down to a stack with their
 * number, then face-up ones down to their corner index's strip) to fit the window's height; a
 * table that does not fit even so makes the page scroll down.
 */
export function layoutTable(game, view, fit = null) {
  const narrow = Boolean(fit && fit.width > 0 && fit.width < NARROW);
  const spec = (LAYOUTS[game] ?? generic)(view, narrow);
  if (!fit || !(fit.width > 0)) {
    const sizes = { index: INDEX, countFont: 18, minDown: DOWN_STEP, stackStep: 30,
      upStep: indexStrip(INDEX) };
    return { ...arrange(spec, view, sizes), ...sizes, displayWidth: null, sizing: null };
  }
  const kept = fit.sizing;
  const sizing = kept && kept.columns === spec.columns ? kept : tableSizing(spec, fit);
  const limit = fit.height > 0 ? fit.height / sizing.scale - MARGIN : Infinity;
  const table = arrange(spec, view, sizing, limit);
  return { ...table, index: sizing.index, countFont: sizing.countFont,
    displayWidth: sizing.displayWidth, sizing };
}
