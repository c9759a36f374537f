// Carcassonne: The Castle -- board renderer (plain ES module, no build step).
// Draws the walled interior, the frame with its track numbers, corner towers and
// start spaces, every placed tile from its port geometry (view.board[].ports /
// feature_at / features), followers and keeps, and the drawn tile. Empty cells where
// the drawn tile fits are clickable (with the rotation chosen beside the board); the
// features of the tile just placed are clickable during the follower step.
import { t as _, tn } from "/static/js/i18n.js";
import { sentence } from "/static/js/sentences.js";
import { h as html, svg } from "/static/js/dom.js";

const S = 44; // pixels per cell
const COLOURS = { C: "#8cc063", P: "#e8c64a", H: "#c8503c", T: "#9a9a9a" };
const TYPE_LETTER = { court: "C", path: "P", house: "H", tower: "T" };
const SEAT_FILL = ["#222", "#f4f4f4"];
const SEAT_STROKE = ["#f4f4f4", "#222"];
const ROLE = { path: "herald", tower: "knight", house: "squire", court: "merchant" };
const WALL_KEYS = {
  1: _("extra turn"), 2: _("tower ×2"), 3: _("house ×2"), 4: _("unfinished path"), 5: _("unfinished tower"),
  6: _("unfinished house"), 7: _("court 4"), 8: _("largest house +2"), 9: _("5 points"),
};
const SIDE_NAMES = ["N", "E", "S", "W"];

let chosenRotation = 0; // the rotation the player is trying, kept across redraws


function nameOf(seat, names) {
  return (names && names[seat]) || _("Seat {seat}", { seat });
}

// -- tile geometry ------------------------------------------------------------------
// Port p (0..11) = side (p / 3) and third (p % 3), clockwise from the north-west corner.
function portTriangle(p) {
  const side = Math.floor(p / 3);
  const i = p % 3;
  const c = [S / 2, S / 2];
  const t = (k) => (k * S) / 3;
  let a;
  let b;
  if (side === 0) { a = [t(i), 0]; b = [t(i + 1), 0]; }
  else if (side === 1) { a = [S, t(i)]; b = [S, t(i + 1)]; }
  else if (side === 2) { a = [S - t(i), S]; b = [S - t(i + 1), S]; }
  else { a = [0, S - t(i)]; b = [0, S - t(i + 1)]; }
  return [c, a, b];
}

function portCentre(p) {
  const [c, a, b] = portTriangle(p);
  return [(c[0] + a[0] + b[0]) / 3, (c[1] + a[1] + b[1]) / 3];
}

function sideMiddle(side) {
  return [[S / 2, 0], [S, S / 2], [S / 2, S], [0, S / 2]][side];
}

function featurePorts(tile, index) {
  const out = [];
  for (let p = 0; p < 12; p++) if (Number(tile.feature_at[p]) === index) out.push(p);
  return out;
}

function featureCentre(tile, index) {
  const ports = featurePorts(tile, index);
  if (tile.features[index].type === "path") {
    // on the path itself, a little way in from its first side
    const m = sideMiddle(Math.floor(ports[0] / 3));
    return [(m[0] * 2 + S / 2) / 3, (m[1] * 2 + S / 2) / 3];
  }
  const pts = ports.map(portCentre);
  const x = pts.reduce((s, q) => s + q[0], 0) / pts.length;
  const y = pts.reduce((s, q) => s + q[1], 0) / pts.length;
  return [x, y];
}

