// Referee console: /games/<id>/referee#token=<referee token>.
import { t as _, tn } from "./i18n.js";
import { Api, ApiError } from "./api.js";
import { GameFeed } from "./game_feed.js";
import { sentence } from "./sentences.js";
import {
  h, clear, $, flash, errorText, fatal, takeToken, loadRenderer, seatName, statusBadge,
  auditBox, humanize, fmtTime, shortHash, takenBack,
} from "./shell.js";

const gameId = document.body.dataset.gameId;
const root = document.getElementById("referee-root");
const S = { token: null, meta: null, view: null, events: [], annotations: [], renderer: null, names: [], live: "connecting" };
const NOTES_EVERY_MS = 15000;  // new annotations are not log entries: asked for, after the last one
let feed = null;

async function main() {
  const t = takeToken(gameId, "referee");
  S.token = t.token;
  const back = [[_("Open the table as a spectator"), `/games/${encodeURIComponent(gameId)}#spectator`], [_("Back to the lobby"), "/"]];
  if (!S.token) {
    return fatal(root, _("The referee link is needed"),
      _("The referee console only opens from the game's referee link (it carries the referee's token). Ask the organiser who created the game."), back);
  }
  try {
    S.meta = await Api.meta(gameId);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return fatal(root, _("No such game"), _("There is no game with the id “{gameId}”.", { gameId }), [[_("Back to the lobby"), "/"]]);
    return fatal(root, _("The console could not be opened"), errorText(e), back);
  }
  try {
    S.view = await Api.view(gameId, S.token);
  } catch (e) {
    t.forget();
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      return fatal(root, _("This referee link is not valid"), _("The token in this link is not this game's referee token."), back);
    }
    return fatal(root, _("The console could not be opened"), errorText(e), back);
  }
  if (!S.view.viewer || S.view.viewer.role !== "referee") {
    t.forget();
    return fatal(root, _("This is not a referee link"),
      _("The token in this link belongs to a player's seat, not to the referee. Players play at the table."),
      [[_("Go to the table"), `/games/${encodeURIComponent(gameId)}`], [_("Back to the lobby"), "/"]]);
  }
  try { sessionStorage.setItem(`boardroom:referee:${gameId}`, S.token); } catch (e) { /* none */ }
  S.names = (S.meta.seats || []).map((s) => s.name);
  S.renderer = await loadRenderer(S.meta.game);
  // Read once; then the referee's socket pushes each entry with the referee's view, and
  // the console appends what is new (log lines, annotations) instead of reading it all.
  feed = new GameFeed(gameId, S.token, { onState: (state) => { S.live = state; } });
  const [, ann] = await Promise.all([feed.load({ meta: S.meta, view: S.view }), Api.annotations(gameId, S.token)]);
  S.annotations = ann.annotations || [];
  layout();
  sync();
  draw();
  feed.onChange = () => { sync(); draw(); };
  feed.follow();
  setInterval(() => { if (!document.hidden) newNotes(); }, NOTES_EVERY_MS);
  feed.whileDown(refresh);
}

/** The console's state from the feed's; a referee entry that settles a dispute marks it. */
let synced = 0;  // the feed's entries looked at for settled disputes
function sync() {
  for (const e of feed.events.slice(synced)) {
    if (e.type === "dispute.raised") {  // it raises its dispute, it does not settle it
      if (synced) newNotes();  // the new dispute's note: one request per dispute, not per entry
      continue;
    }
    const dispute = e.payload && e.payload.dispute;
    const note = dispute !== undefined && dispute !== null && S.annotations.find((a) => String(a.id) === String(dispute));
    if (note) note.resolution = { seq: e.seq, type: e.type, reason: e.payload.reason || "" };
  }
  synced = feed.events.length;
  S.meta = feed.meta;
  S.view = feed.view;
  S.events = feed.events;
}

/** Annotations added since the last one the console has (one request, not per entry). */
async function newNotes() {
  const last = S.annotations.length ? S.annotations[S.annotations.length - 1].id : null;
  try {
    const page = await Api.annotationsAfter(gameId, S.token, last);
    if (page.annotations.length) { S.annotations.push(...page.annotations); drawDisputes(); }
  } catch (e) { /* the next turn asks again */ }
}

