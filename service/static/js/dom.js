// The one DOM builder of every page and board renderer.
//
// h("div", {class: "x", onclick: fn, dataset: {seq: 3}}, child, "text", [more]) -> Element
// A tag "svg:rect" is made in the SVG namespace. Attributes that are null, undefined or
// false are left out; true gives an empty attribute ("true" for aria-*, whose values
// are words); children may be nested arrays, and null/undefined/false children are skipped.

const SVG_NS = "http://www.w3.org/2000/svg";

export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith("svg:") ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else if (v === true) el.setAttribute(k, k.startsWith("aria-") ? "true" : "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/** An SVG element: svg("rect", {x: 0}) is h("svg:rect", {x: 0}). */
export function svg(tag, attrs = {}, ...children) {
  return h(`svg:${tag}`, attrs, ...children);
}

export function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replace an element's children. */
export function clear(el, ...children) { el.replaceChildren(); append(el, children); return el; }

export const $ = (sel, root = document) => root.querySelector(sel);
