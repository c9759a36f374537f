// A seat's moves over the game's move socket (GET /api/games/<id>/socket, docs/API.md):
// one WebSocket per (game, seat token) per page, opened on the seat's first move and
// reopened on the next move after it closes (the server closes an idle socket). Frames
// are answered in order, so the moves waiting for an answer are a queue.
//
// `send` resolves with the server's answer frame `{status, body}`, the one the POST
// would have had, or with null when the socket could not carry the move: it would not
// open, was refused, or closed (or went silent) before answering. The caller then POSTs
// the same envelope: its action_id makes that safe if the socket had played it (the
// server answers a retried action id with its first answer).

const OPEN_MS = 5000;     // to open the socket and hear its hello
const ANSWER_MS = 20000;  // to answer a move, else the socket is dropped and the move POSTed
const QUIET_MS = 60000;   // after a socket failed to open: moves are POSTed for this long

const sockets = new Map();

class MoveSocket {
  constructor(gameId, token, lang) {
    this.gameId = gameId;
    this.token = token;
    this.lang = lang;
    this.ws = null;
    this.ready = null;   // a promise: the socket once its hello came, null if it failed
    this.pending = [];   // [{resolve, timer}], oldest first
    this.quietUntil = 0; // a socket that would not open is not tried again before this
    this.fail = null;    // while a socket opens: ends its wait with null (it failed)
  }

  async send(envelope) {
    // A socket refused, or one a proxy lets open but never relays, would cost every move
    // a failed handshake (or OPEN_MS of waiting) before its POST: wait a while instead.
    if (Date.now() < this.quietUntil) return null;
    const ws = await this.open();
    if (!ws || ws !== this.ws) return null;
    return new Promise((resolve) => {
      const entry = { resolve, timer: setTimeout(() => this.drop(ws), ANSWER_MS) };
      this.pending.push(entry);
      try { ws.send(JSON.stringify(envelope)); } catch (e) { this.drop(ws); }
    });
  }

  open() {
    if (this.ready) return this.ready;
    let ws;
    try {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      ws = new WebSocket(`${scheme}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/socket`);
    } catch (e) {
      return Promise.resolve(null);
    }
    this.ws = ws;
    this.ready = new Promise((resolve) => {
      let hello = false;
      const timer = setTimeout(() => this.drop(ws), OPEN_MS);
      ws.onopen = () => ws.send(JSON.stringify({ token: this.token, accept_language: this.lang }));
      ws.onmessage = (ev) => {
        let frame = null;
        try { frame = JSON.parse(ev.data); } catch (e) { /* not an answer */ }
        if (!frame || typeof frame.status !== "number") { this.drop(ws); return; }
        if (!hello) {
          clearTimeout(timer);
          if (frame.status !== 200) { this.drop(ws); return; }  // refused: the POST will say why
          hello = true;
          this.fail = null;
          resolve(ws);
          return;
        }
        const entry = this.pending.shift();
        if (!entry) { this.drop(ws); return; }
        clearTimeout(entry.timer);
        entry.resolve(frame);
      };
      ws.onerror = () => this.drop(ws);
      ws.onclose = () => this.drop(ws);
      this.fail = () => { clearTimeout(timer); this.quietUntil = Date.now() + QUIET_MS; resolve(null); };
    });
    return this.ready;
  }

  /** Forget `ws` (if it is still this seat's socket): the moves it owes go back to their
   * callers unanswered, and the next move opens a new socket. */
  drop(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = null;
    const fail = this.fail;
    this.fail = null;
    if (fail) fail();
    const owed = this.pending;
    this.pending = [];
    for (const entry of owed) { clearTimeout(entry.timer); entry.resolve(null); }
    ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
    try { ws.close(); } catch (e) { /* already closed */ }
  }
}

/** The answer frame to `envelope` from the seat's socket, or null: then POST it. */
export function sendOverSocket(gameId, token, envelope, lang) {
  if (typeof WebSocket === "undefined" || !token) return Promise.resolve(null);
  const key = `${gameId}\n${token}`;
  let socket = sockets.get(key);
  if (!socket) { socket = new MoveSocket(gameId, token, lang); sockets.set(key, socket); }
  return socket.send(envelope);
}

// Leaving the page leaves its games: close their sockets (a page coming back from the
// back-forward cache opens them again on its next move).
addEventListener("pagehide", () => {
  for (const socket of sockets.values()) if (socket.ws) socket.drop(socket.ws);
});
