// The words of the pages in the page's language (<html lang>, chosen by the server from
// the player's switch or the browser). One JSON catalogue per language, /static/i18n/<lang>.json,
// maps each English text to its translation; English is the source and needs no file.
// Texts use named {slots} (or {0}, {1} with an array), so a translation may reorder them.

export const LANG = document.documentElement.lang || "en";

let catalogue = {};
if (LANG !== "en") {
  try {
    const r = await fetch(`/static/i18n/${encodeURIComponent(LANG)}.json`);
    if (r.ok) catalogue = await r.json();
  } catch (e) { console.warn("no catalogue for", LANG, e); }
}

// Texts asked for that the catalogue lacks: the catalogue test reads this list.
const missing = new Set();
window.__i18nMissing = missing;

function fill(s, params) {
  if (params === undefined || params === null) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : String(params[k])));
}

/** The translation of an English text, with its {slots} filled from params. */
export function t(text, params) {
  const key = String(text);
  let s = catalogue[key];
  if (s === undefined) {
    s = key;
    if (LANG !== "en" && key.trim() && /[A-Za-z]/.test(key)) missing.add(key);
  }
  return fill(s, params);
}

/** A game component's name (from the game's view, in English): translated when the
 * catalogue has it, else shown as it is. */
export function tn(name) {
  if (name === undefined || name === null) return "";
  const s = String(name);
  if (/^[A-Z]{0,2}\d+[a-z]?$/.test(s)) return s; // an id (M02, A1, 12): the same in every language
  return t(s);
}

/** A list joined the language's way ("A, B and C" / "A、B 和 C"). */
export function joinList(items) {
  try { return new Intl.ListFormat(LANG, { type: "conjunction" }).format(items.map(String)); }
  catch (e) { return items.join(", "); }
}
