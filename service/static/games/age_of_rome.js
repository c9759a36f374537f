// Age of Rome board renderer: the rotating province board around the Senate, the battle
// areas, the Colosseum, the event card and every player's board.
// Contract: render(root, view, ctx), describeAction(action, view), describeEvent(event, names).
// Board elements are clickable for the actions they stand for; when one element stands for
// several actions a small menu lists them.
import { t as _, tn } from "/static/js/i18n.js";
import { sentence } from "/static/js/sentences.js";

import { h as el } from "/static/js/dom.js";

const TYPES = ["military", "political", "commercial", "religious", "agricultural"];
const TYPE_ICON = { military: "⚔", political: "⚖", commercial: "⚱", religious: "☧", agricultural: "✿" };
const AREAS = ["epirus", "macedonia", "thrace"];
// table seat -> where its province is drawn (clockwise seen from above: bottom, left, top, right)
const SIDE = ["bottom", "left", "top", "right"];
const STYLE = `
.aor { font: 14px/1.35 system-ui, sans-serif; display: grid; gap: .7rem; }
.aor h4 { margin: 0 0 .3rem; font-size: .95rem; }
.aor-summary { font-weight: 600; }
.aor-top { display: flex; flex-wrap: wrap; gap: .6rem; align-items: stretch; }
.aor-box { border: 1px solid #8884; border-radius: 8px; padding: .4rem .55rem; background: #fffdf7; }
.aor-rounds span { display: inline-block; width: 1.5em; text-align: center; border: 1px solid #aaa; border-radius: 4px; margin-right: 2px; }
.aor-rounds span.now { background: #b71c1c; color: #fff; border-color: #b71c1c; }
.aor-table { display: grid; grid-template-columns: 1fr 1.1fr 1fr; grid-template-areas: ". top ." "left senate right" ". bottom ."; gap: .45rem; align-items: center; }
.aor-prov { border: 2px solid #7a5c2e; border-radius: 10px; padding: .35rem .45rem; background: #f6ecd6; min-width: 13rem; }
.aor-prov.mine { box-shadow: 0 0 0 3px #2e86de; }
.aor-prov.empty { border-style: dashed; }
.aor-prov .who { font-size: .78rem; color: #444; }
.aor-slot { display: flex; align-items: center; gap: .3rem; font-size: .8rem; padding: 1px 3px; border-radius: 4px; }
.aor-slot .lvl { display: inline-block; min-width: 3.2em; }
.aor-plots { display: flex; gap: .25rem; margin-top: .2rem; }
.aor-plot { min-width: 2.4em; padding: 0 .15rem; height: 1.5em; border: 1px dashed #7a5c2e; border-radius: 4px; text-align: center; font-size: .75rem; }
.aor-senate { grid-area: senate; display: grid; justify-items: center; gap: .2rem; }
.aor-vote { width: 4.5rem; height: 1.35rem; border: 1px solid #555; border-radius: 4px; text-align: center; font-size: .75rem; color: #fff; background: #ddd; }
.aor-vote.emptyv { color: #555; background: #f3f3f3; }
.aor-dot { display: inline-block; width: .85em; height: .85em; border-radius: 50%; border: 1px solid #0006; vertical-align: middle; margin: 0 .08rem; }
.aor-areas { display: flex; gap: .5rem; flex-wrap: wrap; }
.aor-area { min-width: 9rem; }
.aor-click { cursor: pointer; box-shadow: 0 0 0 2px #2e86de88; }
.aor-click:hover { box-shadow: 0 0 0 2px #2e86de; }
.aor-players { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .5rem; }
.aor-player.me { border-color: #2e86de; border-width: 2px; }
.aor-track { display: inline-flex; gap: 2px; }
.aor-track span { width: 1.5em; height: 1.5em; border: 1px solid #999; border-radius: 3px; text-align: center; font-size: .72rem; line-height: 1.5em; }
.aor-track span.cov { background: #4e342e; color: #fff; }
.aor-card { display: inline-block; border: 1px solid #999; border-radius: 5px; padding: 0 .3rem; margin: 1px; font-size: .75rem; background: #fff; }
.aor-card.tool { background: #e3f2fd; } .aor-card.weapon { background: #ffebee; } .aor-card.clothing { background: #f3e5f5; } .aor-card.jewel { background: #fff8e1; } .aor-card.anchor { background: #eceff1; }
.aor-menu { border: 1px solid #2e86de; border-radius: 6px; padding: .4rem; background: #f4f9ff; display: flex; flex-wrap: wrap; gap: .3rem; }
.aor-menu[hidden] { display: none; }
.aor-menu button { font-size: .8rem; }
.aor-muted { color: #595959; font-size: .8rem; }
`;

