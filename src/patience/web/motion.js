// Motion on the table page: cards slide to where they go (moves, undo, automatic moves), come
// from the stock when it is turned or dealt, turn over when they come face up, are dealt from the
// stock at the start, go up one after the other in an automatic finish, and a won game ends in a
// cascade of cards.
//
// The board is always drawn at once as it now is; motion only decorates it (the FLIP technique:
// where every card is on screen is recorded before a render, and after it each card that moved
// has a copy slide from the old place to the new one, with the Web Animations API, while the
// card itself stays in place unseen). So no move waits for an animation: the cards can be
// clicked, dragged and played at once, and the next render cancels whatever still runs and
// starts from where the copies are then. With prefers-reduced-motion: reduce nothing moves.

import { CARD_H, CARD_W, drawCard, el } from "./cards.js";

const SLIDE_MS = 230;
const FLIP_MS = 240;
const DEAL_STAGGER_MS = 12; // between two cards of the deal
const CASCADE_STAGGER_MS = 60; // between two cards going up in an automatic move or finish
const CASCADE_MAX_MS = 1500; // the last card of a long cascade starts by then
const CELEBRATE_MS = 1300;
const CELEBRATE_STAGGER_MS = 90;
const RANKS = "A23456789TJQK";

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** False when the person asked for reduced motion (the system's setting, read each time). */
export function motionWanted() {
  return !reduced?.matches;
}

// The copy that stands in for a card while it moves (the card is hidden meanwhile).
const copies = new WeakMap();

const isFoundation = (pile) => /^f\d+$/.test(pile ?? "");
const rankOf = (card) => RANKS.indexOf(card?.[0]);

/** Every card on the board now: {node, card, pile, index, x, y} with x, y in the board's units. */
function cardsOn(svg, withCopies) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return [];
  const inverse = ctm.inverse();
  const out = [];
  for (const node of svg.querySelectorAll("g.pile .card")) {
    const copy = withCopies ? copies.get(node) : null;
    let at = translation(node);
    if (copy?.isConnected) {
      // A card in flight is where its copy is now.
      const rect = copy.getBoundingClientRect();
      const point = svg.createSVGPoint();
      point.x = rect.left;
      point.y = rect.top;
      at = point.matrixTransform(inverse);
    }
    out.push({ node, card: node.dataset.card ?? null, pile: node.dataset.pile,
      index: Number(node.dataset.index), x: at.x, y: at.y });
  }
  return out;
}

/** Stops every animation of the board and removes the copies (the board is as drawn). */
export function stopMotion(svg) {
  for (const animation of svg.getAnimations({ subtree: true })) animation.cancel();
  svg.querySelector(".motion-layer")?.remove();
}

/**
 * Before the board is drawn again: where each card is now (a moving card where its copy is),
 * and the stock's place. Stops the running animations. Null when there is to be no motion.
 */
export function snapshot(svg) {
  if (!motionWanted() || !svg.isConnected) {
    stopMotion(svg);
    return null;
  }
  const cards = cardsOn(svg, true);
  stopMotion(svg);
  const stock = svg.querySelector('g.pile[data-pile="stock"] .slot');
  return { cards, stockAt: stock ? translation(stock) : null };
}

/** The (x, y) of an element drawn with transform="translate(x y)". */
function translation(node) {
  const match = /translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/.exec(node.getAttribute("transform") ?? "");
  return match ? { x: Number(match[1]), y: Number(match[2]) } : { x: 0, y: 0 };
}

function layer(svg) {
  let group = svg.querySelector(".motion-layer");
  if (!group) group = el("g", { class: "motion-layer", "aria-hidden": "true" }, svg);
  else svg.appendChild(group); // always drawn last: moving cards pass over the piles
  return group;
}

/** A copy of a card node for the motion layer: no ids, labels or data of the real card. */
function copyOf(node) {
  const copy = node.cloneNode(true);
  for (const name of [...copy.getAttributeNames()]) {
    if (name.startsWith("data-") || ["role", "aria-label", "tabindex"].includes(name)) {
      copy.removeAttribute(name);
    }
  }
  copy.setAttribute("class", `ghost ${node.classList.contains("back") ? "back" : "face"}`);
  return copy;
}

const move = (x, y, flip = 1) => (flip === 1 ? `translate(${x}px, ${y}px)`
  : `translate(${x}px, ${y}px) translate(${CARD_W / 2}px, 0) scaleX(${flip}) `
    + `translate(${-CARD_W / 2}px, 0)`);

