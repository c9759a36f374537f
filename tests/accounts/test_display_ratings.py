"""Display ratings: a 1500-based figure from OpenSkill's mu and sigma beside the raw
values, which the API keeps."""

from __future__ import annotations

import math

from openskill.models import PlackettLuce

from projections import ratings as rfold
from tests.accounts.helpers import bound_game, new_account, roll_out


def test_the_scale_reads_mu_differences_as_elo_does():
    model = PlackettLuce()
    k = 400 / (math.log(10) * math.sqrt(2) * model.beta)
    assert rfold.display(model.mu, model.sigma) == {"display": 1500, "display_deviation": round(2 * k * model.sigma)}
    # the chance Plackett-Luce gives two sure players is Elo's chance for their display gap
    a, b = rfold.display(30, 0)["display"], rfold.display(25, 0)["display"]
    pl = 1 / (1 + math.exp(-(30 - 25) / (math.sqrt(2) * model.beta)))
    elo = 1 / (1 + 10 ** (-(a - b) / 400))
    assert abs(pl - elo) < 0.002


def test_leaderboards_and_profiles_show_the_display_rating_and_keep_the_raw_values(client):
    accounts = [new_account(client, f"d{i}") for i in range(2)]
    meta = roll_out(client, bound_game(client, [s for _, s in accounts], options={"rounds": 1}))
    winner = accounts[meta["result"]["ranking"].index(1)][0]
    board = client.get("/api/ratings/toy?min_games=0&limit=500").get_json()
    assert "1500 +" in board["parameters"]["display"] and board["parameters"]["ordinal"] == "mu - 3 * sigma"
    row = next(r for r in board["players"] if r["name"] == winner)
    assert row["display"] == rfold.display(row["mu"], row["sigma"])["display"]
    if meta["result"]["ranking"] != [1, 1]:  # the dice may tie: then nobody moves
        assert row["display"] > 1500
    assert row["provisional"] and {"mu", "sigma", "rating"} <= set(row)
    profile = client.get(f"/api/accounts/{winner}").get_json()["ratings"]["toy"]
    assert profile["display"] == row["display"] and profile["display_deviation"] == row["display_deviation"]
    assert profile["history"][-1]["display"] == row["display"]
