// Sultans of Karaya board: seats round a table, each with its card (face up, your own, or hidden),
// status cards (crown, prison, capture, fatigue, faction), the spare in the centre, the awaited step,
// your private notes and the round history. Seats and the spare are clickable for the actions they stand for.
import { t as _, tn } from "/static/js/i18n.js";
import { sentence } from "/static/js/sentences.js";

import { h as el, svg } from "/static/js/dom.js";

const ROLE = {
  sultan: [_("Sultan"), "#2a62c9"], guard: [_("Guard"), "#2a62c9"], assassin: [_("Assassin"), "#c62f2f"],
  slave: [_("Slave"), "#c62f2f"], slaver: [_("Slaver"), "#2f8f46"], dancer: [_("Belly Dancer"), "#2f8f46"],
  vizier: [_("Vizier"), "#2f8f46"], oracle: [_("Oracle"), "#2f8f46"],
};
const SIDE = { loyalists: _("Loyalists"), rebels: _("Rebels") };

const roleName = (r) => (r && ROLE[r] ? ROLE[r][0] : _("hidden card"));
const seatName = (s, names) => (s === "spare" ? _("the spare") : (names && names[s]) || _("Seat {s}", { s }));

function targetOf(action) {
  const p = action.payload || {};
  if (p.target !== undefined) return p.target;
  if (p.with !== undefined && p.with !== null) return p.with;
  return undefined;
}

export function describeAction(action, view) {
  const names = (view && view.names) || null;
  const p = action.payload || {};
  const who = (s) => seatName(s, names);
  switch (action.type) {
    case "investigate": return _("Investigate {v0}'s card", { v0: who(p.target) });
    case "swap": return _("Swap cards openly with {v0}", { v0: who(p.with) });
    case "hide": return p.with === null || p.with === undefined ? _("Hide your card without swapping") : _("Hide and secretly swap with {v0}", { v0: who(p.with) });
    case "execute": return _("Execute {v0}", { v0: who(p.target) });
    case "detain": return _("Detain {v0}", { v0: who(p.target) });
    case "assassinate": return _("Assassinate {v0}", { v0: who(p.target) });
    case "call_revolt": {
      const mine = view && view.you ? view.you.seat : undefined;
      const awaited = view && Array.isArray(view.to_act) && view.to_act.includes(mine);
      return awaited || mine === undefined ? _("Reveal and call a revolt") : _("Reveal and call a revolt now (out of turn)");
    }
    case "capture": return _("Capture {v0}", { v0: who(p.target) });
    case "dance": return _("Reveal and dance");
    case "manipulate": return _("Manipulate {who}{extra}", { who: who(p.target), extra: p.side ? _(" for the {side}", { side: SIDE[p.side] }) : "" });
    case "foretell": return _("Reveal and foretell");
    case "look": return _("Look at {v0}'s card", { v0: who(p.target) });
    case "predict": return _("Predict the {v0} win", { v0: SIDE[p.side] || p.side });
    case "respond": return { block: _("Block the assassination"), pass: _("Pass"), forbid: _("Reveal and forbid the detention"), accept: _("Accept the detention"), join: _("Reveal and join the revolt") }[p.choice] || p.choice;
    case "royal_claim": return _("Reveal the Sultan (royal claim)");
    case "window_timeout": return _("Close the window (timeout)");
    default: return action.type;
  }
}

