// Double Solitaire at a shared table: both players' piles (stock, the turned card, waste and
// the seven tableau piles), the eight shared foundations, whose turn it is, passing and the
// "stop" call. Your own piles are at the bottom. Moves by click: a card, then the pile it goes
// to; double-click sends a card to a foundation; click your stock to turn a card.

import { CARD_H, CARD_W, INDEX, INDEX_MAX, INDEX_MIN, defs, drawCard, drawSlot, el, indexStrip }
  from "./cards.js";
import { h } from "./dom.js";
import { GAP, MARGIN, cardPositions } from "./layout.js";

const PREFIXES = ["a", "b"];
const DRAG_THRESHOLD = 6; // pixels a pointer moves before a press becomes a drag (as table.js)
const ACTION_LABELS = {
  stock: "Turn a card", recycle: "Turn the waste over", pass: "Pass",
  stop: "Stop!", "let-pass": "Let it pass",
};

// Who is to act and what about, said the same way on the board's rows and in the help line:
// during a stop offer (auto_stop=off) the opponent of the player whose turn it is decides.
function turnFacts(view, page) {
  const over = view.outcome && view.outcome.result !== "ongoing";
  const player = view.turn;
  const actor = view.stop_offered ? 1 - player : player;
  const name = (seat) => page.seatName(seat);
  const me = page.seat;
  let help = null;
  const rows = {};
  if (!over && view.stop_offered) {
    rows[player] = "left an ace unplayed";
    rows[actor] = "to decide: stop or let it pass";
    if (me === actor) {
      help = `${name(player)} left an ace unplayed: call "stop" (his turn ends) or let it pass.`;
    } else if (me === player) {
      help = `You left an ace unplayed: ${name(actor)} decides whether to call "stop".`;
    } else {
      help = `${name(player)} left an ace unplayed: ${name(actor)} decides whether to call "stop".`;
    }
  } else if (!over) {
    rows[player] = "to play";
    help = me === player
      ? "Your turn: click a card, then the pile it goes to (double-click: a foundation); " +
        "click your stock to turn a card."
      : `${name(player)} to play.`;
  }
  return { help, rows };
}

/**
 * The end of the game in words, with the players' names (the engine's reason numbers them):
 * who won and by how many of his own cards on the foundations, and why play stopped.
 */
export function doubleSolitaireEnd(state, page) {
  const outcome = state.outcome;
  const view = state.view;
  const scores = outcome.scores;
  const reason = outcome.reason ?? "";
  if (!scores || outcome.result === "ongoing") return reason || outcome.result;
  const name = (seat) => page.seatName(seat);
  const winner = outcome.winner;
  if (outcome.result === "won" && scores[winner] === 52) {
    return `${name(winner)} won by going out: all 52 of ${name(winner)}'s cards are on the ` +
      `foundations, to ${scores[1 - winner]} of ${name(1 - winner)}'s.`;
  }
  // Why play stopped: two passes in succession, or a player left without a legal move (the
  // engine names him "player N", N counted from 1).
  const stuck = reason.match(/player (\d+) has no legal move/);
  let why = "Play stopped.";
  if (view.consecutive_passes >= 2 || reason.includes("two passes")) {
    why = "Play stopped after two passes in succession.";
  } else if (stuck) {
    why = `Play stopped: ${name(Number(stuck[1]) - 1)} had no legal move.`;
  }
  if (outcome.result === "won") {
    return `${name(winner)} won, ${scores[winner]} of ${name(winner)}'s cards on the ` +
      `foundations to ${scores[1 - winner]} of ${name(1 - winner)}'s. ${why}`;
  }
  return `A draw: ${scores[0]} of ${name(0)}'s cards and ${scores[1]} of ${name(1)}'s on the ` +
    `foundations. ${why}`;
}

// -- the layout -------------------------------------------------------------------------------
// As one-player tables are laid out (layout.js): the board suits the room the page gives it
// (its width, and the window's height below its top). A wide screen has each player's ten piles
// in a row and the foundations between; a narrow one (a phone) eight columns: a player's stock,
// turned card and waste with his name beside them, his tableau below. The corner index and the
// steps of fanned piles shrink until the board fits the window's height; on a wide screen the
// board is then drawn narrower; never is a label, a count or an index below about 12-13 CSS px:
// a phone scrolls down instead.

