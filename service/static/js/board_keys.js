// Keyboard play on any board a game's renderer draws.
//
// Renderers mark what can be clicked with a pointer cursor (tiles, cells, SVG groups).
// After each drawing this module turns those elements into one keyboard widget: a single
// tab stop on the board (roving tabindex), arrow keys moving to the nearest element in
// that direction (so a grid is walked as a grid), Home/End to the first and last, and
// Enter or Space doing what a click does. Each element gets role="button" and a name
// (its title, its SVG <title> or its text). A menu the activation opens gets the focus.
// Focus survives a redraw: the element at the same place in the board's order is focused.
import { t as _ } from "./i18n.js";

const NATIVE = "button, a[href], input, select, textarea, summary, label";

function targets(board) {
  const all = [...board.querySelectorAll("*")].filter((e) => {
    if (e.closest(NATIVE) || e.matches("style, script, title, desc")) return false;
    return getComputedStyle(e).cursor === "pointer";
  });
  const set = new Set(all);
  return all.filter((e) => { for (let p = e.parentElement; p && p !== board; p = p.parentElement) if (set.has(p)) return false; return true; });
}

/** Whitespace between the parts of an element whose words would otherwise run together
 * in its text: accessible-name checks (axe's label-content-name-mismatch, WCAG 2.5.3)
 * and some screen readers join adjacent parts' text without a space ("6" and "PB"
 * become "6PB"), so the name we give (read with spaces) would not contain the visible
 * words. A space between blocks, flex or grid items or SVG texts does not change the
 * drawing; between inline parts it is the space the eye already sees. */
function spaceParts(e) {
  let before = null;  // the last part that had text (parts without any, such as dots, in between)
  for (const kid of [...e.childNodes]) {
    const text = kid.textContent;
    if (!text) continue;
    if (before && /\S$/.test(before.textContent) && /^\S/.test(text) && (before.nodeType === 1 || kid.nodeType === 1)) {
      e.insertBefore(document.createTextNode(" "), kid);
    }
    before = kid;
  }
  for (const c of e.children) if (!c.matches("style, script, title, desc")) spaceParts(c);
}

/** The element's name: what it shows, then what it does (its title), so the spoken
 * name starts with the visible words (WCAG 2.5.3). */
function nameOf(e, i) {
  const svgTitle = e.querySelector(":scope > title");
  const says = e.getAttribute("title") || (svgTitle ? svgTitle.textContent.trim() : "");
  const shown = e instanceof SVGElement
    ? [...e.querySelectorAll("text")].map((x) => x.textContent).join(" ")
    : e.innerText || e.textContent || "";  // innerText: a <br> between words is a space, as a reader hears it
  const text = shown.replace(/\s+/g, " ").trim();
  if (text && says && !says.startsWith(text)) return `${text}: ${says}`;
  return says || text || _("Board element {n}", { n: i + 1 });
}

function centre(e) { const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }

/** The nearest element from `from` in direction (dx, dy), favouring straight lines. */
function nearest(items, from, dx, dy) {
  const a = centre(from);
  let best = null, bestScore = Infinity;
  for (const e of items) {
    if (e === from) continue;
    const b = centre(e);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 1) continue;
    const across = Math.abs((b.x - a.x) * dy - (b.y - a.y) * dx);
    const score = along + across * 2.5;
    if (score < bestScore) { best = e; bestScore = score; }
  }
  return best;
}

const state = new WeakMap();

function activate(e) {
  if (typeof e.click === "function" && !(e instanceof SVGElement)) e.click();
  else e.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
}

/** Make the board's clickable elements a keyboard widget. Call after every drawing. */
export function enhanceBoard(board, { refocus = false } = {}) {
  const prev = state.get(board) || { index: 0, pending: false };
  refocus = refocus || prev.pending;
  const items = targets(board);
  items.forEach((e, i) => {
    spaceParts(e);
    e.setAttribute("data-kb", String(i));
    e.setAttribute("role", "button");
    e.setAttribute("aria-label", nameOf(e, i));
    e.tabIndex = -1;
  });
  board.setAttribute("data-kb-count", String(items.length));
  if (!board.hasAttribute("tabindex")) board.tabIndex = -1;
  if (!items.length) {
    state.set(board, { index: prev.index, items, pending: false });
    if (refocus) board.focus();
    return;
  }
  const index = Math.min(prev.index, items.length - 1);
  items[index].tabIndex = 0;
  state.set(board, { index, items, pending: false });
  if (refocus) items[index].focus();
  if (!board.dataset.kbBound) {
    board.dataset.kbBound = "1";
    board.addEventListener("focusin", (ev) => {
      const s = state.get(board);
      const i = s.items.indexOf(ev.target);
      if (i >= 0) { s.items.forEach((x) => { x.tabIndex = -1; }); ev.target.tabIndex = 0; s.index = i; }
    });
    board.addEventListener("keydown", (ev) => {
      const s = state.get(board);
      const i = s.items.indexOf(ev.target);
      if (i < 0) return;
      const dirs = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
      let next = null;
      if (dirs[ev.key]) {
        next = nearest(s.items, ev.target, ...dirs[ev.key]);
        // nothing further that way: step through the board's order instead
        if (!next) next = s.items[(i + ((ev.key === "ArrowRight" || ev.key === "ArrowDown") ? 1 : s.items.length - 1)) % s.items.length];
      } else if (ev.key === "Home") next = s.items[0];
      else if (ev.key === "End") next = s.items[s.items.length - 1];
      else if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        const before = new Set(board.querySelectorAll("button"));
        s.pending = true;
        activate(ev.target);
        // a menu of choices opened by the element: move into it
        const opened = [...board.querySelectorAll("button")].find((b) => !before.has(b) && b.offsetParent !== null && !b.disabled);
        if (opened) { s.pending = false; opened.focus(); }
        return;
      }
      if (next) {
        ev.preventDefault();
        s.items.forEach((x) => { x.tabIndex = -1; });
        next.tabIndex = 0;
        next.focus();
      }
    });
  }
}

/** Before a redraw: whether the focus is on the board (to put it back afterwards). */
export function hasFocus(board) {
  return board.contains(document.activeElement);
}
