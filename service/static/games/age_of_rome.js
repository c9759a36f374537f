// Age of Rome board renderer: the rotating province board around the Senate, the battle
// areas, the Colosseum, the event card and every player's board.
// Contract: render(root, view, ctx), describeAction(action, view), describeEvent(event, names).
// Board elements are clickable for the actions they stand for; when one element stands for
// several actions a small menu lists them.

import { el } from "./dom.js";

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
.aor-prov.empty { opacity: .7; }
.aor-prov .who { font-size: .78rem; color: #444; }
.aor-slot { display: flex; align-items: center; gap: .3rem; font-size: .8rem; padding: 1px 3px; border-radius: 4px; }
.aor-slot .lvl { display: inline-block; min-width: 3.2em; }
.aor-plots { display: flex; gap: .25rem; margin-top: .2rem; }
.aor-plot { min-width: 2.4em; padding: 0 .15rem; height: 1.5em; border: 1px dashed #7a5c2e; border-radius: 4px; text-align: center; font-size: .75rem; }
.aor-senate { grid-area: senate; display: grid; justify-items: center; gap: .2rem; }
.aor-vote { width: 4.5rem; height: 1.35rem; border: 1px solid #555; border-radius: 4px; text-align: center; font-size: .75rem; color: #fff; background: #ddd; }
.aor-vote.emptyv { color: #888; background: #f3f3f3; }
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
.aor-muted { color: #777; font-size: .8rem; }
`;

const words = (s) => String(s ?? "").replace(/_/g, " ");
const cap = (s) => { const w = words(s); return w ? w[0].toUpperCase() + w.slice(1) : w; };
function seatColour(owner) { return `var(--seat${owner}, hsl(${owner * 83 + 10}, 60%, 42%))`; }
function ownerName(view, names, owner) {
  if (view && view.solo && owner === 1) return "the Rival";
  return (names && names[owner]) || `Seat ${owner}`;
}
function dot(view, names, owner) {
  return el("span", { class: "aor-dot", style: `background:${seatColour(owner)}`, title: ownerName(view, names, owner) });
}
function cardName(view, id) {
  const c = view && view.catalogue && view.catalogue.commerce[id];
  return c ? c.name : id;
}
function cardChip(view, id) {
  const c = view && view.catalogue && view.catalogue.commerce[id];
  if (!c) return el("span", { class: "aor-card" }, id);
  const when = c.trigger ? `${words(c.trigger)}${Object.keys(c.filter || {}).length ? ` (${Object.values(c.filter).join(", ")})` : ""}: ` : "";
  return el("span", { class: `aor-card ${c.type}`, title: `${when}${c.text}` }, c.name);
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
      el("button", { type: "button", onclick: () => { menu.hidden = true; } }, "Cancel"));
    menu.hidden = false;
  });
  return node;
}

// -- the parts of the board ----------------------------------------------------------------
function roundBox(view) {
  const spans = [];
  for (let r = 1; r <= 9; r++) spans.push(el("span", { class: r === view.round ? "now" : "" }, r));
  return el("div", { class: "aor-box" }, el("h4", {}, "Round"), el("div", { class: "aor-rounds" }, spans),
    el("div", { class: "aor-muted" }, `${cap(view.phase)} · turn ${view.direction === "cw" ? "clockwise ↻" : "counter-clockwise ↺"}`));
}

function eventBox(view) {
  const e = view.event && view.catalogue.events[view.event.id];
  if (!e) return el("div", { class: "aor-box" }, el("h4", {}, "Event"), el("span", { class: "aor-muted" }, "not yet revealed"));
  const arrows = (view.event.direction === "cw" ? "↻" : "↺").repeat(view.event.steps);
  return el("div", { class: "aor-box" }, el("h4", {}, `Event: ${e.name} ${arrows}`),
    el("div", {}, `${cap(e.condition)} → ${e.bonus}`),
    e.fallback ? el("div", { class: "aor-muted" }, `otherwise ${e.fallback}`) : null,
    el("div", { class: "aor-muted" }, `${view.event_deck_count} events left`));
}

function province(view, ctx, menu, name, tableSeat) {
  const p = view.provinces[name];
  const info = view.catalogue.provinces[name];
  const owner = view.facing[name];
  const mine = owner !== null && owner === ctx.seat && !(view.solo && owner === 1);
  const who = owner === null ? "faces nobody" : `faces ${ownerName(view, ctx.names, owner)}`;
  const start = view.start_province === name ? " · ★ start marker" : "";
  const box = el("div", { class: `aor-prov${mine ? " mine" : ""}${owner === null ? " empty" : ""}`, style: `grid-area:${SIDE[tableSeat]}` },
    el("div", {}, el("strong", {}, info.name), ` · population ${p.population}`),
    el("div", { class: "who" }, who + start));
  for (const t of TYPES) {
    const level = p.levels[t];
    const next = level + 1;
    const cost = next === 1 ? info.slots[t] : (view.catalogue.upper_tiles[t] || {})[String(next)];
    const row = el("div", { class: "aor-slot" },
      el("span", { title: t }, TYPE_ICON[t]),
      el("span", { class: "lvl" }, level ? `level ${level}` : "empty"),
      ...(p.followers[t] || []).map((s) => dot(view, ctx.names, s)),
      next <= 3 && cost ? el("span", { class: "aor-muted" }, `next ${cost.cost}d/${cost.glory}g`) : null);
    if (mine) {
      clickable(row, ctx, view, menu, (a) => (a.type === "build" && a.payload.building === t)
        || (a.type === "place_follower" && a.payload.location === `building:${t}`));
    }
    box.append(row);
  }
  const plots = el("div", { class: "aor-plots" });
  p.plots.forEach((m, i) => {
    const cell = el("div", { class: "aor-plot", style: m ? `background:${seatColour(m.owner)};color:#fff` : "" },
      m ? (m.up ? "plot" : "↓") : "—");
    clickable(cell, ctx, view, menu, (a) => (mine && a.type === "place_follower" && a.payload.location === `plot:${i}`)
      || (a.type === "launch_plot" && a.payload.province === name && a.payload.space === i));
    plots.append(cell);
  });
  box.append(plots);
  return box;
}

function senate(view, ctx, menu) {
  const col = el("div", { class: "aor-senate" }, el("strong", {}, "Senate"));
  for (let i = 0; i < 5; i++) {
    const owner = view.senate[i];
    const cell = el("div", {
      class: `aor-vote${owner === undefined ? " emptyv" : ""}`,
      style: owner === undefined ? "" : `background:${seatColour(owner)}`,
      title: `${view.catalogue.senate_points[i]} glory at the end`,
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
      el("h4", {}, `${spec.name} ${total >= spec.minimum ? "✓" : ""}`),
      el("div", { class: "aor-muted" }, `min ${spec.minimum} · 1st ${spec.first} · 2nd ${spec.second}`),
      el("div", {}, ...counts.map((n, o) => (n ? el("span", {}, dot(view, ctx.names, o), `×${n} `) : null))));
    clickable(box, ctx, view, menu, (x) => (x.type === "deploy_legion" && x.payload.area === a)
      || (x.type === "move_legion" && x.payload.to === a) || (x.type === "lure_move" && x.payload.to === a)
      || (x.type === "defect" && x.payload.area === a));
    wrap.append(box);
  }
  const colosseum = el("div", { class: "aor-box aor-area" }, el("h4", {}, "Colosseum"),
    el("div", {}, ...view.colosseum.map((s) => dot(view, ctx.names, s))),
    el("div", { class: "aor-muted" }, `next follower: ${view.colosseum.length + 1} glory`));
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
    cells.push(el("span", { class: cov ? "cov" : "", title: token ? `${token} token${used ? " (used)" : ""}` : "" },
      cov ? "✖" : (token ? (used ? "·" : TYPE_ICON[token]) : "")));
  }
  return el("span", { class: "aor-track" }, cells);
}

function pantheonWords(p) {
  const f = p.pantheon.foundation;
  const b = p.pantheon.building;
  return `foundation ${f.own}/2${f.metal ? ` + ${f.metal}` : ""} · building ${b.own}/3${b.metal ? ` + ${b.metal}` : ""}`;
}

function playerBox(view, ctx, menu, p) {
  const me = ctx.seat === p.seat;
  const glory = `${p.glory}${p.glory_track.flipped ? ` (+30 side, at ${p.glory_track.position})` : ""}`;
  const box = el("div", { class: `aor-box aor-player${me ? " me" : ""}` },
    el("h4", {}, dot(view, ctx.names, p.seat), ` ${ownerName(view, ctx.names, p.seat)} — ${p.name}`),
    el("div", {}, `Glory ${glory} · ${p.denarii} denarii · faces ${cap(p.faces)}`),
    el("div", {}, `Legions ${p.legions} (+${p.legion_reserve} reserve) · votes ${p.votes} (+${p.vote_reserve}) · followers ${p.followers_free}/${p.followers}`),
    el("div", {}, "Vendetta ", vendettaTrack(p), ` · plot markers ${p.plot_markers}`),
    el("div", { class: "aor-muted" }, `Plots: ${p.plot_actions.map(words).join(", ")}`),
    el("div", { class: "aor-muted" }, `Pantheon: ${pantheonWords(p)}`));
  const hand = el("div", {}, `Hand (${p.hand_count}): `);
  if (p.hand) {
    for (const c of p.hand) {
      const chip = cardChip(view, c);
      if (me) clickable(chip, ctx, view, menu, (a) => ["play_card", "sell_card", "discard_card"].includes(a.type) && a.payload.card === c);
      hand.append(chip);
    }
  } else hand.append(el("span", { class: "aor-muted" }, "hidden"));
  box.append(hand);
  if (p.sets.length) box.append(el("div", {}, "Sets: ", ...p.sets.map((s) => el("span", { class: `aor-card ${s.type}` }, `${s.type} ×3`))));
  const missions = p.missions || p.dealt;
  if (missions && missions.length) {
    box.append(el("div", {}, p.missions && p.missions.length ? "Missions: " : "Dealt: ",
      ...missions.map((m) => { const c = view.catalogue.missions[m]; return el("span", { class: "aor-card", title: c.text }, `${c.name} (${c.glory ?? `${c.per_unit}/unit, max ${c.max}`})`); })));
  } else if (p.mission_count) box.append(el("div", { class: "aor-muted" }, `${p.mission_count} secret missions`));
  return box;
}

function rivalBox(view, ctx) {
  const r = view.rival;
  return el("div", { class: "aor-box aor-player" },
    el("h4", {}, dot(view, ctx.names, 1), " The Rival (the Liberators)"),
    el("div", {}, `Glory ${r.glory} · legions ${r.legions} · votes ${r.votes} · vendetta ${r.vendetta}`),
    el("div", { class: "aor-muted" }, `${r.deck_count} cards in its deck; played: ${r.discard.join(", ") || "none"}`));
}

function medalsBox(view, ctx) {
  return el("div", { class: "aor-box" }, el("h4", {}, "Medals & milestones"),
    el("div", {}, ...TYPES.map((t) => el("span", { style: "margin-right:.5rem" }, TYPE_ICON[t], " ",
      view.medals[t] === null ? "—" : ownerName(view, ctx.names, view.medals[t])))),
    el("div", { class: "aor-muted" }, `Milestones at ${view.milestones.map((m) => m.pos).join(", ")} · tiles left ${TYPES.map((t) => `${TYPE_ICON[t]}${view.tiles[t].join("/")}`).join(" ")}`),
    el("div", { class: "aor-muted" }, `Commerce deck ${view.commerce_deck_count} · discards ${view.commerce_discard.length} · vendetta pool ${view.vendetta_pool}`));
}

function resultBox(view, ctx) {
  if (!view.result) return null;
  const lines = view.result.breakdown;
  const rows = Object.entries(lines).map(([o, l]) => el("tr", {},
    el("th", {}, ownerName(view, ctx.names, Number(o))),
    ...["track", "areas", "senate", "sets", "pantheon"].map((k) => el("td", {}, l[k] ?? "")),
    el("td", {}, l.missions ? Object.values(l.missions).reduce((a, b) => a + b, 0) : ""),
    el("td", {}, l.denarii ?? ""), el("td", {}, el("strong", {}, l.total))));
  const solo = view.result.solo ? el("div", {}, view.result.solo.won ? `Victory over the Rival — ${view.result.solo.title}` : `The Rival wins (${view.result.solo.rival_score})`) : null;
  return el("div", { class: "aor-box" }, el("h4", {}, "Final scoring"),
    el("table", {}, el("tr", {}, ...["", "Track", "Areas", "Senate", "Sets", "Pantheon", "Missions", "Denarii", "Total"].map((h) => el("th", {}, h))), rows), solo);
}

export function render(root, view, ctx = {}) {
  ctx = { actions: [], names: [], ...ctx };
  if (!root.querySelector("style[data-aor]")) root.append(el("style", { "data-aor": "1" }, STYLE));
  const menu = el("div", { class: "aor-menu", hidden: true });
  const board = el("div", { class: "aor" });
  board.append(el("div", { class: "aor-summary" }, view.summary));
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
  if (loc === "colosseum") return "the Colosseum";
  if (String(loc).startsWith("building:")) return `the ${loc.split(":")[1]} building`;
  if (String(loc).startsWith("plot:")) return `plot space ${Number(loc.split(":")[1]) + 1}`;
  return words(loc);
}

export function describeAction(action, view) {
  const p = action.payload || {};
  const names = (view && view.players || []).map((x) => x.name);
  const victim = (v) => (view && view.solo && v === 1 ? "the Rival" : names[v] || `seat ${v}`);
  switch (action.type) {
    case "keep_missions": return `Keep missions ${p.keep.map((m) => (view && view.catalogue.missions[m] || {}).name || m).join(" and ")}`;
    case "deploy_legion": return `Deploy a legion to ${cap(p.area)}`;
    case "launch_plot": return `Launch the plot in ${cap(p.province)}: ${cap(p.action)} against ${victim(p.victim)}`;
    case "end_plot_turn": return "End the plot turn";
    case "build": return `Build the next ${p.building} level`;
    case "end_build_turn": return "End the build turn";
    case "place_follower": return `Place a follower on ${locationWords(p.location)}${p.use_token ? " with the bonus token" : ""}`;
    case "move_legion": return p.from === "supply" ? `Send a legion to ${cap(p.to)}` : `Move a legion from ${cap(p.from)} to ${cap(p.to)}`;
    case "defect": return `${p.mode === "replace" ? "Replace" : "Send home"} a target legion in ${cap(p.area)}`;
    case "lure_move": return `Lure a target legion from ${cap(p.from)} to ${cap(p.to)}`;
    case "end_lure": return "Stop luring";
    case "pick_vote": return `Take the target's vote at Senate position ${p.position + 1}`;
    case "play_card": return `Play ${cardName(view, p.card)}`;
    case "pass": return "Play no card";
    case "forfeit_draw": return "Give up the draw (hand full)";
    case "sell_card": return `Sell ${cardName(view, p.card)} for 1 denarius`;
    case "discard_card": return `Discard ${cardName(view, p.card)}`;
    case "form_set": return `Form a ${p.as_type} set (${p.cards.map((c) => cardName(view, c)).join(", ")})`;
    case "exchange": return `Exchange ${3 * p.count} denarii for ${p.count} glory`;
    case "tax": return p.mode === "double" ? "Double taxation" : "Normal taxation";
    case "rival_card": return "The Rival plays a card";
    default: return cap(action.type);
  }
}

export function describeEvent(event, names = []) {
  const a = event.actor || {};
  const who = a.seat !== undefined && a.seat !== null ? (names[a.seat] || `Seat ${a.seat}`) : (a.role === "referee" ? "Referee" : "The Rival");
  const t = String(event.type || "");
  const type = t.includes(".") ? t.slice(t.indexOf(".") + 1) : t;
  const p = event.payload || {};
  switch (type) {
    case "keep_missions": return `${who} kept two missions`;
    case "deploy_legion": return `${who} deployed a legion to ${cap(p.area)}`;
    case "launch_plot": return `${who} launched a plot in ${cap(p.province)} (${words(p.action)})`;
    case "end_plot_turn": return `${who} ended the plot turn`;
    case "build": return `${who} built a ${p.building} tile`;
    case "end_build_turn": return `${who} ended the build turn`;
    case "place_follower": return `${who} placed a follower on ${locationWords(p.location)}${p.use_token ? " with the bonus token" : ""}`;
    case "move_legion": return p.from === "supply" ? `${who} sent a legion to ${cap(p.to)}` : `${who} moved a legion from ${cap(p.from)} to ${cap(p.to)}`;
    case "defect": return `${who} made a legion defect in ${cap(p.area)}`;
    case "lure_move": return `${who} lured a legion from ${cap(p.from)} to ${cap(p.to)}`;
    case "end_lure": return `${who} stopped luring`;
    case "pick_vote": return `${who} took a vote out of the Senate`;
    case "play_card": return `${who} played ${p.card}`;
    case "pass": return `${who} played no card`;
    case "forfeit_draw": return `${who} gave up a draw`;
    case "sell_card": return `${who} sold ${p.card}`;
    case "discard_card": return `${who} discarded ${p.card}`;
    case "form_set": return `${who} formed a ${p.as_type} set`;
    case "exchange": return `${who} exchanged ${3 * p.count} denarii for ${p.count} glory`;
    case "tax": return `${who} taxed (${p.mode})`;
    case "rival_card": return "The Rival played a card";
    default: return `${who}: ${words(type)}`;
  }
}
