// A small picture of each game's layout for the start page's tiles, drawn here as SVG (no
// image files): card backs, face-up cards with a suit sign, and empty places, as the game
// lays them out at the start. A game without a picture of its own gets a generic one.

const NS = "http://www.w3.org/2000/svg";
const W = 10; // a card's width in the picture's units
const H = 14; // and its height
const STEP = 12; // from one column to the next

function node(tag, attrs) {
  const element = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, String(value));
  return element;
}

// The suits in turn, so that a picture shows both colours.
const SUITS = [["♠", "black"], ["♥", "red"], ["♣", "black"], ["♦", "red"]];

// One pile: `down` backs then `up` face-up cards, each `gap` below the last (0: squared);
// `slot`: an empty place (a foundation, a space).
function pile(column, row, { down = 0, up = 0, gap = 2.4, slot = false } = {}, seed = 0) {
  const x = column * STEP + 1;
  const parts = [];
  if (slot || down + up === 0) {
    parts.push(node("rect", { x, y: row, width: W, height: H, rx: 1.2, class: "pic-slot" }));
  }
  for (let index = 0; index < down + up; index += 1) {
    const y = row + index * gap;
    const faceUp = index >= down;
    parts.push(node("rect", { x, y, width: W, height: H, rx: 1.2,
      class: faceUp ? "pic-face" : "pic-back" }));
    if (faceUp) {
      const [sign, colour] = SUITS[(seed + index + column) % SUITS.length];
      const text = node("text", { x: x + W / 2, y: y + (index === down + up - 1 ? 9.5 : 3.6),
        "text-anchor": "middle", class: `pic-suit ${colour}`,
        "font-size": index === down + up - 1 ? 7 : 3.4 });
      text.textContent = sign;
      parts.push(text);
    }
  }
  return parts;
}

// Each picture: its columns wide and rows tall (in card steps), and its piles.
const PICTURES = {
  klondike: () => [8, 46, [
    ...pile(0, 1, { down: 5, gap: 0.4 }), ...pile(1, 1, { up: 1 }),
    ...[3, 4, 5, 6].flatMap((c) => pile(c, 1, { slot: true })),
    ...[0, 1, 2, 3, 4, 5, 6].flatMap((c) => pile(c, 18, { down: c, up: 1 })),
  ]],
  spider: () => [10, 46, [
    ...pile(0, 1, { down: 5, gap: 0.4 }),
    ...[2, 3, 4, 5, 6, 7, 8, 9].flatMap((c) => pile(c, 1, { slot: true })),
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((c) => pile(c, 18, { down: c < 4 ? 5 : 4, up: 1,
      gap: 2 })),
  ]],
  canfield: () => [7, 40, [
    ...pile(0, 1, { down: 5, gap: 0.4 }), ...pile(1, 1, { up: 1 }),
    ...pile(3, 1, { up: 1 }, 1), ...[4, 5, 6].flatMap((c) => pile(c, 1, { slot: true })),
    ...pile(0, 18, { down: 6, up: 1, gap: 0.5 }),
    ...[3, 4, 5, 6].flatMap((c) => pile(c, 18, { up: 1 })),
  ]],
  accordion: () => [8, 48, [
    ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((c) => pile(c, 1, { up: 1 }, 2)),
    ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((c) => pile(c, 17, { up: 1 }, 1)),
    ...pile(0, 33, { up: 1 }, 3), ...pile(1, 33, { up: 1 }),
    ...pile(7, 33, { down: 5, gap: 0.4 }),
  ]],
  napoleon: () => [10, 44, [
    ...pile(0, 1, { down: 5, gap: 0.4 }), ...pile(1, 1, { slot: true }),
    ...[2, 3, 4, 5, 6, 7, 8, 9].flatMap((c) => pile(c, 1, { slot: true })),
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((c) => pile(c, 18, { up: 4, gap: 3.6 })),
  ]],
  "leonis-own": () => [8, 52, [
    ...[0, 1, 2, 3].flatMap((c) => pile(c, 1, { slot: true })),
    ...[4, 5, 6, 7].flatMap((c) => pile(c, 1, { slot: true })),
    ...[0, 1, 2, 3, 4, 5].flatMap((c) => pile(c, 18, { down: 3, up: 1, gap: 0.4 }, c)),
    ...[0, 1, 2, 3, 4, 5].flatMap((c) => pile(c, 35, { down: 3, up: 1, gap: 0.4 }, c + 1)),
    ...pile(7, 18, { up: 5, gap: 3 }),
  ]],
};

function generic() {
  return [6, 40, [
    ...pile(0, 1, { down: 5, gap: 0.4 }),
    ...[2, 3, 4, 5].flatMap((c) => pile(c, 1, { slot: true })),
    ...[0, 1, 2, 3, 4, 5].flatMap((c) => pile(c, 18, { down: c % 3, up: 1 })),
  ]];
}

/** The picture of game `name`'s layout at the start, as an SVG element (decorative: the tile
 * names the game in words). */
export function layoutPicture(name) {
  const [columns, height, parts] = (PICTURES[name] ?? generic)();
  const svg = node("svg", { viewBox: `0 0 ${columns * STEP + 1} ${height + 1}`,
    class: "layout-picture", "aria-hidden": "true", focusable: "false" });
  svg.append(...parts);
  return svg;
}
