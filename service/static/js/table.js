// Play table and spectator view: /games/<id> (seat token in the fragment, or none to watch).
import { t as _, tn } from "./i18n.js";
import { session } from "./session.js";
import { Api, ApiError } from "./api.js";
import { GameFeed } from "./game_feed.js";
import { sentence } from "./sentences.js";
import { mountChat } from "./chat.js";
import {
  h, clear, $, flash, errorText, fatal, takeToken, loadRenderer, seatName, statusBadge,
  auditBox, humanize, fmtTime, takenBack,
} from "./shell.js";

const gameId = document.body.dataset.gameId;
const root = document.getElementById("table-root");
const S = {
  token: null, meta: null, view: null, actions: [], events: [], lastSeq: 0,
  renderer: null, names: [], seat: null, role: "spectator", busy: false, live: "connecting", lastError: null,
};

let tokenStore = null;
let feed = null;
// How far the server's clock is ahead of this device's (seconds), measured when the
// meta arrived: the seats' clocks run by the server's time, whatever the device's says.
let serverAhead = 0;
const serverNow = () => Date.now() / 1000 + serverAhead;

async function main() {
  const t = takeToken(gameId, "seat");
  tokenStore = t;
  S.token = t.token;
  try {
    S.meta = await Api.meta(gameId);
    serverAhead = typeof S.meta.now === "number" ? S.meta.now - Date.now() / 1000 : 0;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return fatal(root, _("No such game"), _("There is no game with the id “{gameId}”.", { gameId }), [[_("Back to the lobby"), "/"]]);
    return fatal(root, _("The table could not be opened"), errorText(e), [[_("Back to the lobby"), "/"]]);
  }
  S.names = (S.meta.seats || []).map((s) => s.name);
  if (!S.token && !location.hash.includes("spectator")) {
    // A game from an open table has no seat links: the account's session plays its seat.
    const mine = session();
    if (mine && Object.values(S.meta.accounts || {}).includes(mine.name)) S.token = mine.token;
  }
  try {
    S.view = await Api.view(gameId, S.token).catch(async (e) => {
      // A link from before the seat was claimed: the claiming account's session plays it now.
      const mine = session();
      if (!(e instanceof ApiError && e.code === "token_revoked" && mine)) throw e;
      const view = await Api.view(gameId, mine.token);
      S.token = mine.token;
      t.forget();
      return view;
    });
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      t.forget();
      return fatal(root, _("This seat link is not valid"),
        _("The token in this link is not a seat of this game (it may be mistyped or belong to another game). Ask the organiser for your seat link, or watch as a spectator."),
        [[_("Watch as a spectator"), `/games/${encodeURIComponent(gameId)}#spectator`], [_("Back to the lobby"), "/"]]);
    }
    return fatal(root, _("The table could not be opened"), errorText(e), [[_("Back to the lobby"), "/"]]);
  }
  const v = S.view.viewer || {};
  if (v.seat !== undefined && v.seat !== null) { S.seat = v.seat; S.role = "seat"; }
  else if (v.role === "referee") {
    S.role = "referee";
    try { sessionStorage.setItem(`boardroom:referee:${gameId}`, S.token); } catch (e) { /* none */ }
  } else { S.role = "spectator"; if (S.token) { t.forget(); S.token = null; } }
  S.renderer = await loadRenderer(S.meta.game);
  // Read once; then the feed is kept by the pushes (the seat's and referee's socket, the
  // spectators' stream) and the move's answers: no request per entry.
  feed = new GameFeed(gameId, S.role === "spectator" ? null : S.token, {
    withActions: S.role === "seat",
    onState: (state) => { S.live = state; drawLive(); },
  });
  await feed.load({ meta: S.meta, view: S.view });
  sync();
  layout();
  mountChat($("#chat-slot"), gameId, S.role === "spectator" ? session()?.token : S.token, S.role, S.names, S.seat);
  draw();
  feed.onChange = () => { sync(); draw(); };
  feed.follow();
  feed.whileDown(refresh);
}

/** The page's state from the feed's. */
function sync() {
  S.meta = feed.meta;
  S.view = feed.view;
  S.actions = S.role === "seat" && S.view.status !== "finished" ? feed.actions : [];
  S.events = feed.events;
  S.lastSeq = feed.lastSeq;
  S.names = (S.meta.seats || []).map((s) => s.name);
}