export function describeEvent(event, names = []) {
  const seat = event.actor ? event.actor.seat : event.seat;
  const who = seat === null || seat === undefined ? _("The system") : seatName(seat, names);
  const t = String(event.type || "");
  const type = t.includes(".") ? t.slice(t.indexOf(".") + 1) : t;
  const p = event.payload || {};
  const them = (s) => seatName(s, names);
  switch (type) {
    case "investigate": return _("{who} investigated {v0}", { who, v0: them(p.target) });
    case "swap": return _("{who} swapped cards with {v0}", { who, v0: them(p.with) });
    case "hide": return p.with === undefined ? _("{who} hid with a secret exchange", { who }) : (p.with === null ? _("{who} hid without swapping", { who }) : _("{who} hid and swapped with {v0}", { who, v0: them(p.with) }));
    case "execute": return _("{who} executed {v0}", { who, v0: them(p.target) });
    case "detain": return _("{who} detained {v0}", { who, v0: them(p.target) });
    case "assassinate": return _("{who} attacked {v0}", { who, v0: them(p.target) });
    case "call_revolt": return _("{who} called a revolt", { who });
    case "capture": return _("{who} tried to capture {v0}", { who, v0: them(p.target) });
    case "dance": return _("{who} danced", { who });
    case "manipulate": return p.side ? _("{who} manipulated {v0} for the {side}", { who, v0: them(p.target), side: SIDE[p.side] || tn(p.side) }) : _("{who} manipulated {v0}", { who, v0: them(p.target) });
    case "foretell": return _("{who} began to foretell", { who });
    case "look": return _("{who} looked at {v0}'s card", { who, v0: them(p.target) });
    case "predict": return _("{who} predicted the {v0} would win", { who, v0: SIDE[p.side] || p.side });
    case "respond": return p.choice ? _("{who} answered {choice}", { who, choice: tn(p.choice) }) : _("{who} answered (sealed)", { who });
    case "royal_claim": return _("{who} revealed the Sultan", { who });
    case "window_timeout": return _("The window closed on timeout");
    default: return `${who}: ${type}`;
  }
}

function noteText(n, names) {
  const s = (x) => seatName(x, names);
  switch (n.kind) {
    case "revealed": return _("{v0} revealed: {v1}", { v0: s(n.seat), v1: roleName(n.role) });
    case "crowned": return _("The crown is placed before {v0}", { v0: s(n.seat) });
    case "died": return _("{v0} died ({v1})", { v0: s(n.seat), v1: roleName(n.role) });
    case "blocked": return _("{v0} blocked; the assassin dies", { v0: n.seats.map(s).join(", ") });
    case "not_a_slave": return _("{v0} is not a Slave", { v0: s(n.target) });
    case "captured": return _("{v0} was captured", { v0: s(n.target) });
    case "detained": return _("{v0} is detained", { v0: s(n.seat) });
    case "detention_forbidden": return _("{v0} forbade the detention", { v0: (n.seats || [n.seat]).map(s).join(", ") });
    case "revolt_called": return _("{v0} called a revolt{v1}", { v0: s(n.seat), v1: n.out_of_turn ? _(" out of turn") : "" });
    case "revolt_joined": return n.seats.length ? _("{v0} joined the revolt", { v0: n.seats.map(s).join(", ") }) : _("Nobody joined the revolt");
    case "fatigued": return _("{v0} is fatigued", { v0: s(n.seat) });
    case "turn_skipped": return _("{v0}'s turn is skipped", { v0: s(n.seat) });
    case "round_over": return _("Round {round} over: {v0}", { round: n.round, v0: n.winner ? _("the {side} win", { side: SIDE[n.winner] }) : _("no winner") });
    case "round_started": return _("Round {round} begins with {v0}", { round: n.round, v0: s(n.seat) });
    case "hid": return _("{v0} hid with a secret exchange", { v0: s(n.seat) });
    default: return null;
  }
}

function clickable(ctx, target) {
  return (ctx.actions || []).filter((a) => targetOf(a) === target);
}

function chooseAndAct(ctx, actions, view) {
  if (!actions.length) return;
  if (actions.length === 1) { ctx.act(actions[0]); return; }
  // several moves on one seat (investigate, swap, an ability...): offer them as buttons
  const menu = ctx.menu;
  if (!menu) { ctx.act(actions[0]); return; }
  menu.innerHTML = "";
  menu.append(el("span", {}, _("Choose: ")));
  for (const a of actions) menu.append(el("button", { type: "button", onclick: () => ctx.act(a) }, describeAction(a, view)));
  menu.hidden = false;
}

