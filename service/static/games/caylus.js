// Caylus board renderer: the road, the special buildings, the castle, the favour table,
// the players' stocks. Same contract as every renderer: render(root, view, ctx),
// describeAction(action, view), describeEvent(event, names).
// Board elements are clickable for the actions they stand for; where one element stands
// for several actions (a tile that can be built with different cubes), a small menu
// offers them.
import { t as _, tn } from "/static/js/i18n.js";
import { sentence } from "/static/js/sentences.js";

import { h as el } from "/static/js/dom.js";

const CUBES = ["food", "wood", "stone", "cloth", "gold"];
const SPECIALS = ["gate", "trading_post", "merchants_guild", "joust_field", "stables", "inn"];
const SPECIAL_NAMES = {
  gate: _("Gate"), trading_post: _("Trading Post"), merchants_guild: _("Merchants' Guild"),
  joust_field: _("Joust Field"), stables: _("Stables"), inn: _("Inn"), castle: _("Castle"),
};
const ROWS = ["prestige", "deniers", "resources", "buildings"];
const ROW_LABELS = {
  prestige: [_("1 PP"), _("2 PP"), _("3 PP"), _("4 PP"), _("5 PP")],
  deniers: ["3 d", "4 d", "5 d", "6 d", "7 d"],
  resources: [_("food"), _("wood/stone"), _("cloth"), _("1 cube → 2"), _("gold")],
  buildings: ["—", _("Carpenter −1 wood"), _("Mason −1 stone"), _("Lawyer, no denier"), _("Architect")],
};
const COLOURS = {
  neutral: "#f5b7c5", fixed: "#d7ccc8", wood: "#c49a6c", stone: "#b0b6bb",
  residential: "#9fd39f", prestige: "#8fb8e8", empty: "#f4f1ea",
};
const CUBE_COLOURS = { food: "#e58fb1", wood: "#8d5a2b", stone: "#6b7075", cloth: "#7e57c2", gold: "#e6b800" };
const STYLE = `
.cay { font: 14px/1.35 system-ui, sans-serif; display: grid; gap: .7rem; }
.cay h4 { margin: 0 0 .3rem; font-size: .95rem; }
.cay-summary { font-weight: 600; }
.cay-row { display: flex; flex-wrap: wrap; gap: .35rem; align-items: stretch; }
.cay-tile { position: relative; min-width: 5.6rem; max-width: 7.5rem; padding: .3rem .35rem; border: 2px solid #5553; border-radius: 6px; background: #fff; font-size: .8rem; }
.cay-tile .num { font-size: .7rem; color: #1b1b1b; }
.cay-tile .name { font-weight: 600; display: block; }
.cay-tile.owned { border-width: 3px; }
.cay-tile.clickable { cursor: pointer; box-shadow: 0 0 0 3px #2e86de88; }
.cay-tile.clickable:hover { box-shadow: 0 0 0 3px #2e86de; }
.cay-tile.beyond { border-style: dashed; background-image: repeating-linear-gradient(45deg, #0000 0 6px, #0000000a 6px 8px); }
.cay-mark { display: inline-block; font-size: .68rem; font-weight: 700; border-radius: 3px; padding: 0 .25rem; margin-right: .15rem; color: #fff; }
.cay-mark.provost { background: #555; } .cay-mark.bailiff { background: #111; } .cay-mark.trigger { background: #a04000; }
.cay-dot { display: inline-block; width: .85em; height: .85em; border-radius: 50%; border: 1px solid #0006; vertical-align: middle; margin: 0 .1rem; }
.cay-house { display: inline-block; width: .9em; height: .9em; border-radius: 2px; border: 1px solid #0005; margin: .08rem; vertical-align: middle; }
.cay-house.free { background: #fff; }
.cay-cube { display: inline-block; min-width: 1.5em; text-align: center; border-radius: 3px; color: #fff; font-size: .75rem; padding: 0 .2rem; margin-right: .15rem; }
.cay table { border-collapse: collapse; }
.cay td, .cay th { border: 1px solid #ccc; padding: .15rem .35rem; font-size: .8rem; text-align: center; }
.cay td.open { background: #fffbe6; } .cay td.locked { background: #eee; color: #555; text-decoration: line-through; }
.cay td.clickable { cursor: pointer; box-shadow: inset 0 0 0 2px #2e86de; }
.cay tr.me td, .cay tr.me th { font-weight: 700; }
.cay-menu { border: 1px solid #2e86de; border-radius: 6px; padding: .4rem; background: #f4f9ff; display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; }
.cay-menu[hidden] { display: none; }
.cay-menu button { font-size: .8rem; }
`;