/** Read everything again: only while the live link is down. */
async function refresh() {
  try {
    const ann = await Api.annotations(gameId, S.token);
    S.annotations = ann.annotations || [];
    await feed.refill();
  } catch (e) {
    flash(_("Could not refresh: {v0}", { v0: errorText(e) }), "error");
  }
}

function seatSelect(name) {
  return h("select", { name, required: true }, S.meta.seats.map((s) => h("option", { value: s.seat }, _("{name} (seat {seat})", { name: s.name, seat: s.seat }))));
}

function disputeSelect() {
  return h("select", { name: "dispute", class: "dispute-select", "aria-label": _("Settles dispute") }, h("option", { value: "" }, _("— no dispute —")));
}

function layout() {
  clear(root,
    h("header", { class: "game-head" },
      h("div", {},
        h("h1", {}, _("{v0} — referee", { v0: tn(S.meta.title || humanize(S.meta.game)) })),
        h("div", { class: "muted small" }, _("Game {gameId} · ", { gameId }), S.names.join(", "))),
      h("div", { class: "head-right" }, h("span", { class: "you" }, _("Referee")), h("span", { id: "status" }),
        h("a", { class: "button small", href: `/games/${encodeURIComponent(gameId)}/replay` }, _("Replay")),
        h("a", { class: "button small", href: "/verify" }, _("Verify")))),
    h("div", { id: "turn", class: "turn-banner" }),
    h("div", { class: "table-cols" },
      h("div", { class: "main-col" },
        h("section", { class: "board-wrap panel" }, h("div", { id: "board", class: "board" })),
        h("section", { class: "panel", id: "log-panel" }, h("h3", {}, _("Log (click a step to rewind to it)")),
          h("ol", { id: "referee-log", class: "log replay-log", tabindex: 0, "aria-label": _("Log") }))),
      h("aside", { class: "side" },
        h("section", { class: "panel", id: "pause-panel" }, h("h3", {}, _("Game flow")),
          h("form", { id: "pause-form", onsubmit: onPause },
            h("label", {}, _("Reason (optional)"), h("input", { type: "text", name: "reason", maxlength: 500 })),
            h("button", { type: "submit", id: "pause-btn", class: "primary" }, _("Pause")))),
        h("section", { class: "panel", id: "rewind-panel" }, h("h3", {}, _("Rewind")),
          h("form", { id: "rewind-form", onsubmit: (ev) => send(ev, "rewind", (f) => ({ to_seq: int(f.to_seq.value), reason: f.reason.value.trim() })) },
            h("label", {}, _("Back to step"), h("input", { type: "number", name: "to_seq", min: 1, required: true, id: "rewind-to" })),
            h("label", {}, _("Reason"), h("input", { type: "text", name: "reason", required: true, maxlength: 500, id: "rewind-reason" })),
            h("label", {}, _("Settles dispute"), disputeSelect()),
            h("button", { type: "submit", id: "rewind-btn" }, _("Rewind")))),
        h("section", { class: "panel", id: "adjust-panel" }, h("h3", {}, _("Adjust a score")),
          h("form", { id: "adjust-form", onsubmit: (ev) => send(ev, "adjust", (f) => ({ seat: int(f.seat.value), points: int(f.points.value), reason: f.reason.value.trim() })) },
            h("label", {}, _("Player"), seatSelect("seat")),
            h("label", {}, _("Points (+/−)"), h("input", { type: "number", name: "points", required: true, step: 1 })),
            h("label", {}, _("Reason"), h("input", { type: "text", name: "reason", required: true, maxlength: 500 })),
            h("label", {}, _("Settles dispute"), disputeSelect()),
            h("button", { type: "submit", id: "adjust-btn" }, _("Adjust")))),
        h("section", { class: "panel", id: "forfeit-panel" }, h("h3", {}, _("Forfeit")),
          h("form", { id: "forfeit-form", onsubmit: (ev) => send(ev, "forfeit", (f) => ({ seat: int(f.seat.value), reason: f.reason.value.trim() })) },
            h("label", {}, _("Player"), seatSelect("seat")),
            h("label", {}, _("Reason"), h("input", { type: "text", name: "reason", required: true, maxlength: 500 })),
            h("label", {}, _("Settles dispute"), disputeSelect()),
            h("button", { type: "submit", id: "forfeit-btn", class: "danger" }, _("Declare forfeit")))),
        h("section", { class: "panel", id: "undo-panel", hidden: true }, h("h3", {}, _("Undo request")), h("div", { id: "undo" })),
        h("section", { class: "panel", id: "disputes-panel" }, h("h3", {}, _("Disputes")), h("div", { id: "disputes" })),
        h("section", { class: "panel", id: "export-panel" }, h("h3", {}, _("Export")),
          h("p", { class: "small" }, _("The whole log as JSON Lines, hash-chained; once the game is finished it carries the seed.")),
          h("div", { class: "row" },
            h("button", { type: "button", id: "export-btn", onclick: onExport }, _("Download the log")),
            h("a", { href: "/verify", class: "button" }, _("Verify an export")))),
        h("div", { id: "audit-slot" }))));
}

