// Shared helpers of every page: DOM building, messages, tokens, renderers, formatting.
import { t as _, tn } from "./i18n.js";
import { enhanceBoard, hasFocus } from "./board_keys.js";
import { ApiError } from "./api.js";

import { h, clear, $ } from "./dom.js";

export { h, clear, $ };

// -- messages -------------------------------------------------------------------
let flashTimer = null;
/** A message banner at the top of the page. kind: "error" | "ok" | "info". */
export function flash(message, kind = "info", { sticky = false } = {}) {
  const el = document.getElementById("flash");
  if (!el) return;
  el.className = `flash flash-${kind}`;
  el.textContent = message;
  el.hidden = false;
  clearTimeout(flashTimer);
  if (!sticky) flashTimer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 9000 : 4000);
}

/** The words a person should read for an API error. */
export function errorText(err) {
  if (err instanceof ApiError) {
    const fields = err.status === 400 && err.details && typeof err.details === "object"
      ? Object.entries(err.details).filter(([k]) => k !== "seq").map(([k, v]) => `${k}: ${[].concat(v).join(", ")}`).join("; ")
      : "";
    return fields ? `${err.message} (${fields})` : err.message;
  }
  return (err && err.message) || String(err);
}

/** Replace the page body with a clear, human message (bad token, unknown game). */
export function fatal(root, title, message, links = []) {
  clear(root, h("section", { class: "panel narrow fatal", role: "alert", id: "fatal" },
    h("h2", {}, title),
    h("p", {}, message),
    links.length ? h("p", { class: "links" }, links.map(([text, href]) => h("a", { href, class: "button" }, text))) : null));
}

// -- tokens (only ever from the URL fragment; kept in sessionStorage, never sent in a URL) --
/**
 * The token for this game and role. A link fragment `#token=...` wins and is then removed
 * from the address bar; `#spectator` forgets the stored one. role: "seat" | "referee".
 */
export function takeToken(gameId, role) {
  const key = `boardroom:${role}:${gameId}`;
  const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
  let token = null;
  let fromLink = false;
  try {
    if (frag.get("token")) {
      token = frag.get("token");
      fromLink = true;
      sessionStorage.setItem(key, token);
    } else if (frag.has("spectator") || frag.has("spectate")) {
      sessionStorage.removeItem(key);
    } else {
      token = sessionStorage.getItem(key);
    }
  } catch (e) {
    token = frag.get("token");
  }
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  // A new link opened in this tab (#token=..., #spectator) changes only the fragment:
  // start the page again with it.
  window.addEventListener("hashchange", () => location.reload());
  return {
    token, fromLink,
    forget: () => { try { sessionStorage.removeItem(key); } catch (e) { /* none */ } },
    keep: (newToken) => { try { sessionStorage.setItem(key, newToken); } catch (e) { /* none */ } },
  };
}

// -- game renderers -------------------------------------------------------------
const renderers = {};

/** The game's board module (/static/games/<game>.js), falling back to generic.js. */
export async function loadRenderer(game) {
  if (renderers[game]) return renderers[game];
  const generic = await import("/static/games/generic.js");
  let mod = null;
  let problem = null;
  if (/^[a-z0-9_]+$/.test(game || "")) {
    try {
      mod = await import(`/static/games/${game}.js`);
      if (typeof mod.render !== "function") { problem = _("has no render()"); mod = null; }
    } catch (e) {
      problem = _("could not be loaded ({v0})", { v0: e.message || e });
      console.warn(`renderer for ${game}`, e);
    }
  }
  const renderer = {
    game,
    custom: !!mod,
    problem,
    render(root, view, ctx) {
      const refocus = hasFocus(root);
      const drawn = this.draw(root, view, ctx);
      enhanceBoard(root, { refocus });
      return drawn;
    },
    draw(root, view, ctx) {
      if (mod) {
        try {
          root.replaceChildren();
          mod.render(root, view, ctx);
          return true;
        } catch (e) {
          console.error(`renderer ${game} failed`, e);
          root.replaceChildren();
          generic.render(root, view, ctx);
          root.prepend(h("p", { class: "renderer-note" }, _("The {game} board could not be drawn ({message}); showing the generic view.", { game, message: e.message })));
          return false;
        }
      }
      root.replaceChildren();
      generic.render(root, view, ctx);
      return false;
    },
    /** Lines of words about the viewer's own things (hand, stock), from the game's module. */
    describePosition(view, ctx) {
      if (mod && typeof mod.describePosition === "function") {
        try { return [].concat(mod.describePosition(view, ctx) || []).map(String); } catch (e) { console.warn(e); }
      }
      return ownThings(view, ctx);
    },
    describeAction(action, view) {
      if (mod && typeof mod.describeAction === "function") {
        try { const s = mod.describeAction(action, view); if (s) return String(s); } catch (e) { console.warn(e); }
      }
      return generic.describeAction(action, view);
    },
    describeEvent(event, names) {
      const platform = describePlatformEvent(event, names);
      if (platform) return platform;
      if (event.payload && event.payload.hidden) {
        return _("{v0}: {v1} (hidden)", { v0: actorName(event.actor, names), v1: tn(humanize(localType(event.type))) });
      }
      if (mod && typeof mod.describeEvent === "function") {
        try { const s = mod.describeEvent(event, names); if (s) return String(s); } catch (e) { console.warn(e); }
      }
      return generic.describeEvent(event, names);
    },
  };
  renderers[game] = renderer;
  return renderer;
}