const NARROW = 640; // CSS pixels: below, the eight-column layout
const INDEX_PX = 24; // the corner index aimed at, CSS pixels...
const INDEX_MIN_PX = 13.5; // ... and the least it may be (a jack's, set smaller, >= 12 px)
const TEXT_PX = 14; // row titles
const LABEL_PX = 12.5; // an empty pile's label, a count
const DOWN_STEPS = [14, 10, 7];
const WIDE_FACTORS = [1, 0.9, 0.8, 0.7, 0.6, 0.5];
const clamp = (value, low, high) => Math.max(low, Math.min(high, value));
const colX = (col) => MARGIN + col * (CARD_W + GAP);
const span = (cols) => cols * CARD_W + (cols - 1) * GAP;

let measurer = null;
/** The width of `text` at `size` units in the titles' font (a canvas measures it). */
function textWidth(text, size) {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer) return text.length * size * 0.6;
  measurer.font = `${size}px system-ui, sans-serif`;
  return measurer.measureText(text).width;
}

/**
 * `text` in lines no wider than `width` at `size` units: broken at spaces, and a word longer
 * than a line (a long name) wherever it must. The lines joined give back `text` exactly.
 */
export function wrapText(text, size, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(/(?<= )/)) {
    if (textWidth(line + word, size) <= width) {
      line += word;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    for (const char of word) {
      if (line && textWidth(line + char, size) > width) {
        lines.push(line);
        line = "";
      }
      line += char;
    }
  }
  if (line || !lines.length) lines.push(line);
  return lines;
}

// The bands of the board, top to bottom: each has piles ({name, col, mode, label}), maybe a
// title above it, maybe a text block beside its piles ({col, cols}).
function bands(narrow, rows, facts, page, counts) {
  const me = page.seat;
  const rowTitle = (seat) => {
    const doing = facts.rows[seat] ? ` — ${facts.rows[seat]}` : "";
    return `${page.seatName(seat)}${seat === me ? " (you)" : ""}${doing}`;
  };
  const heads = (seat, firstCol) => ["stock", "hand", "waste"].map((pile, i) => ({
    name: `${PREFIXES[seat]}${pile}`, col: firstCol + i, mode: "squared",
    label: pile === "hand" ? "turned" : pile }));
  const tableau = (seat, firstCol) => [1, 2, 3, 4, 5, 6, 7].map((n, i) => ({
    name: `${PREFIXES[seat]}${n}`, col: firstCol + i, mode: "down", label: "" }));
  const foundations = (firstCol) => [1, 2, 3, 4, 5, 6, 7, 8].map((n, i) => ({
    name: `f${n}`, col: firstCol + i, mode: "squared", label: `f${n}` }));
  // How many of each player's own cards are on the foundations (what counts at the end).
  const foundationsText = counts
    ? `foundations: ${page.seatName(0)} ${counts[0]}, ${page.seatName(1)} ${counts[1]}`
    : "foundations";
  if (narrow) {
    const out = [];
    const player = (seat) => {
      out.push({ piles: heads(seat, 0), beside: { col: 3, cols: 5, text: rowTitle(seat),
        cls: "mp-row-title", seat } });
      out.push({ piles: tableau(seat, 0) });
    };
    player(rows[0]);
    out.push({ title: foundationsText, piles: foundations(0) });
    player(rows[1]);
    return { columns: 8, bands: out };
  }
  const player = (seat) => ({ title: rowTitle(seat), seat,
    piles: [...heads(seat, 0), ...tableau(seat, 3)] });
  return { columns: 10, bands: [player(rows[0]),
    { piles: foundations(2), beside: { col: 0, cols: 2, text: foundationsText,
      cls: "mp-row-title" } },
    player(rows[1])] };
}

