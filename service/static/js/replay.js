// Replay viewer: /games/<id>/replay[?at=N] — step through the log, annotate steps, see disputes.
import { t as _, tn } from "./i18n.js";
import { Api, ApiError } from "./api.js";
import { GameFeed } from "./game_feed.js";
import {
  h, clear, $, flash, errorText, fatal, takeToken, loadRenderer, seatName, statusBadge,
  auditBox, humanize, fmtTime, shortHash, takenBack,
} from "./shell.js";
import { mountEvaluation } from "./evaluation.js";

const MAX_TEXT = 2000;
const gameId = document.body.dataset.gameId;
const root = document.getElementById("replay-root");
const S = {
  token: null, role: "spectator", seat: null, meta: null, events: [], annotations: [], at: 1, max: 1,
  renderer: null, names: [], loadId: 0, view: null, evaluation: null,
};
let feed = null;
const pushed = new Map();  // step -> the view document the push brought for it (the latest steps)

async function main() {
  const t = takeToken(gameId, "seat");
  S.token = t.token;
  if (!S.token) {
    try { S.token = sessionStorage.getItem(`boardroom:referee:${gameId}`); } catch (e) { S.token = null; }
  }
  try {
    S.meta = await Api.meta(gameId);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return fatal(root, _("No such game"), _("There is no game with the id “{gameId}”.", { gameId }), [[_("Back to the lobby"), "/"]]);
    return fatal(root, _("The replay could not be opened"), errorText(e), [[_("Back to the lobby"), "/"]]);
  }
  S.names = (S.meta.seats || []).map((s) => s.name);
  S.renderer = await loadRenderer(S.meta.game);
  // Who am I? The current view tells (and checks the token).
  let v = null;
  try {
    v = await Api.view(gameId, S.token);
    const viewer = v.viewer || {};
    if (viewer.seat !== undefined && viewer.seat !== null) { S.role = "seat"; S.seat = viewer.seat; }
    else if (viewer.role === "referee") S.role = "referee";
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      t.forget();
      S.token = null;
      flash(_("The token of this link is not valid for this game: showing the replay as a spectator."), "error", { sticky: true });
    } else return fatal(root, _("The replay could not be opened"), errorText(e));
  }
  layout();
  if (S.role === "seat" && new URLSearchParams(location.search).has("dispute")) {  // the table's "Dispute a move"
    $("#annotation-kind").value = "dispute";
    $("#annotation-text").focus();
  }
  // One client state with the table's: read once, then kept by the push (the viewer's
  // socket, or the spectators' stream), which brings each new step's view as well.
  feed = new GameFeed(gameId, S.token, {});
  await loadLog(v);
  S.evaluation = mountEvaluation($("#evaluation-slot"), {
    gameId, token: S.token, names: S.names, finished: S.meta.status === "finished", referee: S.role === "referee",
    pick: (seq) => goto(seq),
  });
  const requested = parseInt(new URLSearchParams(location.search).get("at") || "", 10);
  await goto(Number.isFinite(requested) ? requested : S.max, { requested: Number.isFinite(requested) ? requested : null });
  document.addEventListener("keydown", onKey);
  // New steps of an ongoing game extend the timeline; a viewer on the last step follows them.
  if (S.meta.status !== "finished") {
    feed.onChange = () => {
      const following = S.at === S.max;
      fromFeed();
      if (following && S.max !== S.at) goto(S.max);
      else drawControls();
    };
    feed.follow();
  }
}

/** The log, meta and newest step's view from the feed. */
function fromFeed() {
  S.meta = feed.meta;
  S.events = feed.events;
  S.max = Math.max(1, S.meta.seq || S.events.reduce((m, e) => Math.max(m, e.seq), 1));
  if (feed.view) {
    pushed.set(feed.view.at, feed.view);
    for (const at of pushed.keys()) if (pushed.size > 8) pushed.delete(at);
  }
  drawLog();
  drawMarkers();
  drawDisputes();
  drawSeed();
  clear($("#audit-slot"), auditBox(S.meta));
  clear($("#status"), statusBadge(S.meta.status));
}

