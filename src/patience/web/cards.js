// Playing cards drawn as SVG by our own code. A card is 100 x 140 units; the table's viewBox
// scales it, and the layout chooses the size of the corner index (rank and suit side by side)
// so that it stays readable on a phone and shows on every covered card of a fanned pile.

export const CARD_W = 100;
export const CARD_H = 140;
const SVG = "http://www.w3.org/2000/svg";

const SUITS = {
  c: { symbol: "♣", name: "clubs", red: false },
  d: { symbol: "♦", name: "diamonds", red: true },
  h: { symbol: "♥", name: "hearts", red: true },
  s: { symbol: "♠", name: "spades", red: false },
};
const RANKS = {
  A: ["A", "ace"], 2: ["2", "2"], 3: ["3", "3"], 4: ["4", "4"], 5: ["5", "5"],
  6: ["6", "6"], 7: ["7", "7"], 8: ["8", "8"], 9: ["9", "9"], T: ["10", "10"],
  J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"],
};

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attrs) {
  const node = el("text", { x, y, ...attrs }, parent);
  node.textContent = content;
  return node;
}

/** "Th" -> {rank: "10", suit: {...}, label: "10 of hearts"}; null for text that is no card. */
export function parseCard(card) {
  if (typeof card !== "string" || card.length !== 2) return null;
  const rank = RANKS[card[0].toUpperCase()];
  const suit = SUITS[card[1].toLowerCase()];
  if (!rank || !suit) return null;
  return { rank: rank[0], suit, label: `${rank[1]} of ${suit.name}` };
}

/** Shared definitions (the back's pattern); put once in each table's <svg>. */
export function defs(svg) {
  const d = el("defs", {}, svg);
  const pattern = el("pattern", {
    id: "card-back", width: 12, height: 12, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)",
  }, d);
  el("rect", { width: 12, height: 12, fill: "#1e4f91" }, pattern);
  el("rect", { width: 6, height: 12, fill: "#2a64b0" }, pattern);
  return d;
}

// Suit pips as paths in a 100 x 100 box (ink from about 4 to 96 each way): drawn by our own
// code rather than taken from a font, so they look the same everywhere (no emoji hearts) and
// their geometry is exact (the layout relies on it to keep a covered card's suit in view).
const PIPS = {
  h: "M50 94C44 84 6 62 6 33C6 15 19 5 33 5C42 5 47 11 50 18C53 11 58 5 67 5C81 5 94 15 94 33"
    + "C94 62 56 84 50 94Z",
  d: "M50 4C59 22 72 37 88 50C72 63 59 78 50 96C41 78 28 63 12 50C28 37 41 22 50 4Z",
  s: "M50 4C57 21 93 38 93 63C93 78 82 86 70 86C61 86 55 82 53 76C54 86 58 92 68 96H32"
    + "C42 92 46 86 47 76C45 82 39 86 30 86C18 86 7 78 7 63C7 38 43 21 50 4Z",
  c: "M50 6A20 20 0 1 1 49.9 6ZM27 40A20 20 0 1 1 26.9 40ZM73 40A20 20 0 1 1 72.9 40Z"
    + "M42 46H58L55 62H45ZM46 58C46 76 42 88 32 96H68C58 88 54 76 54 58Z",
};

/** The default size (in card units) of a corner index's rank: the layout may choose another. */
export const INDEX = 30;
/** The smallest and largest corner index the layout may choose. */
export const INDEX_MIN = 18;
export const INDEX_MAX = 40;

/** Where a corner index of rank size `size` has its baseline (card units from the top). */
function baseline(size) {
  return Math.round(3 + 0.74 * size);
}

/**
 * How much of a card's top must stay in view for its corner index (rank and suit, side by side)
 * to show whole: the smallest step of a fanned pile for that index size.
 */
export function indexStrip(size = INDEX) {
  return baseline(size) + 3;
}

