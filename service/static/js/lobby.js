// Lobby: list and filter games, create a game, hand out seat / spectator / referee links.
import { t as _, tn } from "./i18n.js";
import { Api } from "./api.js";
import { session } from "./session.js";
import { h, clear, $, flash, errorText, humanize, statusBadge, fmtTime, copyButton, seatName } from "./shell.js";

let types = [];
const DEFAULT_NAMES = ["Ada", "Brunel", "Curie", "Darwin", "Euler", "Faraday", "Gauss", "Hopper"];

async function main() {
  try {
    types = await Api.gameTypes();
  } catch (e) {
    flash(_("Could not load the game types: {v0}", { v0: errorText(e) }), "error", { sticky: true });
    types = [];
  }
  const gameSel = $("#create-game");
  const filterSel = $("#filter-game");
  for (const t of types) {
    gameSel.append(h("option", { value: t.name }, tn(t.title || humanize(t.name))));
    filterSel.append(h("option", { value: t.name }, tn(t.title || humanize(t.name))));
  }
  if (!types.length) {
    gameSel.append(h("option", { value: "" }, _("No games available")));
    $("#create-submit").disabled = true;
  }
  const params = new URLSearchParams(location.search);
  if (params.get("game")) filterSel.value = params.get("game");
  if (params.get("status")) $("#filter-status").value = params.get("status");

  gameSel.addEventListener("change", () => buildForm());
  $("#create-count").addEventListener("change", () => buildSeats());
  $("#create-form").addEventListener("submit", onCreate);
  $("#filter-game").addEventListener("change", () => { syncFilterUrl(); loadList(); });
  $("#filter-status").addEventListener("change", () => { syncFilterUrl(); loadList(); });
  $("#filter-refresh").addEventListener("click", () => loadList());
  for (const radio of document.querySelectorAll("#create-mode input[name=mode]")) radio.addEventListener("change", () => showMode());
  showMode();
  buildForm();
  await Promise.all([loadList(), loadTables()]);
  setInterval(() => { if (!document.hidden) { loadList(true); loadTables(); } }, 15000);
}

function currentType() { return types.find((t) => t.name === $("#create-game").value); }

function buildForm() {
  const t = currentType();
  const count = $("#create-count");
  clear(count);
  clear($("#create-options"), h("legend", {}, _("Options")));
  if (!t) return;
  $("#create-game-info").textContent = [
    _("{n} players", { n: t.min_seats === t.max_seats ? t.min_seats : `${t.min_seats}–${t.max_seats}` }),
    t.hidden_information ? _("hidden information") : _("open information"),
    t.chance ? _("chance") : _("no chance"),
  ].join(" · ");
  for (let n = t.min_seats; n <= t.max_seats; n++) count.append(h("option", { value: n }, _("{n} players", { n })));
  buildSeats();
  const opts = $("#create-options");
  const entries = Object.entries(t.options || {});
  if (!entries.length) opts.append(h("p", { class: "muted small" }, _("This game has no options.")));
  for (const [name, spec] of entries) opts.append(optionField(name, spec || {}));
}

function optionField(name, spec) {
  const type = String(spec.type || "string").toLowerCase();
  const label = tn(humanize(name));
  const data = { dataset: { option: name, kind: type } };
  if (Array.isArray(spec.choices) && spec.choices.length) {
    const sel = h("select", { name: `opt_${name}`, ...data },
      spec.choices.map((c) => h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(spec.default) }, c === null ? _("none") : typeof c === "string" ? tn(humanize(c)) : String(c))));
    return h("label", {}, label, sel);
  }
  if (type.startsWith("bool")) {
    return h("label", { class: "inline" }, h("input", { type: "checkbox", name: `opt_${name}`, checked: !!spec.default, ...data }), ` ${label}`);
  }
  if (type.startsWith("int") || type === "number" || type === "float") {
    return h("label", {}, label, h("input", { type: "number", name: `opt_${name}`, value: spec.default ?? "", step: type.startsWith("int") ? 1 : "any", min: spec.min, max: spec.max, ...data }));
  }
  return h("label", {}, label, h("input", { type: "text", name: `opt_${name}`, value: spec.default ?? "", ...data }));
}

