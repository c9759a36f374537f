// Tournament pages: list + create, and one tournament (registration, director
// controls, pairings per round, standings, links to each game and its replay).
// They use the public HTTP API only (docs/TOURNAMENTS.md). Tokens travel in the link
// fragment (#director=... / #player=...&pid=...), never in a URL the server sees.
import { t as _, tn } from "/static/js/i18n.js";
import { api } from "/static/js/api.js";
import { h as el, $ } from "/static/js/dom.js";
import { session } from "/static/js/session.js";


function flash(message, kind = "error") {
  const box = $("#flash");
  box.textContent = message;
  box.className = `flash flash-${kind}`;
  box.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function fail(e) { flash(e.message || String(e)); }

function fragment() {
  return Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
}

function absolute(path) { return new URL(path, location.origin).href; }

// -- list page ---------------------------------------------------------------------------
async function gameTypes() {
  const types = await api("/game-types").catch(() => []);
  for (const t of types) TITLES[t.name] = tn(t.title);
  return types;
}

async function listPage() {
  const types = await gameTypes();
  const select = $("#create-game");
  for (const t of types) {
    select.append(el("option", { value: t.name }, `${tn(t.title)} (${t.min_seats}–${t.max_seats})`));
  }
  const sizeInput = $("#create-size");
  const describe = () => {
    const t = types.find((x) => x.name === select.value);
    if (!t) return;
    sizeInput.min = Math.max(2, t.min_seats);
    sizeInput.max = t.max_seats;
    if (+sizeInput.value < +sizeInput.min || +sizeInput.value > t.max_seats) sizeInput.value = sizeInput.min;
    $("#create-game-info").textContent = t.max_seats === 2 || +sizeInput.value === 2
      ? _("Two players per game: Swiss pairing.") : _("Tables of several players: seated to meet new opponents.");
  };
  select.addEventListener("change", describe);
  sizeInput.addEventListener("input", describe);
  describe();

  $("#create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = new FormData(event.target);
    let gameOptions = {};
    try { gameOptions = JSON.parse(f.get("game_options") || "{}"); } catch (e) { flash(_("Game options must be JSON")); return; }
    const options = { table_size: +f.get("table_size"), rounds: +f.get("rounds"), game_options: gameOptions };
    if (f.get("clock_base")) {
      options.clock = { base: +f.get("clock_base"), increment: +(f.get("clock_increment") || 0) };
      if (f.get("clock_first_move")) options.clock.first_move = +f.get("clock_first_move");
      if (f.get("pause_on_dispute")) options.clock.pause_on_dispute = true;
    }
    else if (f.get("clock_days")) options.clock = { per_move_days: +f.get("clock_days"), vacation_days: +(f.get("clock_vacation") || 0) };
    if (f.get("late_entries")) options.late_entries = true;
    if (f.get("points")) options.points = f.get("points").split(",").map((x) => +x.trim());
    try {
      const made = await api("/tournaments", { method: "POST", body: { game: f.get("game"), name: f.get("name"), options } });
      const link = absolute(`/tournaments/${made.id}#director=${made.director_token}`);
      const box = $("#created");
      box.replaceChildren(el("div", { class: "token-box" },
        el("strong", {}, _("Tournament created. ")), _("Keep the director link private: it is the only way to pair rounds."),
        el("p", {}, el("a", { href: link, class: "link-url" }, link))));
      box.hidden = false;
      loadList();
    } catch (e) { fail(e); }
  });
  $("#refresh").addEventListener("click", loadList);
  loadList();
}

const TITLES = {};  // game name -> its title in the page's language, from /api/game-types

function formatName(format) {
  return format === "swiss" ? _("Swiss pairing") : _("Fixed tables");
}

function statusName(status) {
  return { registration: _("Registration open"), running: _("Running"), finished: _("Finished") }[status] || status;
}

function roundStatusName(status) {
  return { paired: _("In play"), finished: _("Finished") }[status] || status;
}

function badge(status, text) {
  return el("span", { class: `badge status-${status === "finished" ? "finished" : "active"}` }, text);
}