function drawTile(tile, x0, y0) {
  const g = svg("g", { transform: `translate(${x0},${y0})`, class: "cc-tile" });
  for (let p = 0; p < 12; p++) {
    const pts = portTriangle(p).map((q) => q.join(",")).join(" ");
    const colour = COLOURS[tile.ports[p]];
    g.append(svg("polygon", { points: pts, fill: colour, stroke: colour, "stroke-width": 0.6 }));
  }
  tile.features.forEach((f, index) => {
    const ports = featurePorts(tile, index);
    if (f.type === "path") {
      for (const p of ports) {
        const m = sideMiddle(Math.floor(p / 3));
        g.append(svg("line", { x1: m[0], y1: m[1], x2: S / 2, y2: S / 2, stroke: COLOURS.P, "stroke-width": S / 6, "stroke-linecap": "round" }));
      }
      if (f.inner_end === "square") g.append(svg("rect", { x: S / 2 - 5, y: S / 2 - 5, width: 10, height: 10, fill: "#d9cfa8", stroke: "#776" }));
      if (f.inner_end === "house" || f.inner_end === "tower") {
        g.append(svg("rect", { x: S / 2 - 3, y: S / 2 - 3, width: 6, height: 6, fill: "#553" }));
      }
      if (f.well) {
        const [cx, cy] = featureCentre(tile, index);
        g.append(svg("circle", { cx, cy, r: 4, fill: "#3a7bd5", stroke: "#fff", "stroke-width": 1 }));
      }
    }
    if (f.markets) {
      const [cx, cy] = featureCentre(tile, index);
      for (let k = 0; k < f.markets; k++) {
        g.append(svg("rect", { x: cx - 4 + k * 6, y: cy - 4, width: 5, height: 5, fill: "#f0e070", stroke: "#6a5" }));
      }
    }
  });
  g.append(svg("rect", { x: 0, y: 0, width: S, height: S, fill: "none", stroke: "#4a4a3a", "stroke-width": 0.8 }));
  return g;
}

// -- the board ------------------------------------------------------------------------
const X0 = -1;
const Y0 = -1;
const px = (x) => (x - X0) * S;
const py = (y) => (y - Y0) * S;