function buildSeats() {
  const n = Number($("#create-count").value || 0);
  const box = $("#create-seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  const oldPlayers = [...box.querySelectorAll("select[data-player]")].map((s) => s.value);
  const t = currentType();
  clear(box, h("legend", {}, _("Seat names")));
  for (let i = 0; i < n; i++) {
    const name = h("label", { class: "seat-name" }, h("span", { class: `seat-dot seat-${i}` }), _("Seat {i}", { i }),
      h("input", { type: "text", name: `seat_${i}`, value: old[i] || DEFAULT_NAMES[i] || _("Player {v0}", { v0: i + 1 }), maxlength: 60, required: true }));
    box.append(h("div", { class: "seat-row" }, name, t && t.computer_seats ? playerSelect(i, oldPlayers[i]) : null));
  }
}

// Who plays a seat: a person (who gets a seat link) or a computer of strength 1-3
// (docs/BOTS.md), which the server's bot runner plays through the ordinary API path.
function playerSelect(i, value) {
  const choices = [["person", _("A person")], ...[1, 2, 3].map((n) => [String(n), _("Computer, strength {n}", { n })])];
  return h("select", { name: `player_${i}`, dataset: { player: String(i) }, "aria-label": _("Who plays seat {i}", { i }) },
    choices.map(([v, label]) => h("option", { value: v, selected: v === (value || "person") }, label)));
}

function readBots() {
  return [...document.querySelectorAll("#create-seats select[data-player]")]
    .filter((s) => s.value !== "person")
    .map((s) => ({ seat: Number(s.dataset.player), strength: Number(s.value) }));
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("#create-options [data-option]")) {
    const name = input.dataset.option;
    const kind = input.dataset.kind;
    if (input.tagName === "SELECT") options[name] = JSON.parse(input.value);
    else if (input.type === "checkbox") options[name] = input.checked;
    else if (input.type === "number") { if (input.value !== "") options[name] = kind.startsWith("int") ? parseInt(input.value, 10) : Number(input.value); }
    else if (input.value !== "") options[name] = input.value;
  }
  return options;
}

/** The form's clock: live (base + increment seconds), turn-based (days per move and
 * vacation days), or none; the same for a game of links and an open table. */
function readClock(form) {
  if (form.clock_base.value) return { base: Number(form.clock_base.value), increment: Number(form.clock_increment.value || 0) };
  if (form.clock_days.value) return { per_move_days: Number(form.clock_days.value), vacation_days: Number(form.clock_vacation.value || 0) };
  return null;
}

// An open table: the logged-in account takes seat 0; the other seats stay free for
// accounts that join from the lobby (or are invited), computers sit where chosen.
function tableMode() { return !!session() && $("#create-mode-table").checked; }

function showMode() {
  const mine = session();
  const radio = $("#create-mode-table");
  radio.disabled = !mine;
  if (!mine) radio.checked = false;
  if (!mine) document.querySelector("#create-mode input[value=links]").checked = true;
  $("#create-mode-note").textContent = mine ? "" : _("Log in to open a table that other accounts join.");
  $("#create-table-fields").hidden = !tableMode();
  // at an open table the accounts that sit down name the seats: only computers are chosen here
  $("#create-seats").classList.toggle("open-table-mode", tableMode());
}

