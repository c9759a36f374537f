"""Every text a game can make the client show has a zh-Hant entry, and every board
drawing it can make passes axe-core: found systematically rather than by luck.

tests/browser/corpus.py folds seeded random games of each game through the rules alone
(several per seat count, default and drawn options) and keeps every view that shows
something new, every log entry as each viewer gets it and every move offered. Here all
of it goes through the game's real renderer in a Chinese page (the same modules the
table, replay and referee pages load): the board drawn for each kept view (with the
seat's moves, so the playable places are marked and named), the position in words, the
summary, the log lines and the move labels. A text the catalogue lacks, English left on
the board or in a line, or a serious axe violation of a drawn board fails the test,
naming the first view or entry that produced it.
"""

from __future__ import annotations

import pytest

from .axe import TAGS, axe_script
from .corpus import gather
from .games_at_steps import new_game
from .helpers import GAMES
from .untranslated import ALLOWED, WORDS_JS

# Chinese seat names for up to 15 seats (Sultans of Karaya): names are not translated
ZH_NAMES = [f"{c}君" for c in "甲乙丙丁戊己庚辛壬癸子丑寅卯辰"]
AXE_VIEWS = 40  # boards checked by axe per game, spread over the kept views

HARNESS = (
    r"""async ({ game, views, events, actions, names, allowed, axeEvery, tags }) => {"""
    + WORDS_JS
    + r"""
  const shell = await import("/static/js/shell.js");
  const { sentence } = await import("/static/js/sentences.js");
  const { tn } = await import("/static/js/i18n.js");
  const renderer = await shell.loadRenderer(game);
  const english = englishWords(allowed);
  const problems = [];
  const missingBefore = new Set(window.__i18nMissing);
  const note = (where, text) => { if (english(text).length) problems.push({ where, text: String(text).replace(/\s+/g, " ").trim().slice(0, 200) }); };
  const firstMissing = new Map();
  const blame = (where) => { for (const k of window.__i18nMissing) if (!missingBefore.has(k) && !firstMissing.has(k)) firstMissing.set(k, where); };
  // the corpus board sits where the page's own board is (same styles), which steps aside
  const own = document.getElementById("board");
  const host = document.createElement("div");
  host.className = own.className; host.id = "corpus-board"; host.setAttribute("role", "region");
  host.setAttribute("aria-label", own.getAttribute("aria-label"));
  own.hidden = true;
  own.after(host);
  const violations = [];
  for (const [i, item] of views.entries()) {
    const where = `view #${i} (step ${item.step}, viewer ${item.viewer}, ${item.status})`;
    const ctx = { seat: item.seat, names, actions: item.actions, act: async () => ({ ok: true }), viewer: item.viewer, status: item.status };
    renderer.render(host, item.view, ctx);
    const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const n = walker.currentNode;
      if (n.textContent.trim() && !n.parentElement.closest("style, script, [hidden]")) note(where, n.textContent);
    }
    for (const el of host.querySelectorAll("[title], [aria-label]")) for (const a of ["title", "aria-label"]) if (el.getAttribute(a)) note(`${where} @${a}`, el.getAttribute(a));
    for (const t of host.querySelectorAll("svg title, svg text")) note(`${where} svg`, t.textContent);
    if (item.view && item.view.summary) note(`${where} summary`, sentence(item.view.summary));
    for (const line of renderer.describePosition(item.view, { seat: item.seat, names })) note(`${where} in words`, line);
    if (item.result && item.result.tiebreak) note(`${where} tiebreak`, tn(item.result.tiebreak));
    for (const a of item.actions) note(`${where} move group`, tn(shell.humanize(a.type)));
    blame(where);
    if (axeEvery && i % axeEvery === 0) {
      const r = await axe.run(host, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
      for (const v of r.violations) if (v.impact === "critical" || v.impact === "serious") {
        violations.push({ where, id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")} ${n.html.slice(0, 140)} ${(n.failureSummary || "").slice(0, 160)}`) });
      }
    }
  }
  for (const [i, e] of events.entries()) {
    const where = `log entry #${i} ${e.type} ${JSON.stringify(e.payload).slice(0, 120)}`;
    note(where, renderer.describeEvent(e, names));
    blame(where);
  }
  for (const [i, [a, view]] of actions.entries()) {
    const where = `move #${i} ${JSON.stringify(a).slice(0, 140)}`;
    note(where, renderer.describeAction(a, view));
    blame(where);
  }
  host.remove();
  own.hidden = false;
  return { problems, missing: [...firstMissing].map(([text, where]) => ({ text, where })), violations };
}
"""
)


def first_of_each(problems: list[dict], key: str) -> list[dict]:
    seen, out = set(), []
    for p in problems:
        if p[key] not in seen:
            seen.add(p[key])
            out.append(p)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_runtime_text_of_a_game_is_in_chinese_and_every_board_passes_axe(game, live_server, browser):
    corpus = gather(game)
    created = new_game(live_server, game, "zh-Hant")
    context = browser.new_context(
        viewport={"width": 1366, "height": 900},
        locale="zh-Hant",
        extra_http_headers={"Accept-Language": "zh-TW,zh;q=0.9"},
    )
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{live_server.url}/games/{created['id']}#spectator")
        page.wait_for_selector("#table-root[data-seq]")
        page.evaluate(axe_script() + "\n;void 0")
        found = page.evaluate(
            HARNESS,
            {
                "game": game,
                "views": corpus.views,
                "events": corpus.events,
                "actions": corpus.actions,
                "names": ZH_NAMES,
                "allowed": ALLOWED + ZH_NAMES,
                "tags": TAGS,
                "axeEvery": max(1, len(corpus.views) // AXE_VIEWS),
            },
        )
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors[:3]}"
    report = []
    for m in found["missing"]:
        report.append(f"no zh-Hant entry: {m['text']!r}  (first from {m['where']})")
    for p in first_of_each(found["problems"], "text")[:40]:
        report.append(f"English shown: {p['text']!r}  (from {p['where']})")
    for v in first_of_each(found["violations"], "id"):
        report.append(f"axe {v['impact']} {v['id']} on {v['where']}:\n      " + "\n      ".join(v["nodes"]))
    assert not report, (
        f"{game}: {len(corpus.views)} views, {len(corpus.events)} log entries, {len(corpus.actions)} moves:\n"
        + "\n".join(report)
    )