/** Read everything again: only while the live link is down, or after a refused move. */
function refresh() { return feed.refill(); }

function layout() {
  const who = S.role === "seat"
    ? h("span", { class: `you seat-${S.seat}`, id: "you" }, _("You are {v0} · seat {seat}", { v0: seatName(S.seat, S.names), seat: S.seat }))
    : S.role === "referee" ? h("span", { class: "you", id: "you" }, _("Referee view"))
      : h("span", { class: "you spectator", id: "you" }, _("Spectating"));
  clear(root,
    h("header", { class: "game-head" },
      h("div", {},
        h("h1", {}, tn(S.meta.title) || humanize(S.meta.game)),
        h("div", { class: "muted small" }, _("Game {gameId}", { gameId }), S.meta.ranked ? _(" · ranked") : "", S.meta.forked_from ? [_(" · fork of "), h("a", { href: `/games/${encodeURIComponent(forkSource(S.meta.forked_from))}/replay` }, forkSource(S.meta.forked_from))] : "",
          S.meta.tournament ? [" · ", h("a", { href: `/tournaments/${encodeURIComponent(S.meta.tournament)}` }, _("tournament game"))] : "")),
      h("div", { class: "head-right" }, who, h("span", { id: "status" }), h("span", { id: "live", class: "live" }),
        h("a", { class: "button small", href: `/games/${encodeURIComponent(gameId)}/replay`, id: "replay-link" }, _("Replay")),
        // a seat disputes a step from the replay, whose note form this opens ready for it
        S.role === "seat" && S.meta.status !== "finished"
          ? h("a", { class: "button small", href: `/games/${encodeURIComponent(gameId)}/replay?dispute`, id: "dispute-link" }, _("Dispute a move")) : null,
        S.role === "referee" ? h("a", { class: "button small", href: `/games/${encodeURIComponent(gameId)}/referee` }, _("Console")) : null)),
    h("div", { id: "turn", class: "turn-banner", "aria-live": "polite" }),
    h("div", { id: "announce", class: "visually-hidden", role: "status", "aria-live": "polite", "aria-atomic": "true" }),
    h("div", { class: "table-cols" },
      h("section", { class: "board-wrap panel", "aria-labelledby": "board-heading" },
        h("h2", { id: "board-heading", class: "visually-hidden" }, _("Board")),
        h("details", { class: "board-text", id: "board-text-box" },
          h("summary", {}, _("The position in words")),
          h("div", { id: "board-text" })),
        h("div", { id: "board", class: "board", role: "region", "aria-label": _("Board (arrow keys move between the places you can play, Enter plays)") })),
      h("aside", { class: "side" },
        S.role === "seat" ? h("section", { class: "panel", id: "actions-panel" },
          h("h2", {}, _("Your moves")),
          h("div", { id: "action-error", class: "action-error", role: "alert", hidden: true }),
          h("div", { id: "actions" }),
          h("details", { class: "manual", id: "manual" },
            h("summary", {}, _("Enter a move by hand")),
            h("form", { id: "manual-form", onsubmit: onManual },
              h("label", {}, _("Move as JSON"), h("textarea", { name: "move", id: "manual-move", rows: 3, spellcheck: "false",
                placeholder: '{"type": "...", "payload": {...}}' })),
              h("button", { type: "submit", id: "manual-submit" }, _("Send"))))) : null,
        S.role === "seat" ? h("section", { class: "panel", id: "undo-panel" }, h("h2", {}, _("Undo")), h("div", { id: "undo" })) : null,
        S.role === "seat" ? h("section", { class: "panel", id: "account-panel" }, h("h2", {}, _("Account")), h("div", { id: "account-seat" })) : null,
        h("section", { class: "panel", id: "scores-panel" }, h("h2", {}, _("Players & scores")), h("div", { id: "scores" })),
        h("section", { class: "panel", id: "log-panel" }, h("h2", {}, _("Log")), h("ol", { id: "log", class: "log", reversed: true, tabindex: 0, "aria-label": _("Log, newest first") })),
        h("div", { id: "chat-slot" }),
        h("div", { id: "audit-slot" }))));
}