/** The board with given sizes: every pile's slot, the texts and their lines, the height. */
function arrange(spec, piles, sizes) {
  const { index, downStep, textFont, countFont } = sizes;
  const upStep = indexStrip(index);
  const width = MARGIN * 2 + span(spec.columns);
  const line = Math.round(textFont * 1.25);
  const slots = {};
  const texts = [];
  let y = MARGIN;
  for (const band of spec.bands) {
    if (band.title) {
      const lines = wrapText(band.title, textFont, width - 2 * MARGIN);
      texts.push({ x: MARGIN, y: y + textFont, lines, line, cls: "mp-row-title",
        seat: band.seat });
      y += lines.length * line + 6;
    }
    let bottom = y + CARD_H;
    for (const pile of band.piles) {
      const slot = { ...pile, x: colX(pile.col), y, downStep, upStep };
      const cards = cardPositions(slot, piles[pile.name]);
      const last = cards.length ? cards[cards.length - 1].y + CARD_H : y + CARD_H;
      slot.bottom = last + (pile.mode === "squared" ? countFont + 8 : 0);
      slots[pile.name] = slot;
      bottom = Math.max(bottom, slot.bottom);
    }
    if (band.beside) {
      const x = colX(band.beside.col);
      const lines = wrapText(band.beside.text, textFont, span(band.beside.cols));
      texts.push({ x, y: y + textFont, lines, line, cls: band.beside.cls, seat: band.beside.seat });
      bottom = Math.max(bottom, y + lines.length * line);
    }
    y = bottom + GAP;
  }
  return { width, height: y - GAP + MARGIN, slots, texts };
}

/** The sizes that fit the room ({width, height} CSS pixels), or the readable least. */
function layoutBoard(view, rows, facts, page, counts, fit) {
  const narrow = Boolean(fit && fit.width > 0 && fit.width < NARROW);
  const spec = bands(narrow, rows, facts, page, counts);
  const width = MARGIN * 2 + span(spec.columns);
  const sizesAt = (scale, index, downStep) => ({ index, downStep,
    textFont: Math.round(clamp(TEXT_PX / scale, 20, 48)),
    labelFont: Math.round(clamp(LABEL_PX / scale, 20, 40)),
    countFont: Math.round(clamp(LABEL_PX / scale, 18, 44)) });
  if (!fit || !(fit.width > 0)) {
    const sizes = sizesAt(1, INDEX, DOWN_STEPS[0]);
    return { ...arrange(spec, view.piles, sizes), ...sizes, displayWidth: null };
  }
  for (const factor of narrow ? [1] : WIDE_FACTORS) {
    const pxWidth = fit.width * factor;
    const scale = pxWidth / width;
    const largest = Math.round(clamp(INDEX_PX / scale, INDEX_MIN, INDEX_MAX));
    const smallest = Math.min(largest,
      Math.ceil(clamp(INDEX_MIN_PX / scale, INDEX_MIN, INDEX_MAX)));
    const budget = fit.height > 0 ? fit.height / scale : Infinity;
    for (let index = largest; index >= smallest; index -= 1) {
      for (const downStep of DOWN_STEPS) {
        const sizes = sizesAt(scale, index, downStep);
        const board = arrange(spec, view.piles, sizes);
        if (board.height <= budget) {
          return { ...board, ...sizes, displayWidth: factor < 1 ? pxWidth : null };
        }
      }
    }
  }
  // Too long to fit: the full width, the least readable sizes, and the page scrolls down.
  const scale = fit.width / width;
  const sizes = sizesAt(scale, Math.ceil(clamp(INDEX_MIN_PX / scale, INDEX_MIN, INDEX_MAX)),
    DOWN_STEPS[DOWN_STEPS.length - 1]);
  return { ...arrange(spec, view.piles, sizes), ...sizes, displayWidth: null };
}

/** The room for a board whose <svg> is in the page: its container's width, the window below. */
export function boardRoom(svg) {
  const width = svg.parentElement?.getBoundingClientRect().width ?? 0;
  const top = svg.getBoundingClientRect().top + window.scrollY;
  return { width, height: Math.max(window.innerHeight - top - 8, 200) };
}