function drawFrame(root, view) {
  const castle = view.castle;
  const numbers = {};
  castle.track.forEach((cell, n) => {
    const k = cell.join(",");
    (numbers[k] = numbers[k] || []).push(n);
  });
  const corners = {};
  for (const c of castle.corners) corners[c.ring_cell.join(",")] = c;
  const starts = {};
  for (const s of castle.start_spaces) starts[s.ring_cell.join(",")] = s;
  const markers = {};
  view.scores.forEach((score, seat) => {
    const k = castle.track[((score % 100) + 100) % 100].join(",");
    (markers[k] = markers[k] || []).push(seat);
  });
  for (const [k, ns] of Object.entries(numbers)) {
    const [x, y] = k.split(",").map(Number);
    const g = svg("g", { transform: `translate(${px(x)},${py(y)})` });
    const corner = corners[k];
    const start = starts[k];
    g.append(svg("rect", { x: 1, y: 1, width: S - 2, height: S - 2, rx: 3, fill: corner ? "#b9ab8c" : "#d8ccb0", stroke: "#8a7d60" }));
    if (corner) {
      const d = corner.diagonal === "/" ? `M${S},0 L0,${S}` : "M0,0 L" + S + "," + S;
      g.append(svg("path", { d, stroke: "#8a7d60", "stroke-width": 1 }));
      const state = view.frame[corner.id];
      if (state !== undefined && state !== null) {
        const label = state === "face_down" ? "?" : String(state);
        g.append(svg("rect", { x: S / 2 - 8, y: S / 2 - 8, width: 16, height: 16, fill: "#5a4a30", stroke: "#fff" }));
        g.append(svg("text", { x: S / 2, y: S / 2 + 4, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, document.createTextNode(label)));
      }
    }
    if (start) {
      // the picture's segments, drawn on the side of the ring cell that faces the interior
      const side = SIDE_NAMES.indexOf(start.side);
      const facing = (side + 2) % 4;
      for (let i = 0; i < 3; i++) {
        const type = start.segments[`${start.side}${i}`];
        const p = facing * 3 + (2 - i);
        const pts = portTriangle(p).map((q) => q.join(",")).join(" ");
        g.append(svg("polygon", { points: pts, fill: COLOURS[TYPE_LETTER[type]], opacity: 0.85 }));
      }
      g.append(svg("title", {}, document.createTextNode(_("Start space {id}", { id: start.id }))));
    }
    g.append(svg("text", { x: 4, y: 11, "font-size": 9, fill: "#333" }, document.createTextNode(ns[0])));
    g.append(svg("text", { x: S - 4, y: S - 4, "font-size": 9, fill: "#333", "text-anchor": "end" }, document.createTextNode(ns[1])));
    (markers[k] || []).forEach((seat, j) => {
      g.append(svg("circle", { cx: S / 2 - 6 + j * 12, cy: S / 2, r: 6, fill: SEAT_FILL[seat], stroke: SEAT_STROKE[seat] },
        svg("title", {}, document.createTextNode(_("score marker, {v0} points", { v0: view.scores[seat] })))));
    });
    root.append(g);
  }
}

function placeActions(ctx) {
  const out = {};
  for (const a of ctx.actions || []) {
    if (a.type !== "place_tile") continue;
    const k = `${a.payload.x},${a.payload.y}`;
    (out[k] = out[k] || {})[a.payload.rotation] = a;
  }
  return out;
}

function drawInterior(root, view, ctx) {
  const byCell = {};
  for (const t of view.board) byCell[`${t.x},${t.y}`] = t;
  const places = placeActions(ctx);
  for (const [x, y] of view.castle.cells) {
    const k = `${x},${y}`;
    const tile = byCell[k];
    if (tile) {
      root.append(drawTile(tile, px(x), py(y)));
      continue;
    }
    const action = places[k] && places[k][chosenRotation];
    const attrs = { x: px(x) + 0.5, y: py(y) + 0.5, width: S - 1, height: S - 1, fill: action ? "#fff6c8" : "#efe8d8", stroke: "#cfc4aa" };
    const cell = svg("rect", attrs);
    if (action) {
      cell.setAttribute("style", "cursor:pointer");
      cell.setAttribute("stroke", "#c9a400");
      cell.addEventListener("click", () => ctx.act(action));
      cell.append(svg("title", {}, document.createTextNode(_("Place here, turned {chosenRotation}°", { chosenRotation }))));
    } else if (places[k]) {
      cell.setAttribute("stroke", "#e0c870");
      cell.setAttribute("stroke-dasharray", "3 2");
    }
    root.append(cell);
  }
  if (view.last_placed) {
    const [x, y] = view.last_placed;
    root.append(svg("rect", { x: px(x) + 1, y: py(y) + 1, width: S - 2, height: S - 2, fill: "none", stroke: "#ff7a00", "stroke-width": 2 }));
  }
  return byCell;
}

function drawPieces(root, view, ctx, byCell) {
  for (const f of view.followers) {
    const tile = byCell[`${f.x},${f.y}`];
    if (!tile) continue;
    const [cx, cy] = featureCentre(tile, f.feature);
    const shape = f.role === "merchant"
      ? svg("ellipse", { cx: px(f.x) + cx, cy: py(f.y) + cy, rx: 7, ry: 4, fill: SEAT_FILL[f.seat], stroke: SEAT_STROKE[f.seat] })
      : svg("circle", { cx: px(f.x) + cx, cy: py(f.y) + cy, r: 6, fill: SEAT_FILL[f.seat], stroke: SEAT_STROKE[f.seat] });
    shape.append(svg("title", {}, document.createTextNode(_("{name}'s {piece}", { name: nameOf(f.seat, ctx.names), piece: tn(f.role) }))));
    root.append(shape);
  }
  view.keeps.forEach((k, seat) => {
    if (!k) return;
    const tile = byCell[`${k.x},${k.y}`];
    if (!tile) return;
    const [cx, cy] = featureCentre(tile, k.feature);
    root.append(svg("rect", { x: px(k.x) + cx - 6, y: py(k.y) + cy - 13, width: 12, height: 9, fill: SEAT_FILL[seat], stroke: "#c00", "stroke-width": 1.5 },
      svg("title", {}, document.createTextNode(_("{v0}'s keep (house of {size})", { v0: nameOf(seat, ctx.names), size: k.size })))));
  });
  // follower choices on the tile just placed
  for (const a of ctx.actions || []) {
    if (a.type !== "place_follower" || !view.last_placed) continue;
    const [x, y] = view.last_placed;
    const tile = byCell[`${x},${y}`];
    const [cx, cy] = featureCentre(tile, a.payload.feature);
    const dot = svg("circle", { cx: px(x) + cx, cy: py(y) + cy, r: 6, fill: "#fff", "fill-opacity": 0.7, stroke: "#ff7a00", "stroke-width": 2, style: "cursor:pointer" },
      svg("title", {}, document.createTextNode(_("Put a {v0} here", { v0: tn(ROLE[tile.features[a.payload.feature].type]) }))));
    dot.addEventListener("click", () => ctx.act(a));
    root.append(dot);
  }
  // completed features waiting to be scored
  for (const p of view.pending || []) {
    root.append(svg("rect", { x: px(p.x) + 3, y: py(p.y) + 3, width: S - 6, height: S - 6, fill: "none", stroke: "#d00", "stroke-width": 2, "stroke-dasharray": "4 2" }));
  }
}

// -- the side panel --------------------------------------------------------------------
function drawnTilePanel(view, ctx) {
  if (!view.tile) return null;
  const places = (ctx.actions || []).filter((a) => a.type === "place_tile");
  const rotations = [...new Set(places.map((a) => a.payload.rotation))].sort((a, b) => a - b);
  if (rotations.length && !rotations.includes(chosenRotation)) chosenRotation = rotations[0];
  const preview = svg("svg", { width: S * 2, height: S * 2, viewBox: `0 0 ${S} ${S}`, role: "img", "aria-label": _("The drawn tile") });
  const shown = { ...view.tile };
  if (places.length) {
    // show the tile turned: rotate the port strings by 3 per quarter turn
    const q = chosenRotation / 90;
    const turn = (s) => s.slice(12 - 3 * q) + s.slice(0, 12 - 3 * q);
    shown.ports = q ? turn(view.tile.ports) : view.tile.ports;
    shown.feature_at = q ? turn(view.tile.feature_at) : view.tile.feature_at;
  }
  preview.append(drawTile(shown, 0, 0));
  const buttons = rotations.map((r) => html("button", {
    type: "button", class: r === chosenRotation ? "cc-rot active" : "cc-rot",
    onclick: () => { chosenRotation = r; redraw(); },
  }, `${r}°`));
  return html("div", { class: "cc-drawn" },
    html("div", {}, _("Drawn tile {tile}: {name}", { tile: view.tile.tile, name: tn(view.tile.name) })), preview,
    places.length ? html("div", {}, _("Turn: "), ...buttons) : null);
}

function seatPanel(view, ctx, seat) {
  const held = view.held[seat].map((t) => html("span", { class: t.used ? "cc-wall used" : "cc-wall", title: t.used ? _("used") : _("taken in turn {turn}", { turn: t.turn }) },
    `${t.kind} ${WALL_KEYS[t.kind] || t.key}${t.used ? " (used)" : ""}`));
  return html("div", { class: `cc-seat seat-${seat}` },
    html("strong", {}, _("{name} ({colour})", { name: nameOf(seat, ctx.names), colour: seat === 0 ? _("black") : _("white") })),
    _(" {v0} points, {v1} followers in supply", { v0: view.scores[seat], v1: view.supply[seat] }),
    view.keeps[seat] ? _(", keep on a house of {v0}", { v0: view.keeps[seat].size }) : "",
    held.length ? html("div", {}, _("Wall tiles: "), ...held) : null);
}

let redraw = () => {};

export function render(root, view, ctx) {
  redraw = () => { root.replaceChildren(); render(root, view, ctx); };
  const width = 11 * S;
  const height = 14 * S;
  const board = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "cc-board", role: "group", "aria-label": _("castle board") });
  drawFrame(board, view);
  const byCell = drawInterior(board, view, ctx);
  drawPieces(board, view, ctx, byCell);
  const panel = html("div", { class: "cc-panel" },
    html("p", {}, sentence(view.summary)),
    ...view.scores.map((_score, seat) => seatPanel(view, ctx, seat)),
    drawnTilePanel(view, ctx),
    html("p", {}, _("Draw pile: {count} tiles; removed as unplaceable: {removed}", { count: view.pile_count, removed: view.removed.length })),
    (view.pending || []).length ? html("p", {}, _("To score: "), view.pending.map((p) => _("{type} of {size} at ({x},{y}) for {v0}", { type: p.type, size: p.size, x: p.x, y: p.y, v0: nameOf(p.scorer, ctx.names) })).join("; ")) : null,
    view.breakdown ? html("p", {}, _("Final scoring: largest empty area {area}; ", { area: view.breakdown.largest_empty_area })
      + view.scores.map((_score, s) => _("{v0}: keep {v1}, unfinished {v2}, courts {v3}, tiles {v4}", { v0: nameOf(s, ctx.names), v1: view.breakdown.keep[s], v2: view.breakdown.unfinished[s], v3: view.breakdown.courts[s], v4: view.breakdown.five_points[s] })).join("; ")) : null,
  );
  root.append(html("div", { class: "cc-layout", style: "display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start" }, board, panel));
}

