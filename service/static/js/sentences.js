// The games' one-line summaries (view.summary) are English sentences built from a few
// fixed shapes. In another language each shape is a catalogue entry with {slots}; the
// words in the slots (phase names, what is awaited, "seat 2") are translated one by one.
import { LANG, t as _ } from "./i18n.js";

const SHAPES = [
  "Game over after turn {turn}: {scores}",
  "Game over after {round} rounds; totals {totals}",
  "Game over: {scores}",
  "Turn {turn}, {phase}: seat {seat} is asked {what}",
  "Turn {turn}: {who} to {what}",
  "Round {round}/9, {phase}: waiting for {who} ({what})",
  "Round {round}/{rounds}, seat {owner}'s turn: {window} window open, waiting for seats {seats}",
  "Round {round}/{rounds}, seat {owner}'s turn: waiting for seat {seat} ({what})",
  "Round {round} · {phase} · waiting for {who}: {what}",
  "Round {round} · {phase}",
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const COMPILED = SHAPES.map((shape) => {
  const names = [];
  const rx = escape(shape).replace(/\\\{(\w+)\\\}/g, (m, name) => { names.push(name); return "(.+?)"; });
  return { shape, names, rx: new RegExp(`^${rx}$`) };
});

/** One slot's words: numbers stay, "seat N" and lists are translated piece by piece. */
function words(value) {
  const v = String(value).trim();
  if (/^[\d\s.,:/\-[\]]*$/.test(v)) return v;
  if (/,\s/.test(v) || / - /.test(v)) return v.split(/(,\s|\s-\s)/).map((p) => (/^(,\s|\s-\s)$/.test(p) ? p : words(p))).join("");
  const seat = v.match(/^seat (\d+)(.*)$/);
  if (seat) return _("seat {n}", { n: seat[1] }) + (seat[2] ? ` ${words(seat[2])}` : "");
  const pp = v.match(/^(\d+) PP$/);
  if (pp) return _("{n} PP", { n: pp[1] });
  return _(v);
}

/** The summary in the page's language (as it is in English). */
export function sentence(text) {
  if (!text || LANG === "en") return text || "";
  for (const { shape, names, rx } of COMPILED) {
    const m = String(text).match(rx);
    if (!m) continue;
    const slots = {};
    names.forEach((n, i) => { slots[n] = words(m[i + 1]); });
    return _(shape, slots);
  }
  return _(String(text));
}