/**
 * A card's copy goes from `from` to where the card is (`to`), turning over on the way when
 * `flip`; the card itself is hidden until the copy arrives. `delay` in milliseconds.
 */
function fly(svg, node, from, to, { flip = false, delay = 0, duration = SLIDE_MS } = {}) {
  const copy = copyOf(node);
  layer(svg).appendChild(copy);
  copies.set(node, copy);
  const frames = flip
    ? [{ transform: move(from.x, from.y, 0.02) },
      { transform: move((from.x + to.x) / 2, (from.y + to.y) / 2, 0.6), offset: 0.5 },
      { transform: move(to.x, to.y) }]
    : [{ transform: move(from.x, from.y) }, { transform: move(to.x, to.y) }];
  const animation = copy.animate(frames, { duration, delay, easing: "ease-out",
    fill: "backwards" });
  const hidden = node.animate([{ opacity: 0 }, { opacity: 0 }], { duration: delay + duration });
  const done = () => copy.remove();
  animation.onfinish = done;
  animation.oncancel = done;
  hidden.oncancel = () => animation.cancel();
  return animation;
}

/**
 * A card that left the board (under a foundation's top, back into the stock): a copy flies.
 * With `keep` the copy stays where it lands (the caller removes it): a cascade's cards pile up
 * on their foundation until the last one is there.
 */
function flyAway(svg, card, from, to, index, delay, flip, keep = false) {
  const copy = drawCard(flip ? null : card, 0, 0, index);
  copy.setAttribute("class", `ghost ${flip ? "back" : "face"}`);
  layer(svg).appendChild(copy);
  const animation = copy.animate(
    [{ transform: move(from.x, from.y) }, { transform: move(to.x, to.y) }],
    { duration: SLIDE_MS, delay, easing: "ease-in-out", fill: keep ? "both" : "backwards" });
  if (!keep) animation.onfinish = () => copy.remove();
  animation.oncancel = () => copy.remove();
  return animation;
}

/**
 * After the board is drawn again: the cards that moved since `before` (snapshot) slide there.
 * options: deal (a new deal: every card comes from the stock, one after the other), stock (how
 * many cards the stock gained: below 0 when it was turned or dealt, above 0 when the waste went
 * back into it), index (the corner index's size, for cards drawn anew).
 */
export function animateChanges(svg, before, options = {}) {
  if (!before || !motionWanted()) return;
  const after = cardsOn(svg, false);
  const origin = svg.querySelector('g.pile[data-pile="stock"] .slot');
  const stockAt = origin ? translation(origin) : { x: 12, y: 12 };
  if (options.deal) {
    after.filter((card) => card.pile !== "stock").forEach((card, i) => {
      fly(svg, card.node, stockAt, card, { flip: card.card !== null, delay: i * DEAL_STAGGER_MS,
        duration: SLIDE_MS });
    });
    return;
  }
  const oldCards = before.cards;
  const used = new Set();
  const place = (c) => `${c.pile}#${c.index}`;
  const oldAt = new Map(oldCards.map((c) => [place(c), c]));
  // The same card (by its face) before and after: exact places first (a pack of two decks has
  // two of each card), then any other.
  const match = new Map();
  const byFace = new Map();
  oldCards.forEach((c, i) => {
    if (c.card === null) return;
    if (!byFace.has(c.card)) byFace.set(c.card, []);
    byFace.get(c.card).push(i);
  });
  for (const card of after) {
    if (card.card === null) continue;
    const i = (byFace.get(card.card) ?? []).find((j) => !used.has(j)
      && place(oldCards[j]) === place(card));
    if (i !== undefined) {
      used.add(i);
      match.set(card, oldCards[i]);
    }
  }
  for (const card of after) {
    if (card.card === null || match.has(card)) continue;
    const candidates = (byFace.get(card.card) ?? []).filter((j) => !used.has(j));
    const i = candidates.find((j) => oldCards[j].pile === card.pile) ?? candidates[0];
    if (i !== undefined) {
      used.add(i);
      match.set(card, oldCards[i]);
    }
  }
  const stockOld = before.stockAt ?? stockAt;
  const climbing = []; // cards that went up to a foundation, for a cascade
  for (const card of after) {
    const was = match.get(card);
    if (was) {
      if (Math.hypot(was.x - card.x, was.y - card.y) < 0.5) continue;
      if (isFoundation(card.pile) && !isFoundation(was.pile)) climbing.push([card, was]);
      else fly(svg, card.node, was, card);
      continue;
    }
    const there = oldAt.get(place(card));
    if (there && (there.card === null) !== (card.card === null)) {
      // Turned over where it lies (a card uncovered, or turned back by an undo).
      fly(svg, card.node, there, card, { flip: true, duration: FLIP_MS });
    } else if (card.card !== null && card.pile !== "stock" && (options.stock ?? 0) < 0) {
      // A card that nobody saw before comes from the stock (turned, or dealt onto a pile).
      fly(svg, card.node, stockOld, card, { flip: true });
    }
  }
  // Cards that left the board: under a foundation's new top card, or back into the stock. (A
  // card now covered in a squared pile leaves the board too, and stays where it was.)
  const oldTop = new Map(oldCards.filter((c) => isFoundation(c.pile)).map((c) => [c.pile, c]));
  const tops = after.filter((c) => isFoundation(c.pile) && c.card !== null
    && oldTop.get(c.pile)?.index !== c.index);
  const stockNow = after.find((c) => c.pile === "stock");
  oldCards.forEach((old, i) => {
    if (used.has(i) || old.card === null) return;
    const top = tops.find((c) => c.card[1] === old.card[1] && rankOf(c.card) >= rankOf(old.card));
    if (top && !isFoundation(old.pile)) {
      climbing.push([{ ...top, card: old.card, node: null }, old]);
    } else if (stockNow && old.pile === "waste" && (options.stock ?? 0) > 0) {
      flyAway(svg, old.card, old, stockNow, options.index, 0, true);
    }
  });
  // Cards going up one after the other, lowest rank first (an automatic finish's cascade).
  climbing.sort(([a], [b]) => rankOf(a.card) - rankOf(b.card));
  const step = climbing.length > 1
    ? Math.min(CASCADE_STAGGER_MS, CASCADE_MAX_MS / climbing.length) : 0;
  const kept = [];
  const flights = climbing.map(([card, was], i) => {
    if (card.node) return fly(svg, card.node, was, card, { delay: i * step });
    const animation = flyAway(svg, card.card, was, card, options.index, i * step, false, true);
    kept.push(animation.effect.target);
    return animation;
  });
  if (kept.length) {
    // The cards that went under a foundation's top stay on it until the cascade is over.
    const clear = () => kept.forEach((copy) => copy.remove());
    Promise.all(flights.map((flight) => flight.finished)).then(clear, clear);
  }
}