async function loadList() {
  try {
    const { tournaments } = await api("/tournaments");
    const box = $("#tournaments-list");
    if (!tournaments.length) { box.replaceChildren(el("p", { class: "muted" }, _("No tournament yet."))); return; }
    box.replaceChildren(el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, [_("Name"), _("Game"), _("Format"), _("Players"), _("Round"), _("Status")].map((h) => el("th", {}, h)))),
      el("tbody", {}, tournaments.map((t) => el("tr", {},
        el("td", {}, el("a", { href: `/tournaments/${t.id}`, translate: "no" }, t.name)), el("td", {}, TITLES[t.game] || t.game),
        el("td", {}, formatName(t.format)),
        el("td", {}, t.players), el("td", {}, `${t.round} / ${t.rounds_planned}`),
        el("td", {}, badge(t.status, statusName(t.status))))))));
  } catch (e) { fail(e); }
}

// -- one tournament ----------------------------------------------------------------------
const ctx = { tid: null, director: null, player: null, pid: null };

function keep() {
  const director = ctx.viaAccount ? null : ctx.director;  // an account's session is kept by session.js, not here
  sessionStorage.setItem(`tournament:${ctx.tid}`, JSON.stringify({ director, player: ctx.player, pid: ctx.pid }));
}

function playerLink(p) {
  return absolute(`/tournaments/${ctx.tid}#player=${p.player_token}&pid=${p.pid}`);
}

// A logged-in browser registers as its account (the session goes with the request);
// anyone else by a name, with a way to log in first.
function setUpRegistration() {
  const me = session();
  const form = $("#register-form");
  const name = form.elements.name;
  $("#register-as").hidden = !me;
  $("#register-by-name").hidden = !!me;
  name.required = !me;
  if (me) $("#register-as-name").textContent = me.name;
  $("#register-login").href = `/account?next=${encodeURIComponent(location.pathname)}`;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = session();
    try {
      const mine = who
        ? await api(`/tournaments/${ctx.tid}/players`, { method: "POST", token: who.token, body: {} })
        : await api(`/tournaments/${ctx.tid}/players`, { method: "POST", body: { name: name.value } });
      Object.assign(ctx, { player: mine.player_token, pid: mine.pid });
      keep();
      const link = playerLink(mine);
      $("#registered").replaceChildren(el("div", { class: "token-box" }, el("strong", {}, _("Registered as {name}. ", { name: mine.name })),
        _("Bookmark your player link: it opens your seat in each round's game."),
        el("p", {}, el("a", { href: link, class: "link-url" }, link))));
      $("#registered").hidden = false;
      form.reset();
      refresh();
    } catch (e) {
      if (e.code === "account_name") {
        $("#registered").replaceChildren(el("p", { class: "form-error", role: "alert" }, e.message, " ",
          el("a", { href: `/account?next=${encodeURIComponent(location.pathname)}` }, _("Log in here"))));
        $("#registered").hidden = false;
        return;
      }
      if (e.status === 401 && who) {
        $("#registered").replaceChildren(el("p", { class: "form-error", role: "alert" }, _("Your session has ended; log in again."), " ",
          el("a", { href: `/account?next=${encodeURIComponent(location.pathname)}` }, _("Log in here"))));
        $("#registered").hidden = false;
        return;
      }
      fail(e);
    }
  });
}

// The director registers players on their behalf: one name a line.
async function registerRoster(event) {
  event.preventDefault();
  const names = event.target.elements.roster.value.split("\n").map((x) => x.trim()).filter(Boolean);
  if (!names.length) return;
  try {
    const done = await api(`/tournaments/${ctx.tid}/roster`, { method: "POST", token: ctx.director, body: { names } });
    $("#roster-result").replaceChildren(
      el("p", {}, _("{count} registered. Hand each player their link:", { count: done.registered.length })),
      el("ul", { class: "plain-list roster-links" }, done.registered.map((p) => el("li", {},
        el("span", { translate: "no" }, p.name), el("a", { href: playerLink(p), class: "small" }, _("player link"))))),
      done.refused.length ? el("div", { class: "warn small" }, _("Not registered:"),
        el("ul", {}, done.refused.map((r) => el("li", {}, `${r.name}: ${r.message}`)))) : null);
    $("#roster-result").hidden = false;
    event.target.reset();
    refresh();
  } catch (e) { fail(e); }
}

