// A rating history as an SVG line chart, drawn in the browser without a build step.
import { t as _ } from "./i18n.js";
import { h } from "./shell.js";

const W = 560, H = 200, PAD = { left: 44, right: 12, top: 12, bottom: 30 };

/** points: [{rating}] in order. Returns an <svg role="img"> with a text summary. */
export function ratingChart(points, label) {
  const values = points.map((p) => p.rating);
  let lo = Math.min(0, ...values), hi = Math.max(...values, 1);
  if (hi - lo < 1) hi = lo + 1;
  const x = (i) => PAD.left + (points.length < 2 ? (W - PAD.left - PAD.right) / 2 : i * (W - PAD.left - PAD.right) / (points.length - 1));
  const y = (v) => PAD.top + (hi - v) * (H - PAD.top - PAD.bottom) / (hi - lo);
  const ticks = [lo, (lo + hi) / 2, hi];
  const last = values[values.length - 1];
  const summary = _("{label}: {count} rated games, from {first} to {last}", {
    label, count: points.length, first: values[0].toFixed(2), last: last.toFixed(2) });
  return h("svg:svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": summary },
    h("svg:title", {}, summary),
    ticks.map((v) => [
      h("svg:line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
      h("svg:text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v.toFixed(1)),
    ]),
    h("svg:text", { x: (W + PAD.left) / 2, y: H - 6, "text-anchor": "middle", class: "tick" }, _("rated games")),
    h("svg:polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "), class: "line" }),
    points.map((p, i) => h("svg:circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3, class: "dot" })));
}