function seatColour(seat) { return `var(--seat${seat}, hsl(${seat * 72}, 60%, 45%))`; }
function seatName(names, seat) { return (names && names[seat]) || _("Seat {seat}", { seat }); }
function dot(seat, names) { return el("span", { class: `cay-dot seat-${seat}`, style: `background:${seatColour(seat)}`, title: seatName(names, seat) }); }

function tileName(view, id) {
  if (!id) return _("empty lot");
  const c = view && view.catalogue && view.catalogue[id];
  return tn(c ? c.name : String(id).replace(/_/g, " "));
}

function costText(cost) {
  return Object.entries(cost || {}).map(([k, v]) => `${v} ${tn(k)}`).join(" + ");
}

// -- actions attached to board elements ----------------------------------------------
function matching(ctx, pred) { return (ctx.actions || []).filter(pred); }

function makeClickable(node, actions, ctx, view, menu) {
  if (!actions.length) return node;
  node.classList.add("clickable");
  node.title = actions.length === 1 ? describeAction(actions[0], view) : _("{length} choices", { length: actions.length });
  node.addEventListener("click", (ev) => {
    ev.stopPropagation();
    if (actions.length === 1) { ctx.act(actions[0]); return; }
    menu.replaceChildren(
      el("span", null, _("Choose: ")),
      ...actions.map((a) => el("button", { type: "button", onclick: () => ctx.act(a) }, describeAction(a, view))),
      el("button", { type: "button", onclick: () => { menu.hidden = true; } }, _("Cancel")),
    );
    menu.hidden = false;
  });
  return node;
}

function targetActions(ctx, target) {
  return matching(ctx, (a) => (a.type === "place_worker" || a.type === "gate_move") && a.payload.target === target);
}

// -- sections of the board ---------------------------------------------------------------
function specialBuildings(view, ctx, menu) {
  const sp = view.special || {};
  const tiles = SPECIALS.map((id) => {
    let who = [];
    if (id === "stables") who = (sp.stables || []).map((s, i) => el("span", null, `${i + 1}:`, dot(s, ctx.names)));
    else if (id === "inn") {
      who = [el("span", null, _("in "), sp.inn_left !== null && sp.inn_left !== undefined ? dot(sp.inn_left, ctx.names) : "—"),
        el("span", null, _(" stay "), sp.inn_right !== null && sp.inn_right !== undefined ? dot(sp.inn_right, ctx.names) : "—")];
    } else if (sp[id] !== null && sp[id] !== undefined) who = [dot(sp[id], ctx.names)];
    const tile = el("div", { class: "cay-tile", "data-target": id, style: "background:#fdebd0" },
      el("span", { class: "name" }, SPECIAL_NAMES[id]), ...who);
    return makeClickable(tile, targetActions(ctx, id), ctx, view, menu);
  });
  const bridge = el("div", { class: "cay-tile", style: "background:#e8f0f8" },
    el("span", { class: "name" }, _("Bridge")),
    ...(view.passed || []).map((s, i) => el("span", null, `${i + 1}:`, dot(s, ctx.names))));
  return el("section", null, el("h4", null, _("Before the bridge")), el("div", { class: "cay-row" }, ...tiles, bridge));
}

function roadSection(view, ctx, menu) {
  const triggers = {};
  for (const s of (view.castle && view.castle.sections) || []) triggers[s.trigger] = s.id;
  const cells = (view.road || []).map((sp) => {
    const owned = sp.owner !== null && sp.owner !== undefined;
    const tile = el("div", {
      class: `cay-tile${owned ? " owned" : ""}${sp.space > view.provost ? " beyond" : ""}`,
      "data-space": sp.space,
      style: `background:${COLOURS[sp.colour] || "#fff"};${owned ? `border-color:${seatColour(sp.owner)}` : ""}`,
    },
    el("span", { class: "num" }, `${sp.space} `),
    sp.space === view.provost ? el("span", { class: "cay-mark provost", title: _("provost") }, "P") : null,
    sp.space === view.bailiff ? el("span", { class: "cay-mark bailiff", title: _("bailiff") }, "B") : null,
    triggers[sp.space] ? el("span", { class: "cay-mark trigger", title: _("{v0} scoring", { v0: tn(triggers[sp.space]) }) }, triggers[sp.space][0].toUpperCase()) : null,
    el("span", { class: "name" }, sp.building ? tn(sp.name) : "·"),
    owned ? el("span", null, _("owner "), dot(sp.owner, ctx.names)) : null,
    sp.worker !== null && sp.worker !== undefined ? el("span", null, _(" worker "), dot(sp.worker, ctx.names)) : null,
    sp.convert_to !== null && sp.convert_to !== undefined ? el("span", null, _(" → residence "), dot(sp.convert_to, ctx.names)) : null);
    const acts = targetActions(ctx, `road:${sp.space}`).concat(matching(ctx, (a) =>
      (a.type === "convert" || a.type === "build_prestige") && a.payload.space === sp.space));
    return makeClickable(tile, acts, ctx, view, menu);
  });
  return el("section", null, el("h4", null, _("The road (provost P, bailiff B)")), el("div", { class: "cay-row" }, ...cells));
}