function layout() {
  clear(root,
    h("header", { class: "game-head" },
      h("div", {},
        h("h1", {}, _("{v0} — replay", { v0: tn(S.meta.title || humanize(S.meta.game)) })),
        h("div", { class: "muted small" }, _("Game {gameId} · ", { gameId }), S.meta.seats.map((s) => s.name).join(", "))),
      h("div", { class: "head-right" },
        h("span", { class: "you" }, S.role === "seat" ? _("As {v0}", { v0: seatName(S.seat, S.names) }) : S.role === "referee" ? _("Referee") : _("Spectator")),
        h("span", { id: "status" }, statusBadge(S.meta.status)),
        h("a", { class: "button small", href: `/games/${encodeURIComponent(gameId)}` }, _("Table")))),
    h("div", { id: "clamp-note", class: "notice", hidden: true }),
    h("section", { class: "panel controls", id: "controls" },
      h("div", { class: "row" },
        h("button", { type: "button", id: "first", title: _("First step (Home)"), onclick: () => goto(1) }, _("« First")),
        h("button", { type: "button", id: "prev", title: _("Previous step (←)"), onclick: () => goto(S.at - 1) }, _("◀ Prev")),
        h("span", { id: "step-label", class: "step-label" }),
        h("button", { type: "button", id: "next", title: _("Next step (→)"), onclick: () => goto(S.at + 1) }, _("Next ▶")),
        h("button", { type: "button", id: "last", title: _("Last step (End)"), onclick: () => goto(S.max) }, _("Last »")),
        h("a", { id: "permalink", class: "permalink small", href: "#" }, _("Link to this step"))),
      h("div", { class: "timeline" },
        h("div", { id: "markers", class: "markers" }),
        h("input", { type: "range", id: "slider", min: 1, max: 1, value: 1, "aria-label": _("Step"),
          oninput: (ev) => goto(parseInt(ev.target.value, 10), { fromSlider: true }) }))),
    h("div", { id: "evaluation-slot" }),
    h("div", { class: "table-cols" },
      h("section", { class: "board-wrap panel" },
        h("p", { id: "step-event", class: "step-event" }),
        h("div", { id: "board", class: "board" })),
      h("aside", { class: "side" },
        h("section", { class: "panel", id: "log-panel" }, h("h3", {}, _("Event log")), h("ol", { id: "replay-log", class: "log replay-log", tabindex: 0, "aria-label": _("Event log") })),
        h("section", { class: "panel", id: "annotations-panel" }, h("h3", {}, _("Annotations on this step")),
          h("div", { id: "step-annotations" }), annotationForm()),
        h("section", { class: "panel", id: "disputes-panel" }, h("h3", {}, _("Disputes")), h("div", { id: "disputes" })),
        h("div", { id: "seed-slot" }),
        h("section", { class: "panel", id: "fork-panel", hidden: !(S.meta.status === "finished" || S.role === "referee") },
          h("h3", {}, _("What if?")),
          h("p", { class: "small" }, _("Start a new, unranked game from the step shown, with fresh seat links.")),
          h("button", { type: "button", id: "fork-btn", onclick: onFork }, _("Fork from this step")),
          h("div", { id: "fork-result" })),
        h("div", { id: "audit-slot" }))));
}

function annotationForm() {
  const kinds = [h("option", { value: "comment" }, _("Comment"))];
  if (S.role === "seat") kinds.push(h("option", { value: "dispute" }, _("Dispute (asks the referee to rule)")));
  return h("form", { id: "annotation-form", class: "annotation-form", onsubmit: onAnnotate },
    h("label", {}, _("Note"), h("textarea", { name: "text", id: "annotation-text", rows: 3, placeholder: _("What happened here?") })),
    h("div", { class: "row" },
      h("select", { name: "kind", id: "annotation-kind", "aria-label": _("Kind of note") }, kinds),
      h("input", { type: "text", name: "author", id: "annotation-author", placeholder: _("Your name (optional)"), "aria-label": _("Your name (optional)"), maxlength: 40,
        value: S.role === "seat" ? S.names[S.seat] || "" : S.role === "referee" ? "referee" : "",
        readonly: S.role !== "spectator", title: S.role !== "spectator" ? _("Notes from a seat or the referee are signed with its name") : null }),
      h("button", { type: "submit", class: "primary", id: "annotation-submit" }, _("Add"))),
    h("p", { id: "annotation-error", class: "action-error", role: "alert", hidden: true }),
    h("p", { class: "muted small", id: "annotation-count" }, _("Up to {MAX_TEXT} characters.", { MAX_TEXT })));
}