async function detailPage() {
  ctx.tid = document.body.dataset.tournamentId;
  const types = gameTypes();
  const frag = fragment();
  const stored = JSON.parse(sessionStorage.getItem(`tournament:${ctx.tid}`) || "{}");
  ctx.director = frag.director || stored.director || null;
  ctx.player = frag.player || stored.player || null;
  ctx.pid = frag.pid || stored.pid || null;
  keep();
  // As on the game pages: the token leaves the address bar (and so history and screen shares).
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  window.addEventListener("hashchange", () => location.reload());
  $("#t-export").href = `/api/tournaments/${ctx.tid}/export`;
  const me = session();
  if (!ctx.director && me) {  // an account the tournament made a director directs from its session
    try {
      await api(`/tournaments/${ctx.tid}/directors`, { token: me.token });
      Object.assign(ctx, { director: me.token, viaAccount: true });
    } catch (e) { /* not a director of this tournament */ }
  }
  $("#director-panel").hidden = !ctx.director;

  setUpRegistration();
  if (ctx.director) setUpFeedDelay();
  $("#roster-form").addEventListener("submit", registerRoster);
  $("#toggle-registration").addEventListener("click", async () => {
    try {
      const open = ctx.registration !== "open";
      await api(`/tournaments/${ctx.tid}/registration`, { method: "POST", token: ctx.director, body: { open } });
      refresh();
    } catch (e) { fail(e); }
  });
  $("#pair-round").addEventListener("click", async () => {
    try {
      const bye = $("#bye-computer") ? +$("#bye-computer").value : 0;
      const r = await api(`/tournaments/${ctx.tid}/rounds`, { method: "POST", token: ctx.director, body: bye ? { bye_computer: bye } : {} });
      flash(_("Round {round} paired: {length} games created.", { round: r.round, length: r.tables.length }), "ok");
      refresh();
    } catch (e) { fail(e); }
  });
  $("#finish").addEventListener("click", async () => {
    if (!confirm(_("End the tournament now? No further round can be paired."))) return;
    try {
      await api(`/tournaments/${ctx.tid}/finish`, { method: "POST", token: ctx.director, body: {} });
      refresh();
    } catch (e) { fail(e); }
  });
  setUpStandingsTools();
  if (ctx.director) setUpDirector();
  await types;
  await refresh();
  setInterval(refresh, 15000);
  if (ctx.director) {
    watchDisputes();
    setInterval(watchDisputes, DISPUTE_POLL_MS);
  }
}

// -- the director's tools ------------------------------------------------------------------
const STRENGTHS = () => [[1, _("a computer (easy)")], [2, _("a computer (medium)")], [3, _("a computer (strong)")]];

function setUpDirector() {
  const panel = $("#director-panel");
  const note = panel.querySelector(":scope > p.muted.small");
  if (note) note.textContent = _("Withdraw a player from the players list below: give a reason, and forfeit their game in play or let a computer play it on.");
  const bye = el("select", { id: "bye-computer", "aria-label": _("Who fills a bye") },
    el("option", { value: "0" }, _("the player sits out (a bye)")),
    STRENGTHS().map(([v, label]) => el("option", { value: String(v) }, label)));
  panel.querySelector(".row").after(el("label", { class: "stack small", for: "bye-computer" }, _("When a player has no opponent:"), bye));
  panel.append(
    el("div", { id: "director-disputes", class: "disputes-box", "aria-live": "polite" }),
    el("details", { id: "co-directors" },
      el("summary", {}, _("Co-directors and lost links")),
      el("p", { class: "muted small" }, _("A named director link does everything this one does; make one for a co-director, or to replace a lost link, and revoke it when it is no longer needed.")),
      el("form", { id: "co-director-form", class: "row", autocomplete: "off" },
        el("input", { name: "name", required: true, maxlength: 40, placeholder: _("Who holds it"), "aria-label": _("Who holds it") }),
        el("button", { type: "submit" }, _("Make a director link"))),
      el("div", { id: "co-director-made" }),
      el("ul", { id: "co-director-list", class: "plain-list" }),
      el("p", { class: "muted small" }, _("Or make an account a director: it directs from any of its sessions, so a lost link is a new log-in.")),
      el("form", { id: "director-account-form", class: "row", autocomplete: "off" },
        el("input", { name: "name", required: true, maxlength: 40, placeholder: _("Account name"), "aria-label": _("Account name") }),
        el("button", { type: "submit" }, _("Make this account a director"))),
      el("ul", { id: "director-account-list", class: "plain-list" })));
  $("#co-director-form").addEventListener("submit", addDirector);
  $("#director-account-form").addEventListener("submit", addDirectorAccount);
  $("#co-directors").addEventListener("toggle", () => { if ($("#co-directors").open) loadDirectors(); });
}

