// In the Shadow of the Emperor board renderer: the throne and round track, the seven
// electorates (elector, aristocrat, city and castle spaces), the card stacks, the families.
// Same contract as every renderer: render(root, view, ctx), describeAction(action, view),
// describeEvent(event, names).
// Every space is clickable for the actions that name it (as space, target or source);
// when one space stands for several actions, a small menu offers them.
import { t as _, tn } from "/static/js/i18n.js";
import { sentence } from "/static/js/sentences.js";

import { h as el } from "/static/js/dom.js";

const ELECTORATE_SHORT = {
  trier: _("Trier"), koeln: _("Köln"), mainz: _("Mainz"), pfalz: _("Pfalz"),
  sachsen: _("Saxony"), brandenburg: _("Brandenburg"), boehmen: _("Bohemia"),
};
const PRIVILEGE_WORDS = {
  trier: _("IV: an exhausted action"), koeln: _("IV: free Doctor"), mainz: _("V: +1 VP"),
  pfalz: _("IV: free baron 15"), sachsen: _("I: +2 thalers"), brandenburg: _("IV: Gray Eminence"),
  boehmen: _("VI: 2 votes"),
};
const CARD_NAMES = {
  rival: _("Rival"), doctor: _("Doctor"), move: _("Move"), pope: _("The Pope"), church_influence: _("Church Influence"),
  excommunication: _("Excommunication"), indulgence: _("Indulgence"), permit: _("Permit"), ordinance: _("Ordinance"),
  promotion: _("Promotion"), foreign_kings_daughter: _("Foreign King's Daughter"), gray_eminence: _("Gray Eminence"),
};
const PIECE_WORDS = {
  empire_city: _("the first empire city"), elector: _("a baron 45 as elector"), couple35: _("a couple aged 35"),
  baron25: _("a baron aged 25"), couple15: _("a couple aged 15"), knight: _("a knight"),
};
const ROUND_TRACK = [_("2 VP, empire city"), _("2 VP, empire city"), _("2 VP, 1 thaler, move a city"), _("1 VP, 2 thalers"), _("1 VP")];
const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e7b45", "#8a6d00"];

const STYLE = `
.soe { font: 14px/1.35 system-ui, sans-serif; display: grid; gap: .7rem; }
.soe h4 { margin: 0 0 .3rem; font-size: .95rem; }
.soe-summary { font-weight: 600; }
.soe-top { display: flex; flex-wrap: wrap; gap: .8rem; align-items: stretch; }
.soe-box { border: 1px solid #bbb; border-radius: 6px; padding: .4rem .5rem; background: #fff; }
.soe-track { display: flex; gap: .25rem; }
.soe-track div { border: 1px solid #ccc; border-radius: 4px; padding: .15rem .3rem; font-size: .75rem; min-width: 4.5rem; }
.soe-track div.now { border: 2px solid #333; background: #fff6d5; }
.soe-row { display: grid; grid-template-columns: repeat(auto-fill, minmax(11.5rem, 1fr)); gap: .45rem; }
.soe-el { border: 2px solid #8884; border-radius: 7px; padding: .35rem; background: #fbfaf6; }
.soe-el.arch { background: #fbeff4; }
.soe-el.out { border-style: dashed; background: #ecebe6; color: #4a4944; }
.soe-el .name { font-weight: 700; }
.soe-el .meta { font-size: .72rem; color: #555; }
.soe-spaces { display: flex; flex-wrap: wrap; gap: .2rem; margin-top: .2rem; align-items: center; }
.soe-slot { min-width: 2.5rem; height: 1.75rem; border: 1px dashed #999; border-radius: 4px; display: inline-flex; align-items: center; justify-content: center; font-size: .72rem; background: #fff; }
.soe-slot.elector { border: 2px solid #444; min-width: 3.3rem; }
.soe-slot.castle { border-style: solid; border-color: #595959; background: #eee; }
.soe-slot.city { border-radius: 50%; min-width: 1.75rem; }
.soe-slot.used { box-shadow: inset 0 0 0 2px #999; }
.soe-slot.clickable { cursor: pointer; box-shadow: 0 0 0 3px #2e86de88; }
.soe-slot.clickable:hover { box-shadow: 0 0 0 3px #2e86de; }
.soe-piece { color: #fff; border-radius: 3px; padding: 0 .2rem; font-weight: 700; font-size: .72rem; }
.soe-empire { background: #222; color: #fff; border-radius: 50%; padding: .05rem .3rem; font-size: .68rem; }
.soe table { border-collapse: collapse; }
.soe td, .soe th { border: 1px solid #ccc; padding: .15rem .35rem; font-size: .8rem; text-align: center; }
.soe tr.me td { font-weight: 700; }
.soe-card { display: inline-block; border-radius: 4px; padding: .1rem .3rem; margin: .1rem; font-size: .75rem; border: 1px solid #0003; }
.soe-card.blue { background: #d6e6fa; } .soe-card.pink { background: #fad6e6; }
.soe-card.empty { border-style: dashed; color: #4a4944; }
.soe-card.clickable { cursor: pointer; box-shadow: 0 0 0 2px #2e86de; }
.soe-menu { border: 1px solid #2e86de; border-radius: 6px; padding: .4rem; background: #f4f9ff; display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; }
.soe-menu[hidden] { display: none; }
.soe-menu button { font-size: .8rem; }
`;

