// One client state of a game for the table, the referee console and the replay: read
// once on load, then kept by what the server pushes, with no request per entry.
//
// A seat or the referee follows over its socket (move_socket.js: the hello carries the
// whole position, each push the new entries redacted for the viewer and what changed in
// the meta and its position, legal actions included); a spectator follows the SSE
// stream (each entry redacted for spectators, the last of a batch with what changed in
// the meta and the spectator's position). What changed comes as a patch from the seq
// the page holds (json_patch.js), so a frame does not grow with the game; the meta
// keeps the whole list of moves. A move's answer carries the mover's position too. The
// feed asks the server again only after a gap it cannot fill from what came (an entry
// missing between two it has, or a patch from a seq it does not hold).
import { LANG } from "./i18n.js";
import { Api } from "./api.js";
import { patched } from "./json_patch.js";
import { followOverSocket, unfollow } from "./move_socket.js";
import { follow, serial } from "./shell.js";

const DOWN_MS = 4000, DOWN_TICK_MS = 5000;  // whileDown
const STREAM_EXTRAS = ["to_act", "status", "head", "latest", "meta", "position", "meta_patch", "position_patch"];

export class GameFeed {
  /** `token`: the seat's or referee's (null for a spectator); `onChange(feed)` is
   * called after each change; `onState(state)` with "live" | "connecting" | "reconnecting". */
  constructor(gameId, token, { onChange = () => {}, onState = () => {}, withActions = false } = {}) {
    this.gameId = gameId;
    this.token = token;
    this.onChange = onChange;
    this.onState = onState;
    this.withActions = withActions;
    this.meta = null;
    this.view = null;       // the view document (GET /view) at the latest step drawn
    this.actions = [];
    this.events = [];
    this.lastSeq = 0;
    this.live = "connecting";
    this.downSince = Date.now();  // when the link last went down (it is down until it opens)
    this.moving = 0;        // the viewer's moves awaiting their answer
    this.owed = 0;          // the latest seq a stream message named during them
    this.refill = serial(() => this.read());
  }

  /** The first read (what a page needs before the first push): meta, the viewer's
   * view, its legal actions and the log. `known` may hold a meta and view already read. */
  async load(known = {}) {
    const [meta, view] = await Promise.all([
      known.meta || Api.meta(this.gameId), known.view || Api.view(this.gameId, this.token),
    ]);
    this.meta = meta;
    this.setView(view);
    await this.read({ meta: false, view: false });
    return this;
  }

  /** Re-read what a push could not give: after a gap, or while the link is down. */
  async read({ meta = true, view = true } = {}) {
    const [m, v, actions, ev] = await Promise.all([
      meta ? Api.meta(this.gameId) : null,
      view ? Api.view(this.gameId, this.token) : null,
      this.withActions && this.token && (view || this.view.status !== "finished")
        ? Api.actions(this.gameId, this.token).then((a) => a.actions || [], () => []) : null,
      Api.events(this.gameId, this.token, this.lastSeq).catch(() => ({ events: [] })),
    ]);
    if (m && (!this.meta || m.seq >= this.meta.seq)) this.meta = m;  // a push may have come meanwhile
    if (v) this.setView(v);
    if (actions) this.actions = actions;
    this.append(ev.events || []);
    this.onChange(this);
  }

  /** Follow the game: over the socket with a token, else (or without WebSocket) SSE. */
  follow() {
    const state = (s) => {
      if (s !== "live" && this.live === "live") this.downSince = Date.now();
      this.live = s;
      this.onState(s);
    };
    const overSocket = this.token && followOverSocket(this.gameId, this.token, LANG, {
      after: () => this.lastSeq,
      onHello: (body) => this.apply(body),
      onPush: (push) => this.apply(push),
      onState: state,
    });
    if (overSocket) return;
    follow(this.gameId, (data) => this.fromStream(data), state, this.lastSeq || null);
  }

  /** The seat's token changed (a claim revokes the old one): follow with the new one. */
  retoken(token) {
    if (this.token) unfollow(this.gameId, this.token);
    this.token = token;
    this.follow();
  }