/** The seat's account: bound to whom, or a button binding it to the logged-in account. */
function drawAccount() {
  const box = $("#account-seat");
  const bound = (S.meta.accounts || {})[String(S.seat)];
  const mine = session();
  if (bound) {
    clear(box, h("p", {}, _("Played by the account"), " ",
      h("a", { href: `/players/${encodeURIComponent(bound)}`, id: "seat-account" }, bound)),
      S.meta.status === "finished" && mine && mine.name === bound
        ? h("button", { type: "button", id: "offer-rematch", onclick: rematch }, _("Rematch")) : null);
  } else if (S.meta.status === "finished") {
    clear(box, h("p", { class: "muted" }, _("Nobody's account plays this seat.")));
  } else if (!mine) {
    clear(box, h("p", { class: "muted" }, _("Log in to have this game on your profile and, if it is ranked, rated: "),
      h("a", { href: "/account" }, _("Log in"))));
  } else {
    clear(box, h("button", { type: "button", id: "claim-seat", onclick: claim }, _("Play this seat as {name}", { name: mine.name })));
  }
}

/** A rematch: the same players, each one seat on; it starts when all have sat down. */
async function rematch() {
  try {
    const table = await Api.rematch(gameId, session().token);
    location.href = table.status === "started" ? `/games/${encodeURIComponent(table.game_id)}` : `/tables/${encodeURIComponent(table.id)}`;
  } catch (e) {
    flash(errorText(e), "error");
  }
}

async function claim() {
  const mine = session();
  try {
    const answer = await Api.claimSeat(gameId, mine.token, S.token);
    S.token = answer.seat_token;  // the token claimed with is revoked: copies of it no longer play
    tokenStore.keep(S.token);
    feed.retoken(S.token);
    flash(_("This seat is now played by {name}.", { name: mine.name }), "ok");
  } catch (e) {
    flash(errorText(e), "error");
  }
}

function forkSource(f) { return typeof f === "object" && f ? (f.game_id ?? f.id ?? f.game ?? JSON.stringify(f)) : String(f); }

function draw() {
  const { meta, view } = S;
  clear($("#status"), statusBadge(view.status || meta.status));
  drawTurn();
  const ctx = {
    seat: S.seat, names: S.names, actions: S.role === "seat" && view.status === "active" ? S.actions : [],
    act: (action) => act(action).then((r) => ({ ok: true, seq: r && r.seq }), (e) => ({ ok: false, error: errorText(e) })), viewer: view.viewer, status: view.status,
  };
  const board = $("#board");
  board.dataset.seq = String(view.seq);
  S.renderer.render(board, view.view, ctx);
  if (S.role === "seat") { drawActions(); drawUndo(); drawAccount(); }
  drawScores();
  drawLog();
  drawBoardText();
  announce();
  clear($("#audit-slot"), auditBox(meta));
  drawLive();
  root.dataset.seq = String(view.seq);
  root.dataset.status = String(view.status);
}

/** The position in words: the game's summary, whose turn, the scores (with the
 * referee's adjustments and forfeits) and what the renderer says of the viewer's own
 * things (hand, stock). Screen readers read it; everyone may open it. */
function drawBoardText() {
  const box = $("#board-text");
  if (!box) return;
  const { view } = S;
  const lines = [];
  const summary = view.view && view.view.summary;
  if (summary) lines.push(sentence(summary));
  lines.push(turnWords());
  const scores = (view.view && Array.isArray(view.view.scores)) ? view.view.scores : null;
  const ref = refereeMarks();
  (S.meta.seats || []).forEach((s) => {
    const sc = scores ? scores[s.seat] : null;
    const bits = [sc === null || sc === undefined ? _("score hidden") : _("{n} points", { n: sc })];
    if (ref.adjust[s.seat]) bits.push(_("referee adjustment {points}", { points: signed(ref.adjust[s.seat]) }));
    if (ref.forfeits.has(s.seat)) bits.push(_("forfeited"));
    lines.push(_("{name}: {what}", { name: seatName(s.seat, S.names), what: bits.join(", ") }));
  });
  for (const line of S.renderer.describePosition(view.view, { seat: S.seat, names: S.names })) lines.push(line);
  clear(box, h("ul", {}, lines.filter(Boolean).map((l) => h("li", {}, l))));
}

function turnWords() {
  const { view } = S;
  if (view.status === "finished") return _("The game is over.");
  if (view.status === "paused") return _("The game is paused.");
  const toAct = view.to_act || [];
  if (S.seat !== null && toAct.includes(S.seat)) return _("It is your move.");
  if (!toAct.length) return "";
  return _("Waiting for {v0}.", { v0: toAct.map((s) => seatName(s, S.names)).join(", ") });
}