/** The viewer's own stock and hidden hand in words, read from the usual places of a
 * view (players[] or seats[] entry of the seat, `you`): numbers and short lists. */
function ownThings(view, ctx) {
  if (!view || ctx.seat === null || ctx.seat === undefined) return [];
  const lists = [view.players, view.seats].filter(Array.isArray);
  let mine = null;
  for (const l of lists) {
    mine = l.find((p) => p && typeof p === "object" && p.seat === ctx.seat) || (l[ctx.seat] && typeof l[ctx.seat] === "object" ? l[ctx.seat] : null);
    if (mine) break;
  }
  const parts = [];
  const say = (k, v) => {
    if (["seat", "name", "character", "passed"].includes(k)) return;
    if (typeof v === "number") parts.push(_("{what} {n}", { what: _(humanize(k)), n: v }));
    else if (typeof v === "string" && v.length < 40) parts.push(_("{what}: {value}", { what: _(humanize(k)), value: tn(humanize(v)) }));
    else if (Array.isArray(v) && v.length && v.every((x) => typeof x === "string")) parts.push(_("{what}: {value}", { what: _(humanize(k)), value: v.map((x) => tn(humanize(x))).join(", ") }));
  };
  if (mine) for (const [k, v] of Object.entries(mine)) say(k, v);
  if (view.you && typeof view.you === "object") for (const [k, v] of Object.entries(view.you)) say(k, v);
  return parts.length ? [_("Yours: {things}", { things: parts.join(", ") })] : [];
}

// -- the effective history ---------------------------------------------------------
/**
 * The seqs of the game moves an undo or rewind took back. The server says which moves
 * stand (``meta.moves``); every other game move of the log up to ``meta.seq`` was
 * taken back. The client folds nothing itself.
 */
export function takenBack(events, meta) {
  const prefix = `${meta.game}.`;
  const stand = new Set((meta.moves || []).map((m) => m.seq));
  return new Set(events.filter((e) => String(e.type).startsWith(prefix) && e.seq <= meta.seq && !stand.has(e.seq))
    .map((e) => e.seq));
}

// -- words ------------------------------------------------------------------------
export function humanize(s) {
  const t = String(s ?? "").replace(/[_.]+/g, " ").trim();
  return t ? t[0].toUpperCase() + t.slice(1) : "";
}

export function localType(type) {
  const s = String(type || "");
  const i = s.indexOf(".");
  return i >= 0 ? s.slice(i + 1) : s;
}

export function seatName(seat, names) {
  if (seat === null || seat === undefined) return "—";
  const n = names && names[seat];
  return n ? `${n}` : _("Seat {seat}", { seat });
}

export function actorName(actor, names) {
  if (!actor) return _("System");
  if (actor.seat !== undefined && actor.seat !== null) return seatName(actor.seat, names);
  if (actor.role === "referee") return actor.name && String(actor.name).toLowerCase() !== "referee" ? _("Referee {name}", { name: actor.name }) : _("Referee");
  if (actor.role === "system") return _("System");
  return humanize(actor.role || "someone");
}

/** Log lines for the platform's own events (game.*, referee.*); null for a game's events. */
export function describePlatformEvent(e, names) {
  const p = e.payload || {};
  const who = actorName(e.actor, names);
  const why = p.reason ? ` — “${p.reason}”` : "";
  switch (e.type) {
    case "game.created": return _("Game created for {v0} players", { v0: (p.seats || names || []).length || "?" });
    case "game.finished": return p.result && p.result.scores ? _("Game finished — scores {scores}", { scores: p.result.scores.join(" / ") }) : _("Game finished");
    case "game.undo": return _("{who} undid back to step {to_seq}", { who, to_seq: p.to_seq });
    case "game.undo_requested": return _("{who} asked to undo back to step {to_seq}", { who, to_seq: p.to_seq });
    case "game.undo_approved": return _("{who} approved the undo", { who });
    case "game.undo_declined": return _("{who} declined the undo", { who });
    case "referee.pause": return _("{who} paused the game{why}", { who, why });
    case "referee.resume": return _("{who} resumed the game{why}", { who, why });
    case "referee.rewind": return _("{who} rewound to step {to_seq}{why}", { who, to_seq: p.to_seq, why });
    case "referee.adjust": return _("{who} adjusted {v0} by {v1}{points}{why}", { who, v0: seatName(p.seat, names), v1: p.points > 0 ? "+" : "", points: p.points, why });
    case "referee.forfeit": return _("{who} declared {v0} forfeited{why}", { who, v0: seatName(p.seat, names), why });
    case "referee.dismiss": return _("{who} dismissed a dispute{why}", { who, why });
    case "dispute.raised": return _("{who} disputed step {seq}", { who, seq: p.at_seq });
    case "seat.bound": return _("{v0} is played by the account {account}", { v0: seatName(p.seat, names), account: p.account });
    case "bot.picked": return _("The computer playing {v0} starts thinking; its clock runs", { v0: seatName(p.seat, names) });
    default:
      if (String(e.type).startsWith("game.") || String(e.type).startsWith("referee.")) {
        return `${who}: ${humanize(localType(e.type))}${why}`;
      }
      return null;
  }
}