  /** One SSE message: an entry as spectators see it, with the state after its batch. */
  fromStream(data) {
    const entry = { ...data };
    for (const k of STREAM_EXTRAS) delete entry[k];
    const { meta, position, meta_patch, position_patch } = data;
    if (!this.token) { this.apply({ entries: [entry], meta, position, meta_patch, position_patch }); return; }
    // a seat or referee on the stream (no WebSocket): the position there is a
    // spectator's, so its own is read again once the batch is in
    this.apply({ entries: [entry], meta, meta_patch });
    if (data.seq !== data.latest) return;
    if (this.moving) this.owed = Math.max(this.owed, data.latest);  // the answer may cover it
    else if (data.latest > (this.view.at ?? this.view.seq)) this.refill();
  }

  /** Call `read` every 5 s while the link has been down 4 s on end and the page is shown.
   * Not in the moment a stream reopens (the server ends each on schedule): every page
   * whose timer fell there would read the whole game, a thousand spectators included. */
  whileDown(read) {
    setInterval(() => {
      if (this.live !== "live" && Date.now() - this.downSince >= DOWN_MS && !document.hidden) read();
    }, DOWN_TICK_MS);
  }

  /** The viewer's move under way (`answer`: its promise): its answer is the position. */
  async play(answer) {
    this.moving += 1;
    try {
      const r = await answer;
      this.answered(r);
      return r;
    } finally {
      this.moving -= 1;
      if (!this.moving && this.owed > (this.view.at ?? this.view.seq)) this.refill();
      if (!this.moving) this.owed = 0;
    }
  }

  /** A move's answer: the mover's position (its entry comes with the next push). */
  answered(answer) {
    if (answer && answer.view !== undefined && answer.at !== undefined) {
      this.setPosition(answer);
      this.onChange(this);
    }
  }

  /** A hello or a push: entries (in order), maybe the meta and the viewer's position,
   * whole or as patches. */
  apply({ entries = [], meta = null, position = null, meta_patch = null, position_patch = null }) {
    const gap = entries.length && entries[0].seq > this.lastSeq + 1;
    if (gap) { this.refill(); return; }
    this.append(entries);
    if (meta && (!this.meta || meta.seq >= this.meta.seq)) this.meta = meta;
    if (position) this.setPosition(position);
    if (!this.patch(meta_patch, position_patch)) { this.refill(); return; }
    this.onChange(this);
  }

  /** Apply the patches to the meta and position held at their `from`; one that came
   * before (a move's answer already brought the position) is let go. False when the
   * feed holds an older document than the patch needs, or another: then it reads. */
  patch(metaPatch, positionPatch) {
    try {
      if (metaPatch && this.meta && this.meta.seq === metaPatch.from) this.meta = patched(this.meta, metaPatch.ops);
      else if (metaPatch && (!this.meta || this.meta.seq < metaPatch.to)) return false;
      const drawn = this.view ? (this.view.at ?? this.view.seq) : -1;
      if (positionPatch && drawn === positionPatch.from) {
        this.setPosition(patched({ ...this.view, actions: this.actions }, positionPatch.ops));
      } else if (positionPatch && drawn < positionPatch.to) return false;
    } catch (e) {
      return false;
    }
    return true;
  }

  append(entries) {
    for (const e of entries) {
      if (e.seq <= this.lastSeq) continue;
      this.events.push(e);
      this.lastSeq = e.seq;
    }
  }

  /** A view document read (never older than the one drawn: a push may have come meanwhile). */
  setView(view) {
    if (!this.view || (view.at ?? view.seq) >= (this.view.at ?? this.view.seq)) this.view = view;
  }

  setPosition(position) {
    const at = position.at ?? position.seq;
    const drawn = this.view ? (this.view.at ?? this.view.seq) : -1;
    if (at < drawn) return;
    const { actions, receipt, ...view } = position;
    this.view = { ...view, seq: at, at };
    if (actions !== undefined) this.actions = actions;
  }
}