function seatName(names, seat) {
  if (seat === null || seat === undefined) return "nobody";
  return (names && names[seat]) || _("Seat {seat}", { seat });
}

function localType(type) {
  const t = String(type || "");
  return t.includes(".") ? t.slice(t.indexOf(".") + 1) : t;
}

export function locWords(loc) {
  if (loc === null || loc === undefined) return "—";
  if (loc === "throne") return _("the throne");
  if (loc === "supply") return _("the supply");
  const [eid, rest] = String(loc).split("/");
  const name = ELECTORATE_SHORT[eid] || eid;
  if (rest === "elector") return _("{name}'s elector seat", { name });
  let m = /^a(\d+)$/.exec(rest || "");
  if (m) return _("{name} space {v0}", { name, v0: Number(m[1]) + 1 });
  m = /^city(\d+)$/.exec(rest || "");
  if (m) return _("{name} city {v0}", { name, v0: Number(m[1]) + 1 });
  m = /^castle(\d+)$/.exec(rest || "");
  if (m) return _("{name} castle", { name });
  return String(loc);
}

function cardWords(card) { return CARD_NAMES[card] || card; }

function effectWords(p) {
  const bits = [];
  if (p.side) bits.push(_("as a {side}", { side: tn(p.side) }));
  if (p.target) bits.push(_("on {v0}", { v0: locWords(p.target) }));
  if (p.space) bits.push(p.target ? _("to {place}", { place: locWords(p.space) }) : _("at {place}", { place: locWords(p.space) }));
  return bits.join(" ");
}

export function describeAction(action, view) {
  const p = action.payload || {};
  switch (action.type) {
    case "place_start_piece": {
      const piece = view && view.awaiting ? view.awaiting.piece : null;
      return _("Place {v0} on {v1}", { v0: PIECE_WORDS[piece] || _("your piece"), v1: locWords(p.space) });
    }
    case "enthrone": return _("Put the noble on {v0} on the throne", { v0: locWords(p.space) });
    case "place_son": return _("Place your son (baron 15) on {v0}", { v0: locWords(p.space) });
    case "decline_son": return _("Do not place the son");
    case "propose_marriage": return _("Offer your daughter to the baron on {v0}", { v0: locWords(p.target) });
    case "send_to_convent": return _("Send your daughter to the convent (+1 thaler)");
    case "answer_marriage": return p.accept ? _("Accept the marriage") : _("Refuse the marriage");
    case "take_card":
      if (p.decline) return _("Take {card} without its action{extra}", { card: cardWords(p.card), extra: p.side ? _(" ({side} price)", { side: tn(p.side) }) : "" });
      return _("Take {v0} {v1}", { v0: cardWords(p.card), v1: effectWords(p) }).trim();
    case "use_privilege":
      if (p.electorate === "trier") return _("Trier privilege: {v0} {v1}", { v0: cardWords(p.card), v1: effectWords(p) }).trim();
      if (p.electorate === "koeln") return _("Köln privilege: Doctor on {v0}", { v0: locWords(p.target) });
      if (p.electorate === "pfalz") return _("Pfalz privilege: free baron 15 at {v0}", { v0: locWords(p.space) });
      return _("Brandenburg privilege: take the Gray Eminence");
    case "knight":
      return p.source === "supply" ? _("Knight from supply to {v0} (1 thaler)", { v0: locWords(p.space) }) : _("Move knight {v0} → {v1} (1 thaler)", { v0: locWords(p.source), v1: locWords(p.space) });
    case "pass": return _("Pass (for the rest of the phase)");
    case "place_gray_eminence": return _("Place the gray eminence beside {v0}", { v0: ELECTORATE_SHORT[p.electorate] || p.electorate });
    case "decline_gray_eminence": return _("Keep the gray eminence's baron in supply");
    case "break_tie": return _("Let {who} win the tie", { who: view && view.names ? view.names[p.winner] : _("seat {n}", { n: p.winner }) });
    case "choose_elector": return _("Make the noble on {v0} elector", { v0: locWords(p.space) });
    case "place_displaced": return _("Place the displaced noble on {v0}", { v0: locWords(p.space) });
    case "take_back_displaced": return _("Take the displaced noble back into your supply");
    case "name_target": return _("Name {v0}", { v0: ELECTORATE_SHORT[p.electorate] || p.electorate });
    case "decline_target": return _("Name no electorate");
    case "vote": return p.side === "rival" ? _("Vote for the Rival (secret)") : _("Vote for the Emperor (secret)");
    case "place_empire_city": return _("New empire city on {v0}", { v0: locWords(p.space) });
    case "move_empire_city": return _("Move the empire city {v0} → {v1}", { v0: locWords(p.source), v1: locWords(p.space) });
    case "skip_empire_city": return _("Leave the empire cities as they are");
    default: return null;
  }
}