async function onOpenTable(form, t) {
  const body = { game: t.name, seats: Number($("#create-count").value), options: readOptions(), ranked: form.ranked.checked, listed: $("#create-listed").checked };
  const bots = readBots();
  if (bots.some((b) => b.seat === 0)) { flash(_("Seat 0 is yours at an open table: choose a computer for another seat."), "error"); return; }
  if (bots.length) body.bots = bots;
  const invited = $("#create-invited").value.split(",").map((s) => s.trim()).filter(Boolean);
  if (invited.length) body.invited = invited;
  const referee = $("#create-referee").value.trim();
  if (referee) body.referee = referee;
  const clock = readClock(form);
  if (clock) body.clock = clock;
  const button = $("#create-submit");
  button.disabled = true;
  try {
    const table = await Api.openTable(session().token, body);
    location.href = table.status === "started" ? `/games/${encodeURIComponent(table.game_id)}` : `/tables/${encodeURIComponent(table.id)}`;
  } catch (e) {
    flash(_("The table was not opened: {v0}", { v0: errorText(e) }), "error");
    button.disabled = false;
  }
}

async function loadTables() {
  const box = $("#tables-list");
  let tables;
  try {
    tables = (await Api.tables()).tables;
  } catch (e) {
    clear(box, h("p", { class: "error" }, _("Could not list the open tables: {v0}", { v0: errorText(e) })));
    return;
  }
  const mine = session();
  const title = (name) => tn((types.find((t) => t.name === name) || {}).title || humanize(name));
  if (!tables.length) { clear(box, h("p", { class: "muted" }, _("No open tables. Open one: choose “An open table” under New game."))); return; }
  clear(box, h("ul", { class: "open-tables", id: "open-tables" }, tables.map((table) => {
    const seated = mine && table.seats.some((s) => s.account === mine.name);
    const taken = table.seats.length - table.free_seats.length;
    return h("li", { class: "open-table", dataset: { tableId: table.id } },
      h("div", {}, h("strong", {}, title(table.game)), " ",
        h("span", { class: "muted small" }, ...(() => {
          const [before, after] = _("by {name}", { name: "\u0000" }).split("\u0000");  // the name stays as its player wrote it
          return [before, h("span", { translate: "no" }, table.creator), after];
        })(), " · ",
          _("{taken} of {n} seats taken", { taken, n: table.seats.length }), " · ", h("span", { class: "table-clock" }, clockWords(table.clock)))),
      h("div", { class: "actions" },
        seated ? h("a", { class: "button small", href: `/tables/${encodeURIComponent(table.id)}` }, _("Waiting for players"))
          : mine ? h("button", { type: "button", class: "primary small join-table", onclick: (ev) => join(ev.target, table.id) }, _("Join"))
            : h("a", { class: "button small", href: "/account" }, _("Log in to join"))));
  })));
}

/** A table's clock in words, so live and turn-based tables can be told apart in the list. */
function clockWords(clock) {
  if (!clock) return _("no clock");
  if (clock.per_move_days) return clock.per_move_days === 1 ? _("by days: 1 day per move") : _("by days: {n} days per move", { n: clock.per_move_days });
  return _("live: {minutes} min + {seconds} s", { minutes: Math.round(clock.base / 60), seconds: clock.increment || 0 });
}

async function join(button, tableId) {
  button.disabled = true;
  try {
    const table = await Api.takeSeat(tableId, session().token);
    location.href = table.status === "started" ? `/games/${encodeURIComponent(table.game_id)}` : `/tables/${encodeURIComponent(tableId)}`;
  } catch (e) {
    flash(_("Could not take a seat: {v0}", { v0: errorText(e) }), "error");
    button.disabled = false;
    loadTables();
  }
}