export function shortHash(h, n = 12) {
  if (!h) return "—";
  return String(h).slice(0, n) + (String(h).length > n ? "…" : "");
}

export function fmtTime(ts) {
  if (!ts) return "";
  const d = new Date(ts);
  return isNaN(d) ? String(ts) : d.toLocaleString();
}

export function statusBadge(status) {
  return h("span", { class: `badge status-${status}` }, _(humanize(status || "unknown")));
}

/** An audit line: the chain head hash and the seed commitment, copyable. */
export function auditBox(meta, extra = []) {
  return h("section", { class: "panel audit", id: "audit" },
    h("h3", {}, _("Audit")),
    h("dl", {},
      h("dt", {}, _("Chain head")), h("dd", {}, h("code", { id: "head-hash", title: meta.head_hash || "" }, meta.head_hash || "—")),
      h("dt", {}, _("Seed commitment")), h("dd", {}, h("code", { id: "seed-commitment", title: meta.seed_commitment || "" }, meta.seed_commitment || "—")),
      h("dt", {}, _("Events")), h("dd", {}, String(meta.seq ?? "—")),
      extra),
    h("p", { class: "muted small" }, _("Anyone can check a finished game: export its log and "), h("a", { href: "/verify" }, _("verify it")), "."));
}

export function copyButton(text, label = _("Copy")) {
  return h("button", {
    type: "button", class: "small", onclick: async (ev) => {
      try { await navigator.clipboard.writeText(text); ev.target.textContent = _("Copied"); }
      catch (e) { ev.target.textContent = _("Select and copy"); }
      setTimeout(() => { ev.target.textContent = label; }, 1500);
    },
  }, label);
}

/** Follow the game's live stream; calls onEvent(data) per appended entry.
 * `after`: the seq the page has already drawn, so an entry appended between that read
 * and the stream's start is not missed. The browser reconnects by itself after a
 * dropped connection; after a refusal (e.g. 503 when a worker serves its maximum of
 * streams) EventSource gives up, so we open a new one after a growing, jittered delay,
 * resuming after the last id. */
export function follow(gameId, onEvent, onState, after = null) {
  if (!window.EventSource) return { close() {} };
  let es = null, lastId = after ? String(after) : null, delay = 1000, closed = false, timer = null;
  const open = () => {
    const query = lastId ? `?after=${encodeURIComponent(lastId)}` : "";
    es = new EventSource(`/api/games/${encodeURIComponent(gameId)}/stream${query}`);
    const deliver = (m) => {
      let data = null;
      try { data = JSON.parse(m.data); } catch (e) { data = null; }
      if (m.lastEventId) lastId = m.lastEventId;
      if (data) onEvent(data, m.lastEventId);
    };
    es.addEventListener("appended", deliver);
    es.addEventListener("chat", (m) => {  // the chat's state as a spectator may know it (chat.js)
      let mark = null;
      try { mark = JSON.parse(m.data).mark; } catch (e) { return; }
      window.dispatchEvent(new CustomEvent("chat-mark", { detail: { gameId, mark } }));
    });
    es.onmessage = deliver;
    es.onopen = () => { delay = 1000; onState && onState("live"); };
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED) { onState && onState("reconnecting"); return; }
      onState && onState("reconnecting");
      if (!closed) timer = setTimeout(open, delay + Math.random() * 1000);
      delay = Math.min(delay * 2, 30000);
    };
  };
  open();
  const handle = { close() { closed = true; clearTimeout(timer); if (es) es.close(); } };
  window.addEventListener("beforeunload", () => handle.close());
  return handle;
}

/** Run fn at most once at a time; calls during a run schedule one more run. */
export function serial(fn) {
  let running = null;
  let again = false;
  const run = async () => {
    if (running) { again = true; return running; }
    running = (async () => {
      try { do { again = false; await fn(); } while (again); }
      finally { running = null; }
    })();
    return running;
  };
  return run;
}