const words = (s) => String(s ?? "").replace(/_/g, " ");
const cap = (s) => { const w = words(s); return w ? tn(w[0].toUpperCase() + w.slice(1)) : w; };
function seatColour(owner) { return `var(--seat${owner}, hsl(${owner * 83 + 10}, 60%, 42%))`; }
function ownerName(view, names, owner) {
  if (view && view.solo && owner === 1) return _("the Rival");
  return (names && names[owner]) || _("Seat {owner}", { owner });
}
function dot(view, names, owner) {
  return el("span", { class: "aor-dot", style: `background:${seatColour(owner)}`, title: ownerName(view, names, owner) });
}
function cardName(view, id) {
  const c = view && view.catalogue && view.catalogue.commerce[id];
  return tn(c ? c.name : id);
}
function cardChip(view, id) {
  const c = view && view.catalogue && view.catalogue.commerce[id];
  if (!c) return el("span", { class: "aor-card" }, id);
  const when = c.trigger ? `${tn(words(c.trigger))}${Object.keys(c.filter || {}).length ? ` (${Object.values(c.filter).map((f) => tn(String(f))).join(", ")})` : ""}: ` : "";
  return el("span", { class: `aor-card ${c.type}`, title: `${when}${tn(c.text)}` }, tn(c.name));
}

// -- clicks: an element stands for the actions matching a predicate ---------------------
function clickable(node, ctx, view, menu, matches) {
  const actions = (ctx.actions || []).filter(matches);
  if (!actions.length || !ctx.act) return node;
  node.classList.add("aor-click");
  node.addEventListener("click", (e) => {
    e.stopPropagation();
    if (actions.length === 1) { ctx.act(actions[0]); return; }
    menu.replaceChildren(
      ...actions.map((a) => el("button", { type: "button", onclick: () => { menu.hidden = true; ctx.act(a); } }, describeAction(a, view))),
      el("button", { type: "button", onclick: () => { menu.hidden = true; } }, _("Cancel")));
    menu.hidden = false;
  });
  return node;
}

// -- the parts of the board ----------------------------------------------------------------
function roundBox(view) {
  const spans = [];
  for (let r = 1; r <= 9; r++) spans.push(el("span", { class: r === view.round ? "now" : "" }, r));
  return el("div", { class: "aor-box" }, el("h4", {}, _("Round")), el("div", { class: "aor-rounds" }, spans),
    el("div", { class: "aor-muted" }, _("{v0} · turn {v1}", { v0: cap(view.phase), v1: view.direction === "cw" ? _("clockwise ↻") : _("counter-clockwise ↺") })));
}

function eventBox(view) {
  const e = view.event && view.catalogue.events[view.event.id];
  if (!e) return el("div", { class: "aor-box" }, el("h4", {}, _("Event")), el("span", { class: "aor-muted" }, _("not yet revealed")));
  const arrows = (view.event.direction === "cw" ? "↻" : "↺").repeat(view.event.steps);
  return el("div", { class: "aor-box" }, el("h4", {}, _("Event: {name} {arrows}", { name: tn(e.name), arrows })),
    el("div", {}, `${cap(e.condition)} → ${tn(e.bonus)}`),
    e.fallback ? el("div", { class: "aor-muted" }, _("otherwise {fallback}", { fallback: tn(e.fallback) })) : null,
    el("div", { class: "aor-muted" }, _("{event_deck_count} events left", { event_deck_count: view.event_deck_count })));
}