function int(v) { return parseInt(v, 10); }

function draw() {
  const { meta, view } = S;
  clear($("#status"), statusBadge(view.status));
  const toAct = view.to_act || [];
  clear($("#turn"), view.status === "finished" ? h("strong", {}, _("The game is over."))
    : [view.status === "paused" ? h("strong", {}, _("Paused. ")) : null,
      toAct.length ? _("Waiting for {v0}. ", { v0: toAct.map((s) => seatName(s, S.names)).join(", ") }) : "",
      view.view && view.view.summary ? sentence(view.view.summary) : ""]);
  const board = $("#board");
  S.renderer.render(board, view.view, { seat: null, names: S.names, actions: [], act: async () => { throw new Error("The referee does not play"); }, referee: true });
  // pause / resume
  const pb = $("#pause-btn");
  pb.textContent = view.status === "paused" ? _("Resume") : _("Pause");
  pb.disabled = view.status === "finished";
  $("#rewind-to").max = String(meta.seq);
  drawLog();
  drawDisputes();
  drawUndo();
  clear($("#audit-slot"), auditBox(meta));
}

/** The log: new entries appended; what a rewind or undo took back is marked again. */
function drawLog() {
  const logEl = $("#referee-log");
  const reverted = takenBack(S.events, S.meta);
  const drawn = logEl.children.length;
  for (const e of S.events.slice(drawn)) {
    logEl.append(h("li", {
      dataset: { seq: e.seq }, tabindex: 0,
      onclick: () => { $("#rewind-to").value = String(e.seq); $("#rewind-reason").focus(); },
    }, h("span", { class: "seq" }, e.seq), " ", S.renderer.describeEvent(e, S.names)));
  }
  S.events.forEach((e, i) => {
    const li = logEl.children[i];
    li.classList.toggle("reverted", reverted.has(e.seq));
    li.title = `${reverted.has(e.seq) ? "taken back · " : ""}${fmtTime(e.ts)} · ${shortHash(e.hash)}`;
  });
  if (S.events.length > drawn) logEl.scrollTop = logEl.scrollHeight;
}

function drawUndo() {
  const p = S.meta.pending_undo;
  $("#undo-panel").hidden = !p;
  if (!p) return;
  const waiting = (p.needed || []).filter((s) => !(p.approvals || []).includes(s));
  clear($("#undo"),
    h("p", {}, _("{v0} asked to undo back to step {to_seq}.", { v0: seatName(p.seat, S.names), to_seq: p.to_seq })),
    waiting.length ? h("p", { class: "muted small" }, _("Still waiting for {who}; the referee may answer for everyone.", { who: waiting.map((s) => seatName(s, S.names)).join(", ") })) : null,
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", onclick: () => answerUndo(p.id, "approve") }, _("Approve for everyone")),
      h("button", { type: "button", onclick: () => answerUndo(p.id, "decline") }, _("Decline"))));
}

async function answerUndo(id, answer) {
  try {
    await Api.undoAnswer(gameId, S.token, id, answer);
    flash(answer === "approve" ? _("Undo approved.") : _("Undo declined."), "ok");
  } catch (e) { flash(_("Could not {answer}: {v0}", { answer, v0: errorText(e) }), "error"); }
  if (S.live !== "live") await refresh();
}

