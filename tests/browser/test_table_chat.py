"""Table chat in Chromium: two seats talk, one mutes the other, the referee hides a
message (kept and marked), at 390 px and on a desktop."""

from __future__ import annotations

import pytest

from .axe import audit, axe_script, describe
from .conftest import shot


def opened(browser, url, width):
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 500 else 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#chat-form:not([hidden])")
    return page, errors


def say(page, text):
    page.fill("#chat-text", text)
    page.click("#chat-send")


@pytest.mark.parametrize("width", [390, 1366])
def test_seats_talk_mute_and_the_referee_hides_a_message(live_server, browser, width):
    created = live_server.create("toy", ["Ann", "Bob"])
    gid = created["id"]
    url = f"{live_server.url}/games/{gid}#token="
    ann, ann_errors = opened(browser, url + created["seats"][0]["token"], width)
    bob, bob_errors = opened(browser, url + created["seats"][1]["token"], width)
    referee, ref_errors = opened(browser, url + created["referee_token"], width)

    say(ann, "good luck")
    say(bob, "you will need it")
    bob.wait_for_selector(".chat-text:text('good luck')")
    bob.wait_for_selector(".chat-text:text('you will need it')")  # his own: the read after his POST
    ann.wait_for_selector(".chat-text:text('you will need it')")

    # Ann mutes Bob: his messages leave her chat only
    ann.click(".mute-seat[data-seat='1']")
    ann.wait_for_function("() => !document.querySelector('#chat-log').textContent.includes('you will need it')")
    assert ann.locator(".mute-seat[data-seat='1']").get_attribute("aria-pressed") == "true"
    assert "you will need it" in bob.inner_text("#chat-log")
    assert bob.locator(".mute-seat[data-seat='1']").count() == 0  # nobody mutes themselves

    # the referee hides Bob's message: kept and marked, its text for the referee only
    referee.wait_for_selector(".chat-text:text('you will need it')")
    referee.once("dialog", lambda dialog: dialog.accept("unsporting"))
    referee.locator(".chat-message[data-seat='1'] .hide-message").click()
    referee.wait_for_selector(".hidden-message .chat-text:text('you will need it')")
    bob.wait_for_selector(".hidden-message em:text('hidden by the referee: unsporting')")
    assert "you will need it" not in bob.inner_text("#chat-log")
    violations = audit(bob, axe_script())
    assert not violations, describe(violations)
    shot(bob, f"table-chat-{width}")
    assert not (ann_errors or bob_errors or ref_errors), ann_errors + bob_errors + ref_errors
    for page in (ann, bob, referee):
        page.context.close()


@pytest.mark.parametrize("width", [390, 1366])
def test_a_spectators_page_reads_the_chat_only_when_its_stream_says_it_changed(live_server, browser, width):
    """A spectator's page asked for the chat every 4 s; it now asks when its live stream
    sends a new mark of the chat, so an idle chat costs a watching crowd no request."""
    created = live_server.create("toy", ["Ann", "Bob"])
    gid = created["id"]
    live_server.ok("POST", f"/games/{gid}/chat/settings", created["referee_token"], json={"spectators": True})
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 500 else 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors, asked = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith(f"/games/{gid}/chat") else None)
    page.goto(f"{live_server.url}/games/{gid}#spectator")
    page.wait_for_selector("#chat-panel")
    page.wait_for_timeout(2500)  # the load's read, and the stream's first mark (the same: no read)
    before = len(asked)
    page.wait_for_timeout(5000)  # more than a poll's 4 s
    assert len(asked) == before, asked

    live_server.ok("POST", f"/games/{gid}/chat", created["seats"][0]["token"], json={"text": "hello all"})
    page.wait_for_selector(".chat-text:text('hello all')")
    assert len(asked) == before + 1, asked
    assert not errors, errors
    context.close()