let announcedUpTo = null;
/** Speak the moves others made since the last drawing (a polite live region). */
function announce() {
  const el = $("#announce");
  if (!el) return;
  if (announcedUpTo === null) { announcedUpTo = S.lastSeq; return; }
  const fresh = S.events.filter((e) => e.seq > announcedUpTo && !(S.seat !== null && e.actor && e.actor.seat === S.seat));
  announcedUpTo = S.lastSeq;
  if (!fresh.length) return;
  el.textContent = fresh.slice(-3).map((e) => S.renderer.describeEvent(e, S.names)).join(" · ");
}

function signed(n) { return `${n > 0 ? "+" : ""}${n}`; }

/** The referee's adjustments (summed per seat) and the forfeits, from the log: they
 * outlast undo and rewind, as in the server's fold. */
function refereeMarks() {
  const adjust = {};
  const forfeits = new Set();
  for (const e of S.events) {
    const p = e.payload || {};
    if (e.type === "referee.adjust") adjust[p.seat] = (adjust[p.seat] || 0) + Number(p.points || 0);
    else if (e.type === "referee.forfeit" || e.type === "clock.expired") forfeits.add(p.seat);
  }
  const result = S.view.result || S.meta.result;
  for (const s of (result && result.forfeited) || []) forfeits.add(s);
  return { adjust, forfeits };
}

function drawLive() {
  const el = $("#live");
  if (!el) return;
  el.className = `live live-${S.live}`;
  el.textContent = S.live === "live" ? _("● live") : S.live === "connecting" ? _("○ connecting") : _("○ reconnecting");
  el.title = _("Live updates from the server");
}

function drawTurn() {
  const { view } = S;
  const el = $("#turn");
  const toAct = view.to_act || [];
  const summary = view.view && view.view.summary ? sentence(view.view.summary) : "";
  el.className = "turn-banner";
  if (view.status === "finished") {
    el.classList.add("finished");
    const r = view.result || S.meta.result || {};
    const winners = (r.ranking || []).map((rank, s) => (rank === 1 ? seatName(s, S.names) : null)).filter(Boolean);
    clear(el, h("strong", {}, _("Game over. ")), winners.length ? _("Won by {v0}. ", { v0: winners.join(" & ") }) : "",
      r.tiebreak ? h("span", { class: "muted" }, _("Tie broken by {tiebreak}. ", { tiebreak: tn(r.tiebreak) })) : "",
      h("a", { href: `/games/${encodeURIComponent(gameId)}/replay` }, _("Replay the game and see the revealed seed")), refereeNote());
    return;
  }
  if (view.status === "paused") {
    el.classList.add("paused");
    clear(el, h("strong", {}, _("Paused by the referee. ")), _("No moves are accepted until the game resumes. "), summary, refereeNote(), pendingNote());
    return;
  }
  const mine = S.seat !== null && toAct.includes(S.seat);
  if (mine) el.classList.add("mine");
  clear(el,
    mine ? h("strong", { id: "your-turn" }, _("Your move. ")) : null,
    (() => {
      const others = mine ? toAct.filter((s) => s !== S.seat) : toAct;
      if (!others.length) return null;
      return h("span", {}, mine ? _("Also waiting for ") : _("Waiting for "),
        others.map((s, i) => [i ? ", " : "", h("span", { class: `who seat-${s}` }, seatName(s, S.names))]), ". ");
    })(),
    summary ? h("span", { class: "summary" }, summary) : null,
    refereeNote(), pendingNote());
}

/** What waits for an answer, in the banner a phone shows above the board: an undo request, open disputes. */
function pendingNote() {
  const undo = S.view.pending_undo;
  const disputes = S.view.disputes || [];
  const bits = [];
  if (undo) bits.push(_("{name} asked to undo back to step {to_seq}: answer below the board.", { name: seatName(undo.seat, S.names), to_seq: undo.to_seq }));
  if (disputes.length) bits.push(_("Disputes open: {count}. The referee has been called.", { count: disputes.length }));
  return bits.length ? h("span", { class: "pending-note", id: "pending-note", role: "status" }, " ", bits.join(" ")) : null;
}