// -- drawing ----------------------------------------------------------------------------------

export function renderDoubleSolitaire(container, state, page) {
  const view = state.view;
  const piles = view.piles;
  const legal = view.legal_moves ?? [];
  const me = page.seat;
  const bottom = me === 1 ? 1 : 0;
  const rows = [1 - bottom, bottom];
  const select = page.selection && typeof page.selection === "object" ? page.selection : null;
  const cardMoves = legal.filter((m) => m.from);
  const movableFrom = new Set(cardMoves.map((m) => m.from));
  const facts = turnFacts(view, page);
  const counts = view.owners
    ? [0, 1].map((seat) => Object.values(view.owners).flat().filter((o) => o === seat).length)
    : null;

  // The buttons and the help line first, so that the board's room (below them) is known.
  const buttons = legal.filter((m) => m.action).map((move) => h("button", { type: "button",
    "data-action": move.action, onclick: () => page.send(move) },
  ACTION_LABELS[move.action] ?? move.action));
  const passes = view.consecutive_passes
    ? ` (${view.consecutive_passes} pass${view.consecutive_passes === 1 ? "" : "es"} in ` +
      "succession.)" : "";
  const svg = el("svg", { class: "board mp-ds", role: "group", "aria-label": "the table" });
  container.replaceChildren(h("div", { class: "mp-turn" }, h("div", { class: "actions" }, buttons),
    facts.help ? h("p", { class: "help", "data-testid": "turn-help" }, facts.help) : "",
    passes ? h("p", { class: "mp-info" }, passes.trim()) : ""), svg);
  const layout = layoutBoard(view, rows, facts, page, counts,
    container.isConnected ? boardRoom(svg) : null);
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  // Narrower than its container when that lets the board fit the window (CSSOM, which the
  // pages' Content-Security-Policy allows, unlike style attributes in markup).
  svg.style.maxWidth = layout.displayWidth ? `${Math.floor(layout.displayWidth)}px` : "";
  svg.dataset.index = String(layout.index);
  defs(svg);

  for (const text of layout.texts) {
    const node = el("text", { x: text.x, y: text.y, class: text.cls,
      "font-size": layout.textFont, "data-seat": text.seat }, svg);
    text.lines.forEach((line, i) => {
      const part = el("tspan", { x: text.x, dy: i ? text.line : 0 }, node);
      part.textContent = line;
    });
  }

  function tryMove(target) {
    if (!select) return false;
    const exact = cardMoves.find((m) => m.from === select.pile && m.to === target
      && m.count === select.count);
    const same = cardMoves.filter((m) => m.from === select.pile && m.to === target);
    const move = exact ?? (same.length === 1 ? same[0] : null);
    if (move) page.send(move);
    else {
      page.selection = null;
      page.say(`${select.pile} to ${target} is not a legal move now.`, true);
      page.show(page.state);
    }
    return true;
  }

  function drawPile(name, slot) {
    const pile = piles[name];
    const g = el("g", { class: "pile", "data-pile": name }, svg);
    const empty = drawSlot(slot.x, slot.y, slot.label);
    empty.setAttribute("data-pile", name);
    // The slot's label at a readable size (cards.js draws it at 20 units).
    empty.querySelector("text")?.setAttribute("font-size", String(layout.labelFont));
    g.append(empty);
    empty.addEventListener("click", () => {
      if (tryMove(name)) return;
      if (name.endsWith("stock")) {
        const move = legal.find((m) => m.action === "stock" || m.action === "recycle");
        if (move) page.send(move);
      }
    });
    const total = pile.down.length + pile.up.length;
    for (const pos of cardPositions(slot, pile)) {
      const card = pos.faceUp ? pos.card : null;
      const c = drawCard(card, pos.x, pos.y, layout.index);
      c.setAttribute("data-pile", name);
      c.setAttribute("data-index", String(pos.index));
      if (card) c.setAttribute("data-card", card);
      const count = total - pos.index;
      if (card && movableFrom.has(name)) {
        c.classList.add("movable");
        if (select && select.pile === name && select.count === count) c.classList.add("selected");
      }
      if (card && movableFrom.has(name)) {
        c.addEventListener("pointerdown", (event) => pressed(event, name, pos.index, count));
      }
      c.addEventListener("click", (event) => {
        event.stopPropagation();
        if (dragged) {
          dragged = false;
          return;
        }
        if (select && select.pile !== name && tryMove(name)) return;
        if (!card && name.endsWith("stock")) {
          const move = legal.find((m) => m.action === "stock");
          if (move) page.send(move);
          return;
        }
        if (card && movableFrom.has(name)) {
          page.selection = select && select.pile === name && select.count === count
            ? null : { pile: name, count };
          page.show(page.state);
        }
      });
      c.addEventListener("dblclick", () => {
        const move = cardMoves.find((m) => m.from === name && m.to.startsWith("f") && m.count === 1);
        if (move) page.send(move);
      });
      g.append(c);
    }
    if (slot.mode === "squared" && total > 1) {
      const text = el("text", { x: slot.x + CARD_W / 2, y: slot.y + CARD_H + layout.countFont + 2,
        class: "count", "text-anchor": "middle", "font-size": layout.countFont }, svg);
      text.textContent = String(total);
    }
  }
  // -- dragging, as the one-player page does (table.js): a press on a movable card that moves
  // past a few pixels picks up the card and those on it; they follow the pointer, and where
  // they are let go the move is made if it is legal (else they go back).
  let press = null;
  let dragged = false; // the click that ends a drag is not a click on a card
  const svgPoint = (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  };
  const pileAt = (point) => Object.entries(layout.slots).find(([, slot]) =>
    point.x >= slot.x && point.x <= slot.x + CARD_W && point.y >= slot.y
    && point.y <= Math.max(slot.bottom ?? 0, slot.y + CARD_H))?.[0] ?? null;
  function pressed(event, pile, index, count) {
    if (event.button !== 0) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, pile, index, count,
      dragging: false };
  }
  svg.addEventListener("pointermove", (event) => {
    if (!press || press.id !== event.pointerId) return;
    if (!press.dragging) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD) return;
      press.dragging = true;
      page.dragging = true;
      press.origin = svgPoint(event);
      press.nodes = [...svg.querySelectorAll(`.card[data-pile="${press.pile}"]`)]
        .filter((node) => Number(node.dataset.index) >= press.index);
      press.starts = press.nodes.map((node) => node.getAttribute("transform") ?? "");
      const layer = el("g", { class: "dragging" }, svg);
      for (const node of press.nodes) layer.appendChild(node);
      svg.setPointerCapture?.(event.pointerId);
    }
    const point = svgPoint(event);
    const dx = point.x - press.origin.x;
    const dy = point.y - press.origin.y;
    press.nodes.forEach((node, i) => {
      node.setAttribute("transform", `translate(${dx} ${dy}) ${press.starts[i]}`);
    });
  });
  const release = (event, drop) => {
    const done = press;
    press = null;
    if (!done || done.id !== event.pointerId || !done.dragging) return;
    dragged = true;
    setTimeout(() => { dragged = false; }, 0); // a click follows at once, or never
    page.dragging = false;
    const target = drop ? pileAt(svgPoint(event)) : null;
    const moves = target && target !== done.pile
      ? cardMoves.filter((m) => m.from === done.pile && m.to === target) : [];
    const move = moves.find((m) => m.count === done.count) ?? (moves.length === 1 ? moves[0] : null);
    page.selection = null;
    if (move) {
      // The cards stay where they were let go until the table's new state draws them.
      page.send(move);
      if (page.redraw) page.show(page.state);
      return;
    }
    if (target && target !== done.pile) {
      page.say(`${done.pile} to ${target} is not a legal move now.`, true);
    }
    page.show(page.state); // the cards go back (or the table as it now stands)
  };
  svg.addEventListener("pointerup", (event) => release(event, true));
  svg.addEventListener("pointercancel", (event) => release(event, false));

  for (const [name, slot] of Object.entries(layout.slots)) drawPile(name, slot);
}
