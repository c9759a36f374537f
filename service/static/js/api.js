// The API client: the only way the pages talk to the server (docs/API.md); a seat's
// moves go over its move socket (move_socket.js) when it can carry them.
import { LANG, t as _ } from "./i18n.js";
import { sendOverSocket } from "./move_socket.js";

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || _("Request failed (HTTP {status})", { status }));
    this.status = status;
    this.code = err.code || `http_${status}`;
    this.details = err.details || {};
  }
}

/** Call /api<path>. `token` becomes a Bearer header; `body` is sent as JSON unless `raw`. */
export async function api(path, { method = "GET", body, token, raw, contentType, text } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": LANG };
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (raw !== undefined) {
    payload = raw;
    headers["Content-Type"] = contentType || "application/x-ndjson";
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(`/api${path}`, { method, headers, body: payload, cache: "no-store" });
  } catch (e) {
    throw new ApiError(0, { error: { code: "network", message: _("The server cannot be reached. Check your connection and try again.") } });
  }
  if (text && response.ok) return response.text();
  let data = null;
  const type = response.headers.get("Content-Type") || "";
  if (type.includes("json")) {
    try { data = await response.json(); } catch (e) { data = null; }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export function uuid() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const Api = {
  gameTypes: () => api("/game-types"),
  listGames: (filters = {}) => {
    const q = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
    return api(`/games${q.toString() ? `?${q}` : ""}`);
  },
  createGame: (body) => api("/games", { method: "POST", body }),
  meta: (id, token) => api(`/games/${enc(id)}`, { token }),
  view: (id, token, at) => api(`/games/${enc(id)}/view${at ? `?at=${at}` : ""}`, { token }),
  actions: (id, token) => api(`/games/${enc(id)}/actions`, { token }),
  act: async (id, token, action, expectedSeq) => {
    const body = { type: action.type, payload: action.payload || {}, action_id: uuid(), ...(expectedSeq ? { expected_seq: expectedSeq } : {}) };
    // Over the seat's move socket when it can carry the move; else (or if it closed
    // before answering) POSTed with the same action_id, which the server plays once.
    const answer = await sendOverSocket(id, token, body, LANG);
    if (!answer) return api(`/games/${enc(id)}/actions`, { method: "POST", token, body });
    if (answer.status >= 400) throw new ApiError(answer.status, answer.body);
    return answer.body;
  },
  events: async (id, token, after = 0) => {  // every page from `after` to the head (the API pages them)
    const events = [];
    let next = after;
    do {
      const page = await api(`/games/${enc(id)}/events?after=${next}`, { token });
      events.push(...page.events);
      next = page.next;
    } while (next !== null && next !== undefined);
    return { events, next: null };
  },
  undo: (id, token, toSeq) => api(`/games/${enc(id)}/undo`, { method: "POST", token, body: { to_seq: toSeq } }),
  undoAnswer: (id, token, req, answer) => api(`/games/${enc(id)}/undo/${enc(req)}/${answer}`, { method: "POST", token, body: {} }),
  annotations: async (id, token) => {  // every page (the API answers 200 at a time at most)
    const all = [];
    let after = null;
    do {
      const page = await api(`/games/${enc(id)}/annotations?limit=200${after ? `&after=${enc(after)}` : ""}`, { token });
      all.push(...page.annotations);
      after = page.next;
    } while (after);
    return { annotations: all };
  },
  annotationsAfter: (id, token, after) =>  // one page of the notes after the note id `after`
    api(`/games/${enc(id)}/annotations?limit=200${after ? `&after=${enc(after)}` : ""}`, { token }),
  annotate: (id, token, body) => api(`/games/${enc(id)}/annotations`, { method: "POST", token, body }),
  referee: (id, token, what, body) => api(`/games/${enc(id)}/referee/${what}`, { method: "POST", token, body }),
  exportLog: (id, token) => api(`/games/${enc(id)}/export`, { token, text: true }),
  fork: (id, token, atSeq) => api(`/games/${enc(id)}/fork`, { method: "POST", token, body: { at_seq: atSeq } }),
  verify: (text) => api("/verify", { method: "POST", raw: text }),
  createAccount: (name, password) => api("/accounts", { method: "POST", body: { name, password } }),
  login: (name, password) => api("/sessions", { method: "POST", body: { name, password } }),
  logout: (token) => api("/sessions/current", { method: "DELETE", token }),
  logoutAll: (token) => api("/sessions", { method: "DELETE", token }),
  me: (token) => api("/me", { token }),
  notices: (token) => api("/me/notices", { token }),
  changeNotices: (token, body) => api("/me/notices", { method: "PUT", token, body }),
  pushKey: () => api("/notices/key"),
  subscribePush: (token, subscription) => api("/me/notices/push", { method: "POST", token, body: subscription }),
  changePassword: (token, old, fresh) => api("/me/password", { method: "POST", token, body: { old, new: fresh } }),
  claimSeat: (id, session, seatToken) => api(`/games/${enc(id)}/claim`, { method: "POST", token: session, body: { seat_token: seatToken } }),
  profile: (name) => api(`/accounts/${enc(name)}`),
  leaderboard: (game, minGames = 1) => api(`/ratings/${enc(game)}?min_games=${minGames}`),
  openTable: (session, body) => api("/tables", { method: "POST", token: session, body: { ...body, contribution: contribution() } }),
  tables: () => api("/tables"),
  table: (id) => api(`/tables/${enc(id)}`),
  tableReferee: (id, session) => api(`/tables/${enc(id)}/referee`, { token: session }),
  takeSeat: (id, session, seat) => api(`/tables/${enc(id)}/seats`, { method: "POST", token: session, body: { contribution: contribution(), ...(seat === undefined ? {} : { seat }) } }),
  fillTable: (id, session, strength = 1) => api(`/tables/${enc(id)}/computers`, { method: "POST", token: session, body: { strength } }),
  declineTable: (id, session) => api(`/tables/${enc(id)}/decline`, { method: "POST", token: session }),
  rematch: (id, session) => api(`/games/${enc(id)}/rematch`, { method: "POST", token: session, body: { contribution: contribution() } }),
  myGames: (session) => api("/me/games", { token: session }),
};

/** A seat's share of the deal: 32 random bytes made here, in the browser, as hex. The
 * server mixes every seat's share with its committed seed (docs/API.md, "Open tables"). */
export function contribution() {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

function enc(s) { return encodeURIComponent(String(s)); }