export function describeEvent(event, names = []) {
  const a = event.actor || {};
  const seat = a.seat !== undefined ? a.seat : event.seat;
  const who = seat !== undefined && seat !== null ? seatName(names, seat) : (a.role === "referee" ? _("Referee") : _("System"));
  const p = event.payload || {};
  switch (localType(event.type)) {
    case "place_start_piece": return _("{who} placed a starting piece on {v0}", { who, v0: locWords(p.space) });
    case "enthrone": return _("{who} put the noble on {v0} on the throne", { who, v0: locWords(p.space) });
    case "place_son": return _("{who} placed a son on {v0}", { who, v0: locWords(p.space) });
    case "decline_son": return _("{who} did not place a son", { who });
    case "propose_marriage": return _("{who} offered a daughter to the baron on {v0}", { who, v0: locWords(p.target) });
    case "send_to_convent": return _("{who} sent a daughter to the convent", { who });
    case "answer_marriage": return _("{who} {v0} the marriage", { who, v0: p.accept ? _("accepted") : _("refused") });
    case "take_card":
      return p.decline ? _("{who} took {v0} without its action", { who, v0: cardWords(p.card) }) : _("{who} took {v0} {v1}", { who, v0: cardWords(p.card), v1: effectWords(p) }).trim();
    case "use_privilege": return _("{who} used the {electorate} privilege {card}{effect}", { who, electorate: ELECTORATE_SHORT[p.electorate] || p.electorate, card: p.card ? `(${cardWords(p.card)}) ` : "", effect: effectWords(p) }).trim();
    case "knight": return p.source === "supply" ? _("{who} placed a knight on {v0}", { who, v0: locWords(p.space) }) : _("{who} moved a knight from {v0} to {v1}", { who, v0: locWords(p.source), v1: locWords(p.space) });
    case "pass": return _("{who} passed", { who });
    case "place_gray_eminence": return _("{who} placed the gray eminence beside {v0}", { who, v0: ELECTORATE_SHORT[p.electorate] || p.electorate });
    case "decline_gray_eminence": return _("{who} placed no gray eminence", { who });
    case "break_tie": return _("{who} (emperor) gave the tie to {v0}", { who, v0: seatName(names, p.winner) });
    case "choose_elector": return _("{who} seated the noble from {v0} as elector", { who, v0: locWords(p.space) });
    case "place_displaced": return _("{who} placed a displaced noble on {v0}", { who, v0: locWords(p.space) });
    case "take_back_displaced": return _("{who} took the displaced noble back into supply", { who });
    case "name_target": return _("{who} named {v0}", { who, v0: ELECTORATE_SHORT[p.electorate] || p.electorate });
    case "decline_target": return _("{who} named no electorate", { who });
    case "vote": return p.side && !p.hidden ? _("{who} voted for the {side}", { who, side: tn(p.side) }) : _("{who} cast a secret vote", { who });
    case "place_empire_city": return _("{who} placed an empire city on {v0}", { who, v0: locWords(p.space) });
    case "move_empire_city": return _("{who} moved an empire city to {v0}", { who, v0: locWords(p.space) });
    case "skip_empire_city": return _("{who} left the empire cities", { who });
    default: return null;
  }
}

// -- drawing -----------------------------------------------------------------------