async function loadDirectors() {
  try {
    const { directors, accounts } = await api(`/tournaments/${ctx.tid}/directors`, { token: ctx.director });
    $("#co-director-list").replaceChildren(...directors.map((name) => el("li", {},
      el("span", { translate: "no" }, name),
      el("button", { type: "button", class: "small danger", onclick: () => revokeDirector(name) }, _("Revoke")))));
    $("#director-account-list").replaceChildren(...accounts.map((name) => el("li", {},
      el("span", { translate: "no" }, name),
      el("button", { type: "button", class: "small danger", onclick: () => revokeDirector(name, "director-accounts") }, _("Revoke")))));
  } catch (e) { fail(e); }
}

async function addDirectorAccount(event) {
  event.preventDefault();
  try {
    await api(`/tournaments/${ctx.tid}/director-accounts`, { method: "POST", token: ctx.director, body: { name: event.target.elements.name.value.trim() } });
    event.target.reset();
    loadDirectors();
  } catch (e) { fail(e); }
}

async function addDirector(event) {
  event.preventDefault();
  const name = event.target.elements.name.value.trim();
  try {
    const made = await api(`/tournaments/${ctx.tid}/directors`, { method: "POST", token: ctx.director, body: { name } });
    const link = absolute(`/tournaments/${ctx.tid}#director=${made.director_token}`);
    $("#co-director-made").replaceChildren(el("div", { class: "token-box" },
      _("Director link for {name} (shown once):", { name: made.name }), el("p", {}, el("a", { href: link, class: "link-url", id: "co-director-link" }, link))));
    event.target.reset();
    loadDirectors();
  } catch (e) { fail(e); }
}

async function revokeDirector(name, kind = "directors") {
  if (!confirm(_("Revoke the director link of {name}?", { name }))) return;
  try {
    await api(`/tournaments/${ctx.tid}/${kind}/${encodeURIComponent(name)}`, { method: "DELETE", token: ctx.director });
    $("#co-director-made").replaceChildren();
    loadDirectors();
  } catch (e) { fail(e); }
}

// A dispute raised at a table reaches the director within the poll's interval: a line
// per dispute with the table's referee console and a ruling to dismiss it right here,
// and a badge on the table's row.
const DISPUTE_POLL_MS = 2000;
ctx.disputes = [];

async function watchDisputes() {
  if (document.hidden) return;
  try {
    // with the director's token, so the polls count against that token's budget, not the venue's address
    ctx.disputes = (await api(`/tournaments/${ctx.tid}/disputes`, { token: ctx.director })).disputes;
  } catch (e) { return; }  // the next poll tries again
  drawDisputes();
  markDisputes();
}

function drawDisputes() {
  const box = $("#director-disputes");
  const shown = ctx.disputes.map((d) => `${d.game_id}/${d.id}`).join(" ");
  if (!box || box.dataset.shown === shown) return;  // a ruling being typed survives the next look
  box.dataset.shown = shown;
  box.replaceChildren(...(ctx.disputes.length ? [
    el("h3", {}, _("Open disputes")),
    el("ul", { class: "plain-list" }, ctx.disputes.map((d) => el("li", { class: "dispute-line", dataset: { game: d.game_id, dispute: d.id } },
      el("span", {}, _("Table {table}: seat {seat} disputes step {seq}", { table: d.table, seat: d.seat, seq: d.seq })),
      ctx.refereeLinks && ctx.refereeLinks[d.game_id] ? [" ", el("a", { href: ctx.refereeLinks[d.game_id], class: "small" }, _("referee"))] : null,
      ctx.refereeTokens && ctx.refereeTokens[d.game_id] ? dismissForm(d) : null)))] : []));
}

