// Sultans of Karaya board: seats round a table, each with its card (face up, your own, or hidden),
// status cards (crown, prison, capture, fatigue, faction), the spare in the centre, the awaited step,
// your private notes and the round history. Seats and the spare are clickable for the actions they stand for.

import { el } from "./dom.js";

const ROLE = {
  sultan: ["Sultan", "#2a62c9"], guard: ["Guard", "#2a62c9"], assassin: ["Assassin", "#c62f2f"],
  slave: ["Slave", "#c62f2f"], slaver: ["Slaver", "#2f8f46"], dancer: ["Belly Dancer", "#2f8f46"],
  vizier: ["Vizier", "#2f8f46"], oracle: ["Oracle", "#2f8f46"],
};
const SIDE = { loyalists: "Loyalists", rebels: "Rebels" };
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const roleName = (r) => (r && ROLE[r] ? ROLE[r][0] : "hidden card");
const seatName = (s, names) => (s === "spare" ? "the spare" : (names && names[s]) || `Seat ${s}`);

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
    case "investigate": return `Investigate ${who(p.target)}'s card`;
    case "swap": return `Swap cards openly with ${who(p.with)}`;
    case "hide": return p.with === null || p.with === undefined ? "Hide your card without swapping" : `Hide and secretly swap with ${who(p.with)}`;
    case "execute": return `Execute ${who(p.target)}`;
    case "detain": return `Detain ${who(p.target)}`;
    case "assassinate": return `Assassinate ${who(p.target)}`;
    case "call_revolt": {
      const mine = view && view.you ? view.you.seat : undefined;
      const awaited = view && Array.isArray(view.to_act) && view.to_act.includes(mine);
      return awaited || mine === undefined ? "Reveal and call a revolt" : "Reveal and call a revolt now (out of turn)";
    }
    case "capture": return `Capture ${who(p.target)}`;
    case "dance": return "Reveal and dance";
    case "manipulate": return `Manipulate ${who(p.target)}${p.side ? ` for the ${SIDE[p.side]}` : ""}`;
    case "foretell": return "Reveal and foretell";
    case "look": return `Look at ${who(p.target)}'s card`;
    case "predict": return `Predict the ${SIDE[p.side] || p.side} win`;
    case "respond": return { block: "Block the assassination", pass: "Pass", forbid: "Reveal and forbid the detention", accept: "Accept the detention", join: "Reveal and join the revolt" }[p.choice] || p.choice;
    case "royal_claim": return "Reveal the Sultan (royal claim)";
    case "window_timeout": return "Close the window (timeout)";
    default: return action.type;
  }
}

export function describeEvent(event, names = []) {
  const seat = event.actor ? event.actor.seat : event.seat;
  const who = seat === null || seat === undefined ? "The system" : seatName(seat, names);
  const t = String(event.type || "");
  const type = t.includes(".") ? t.slice(t.indexOf(".") + 1) : t;
  const p = event.payload || {};
  const them = (s) => seatName(s, names);
  switch (type) {
    case "investigate": return `${who} investigated ${them(p.target)}`;
    case "swap": return `${who} swapped cards with ${them(p.with)}`;
    case "hide": return p.with === undefined ? `${who} hid with a secret exchange` : (p.with === null ? `${who} hid without swapping` : `${who} hid and swapped with ${them(p.with)}`);
    case "execute": return `${who} executed ${them(p.target)}`;
    case "detain": return `${who} detained ${them(p.target)}`;
    case "assassinate": return `${who} attacked ${them(p.target)}`;
    case "call_revolt": return `${who} called a revolt`;
    case "capture": return `${who} tried to capture ${them(p.target)}`;
    case "dance": return `${who} danced`;
    case "manipulate": return `${who} manipulated ${them(p.target)}${p.side ? ` (for the ${SIDE[p.side]})` : ""}`;
    case "foretell": return `${who} began to foretell`;
    case "look": return `${who} looked at ${them(p.target)}'s card`;
    case "predict": return `${who} predicted the ${SIDE[p.side] || p.side} would win`;
    case "respond": return p.choice ? `${who} answered ${p.choice}` : `${who} answered (sealed)`;
    case "royal_claim": return `${who} revealed the Sultan`;
    case "window_timeout": return "The window closed on timeout";
    default: return `${who}: ${type}`;
  }
}

