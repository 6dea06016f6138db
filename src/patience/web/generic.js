// Any game at a shared table that has no drawing of its own (docs/games.md): every pile of the
// seat's view laid out as the one-player table lays out a game it does not know (layout.js,
// board.js: face-down cards as backs), each seat's hand when the view has `hands` (your cards,
// the others' as backs), whose turn it is, the last move, and the seat's legal moves as buttons.
// Moves by click too: a face-up card, then the pile it goes to; a card of your hand when one
// legal move names it; a pile when one legal action names it (a stock to turn).

import { drawBoard } from "./board.js";
import { CARD_H, CARD_W, defs, drawCard, el } from "./cards.js";
import { h } from "./dom.js";
import { MARGIN } from "./layout.js";
import { actionLabel, moveText } from "./table.js";

const HAND_STEP = CARD_W + 12; // cards of a hand side by side
const BACK_STEP = 34; // another seat's hand: backs overlapping, only their number matters
const MAX_UNIT_PX = 1.1; // CSS pixels per card unit at most: cards about 110 px wide

/** The room for a board whose <svg> is in the page: its container's width, the window below. */
function boardRoom(svg) {
  const width = svg.parentElement?.getBoundingClientRect().width ?? 0;
  const top = svg.getBoundingClientRect().top + window.scrollY;
  return { width, height: Math.max(window.innerHeight - top - 8, 200) };
}

/**
 * The engine's reason for an outcome, the seats it names named as the page names them (by
 * their players; a number, from 1, only where there is no name): from the outcome's
 * `reason_template` and `reason_seats` (Outcome.naming), never by reading the text. A reason
 * given as text only is quoted as it is.
 */
export function reasonText(outcome, page) {
  const template = outcome.reason_template;
  const seats = outcome.reason_seats;
  if (typeof template !== "string" || !Array.isArray(seats)) return outcome.reason ?? "";
  return template.replace(/\{\{|\}\}|\{(\d+)\}/g, (whole, index) => {
    if (index === undefined) return whole[0]; // "{{" and "}}" are a brace
    const seat = seats[Number(index)];
    return Number.isInteger(seat) ? page.seatName(seat) : whole;
  });
}

/**
 * The end of a game in words, with the players' names: who won (or a draw), the engine's
 * reason (its seats named too), and the scores where the game keeps them.
 */
export function genericEnd(state, page) {
  const outcome = state.outcome;
  const said = reasonText(outcome, page);
  const reason = said ? `: ${said}` : "";
  const scores = outcome.scores ? ` (scores ${outcome.scores.join("-")})` : "";
  if (outcome.result === "won" && outcome.winner !== undefined && outcome.winner !== null) {
    return `${page.seatName(outcome.winner)} won${reason}${scores}.`;
  }
  const words = { draw: "A draw", lost: "Lost", won: "Won" }[outcome.result] ?? outcome.result;
  return `${words}${reason}${scores}.`;
}

// A hand as a row of cards: its cards when the view shows them, else `size` backs.
function drawHand(seat, hand, size, legal, page) {
  const shown = Array.isArray(hand);
  const cards = shown ? hand : Array.from({ length: size ?? 0 }, () => null);
  const step = shown ? HAND_STEP : BACK_STEP;
  const width = Math.max(CARD_W, (cards.length - 1) * step + CARD_W);
  const svg = el("svg", { class: "board mp-generic-hand", viewBox: `0 0 ${width} ${CARD_H}`,
    role: "group", "aria-label": `${page.seatName(seat)}'s hand` });
  svg.style.maxWidth = `${Math.round(width * MAX_UNIT_PX * 0.8)}px`;
  defs(svg);
  cards.forEach((card, i) => {
    const node = drawCard(card, i * step, 0);
    node.dataset.hand = String(seat);
    if (card) node.dataset.card = card;
    // A card of your hand that one legal move names plays it when clicked.
    const moves = card ? legal.filter((m) => m.card === card) : [];
    if (moves.length === 1) {
      node.classList.add("movable");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", `${node.getAttribute("aria-label")}: ${moveText(moves[0])}`);
      node.addEventListener("click", () => page.send(moves[0]));
    }
    svg.append(node);
  });
  return svg;
}

