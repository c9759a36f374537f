"""What the director's page needs from the API: the disputes open at the tables in play,
co-director links (and a lost one replaced and revoked), standings as CSV."""

from __future__ import annotations

import csv
import io

from .bots import bearer
from .test_api import create


def paired(client, names, **options):
    tid, director, players = create(client, "toy", 2, 2, names, **options)
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    return tid, director, pairing


def test_a_dispute_raised_at_a_table_is_listed_for_the_tournament_until_settled(client):
    tid, director, pairing = paired(client, ["Ann", "Bob", "Cy", "Di"])
    assert client.get(f"/api/tournaments/{tid}/disputes").get_json() == {"disputes": []}
    table = pairing["tables"][1]
    game = table["game_id"]
    raised = client.post(
        f"/api/games/{game}/annotations",
        json={"seq": 1, "text": "wrong score", "kind": "dispute"},
        headers=bearer(table["seats"][1]["token"]),
    ).get_json()["id"]
    listed = client.get(f"/api/tournaments/{tid}/disputes").get_json()["disputes"]
    assert [(d["table"], d["game_id"], d["id"], d["seat"], d["round"]) for d in listed] == [
        (table["table"], game, raised, 1, 1)
    ]
    referee = client.get(f"/api/tournaments/{tid}/rounds/1", headers=bearer(director)).get_json()
    token = next(t["referee_token"] for t in referee["tables"] if t["game_id"] == game)
    settled = client.post(
        f"/api/games/{game}/referee/dismiss", json={"dispute": raised, "reason": "score stands"}, headers=bearer(token)
    )
    assert settled.status_code == 201
    assert client.get(f"/api/tournaments/{tid}/disputes").get_json() == {"disputes": []}


def test_a_co_director_acts_as_the_director_and_a_revoked_link_no_longer_does(client):
    tid, director, _ = create(client, "toy", 2, 1, ["Ann", "Bob"])
    made = client.post(f"/api/tournaments/{tid}/directors", json={"name": "Sam"}, headers=bearer(director))
    assert made.status_code == 201
    sam = made.get_json()["director_token"]
    again = client.post(f"/api/tournaments/{tid}/directors", json={"name": "Sam"}, headers=bearer(director))
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "director_exists"
    assert client.get(f"/api/tournaments/{tid}/directors", headers=bearer(sam)).get_json() == {
        "directors": ["Sam"],
        "accounts": [],
    }
    # the co-director replaces nothing: both links direct; Sam pairs the round
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(sam)).status_code == 201
    revoked = client.delete(f"/api/tournaments/{tid}/directors/Sam", headers=bearer(director))
    assert revoked.status_code == 200 and revoked.get_json() == {"directors": [], "accounts": []}
    refused = client.post(f"/api/tournaments/{tid}/finish", json={}, headers=bearer(sam))
    assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "revoked_token"
    assert client.get(f"/api/tournaments/{tid}").get_json()["status"] == "running"


def test_co_director_links_refuse_bad_input_and_strangers(client):
    tid, director, players = create(client, "toy", 2, 1, ["Ann", "Bob"])
    player = next(iter(players.values()))
    for body in ({}, {"name": ""}, {"name": "   "}, {"name": "x" * 41}, {"name": 5}):
        r = client.post(f"/api/tournaments/{tid}/directors", json=body, headers=bearer(director))
        assert r.status_code == 400, body
    assert client.post(f"/api/tournaments/{tid}/directors", json={"name": "Eve"}).status_code == 401
    r = client.post(f"/api/tournaments/{tid}/directors", json={"name": "Eve"}, headers=bearer(player))
    assert r.status_code == 403
    assert client.delete(f"/api/tournaments/{tid}/directors/Nobody", headers=bearer(director)).status_code == 404
    assert client.get(f"/api/tournaments/{tid}/directors", headers=bearer(director)).get_json() == {
        "directors": [],
        "accounts": [],
    }


def test_standings_as_csv_match_the_json_and_quote_formula_names(client):
    tid, director, _ = create(client, "toy", 2, 1, ["=cmd()", "Bob", "Cy"])
    client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director))
    answer = client.get(f"/api/tournaments/{tid}/standings.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    table = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    assert [r["name"].lstrip("'") for r in rows] == [t["name"] for t in table]
    assert [r["points"] for r in rows] == [str(t["points"]) for t in table]
    assert "'=cmd()" in [r["name"] for r in rows] and "buchholz" in rows[0]
    assert client.get("/api/tournaments/nope/standings.csv").status_code == 404


def test_a_director_account_directs_from_its_own_sessions_until_it_is_revoked(client):
    tid, director, _ = create(client, "toy", 2, 1, ["Ann", "Bob"])
    made = client.post("/api/accounts", json={"name": "Mira", "password": "correct horse battery"})
    assert made.status_code == 201, made.get_json()
    session = made.get_json()["token"]
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(session)).status_code == 401  # not yet
    unknown = client.post(
        f"/api/tournaments/{tid}/director-accounts", json={"name": "Nobody"}, headers=bearer(director)
    )
    assert unknown.status_code == 404
    added = client.post(f"/api/tournaments/{tid}/director-accounts", json={"name": "Mira"}, headers=bearer(director))
    assert added.status_code == 201 and added.get_json() == {"directors": [], "accounts": ["Mira"]}
    # a lost session is a new log-in: any session of the account directs
    again = client.post("/api/sessions", json={"name": "Mira", "password": "correct horse battery"})
    assert again.status_code == 201
    later = again.get_json()["token"]
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(later)).status_code == 201
    gone = client.delete(f"/api/tournaments/{tid}/director-accounts/Mira", headers=bearer(session))
    assert gone.status_code == 200 and gone.get_json()["accounts"] == []
    assert client.post(f"/api/tournaments/{tid}/finish", json={}, headers=bearer(session)).status_code == 401
