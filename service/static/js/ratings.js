// Leaderboards: one per game, provisional ratings marked, a minimum number of games.
import { t as _, tn } from "./i18n.js";
import { Api } from "./api.js";
import { h, clear, $, errorText, humanize } from "./shell.js";

const root = $("#ratings-root");
let game = document.body.dataset.game;

async function main() {
  const types = await Api.gameTypes();
  if (!game) game = types[0].name;
  const select = h("select", { id: "ratings-game" }, types.map((t) => h("option", { value: t.name, selected: t.name === game }, tn(t.title || humanize(t.name)))));
  const minGames = h("input", { id: "ratings-min", type: "number", min: 0, max: 1000, value: 1 });
  const board = h("div", { id: "leaderboard", "aria-live": "polite" });
  const show = async () => {
    game = select.value;
    history.replaceState(null, "", `/ratings/${encodeURIComponent(game)}`);
    try {
      const answer = await Api.leaderboard(game, Math.max(0, Number(minGames.value) || 0));
      const below = answer.parameters.provisional_below_games;
      clear(board, answer.players.length ? h("table", { class: "leaderboard" },
        h("caption", {}, _("{game}: rating on the 1500 scale ({formula}), ranked by the cautious mu − 3 sigma; provisional below {n} games", { game: tn(select.selectedOptions[0].textContent), formula: answer.parameters.display, n: below })),
        h("thead", {}, h("tr", {}, [_("Rank"), _("Player"), _("Rating"), _("mu − 3 sigma"), _("Games")].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, answer.players.map((p) => h("tr", { class: p.provisional ? "provisional" : "" },
          h("td", {}, String(p.rank)),
          h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
          h("td", { class: "display-rating" }, displayed(p), p.provisional ? h("span", { class: "badge provisional" }, " ", _("provisional")) : null),
          h("td", { class: "raw-rating" }, p.rating.toFixed(2)),
          h("td", {}, String(p.games))))))
        : h("p", { class: "muted" }, _("Nobody is rated in this game yet.")));
    } catch (e) {
      clear(board, h("p", { class: "form-error", role: "alert" }, errorText(e)));
    }
  };
  select.addEventListener("change", show);
  minGames.addEventListener("change", show);
  clear(root, h("section", { class: "panel" },
    h("p", { class: "filters" },
      h("label", { for: "ratings-game" }, _("Game")), " ", select, " ",
      h("label", { for: "ratings-min" }, _("Minimum games")), " ", minGames),
    board));
  await show();
}

/** The 1500-scale rating, "?" while provisional (as rating sites mark it), ± two sigma. */
function displayed(r) {
  return `${r.display}${r.provisional ? "?" : ""} ± ${r.display_deviation}`;
}

main();