function province(view, ctx, menu, name, tableSeat) {
  const p = view.provinces[name];
  const info = view.catalogue.provinces[name];
  const owner = view.facing[name];
  const mine = owner !== null && owner === ctx.seat && !(view.solo && owner === 1);
  const who = owner === null ? _("faces nobody") : _("faces {v0}", { v0: ownerName(view, ctx.names, owner) });
  const start = view.start_province === name ? _(" · ★ start marker") : "";
  const box = el("div", { class: `aor-prov${mine ? " mine" : ""}${owner === null ? " empty" : ""}`, style: `grid-area:${SIDE[tableSeat]}` },
    el("div", {}, el("strong", {}, tn(info.name)), _(" · population {population}", { population: p.population })),
    el("div", { class: "who" }, who + start));
  for (const t of TYPES) {
    const level = p.levels[t];
    const next = level + 1;
    const cost = next === 1 ? info.slots[t] : (view.catalogue.upper_tiles[t] || {})[String(next)];
    const row = el("div", { class: "aor-slot" },
      el("span", { title: tn(t) }, TYPE_ICON[t]),
      el("span", { class: "lvl" }, level ? _("level {level}", { level }) : _("empty")),
      ...(p.followers[t] || []).map((s) => dot(view, ctx.names, s)),
      next <= 3 && cost ? el("span", { class: "aor-muted" }, _("next {cost}d/{glory}g", { cost: cost.cost, glory: cost.glory })) : null);
    if (mine) {
      clickable(row, ctx, view, menu, (a) => (a.type === "build" && a.payload.building === t)
        || (a.type === "place_follower" && a.payload.location === `building:${t}`));
    }
    box.append(row);
  }
  const plots = el("div", { class: "aor-plots" });
  p.plots.forEach((m, i) => {
    const cell = el("div", { class: "aor-plot", style: m ? `background:${seatColour(m.owner)};color:#fff` : "" },
      m ? (m.up ? _("plot") : "↓") : "—");
    clickable(cell, ctx, view, menu, (a) => (mine && a.type === "place_follower" && a.payload.location === `plot:${i}`)
      || (a.type === "launch_plot" && a.payload.province === name && a.payload.space === i));
    plots.append(cell);
  });
  box.append(plots);
  return box;
}

function senate(view, ctx, menu) {
  const col = el("div", { class: "aor-senate" }, el("strong", {}, _("Senate")));
  for (let i = 0; i < 5; i++) {
    const owner = view.senate[i];
    const cell = el("div", {
      class: `aor-vote${owner === undefined ? " emptyv" : ""}`,
      style: owner === undefined ? "" : `background:${seatColour(owner)}`,
      title: _("{v0} glory at the end", { v0: view.catalogue.senate_points[i] }),
    }, owner === undefined ? `${view.catalogue.senate_points[i]}` : ownerName(view, ctx.names, owner));
    clickable(cell, ctx, view, menu, (a) => a.type === "pick_vote" && a.payload.position === i);
    col.append(cell);
  }
  return col;
}

function battleAreas(view, ctx, menu) {
  const wrap = el("div", { class: "aor-areas" });
  for (const a of AREAS) {
    const spec = view.catalogue.areas[a];
    const counts = view.areas[a];
    const total = counts.reduce((x, y) => x + y, 0);
    const box = el("div", { class: "aor-box aor-area" },
      el("h4", {}, `${tn(spec.name)} ${total >= spec.minimum ? "✓" : ""}`),
      el("div", { class: "aor-muted" }, _("min {minimum} · 1st {first} · 2nd {second}", { minimum: spec.minimum, first: spec.first, second: spec.second })),
      el("div", {}, ...counts.map((n, o) => (n ? el("span", {}, dot(view, ctx.names, o), `×${n} `) : null))));
    clickable(box, ctx, view, menu, (x) => (x.type === "deploy_legion" && x.payload.area === a)
      || (x.type === "move_legion" && x.payload.to === a) || (x.type === "lure_move" && x.payload.to === a)
      || (x.type === "defect" && x.payload.area === a));
    wrap.append(box);
  }
  const colosseum = el("div", { class: "aor-box aor-area" }, el("h4", {}, _("Colosseum")),
    el("div", {}, ...view.colosseum.map((s) => dot(view, ctx.names, s))),
    el("div", { class: "aor-muted" }, _("next follower: {v0} glory", { v0: view.colosseum.length + 1 })));
  clickable(colosseum, ctx, view, menu, (x) => x.type === "place_follower" && x.payload.location === "colosseum");
  wrap.append(colosseum);
  return wrap;
}

function vendettaTrack(p) {
  const covered = p.vendetta;
  const atPos = {};
  for (const [t, pos] of Object.entries(p.token_positions)) atPos[pos] = t;
  const cells = [];
  for (let pos = 1; pos <= 5; pos++) {
    const cov = pos > 5 - covered;
    const token = atPos[pos];
    const used = token && p.tokens_used.includes(token);
    cells.push(el("span", { class: cov ? "cov" : "", title: token ? _("{token} token{v0}", { token: tn(token), v0: used ? _(" (used)") : "" }) : "" },
      cov ? "✖" : (token ? (used ? "·" : TYPE_ICON[token]) : "")));
  }
  return el("span", { class: "aor-track" }, cells);
}

