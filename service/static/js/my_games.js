// My games: /my-games. The account's games and open tables, those waiting for it first
// (its turn, an invitation), from GET /api/me/games.
import { t as _, tn } from "./i18n.js";
import { Api } from "./api.js";
import { session } from "./session.js";
import { h, clear, $, flash, errorText, humanize, statusBadge } from "./shell.js";

const root = $("#my-games-root");
let types = [];

async function main() {
  const mine = session();
  if (!mine) {
    clear(root, h("p", { class: "muted" }, _("Log in to see your games: "), h("a", { href: "/account" }, _("Log in"))));
    return;
  }
  try { types = await Api.gameTypes(); } catch (e) { types = []; }
  await draw();
  setInterval(() => { if (!document.hidden) draw(); }, 15000);
}

function title(name) { return tn((types.find((t) => t.name === name) || {}).title || humanize(name)); }

function state(g) {
  if (g.kind === "table") {
    if (g.invited) return h("span", { class: "badge your-turn" }, _("Invited"));
    return h("span", { class: "badge" }, _("Waiting for players"));
  }
  if (g.your_turn) return h("span", { class: "badge your-turn" }, _("Your turn"));
  if (g.status === "finished") return [statusBadge(g.status), g.rank ? [" ", _("place {rank}", { rank: g.rank })] : ""];
  return statusBadge(g.status);
}

async function draw() {
  const mine = session();
  let games;
  try {
    games = (await Api.myGames(mine.token)).games;
  } catch (e) {
    clear(root, h("p", { class: "error" }, errorText(e)));
    return;
  }
  if (!games.length) {
    clear(root, h("p", { class: "muted" }, _("No games yet. Join an open table in the lobby, or open one."), " ", h("a", { href: "/" }, _("Lobby"))));
    return;
  }
  clear(root, h("section", { class: "panel" }, h("ul", { class: "my-games", id: "my-games" }, games.map((g) => h("li", { dataset: { id: g.id, kind: g.kind, yourTurn: String(g.your_turn) } },
    h("div", {}, h("strong", {}, g.title ? tn(g.title) : title(g.game)), " ", state(g),
      h("div", { class: "muted small", translate: "no" }, (g.seats || []).map((s) => s.name || s.account || (s.bot ? _("computer") : "—")).join(", "))),
    h("div", { class: "actions" },
      g.kind === "table" && g.invited ? [
        h("button", { type: "button", class: "primary small accept-table", onclick: (ev) => accept(ev.target, g.id) }, _("Take a seat")),
        h("button", { type: "button", class: "small decline-table", onclick: (ev) => decline(ev.target, g.id) }, _("Decline")),
      ] : null,
      h("a", { class: "button small", href: g.link }, g.kind === "table" ? _("Table") : g.your_turn ? _("Play") : _("Open"))))))));
}

async function accept(button, id) {
  button.disabled = true;
  try {
    const table = await Api.takeSeat(id, session().token);
    location.href = table.status === "started" ? `/games/${encodeURIComponent(table.game_id)}` : `/tables/${encodeURIComponent(id)}`;
  } catch (e) {
    flash(_("Could not take a seat: {v0}", { v0: errorText(e) }), "error");
    draw();
  }
}

async function decline(button, id) {
  button.disabled = true;
  try {
    await Api.declineTable(id, session().token);
    flash(_("Invitation declined."), "ok");
  } catch (e) {
    flash(errorText(e), "error");
  }
  draw();
}

main();
