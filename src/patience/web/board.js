// Draws a view (the piles the server sends, face-down cards null) into an <svg>: the table page
// and the replay page share it. Every pile is a group labelled for screen readers ("pile 7:
// 6 cards, 3 face down, face up: 6 of spades, 5 of hearts"), and can take the keyboard's focus.

import { CARD_H, CARD_W, defs, drawCard, drawSlot, el, parseCard } from "./cards.js";
import { cardPositions, layoutTable, slotRight } from "./layout.js";

const PILE_WORDS = {
  stock: "stock", waste: "waste", reserve: "reserve", exiles: "exiles", hand: "hand",
};

/** A pile's name as a person says it: "t7" -> "pile 7", "f2" -> "foundation 2". */
export function pileName(name) {
  if (PILE_WORDS[name]) return PILE_WORDS[name];
  const match = name.match(/^([a-z]+)(\d+)$/);
  if (match && match[1] === "t") return `pile ${match[2]}`;
  if (match && match[1] === "f") return `foundation ${match[2]}`;
  return name;
}

function cardWords(card) {
  return parseCard(card)?.label ?? "face-down card";
}

/** The screen reader's label of a pile: its name, its count and the cards one can see. */
export function pileLabel(name, pile, mode) {
  const total = pile.down.length + pile.up.length;
  const parts = [`${pileName(name)}: ${total === 0 ? "empty" : `${total} card${total === 1 ? "" : "s"}`}`];
  if (total === 0) return parts[0];
  const downCount = pile.down.length;
  if (mode === "down" || mode === "right") {
    if (downCount) parts.push(`${downCount} face down`);
    if (pile.up.length) parts.push(`face up: ${pile.up.map(cardWords).join(", ")}`);
  } else {
    const top = pile.up.length ? pile.up[pile.up.length - 1] : null;
    parts.push(top ? `top: ${cardWords(top)}` : "face down");
  }
  return parts.join(", ");
}

/**
 * Draws `view` of `game` into `svg` and returns the layout ({width, height, slots}).
 * options: selected {pile, index} (those cards are raised), movable (a Set of piles cards may
 * leave), hint {from, to} (piles to highlight), cursor (the pile the keyboard is on), focusable
 * (piles take the focus: the table page), selectedLabel (extra words for the selected pile),
 * fit ({width, height} in CSS pixels: the room for the board, see layoutTable).
 */
export function drawBoard(svg, game, view, options = {}) {
  const layout = layoutTable(game, view, options.fit);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  // Narrower than its container when that is what lets a long table fit the window (CSSOM,
  // which the pages' Content-Security-Policy allows, unlike style attributes in markup).
  svg.style.maxWidth = layout.displayWidth ? `${Math.floor(layout.displayWidth)}px` : "";
  defs(svg);
  const { selected, movable, hint, cursor, focusable } = options;
  for (const [name, slot] of Object.entries(layout.slots)) {
    const pile = view.piles[name];
    let label = pileLabel(name, pile, slot.mode);
    if (selected?.pile === name) {
      const count = pile.down.length + pile.up.length - selected.index;
      label += `, ${count} card${count === 1 ? "" : "s"} picked up`;
    }
    if (hint && (hint.from === name || hint.to === name)) {
      label += hint.from === name ? ", hint: move from here" : ", hint: move here";
    }
    const group = el("g", { class: "pile", "data-pile": name, "aria-label": label,
      role: focusable ? "button" : "group", tabindex: focusable ? "0" : undefined }, svg);
    const right = slotRight(slot);
    const bottom = Math.max(slot.bottom ?? 0, slot.y + CARD_H);
    if (hint && (hint.from === name || hint.to === name)) {
      group.classList.add("hint");
      el("rect", { class: "hint-mark", x: slot.x - 6, y: slot.y - 6, width: right - slot.x + 12,
        height: bottom - slot.y + 12, rx: 12 }, group);
    }
    if (cursor === name) {
      group.classList.add("cursor");
      el("rect", { class: "cursor-mark", x: slot.x - 4, y: slot.y - 4, width: right - slot.x + 8,
        height: bottom - slot.y + 8, rx: 11 }, group);
    }
    const slotNode = drawSlot(slot.x, slot.y, slot.label);
    slotNode.dataset.pile = name;
    slotNode.setAttribute("aria-hidden", "true");
    group.appendChild(slotNode);
    for (const pos of cardPositions(slot, pile)) {
      const node = drawCard(pos.faceUp ? pos.card : null, pos.x, pos.y, layout.index);
      node.dataset.pile = name;
      node.dataset.index = String(pos.index);
      if (pos.faceUp && pos.card) {
        node.dataset.card = pos.card;
        if (movable?.has(name)) node.classList.add("movable");
      }
      if (selected && selected.pile === name && pos.index >= selected.index) {
        node.classList.add("selected");
      }
      group.appendChild(node);
      if (pos.stack) {
        // Face-down cards too many to fan readably: one stack, with their number on it.
        node.classList.add("stack");
        node.dataset.stack = String(pos.stack);
        const size = Math.min(layout.countFont, slot.stackStep - 6);
        const number = el("text", { class: "stack-count", x: CARD_W / 2, y: size + 2,
          "text-anchor": "middle", "font-size": size, "aria-hidden": "true" }, node);
        number.textContent = `${pos.stack}`;
      }
    }
    const total = pile.down.length + pile.up.length;
    if (slot.mode === "squared" && total > 1) {
      const badge = el("text", { class: "count", x: slot.x + CARD_W - 6,
        y: slot.y + CARD_H + layout.countFont + 2, "text-anchor": "end", "aria-hidden": "true",
        "font-size": layout.countFont }, group);
      badge.textContent = String(total);
    }
  }
  return layout;
}

/** The piles in reading order (top row first, left to right): the keyboard walks them so. */
export function pileOrder(layout) {
  return Object.entries(layout.slots)
    .sort(([, a], [, b]) => a.y - b.y || a.x - b.x)
    .map(([name]) => name);
}

/** The pile next to `name` in a direction ("left", "right", "up", "down"), or `name` itself. */
export function neighbour(layout, name, direction) {
  const order = pileOrder(layout);
  const here = layout.slots[name];
  if (!here) return order[0] ?? null;
  if (direction === "left" || direction === "right") {
    const i = order.indexOf(name);
    const step = direction === "right" ? 1 : -1;
    return order[(i + step + order.length) % order.length];
  }
  const rows = [...new Set(order.map((pile) => layout.slots[pile].y))].sort((a, b) => a - b);
  const row = rows.indexOf(here.y) + (direction === "down" ? 1 : -1);
  if (row < 0 || row >= rows.length) return name;
  const candidates = order.filter((pile) => layout.slots[pile].y === rows[row]);
  candidates.sort((a, b) => Math.abs(layout.slots[a].x - here.x)
    - Math.abs(layout.slots[b].x - here.x));
  return candidates[0] ?? name;
}