/** A line under the turn banner when the referee has changed the game: forfeits, adjustments. */
function refereeNote() {
  const ref = refereeMarks();
  const bits = [];
  for (const s of ref.forfeits) bits.push(_("{name} has forfeited.", { name: seatName(s, S.names) }));
  for (const [s, n] of Object.entries(ref.adjust)) if (n) bits.push(_("The referee adjusted {name}'s score by {points}.", { name: seatName(Number(s), S.names), points: signed(n) }));
  return bits.length ? h("span", { class: "referee-note", id: "referee-note" }, " ", bits.join(" ")) : null;
}

const openGroups = new Set();
let drawnActions = null;

function drawActions() {
  const box = $("#actions");
  const { view } = S;
  // Rebuild the buttons only when they change, so a live update does not move them
  // under the player's pointer.
  const key = JSON.stringify([view.status, S.busy, S.actions]);
  if (key === drawnActions) return;
  drawnActions = key;
  if (view.status !== "active") {
    clear(box, h("p", { class: "muted" }, view.status === "paused" ? _("The game is paused.") : _("The game is over.")));
    return;
  }
  if (!S.actions.length) {
    clear(box, h("p", { class: "muted", id: "no-actions" }, _("Nothing to do now — waiting for the others.")));
    return;
  }
  const groups = new Map();
  S.actions.forEach((a, i) => {
    if (!groups.has(a.type)) groups.set(a.type, []);
    groups.get(a.type).push([a, i]);
  });
  const parts = [];
  for (const [type, list] of groups) {
    const buttons = list.map(([a, i]) => h("button", {
      type: "button", class: "action-btn", disabled: S.busy, dataset: { index: i, type: a.type },
      onclick: () => act(a).catch(() => {}),
    }, S.renderer.describeAction(a, view.view)));
    if (groups.size > 1 || list.length > 12) {
      const open = openGroups.has(type) || list.length <= 24 || groups.size === 1;
      parts.push(h("details", { class: "action-group", open, dataset: { type },
        ontoggle: (ev) => { if (ev.target.open) openGroups.add(type); else openGroups.delete(type); } },
        h("summary", {}, _("{what} ({n})", { what: tn(humanize(type)), n: list.length })), h("div", { class: "action-list" }, buttons)));
    } else parts.push(h("div", { class: "action-list" }, buttons));
  }
  clear(box, parts);
}

function showError(message) {
  const el = $("#action-error");
  if (!el) { flash(message, "error"); return; }
  if (!message) { el.hidden = true; el.textContent = ""; return; }
  el.hidden = false;
  el.textContent = message;
}

async function act(action) {
  if (S.busy) return Promise.reject(new Error("busy"));
  S.busy = true;
  for (const b of document.querySelectorAll(".action-btn")) b.disabled = true;
  try {
    // the answer carries the new position and moves: free once it is drawn, nothing read
    const r = await feed.play(Api.act(gameId, S.token, action, S.view.seq).finally(() => { S.busy = false; }));
    showError(null);
    return r;
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) showError(_("Not accepted: {v0} The table has been refreshed.", { v0: errorText(e) }));
    else if (e instanceof ApiError && e.status === 422) showError(_("Illegal move: {v0}", { v0: errorText(e) }));
    else showError(_("Not accepted: {v0}", { v0: errorText(e) }));
    if (!(e instanceof ApiError) || e.status === 409 || e.status === 0 || S.live !== "live") await refresh().catch(() => {});
    throw e;
  } finally {
    S.busy = false;
    drawnActions = null;
    draw();
  }
}

async function onManual(ev) {
  ev.preventDefault();
  let action;
  try {
    action = JSON.parse(ev.target.move.value);
    if (!action || typeof action !== "object" || typeof action.type !== "string") throw new Error("a move is {\"type\": ..., \"payload\": {...}}");
  } catch (e) {
    showError(_("That is not a move: {message}", { message: e.message }));
    return;
  }
  try { await act({ type: action.type, payload: action.payload || {} }); ev.target.reset(); } catch (e) { /* shown by act */ }
}

// -- undo -----------------------------------------------------------------------
/** The step to go back to so that my last effective move is undone, or null. */
function undoTarget() {
  const hist = S.meta.moves || [];
  for (let i = hist.length - 1; i >= 0; i--) {
    if (hist[i].seat === S.seat) return { move: hist[i].seq, to: i > 0 ? hist[i - 1].seq : 1 };
  }
  return null;
}