function pieceNode(piece) {
  if (piece === null || piece === undefined) return null;
  if (piece === "empire") return el("span", { class: "soe-empire", title: _("empire city") }, "E");
  if (typeof piece === "number") {
    return el("span", { class: "soe-piece", style: `background:${SEAT_COLOURS[piece]}` }, "■");
  }
  const colour = SEAT_COLOURS[piece.owner] || "#555";
  if (piece.knight) return el("span", { class: "soe-piece", style: `background:${colour}`, title: _("knight") }, "K");
  const label = `${piece.couple ? "♥" : "B"}${piece.age}`;
  return el("span", { class: "soe-piece", style: `background:${colour}`, title: _("{v0} aged {age}", { v0: piece.couple ? _("couple") : _("baron"), age: piece.age }) }, label);
}

function actionsFor(ctx, loc) {
  return (ctx.actions || []).filter((a) => {
    const p = a.payload || {};
    return p.space === loc || p.target === loc || p.source === loc;
  });
}

function clickable(node, actions, ctx, view, menu) {
  if (!actions.length) return node;
  node.classList.add("clickable");
  node.title = actions.map((a) => describeAction(a, view)).join("\n");
  node.addEventListener("click", () => {
    if (actions.length === 1) { ctx.act(actions[0]); return; }
    menu.replaceChildren(el("span", null, _("Choose: ")));
    for (const a of actions) menu.append(el("button", { type: "button", onclick: () => { menu.hidden = true; ctx.act(a); } }, describeAction(a, view)));
    menu.append(el("button", { type: "button", onclick: () => { menu.hidden = true; } }, _("Cancel")));
    menu.hidden = false;
  });
  return node;
}

function slot(cls, loc, piece, ctx, view, menu) {
  return clickable(el("span", { class: `soe-slot ${cls}`, title: locWords(loc) }, pieceNode(piece)), actionsFor(ctx, loc), ctx, view, menu);
}

function electorate(area, ctx, view, menu) {
  const id = area.id;
  const box = el("div", { class: `soe-el${area.archdiocese ? " arch" : ""}${area.in_play ? "" : " out"}` },
    el("div", { class: "name" }, tn(area.name), area.in_play ? "" : _(" (out of play)")),
    el("div", { class: "meta" }, _("{votes} vote{v0} · {v1}{v2}", { votes: area.votes, v0: area.votes > 1 ? "s" : "", v1: PRIVILEGE_WORDS[area.privilege] || "", v2: area.privilege_used ? _(" · used") : "" })));
  const elector = slot(_("elector{v0}", { v0: area.privilege_used ? _(" used") : "" }), `${id}/elector`, area.elector, ctx, view, menu);
  const eminences = (area.gray_eminences || []).map((s) => el("span", { class: "soe-piece", style: `background:${SEAT_COLOURS[s]}`, title: _("gray eminence") }, _("GE")));
  box.append(el("div", { class: "soe-spaces" }, _("Elector "), elector, eminences));
  box.append(el("div", { class: "soe-spaces" }, area.aristocrat_spaces.map((p, i) => slot("", `${id}/a${i}`, p, ctx, view, menu))));
  box.append(el("div", { class: "soe-spaces" },
    area.city_spaces.map((p, i) => slot("city", `${id}/city${i}`, p, ctx, view, menu)),
    area.castle_spaces.map((p, i) => slot("castle", `${id}/castle${i}`, p, ctx, view, menu))));
  const privilege = (ctx.actions || []).filter((a) => a.type === "use_privilege" && a.payload.electorate === id && !a.payload.target && !a.payload.space);
  const named = (ctx.actions || []).filter((a) => (a.type === "name_target" || a.type === "place_gray_eminence") && a.payload.electorate === id);
  return clickable(box, [...privilege, ...named], ctx, view, menu);
}

function cards(view, ctx, menu) {
  const wrap = el("div", { class: "soe-box" }, el("h4", null, _("Action cards")));
  for (const c of view.cards) {
    const cost = typeof c.cost === "object" ? `${c.cost.baron}/${c.cost.couple}` : c.cost;
    const node = el("span", { class: `soe-card ${c.color}${c.left ? "" : " empty"}`, title: _("phase {phase}", { phase: c.phase }) }, `${tn(c.name)} · ${cost}t · ×${c.left}`);
    const acts = (ctx.actions || []).filter((a) => (a.type === "take_card" && a.payload.card === c.id && !a.payload.target && !a.payload.space)
      || (a.type === "use_privilege" && a.payload.card === c.id && !a.payload.target && !a.payload.space));
    wrap.append(clickable(node, acts, ctx, view, menu));
  }
  wrap.append(el("div", { class: "meta" }, _("Knight: 1 thaler, any number of times. Empire cities in the box: {empire_cities_in_box}", { empire_cities_in_box: view.empire_cities_in_box })));
  return wrap;
}