function noteText(n, names) {
  const s = (x) => seatName(x, names);
  switch (n.kind) {
    case "revealed": return `${s(n.seat)} revealed: ${roleName(n.role)}`;
    case "crowned": return `The crown is placed before ${s(n.seat)}`;
    case "died": return `${s(n.seat)} died (${roleName(n.role)})`;
    case "blocked": return `${n.seats.map(s).join(", ")} blocked; the assassin dies`;
    case "not_a_slave": return `${s(n.target)} is not a Slave`;
    case "captured": return `${s(n.target)} was captured`;
    case "detained": return `${s(n.seat)} is detained`;
    case "detention_forbidden": return `${s(n.seat)} forbade the detention`;
    case "revolt_called": return `${s(n.seat)} called a revolt${n.out_of_turn ? " out of turn" : ""}`;
    case "revolt_joined": return n.seats.length ? `${n.seats.map(s).join(", ")} joined the revolt` : "Nobody joined the revolt";
    case "fatigued": return `${s(n.seat)} is fatigued`;
    case "turn_skipped": return `${s(n.seat)}'s turn is skipped`;
    case "round_over": return `Round ${n.round} over: ${n.winner ? SIDE[n.winner] + " win" : "no winner"}`;
    case "round_started": return `Round ${n.round} begins with ${s(n.seat)}`;
    case "hid": return `${s(n.seat)} hid with a secret exchange`;
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
  menu.append(el("span", {}, "Choose: "));
  for (const a of actions) menu.append(el("button", { type: "button", onclick: () => ctx.act(a) }, describeAction(a, view)));
  menu.hidden = false;
}

function drawTable(view, ctx) {
  const n = view.seats.length;
  const size = 460, c = size / 2, r = size / 2 - 62;
  const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, width: "100%", style: "max-width:560px", role: "img" });
  root.append(svg("circle", { cx: c, cy: c, r: r - 40, fill: "#f3e6c4", stroke: "#b99a5b" }));
  const spareActs = clickable(ctx, "spare");
  const spare = svg("g", { style: spareActs.length ? "cursor:pointer" : "" });
  spare.append(svg("rect", { x: c - 24, y: c - 34, width: 48, height: 68, rx: 6, fill: view.spare ? ROLE[view.spare][1] : "#6b5a3a", stroke: spareActs.length ? "#e8b400" : "#333", "stroke-width": spareActs.length ? 4 : 1 }));
  spare.append(svg("text", { x: c, y: c + 50, "text-anchor": "middle", "font-size": 12 }, view.spare ? `spare: ${roleName(view.spare)}` : "spare"));
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
    g.append(svg("text", { x, y: y + 12, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, seat.alive ? (seat.revealed ? "face up" : "face down") : "dead"));
    const marks = [];
    if (seat.crown) marks.push("👑");
    if (seat.prison) marks.push("⛓ prison");
    if (seat.captured) marks.push("⚑ captured");
    if (seat.fatigue) marks.push("☾ fatigue");
    if (seat.faction) marks.push(SIDE[seat.faction]);
    if (seat.must_hide) marks.push("must hide");
    const label = `${seatName(i, ctx.names)}${ctx.seat === i ? " (you)" : ""}`;
    g.append(svg("text", { x, y: y + 50, "text-anchor": "middle", "font-size": 11, "font-weight": ctx.seat === i ? "bold" : "normal" }, label));
    if (marks.length) g.append(svg("text", { x, y: y - 42, "text-anchor": "middle", "font-size": 10 }, marks.join(" · ")));
    if (acts.length) g.addEventListener("click", () => chooseAndAct(ctx, acts, { ...view, names: ctx.names }));
    root.append(g);
  });
  return root;
}