function drawTable(view, ctx) {
  const n = view.seats.length;
  const size = 460, c = size / 2, r = size / 2 - 62;
  const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, width: "100%", style: "max-width:560px", role: "group", "aria-label": _("The table: each seat's card") });
  root.append(svg("circle", { cx: c, cy: c, r: r - 40, fill: "#f3e6c4", stroke: "#b99a5b" }));
  const spareActs = clickable(ctx, "spare");
  const spare = svg("g", { style: spareActs.length ? "cursor:pointer" : "" });
  spare.append(svg("rect", { x: c - 24, y: c - 34, width: 48, height: 68, rx: 6, fill: view.spare ? ROLE[view.spare][1] : "#6b5a3a", stroke: spareActs.length ? "#e8b400" : "#333", "stroke-width": spareActs.length ? 4 : 1 }));
  spare.append(svg("text", { x: c, y: c + 50, "text-anchor": "middle", "font-size": 12 }, view.spare ? _("spare: {v0}", { v0: roleName(view.spare) }) : _("spare")));
  if (spareActs.length) spare.addEventListener("click", () => chooseAndAct(ctx, spareActs, { ...view, names: ctx.names }));
  root.append(spare);
  view.seats.forEach((seat, i) => {
    const angle = (2 * Math.PI * i) / n - Math.PI / 2;
    const x = c + r * Math.cos(angle), y = c + r * Math.sin(angle);
    const acts = clickable(ctx, i);
    const g = svg("g", { style: acts.length ? "cursor:pointer" : "", "data-seat": i });
    const colour = seat.card ? ROLE[seat.card][1] : "#6b5a3a";
    g.append(svg("rect", {
      x: x - 26, y: y - 36, width: 52, height: 72, rx: 7, fill: colour, opacity: seat.alive ? 1 : 0.35,
      stroke: acts.length ? "#e8b400" : seat.turn_owner ? "#000" : "#333", "stroke-width": acts.length || seat.turn_owner ? 4 : 1,
      "stroke-dasharray": seat.revealed || !seat.alive ? "" : "5 3",
    }));
    g.append(svg("text", { x, y: y - 2, "text-anchor": "middle", "font-size": 10, fill: "#fff" }, seat.card ? roleName(seat.card) : "?"));
    g.append(svg("text", { x, y: y + 12, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, seat.alive ? (seat.revealed ? _("face up") : _("face down")) : _("dead")));
    const marks = [];
    if (seat.crown) marks.push("👑");
    if (seat.prison) marks.push(_("⛓ prison"));
    if (seat.captured) marks.push(_("⚑ captured"));
    if (seat.fatigue) marks.push(_("☾ fatigue"));
    if (seat.faction) marks.push(SIDE[seat.faction]);
    if (seat.must_hide) marks.push(_("must hide"));
    const label = `${seatName(i, ctx.names)}${ctx.seat === i ? _(" (you)") : ""}`;
    g.append(svg("text", { x, y: y + 50, "text-anchor": "middle", "font-size": 11, "font-weight": ctx.seat === i ? "bold" : "normal" }, label));
    if (marks.length) g.append(svg("text", { x, y: y - 42, "text-anchor": "middle", "font-size": 10 }, marks.join(" · ")));
    if (acts.length) g.addEventListener("click", () => chooseAndAct(ctx, acts, { ...view, names: ctx.names }));
    root.append(g);
  });
  return root;
}