async function onCreate(ev) {
  ev.preventDefault();
  const form = ev.target;
  const t = currentType();
  if (!t) return;
  if (tableMode()) { await onOpenTable(form, t); return; }
  const seats = [...document.querySelectorAll("#create-seats input")].map((i) => i.value.trim());
  if (seats.some((s) => !s)) { flash(_("Every seat needs a name."), "error"); return; }
  const body = { game: t.name, seats, options: readOptions() };
  const bots = readBots();
  if (bots.length) body.bots = bots;
  body.ranked = form.ranked.checked;
  const clock = readClock(form);
  if (clock) body.clock = clock;
  const button = $("#create-submit");
  button.disabled = true;
  try {
    const created = await Api.createGame(body);
    showCreated(created, t);
    flash(_("Game {id} created.", { id: created.id }), "ok");
    loadList(true);
  } catch (e) {
    flash(_("The game was not created: {v0}", { v0: errorText(e) }), "error");
  } finally {
    button.disabled = false;
  }
}

function link(path, token) {
  return `${location.origin}${path}${token ? `#token=${encodeURIComponent(token)}` : ""}`;
}

function linkRow(label, url, cls, extra) {
  return h("li", { class: cls },
    h("span", { class: "link-label" }, label),
    h("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "link-url" }, url.replace(/#token=.*/, "#token=…")),
    copyButton(url), extra);
}

function showCreated(created, t) {
  const box = $("#created");
  const game = `/games/${encodeURIComponent(created.id)}`;
  clear(box,
    h("h3", {}, `${tn(t.title || humanize(t.name))} · ${created.id}`),
    h("p", { class: "warn small" }, _("Each seat link is that player's key: send it to them privately. The links are shown only now.")),
    h("ul", { class: "links-list", id: "seat-links" },
      created.seats.map((s) => (s.bot
        ? h("li", { class: "seat-link computer-seat" }, h("span", { class: "link-label" }, _("{name} (seat {seat})", { name: s.name, seat: s.seat })),
          h("span", {}, _("Computer, strength {n}", { n: s.bot })))
        : linkRow(_("{name} (seat {seat})", { name: s.name, seat: s.seat }), link(game, s.token), "seat-link", null)))),
    h("ul", { class: "links-list" },
      linkRow(_("Spectators"), `${location.origin}${game}#spectator`, "spectator-link"),
      linkRow(_("Referee"), link(`${game}/referee`, created.referee_token), "referee-link"),
      linkRow(_("Replay"), `${location.origin}${game}/replay`, "replay-link")),
    h("p", { class: "muted small" }, _("Seed commitment "), h("code", {}, created.seed_commitment || "—")),
    h("button", { type: "button", onclick: () => { box.hidden = true; } }, _("Done")));
  box.hidden = false;
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function syncFilterUrl() {
  const q = new URLSearchParams();
  if ($("#filter-game").value) q.set("game", $("#filter-game").value);
  if ($("#filter-status").value) q.set("status", $("#filter-status").value);
  history.replaceState(null, "", `/${q.toString() ? `?${q}` : ""}`);
}

// The lobby API answers a page at a time ({games, next}); "More games" asks for the next
// page with `next` as the cursor. A refresh reloads as many pages as are shown.
const listed = { games: [], next: null, pages: 1 };

function filters() {
  return { game: $("#filter-game").value, status: $("#filter-status").value };
}

async function loadList(quiet = false) {
  const box = $("#games-list");
  const pages = quiet ? listed.pages : 1;
  const games = [];
  let next = null;
  try {
    for (let n = 0; n < pages; n++) {
      const data = await Api.listGames({ ...filters(), cursor: next });
      games.push(...((data && data.games) || []));
      next = (data && data.next) || null;
      if (!next) break;
    }
  } catch (e) {
    if (!quiet) clear(box, h("p", { class: "error" }, _("Could not list the games: {v0}", { v0: errorText(e) })));
    return;
  }
  Object.assign(listed, { games, next, pages });
  renderList();
}

async function loadMore() {
  const button = $("#games-more");
  button.disabled = true;
  let data;
  try {
    data = await Api.listGames({ ...filters(), cursor: listed.next });
  } catch (e) {
    flash(_("Could not list the games: {v0}", { v0: errorText(e) }), "error");
    button.disabled = false;
    return;
  }
  const known = new Set(listed.games.map((g) => g.id));
  const added = ((data && data.games) || []).filter((g) => !known.has(g.id));
  listed.games.push(...added);
  listed.next = (data && data.next) || null;
  listed.pages += 1;
  renderList();
  // the button keeps the focus while there is more; else the first game it brought
  const first = added.length && $(`#games-table tr[data-game-id="${CSS.escape(added[0].id)}"] a`);
  if (listed.next) $("#games-more").focus();
  else if (first) first.focus();
}

function focusKey() {
  const el = document.activeElement;
  if (!el || !$("#games-list").contains(el)) return null;
  if (el.id === "games-more") return { more: true };
  const row = el.closest("tr[data-game-id]");
  return row ? { game: row.dataset.gameId, index: [...row.querySelectorAll("a, button")].indexOf(el) } : null;
}

function restoreFocus(key) {
  if (!key) return;
  if (key.more) { const more = $("#games-more"); if (more) more.focus(); return; }
  const row = $(`#games-table tr[data-game-id="${CSS.escape(key.game)}"]`);
  const target = row && row.querySelectorAll("a, button")[key.index];
  if (target) target.focus();
}

function renderList() {
  const box = $("#games-list");
  const { games } = listed;
  if (!games.length) {
    clear(box, h("p", { class: "muted" }, _("No games match.")));
    $("#games-shown").textContent = "";
    return;
  }
  const focused = focusKey();
  const title = (name) => tn((types.find((t) => t.name === name) || {}).title || humanize(name));
  clear(box, h("table", { class: "games", id: "games-table" },
    h("thead", {}, h("tr", {}, [_("Game"), _("Players"), _("Status"), _("Step"), _("Waiting for"), _("Created"), ""].map((c) => h("th", {}, c)))),
    h("tbody", {}, games.map((g) => {
      const names = (g.seats || []).map((s) => s.name);
      return h("tr", { dataset: { gameId: g.id } },
        h("td", {}, h("strong", {}, g.title ? tn(g.title) : title(g.game)), h("div", { class: "muted small" }, g.id,
          g.ranked ? _(" · ranked") : "", g.forked_from ? _(" · fork") : "", g.tournament ? [" · ", h("a", { href: `/tournaments/${encodeURIComponent(g.tournament)}` }, _("tournament game"))] : "")),
        h("td", { translate: "no" }, names.join(", ")),
        h("td", {}, statusBadge(g.status)),
        h("td", {}, String(g.seq ?? "")),
        g.status === "finished" ? h("td", {}, resultText(g, names)) : h("td", { translate: "no" }, (g.to_act || []).map((s) => seatName(s, names)).join(", ")),
        h("td", { class: "small" }, fmtTime(g.created_at)),
        h("td", { class: "actions" },
          h("a", { href: `/games/${encodeURIComponent(g.id)}#spectator`, class: "button small" }, g.status === "finished" ? _("Final board") : _("Watch")),
          h("a", { href: `/games/${encodeURIComponent(g.id)}/replay`, class: "button small" }, _("Replay"))));
    }))),
    listed.next ? h("button", { type: "button", id: "games-more", onclick: loadMore }, _("More games")) : null);
  restoreFocus(focused);
  // a live region that exists from the start: only a change of the count is announced
  const shown = _("Games shown: {n}", { n: games.length });
  if ($("#games-shown").textContent !== shown) $("#games-shown").textContent = shown;
}

function resultText(g, names) {
  const r = g.result;
  if (!r || !r.ranking) return _("Finished");
  const winners = r.ranking.map((rank, s) => (rank === 1 ? seatName(s, names) : null)).filter(Boolean);
  // the players' names stay as they wrote them: marked translate="no"
  const [before, after] = _("Won by {v0}", { v0: "\u0000" }).split("\u0000");
  return [before, h("span", { translate: "no" }, winners.join(" & ")), after];
}

main();