/** A won game: cards leap from the foundations and fall across the table, a few of each suit. */
export function celebrate(svg, index) {
  if (!motionWanted()) return;
  // After the cards still going up (an automatic finish's cascade) are there.
  const start = Math.max(0, ...svg.getAnimations({ subtree: true })
    .map((animation) => animation.effect?.getComputedTiming().endTime ?? 0));
  const box = svg.viewBox.baseVal;
  const tops = cardsOn(svg, false).filter((c) => isFoundation(c.pile) && c.card !== null);
  let n = 0;
  tops.forEach((top, t) => {
    const rank = rankOf(top.card);
    for (let k = 0; k < 5 && rank - k >= 0; k += 1) {
      const card = `${RANKS[rank - k]}${top.card[1]}`;
      const copy = drawCard(card, 0, 0, index);
      copy.setAttribute("class", "ghost face celebration");
      layer(svg).appendChild(copy);
      // Spread over the table's width, falling to its bottom edge with a bounce.
      const side = ((t * 5 + k) * 0.37) % 1;
      const endX = Math.max(0, Math.min(box.width - CARD_W, side * (box.width - CARD_W)));
      const endY = Math.max(top.y, box.height - CARD_H - 8);
      const midX = (top.x + endX) / 2;
      const frames = [
        // Unseen until its turn (the cascade before it ends on the same foundations).
        { transform: move(top.x, top.y), opacity: 0 },
        { transform: move(top.x, top.y), opacity: 1, offset: 0.02 },
        { transform: `${move(midX, Math.max(0, top.y - 60))} rotate(${k % 2 ? 12 : -12}deg)`,
          offset: 0.3 },
        { transform: `${move(endX, endY)} rotate(${k % 2 ? 25 : -25}deg)`, offset: 0.8,
          opacity: 1 },
        { transform: `${move(endX, endY - 30)} rotate(${k % 2 ? 30 : -30}deg)`, opacity: 0 },
      ];
      const animation = copy.animate(frames, { duration: CELEBRATE_MS,
        delay: start + n * CELEBRATE_STAGGER_MS, easing: "ease-in", fill: "backwards" });
      animation.onfinish = () => copy.remove();
      animation.oncancel = () => copy.remove();
      n += 1;
    }
  });
}
