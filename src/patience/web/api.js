// The game protocol over HTTP (docs/web.md). Every answer is JSON; a refused request throws an
// ApiError carrying the server's message and, for refused commands, the table's state.

export class ApiError extends Error {
  constructor(status, message, state, reason) {
    super(message);
    this.status = status;
    this.state = state ?? null;
    // What was refused, which cards and why, as data (docs/web.md, "Errors"), or null.
    this.reason = reason ?? null;
  }
}

// Requests that change something go out one at a time, in the order made. The first thing a
// new browser owns (a remembered setting, a table) gives it a stored session, whose cookie must
// be in the browser before the next such request leaves: sent together, each would start a
// session of its own, the browser would keep the last cookie to arrive, and a table made under
// the other session would not be the player's (a setting changed just before "Play" did that).
let writes = Promise.resolve();

/** Runs `send` (a function making one request) after every change requested before it has
 * been answered; its result, or its failure. */
export function inTurn(send) {
  const turn = writes.then(send, send);
  writes = turn.catch(() => {});
  return turn;
}

function request(method, url, body, contentType = "application/json") {
  const send = () => sendRequest(method, url, body, contentType);
  return method === "GET" ? send() : inTurn(send);
}

async function sendRequest(method, url, body, contentType) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = contentType;
    init.body = contentType === "application/json" ? JSON.stringify(body) : body;
  }
  const response = await fetch(url, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    throw new ApiError(response.status, `the server answered ${response.status}`);
  }
  if (!response.ok) {
    throw new ApiError(response.status, data?.error ?? `error ${response.status}`, data?.state,
      data?.reason);
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  player: () => request("GET", "/api/player"),
  setPlayer: (name) => request("POST", "/api/player", { name }),
  tables: (ongoing) => request("GET", `/api/tables${ongoing ? "?ongoing=1" : ""}`),
  // `grade` ("easy", "medium", "hard"; null for any) goes with winnable deals only.
  create: (game, options, deal, winnable = false, grade = null) =>
    request("POST", "/api/tables", { game, options, deal, ...(winnable ? { winnable } : {}),
      ...(winnable && grade ? { grade } : {}) }),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  command: (id, command, extra = {}) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}`, { command, ...extra }),
  autofinish: (id, events) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/autofinish`, { events }),
  newDeal: (id, deal, winnable = false, grade = null) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/new`,
      { deal: deal ?? null, ...(winnable ? { winnable } : {}),
        ...(winnable && grade ? { grade } : {}) }),
  hint: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/hint`),
  replay: (text) => request("POST", "/api/replay", text, "text/plain"),
  recordUrl: (id, format = "text") =>
    `/api/tables/${encodeURIComponent(id)}/record?format=${format}`,
  rules: (game) => request("GET", `/api/rules/${encodeURIComponent(game)}`),
  stats: (player) =>
    request("GET", `/api/stats${player ? `?player=${encodeURIComponent(player)}` : ""}`),
  // A claimed name (docs/web.md, "Sessions and names"): the browser's session reaches its
  // tables from any browser that logs in with the password.
  settings: (changes) => request("POST", "/api/player", changes),
  claim: (name, password) => request("POST", "/api/player/claim", { name, password }),
  login: (name, password) => request("POST", "/api/player/login", { name, password }),
  logout: () => request("POST", "/api/player/logout"),
};
