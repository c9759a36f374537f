// Tournament pages: list + create, and one tournament (registration, director
// controls, pairings per round, standings, links to each game and its replay).
// They use the public HTTP API only (docs/TOURNAMENTS.md). Tokens travel in the link
// fragment (#director=... / #player=...&pid=...), never in a URL the server sees.
import { t as _, tn } from "/static/js/i18n.js";
import { api } from "/static/js/api.js";
import { h as el, $ } from "/static/js/dom.js";


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
async function listPage() {
  const types = await api("/game-types").catch(() => []);
  const select = $("#create-game");
  for (const t of types) {
    TITLES[t.name] = tn(t.title);
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
    if (f.get("clock_base")) options.clock = { base: +f.get("clock_base"), increment: +(f.get("clock_increment") || 0) };
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
        el("td", {}, el("span", { class: `badge status-${t.status === "finished" ? "finished" : "active"}` }, statusName(t.status))))))));
  } catch (e) { fail(e); }
}

// -- one tournament ----------------------------------------------------------------------
const ctx = { tid: null, director: null, player: null, pid: null };

async function detailPage() {
  ctx.tid = document.body.dataset.tournamentId;
  const frag = fragment();
  const stored = JSON.parse(sessionStorage.getItem(`tournament:${ctx.tid}`) || "{}");
  ctx.director = frag.director || stored.director || null;
  ctx.player = frag.player || stored.player || null;
  ctx.pid = frag.pid || stored.pid || null;
  sessionStorage.setItem(`tournament:${ctx.tid}`, JSON.stringify({ director: ctx.director, player: ctx.player, pid: ctx.pid }));
  // As on the game pages: the token leaves the address bar (and so history and screen shares).
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  window.addEventListener("hashchange", () => location.reload());
  $("#t-export").href = `/api/tournaments/${ctx.tid}/export`;
  $("#director-panel").hidden = !ctx.director;

  $("#register-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = new FormData(event.target).get("name");
    try {
      const me = await api(`/tournaments/${ctx.tid}/players`, { method: "POST", body: { name } });
      const link = absolute(`/tournaments/${ctx.tid}#player=${me.player_token}&pid=${me.pid}`);
      Object.assign(ctx, { player: me.player_token, pid: me.pid });
      sessionStorage.setItem(`tournament:${ctx.tid}`, JSON.stringify({ director: ctx.director, player: ctx.player, pid: ctx.pid }));
      const box = $("#registered");
      box.replaceChildren(el("div", { class: "token-box" }, el("strong", {}, _("Registered as {name}. ", { name: me.name })),
        _("Bookmark your player link: it opens your seat in each round's game."),
        el("p", {}, el("a", { href: link, class: "link-url" }, link))));
      box.hidden = false;
      event.target.reset();
      refresh();
    } catch (e) { fail(e); }
  });
  $("#toggle-registration").addEventListener("click", async () => {
    try {
      const open = ctx.registration !== "open";
      await api(`/tournaments/${ctx.tid}/registration`, { method: "POST", token: ctx.director, body: { open } });
      refresh();
    } catch (e) { fail(e); }
  });
  $("#pair-round").addEventListener("click", async () => {
    try {
      const r = await api(`/tournaments/${ctx.tid}/rounds`, { method: "POST", token: ctx.director });
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
  await refresh();
  setInterval(refresh, 15000);
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
  const badge = $("#t-status");
  badge.textContent = t.status;
  badge.className = `badge status-${t.status === "finished" ? "finished" : "active"}`;
  const clock = t.options.clock ? _(", clock {base}s + {increment}s", { base: t.options.clock.base, increment: t.options.clock.increment }) : "";
  $("#t-info").textContent = `${TITLES[t.game] || t.game} · ${t.format === "swiss" ? _("Swiss pairing") : _("tables of {n}", { n: t.options.table_size })}`
    + _(" · round {length} of {rounds_planned}{clock}", { length: t.rounds.length, rounds_planned: t.rounds_planned, clock });
  $("#t-head").textContent = (t.head_hash || "").slice(0, 16);
  ctx.registration = t.registration;
  $("#register-panel").hidden = t.status === "finished" || t.registration === "closed";
  $("#toggle-registration").textContent = t.registration === "closed" ? _("Reopen registration") : _("Close registration");
  $("#director-panel").hidden = !ctx.director || t.status === "finished";
}

function renderPlayers(t) {
  $("#players").replaceChildren(...t.players.map((p) => el("li", { class: p.withdrawn ? "withdrawn" : "" },
    el("span", {}, `${p.name} `, el("span", { class: "muted small" }, p.pid)),
    ctx.director && !p.withdrawn && t.status !== "finished"
      ? el("button", { type: "button", class: "small danger", onclick: () => withdraw(p) }, _("Withdraw")) : null)));
}

async function withdraw(p) {
  const reason = prompt(_("Withdraw {name}? Reason:", { name: p.name }), "");
  if (reason === null) return;
  try {
    await api(`/tournaments/${ctx.tid}/players/${p.pid}`, { method: "DELETE", token: ctx.director, body: { reason } });
    refresh();
  } catch (e) { fail(e); }
}

async function clocksOf(round) {
  // Time left per seat for the games still in play (folded by the platform from timestamps).
  const out = {};
  if (!round || round.status === "finished") return out;
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
  if (meta.status === "active" && (c.running || []).includes(seat)) left -= Date.now() / 1000 - c.since;
  left = Math.max(0, Math.round(left));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

async function renderRounds(t) {
  const rounds = [];
  const clocks = await clocksOf(t.rounds[t.rounds.length - 1]);
  for (const summary of [...t.rounds].reverse()) {
    const r = ctx.director || ctx.player
      ? await api(`/tournaments/${ctx.tid}/rounds/${summary.round}`, { token: ctx.director || ctx.player }) : summary;
    rounds.push(el("div", { class: "round" },
      el("h3", {}, _("Round {round}", { round: r.round }), el("span", { class: `badge status-${r.status === "finished" ? "finished" : "active"}` }, r.status)),
      el("table", { class: "grid" },
        el("thead", {}, el("tr", {}, [_("Table"), _("Seats (first player first)"), _("Result"), _("Game")].map((h) => el("th", {}, h)))),
        el("tbody", {}, r.tables.map((table) => el("tr", {},
          el("td", {}, table.table),
          el("td", {}, el("ol", { class: "seat-list", start: 0 }, table.seats.map((s) => el("li", {},
            s.name,
            clocks[table.game_id] ? el("span", { class: "muted small clock" }, ` ⏱ ${timeLeft(clocks[table.game_id], s.seat)}`) : null,
            s.link && s.token ? [" ", el("a", { href: s.link, class: "small" }, _("seat link"))] : null)))),
          el("td", {}, resultText(table)),
          el("td", {}, el("a", { href: table.links.game }, "watch"), " · ",
            el("a", { href: table.links.replay }, "replay"),
            table.links.referee ? [" · ", el("a", { href: table.links.referee }, "referee")] : null))))),
      r.byes.length ? el("p", { class: "muted small" }, _("Bye: {v0}", { v0: r.byes.map((b) => b.name).join(", ") })) : null));
  }
  $("#rounds").replaceChildren(...(rounds.length ? rounds : [el("p", { class: "muted" }, _("No round paired yet."))]));
}

function resultText(table) {
  if (!table.result) return el("span", { class: "muted" }, _("in play"));
  const parts = table.seats.map((s, i) => `${s.name}: #${table.result.ranking[i]} (${table.result.scores[i]})`);
  const forfeits = (table.result.forfeited || []).map((i) => table.seats[i].name);
  return [parts.join(", "), forfeits.length ? el("div", { class: "warn small" }, _("forfeited: {v0}", { v0: forfeits.join(", ") })) : null];
}

function renderStandings(s) {
  const swiss = s.format === "swiss";
  const heads = ["#", _("Player"), _("Points"), ...(swiss ? [_("Buchholz")] : []), _("Game score"), "Head-to-head", _("Games"), _("Byes")];
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
      el("a", { href: g.link }, g.result ? "view" : "play"))))
    : el("p", { class: "muted" }, _("No game yet: wait for the director to pair the round.")));
}

const page = document.body.dataset.page;
if (page === "tournament-list") listPage().catch(fail);
if (page === "tournament-detail") detailPage().catch(fail);
