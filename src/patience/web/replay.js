// The replay page (/replay): upload a record file (text or JSON form, docs/records.md); the
// server checks it and sends, for every step, the piles that changed in the view (face-down
// cards null, as at a table). The page steps through them: first, previous, next, last, a
// slider, the list of moves, and the arrow keys.

import { api } from "./api.js";
import { drawBoard } from "./board.js";
import { el } from "./cards.js";
import { h } from "./dom.js";

/** Each step's whole view, rebuilt from the changes the server sends. */
export function views(replay) {
  const out = [];
  let piles = {};
  for (const step of replay.steps) {
    piles = { ...piles, ...step.piles };
    out.push({ game: replay.game, options: replay.options, piles, outcome: step.outcome });
  }
  return out;
}

class Replay {
  constructor(root, replay) {
    this.root = root;
    this.replay = replay;
    this.views = views(replay);
    this.step = 0;
  }

  build() {
    const r = this.replay;
    const last = this.views.length - 1;
    const button = (label, onclick, key) => h("button", { type: "button", onclick,
      "aria-keyshortcuts": key, title: `${label} (${key})` }, label);
    this.first = button("First", () => this.go(0), "Home");
    this.previous = button("Previous", () => this.go(this.step - 1), "ArrowLeft");
    this.next = button("Next", () => this.go(this.step + 1), "ArrowRight");
    this.last = button("Last", () => this.go(last), "End");
    this.slider = h("input", { type: "range", min: 0, max: last, value: 0, step: 1,
      "aria-label": "step", oninput: () => this.go(Number(this.slider.value)) });
    this.caption = h("p", { class: "caption", "data-testid": "step", "aria-live": "polite" });
    this.svg = el("svg", { class: "board", role: "group", "aria-label": "the table" });
    this.moveButtons = r.steps.slice(1).map((step, i) => h("button", { type: "button",
      onclick: () => this.go(i + 1) }, step.move));
    const result = r.result === "ongoing" ? "unfinished"
      : `${r.result}${r.reason ? ` (${r.reason})` : ""}`;
    const players = r.players?.length ? ` · played by ${r.players.join(", ")}` : "";
    return h("section", { class: "replay" },
      h("h1", {}, `Replay: ${r.title}`),
      h("p", { class: "facts" }, `Deal ${r.deal ?? "from a position"} · ${r.options_text
        || "no options"} · ${last} moves · ${result}${players}`),
      h("div", { class: "replay-controls" }, this.first, this.previous, this.next, this.last,
        this.slider),
      this.caption,
      h("div", { class: "replay-body" }, this.svg,
        h("nav", { "aria-label": "the moves" }, h("ol", { class: "move-list" },
          this.moveButtons.map((node) => h("li", {}, node))))),
      h("p", { class: "help" }, "Keys: ← previous, → next, Home first, End last."));
  }

  go(step) {
    const last = this.views.length - 1;
    this.step = Math.max(0, Math.min(last, step));
    const view = this.views[this.step];
    drawBoard(this.svg, this.replay.game, view);
    this.slider.value = String(this.step);
    this.first.disabled = this.previous.disabled = this.step === 0;
    this.next.disabled = this.last.disabled = this.step === last;
    const move = this.replay.steps[this.step].move;
    const outcome = view.outcome.result !== "ongoing"
      ? ` · ${view.outcome.result}: ${view.outcome.reason}` : "";
    this.caption.textContent = this.step === 0 ? `The deal (step 0 of ${last})${outcome}`
      : `Move ${this.step} of ${last}: ${move}${outcome}`;
    this.moveButtons.forEach((node, i) => {
      if (i + 1 === this.step) {
        node.setAttribute("aria-current", "step");
        // Scroll the list alone (scrollIntoView would scroll the page too).
        const list = node.closest("ol");
        const top = node.offsetTop;
        if (top < list.scrollTop || top + node.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = top - list.clientHeight / 2;
        }
      } else {
        node.removeAttribute("aria-current");
      }
    });
  }

  onKey(event) {
    const target = event.target;
    if (target instanceof HTMLInputElement && target.type !== "range") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const steps = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0,
      End: this.views.length - 1 };
    if (event.key in steps && target !== this.slider) {
      event.preventDefault();
      this.go(steps[event.key]);
    }
  }
}

export async function replayPage(root) {
  const input = h("input", { type: "file", id: "record-file", name: "record",
    accept: ".rec,.txt,.json,text/plain,application/json" });
  const error = h("p", { class: "error", role: "alert", "data-testid": "replay-error" });
  const holder = h("div", { class: "replay-holder" });
  let current = null;
  const keys = (event) => current?.onKey(event);
  document.addEventListener("keydown", keys);
  const form = h("form", { class: "replay-upload", onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = "";
    const file = input.files?.[0];
    if (!file) {
      error.textContent = "Choose a record file first (.rec text or .json).";
      return;
    }
    try {
      const replay = await api.replay(await file.text());
      current = new Replay(root, replay);
      holder.replaceChildren(current.build());
      current.go(0);
    } catch (failure) {
      error.textContent = failure.message;
    }
  } }, h("label", { for: "record-file" }, "Record file "), input,
  h("button", { type: "submit" }, "Replay"));
  root.replaceChildren(h("section", {},
    h("p", {}, "Replay a game from its record (the text form, .rec, or the JSON form; the "
      + "Download record button of a table gives one). Only what a player saw is shown: "
      + "face-down cards stay face down."),
    form, error, holder));
}
