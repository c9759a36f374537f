"""What each seat knows of cards it cannot see, kept in the round state.

``known[o]`` maps a location (a seat number as a string, or ``"spare"``) to
``{"role", "status"}``: what seat ``o`` last saw there and whether it can still be
sure (``current``) or a public event may have moved it (``possibly_changed``).
Every update uses only the observer's own observations plus public events, so the
tracked aid never tells a seat more than it could work out itself (digest 15.4).
``seen[o]`` keeps the raw observations in order, kept only for the ``raw`` aid.
A seat's own card is never stored here: it is always known (G1).
"""

from __future__ import annotations

from .state import Location, Round


def observe(rd: Round, observer: int, location: Location, role: str) -> None:
    """``observer`` saw ``role`` at ``location`` (an investigation, an Oracle's look, a swap)."""
    rd["known"][observer][str(location)] = {"role": role, "status": "current"}
    if rd["seen"] is not None:
        rd["seen"][observer].append({"at": str(location), "role": role, "turn": rd["turns"]})


def made_public(rd: Round, seat: int) -> None:
    """The card at ``seat`` turned face up: private notes about it are superseded."""
    key = str(seat)
    for notes in rd["known"]:
        notes.pop(key, None)


def open_swap(rd: Round, actor: int, partner: Location, actor_old: str, partner_old: str) -> None:
    """Case A: everyone follows the two cards to their new places; both parties learn more."""
    a, b = str(actor), str(partner)
    for observer, notes in enumerate(rd["known"]):
        at_a, at_b = notes.pop(a, None), notes.pop(b, None)
        if at_a is not None:
            notes[b] = at_a
        if at_b is not None:
            notes[a] = at_b
        notes.pop(str(observer), None)
    observe(rd, actor, b, actor_old)
    if isinstance(partner, int):  # a seat, not the spare
        observe(rd, partner, a, partner_old)


def secret_swap(rd: Round, actor: int, partner: str | None, old_card: str, candidates: list[str]) -> None:
    """Case B: only the actor knows whether and with whom; others mark every candidate doubtful.

    ``candidates`` are the locations the actor could legally have swapped with (public).
    The actor's old card was face up, so every other seat remembers it as possibly still there.
    """
    a = str(actor)
    for observer, notes in enumerate(rd["known"]):
        if observer == actor:
            continue
        for location in candidates:
            if location in notes:
                notes[location] = {"role": notes[location]["role"], "status": "possibly_changed"}
        notes[a] = {"role": old_card, "status": "possibly_changed"}
    if partner is not None:
        observe(rd, actor, partner, old_card)