// -- words -----------------------------------------------------------------------------
function lastTile(view) {
  if (!view || !view.last_placed) return null;
  const [x, y] = view.last_placed;
  return view.board.find((t) => t.x === x && t.y === y) || null;
}

export function describeAction(action, view) {
  const p = action.payload || {};
  switch (action.type) {
    case "place_tile":
      return _("Place {v0} at ({x},{y}) turned {rotation}°", { v0: view && view.tile ? view.tile.tile : _("the tile"), x: p.x, y: p.y, rotation: p.rotation });
    case "place_follower": {
      const tile = lastTile(view);
      const type = tile ? tile.features[p.feature].type : "feature";
      return _("Put a {v0} on the {type} (feature {feature})", { v0: tn(ROLE[type] || "follower"), type: tn(type), feature: p.feature });
    }
    case "skip_follower": return _("Place no follower");
    case "score_feature": {
      const e = ((view && view.pending) || []).find((q) => q.x === p.x && q.y === p.y && q.feature === p.feature);
      const what = e ? _("the {type} of {size}", { type: e.type, size: e.size }) : _("the feature");
      return _("Score {what} at ({x},{y}){v0}", { what, x: p.x, y: p.y, v0: p.use_wall_tile ? _(", doubled with a wall tile") : "" });
    }
    case "use_extra_turn": return _("Use the extra-turn wall tile");
    case "end_turn": return _("End the turn");
    case "confirm_remove_tile": return _("Agree to remove the unplaceable tile");
    case "final_target":
      return p.target
        ? _("Wall tile {wall_tile} ({v0}): score the feature at ({x},{y})", { wall_tile: p.wall_tile, v0: WALL_KEYS[p.wall_tile], x: p.target.x, y: p.target.y })
        : _("Wall tile {wall_tile} ({v0}): no target", { wall_tile: p.wall_tile, v0: WALL_KEYS[p.wall_tile] });
    default: return null;
  }
}