export function renderGeneric(container, state, page) {
  const view = state.view;
  const piles = view.piles ?? {};
  const legal = view.legal_moves ?? [];
  const me = page.seat;
  const over = state.outcome.result !== "ongoing";
  const cardMoves = legal.filter((m) => m.from !== undefined);
  const movable = new Set(cardMoves.map((m) => m.from));
  const select = page.selection && typeof page.selection === "object"
    && piles[page.selection.pile] ? page.selection : null;

  let help = null;
  if (!over && state.turn !== null && !state.waiting) {
    help = state.turn === me
      ? "Your turn: choose a move below, or click a card (then the pile it goes to)."
      : `${page.seatName(state.turn)} to play.`;
  }
  const buttons = legal.map((move) => {
    const [text, spoken] = actionLabel(move, state.game, view);
    const label = move.action !== undefined ? text : moveText(move);
    return h("button", { type: "button", "data-move": moveText(move), title: moveText(move),
      "aria-label": move.action !== undefined ? spoken : label, onclick: () => page.send(move) },
    label);
  });
  const last = state.last;
  const lastText = last
    ? `Last move: ${page.seatName(last.seat)}, ${moveText(last.move).replaceAll("=null", "=?")}.`
    : "";
  const svg = el("svg", { class: "board mp-generic", role: "group", "aria-label": "the table" });
  const hands = Array.isArray(view.hands) ? view.hands : [];
  const handBoxes = hands.map((hand, seat) => {
    const size = Array.isArray(hand) ? hand.length : view.hand_sizes?.[seat];
    const count = size === undefined ? "" : `: ${size} card${size === 1 ? "" : "s"}`;
    const turn = !over && state.turn === seat ? " ◀" : "";
    return h("div", { class: "mp-generic-hand-box", "data-hand": seat },
      h("p", { class: "mp-info" },
        seat === me ? `Your hand (${page.seatName(seat)})` : `${page.seatName(seat)}'s hand`,
        count, turn),
      drawHand(seat, hand, size, seat === me ? legal : [], page));
  });
  container.replaceChildren(
    h("div", { class: "mp-turn" },
      help ? h("p", { class: "help", "data-testid": "turn-help" }, help) : "",
      lastText ? h("p", { class: "mp-info", "data-testid": "last-move" }, lastText) : ""),
    h("div", { class: "actions", role: "group", "aria-label": "your legal moves" }, buttons),
    svg, ...handBoxes);

  const layout = drawBoard(svg, state.game, view, {
    selected: select, movable, fit: container.isConnected ? boardRoom(svg) : null,
  });
  // Each pile's name under it (as moves write it: a layout of a game it does not know has no
  // labels of its own), left of a squared pile's count; the board ends below the lowest.
  const font = layout.countFont;
  let bottom = 0;
  for (const [name, slot] of Object.entries(layout.slots)) {
    const below = slot.mode === "squared" ? slot.y + CARD_H : Math.max(slot.bottom, slot.y + CARD_H);
    const text = el("text", { class: "mp-pile-name", x: slot.x + 4, y: below + font + 2,
      "font-size": font, "aria-hidden": "true" }, svg);
    text.textContent = name;
    bottom = Math.max(bottom, below + font + 8);
  }
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${Math.max(bottom + MARGIN, CARD_H)}`);
  // A game of few piles would otherwise be drawn with cards as wide as the window allows.
  const widest = Math.round(layout.width * MAX_UNIT_PX);
  const shown = layout.displayWidth ? Math.min(layout.displayWidth, widest) : widest;
  svg.style.maxWidth = `${Math.floor(shown)}px`;

  const pileCount = (name) => piles[name].down.length + piles[name].up.length;
  svg.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-pile]") : null;
    if (!target) return;
    const name = target.dataset.pile;
    if (select && select.pile !== name) {
      const count = pileCount(select.pile) - select.index;
      const same = cardMoves.filter((m) => m.from === select.pile && m.to === name);
      const move = same.find((m) => (m.count ?? 1) === count) ?? (same.length === 1 ? same[0] : null);
      if (move) {
        page.send(move);
        return;
      }
      page.say(`${select.pile} to ${name} is not a legal move now.`, true);
    }
    const index = target.dataset.index === undefined ? null : Number(target.dataset.index);
    if (index !== null && target.dataset.card && movable.has(name)) {
      const again = select && select.pile === name && select.index === index;
      page.selection = again ? null : { pile: name, index };
      page.show(page.state);
      return;
    }
    // A pile that one legal action names (a stock to turn): clicking it makes that move.
    const named = legal.filter((m) => m.action !== undefined
      && (m.action === name || Object.values(m).includes(name)));
    if (named.length === 1) {
      page.send(named[0]);
      return;
    }
    if (select) {
      page.selection = null;
      page.show(page.state);
    }
  });
}
