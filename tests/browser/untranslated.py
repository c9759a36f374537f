"""What a page shows that is not in its language: for the zh-Hant pages, every visible
text (and every title, aria-label, placeholder) with an English word in it, and every
text the modules asked the catalogue for and did not find (window.__i18nMissing).
Names the players chose (marked translate="no" where a page lists other games' players),
ids, hashes and code are not words to translate."""

from __future__ import annotations

# The English words of a text (three letters or more, hex ids left out), less the allowed ones.
WORDS_JS = r"""
const englishWords = (allowed) => {
  const allow = new Set(allowed.map((w) => w.toLowerCase()));
  return (text) => (String(text).replace(/\b[0-9a-f]{8,}\b…?/gi, " ").match(/[A-Za-z][A-Za-z'’]{2,}/g) || []).filter((w) => !allow.has(w.toLowerCase()) && !/^[IVXLC]+$/.test(w));  // Roman numerals number the phases in both
};
"""

SCAN = (
    r"""(allowed) => {"""
    + WORDS_JS
    + r"""
  const found = new Set();
  const visible = (el) => {
    if (!el || el.closest('code, pre, script, style, noscript, [hidden], [translate=no]')) return false;
    if (el.closest('details:not([open])') && !el.closest('summary')) return false;
    const r = el.getClientRects();
    return r.length > 0 || el.closest('.visually-hidden, [role=status]');
  };
  const words = englishWords(allowed);
  const note = (text) => { if (words(text).length) found.add(String(text).replace(/\s+/g, ' ').trim().slice(0, 160)); };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    if (n.textContent.trim() && visible(n.parentElement)) note(n.textContent);
  }
  for (const el of document.body.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (!visible(el) && !el.closest('#board')) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(a)) note(el.getAttribute(a));
  }
  const missing = window.__i18nMissing ? [...window.__i18nMissing] : [];
  return { untranslated: [...found].sort(), missing: missing.sort() };
}"""
)

# Words that are the same in both languages: the product's name, standards, units.
ALLOWED = [
    "Boardroom",
    "API",
    "JSON",
    "Lines",
    "HTTP",
    "SHA",
    "sha256",
    "seed",
    "Home",
    "End",
    "BGG",
    "English",
    "Bearer",
    "Authorization",
    "token",
    "render",
    "Buchholz",
    "BUNDLE",
    "python",
    "service",
    "verify",
    "tournament",
    "jsonl",
    "Age",
    "Rome",
    "Enter",
    "Tab",
    "Esc",
]


def scan(page, extra_allowed: list[str] = ()) -> dict:
    return page.evaluate(SCAN, ALLOWED + list(extra_allowed))