function pendingOf(meta) {
  const p = meta.pending_undo;
  if (!p) return null;
  return {
    id: p.request_id ?? p.id ?? p.req,
    seat: p.seat ?? p.by ?? p.requested_by ?? (p.actor ? p.actor.seat : undefined),
    toSeq: p.to_seq,
    approvals: p.approvals || p.approved || [],
    waiting: Array.isArray(p.needed) ? p.needed.filter((s) => !(p.approvals || []).includes(s)) : (p.waiting || null),
  };
}

function drawUndo() {
  const box = $("#undo");
  const p = pendingOf(S.meta);
  const parts = [];
  if (p) {
    const mineReq = p.seat === S.seat;
    const answered = [].concat(p.approvals).includes(S.seat);
    const waiting = p.waiting ? [].concat(p.waiting) : null;
    parts.push(h("div", { class: "undo-request", id: "undo-request" },
      h("p", {}, _("{v0} asked to undo back to step {toSeq}.", { v0: mineReq ? _("You") : seatName(p.seat, S.names), toSeq: p.toSeq })),
      waiting && waiting.length ? h("p", { class: "muted small" }, _("Waiting for {v0}.", { v0: waiting.map((s) => seatName(s, S.names)).join(", ") })) : null,
      !mineReq && !answered && (!waiting || waiting.includes(S.seat)) ? h("div", { class: "row" },
        h("button", { type: "button", id: "undo-approve", class: "primary", onclick: () => answerUndo(p.id, "approve") }, _("Approve undo")),
        h("button", { type: "button", id: "undo-decline", onclick: () => answerUndo(p.id, "decline") }, _("Decline"))) : null));
  }
  const target = undoTarget();
  if (S.view.status === "active" && target && !p) {
    parts.push(h("button", { type: "button", id: "undo-request-btn", dataset: { to: target.to }, onclick: () => requestUndo(target.to) },
      _("Undo my last move (step {move})", { move: target.move })));
    parts.push(h("p", { class: "muted small" }, _("Immediate if nobody has moved since and nothing hidden was revealed; otherwise the other players are asked.")));
  }
  if (!parts.length) parts.push(h("p", { class: "muted small" }, _("Nothing to undo.")));
  clear(box, parts);
}

async function requestUndo(toSeq) {
  try {
    const r = await Api.undo(gameId, S.token, toSeq);
    flash(r.status === "done" ? _("Undone.") : _("Undo requested: waiting for the other players."), "ok");
    showError(null);
  } catch (e) {
    showError(_("Undo refused: {v0}", { v0: errorText(e) }));
  }
  if (S.live !== "live") await refresh();
}

async function answerUndo(req, answer) {
  try {
    await Api.undoAnswer(gameId, S.token, req, answer);
    flash(answer === "approve" ? _("You approved the undo.") : _("You declined the undo."), "ok");
  } catch (e) {
    showError(_("Could not {answer} the undo: {v0}", { answer, v0: errorText(e) }));
  }
  if (S.live !== "live") await refresh();
}

// -- scores, log ----------------------------------------------------------------
function drawScores() {
  const { meta, view } = S;
  const scores = (view.view && Array.isArray(view.view.scores)) ? view.view.scores : null;
  const result = view.result || meta.result;
  const toAct = view.to_act || [];
  const clocks = meta.clocks;
  const ref = refereeMarks();
  const anyAdjust = Object.keys(ref.adjust).length > 0;
  clear($("#scores"), h("table", { class: "scores", id: "scores-table" },
    h("caption", { class: "visually-hidden" }, _("Players & scores")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Player")), h("th", { scope: "col" }, _("Score")),
      anyAdjust ? h("th", { scope: "col" }, _("Referee")) : null,
      result ? h("th", { scope: "col" }, _("Rank")) : null, clocks ? h("th", { scope: "col" }, _("Clock")) : null)),
    h("tbody", {}, (meta.seats || []).map((s) => {
      const sc = result && result.scores ? result.scores[s.seat] : scores ? scores[s.seat] : null;
      const adj = ref.adjust[s.seat] || 0;
      const forfeited = ref.forfeits.has(s.seat);
      return h("tr", { class: [s.seat === S.seat ? "me" : "", toAct.includes(s.seat) ? "to-act" : "", forfeited ? "forfeited" : ""].join(" "), dataset: { seat: s.seat } },
        h("th", { scope: "row" }, h("span", { class: `seat-dot seat-${s.seat}`, "aria-hidden": "true" }), s.name,
          toAct.includes(s.seat) ? h("span", { class: "turn-mark", title: _("to act") }, " ◀", h("span", { class: "visually-hidden" }, _("to act"))) : null,
          forfeited ? h("span", { class: "badge forfeit-badge" }, _("Forfeited")) : null),
        h("td", { class: "num" }, sc === null || sc === undefined ? h("span", { class: "muted" }, scores ? _("hidden") : "—")
          : [String(!result && adj ? sc + adj : sc), !result && adj ? h("span", { class: "muted small" }, " ", _("({score} {adjust})", { score: sc, adjust: signed(adj) })) : null]),
        anyAdjust ? h("td", { class: "num adjust", dataset: { adjust: adj } }, adj ? signed(adj) : "") : null,
        result ? h("td", { class: "num" }, result.ranking ? String(result.ranking[s.seat]) : "") : null,
        clocks ? h("td", { class: `num clock${(clocks.running || []).includes(s.seat) ? " running" : ""}`, dataset: { seat: s.seat } }, clockText(clocks, s.seat)) : null);
    }))));
}