async function loadLog(view) {
  try {
    const [, ann] = await Promise.all([
      feed.load({ meta: S.meta, ...(view ? { view } : {}) }), Api.annotations(gameId, S.token),
    ]);
    S.annotations = ann.annotations || [];
  } catch (e) {
    flash(_("Could not load the log: {v0}", { v0: errorText(e) }), "error");
  }
  fromFeed();
}

/** The view document of step `at`: the push's when it brought that step, else read. */
function viewAt(at) {
  const known = pushed.get(at);
  return known ? Promise.resolve({ ...known, seq: S.max }) : Api.view(gameId, S.token, at);
}

async function goto(n, { requested = null, fromSlider = false } = {}) {
  if (!Number.isFinite(n)) n = S.max;
  const target = Math.min(Math.max(1, Math.round(n)), S.max);
  const note = $("#clamp-note");
  if (requested !== null && requested !== target) {
    note.hidden = false;
    note.textContent = requested > S.max
      ? _("Step {requested} is beyond the end of this game; showing the last step, {target}.", { requested, target })
      : _("There is no step {requested}; showing step {target}.", { requested, target });
  } else if (requested === null) note.hidden = true;
  S.at = target;
  if (S.evaluation) S.evaluation.show(S.at, S.max);
  const url = `${location.pathname}?at=${target}`;
  history.replaceState(null, "", url);
  drawControls(fromSlider);
  const id = ++S.loadId;
  let resp;
  try {
    resp = await viewAt(target);
  } catch (e) {
    if (id === S.loadId) flash(_("Could not load step {target}: {v0}", { target, v0: errorText(e) }), "error");
    return;
  }
  if (id !== S.loadId) return; // a later step was asked for meanwhile
  S.view = resp;
  if (resp.at && resp.at !== S.at) { S.at = resp.at; history.replaceState(null, "", `${location.pathname}?at=${resp.at}`); drawControls(); }
  const board = $("#board");
  board.dataset.at = String(S.at);
  S.renderer.render(board, resp.view, { seat: S.seat, names: S.names, actions: [], act: async () => { throw new Error("This is a replay"); }, replay: true });
  root.dataset.at = String(S.at);
  drawStepAnnotations();
}

function drawControls(fromSlider = false) {
  const slider = $("#slider");
  slider.max = String(S.max);
  if (!fromSlider) slider.value = String(S.at);
  const ev = S.events.find((e) => e.seq === S.at);
  clear($("#step-label"), h("strong", { id: "step-at" }, String(S.at)), ` / ${S.max}`);
  $("#permalink").href = `${location.origin}${location.pathname}?at=${S.at}`;
  $("#first").disabled = $("#prev").disabled = S.at <= 1;
  $("#next").disabled = $("#last").disabled = S.at >= S.max;
  clear($("#step-event"), ev ? [h("span", { class: "seq" }, _("Step {seq}", { seq: ev.seq })), " ", S.renderer.describeEvent(ev, S.names),
    h("span", { class: "muted small" }, ` · ${fmtTime(ev.ts)}`)] : h("span", { class: "muted" }, _("Step {at}", { at: S.at })));
  for (const li of document.querySelectorAll("#replay-log li")) {
    const cur = Number(li.dataset.seq) === S.at;
    li.classList.toggle("current", cur);
    if (cur) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    if (cur) li.scrollIntoView({ block: "nearest" });
  }
}

function annotationsAt(seq) { return S.annotations.filter((a) => a.seq === seq); }