function pantheonWords(p) {
  const f = p.pantheon.foundation;
  const b = p.pantheon.building;
  return _("foundation {f}/2{fm} · building {b}/3{bm}", { f: f.own, fm: f.metal ? ` + ${tn(f.metal)}` : "", b: b.own, bm: b.metal ? ` + ${tn(b.metal)}` : "" });
}

function playerBox(view, ctx, menu, p) {
  const me = ctx.seat === p.seat;
  const glory = `${p.glory}${p.glory_track.flipped ? _(" (+30 side, at {position})", { position: p.glory_track.position }) : ""}`;
  const box = el("div", { class: `aor-box aor-player${me ? " me" : ""}` },
    el("h4", {}, dot(view, ctx.names, p.seat), ` ${ownerName(view, ctx.names, p.seat)} — ${tn(p.name)}`),
    el("div", {}, _("Glory {glory} · {denarii} denarii · faces {v0}", { glory, denarii: p.denarii, v0: cap(p.faces) })),
    el("div", {}, _("Legions {legions} (+{legion_reserve} reserve) · votes {votes} (+{vote_reserve}) · followers {followers_free}/{followers}", { legions: p.legions, legion_reserve: p.legion_reserve, votes: p.votes, vote_reserve: p.vote_reserve, followers_free: p.followers_free, followers: p.followers })),
    el("div", {}, _("Vendetta "), vendettaTrack(p), _(" · plot markers {plot_markers}", { plot_markers: p.plot_markers })),
    el("div", { class: "aor-muted" }, _("Plots: {v0}", { v0: p.plot_actions.map((a) => tn(words(a))).join(", ") })),
    el("div", { class: "aor-muted" }, _("Pantheon: {v0}", { v0: pantheonWords(p) })));
  const hand = el("div", {}, _("Hand ({hand_count}): ", { hand_count: p.hand_count }));
  if (p.hand) {
    for (const c of p.hand) {
      const chip = cardChip(view, c);
      if (me) clickable(chip, ctx, view, menu, (a) => ["play_card", "sell_card", "discard_card"].includes(a.type) && a.payload.card === c);
      hand.append(chip);
    }
  } else hand.append(el("span", { class: "aor-muted" }, _("hidden")));
  box.append(hand);
  if (p.sets.length) box.append(el("div", {}, _("Sets: "), ...p.sets.map((s) => el("span", { class: `aor-card ${s.type}` }, `${tn(s.type)} ×3`))));
  const missions = p.missions || p.dealt;
  if (missions && missions.length) {
    box.append(el("div", {}, p.missions && p.missions.length ? _("Missions: ") : _("Dealt: "),
      ...missions.map((m) => { const c = view.catalogue.missions[m]; return el("span", { class: "aor-card", title: tn(c.text) }, `${tn(c.name)} (${c.glory ?? _("{n}/unit, max {max}", { n: c.per_unit, max: c.max })})`); })));
  } else if (p.mission_count) box.append(el("div", { class: "aor-muted" }, _("{mission_count} secret missions", { mission_count: p.mission_count })));
  return box;
}

function rivalBox(view, ctx) {
  const r = view.rival;
  return el("div", { class: "aor-box aor-player" },
    el("h4", {}, dot(view, ctx.names, 1), _(" The Rival (the Liberators)")),
    el("div", {}, _("Glory {glory} · legions {legions} · votes {votes} · vendetta {vendetta}", { glory: r.glory, legions: r.legions, votes: r.votes, vendetta: r.vendetta })),
    el("div", { class: "aor-muted" }, _("{n} cards in its deck; played: {played}", { n: r.deck_count, played: r.discard.join(", ") || _("none") })));
}

function medalsBox(view, ctx) {
  return el("div", { class: "aor-box" }, el("h4", {}, _("Medals & milestones")),
    el("div", {}, ...TYPES.map((t) => el("span", { style: "margin-right:.5rem", title: tn(t) }, TYPE_ICON[t], " ",
      view.medals[t] === null ? "—" : ownerName(view, ctx.names, view.medals[t])))),
    el("div", { class: "aor-muted" }, _("Milestones at {at} · tiles left {tiles}", { at: view.milestones.map((m) => m.pos).join(", "), tiles: TYPES.map((t) => `${TYPE_ICON[t]}${view.tiles[t].join("/")}`).join(" ") })),
    el("div", { class: "aor-muted" }, _("Commerce deck {commerce_deck_count} · discards {length} · vendetta pool {vendetta_pool}", { commerce_deck_count: view.commerce_deck_count, length: view.commerce_discard.length, vendetta_pool: view.vendetta_pool })));
}

