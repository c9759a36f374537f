// Fallback board renderer: a structured, readable drawing of any game's view.
// Used when a game's own module (/static/games/<game>.js) is missing or throws.
// Same contract as every renderer: render(root, view, ctx), describeAction, describeEvent.
import { t as _, tn } from "/static/js/i18n.js";
import { sentence } from "/static/js/sentences.js";
import { h } from "/static/js/dom.js";

const SKIP = new Set(["summary", "scores"]);


function words(key) {
  const s = String(key).replace(/_/g, " ");
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function isScalar(v) { return v === null || ["string", "number", "boolean"].includes(typeof v); }

function scalar(v, key, ctx) {
  if (v === null || v === undefined) return h("span", { class: "g-null" }, "—");
  if (typeof v === "boolean") return h("span", { class: v ? "g-yes" : "g-no" }, v ? "yes" : "no");
  if ((key === "seat" || key === "owner" || key === "player" || /_seat$/.test(String(key))) && typeof v === "number" && ctx && ctx.names) {
    return h("span", { class: `g-seat seat-${v}` }, ctx.names[v] || _("Seat {v}", { v }));
  }
  return h("span", { class: typeof v === "number" ? "g-num" : "g-str" }, String(v));
}

function isHiddenMarker(v) { return v && typeof v === "object" && !Array.isArray(v) && v.hidden === true && Object.keys(v).length <= 2; }

function value(v, key, ctx, depth) {
  if (isScalar(v)) return scalar(v, key, ctx);
  if (isHiddenMarker(v)) return h("span", { class: "g-hidden" }, v.count !== undefined ? _("{count} hidden", { count: v.count }) : "hidden");
  if (Array.isArray(v)) return list(v, key, ctx, depth);
  return object(v, ctx, depth);
}

function list(arr, key, ctx, depth) {
  if (arr.length === 0) return h("span", { class: "g-null" }, "none");
  if (arr.every(isScalar)) {
    const wrap = h("span", { class: "g-chips" });
    for (const x of arr) wrap.append(h("span", { class: "g-chip" }, scalar(x, key, ctx)));
    return wrap;
  }
  if (arr.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
    const cols = [];
    for (const row of arr) for (const k of Object.keys(row)) if (!cols.includes(k)) cols.push(k);
    if (cols.length <= 16 && arr.every((row) => Object.values(row).every((x) => isScalar(x) || (Array.isArray(x) && x.every(isScalar)) || isHiddenMarker(x)))) {
      const table = h("table", { class: "g-table" });
      const head = h("tr", {});
      const perSeat = /seat|player/i.test(String(key)) && arr.length === (ctx && ctx.names ? ctx.names.length : -1);
      if (perSeat && !cols.includes("seat")) head.append(h("th", {}, ""));
      for (const c of cols) head.append(h("th", {}, words(c)));
      table.append(h("thead", {}, head));
      const body = h("tbody", {});
      arr.forEach((row, i) => {
        const tr = h("tr", {});
        if (perSeat && !cols.includes("seat")) tr.append(h("th", {}, ctx && ctx.names ? (ctx.names[i] || _("Seat {i}", { i })) : `#${i}`));
        if (perSeat && ctx && ctx.seat === i) tr.className = "g-me";
        for (const c of cols) tr.append(h("td", {}, row[c] === undefined ? "" : value(row[c], c, ctx, depth + 1)));
        body.append(tr);
      });
      table.append(body);
      return h("div", { class: "g-scroll" }, table);
    }
  }
  const ol = h("ol", { class: "g-list" });
  arr.forEach((x) => ol.append(h("li", {}, value(x, key, ctx, depth + 1))));
  return ol;
}

function object(obj, ctx, depth) {
  const keys = Object.keys(obj);
  if (keys.length === 0) return h("span", { class: "g-null" }, "empty");
  const dl = h("dl", { class: "g-dl" });
  for (const k of keys) {
    dl.append(h("dt", {}, words(k)));
    dl.append(h("dd", {}, value(obj[k], k, ctx, depth + 1)));
  }
  if (depth >= 2 && keys.length > 6) {
    const d = h("details", { class: "g-more" }, h("summary", {}, _("{length} fields", { length: keys.length })), dl);
    return d;
  }
  return dl;
}

function scoresTable(scores, ctx) {
  const table = h("table", { class: "g-table g-scores" });
  const tr1 = h("tr", {});
  const tr2 = h("tr", {});
  scores.forEach((s, i) => {
    tr1.append(h("th", { class: ctx && ctx.seat === i ? "g-me" : null }, (ctx && ctx.names && ctx.names[i]) || _("Seat {i}", { i })));
    tr2.append(h("td", {}, s === null || s === undefined ? h("span", { class: "g-hidden" }, "hidden") : String(s)));
  });
  table.append(h("thead", {}, tr1), h("tbody", {}, tr2));
  return table;
}

export function render(root, view, ctx = {}) {
  const board = h("div", { class: "generic-board" });
  if (view === null || view === undefined || typeof view !== "object") {
    board.append(h("p", { class: "g-null" }, _("Nothing to show.")));
    root.append(board);
    return;
  }
  if (view.summary) board.append(h("p", { class: "g-summary" }, sentence(String(view.summary))));
  if (Array.isArray(view.scores)) {
    board.append(h("section", { class: "g-section" }, h("h4", {}, _("Scores")), scoresTable(view.scores, ctx)));
  }
  for (const [k, v] of Object.entries(view)) {
    if (SKIP.has(k)) continue;
    const sec = h("section", { class: "g-section" }, h("h4", {}, words(k)), value(v, k, ctx, 0));
    sec.dataset.key = k;
    board.append(sec);
  }
  root.append(board);
}

function payloadWords(payload) {
  if (!payload || typeof payload !== "object") return "";
  const parts = Object.entries(payload).map(([k, v]) => {
    const shown = isScalar(v) ? String(v) : JSON.stringify(v);
    return `${words(k).toLowerCase()} ${shown}`;
  });
  return parts.join(", ");
}

export function describeAction(action) {
  const what = words(action.type || "action");
  const p = payloadWords(action.payload);
  return p ? `${what}: ${p}` : what;
}

export function describeEvent(event, names = []) {
  const a = event.actor || {};
  const who = a.seat !== undefined && a.seat !== null ? (names[a.seat] || _("Seat {seat}", { seat: a.seat })) : (a.role === "referee" ? _("Referee") : _("System"));
  const t = String(event.type || "");
  const local = t.includes(".") ? t.slice(t.indexOf(".") + 1) : t;
  const p = event.payload && event.payload.hidden ? _("(hidden)") : payloadWords(event.payload);
  return `${who}: ${words(local).toLowerCase()}${p ? ` — ${p}` : ""}`;
}
