// A round's broadcast: every table live on one page. Each table follows its game's
// spectator stream (GameFeed: one read on load, then pushes, no request per entry).
// The commentators' omniscient feed (the full state behind the director's delay,
// signed by the server) is read per table on a slow timer only while it is switched on.
import { t as _ } from "/static/js/i18n.js";
import { api } from "/static/js/api.js";
import { errorText } from "/static/js/shell.js";
import { h as el, $, clear } from "/static/js/dom.js";
import { GameFeed } from "/static/js/game_feed.js";

const TID = document.body.dataset.tournamentId;
const ROUND = Number(document.body.dataset.round);
const OMNISCIENT_EVERY_MS = 15000;
const RELOAD_MAX_MS = 30000;
const cards = new Map();  // game_id -> {feed, card}

function delayText(delay) {
  if (!delay || delay.after_game) return _("Full state shown only after each game ends.");
  if (delay.entries !== undefined) return _("Full state shown {n} entries behind play.", { n: delay.entries });
  return _("Full state shown {n} minutes behind play.", { n: delay.minutes });
}

function clockText(clocks, seat, status) {
  if (!clocks || !Array.isArray(clocks.remaining) || clocks.remaining[seat] == null) return "";
  let left = clocks.remaining[seat];
  const timed = !Array.isArray(clocks.moved) || clocks.moved.includes(seat);
  if (status === "active" && timed && (clocks.running || []).includes(seat) && clocks.since) {
    left -= Math.max(0, Date.now() / 1000 - clocks.since);
  }
  left = Math.max(0, left);
  return `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
}

function render(table, feed) {
  const meta = feed.meta || {};
  const drawn = (feed.view && feed.view.view) || {};
  const scores = drawn.scores || (meta.result && meta.result.scores) || [];
  const toAct = meta.to_act || [];
  const disputes = (meta.clocks && meta.clocks.disputes) || [];
  const status = meta.status || "";
  const card = cards.get(table.game_id).card;
  clear(card.querySelector(".b-body"),
    el("p", { class: "small" },
      el("span", { class: `badge b-status b-${status}` }, _(status === "finished" ? "Finished" : status === "paused" ? "Paused" : "Playing")),
      " ", el("span", { class: "muted b-seq" }, _("entry {n}", { n: meta.seq || 0 })),
      disputes.length ? el("span", { class: "badge b-disputes" }, " ", _("{n} open disputes", { n: disputes.length })) : ""),
    drawn.summary ? el("p", { class: "small b-summary" }, String(drawn.summary)) : "",
    el("table", { class: "b-seats" }, el("tbody", {}, ...table.seats.map((s) => el("tr",
      { class: toAct.includes(s.seat) ? "to-act" : "" },
      el("td", { translate: "no" }, s.name || (meta.seats && meta.seats[s.seat] && meta.seats[s.seat].name) || ""),
      el("td", { class: "b-score" }, scores[s.seat] ?? ""),
      el("td", { class: "b-clock", "data-seat": String(s.seat) }, clockText(meta.clocks, s.seat, status)),
    )))));
}

async function omniscient(table) {
  const box = cards.get(table.game_id).card.querySelector(".b-omniscient");
  const frame = await api(`/tournaments/${encodeURIComponent(TID)}/games/${encodeURIComponent(table.game_id)}/omniscient`);
  clear(box,
    el("p", { class: "muted small" }, frame.seq === null
      ? _("Nothing yet: the delay still holds this game back.")
      : _("Full state at entry {n}, signed by key {key}.", { n: frame.seq, key: frame.signature.key_id })),
    frame.position ? el("pre", { class: "b-state small" }, JSON.stringify(frame.position.view, null, 1)) : "");
}

/** The table's first read, tried again (1 s, 2 s, … up to 30 s apart) while it fails:
 * a table left at "Loading…" by one refused read would stay blank for the whole round. */
function start(table, feed, wait = 1000) {
  feed.load().then(() => { render(table, feed); feed.follow(); }, (e) => {
    clear(cards.get(table.game_id).card.querySelector(".b-body"),
      el("p", { class: "error" }, _("Could not load this table: {v0}. Trying again.", { v0: errorText(e) })));
    setTimeout(() => start(table, feed, Math.min(wait * 2, RELOAD_MAX_MS)), wait);
  });
}

let omniscientTimer = null;
function omniscientAll(tables) {
  clearInterval(omniscientTimer);
  const on = $("#b-omniscient").checked;
  for (const t of tables) cards.get(t.game_id).card.querySelector(".b-omniscient").hidden = !on;
  if (!on) return;
  const tick = () => tables.forEach((t) => omniscient(t).catch(() => {}));
  tick();
  omniscientTimer = setInterval(tick, OMNISCIENT_EVERY_MS);
}

async function main() {
  const [summary, round] = await Promise.all([
    api(`/tournaments/${encodeURIComponent(TID)}`),
    api(`/tournaments/${encodeURIComponent(TID)}/rounds/${ROUND}`),
  ]);
  $("#b-name").textContent = summary.name;
  $("#b-round").textContent = _("Round {n}", { n: ROUND });
  $("#b-delay").textContent = delayText(summary.feed_delay);
  $("#b-omniscient-label").textContent = _("Show the delayed full state (for commentators)");
  const grid = $("#b-tables");
  for (const table of round.tables) {
    const card = el("article", { class: "panel b-table", "data-game-id": table.game_id },
      el("h2", {}, el("a", { href: `/games/${encodeURIComponent(table.game_id)}` }, _("Table {n}", { n: table.table }))),
      el("div", { class: "b-body" }, el("p", { class: "muted" }, _("Loading…"))),
      el("div", { class: "b-omniscient", hidden: "" }));
    grid.append(card);
    const feed = new GameFeed(table.game_id, null, { onChange: (f) => render(table, f) });
    cards.set(table.game_id, { feed, card });
    start(table, feed);
  }
  $("#b-omniscient").addEventListener("change", () => omniscientAll(round.tables));
  setInterval(() => {
    for (const table of round.tables) {
      const { feed, card } = cards.get(table.game_id);
      if (!feed.meta) continue;
      for (const cell of card.querySelectorAll("td.b-clock")) {
        cell.textContent = clockText(feed.meta.clocks, Number(cell.dataset.seat), feed.meta.status);
      }
    }
  }, 1000);
}

main().catch((e) => { $("#b-tables").textContent = e.message || String(e); });