function resultBox(view, ctx) {
  if (!view.result) return null;
  const lines = view.result.breakdown;
  const rows = Object.entries(lines).map(([o, l]) => el("tr", {},
    el("th", {}, ownerName(view, ctx.names, Number(o))),
    ...["track", "areas", "senate", "sets", "pantheon"].map((k) => el("td", {}, l[k] ?? "")),
    el("td", {}, l.missions ? Object.values(l.missions).reduce((a, b) => a + b, 0) : ""),
    el("td", {}, l.denarii ?? ""), el("td", {}, el("strong", {}, l.total))));
  const solo = view.result.solo ? el("div", {}, view.result.solo.won ? _("Victory over the Rival — {title}", { title: tn(view.result.solo.title) }) : _("The Rival wins ({rival_score})", { rival_score: view.result.solo.rival_score })) : null;
  return el("div", { class: "aor-box" }, el("h4", {}, _("Final scoring")),
    el("table", {}, el("tr", {}, ...["", _("Track"), _("Areas"), _("Senate"), _("Sets"), _("Pantheon"), _("Missions"), _("Denarii"), _("Total")].map((h) => el("th", {}, h))), rows), solo);
}

export function render(root, view, ctx = {}) {
  ctx = { actions: [], names: [], ...ctx };
  if (!root.querySelector("style[data-aor]")) root.append(el("style", { "data-aor": "1" }, STYLE));
  const menu = el("div", { class: "aor-menu", hidden: true });
  const board = el("div", { class: "aor" });
  board.append(el("div", { class: "aor-summary" }, sentence(view.summary)));
  board.append(menu);
  board.append(el("div", { class: "aor-top" }, roundBox(view), eventBox(view), medalsBox(view, ctx)));
  const table = el("div", { class: "aor-table" });
  for (const name of Object.keys(view.provinces)) {
    const ring = Object.keys(view.provinces);
    const tableSeat = (ring.indexOf(name) + view.orientation) % 4;
    table.append(province(view, ctx, menu, name, tableSeat));
  }
  table.append(senate(view, ctx, menu));
  board.append(table);
  board.append(battleAreas(view, ctx, menu));
  const players = el("div", { class: "aor-players" }, ...view.players.map((p) => playerBox(view, ctx, menu, p)));
  if (view.rival) players.append(rivalBox(view, ctx));
  board.append(players);
  const result = resultBox(view, ctx);
  if (result) board.append(result);
  root.append(board);
}

// -- words -------------------------------------------------------------------------------
function locationWords(loc) {
  if (loc === "colosseum") return _("the Colosseum");
  if (String(loc).startsWith("building:")) return _("the {v0} building", { v0: tn(loc.split(":")[1]) });
  if (String(loc).startsWith("plot:")) return _("plot space {v0}", { v0: Number(loc.split(":")[1]) + 1 });
  return tn(words(loc));
}

