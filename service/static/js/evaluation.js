// The evaluation line under the replay timeline: each seat's estimated chance of winning at
// every step (computed by the server's bot runner, stored beside the annotations), with the
// step where each seat's chance fell most marked. Spectators of a live game get none.
import { api, ApiError } from "./api.js";
import { h, clear } from "./shell.js";
import { t as _ } from "./i18n.js";

const W = 1000, H = 150, PAD = 8;
const COLOURS = ["#1f5fa8", "#b3361f", "#1d7a3a", "#7a3fa0", "#9a5b00", "#00707a", "#a8326e", "#4d5b1f"];

/** Mount the evaluation panel in `slot`; `pick(seq)` moves the replay to a step. Returns
 * `{show(seq, max)}` for the replay to mark the step on view. */
export function mountEvaluation(slot, { gameId, token, names, finished, referee, pick }) {
  const state = { line: null, at: 1, max: 1, timer: null };
  const path = `/games/${encodeURIComponent(gameId)}/analysis`;

  async function load() {
    try {
      state.line = await api(path, { token });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) state.line = null;
      else if (e instanceof ApiError && e.status === 403) return drawNote(_("The evaluation is shown once the game has ended."));
      else return drawNote(_("The evaluation could not be loaded: {problem}", { problem: e.message }));
    }
    draw();
    if (state.line && state.line.status !== "done" && state.line.status !== "failed") {
      clearTimeout(state.timer);
      state.timer = setTimeout(load, 1500);
    }
  }

  async function ask() {
    try {
      state.line = await api(path, { method: "POST", token });
    } catch (e) {
      return drawNote(_("The evaluation could not be started: {problem}", { problem: e.message }));
    }
    load();
  }

  function drawNote(text) {
    clear(slot, h("section", { class: "panel evaluation", "aria-labelledby": "evaluation-title" },
      h("h2", { id: "evaluation-title", class: "h3" }, _("Who was winning")), h("p", { class: "muted small" }, text)));
  }

  function draw() {
    const line = state.line;
    if (!line) {
      if (!finished && !referee) return drawNote(_("The evaluation is shown once the game has ended."));
      return clear(slot, h("section", { class: "panel evaluation", "aria-labelledby": "evaluation-title" },
        h("h2", { id: "evaluation-title", class: "h3" }, _("Who was winning")),
        h("p", { class: "small" }, _("Estimate each seat's chance of winning at every step (computed by the server; it takes a little while).")),
        h("button", { type: "button", id: "evaluate-btn", onclick: ask }, _("Evaluate this game"))));
    }
    const progress = line.status === "done" ? null
      : h("p", { class: "small", role: "status", id: "evaluation-progress" },
        line.total ? _("Evaluating… {done} of {total} steps", { done: line.done, total: line.total }) : _("Waiting for the evaluator…"));
    clear(slot, h("section", { class: "panel evaluation", "aria-labelledby": "evaluation-title" },
      h("h2", { id: "evaluation-title", class: "h3" }, _("Who was winning")),
      progress, chart(line), legend(line), drops(line)));
  }

  function x(seq) { return PAD + ((seq - 1) / Math.max(1, state.max - 1)) * (W - 2 * PAD); }
  function y(chance) { return H - PAD - chance * (H - 2 * PAD); }

  function chart(line) {
    const seats = (line.points[0] && line.points[0][1].length) || 0;
    const lines = [];
    for (let s = 0; s < seats; s++) {
      const pts = line.points.map(([seq, c]) => `${x(seq).toFixed(1)},${y(c[s]).toFixed(1)}`).join(" ");
      lines.push(h("svg:polyline", { points: pts, fill: "none", stroke: COLOURS[s % COLOURS.length], "stroke-width": 2.5,
        "data-seat": s }));
    }
    const marks = (line.drops || []).map((d) => h("svg:circle", {
      cx: x(d.seq), cy: y(d.to), r: 6, fill: "#fff", stroke: COLOURS[d.seat % COLOURS.length], "stroke-width": 3,
      class: "drop", "data-seq": d.seq }, h("svg:title", {}, dropText(d))));
    const cursor = h("svg:line", { id: "evaluation-cursor", x1: x(state.at), x2: x(state.at), y1: 0, y2: H,
      stroke: "#444", "stroke-dasharray": "4 3" });
    const svg = h("svg:svg", { viewBox: `0 0 ${W} ${H}`, class: "evaluation-chart", role: "img",
      "aria-labelledby": "evaluation-chart-title", preserveAspectRatio: "none" },
      h("svg:title", { id: "evaluation-chart-title" }, summary(line)),
      h("svg:line", { x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5), stroke: "#bbb", "stroke-dasharray": "2 4" }),
      ...lines, ...marks, cursor);
    svg.addEventListener("click", (ev) => {
      const box = svg.getBoundingClientRect();
      const frac = (ev.clientX - box.left) / box.width;
      pick(Math.round(1 + frac * (state.max - 1)));
    });
    return svg;
  }

  function name(seat) { return names[seat] || _("Seat {n}", { n: seat + 1 }); }
  function dropText(d) {
    return _("{name}: {from}% → {to}% at step {seq}", { name: name(d.seat), from: Math.round(d.from * 100), to: Math.round(d.to * 100), seq: d.seq });
  }

  function summary(line) {
    const last = line.points[line.points.length - 1];
    if (!last) return _("No steps evaluated yet.");
    return _("Chance of winning by step, {count} steps evaluated. At step {seq}: {chances}.", {
      count: line.points.length, seq: last[0], chances: last[1].map((c, s) => `${name(s)} ${Math.round(c * 100)}%`).join(", "),
    });
  }

  function legend(line) {
    const seats = (line.points[0] && line.points[0][1].length) || 0;
    return h("ul", { class: "evaluation-legend small" }, Array.from({ length: seats }, (_, s) =>
      h("li", {}, h("span", { class: "swatch", style: `background:${COLOURS[s % COLOURS.length]}`, "aria-hidden": "true" }), name(s))));
  }

  function drops(line) {
    if (!line.drops || !line.drops.length) return null;
    return h("div", { class: "small" }, h("h3", { class: "h4" }, _("Turning points")),
      h("ul", {}, line.drops.map((d) => h("li", {},
        h("a", { href: `?at=${d.seq}`, onclick: (ev) => { ev.preventDefault(); pick(d.seq); } }, dropText(d))))));
  }

  load();
  return {
    show(at, max) {
      state.at = at; state.max = max;
      const cursor = slot.querySelector("#evaluation-cursor");
      if (cursor && state.line) draw();
    },
  };
}
