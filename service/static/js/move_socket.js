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

// A page that follows the game over the socket (followOverSocket) opens it on load with
// `follow: <the seq it drew>` and is pushed each new batch of entries with its own
// position; the socket is reopened whenever it closes, and the hello then carries the
// whole position and the entries it missed.
const REOPEN_MS = [500, 1000, 2000, 5000, 10000, 30000];

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
    this.follower = null; // {after(), onHello(body), onPush(push), onState(state)} of a following page
    this.reopens = 0;
    this.reopen = null;
    this.closed = false;
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
      ws.onopen = () => ws.send(JSON.stringify({
        token: this.token, accept_language: this.lang, ...(this.follower ? { follow: this.follower.after() } : {}),
      }));
      ws.onmessage = (ev) => {
        let frame = null;
        try { frame = JSON.parse(ev.data); } catch (e) { /* not an answer */ }
        if (frame && frame.push && this.follower && hello) { this.follower.onPush(frame.push); return; }
        if (!frame || typeof frame.status !== "number") { this.drop(ws); return; }
        if (!hello) {
          clearTimeout(timer);
          if (frame.status !== 200) { this.drop(ws); return; }  // refused: the POST will say why
          hello = true;
          this.fail = null;
          this.reopens = 0;
          resolve(ws);
          if (this.follower) { this.follower.onHello(frame.body); this.follower.onState("live"); }
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
    if (this.follower && !this.closed && !this.reopen) {
      this.follower.onState("reconnecting");
      const wait = REOPEN_MS[Math.min(this.reopens++, REOPEN_MS.length - 1)];
      this.reopen = setTimeout(() => { this.reopen = null; if (!this.ws && !this.closed) this.open(); }, wait);
    }
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

/** Follow the game over the seat's (or referee's) socket: `follower.after()` is the seq
 * the page drew, `onHello(body)` gets the whole position, the meta and the entries after
 * it, `onPush(push)` each later batch, `onState("live" | "reconnecting")` the link's state.
 * False when the browser has no WebSocket (the page then follows the SSE stream). */
export function followOverSocket(gameId, token, lang, follower) {
  if (typeof WebSocket === "undefined" || !token) return false;
  const key = `${gameId}\n${token}`;
  let socket = sockets.get(key);
  if (!socket) { socket = new MoveSocket(gameId, token, lang); sockets.set(key, socket); }
  socket.follower = follower;
  socket.quietUntil = 0;
  socket.open();
  return true;
}

/** Stop following over (and close) the socket of this token. */
export function unfollow(gameId, token) {
  const key = `${gameId}\n${token}`;
  const socket = sockets.get(key);
  if (!socket) return;
  socket.closed = true;
  if (socket.ws) socket.drop(socket.ws);
  sockets.delete(key);
}

// Leaving the page leaves its games: close their sockets (a page coming back from the
// back-forward cache opens them again on its next move).
addEventListener("pagehide", () => {
  for (const socket of sockets.values()) {
    socket.closed = true;
    if (socket.ws) socket.drop(socket.ws);
  }
});