function drawLog() {
  const reverted = takenBack(S.events, S.meta);
  clear($("#replay-log"), S.events.map((e) => {
    const anns = annotationsAt(e.seq);
    const disputes = anns.filter((a) => a.kind === "dispute");
    return h("li", { dataset: { seq: e.seq }, tabindex: 0, class: reverted.has(e.seq) ? "reverted" : null,
      title: `${reverted.has(e.seq) ? "taken back later · " : ""}${fmtTime(e.ts)} · ${shortHash(e.hash)}`,
      onclick: () => goto(e.seq), onkeydown: (k) => { if (k.key === "Enter") goto(e.seq); } },
      h("span", { class: "seq" }, e.seq), " ", h("span", { class: "text" }, S.renderer.describeEvent(e, S.names)),
      anns.length - disputes.length ? h("span", { class: "ann-badge", title: _("comments") }, `💬 ${anns.length - disputes.length}`) : null,
      disputes.length ? h("span", { class: "ann-badge dispute", title: _("disputes") }, `⚑ ${disputes.length}`) : null);
  }));
}

function drawMarkers() {
  const box = $("#markers");
  const bySeq = new Map();
  for (const a of S.annotations) { if (!bySeq.has(a.seq)) bySeq.set(a.seq, []); bySeq.get(a.seq).push(a); }
  clear(box, [...bySeq.entries()].map(([seq, list]) => {
    const left = S.max > 1 ? ((seq - 1) / (S.max - 1)) * 100 : 0;
    const dispute = list.some((a) => a.kind === "dispute");
    return h("button", {
      type: "button", class: `marker${dispute ? " dispute" : ""}`, style: `left: ${left}%`, dataset: { seq },
      title: _("Step {seq}: {v0}", { seq, v0: list.map((a) => a.text).join(" · ").slice(0, 200) }), onclick: () => goto(seq),
      "aria-label": _("Annotation on step {seq}", { seq }),
    }, dispute ? "⚑" : "●");
  }));
}

function annotationItem(a) {
  return h("li", { class: `annotation kind-${a.kind}`, dataset: { id: a.id, seq: a.seq } },
    h("div", { class: "ann-head" }, h("strong", {}, a.author || "anonymous"), a.role === "spectator" ? h("span", { class: "muted small" }, " (spectator)") : null, " ",
      h("span", { class: `badge kind-${a.kind}` }, humanize(a.kind)), " ",
      h("a", { href: `?at=${a.seq}`, onclick: (ev) => { ev.preventDefault(); goto(a.seq); } }, _("step {seq}", { seq: a.seq })),
      h("span", { class: "muted small" }, ` · ${fmtTime(a.ts)}`)),
    h("p", { class: "ann-text" }, a.text),
    a.kind === "dispute" ? resolutionLine(a) : null);
}

function resolutionLine(a) {
  const r = a.resolution;
  if (!r) return h("p", { class: "resolution open" }, _("Open: awaiting the referee."));
  return h("p", { class: "resolution done" }, _("Resolved by the referee: "), humanize(localName(r.type)),
    _(" at "), h("a", { href: `?at=${r.seq}`, onclick: (ev) => { ev.preventDefault(); goto(r.seq); } }, _("step {seq}", { seq: r.seq })),
    r.reason ? ` — “${r.reason}”` : "");
}

function localName(t) { return String(t || "").replace(/^referee\./, ""); }

function drawStepAnnotations() {
  const list = annotationsAt(S.at);
  clear($("#step-annotations"), list.length
    ? h("ul", { class: "annotations", id: "annotations-list" }, list.map(annotationItem))
    : h("p", { class: "muted small", id: "annotations-list" }, _("No annotations on this step yet.")));
}

function drawDisputes() {
  const disputes = S.annotations.filter((a) => a.kind === "dispute");
  clear($("#disputes"), disputes.length
    ? h("ul", { class: "annotations" }, disputes.map(annotationItem))
    : h("p", { class: "muted small" }, _("No disputes.")));
}