function castleSection(view, ctx, menu) {
  const c = view.castle || { sections: [] };
  const sections = c.sections.map((s) => {
    const houses = [];
    for (let i = 0; i < s.places; i++) {
      const seat = s.houses[i];
      houses.push(seat === undefined ? el("span", { class: "cay-house free" })
        : el("span", { class: "cay-house", style: `background:${seatColour(seat)}`, title: seatName(ctx.names, seat) }));
    }
    return el("div", { class: "cay-tile", style: "max-width:14rem" },
      el("span", { class: "name" }, _("{v0}{v1} ({pp_per_house} PP, trigger {trigger}){v2}", { v0: tn(s.id[0].toUpperCase() + s.id.slice(1)), v1: "", pp_per_house: s.pp_per_house, trigger: s.trigger, v2: s.scored ? _(" — scored") : "" })),
      ...houses);
  });
  const workers = el("div", { class: "cay-tile", "data-target": "castle" },
    el("span", { class: "name" }, _("Castle workers")),
    ...(c.workers || []).map((s, i) => el("span", null, `${i + 1}:`, dot(s, ctx.names))));
  makeClickable(workers, targetActions(ctx, "castle"), ctx, view, menu);
  const batches = matching(ctx, (a) => a.type === "give_batch" || a.type === "castle_done");
  const buttons = batches.map((a) => el("button", { type: "button", onclick: () => ctx.act(a) }, describeAction(a, view)));
  return el("section", null, el("h4", null, _("The castle")), el("div", { class: "cay-row" }, workers, ...sections), buttons.length ? el("div", { class: "cay-row" }, ...buttons) : null);
}

function favourSection(view, ctx, menu) {
  const f = view.favours || { markers: [], columns_open: 2 };
  const head = el("tr", null, el("th", null, _("Row")), ...[1, 2, 3, 4, 5].map((c) => el("th", null, `${c}`)));
  const rows = ROWS.map((row, r) => {
    const cells = [1, 2, 3, 4, 5].map((col) => {
      const here = (f.markers || []).map((m, s) => (m[r] === col ? s : null)).filter((s) => s !== null);
      const seedLawyer = row === "buildings" && col === 4 && (view.options || {}).favour_lawyer_payment === "deniers";
      const label = seedLawyer ? _("Lawyer, no cloth") : ROW_LABELS[row][col - 1];
      const td = el("td", { class: col <= f.columns_open ? "open" : "locked" }, label, el("br"), ...here.map((s) => dot(s, ctx.names)));
      return makeClickable(td, matching(ctx, (a) => a.type === "choose_favour" && a.payload.row === row && a.payload.column === col), ctx, view, menu);
    });
    const start = (f.markers || []).map((m, s) => (m[r] === 0 ? s : null)).filter((s) => s !== null);
    return el("tr", null, el("th", null, tn(row), " ", ...start.map((s) => dot(s, ctx.names))), ...cells);
  });
  const owed = (f.owed || []).length ? el("div", null, _("Favours owed: "), ...(f.owed || []).map((s) => dot(s, ctx.names))) : null;
  return el("section", null, el("h4", null, _("Royal favours (columns 1–{columns_open} open)", { columns_open: f.columns_open })), el("table", null, head, ...rows), owed);
}

function playersSection(view, ctx) {
  const head = el("tr", null, ...["", _("PP"), "deniers", ...CUBES, "workers", "houses"].map((h) => el("th", null, h ? tn(h) : h)));
  const order = view.order || [];
  const rows = (view.players || []).map((p, s) => el("tr", { class: ctx.seat === s ? "me" : null },
    el("th", { style: "text-align:left" }, dot(s, ctx.names), seatName(ctx.names, s), order.length ? ` (#${order.indexOf(s) + 1})` : ""),
    el("td", null, p.pp), el("td", null, p.deniers),
    ...CUBES.map((c) => el("td", null, el("span", { class: "cay-cube", style: `background:${CUBE_COLOURS[c]}` }, p[c]))),
    el("td", null, p.workers), el("td", null, p.houses)));
  return el("section", null, el("h4", null, _("Players (turn order #)")), el("table", null, head, ...rows));
}