function awaitingText(view, names) {
  const a = view.awaiting;
  if (!a) return view.finished ? _("The game is over.") : "";
  const s = (x) => seatName(x, names);
  if (a.kind === "window") {
    const ctxText = a.window === "block" ? _("{v0} attacks {v1}", { v0: s(a.context.assassin), v1: s(a.context.target) })
      : a.window === "forbid" ? _("{v0} detains {v1}", { v0: s(a.context.guard), v1: s(a.context.target) }) : _("{v0} calls a revolt", { v0: s(a.context.caller) });
    const mine = a.your_response ? _(" — you answered {your_response}", { your_response: tn(a.your_response) }) : "";
    return _("{window} window: {what}. Asked: {asked}; answered: {answered}{mine}", { window: tn(a.window), what: ctxText, asked: a.eligible.map(s).join(", "), answered: a.responded.map(s).join(", ") || _("nobody"), mine });
  }
  if (a.kind === "forced") return _("{v0} must {ability} (forced by the Vizier)", { v0: s(a.seat), ability: tn(a.ability) });
  if (a.kind === "looks") return _("{v0} looks at {left} more card(s)", { v0: s(a.seat), left: a.left });
  if (a.kind === "prediction") return _("{v0} predicts the winners", { v0: s(a.seat) });
  return _("{v0} takes {v1}", { v0: s(a.seat), v1: a.mode === "bonus" ? _("a bonus action") : a.mode === "forced_hide" ? _("the forced hide") : _("an action") });
}

export function render(root, view, ctx) {
  root.innerHTML = "";
  const names = ctx.names || [];
  const viewWithNames = { ...view, names };
  const menu = el("div", { class: "sok-menu" });
  menu.hidden = true;
  const ctxNamed = { ...ctx, actions: ctx.actions || [], menu };
  root.append(el("p", { class: "sok-summary" }, sentence(view.summary)));
  root.append(el("p", { class: "sok-awaiting" }, awaitingText(view, names)));
  root.append(drawTable(view, ctxNamed));
  if (view.you) {
    const notes = view.you.known || {};
    const items = Object.entries(notes).map(([at, n]) => el("li", {}, `${at === "spare" ? _("The spare") : seatName(Number(at), names)}: ${roleName(n.role)}${n.status === "current" ? "" : _(" (may have moved)")}`));
    (view.you.observations || []).forEach((o) => items.push(el("li", {}, _("Turn {turn}: {v0} held {v1}", { turn: o.turn, v0: o.at === "spare" ? _("the spare") : seatName(Number(o.at), names), v1: roleName(o.role) }))));
    root.append(el("div", { class: "sok-you" }, el("strong", {}, _("Your card: {v0}", { v0: roleName(view.you.card) })), items.length ? el("ul", {}, ...items) : el("p", {}, _("No notes on other cards."))));
  }
  const facts = (view.notes || []).map((n) => noteText(n, names)).filter(Boolean);
  if (facts.length) root.append(el("ul", { class: "sok-notes" }, ...facts.map((f) => el("li", {}, f))));
  const comp = view.composition || {};
  root.append(el("p", { class: "sok-composition" },
    _("In play: {sultan} Sultan, {guard} Guard(s), {assassin} Assassin(s), {slave} Slaves, {neutrals} neutral(s). ", { sultan: comp.sultan, guard: comp.guard, assassin: comp.assassin, slave: comp.slave, neutrals: comp.neutrals }) +
    _("Unseen: {list}. ", { list: Object.entries(view.unaccounted || {}).map(([r, k]) => `${k} ${roleName(r)}`).join(", ") }) +
    _("Supply: {list}.", { list: Object.entries(view.supply || {}).map(([k, v]) => `${tn(k)} ${v}`).join(", ") })));
  const table = el("table", { class: "sok-scores" });
  const head = el("tr", {}, el("th", {}, _("Seat")), ...(view.history || []).map((h) => el("th", {}, `R${h.round}`)), el("th", {}, _("Total")));
  table.append(head);
  names.forEach((name, s) => {
    table.append(el("tr", ctx.seat === s ? { style: "font-weight:bold" } : {}, el("td", {}, name || _("Seat {s}", { s })),
      ...(view.history || []).map((h) => el("td", { title: `${roleName(h.cards[s])}` }, h.points[s])), el("td", {}, view.scores[s])));
  });
  root.append(table);
  const loose = (ctx.actions || []).filter((a) => targetOf(a) === undefined);
  if (loose.length) {
    root.append(el("div", { class: "sok-buttons" }, ...loose.map((a) => el("button", { type: "button", onclick: () => ctx.act(a) }, describeAction(a, viewWithNames)))));
  }
  root.append(menu);
}