function families(view, ctx) {
  const names = ctx.names || [];
  const table = el("table", null, el("tr", null, ["", _("Thalers"), _("Chip"), _("VP"), _("Nobles"), _("Knights"), _("Cities"), _("Cards"), ""].map((h) => el("th", null, h))));
  for (const p of view.players) {
    table.append(el("tr", { class: ctx.seat === p.seat ? "me" : null },
      el("td", { style: `border-left:6px solid ${SEAT_COLOURS[p.seat]}` }, seatName(names, p.seat), view.emperor === p.seat ? " 👑" : ""),
      el("td", null, p.thalers), el("td", null, p.chip), el("td", null, p.vp === null ? "?" : p.vp),
      el("td", null, p.supply.nobles), el("td", null, p.supply.knights), el("td", null, p.supply.cities),
      el("td", null, p.display.map((c) => el("span", { class: `soe-card ${(view.cards.find((x) => x.id === c) || {}).color || ""}` }, cardWords(c)))),
      el("td", null, p.passed ? _("passed") : "")));
  }
  return el("div", { class: "soe-box" }, el("h4", null, _("Families")), table);
}

function election(view, ctx) {
  const names = ctx.names || [];
  const box = el("div", { class: "soe-box" }, el("h4", null, _("Emperor election")));
  const v = view.voting;
  if (v) {
    box.append(el("div", null, _("Rival {v0} against Emperor {v1}. Votes: ", { v0: seatName(names, v.rival), v1: seatName(names, v.emperor) }),
      v.counts.map((n, s) => `${seatName(names, s)} ${n}`).join(", ")));
    box.append(el("div", null, _("Committed: {v0}", { v0: v.committed.map((s) => seatName(names, s)).join(", ") || _("nobody yet") })));
    if (v.own_vote) box.append(el("div", null, _("Your vote: {own_vote}", { own_vote: tn(v.own_vote) })));
    if (v.votes) box.append(el("div", null, _("Votes (referee): {v0}", { v0: Object.entries(v.votes).map(([s, c]) => `${seatName(names, Number(s))} ${tn(c)}`).join(", ") })));
  }
  const last = view.last_election;
  if (last) {
    box.append(el("div", null, _("Round {round}: {what} ", { round: last.round, what: last.winner === "rival" ? _("{who} won", { who: seatName(names, last.rival) }) : _("{who} kept the throne", { who: seatName(names, last.emperor) }) }),
      `(${last.totals.rival} : ${last.totals.emperor}) — `,
      Object.entries(last.choices).map(([s, side]) => `${seatName(names, Number(s))} → ${tn(side)}`).join(", ")));
  }
  const t = view.targets || {};
  if (t.church_influence || t.excommunication) {
    box.append(el("div", null, _("Church Influence: {v0} · Excommunication: {v1}", { v0: ELECTORATE_SHORT[t.church_influence] || "—", v1: ELECTORATE_SHORT[t.excommunication] || "—" })));
  }
  return v || last || t.church_influence || t.excommunication ? box : null;
}

export function render(root, view, ctx = {}) {
  ctx = { actions: [], names: [], act: async () => {}, ...ctx };
  const named = { ...view, names: ctx.names };
  const menu = el("div", { class: "soe-menu", hidden: true });
  const throne = slot("elector", "throne", view.throne, ctx, named, menu);
  const track = el("div", { class: "soe-track" }, ROUND_TRACK.map((text, i) => el("div", { class: view.round === i + 1 ? "now" : null }, el("b", null, _("Round {v0}", { v0: i + 1 })), el("br"), text)));
  const top = el("div", { class: "soe-top" },
    el("div", { class: "soe-box" }, el("h4", null, _("Throne")), throne, " ", seatName(ctx.names, view.emperor)),
    el("div", { class: "soe-box" }, el("h4", null, _("Round track")), track));
  if (view.displaced) top.append(el("div", { class: "soe-box" }, el("h4", null, _("Displaced")), pieceNode(view.displaced.noble)));
  const arch = view.electorates.filter((a) => a.archdiocese);
  const secular = view.electorates.filter((a) => !a.archdiocese);
  root.append(el("style", null, STYLE), el("div", { class: "soe" },
    el("div", { class: "soe-summary" }, sentence(view.summary)),
    top,
    el("div", { class: "soe-row" }, arch.map((a) => electorate(a, ctx, named, menu))),
    el("div", { class: "soe-row" }, secular.map((a) => electorate(a, ctx, named, menu))),
    menu,
    cards(view, ctx, menu),
    election(view, ctx),
    families(view, ctx)));
}