function supplySection(view, ctx, menu) {
  const seen = new Set();
  const tiles = (view.supply || []).filter((id) => (seen.has(id) ? false : seen.add(id))).map((id) => {
    const c = (view.catalogue || {})[id] || {};
    const tile = el("div", { class: "cay-tile", style: `background:${COLOURS[c.colour] || "#fff"}` },
      el("span", { class: "name" }, tn(c.name || id)), el("span", null, costText(c.cost)), el("br"), el("span", null, _("{v0} PP", { v0: c.prestige || 0 })));
    const acts = matching(ctx, (a) => (a.type === "build" || a.type === "build_prestige" ||
      (a.type === "choose_favour" && a.payload.row === "buildings")) && a.payload.building === id);
    return makeClickable(tile, acts, ctx, view, menu);
  });
  return el("section", null, el("h4", null, _("Buildings in the supply")), el("div", { class: "cay-row" }, ...tiles));
}

function finalSection(view, ctx) {
  if (!view.final) return null;
  const head = el("tr", null, ...["", "before", "gold", "cubes", "deniers", "total"].map((h) => el("th", null, h ? tn(h) : h)));
  const rows = view.final.map((f, s) => el("tr", null, el("th", null, seatName(ctx.names, s)),
    el("td", null, f.before), el("td", null, `+${f.gold}`), el("td", null, `+${f.cubes}`), el("td", null, `+${f.deniers}`),
    el("td", null, (view.scores || [])[s])));
  return el("section", null, el("h4", null, _("Final conversion")), el("table", null, head, ...rows));
}

export function render(root, view, ctx = {}) {
  ctx = { actions: [], names: [], act: async () => {}, ...ctx };
  root.replaceChildren();
  if (!view || typeof view !== "object") { root.append(el("p", null, _("Nothing to show."))); return; }
  const menu = el("div", { class: "cay-menu" });
  menu.hidden = true;
  root.append(el("div", { class: "cay" },
    el("style", null, STYLE),
    el("div", { class: "cay-summary" }, sentence(view.summary)),
    menu,
    playersSection(view, ctx),
    specialBuildings(view, ctx, menu),
    roadSection(view, ctx, menu),
    castleSection(view, ctx, menu),
    favourSection(view, ctx, menu),
    supplySection(view, ctx, menu),
    finalSection(view, ctx)));
}

// -- words ----------------------------------------------------------------------------------
function targetWords(target, view) {
  if (!target) return "?";
  if (target.startsWith("road:")) {
    const n = Number(target.slice(5));
    const sp = view && view.road && view.road[n - 1];
    return sp && sp.name ? _("{name} (space {n})", { name: tn(sp.name), n }) : _("road space {n}", { n });
  }
  return _("the {v0}", { v0: SPECIAL_NAMES[target] || target });
}

function spaceWords(space, view) {
  const sp = view && view.road && view.road[space - 1];
  return _("{v0} (space {space})", { v0: sp && sp.name ? tn(sp.name) : _("space"), space });
}

function list(cubes) { return (cubes || []).map((c) => tn(c)).join(" + "); }

function favourWords(p, view) {
  const label = (ROW_LABELS[p.row] || [])[p.column - 1] || "";
  let extra = "";
  if (p.row === "resources" && p.column === 2) extra = `: ${list(p.gain)}`;
  if (p.row === "resources" && p.column === 4) extra = _(": pay {v0}, take {v1}", { v0: list(p.pay), v1: list(p.gain) });
  if (p.building) extra = `: ${tileName(view, p.building)}${p.any ? _(" (paying {cube})", { cube: tn(p.any) }) : ""}${p.space ? _(" on space {space}", { space: p.space }) : ""}`;
  else if (p.space) extra = _(": space {space}", { space: p.space });
  return _("{row} column {column} ({label}){extra}", { row: tn(p.row), column: p.column, label, extra });
}

