// A player's profile: rating per game with its history chart, games with replay links, notes.
import { t as _, tn } from "./i18n.js";
import { Api } from "./api.js";
import { h, clear, $, fatal, errorText, statusBadge, humanize, fmtTime } from "./shell.js";
import { ratingChart } from "./chart.js";

const root = $("#profile-root");
const name = document.body.dataset.player;

function provisional(entry, below) {
  return entry.provisional ? h("span", { class: "badge provisional", title: _("fewer than {n} rated games", { n: below }) }, _("provisional")) : null;
}

async function main() {
  let profile, types;
  try {
    [profile, types] = await Promise.all([Api.profile(name), Api.gameTypes()]);
  } catch (e) {
    fatal(root, _("No such player"), errorText(e), [[_("Leaderboards"), "/ratings"]]);
    return;
  }
  const title = (game) => tn((types.find((t) => t.name === game) || {}).title || humanize(game));
  $("#profile-title").textContent = profile.name;
  const ratings = Object.entries(profile.ratings);
  clear(root,
    h("section", { class: "panel", "aria-labelledby": "ratings-title" },
      h("h2", { id: "ratings-title" }, _("Ratings")),
      ratings.length ? ratings.map(([game, r]) => h("article", { class: "rating-card", dataset: { game } },
        h("h3", {}, h("a", { href: `/ratings/${encodeURIComponent(game)}` }, title(game))),
        h("p", {}, h("strong", { class: "rating-value" }, `${r.display}${r.provisional ? "?" : ""} ± ${r.display_deviation}`), " ",
          _("(mu − 3 sigma {rating}: mu {mu}, sigma {sigma}; {games} games)", { rating: r.rating.toFixed(2), mu: r.mu.toFixed(2), sigma: r.sigma.toFixed(2), games: r.games }), " ",
          provisional(r, profile.provisional_below_games)),
        ratingChart(r.history, title(game))))
        : h("p", { class: "muted" }, _("No rated games yet."))),
    h("section", { class: "panel", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, _("Games")),
      profile.games.length ? h("table", { class: "games-table", id: "profile-games" },
        h("thead", {}, h("tr", {}, [_("Game"), _("Status"), _("Seat"), _("Place"), _("Replay")].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, profile.games.map((g) => h("tr", {},
          h("td", {}, title(g.game), g.ranked ? "" : h("span", { class: "muted" }, " ", _("(unranked)"))),
          h("td", {}, statusBadge(g.status)),
          h("td", {}, g.seat === null ? "" : String(g.seat + 1)),
          h("td", {}, g.rank ? String(g.rank) : "–"),
          h("td", {}, h("a", { href: g.replay }, _("Replay")))))))
        : h("p", { class: "muted" }, _("No games yet."))),
    h("section", { class: "panel", "aria-labelledby": "notes-title" },
      h("h2", { id: "notes-title" }, _("Annotations")),
      profile.annotations.length ? h("ul", { id: "profile-notes" }, profile.annotations.map((n) => h("li", {},
        h("a", { href: `/games/${encodeURIComponent(n.game_id)}/replay#at=${n.seq}` }, _("step {seq}", { seq: n.seq })), ": ",
        n.text, " ", h("span", { class: "muted small" }, fmtTime(n.ts)))))
        : h("p", { class: "muted" }, _("No annotations yet."))));
}

main();