// The ruling that leaves the game as it is: the table's referee token dismisses the
// dispute with the director's reason (a rewind or an adjustment is the console's).
function dismissForm(d) {
  const form = el("form", { class: "row dismiss-form", autocomplete: "off" },
    el("input", { name: "reason", required: true, maxlength: 500, placeholder: _("Ruling"), "aria-label": _("Ruling") }),
    el("button", { type: "submit", class: "small" }, _("Dismiss the dispute")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api(`/games/${d.game_id}/referee/dismiss`, {
        method: "POST", token: ctx.refereeTokens[d.game_id], body: { dispute: d.id, reason: form.elements.reason.value.trim() },
      });
      flash(_("Dispute dismissed."), "ok");
      await watchDisputes();
    } catch (e) { fail(e); }
  });
  return form;
}

function markDisputes() {
  const open = new Set(ctx.disputes.map((d) => d.game_id));
  for (const row of document.querySelectorAll("tr[data-game]")) {
    const cell = row.querySelector(".dispute-cell");
    if (!cell) continue;
    cell.replaceChildren(open.has(row.dataset.game) ? el("span", { class: "badge dispute-badge" }, _("dispute")) : "");
  }
}

function setUpStandingsTools() {
  const standings = $("#standings");
  standings.before(el("p", { class: "row small standings-tools" },
    el("a", { href: `/api/tournaments/${ctx.tid}/standings.csv`, id: "standings-csv", download: "" }, _("Standings as CSV")),
    el("button", { type: "button", id: "print-standings", class: "small", onclick: () => window.print() }, _("Print the standings"))));
}

async function refresh() {
  try {
    const t = await api(`/tournaments/${ctx.tid}`);
    renderHeader(t);
    renderPlayers(t);
    await renderRounds(t);
    const s = await api(`/tournaments/${ctx.tid}/standings`);
    renderStandings(s);
    if (ctx.player && ctx.pid) renderMine(await api(`/tournaments/${ctx.tid}/players/${ctx.pid}/games`, { token: ctx.player }));
  } catch (e) { fail(e); }
}

function renderHeader(t) {
  document.title = _("{name} · Boardroom", { name: t.name });
  $("#t-name").textContent = t.name;
  $("#t-name").setAttribute("translate", "no");  // a name the director chose
  const status = $("#t-status");
  status.textContent = statusName(t.status);
  status.className = `badge status-${t.status === "finished" ? "finished" : "active"}`;
  const c = t.options.clock;
  const clock = !c ? "" : c.per_move_days
    ? _(", {days} days per move, {vacation} vacation days", { days: c.per_move_days, vacation: c.vacation_days || 0 })
    : _(", clock {base}s + {increment}s", { base: c.base, increment: c.increment });
  $("#t-info").textContent = `${TITLES[t.game] || t.game} · ${t.format === "swiss" ? _("Swiss pairing") : _("tables of {n}", { n: t.options.table_size })}`
    + _(" · round {length} of {rounds_planned}{clock}", { length: t.rounds.length, rounds_planned: t.rounds_planned, clock });
  $("#t-head").textContent = (t.head_hash || "").slice(0, 16);
  ctx.registration = t.registration;
  const open = t.status !== "finished" && t.registration !== "closed";
  $("#register-panel").hidden = t.status === "finished";
  $("#register-form").hidden = !open;
  $("#registration-closed").hidden = open;
  $("#roster-form").hidden = !open;
  $("#toggle-registration").textContent = t.registration === "closed" ? _("Reopen registration") : _("Close registration");
  $("#toggle-registration").disabled = false;  // it knows now which way it turns
  $("#director-panel").hidden = !ctx.director || t.status === "finished";
}

