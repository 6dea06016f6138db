// The table's websocket (/ws/tables/ID, docs/web.md): the server sends the table's state when
// the socket opens and after every change, whoever made it; commands sent here are answered by
// the next state, or by an error for a refused one. A dropped connection is opened again, waiting
// longer after each failure; meanwhile the page sends its commands over HTTP.

import { ApiError } from "./api.js";

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 8000;
const ANSWER_TIMEOUT_MS = 8000;

export class LiveTable {
  /**
   * onState(state) gets every state the server sends that is not the answer to a request;
   * onStatus("live" | "connecting" | "offline" | "refused") says how the connection stands.
   */
  constructor(tableId, { onState, onStatus }) {
    this.tableId = tableId;
    this.onState = onState;
    this.onStatus = onStatus;
    this.socket = null;
    this.pending = null; // {resolve, reject, timer}: a command waiting for its answer
    this.retryMs = FIRST_RETRY_MS;
    this.retryTimer = null;
    this.closed = false;
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
    this.onStatus("connecting");
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retryMs = FIRST_RETRY_MS;
      this.onStatus("live");
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.fail(new ApiError(0, "the connection to the server was lost"));
      // 4xxx: the server refused this table (no such table, not your seat): no point retrying.
      if (event.code >= 4000 && event.code < 5000) {
        this.onStatus("refused");
        return;
      }
      this.retry();
    });
  }

  retry() {
    if (this.closed) return;
    this.onStatus("offline");
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "state") {
      const pending = this.pending;
      if (pending) {
        this.pending = null;
        clearTimeout(pending.timer);
        pending.resolve(message.state);
      } else {
        this.onState(message.state);
      }
    } else if (message.type === "error") {
      this.fail(new ApiError(message.status, message.error, message.state, message.reason));
    }
  }

  fail(error) {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    clearTimeout(pending.timer);
    pending.reject(error);
  }

  /** Sends a command ({command, move, events}); resolves with the state that answers it. */
  request(command) {
    if (!this.isOpen) return Promise.reject(new ApiError(0, "not connected"));
    this.fail(new ApiError(0, "a newer command was sent"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new ApiError(0, "the server did not answer")), ANSWER_TIMEOUT_MS);
      this.pending = { resolve, reject, timer };
      this.socket.send(JSON.stringify(command));
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.fail(new ApiError(0, "closed"));
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }
}
