"""API errors keep their code and say their message in the request's language."""

from __future__ import annotations

import pytest

from service.http.i18n import tag_for


@pytest.mark.parametrize(
    "header, tag",
    [
        ("zh-TW,zh;q=0.9,en;q=0.8", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh", "zh-Hant"),
        ("en-GB,en;q=0.9", "en"),
        ("fr-FR", "en"),
        ("", "en"),
        (None, "en"),
        ("en;q=0.5,zh-TW;q=0.9", "zh-Hant"),
        ("zh-TW;q=0.1,en;q=0.9", "en"),
        ("zh;q=bad", "en"),
    ],
)
def test_the_language_of_a_request(header, tag):
    assert tag_for(header) == tag


def test_an_error_in_english_and_in_chinese_with_the_same_code(client):
    en = client.get("/api/games/no-such-game")
    zh = client.get("/api/games/no-such-game", headers={"Accept-Language": "zh-TW,zh;q=0.9"})
    assert en.status_code == zh.status_code == 404
    assert en.get_json()["error"]["code"] == zh.get_json()["error"]["code"] == "not_found"
    assert en.get_json()["error"]["message"] == "game not found"
    assert zh.get_json()["error"]["message"] == "找不到這個遊戲"
    assert "Accept-Language" in zh.headers["Vary"]


def test_values_in_a_message_survive_its_translation(client):
    r = client.post("/api/games", json={"game": "chess", "seats": ["a", "b"]}, headers={"Accept-Language": "zh-Hant"})
    body = r.get_json()["error"]
    assert r.status_code == 400 and body["code"] == "unknown_game"
    assert body["message"] == "沒有名為 'chess' 的遊戲"
    assert body["details"]["known"]


def test_a_rules_message_keeps_its_english_words_behind_a_translated_lead(client):
    made = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"]}).get_json()
    zh = {"Accept-Language": "zh-Hant"}
    seat = lambda s: {"Authorization": f"Bearer {made['seats'][s]['token']}", **zh}  # noqa: E731
    r = client.post(f"/api/games/{made['id']}/actions", json={"type": "roll", "payload": {}}, headers=seat(1))
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "not_your_turn"
    assert r.get_json()["error"]["message"] == "這個座位現在不能行動"
    r = client.post(f"/api/games/{made['id']}/actions", json={"type": "play", "payload": {"card": 99}}, headers=seat(0))
    body = r.get_json()["error"]
    assert r.status_code == 422 and body["code"] == "not_in_hand"
    assert body["message"] == "規則不允許（not_in_hand）：that card is not in your hand"


def test_pages_follow_the_switch_then_the_browser(client):
    assert 'lang="zh-Hant"' in client.get("/", headers={"Accept-Language": "zh-TW"}).get_data(as_text=True)
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "en-US"}).get_data(as_text=True)
    r = client.get("/lang/zh-Hant?next=/verify")
    assert r.status_code == 303 and r.headers["Location"] == "/verify"
    page = client.get("/verify", headers={"Accept-Language": "en-US"}).get_data(as_text=True)
    assert 'lang="zh-Hant"' in page and "驗證遊戲匯出檔" in page
    client.get("/lang/en?next=/")
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "zh-TW"}).get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "evil"])
def test_the_switch_goes_back_only_to_this_site(client, target):
    r = client.get("/lang/en", query_string={"next": target})
    assert r.headers["Location"] == "/"


def test_a_shared_refusal_is_said_in_the_request_language_in_every_game(client):
    """The generic refusals (docs/API.md) have one message, so one catalogue entry."""
    from tests.platform.helpers import GameHandle

    g = GameHandle(client, game="shadow_of_the_emperor", seats=("a", "b"))
    seat = g.meta()["to_act"][0]
    r = client.post(
        g.url("/actions"),
        json={"type": "vote", "payload": {"side": "rival"}},
        headers={**g.seat(seat), "Accept-Language": "zh-Hant"},
    )
    body = r.get_json()["error"]
    assert r.status_code == 422 and body["code"] == "wrong_action"
    assert body["message"] == "vote 不是遊戲現在等待的行動"


def test_storage_unreachable_is_said_in_the_request_language(tmp_path):
    """The 503 of a storage fault goes through the same catalogue as every other error."""
    from service.app import create_app
    from tests.redis_servers import free_port

    app = create_app(
        {"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "CLOCK_SWEEP_SECONDS": 0, "DATA_DIR": str(tmp_path)}
    )
    r = app.test_client().get("/api/games", headers={"Accept-Language": "zh-Hant"})
    assert r.status_code == 503 and r.headers["Retry-After"] == "1"
    assert r.get_json()["error"]["code"] == "storage_unavailable"
    assert r.get_json()["error"]["message"] == "暫時無法連上儲存服務；請稍後再試"


def test_caches_are_told_what_each_answer_depends_on(client):
    page = client.get("/")
    assert page.mimetype == "text/html"
    assert {v.strip() for v in page.headers["Vary"].split(",")} >= {"Accept-Language", "Cookie"}
    assert page.headers["Content-Language"] in ("en", "zh-Hant")
    api = client.get("/api/game-types")
    assert [v.strip() for v in api.headers["Vary"].split(",")].count("Accept-Language") == 1