export function describeAction(action, view) {
  const p = action.payload || {};
  switch (action.type) {
    case "place_worker": return _("Place a worker on {v0}", { v0: targetWords(p.target, view) });
    case "pass": return _("Pass");
    case "gate_move": return _("Move the Gate's worker to {v0}", { v0: targetWords(p.target, view) });
    case "gate_recall": return _("Take the Gate's worker back");
    case "guild_move_provost": return p.delta ? _("Move the provost {v0} {v1} (Guild)", { v0: p.delta > 0 ? _("forward") : _("back"), v1: Math.abs(p.delta) }) : _("Leave the provost (Guild)");
    case "joust": return p.pay ? _("Joust: pay 1 denier + 1 cloth for a favour") : _("Do not joust");
    case "inn_keep": return p.keep ? _("Stay in the Inn") : _("Leave the Inn");
    case "move_provost": return p.delta ? _("Pay {v0} to move the provost {v1} {v2}", { v0: Math.abs(p.delta), v1: p.delta > 0 ? _("forward") : _("back"), v2: Math.abs(p.delta) }) : _("Leave the provost");
    case "produce": return _("Produce option {v0}", { v0: p.option + 1 });
    case "owner_bonus": return _("Take 1 {cube} as the owner", { cube: tn(p.cube) });
    case "build": return _("Build the {building}{extra}", { building: tileName(view, p.building), extra: p.any ? _(" (paying {cube} as the any cube)", { cube: tn(p.any) }) : "" });
    case "convert": return _("Convert {v0} into a residence", { v0: spaceWords(p.space, view) });
    case "build_prestige": return _("Build the {v0} on your residence at space {space}", { v0: tileName(view, p.building), space: p.space });
    case "trade": return _("Exchange, tier {tier}{extra}", { tier: p.option + 1, extra: (p.cubes || []).length ? `: ${list(p.cubes)}` : "" });
    case "decline": return _("Do not use the building");
    case "give_batch": return _("Give a batch: food + {v0}", { v0: list(p.cubes) });
    case "castle_done": return _("Give no more batches");
    case "choose_favour": return _("Royal favour: {v0}", { v0: favourWords(p, view) });
    default: return String(action.type);
  }
}

export function describeEvent(event, names = []) {
  const a = event.actor || {};
  const who = a.seat !== undefined && a.seat !== null ? seatName(names, a.seat) : (a.role === "referee" ? _("Referee") : _("System"));
  const t = String(event.type || "");
  const type = t.includes(".") ? t.slice(t.indexOf(".") + 1) : t;
  const p = event.payload || {};
  switch (type) {
    case "place_worker": return _("{who} placed a worker on {v0}", { who, v0: targetWords(p.target, null) });
    case "pass": return _("{who} passed", { who });
    case "gate_move": return _("{who} moved the Gate's worker to {v0}", { who, v0: targetWords(p.target, null) });
    case "gate_recall": return _("{who} took the Gate's worker back", { who });
    case "guild_move_provost": return p.delta ? _("{who} moved the provost {v0}{delta} (Guild)", { who, v0: p.delta > 0 ? "+" : "", delta: p.delta }) : _("{who} left the provost (Guild)", { who });
    case "joust": return p.pay ? _("{who} jousted for a favour", { who }) : _("{who} did not joust", { who });
    case "inn_keep": return p.keep ? _("{who} stayed in the Inn", { who }) : _("{who} left the Inn", { who });
    case "move_provost": return p.delta ? _("{who} paid {v0} to move the provost {v1}{delta}", { who, v0: Math.abs(p.delta), v1: p.delta > 0 ? "+" : "", delta: p.delta }) : _("{who} left the provost", { who });
    case "produce": return _("{who} produced (option {v0})", { who, v0: p.option + 1 });
    case "owner_bonus": return _("{who} took 1 {cube} as the owner", { who, cube: tn(p.cube) });
    case "build": return _("{who} built the {v0}", { who, v0: tileName(null, p.building) });
    case "convert": return _("{who} converted space {space} into a residence", { who, space: p.space });
    case "build_prestige": return _("{who} built the {v0} on space {space}", { who, v0: tileName(null, p.building), space: p.space });
    case "trade": return _("{who} made an exchange (tier {tier}{extra})", { who, tier: p.option + 1, extra: (p.cubes || []).length ? `: ${list(p.cubes)}` : "" });
    case "decline": return _("{who} did not use the building", { who });
    case "give_batch": return _("{who} gave a batch (food + {v0})", { who, v0: list(p.cubes) });
    case "castle_done": return _("{who} finished in the castle", { who });
    case "choose_favour": return _("{who} took a royal favour: {v0}", { who, v0: favourWords(p, null) });
    default: return `${who}: ${type.replace(/_/g, " ")}`;
  }
}