export function describeAction(action, view) {
  const p = action.payload || {};
  const names = (view && view.players || []).map((x) => x.name);
  const victim = (v) => (view && view.solo && v === 1 ? _("the Rival") : (names[v] ? tn(names[v]) : _("seat {v}", { v })));
  switch (action.type) {
    case "keep_missions": return _("Keep missions {list}", { list: p.keep.map((m) => tn((view && view.catalogue.missions[m] || {}).name || m)).join(_(" and ")) });
    case "deploy_legion": return _("Deploy a legion to {v0}", { v0: cap(p.area) });
    case "launch_plot": return _("Launch the plot in {v0}: {v1} against {v2}", { v0: cap(p.province), v1: cap(p.action), v2: victim(p.victim) });
    case "end_plot_turn": return _("End the plot turn");
    case "build": return _("Build the next {building} level", { building: tn(p.building) });
    case "end_build_turn": return _("End the build turn");
    case "place_follower": return _("Place a follower on {v0}{v1}", { v0: locationWords(p.location), v1: p.use_token ? _(" with the bonus token") : "" });
    case "move_legion": return p.from === "supply" ? _("Send a legion to {v0}", { v0: cap(p.to) }) : _("Move a legion from {v0} to {v1}", { v0: cap(p.from), v1: cap(p.to) });
    case "defect": return _("{v0} a target legion in {v1}", { v0: p.mode === "replace" ? _("Replace") : _("Send home"), v1: cap(p.area) });
    case "lure_move": return _("Lure a target legion from {v0} to {v1}", { v0: cap(p.from), v1: cap(p.to) });
    case "end_lure": return _("Stop luring");
    case "pick_vote": return _("Take the target's vote at Senate position {v0}", { v0: p.position + 1 });
    case "play_card": return _("Play {v0}", { v0: cardName(view, p.card) });
    case "pass": return _("Play no card");
    case "forfeit_draw": return _("Give up the draw");
    case "decline_legion_move": return _("Move no legion");
    case "place_vote": return _("Place a vote in the Senate");
    case "decline_vote": return _("Place no vote");
    case "draw_card": return _("Draw a commerce card");
    case "place_pantheon_piece": return _("Place a Pantheon piece");
    case "decline_pantheon_piece": return _("Place no Pantheon piece");
    case "sell_card": return _("Sell {v0} for 1 denarius", { v0: cardName(view, p.card) });
    case "discard_card": return _("Discard {v0}", { v0: cardName(view, p.card) });
    case "form_set": return _("Form a {as_type} set ({v0})", { as_type: p.as_type, v0: p.cards.map((c) => cardName(view, c)).join(", ") });
    case "exchange": return _("Exchange {v0} denarii for {count} glory", { v0: 3 * p.count, count: p.count });
    case "tax": return p.mode === "double" ? _("Double taxation") : _("Normal taxation");
    case "rival_card": return _("The Rival plays a card");
    default: return cap(action.type);
  }
}

export function describeEvent(event, names = []) {
  const a = event.actor || {};
  const who = a.seat !== undefined && a.seat !== null ? (names[a.seat] || _("Seat {seat}", { seat: a.seat })) : (a.role === "referee" ? _("Referee") : _("The Rival"));
  const t = String(event.type || "");
  const type = t.includes(".") ? t.slice(t.indexOf(".") + 1) : t;
  const p = event.payload || {};
  switch (type) {
    case "keep_missions": return _("{who} kept two missions", { who });
    case "deploy_legion": return _("{who} deployed a legion to {v0}", { who, v0: cap(p.area) });
    case "launch_plot": return _("{who} launched a plot in {v0} ({v1})", { who, v0: cap(p.province), v1: tn(words(p.action)) });
    case "end_plot_turn": return _("{who} ended the plot turn", { who });
    case "build": return _("{who} built a {building} tile", { who, building: tn(p.building) });
    case "end_build_turn": return _("{who} ended the build turn", { who });
    case "place_follower": return _("{who} placed a follower on {v0}{v1}", { who, v0: locationWords(p.location), v1: p.use_token ? _(" with the bonus token") : "" });
    case "move_legion": return p.from === "supply" ? _("{who} sent a legion to {v0}", { who, v0: cap(p.to) }) : _("{who} moved a legion from {v0} to {v1}", { who, v0: cap(p.from), v1: cap(p.to) });
    case "defect": return _("{who} made a legion defect in {v0}", { who, v0: cap(p.area) });
    case "lure_move": return _("{who} lured a legion from {v0} to {v1}", { who, v0: cap(p.from), v1: cap(p.to) });
    case "end_lure": return _("{who} stopped luring", { who });
    case "pick_vote": return _("{who} took a vote out of the Senate", { who });
    case "play_card": return _("{who} played {card}", { who, card: p.card });
    case "pass": return _("{who} played no card", { who });
    case "forfeit_draw": return _("{who} gave up a draw", { who });
    case "decline_legion_move": return _("{who} moved no legion", { who });
    case "place_vote": return _("{who} placed a vote in the Senate", { who });
    case "decline_vote": return _("{who} placed no vote", { who });
    case "draw_card": return _("{who} drew a commerce card", { who });
    case "place_pantheon_piece": return _("{who} placed a Pantheon piece", { who });
    case "decline_pantheon_piece": return _("{who} placed no Pantheon piece", { who });
    case "sell_card": return _("{who} sold {card}", { who, card: p.card });
    case "discard_card": return _("{who} discarded {card}", { who, card: p.card });
    case "form_set": return _("{who} formed a {as_type} set", { who, as_type: p.as_type });
    case "exchange": return _("{who} exchanged {v0} denarii for {count} glory", { who, v0: 3 * p.count, count: p.count });
    case "tax": return _("{who} taxed ({mode})", { who, mode: tn(p.mode) });
    case "rival_card": return _("The Rival played a card");
    default: return `${who}: ${tn(words(type))}`;
  }
}
