// An open table: /tables/<id>. Who sits where, a link to share, Join or Decline; when the
// last seat is taken the game starts and this page goes to it.
import { t as _, tn } from "./i18n.js";
import { Api, ApiError } from "./api.js";
import { session } from "./session.js";
import { h, clear, $, flash, errorText, fatal, humanize, fmtTime, copyButton } from "./shell.js";

const tableId = document.body.dataset.tableId;
const root = $("#open-table-root");
let types = [];

async function main() {
  try { types = await Api.gameTypes(); } catch (e) { types = []; }
  await draw();
  setInterval(() => { if (!document.hidden) draw(); }, 3000);
}

/** A sentence around a player's name, the name marked as one (translate="no"). */
function aroundName(sentence, name) {
  const [before, after] = sentence.split("\u0000");
  return [before, h("span", { translate: "no" }, name), after];
}

function title(name) { return tn((types.find((t) => t.name === name) || {}).title || humanize(name)); }

async function draw() {
  let table;
  try {
    table = await Api.table(tableId);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return fatal(root, _("No such table"), _("There is no table with the id “{tableId}”.", { tableId }), [[_("Back to the lobby"), "/"]]);
    return flash(errorText(e), "error");
  }
  const mine = session();
  const me = mine && mine.name;
  if (table.status === "started") {
    // the table's referee goes to the game with its referee token, the others as players
    const refereeing = me && me === table.referee ? await Api.tableReferee(tableId, mine.token).catch(() => null) : null;
    location.replace(refereeing ? refereeing.link : `/games/${encodeURIComponent(table.game_id)}`);
    return;
  }
  const seated = me && table.seats.some((s) => s.account === me);
  const kept = (seat) => (table.reserved || {})[String(seat)];
  const mayJoin = me && !seated && table.status === "open" && table.free_seats.some((s) => !kept(s) || kept(s) === me);
  const invited = me && table.invited.includes(me) && !seated;
  const link = `${location.origin}/tables/${encodeURIComponent(tableId)}`;
  clear(root,
    h("section", { class: "panel", id: "table-panel", dataset: { status: table.status } },
      h("h2", {}, title(table.game), table.rematch_of ? [" · ", _("rematch")] : ""),
      h("p", { id: "table-status", role: "status" }, table.status === "expired" ? _("This table has expired: nobody more can sit down.")
        : _("Waiting for {n} more players. The game starts when every seat is taken.", { n: table.free_seats.length })),
      h("ul", { class: "table-seats", id: "table-seats" }, table.seats.map((s) => h("li", { dataset: { seat: String(s.seat) } },
        h("span", {}, h("span", { class: `seat-dot seat-${s.seat}` }), " ", _("Seat {i}", { i: s.seat })),
        h("span", { translate: s.account ? "no" : null }, s.account ? s.account
          : s.bot ? _("Computer, strength {n}", { n: s.bot })
            : kept(s.seat) ? aroundName(_("kept for {name}", { name: "\u0000" }), kept(s.seat)) : h("em", {}, _("free")))))),
      table.referee ? h("p", { id: "table-referee" }, me === table.referee ? _("You referee this game: it opens for you as its referee when it starts.")
        : aroundName(_("Refereed by {name}", { name: "\u0000" }), table.referee)) : null,
      h("p", { class: "muted small" }, aroundName(_("Opened by {name}", { name: "\u0000" }), table.creator), " · ", _("expires {when}", { when: fmtTime(new Date(table.expires_at * 1000).toISOString()) })),
      table.status === "open" ? h("p", { class: "share" }, _("Link to share: "), h("code", {}, link), " ", copyButton(link)) : null,
      h("div", { class: "actions" },
        mayJoin ? h("button", { type: "button", class: "primary", id: "take-seat", onclick: (ev) => take(ev.target) }, _("Take a seat")) : null,
        me === table.creator && table.status === "open" && (types.find((t) => t.name === table.game) || {}).computer_seats
          ? h("button", { type: "button", id: "fill-computers", onclick: (ev) => fill(ev.target) }, _("Computers take the free seats")) : null,
        invited && table.status === "open" ? h("button", { type: "button", id: "decline-table", onclick: (ev) => decline(ev.target) }, _("Decline")) : null,
        !me ? h("a", { class: "button", href: "/account" }, _("Log in to join")) : null,
        h("a", { class: "button", href: "/" }, _("Back to the lobby"))),
      h("p", { class: "muted small" }, _("Seed commitment "), h("code", {}, table.seed_commitment))));
}

async function take(button) {
  button.disabled = true;
  try {
    const table = await Api.takeSeat(tableId, session().token);
    if (table.status === "started") { location.href = `/games/${encodeURIComponent(table.game_id)}`; return; }
    flash(_("You have a seat. The game starts when every seat is taken."), "ok");
  } catch (e) {
    flash(_("Could not take a seat: {v0}", { v0: errorText(e) }), "error");
  }
  draw();
}

async function fill(button) {
  button.disabled = true;
  try {
    const table = await Api.fillTable(tableId, session().token);
    if (table.status === "started") { location.href = `/games/${encodeURIComponent(table.game_id)}`; return; }
  } catch (e) {
    flash(errorText(e), "error");
  }
  draw();
}

async function decline(button) {
  button.disabled = true;
  try {
    await Api.declineTable(tableId, session().token);
    flash(_("Invitation declined."), "ok");
  } catch (e) {
    flash(errorText(e), "error");
  }
  draw();
}

main();