function renderPlayers(t) {
  if (document.querySelector(".withdraw-form")) return;  // a reason being typed survives the refresh
  $("#players").replaceChildren(...t.players.map((p) => {
    const item = el("li", { class: p.withdrawn ? "withdrawn" : "", dataset: { pid: p.pid } },
      el("span", { translate: "no" }, `${p.name} `, el("span", { class: "muted small" }, p.pid)));
    if (ctx.director && !p.withdrawn && t.status !== "finished") {
      item.append(el("button", { type: "button", class: "small danger withdraw-open", onclick: () => withdraw(p, item) }, _("Withdraw")));
    }
    return item;
  }));
}

// The director withdraws a player with a reason, and says what becomes of their game in
// play: forfeited, or a computer plays it on (the player still ranks last in it).
function withdraw(p, item) {
  if (item.querySelector("form")) return;
  const form = el("form", { class: "withdraw-form stack", autocomplete: "off" },
    el("label", {}, _("Reason for withdrawing {name}", { name: p.name }),
      el("input", { name: "reason", maxlength: 500, required: true })),
    el("label", {}, _("Their game in play"),
      el("select", { name: "bot" }, el("option", { value: "" }, _("is forfeited")),
        STRENGTHS().map(([v, label]) => el("option", { value: String(v) }, _("is played on by {who}", { who: label }))))),
    el("div", { class: "row" },
      el("button", { type: "submit", class: "danger" }, _("Withdraw")),
      el("button", { type: "button", onclick: () => form.remove() }, _("Cancel"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { reason: form.elements.reason.value.trim() };
    if (form.elements.bot.value) body.bot = +form.elements.bot.value;
    try {
      await api(`/tournaments/${ctx.tid}/players/${p.pid}`, { method: "DELETE", token: ctx.director, body });
      form.remove();
      flash(_("{name} withdrawn.", { name: p.name }), "ok");
      refresh();
    } catch (e) { fail(e); }
  });
  item.append(form);
  form.elements.reason.focus();
}

async function clocksOf(t, round) {
  // Time left per seat for the games still in play (folded by the platform from timestamps);
  // a tournament without a clock asks for none.
  const out = {};
  if (!t.options.clock || !round || round.status === "finished") return out;
  await Promise.all(round.tables.filter((table) => !table.result).map(async (table) => {
    try {
      const meta = await api(`/games/${table.game_id}`);
      if (meta.clocks) out[table.game_id] = meta;
    } catch (e) { /* the table shows without clocks */ }
  }));
  return out;
}

function timeLeft(meta, seat) {
  const c = meta.clocks;
  let left = c.remaining[seat];
  const timed = !Array.isArray(c.moved) || c.moved.includes(seat); // no clock runs before a seat's first move
  if (meta.status === "active" && timed && (c.running || []).includes(seat)) left -= Date.now() / 1000 - c.since;
  left = Math.max(0, Math.round(left));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** The director's delay for the commentators' full-state feed (docs/TOURNAMENTS.md). */
function setUpFeedDelay() {
  const kind = el("select", { id: "delay-kind", "aria-label": _("Delay of the full-state feed") },
    el("option", { value: "after_game" }, _("after each game")),
    el("option", { value: "entries" }, _("entries behind")),
    el("option", { value: "minutes" }, _("minutes behind")));
  const amount = el("input", { id: "delay-amount", type: "number", min: "0", value: "10", "aria-label": _("How many") });
  const form = el("form", { id: "delay-form", class: "row" },
    el("span", { class: "small" }, _("Commentators see the full state:")), kind, amount,
    el("button", { type: "submit" }, _("Set the delay")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const delay = kind.value === "after_game" ? { after_game: true } : { [kind.value]: Number(amount.value) };
    try {
      await api(`/tournaments/${ctx.tid}/feed-delay`, { method: "POST", token: ctx.director, body: { delay } });
      flash(_("The feed delay is set."), "ok");
    } catch (e) { fail(e); }
  });
  $("#director-panel").append(form);
}

async function renderRounds(t) {
  const rounds = [];
  ctx.refereeLinks = ctx.refereeLinks || {};
  ctx.refereeTokens = ctx.refereeTokens || {};
  const clocks = await clocksOf(t, t.rounds[t.rounds.length - 1]);
  for (const summary of [...t.rounds].reverse()) {
    const r = ctx.director || ctx.player
      ? await api(`/tournaments/${ctx.tid}/rounds/${summary.round}`, { token: ctx.director || ctx.player }) : summary;
    for (const table of r.tables) {
      if (table.links.referee) ctx.refereeLinks[table.game_id] = table.links.referee;
      if (table.referee_token) ctx.refereeTokens[table.game_id] = table.referee_token;
    }
    rounds.push(el("div", { class: "round" },
      el("h3", {}, _("Round {round}", { round: r.round }), badge(r.status, roundStatusName(r.status)), " ",
        el("a", { class: "small b-link", href: `/tournaments/${encodeURIComponent(ctx.tid)}/rounds/${r.round}/broadcast` }, _("broadcast"))),
      el("div", { class: "table-wrap" }, el("table", { class: "grid" },
        el("thead", {}, el("tr", {}, [_("Table"), _("Seats (first player first)"), _("Result"), _("Game")].map((h) => el("th", {}, h)))),
        el("tbody", {}, r.tables.map((table) => el("tr", { dataset: { game: table.game_id } },
          el("td", {}, table.table, " ", el("span", { class: "dispute-cell" })),
          el("td", {}, el("ol", { class: "seat-list", start: 0 }, table.seats.map((s) => el("li", {},
            s.name,
            clocks[table.game_id] ? el("span", { class: "muted small clock" }, ` ⏱ ${timeLeft(clocks[table.game_id], s.seat)}`) : null,
            s.link && s.token ? [" ", el("a", { href: s.link, class: "small" }, _("seat link"))] : null)))),
          el("td", {}, resultText(table)),
          el("td", {}, el("a", { href: table.links.game }, _("watch")), " · ",
            el("a", { href: table.links.replay }, _("replay")),
            table.links.referee ? [" · ", el("a", { href: table.links.referee }, _("referee"))] : null)))))),
      r.byes.length ? el("p", { class: "muted small" }, _("Bye: {v0}", { v0: r.byes.map((b) => b.name).join(", ") })) : null));
  }
  $("#rounds").replaceChildren(...(rounds.length ? rounds : [el("p", { class: "muted" }, _("No round paired yet."))]));
  if (ctx.disputes) markDisputes();
}

function resultText(table) {
  if (!table.result) return el("span", { class: "muted" }, _("in play"));
  const parts = table.seats.map((s, i) => `${s.name}: #${table.result.ranking[i]} (${table.result.scores[i]})`);
  const forfeits = (table.result.forfeited || []).map((i) => table.seats[i].name);
  return [parts.join(", "), forfeits.length ? el("div", { class: "warn small" }, _("forfeited: {v0}", { v0: forfeits.join(", ") })) : null];
}

function renderStandings(s) {
  const swiss = s.format === "swiss";
  const heads = ["#", _("Player"), _("Points"), ...(swiss ? [_("Buchholz")] : []), _("Game score"), _("Head-to-head"), _("Games"), _("Byes")];
  $("#standings").replaceChildren(
    el("p", { class: "muted small" }, s.after_round ? _("After round {after_round}", { after_round: s.after_round }) : _("Before the first round")),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, heads.map((h) => el("th", {}, h)))),
      el("tbody", {}, s.standings.map((row) => el("tr", { class: row.withdrawn ? "withdrawn" : "" },
        el("td", {}, row.rank), el("td", {}, row.name), el("td", {}, row.points),
        swiss ? el("td", {}, row.tiebreaks.buchholz) : null,
        el("td", {}, row.tiebreaks.game_score), el("td", {}, row.tiebreaks.head_to_head),
        el("td", {}, row.games), el("td", {}, row.byes))))));
}

function renderMine(mine) {
  $("#my-panel").hidden = false;
  $("#my-games").replaceChildren(mine.games.length
    ? el("ul", { class: "plain-list" }, mine.games.map((g) => el("li", {},
      el("span", {}, _("Round {round}, table {table}, seat {seat}", { round: g.round, table: g.table, seat: g.seat })),
      el("a", { href: g.link }, g.result ? _("view") : _("play")))))
    : el("p", { class: "muted" }, _("No game yet: wait for the director to pair the round.")));
}

const page = document.body.dataset.page;
if (page === "tournament-list") listPage().catch(fail);
if (page === "tournament-detail") detailPage().catch(fail);