export function describeEvent(event, names) {
  const type = String(event.type || "").replace(/^carcassonne_castle\./, "");
  const seat = event.actor && event.actor.seat !== undefined ? event.actor.seat : event.seat;
  const who = seat === null || seat === undefined ? _("The system") : nameOf(seat, names);
  const p = event.payload || {};
  switch (type) {
    case "place_tile": return _("{who} placed a tile at ({x},{y}) turned {rotation}°", { who, x: p.x, y: p.y, rotation: p.rotation });
    case "place_follower": return _("{who} placed a follower on feature {feature}", { who, feature: p.feature });
    case "skip_follower": return _("{who} placed no follower", { who });
    // the active player picks the next feature to score, which may be the opponent's
    case "score_feature": return _("{who} had the feature at ({x},{y}) scored next{v0}", { who, x: p.x, y: p.y, v0: p.use_wall_tile ? _(", doubled with a wall tile") : "" });
    case "use_extra_turn": return _("{who} used an extra turn", { who });
    case "end_turn": return _("{who} ended the turn", { who });
    case "confirm_remove_tile": return _("{who} agreed to remove the unplaceable tile", { who });
    case "final_target":
      return p.target
        ? _("{who} aimed wall tile {wall_tile} at the feature at ({x},{y})", { who, wall_tile: p.wall_tile, x: p.target.x, y: p.target.y })
        : _("{who} used wall tile {wall_tile} on nothing", { who, wall_tile: p.wall_tile });
    default: return null;
  }
}