/** Seconds left on a seat's clock now: the running seats' clocks run from `since`, once
 * the seat has made its first move (before it, its first-move allowance runs instead). */
function clockLeft(clocks, seat) {
  if (!clocks || !Array.isArray(clocks.remaining)) return null;
  let left = clocks.remaining[seat];
  if (left === undefined || left === null) return null;
  const timed = !Array.isArray(clocks.moved) || clocks.moved.includes(seat);
  if (S.view && S.view.status === "active" && timed && (clocks.running || []).includes(seat) && clocks.since) {
    left -= Math.max(0, serverNow() - clocks.since);
  }
  return Math.max(0, left);
}

/** A turn-based clock: the move's days and hours left, then the seat's vacation days
 * (spent once the move's days are; projections/fold.py). Before its first move a seat
 * has its first-move allowance (`opening`, a move's days) and no vacation: it runs. */
function daysText(clocks, seat) {
  const fmt = (secs) => _("{days}d {hours}h", { days: Math.floor(secs / 86400), hours: Math.floor((secs % 86400) / 3600) });
  const running = S.view && S.view.status === "active" && (clocks.running || []).includes(seat) && clocks.since;
  const timed = !Array.isArray(clocks.moved) || clocks.moved.includes(seat);
  const spent = running ? Math.max(0, serverNow() - clocks.since) : 0;
  if (!timed && Array.isArray(clocks.opening) && typeof clocks.opening[seat] === "number") return fmt(Math.max(0, clocks.opening[seat] - spent));
  const left = clockLeft(clocks, seat);
  if (left === null) return "";
  const vacation = Math.max(0, ((clocks.vacation || [])[seat] || 0) - Math.max(0, spent - clocks.remaining[seat]));
  return vacation ? _("{left} + vacation {vacation}", { left: fmt(left), vacation: fmt(vacation) }) : fmt(left);
}

function clockText(clocks, seat) {
  if (clocks && clocks.per_move) return daysText(clocks, seat);
  const secs = clockLeft(clocks, seat);
  if (secs === null) return "";
  const m = Math.floor(secs / 60); const sec = Math.floor(secs % 60);
  return `${m}:${String(sec).padStart(2, "0")}`;
}

setInterval(() => {
  if (!S.meta || !S.meta.clocks) return;
  for (const cell of document.querySelectorAll("#scores-table td.clock")) {
    cell.textContent = clockText(S.meta.clocks, Number(cell.dataset.seat));
    cell.classList.toggle("running", (S.meta.clocks.running || []).includes(Number(cell.dataset.seat)));
  }
}, 1000);

function drawLog() {
  const list = $("#log");
  const reverted = takenBack(S.events, S.meta);
  const recent = S.events.slice(-60).reverse();
  clear(list, recent.map((e) => h("li", { value: e.seq, title: reverted.has(e.seq) ? _("taken back") : fmtTime(e.ts), dataset: { seq: e.seq }, class: reverted.has(e.seq) ? "reverted" : null },
    h("span", { class: "seq" }, e.seq), " ", S.renderer.describeEvent(e, S.names))));
}

main().catch((e) => {
  console.error(e);
  fatal(root, _("Something went wrong"), _("The table could not be drawn: {v0}", { v0: e.message || e }), [[_("Back to the lobby"), "/"]]);
});