/** A suit pip of `size` units with its top left corner at (x, y). */
export function drawPip(suit, x, y, size, colour, parent, cls) {
  const scale = size / 100;
  return el("path", { d: PIPS[suit], fill: colour, class: cls,
    transform: `translate(${x} ${y}) scale(${scale})` }, parent);
}

/**
 * A card as an SVG group at (x, y): its face when `card` is a card's text, its back when null.
 * `index` is the size of the rank in the corners: the rank and its suit stand side by side in
 * the top `indexStrip(index)` units, the part of a card a fanned pile leaves in view.
 */
export function drawCard(card, x, y, index = INDEX) {
  const g = el("g", { class: "card", transform: `translate(${x} ${y})` });
  const face = parseCard(card);
  if (!face) {
    g.classList.add("back");
    g.setAttribute("aria-label", "face-down card");
    el("rect", { class: "card-edge", width: CARD_W, height: CARD_H, rx: 8, fill: "#fff" }, g);
    el("rect", {
      x: 6, y: 6, width: CARD_W - 12, height: CARD_H - 12, rx: 5, fill: "url(#card-back)",
    }, g);
    return g;
  }
  const colour = face.suit.red ? "#c0262d" : "#1b1b1b";
  const suit = card[1].toLowerCase();
  g.classList.add("face", face.suit.red ? "red" : "black");
  g.setAttribute("aria-label", face.label);
  g.setAttribute("role", "img");
  el("rect", { class: "card-edge", width: CARD_W, height: CARD_H, rx: 8, fill: "#fffdf8" }, g);
  const font = { fill: colour, "font-family": "Georgia, 'DejaVu Serif', serif" };
  const size = Math.max(INDEX_MIN, Math.min(INDEX_MAX, index));
  const base = baseline(size);
  const ten = face.rank.length > 1;
  // Rough widths of the bold rank (a narrow J, a squeezed 10), so that the pip follows it.
  const rankWidth = size * (ten ? 1.12 : face.rank === "J" ? 0.5 : 0.74);
  const pip = Math.round(size * 0.74);
  const corner = (transform, cls) => {
    const c = el("g", transform ? { transform, class: cls } : { class: cls }, g);
    // A serif J hangs below the baseline, where the next card of a fanned pile would cut it:
    // it is set a little smaller and higher.
    const jack = face.rank === "J";
    text(c, 5, jack ? base - Math.round(0.1 * size) : base, face.rank, { ...font,
      class: "index-rank", "font-size": jack ? Math.round(0.92 * size) : size,
      "font-weight": "bold", "letter-spacing": ten ? -0.1 * size : undefined });
    drawPip(suit, 5 + rankWidth + 2, base - pip, pip, colour, c, "index-suit");
    return c;
  };
  corner(null, "index");
  corner(`rotate(180 ${CARD_W / 2} ${CARD_H / 2})`, "index index-bottom");
  const middle = CARD_H / 2;
  if (["J", "Q", "K"].includes(face.rank)) {
    const top = base + 8;
    el("rect", { x: 30, y: top, width: 40, height: CARD_H - 2 * top, rx: 4, fill: "none",
      stroke: colour, "stroke-width": 2 }, g);
    text(g, 50, middle + 10, face.rank, { ...font, "font-size": 30, "text-anchor": "middle",
      "font-weight": "bold" });
  } else {
    const big = Math.min(44, CARD_H - 2 * (base + 8));
    drawPip(suit, 50 - big / 2, middle - big / 2, big, colour, g, "pip");
  }
  return g;
}

/** An empty place for a pile: a rounded outline with a short label. */
export function drawSlot(x, y, label) {
  const g = el("g", { class: "slot", transform: `translate(${x} ${y})` });
  el("rect", { width: CARD_W, height: CARD_H, rx: 8 }, g);
  if (label) text(g, CARD_W / 2, CARD_H / 2 + 7, label, { "text-anchor": "middle",
    "font-size": 20 });
  return g;
}