async function onAnnotate(ev) {
  ev.preventDefault();
  const form = ev.target;
  const err = $("#annotation-error");
  const text = form.text.value.trim();
  const fail = (m) => { err.hidden = false; err.textContent = m; };
  if (!text) return fail(_("An annotation needs some text."));
  if (text.length > MAX_TEXT) return fail(_("An annotation is at most {max} characters; this one has {length}.", { max: MAX_TEXT, length: text.length }));
  const body = { seq: S.at, text, kind: form.kind.value };
  if (form.author.value.trim()) body.author = form.author.value.trim();
  $("#annotation-submit").disabled = true;
  try {
    await Api.annotate(gameId, S.token, body);
    err.hidden = true;
    form.text.value = "";
    flash(body.kind === "dispute" ? _("Dispute raised: the referee has been asked to rule.") : _("Annotation added."), "ok");
    S.annotations = (await Api.annotations(gameId, S.token)).annotations || [];
    fromFeed();
    drawControls();
    drawStepAnnotations();
  } catch (e) {
    fail(_("The annotation was refused: {v0}", { v0: errorText(e) }));
  } finally {
    $("#annotation-submit").disabled = false;
  }
}

async function onFork() {
  try {
    const f = await Api.fork(gameId, S.token, S.at);
    const url = (path, token) => `${location.origin}${path}${token ? `#token=${encodeURIComponent(token)}` : ""}`;
    const game = `/games/${encodeURIComponent(f.id)}`;
    clear($("#fork-result"), h("ul", { class: "links-list small", id: "fork-links" },
      f.seats.map((s) => h("li", {}, h("span", { class: "link-label" }, s.name), h("a", { href: url(game, s.token), target: "_blank", rel: "noopener noreferrer" }, _("seat link")))),
      h("li", {}, h("span", { class: "link-label" }, _("Referee")), h("a", { href: url(`${game}/referee`, f.referee_token), target: "_blank", rel: "noopener noreferrer" }, _("referee link")))));
    flash(_("Fork {id} created from step {at}.", { id: f.id, at: S.at }), "ok");
  } catch (e) {
    flash(_("The fork was refused: {v0}", { v0: errorText(e) }), "error");
  }
}

async function drawSeed() {
  const slot = $("#seed-slot");
  const finished = S.events.find((e) => e.type === "game.finished");
  if (S.meta.status !== "finished" || !finished) { clear(slot); return; }
  const p = finished.payload || {};
  const seed = p.seed ?? p.revealed_seed;
  const box = h("section", { class: "panel", id: "seed" }, h("h3", {}, _("Revealed seed")),
    seed ? h("p", {}, h("code", { id: "seed-value", class: "wrap" }, String(seed))) : h("p", { class: "muted" }, _("The seed is not in the log.")),
    h("p", { class: "muted small", id: "seed-check" }, _("Checking it against the commitment…")));
  clear(slot, box);
  if (!seed) return;
  const verdict = await checkSeed(String(seed), S.meta.seed_commitment);
  $("#seed-check").textContent = verdict === true
    ? _("sha256(seed) equals the seed commitment published when the game was created.")
    : verdict === false
      ? "This browser could not match the seed to the commitment; export the log and run the verify page for the server's check."
      : _("Export the log and use the verify page to check the seed against the commitment.");
}

async function checkSeed(seed, commitment) {
  if (!commitment || !globalThis.crypto || !crypto.subtle) return null;
  const hex = async (bytes) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const candidates = [new TextEncoder().encode(seed)];
  if (/^[0-9a-f]+$/i.test(seed) && seed.length % 2 === 0) candidates.push(new Uint8Array(seed.match(/../g).map((x) => parseInt(x, 16))));
  const want = String(commitment).replace(/^sha256:/, "").toLowerCase();
  for (const c of candidates) if ((await hex(c)) === want) return true;
  return false;
}

function onKey(ev) {
  const tag = (ev.target && ev.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) && ev.target.type !== "range") return;
  if (ev.target.type === "range" && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) return; // the slider handles them
  if (ev.key === "ArrowLeft") { ev.preventDefault(); goto(S.at - 1); }
  else if (ev.key === "ArrowRight") { ev.preventDefault(); goto(S.at + 1); }
  else if (ev.key === "Home") { ev.preventDefault(); goto(1); }
  else if (ev.key === "End") { ev.preventDefault(); goto(S.max); }
}

main().catch((e) => {
  console.error(e);
  fatal(root, _("Something went wrong"), _("The replay could not be drawn: {v0}", { v0: e.message || e }), [[_("Back to the lobby"), "/"]]);
});