function awaitingText(view, names) {
  const a = view.awaiting;
  if (!a) return view.finished ? "The game is over." : "";
  const s = (x) => seatName(x, names);
  if (a.kind === "window") {
    const ctxText = a.window === "block" ? `${s(a.context.assassin)} attacks ${s(a.context.target)}`
      : a.window === "forbid" ? `${s(a.context.guard)} detains ${s(a.context.target)}` : `${s(a.context.caller)} calls a revolt`;
    const mine = a.your_response ? ` — you answered ${a.your_response}` : "";
    return `${a.window.toUpperCase()} window: ${ctxText}. Asked: ${a.eligible.map(s).join(", ")}; answered: ${a.responded.map(s).join(", ") || "nobody"}${mine}`;
  }
  if (a.kind === "forced") return `${s(a.seat)} must ${a.ability} (forced by the Vizier)`;
  if (a.kind === "looks") return `${s(a.seat)} looks at ${a.left} more card(s)`;
  if (a.kind === "prediction") return `${s(a.seat)} predicts the winners`;
  return `${s(a.seat)} takes ${a.mode === "bonus" ? "a bonus action" : a.mode === "forced_hide" ? "the forced hide" : "an action"}`;
}

export function render(root, view, ctx) {
  root.innerHTML = "";
  const names = ctx.names || [];
  const viewWithNames = { ...view, names };
  const menu = el("div", { class: "sok-menu" });
  menu.hidden = true;
  const ctxNamed = { ...ctx, actions: ctx.actions || [], menu };
  root.append(el("p", { class: "sok-summary" }, view.summary));
  root.append(el("p", { class: "sok-awaiting" }, awaitingText(view, names)));
  root.append(drawTable(view, ctxNamed));
  if (view.you) {
    const notes = view.you.known || {};
    const items = Object.entries(notes).map(([at, n]) => el("li", {}, `${at === "spare" ? "The spare" : seatName(Number(at), names)}: ${roleName(n.role)}${n.status === "current" ? "" : " (may have moved)"}`));
    (view.you.observations || []).forEach((o) => items.push(el("li", {}, `Turn ${o.turn}: ${o.at === "spare" ? "the spare" : seatName(Number(o.at), names)} held ${roleName(o.role)}`)));
    root.append(el("div", { class: "sok-you" }, el("strong", {}, `Your card: ${roleName(view.you.card)}`), items.length ? el("ul", {}, ...items) : el("p", {}, "No notes on other cards.")));
  }
  const facts = (view.notes || []).map((n) => noteText(n, names)).filter(Boolean);
  if (facts.length) root.append(el("ul", { class: "sok-notes" }, ...facts.map((f) => el("li", {}, f))));
  const comp = view.composition || {};
  root.append(el("p", { class: "sok-composition" },
    `In play: ${comp.sultan} Sultan, ${comp.guard} Guard(s), ${comp.assassin} Assassin(s), ${comp.slave} Slaves, ${comp.neutrals} neutral(s). ` +
    `Unseen: ${Object.entries(view.unaccounted || {}).map(([r, k]) => `${k} ${roleName(r)}`).join(", ")}. ` +
    `Supply: ${Object.entries(view.supply || {}).map(([k, v]) => `${k} ${v}`).join(", ")}.`));
  const table = el("table", { class: "sok-scores" });
  const head = el("tr", {}, el("th", {}, "Seat"), ...(view.history || []).map((h) => el("th", {}, `R${h.round}`)), el("th", {}, "Total"));
  table.append(head);
  names.forEach((name, s) => {
    table.append(el("tr", ctx.seat === s ? { style: "font-weight:bold" } : {}, el("td", {}, name || `Seat ${s}`),
      ...(view.history || []).map((h) => el("td", { title: `${roleName(h.cards[s])}` }, h.points[s])), el("td", {}, view.scores[s])));
  });
  root.append(table);
  const loose = (ctx.actions || []).filter((a) => targetOf(a) === undefined);
  if (loose.length) {
    root.append(el("div", { class: "sok-buttons" }, ...loose.map((a) => el("button", { type: "button", onclick: () => ctx.act(a) }, describeAction(a, viewWithNames)))));
  }
  root.append(menu);
}