function drawDisputes() {
  const disputes = S.annotations.filter((a) => a.kind === "dispute");
  const open = disputes.filter((a) => !a.resolution);
  for (const sel of document.querySelectorAll(".dispute-select")) {
    const keep = sel.value;
    clear(sel, h("option", { value: "" }, _("— no dispute —")),
      open.map((a) => h("option", { value: a.id }, `#${a.id} · step ${a.seq}: ${String(a.text).slice(0, 40)}`)));
    sel.value = open.some((a) => String(a.id) === keep) ? keep : "";
  }
  clear($("#disputes"), disputes.length ? h("ul", { class: "annotations" }, disputes.map((a) => h("li", { class: "annotation kind-dispute", dataset: { id: a.id } },
    h("div", { class: "ann-head" }, h("strong", {}, a.author || _("a player")), _(" on step {seq}", { seq: a.seq }), h("span", { class: "muted small" }, ` · ${fmtTime(a.ts)}`)),
    h("p", { class: "ann-text" }, a.text),
    a.resolution
      ? h("p", { class: "resolution done" }, _("Resolved: {v0} at step {seq}", { v0: humanize(String(a.resolution.type).replace(/^referee\./, "")), seq: a.resolution.seq }), a.resolution.reason ? ` — “${a.resolution.reason}”` : "")
      : h("form", { class: "row dismiss-form", onsubmit: (ev) => dismiss(ev, a.id) },
        h("input", { type: "text", name: "reason", placeholder: _("Reason to dismiss"), "aria-label": _("Reason to dismiss"), required: true, maxlength: 500 }),
        h("button", { type: "submit" }, _("Dismiss")),
        h("button", { type: "button", onclick: () => { for (const s of document.querySelectorAll(".dispute-select")) s.value = String(a.id); $("#rewind-to").value = String(Math.max(1, a.seq - 1)); flash(_("Dispute selected in the forms: rewind, adjust or forfeit to settle it."), "info"); } }, _("Settle…")))))) 
    : h("p", { class: "muted small" }, _("No disputes raised.")));
}

async function onPause(ev) {
  ev.preventDefault();
  const reason = ev.target.reason.value.trim();
  const what = S.view.status === "paused" ? "resume" : "pause";
  try {
    await Api.referee(gameId, S.token, what, reason ? { reason } : {});
    ev.target.reset();
    flash(what === "pause" ? _("Game paused.") : _("Game resumed."), "ok");
  } catch (e) { flash(_("Could not {what}: {v0}", { what, v0: errorText(e) }), "error"); }
  if (S.live !== "live") await refresh();
}

async function send(ev, what, build) {
  ev.preventDefault();
  const form = ev.target;
  const body = build(form);
  if (form.dispute && form.dispute.value) body.dispute = /^\d+$/.test(form.dispute.value) ? int(form.dispute.value) : form.dispute.value;
  if ("reason" in body && !body.reason) { flash(_("A reason is required."), "error"); return; }
  try {
    const r = await Api.referee(gameId, S.token, what, body);
    form.reset();
    flash(_("{v0} recorded as step {seq}.", { v0: humanize(what), seq: r.seq }), "ok");
  } catch (e) {
    flash(_("{v0} refused: {v1}", { v0: humanize(what), v1: errorText(e) }), "error");
  }
  if (S.live !== "live") await refresh();
}

async function dismiss(ev, id) {
  ev.preventDefault();
  const reason = ev.target.reason.value.trim();
  try {
    await Api.referee(gameId, S.token, "dismiss", { dispute: id, reason });
    flash(_("Dispute dismissed."), "ok");
  } catch (e) { flash(_("Dismiss refused: {v0}", { v0: errorText(e) }), "error"); }
  if (S.live !== "live") await refresh();
}

async function onExport() {
  try {
    const text = await Api.exportLog(gameId, S.token);
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    const a = h("a", { href: url, download: `game-${gameId}.jsonl` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
    flash(_("Log exported."), "ok");
  } catch (e) { flash(_("Export failed: {v0}", { v0: errorText(e) }), "error"); }
}

main().catch((e) => {
  console.error(e);
  fatal(root, _("Something went wrong"), _("The console could not be drawn: {v0}", { v0: e.message || e }), [[_("Back to the lobby"), "/"]]);
});
