"""The lobby page walks the paginated lobby API: "More games" (a named button, reached
and pressed from the keyboard) appends the next page, newest first, without repeats."""

from __future__ import annotations

from projections.games import registry

from .axe import audit, axe_script, describe

PAGE = 50  # the API's default page size, which the page asks for


def lobby_ids(server) -> list[str]:
    """Every game of the lobby, newest first, through the API's own pages."""
    ids, cursor = [], None
    while True:
        page = server.ok("GET", "/games", params={"limit": 100, **({"cursor": cursor} if cursor else {})})
        ids += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if not cursor:
            return ids


def rows(page) -> list[str]:
    return page.locator("#games-table tbody tr").evaluate_all("trs => trs.map(tr => tr.dataset.gameId)")


def test_more_games_loads_the_next_page_from_the_keyboard(live_server, page):
    seats = registry()["toy"].min_seats
    mine = [live_server.create("toy", seats)["id"] for _ in range(PAGE + 5)]
    everything = lobby_ids(live_server)
    assert set(mine) <= set(everything)

    page.goto(live_server.url + "/")
    page.wait_for_selector("#games-table")
    first = rows(page)
    assert first == everything[:PAGE] and set(first) <= set(mine), "the newest page first"
    more = page.get_by_role("button", name="More games")
    assert more.count() == 1
    assert page.locator("#games-shown").inner_text() == f"Games shown: {PAGE}"

    page.locator("#games-table tbody tr:last-child a").last.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "games-more", "the next stop after the list"
    page.keyboard.press("Enter")
    shown = min(2 * PAGE, len(everything))
    page.wait_for_function("n => document.querySelectorAll('#games-table tbody tr').length === n", arg=shown)
    assert rows(page) == everything[:shown], "the second page follows the first, newest first, no repeats"
    assert set(mine) <= set(rows(page))
    assert page.locator("#games-shown").inner_text() == f"Games shown: {shown}"
    if len(everything) > shown:
        assert page.evaluate("() => document.activeElement.id") == "games-more", "the focus stays on the button"
    else:
        assert more.count() == 0, "no button once every game is shown"
        assert page.evaluate("() => document.activeElement.closest('tr').dataset.gameId") == everything[PAGE]

    violations = audit(page, axe_script())
    assert not violations, describe(violations)
