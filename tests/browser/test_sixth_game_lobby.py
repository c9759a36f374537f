"""The lobby lists a sixth game registered in one place (CONTRIBUTING.md, "add a game"):
its game menu is built from GET /api/game-types, and the game can be created from it."""

from __future__ import annotations

from tests.sixth_game import PACKAGE, add_sixth_game


def test_the_lobby_offers_a_sixth_game_registered_in_one_place(live_server, page, monkeypatch, tmp_path):
    add_sixth_game(monkeypatch, tmp_path)
    page.goto(live_server.url + "/")
    page.wait_for_selector(f"#create-game option[value='{PACKAGE}']", state="attached")
    assert page.locator(f"#filter-game option[value='{PACKAGE}']").count() == 1
    page.select_option("#create-game", PACKAGE)
    page.click("#create-submit")
    page.wait_for_selector("#created:not([hidden])")
    assert "The Sixth Game" in page.locator("#created").inner_text() or page.locator("#created a").count()
