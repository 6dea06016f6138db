// Playing cards drawn as SVG by our own code. A card is 100 x 140 units; the table's viewBox
// scales it, so the corner index (rank and suit, large) stays readable on a phone.

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

/** A card as an SVG group at (x, y): its face when `card` is a card's text, its back when null. */
export function drawCard(card, x, y) {
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
  g.classList.add("face", face.suit.red ? "red" : "black");
  g.setAttribute("aria-label", face.label);
  g.setAttribute("role", "img");
  el("rect", { class: "card-edge", width: CARD_W, height: CARD_H, rx: 8, fill: "#fffdf8" }, g);
  const font = { fill: colour, "font-family": "Georgia, 'DejaVu Serif', serif" };
  const corner = (transform) => {
    const c = el("g", transform ? { transform } : {}, g);
    const ten = face.rank.length > 1;
    text(c, ten ? 4 : 7, 31, face.rank, { ...font, "font-size": ten ? 26 : 30,
      "font-weight": "bold", "letter-spacing": ten ? -2 : undefined });
    text(c, 8, 58, face.suit.symbol, { ...font, "font-size": 26 });
    return c;
  };
  corner(null);
  corner(`rotate(180 ${CARD_W / 2} ${CARD_H / 2})`);
  if (["J", "Q", "K"].includes(face.rank)) {
    el("rect", { x: 33, y: 42, width: 34, height: 56, rx: 4, fill: "none", stroke: colour,
      "stroke-width": 2 }, g);
    text(g, 50, 82, face.rank, { ...font, "font-size": 30, "text-anchor": "middle",
      "font-weight": "bold" });
  } else {
    text(g, 50, 86, face.suit.symbol, { ...font, "font-size": 40, "text-anchor": "middle" });
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
