// Double Solitaire at a shared table: both players' piles (stock, the turned card, waste and
// the seven tableau piles), the eight shared foundations, whose turn it is, passing and the
// "stop" call. Your own piles are at the bottom. Moves by click: a card, then the pile it goes
// to; double-click sends a card to a foundation; click your stock to turn a card.

import { CARD_H, CARD_W, defs, drawCard, drawSlot, el } from "./cards.js";
import { h } from "./dom.js";

const GAP = 12;
const DOWN_STEP = 12;
const UP_STEP = 30;
const PREFIXES = ["a", "b"];
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

function pileHeight(pile) {
  const count = pile.down.length + pile.up.length;
  if (count === 0) return CARD_H;
  return CARD_H + pile.down.length * DOWN_STEP + Math.max(0, pile.up.length - 1) * UP_STEP;
}

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
  const width = 10 * (CARD_W + GAP) + GAP;
  const tableauHeight = (seat) => Math.max(...[1, 2, 3, 4, 5, 6, 7].map((n) =>
    pileHeight(piles[`${PREFIXES[seat]}${n}`])));
  const rowTop = [];
  let y = GAP + 26;
  rowTop.push(y);
  y += tableauHeight(rows[0]) + GAP + 26;
  const foundationTop = y;
  y += CARD_H + GAP + 26;
  rowTop.push(y);
  y += tableauHeight(rows[1]) + GAP;
  const svg = el("svg", { class: "board mp-ds", viewBox: `0 0 ${width} ${y}`, role: "group",
    "aria-label": "the table" });
  defs(svg);

  const title = (x, yy, text) => {
    const node = el("text", { x, y: yy, class: "mp-row-title" }, svg);
    node.textContent = text;
  };

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

  function drawPile(name, x, top, fan, label) {
    const pile = piles[name];
    const g = el("g", { class: "pile", "data-pile": name }, svg);
    const slot = drawSlot(x, top, label);
    slot.setAttribute("data-pile", name);
    g.append(slot);
    slot.addEventListener("click", () => {
      if (tryMove(name)) return;
      if (name.endsWith("stock")) {
        const move = legal.find((m) => m.action === "stock" || m.action === "recycle");
        if (move) page.send(move);
      }
    });
    const cards = [...pile.down.map(() => null), ...pile.up];
    const shown = fan ? cards : cards.slice(-1);
    let yy = top;
    shown.forEach((card, index) => {
      const c = drawCard(card, x, yy);
      c.setAttribute("data-pile", name);
      if (card) c.setAttribute("data-card", card);
      const upIndex = index - (fan ? pile.down.length : 0);
      const count = fan ? pile.up.length - upIndex : 1;
      if (card && movableFrom.has(name) && count >= 1) {
        c.classList.add("movable");
        if (select && select.pile === name && select.count === count) c.classList.add("selected");
      }
      c.addEventListener("click", (event) => {
        event.stopPropagation();
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
      yy += card ? UP_STEP : DOWN_STEP;
    });
    if (!fan && cards.length > 1) {
      const count = el("text", { x: x + CARD_W / 2, y: top + CARD_H + 18, class: "count",
        "text-anchor": "middle" }, svg);
      count.textContent = String(cards.length);
    }
  }

  const facts = turnFacts(view, page);
  rows.forEach((seat, row) => {
    const prefix = PREFIXES[seat];
    const top = rowTop[row];
    const doing = facts.rows[seat] ? ` — ${facts.rows[seat]}` : "";
    title(GAP, top - 8, `${page.seatName(seat)}${seat === me ? " (you)" : ""}${doing}`);
    drawPile(`${prefix}stock`, GAP, top, false, "stock");
    drawPile(`${prefix}hand`, GAP + (CARD_W + GAP), top, false, "turned");
    drawPile(`${prefix}waste`, GAP + 2 * (CARD_W + GAP), top, false, "waste");
    for (let n = 1; n <= 7; n += 1) {
      drawPile(`${prefix}${n}`, GAP + (n + 2) * (CARD_W + GAP), top, true, "");
    }
  });
  title(GAP, foundationTop - 8, "foundations");
  for (let n = 1; n <= 8; n += 1) {
    drawPile(`f${n}`, GAP + (n + 1) * (CARD_W + GAP), foundationTop, false, `f${n}`);
  }

  const buttons = legal.filter((m) => m.action).map((move) => h("button", { type: "button",
    "data-action": move.action, onclick: () => page.send(move) },
  ACTION_LABELS[move.action] ?? move.action));
  const notes = [];
  if (view.consecutive_passes) notes.push(`${view.consecutive_passes} pass(es) in succession.`);
  const counts = view.owners
    ? [0, 1].map((seat) => Object.values(view.owners).flat().filter((o) => o === seat).length)
    : null;
  if (counts) notes.push(`On the foundations: ${page.seatName(0)} ${counts[0]}, ` +
    `${page.seatName(1)} ${counts[1]}.`);
  container.replaceChildren(h("div", { class: "actions" }, buttons),
    facts.help ? h("p", { class: "help", "data-testid": "turn-help" }, facts.help) : "",
    h("p", { class: "mp-info" }, notes.join(" ")), svg);
}
