"""Response windows (digest 13.2): who is asked, what each may answer, how they resolve.

Eligibility is computed from public facts only and frozen when the window opens, so
``to_act`` is the same whatever the hidden cards are; a seat whose real card cannot
use the window is offered only the default answer.
"""

from __future__ import annotations

from projections.games.base import Options, State

from . import versions
from .flow import Engine
from .state import Round
from .table import adjacent, beside_active_dancer, hidden_living, living, unaccounted

DEFAULTS = {"block": "pass", "forbid": "accept", "revolt": "pass"}
ACTIVE_CHOICE = {"block": ("block", "guard"), "forbid": ("forbid", None), "revolt": ("join", "slave")}


def choices(window: str, card: str) -> list[str]:
    """Answers a seat holding ``card`` may give in ``window`` (the default always)."""
    active, role = ACTIVE_CHOICE[window]
    able = card in ("sultan", "guard") if window == "forbid" else card == role
    return [active, DEFAULTS[window]] if able else [DEFAULTS[window]]


def block_eligible(rd: Round, options: Options, assassin: int, target: int) -> list[int]:
    guards_unseen = unaccounted(rd, "guard") > 0
    eligible = []
    for s in living(rd):
        if s == assassin:
            continue
        if s == target:
            if not (options["target_may_block"] and adjacent(rd, s, assassin)):
                continue
        elif not (adjacent(rd, s, assassin) or adjacent(rd, s, target)):
            continue
        if rd["prison"][s] and not options["detained_guard_may_block"]:
            continue
        if beside_active_dancer(rd, s):
            continue
        if rd["revealed"][s] and rd["cards"][s] == "guard" or not rd["revealed"][s] and guards_unseen:
            eligible.append(s)
    return eligible


def forbid_eligible(state: State, guard: int, target: int) -> list[int]:
    """Who may forbid the detention ``guard`` calls on ``target``: every living seat but the
    Guard's that holds, or may hold, a Sultan or a Guard (version 3, the seed's 禁止拘留 names
    no restriction to the target): those face up holding one, and every face-down seat while
    a Sultan or Guard is unaccounted for, so the set tells nobody who holds one. Versions 1
    and 2 asked the face-down target only (G4)."""
    rd = state["round_state"]
    hidden_may = unaccounted(rd, "sultan") + unaccounted(rd, "guard") > 0
    if versions.version(state) < versions.ANY_SULTAN_OR_GUARD_FORBIDS:
        return [target] if hidden_may and not rd["revealed"][target] else []
    return [
        s
        for s in living(rd)
        if s != guard and (rd["cards"][s] in ("sultan", "guard") if rd["revealed"][s] else hidden_may)
    ]


def revolt_eligible(rd: Round, options: Options, caller: int) -> list[int]:
    if unaccounted(rd, "slave") == 0:
        return []
    return [s for s in hidden_living(rd) if s != caller and (options["detained_may_join"] or not rd["prison"][s])]


def clockwise_from(seat: int, seats: list[int], total: int) -> list[int]:
    """``seats`` in clockwise order starting at ``seat`` (the log order of simultaneous reveals)."""
    return sorted(seats, key=lambda s: (s - seat) % total)


def open_window(eng: Engine, window: str, eligible: list[int], context: dict[str, int]) -> None:
    """Ask the eligible seats; with nobody to ask, resolve at once."""
    rd = eng.rd
    if not eligible:
        resolve(eng, window, {}, context)
        return
    rd["windows"] += 1
    rd["pending"] = {
        "kind": "window",
        "window": window,
        "id": rd["windows"],
        "eligible": sorted(eligible),
        "responses": {},
        "context": context,
    }
    eng.note("window_opened", window=window, id=rd["windows"], eligible=sorted(eligible))


def close(eng: Engine) -> None:
    pending = eng.rd["pending"]
    answers = {int(s): choice for s, choice in pending["responses"].items()}
    for s in pending["eligible"]:
        answers.setdefault(s, DEFAULTS[pending["window"]])
    resolve(eng, pending["window"], answers, pending["context"])


def resolve(eng: Engine, window: str, answers: dict[int, str], context: dict[str, int]) -> None:
    rd = eng.rd
    total = len(rd["cards"])
    active = ACTIVE_CHOICE[window][0]
    takers = clockwise_from(rd["owner"], [s for s, c in answers.items() if c == active], total)
    for s in takers:  # every blocker, forbidder and joiner turns face up
        eng.reveal(s)
    if window == "block":
        if takers:
            eng.note("blocked", seats=takers, assassin=context["assassin"])
            eng.kill(context["assassin"])
        else:
            eng.kill(context["target"])
    elif window == "forbid":
        target = context["target"]
        if not takers:
            rd["prison"][target] = True
            eng.note("detained", seat=target)
        elif versions.version(eng.st) < versions.ANY_SULTAN_OR_GUARD_FORBIDS:
            eng.note("detention_forbidden", seat=target)  # the target was the only seat asked
        else:
            eng.note("detention_forbidden", seats=takers, guard=context["guard"], target=target)
    else:
        eng.note("revolt_joined", seats=takers, caller=context["caller"])
    eng.settle()
