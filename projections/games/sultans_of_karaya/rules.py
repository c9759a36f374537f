"""Each action: a check that refuses what the rules forbid, and its effect.

``CHECKS[type](state, seat, payload)`` raises ``IllegalAction`` with a specific code;
``EFFECTS[type](engine, seat, payload)`` changes the (copied) state. ``legal.py``
enumerates actions by running the same checks, so offered == accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from projections.games.base import Rng, State, refuse

from . import knowledge, versions, windows
from .components import SCORING, SIDES
from .flow import Engine
from .state import Location, Round
from .table import beside_active_dancer, hidden_living, supply

MAIN_ACTIONS = (
    "investigate",
    "swap",
    "hide",
    "execute",
    "detain",
    "assassinate",
    "call_revolt",
    "capture",
    "dance",
    "manipulate",
    "foretell",
)
ABILITY_OF = {
    "execute": "sultan",
    "detain": "guard",
    "assassinate": "assassin",
    "call_revolt": "slave",
    "capture": "slaver",
    "dance": "dancer",
    "manipulate": "vizier",
    "foretell": "oracle",
}
FORCEABLE = ("execute", "detain", "assassinate", "capture")

Payload = dict[str, Any]
"""An action's payload as its schema loaded it (checks still test every value)."""
Check = Callable[[State, int, Payload], None]
Effect = Callable[[Engine, int, Payload], None]


# -- shared checks -----------------------------------------------------------------
def other_living(rd: Round, seat: int, target: object) -> int:
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(rd["cards"]):
        refuse("invalid_target", "name a seat of this table")
    if target == seat:
        refuse("invalid_target", "you cannot target yourself")
    if not rd["alive"][target]:
        refuse("target_dead", "that seat is dead this round")
    return target


def other_hidden(rd: Round, seat: int, target: object) -> int:
    seen = other_living(rd, seat, target)
    if rd["revealed"][seen]:
        refuse("target_revealed", "that seat's card is face up")
    return seen


def swap_partner(state: State, seat: int, partner: object) -> None:
    """Partner of any swap: the spare, or a living hidden seat, not detained, not a swap-back (G9)."""
    if partner == "spare":
        return
    rd = state["round_state"]
    other_hidden(rd, seat, partner)
    if rd["prison"][partner]:
        refuse("target_detained", "you may not swap with a detained seat")
    if partner in rd["incoming"][seat]:
        refuse("swap_back", "that seat swapped with you openly since your last turn")


def swap_candidates(state: State, seat: int) -> list[Location]:
    rd = state["round_state"]
    seats: list[Location] = [
        s for s in hidden_living(rd) if s != seat and not rd["prison"][s] and s not in rd["incoming"][seat]
    ]
    return [*seats, "spare"]


def holds(rd: Round, seat: int, action: str) -> None:
    if rd["cards"][seat] != ABILITY_OF[action]:
        refuse("wrong_role", f"only the {ABILITY_OF[action]} may {action.replace('_', ' ')}")


def ability_allowed(state: State, seat: int, action: str) -> None:
    """Own card, and not fatigued (only on an own turn or a bonus; forced uses are exempt)."""
    rd = state["round_state"]
    holds(rd, seat, action)
    pending = rd["pending"]
    if pending["kind"] == "action" and rd["fatigue"][seat]:
        refuse("fatigued", "a fatigued seat may not use an action ability this turn")


# -- checks per action -------------------------------------------------------------
def check_investigate(state: State, seat: int, payload: Payload) -> None:
    """Any other living seat (version 2, the seed's 調查身分); version 1 only a face-down one."""
    if versions.version(state) >= versions.INVESTIGATE_ANY_SEAT:
        other_living(state["round_state"], seat, payload.get("target"))
    else:
        other_hidden(state["round_state"], seat, payload.get("target"))


def check_swap(state: State, seat: int, payload: Payload) -> None:
    if state["round_state"]["revealed"][seat]:
        refuse("actor_revealed", "a revealed seat hides (and may swap secretly) instead")
    swap_partner(state, seat, payload.get("with"))


def check_hide(state: State, seat: int, payload: Payload) -> None:
    if not state["round_state"]["revealed"][seat]:
        refuse("actor_hidden", "your card is already face down")
    if payload.get("with") is not None:
        swap_partner(state, seat, payload["with"])


def check_execute(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "execute")
    rd = state["round_state"]
    target = other_living(rd, seat, payload.get("target"))
    if not rd["revealed"][target] or rd["cards"][target] not in ("assassin", "slave"):
        refuse("not_executable", "the Sultan executes only a revealed Assassin or Slave")


def check_detain(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "detain")
    rd = state["round_state"]
    if beside_active_dancer(rd, seat):
        refuse("dancer_forbids", "a Guard beside an active Belly Dancer may not detain")
    if state["options"]["enforce_status_card_limits"] and supply(rd, "prison") == 0:
        refuse("no_prison_card", "no prison card is left in the supply")
    target = other_living(rd, seat, payload.get("target"))
    if rd["prison"][target]:
        refuse("target_detained", "that seat is already detained")
    if versions.version(state) < versions.ANY_SULTAN_OR_GUARD_FORBIDS:
        # versions 1 and 2 (G4); from version 3 拘留 names 「其他任何一位玩家(不論其公開或隱藏)」
        # and the face-up Sultan or Guard named answers the FORBID window like any other
        if rd["revealed"][target] and rd["cards"][target] in ("sultan", "guard"):
            refuse("target_protected", "a revealed Sultan or Guard would forbid the detention")


def check_assassinate(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "assassinate")
    other_living(state["round_state"], seat, payload.get("target"))


def check_call_revolt(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "call_revolt")


def own_action_step(rd: Round, seat: int | None) -> bool:
    """Whether ``seat`` is the one awaited for a main action (its turn, a bonus, a forced hide)."""
    pending = rd["pending"]
    return pending is not None and pending["kind"] == "action" and pending["seat"] == seat


def check_revolt_interrupt(state: State, seat: int, payload: Payload | None = None) -> None:
    """G2 variant ``slave_call_any_time``: a face-down Slave calls a revolt out of turn.

    A standing interrupt like the royal claim, except that it opens a REVOLT window,
    and only one window is ever open (digest 13.1): never while another one is.
    """
    rd = state["round_state"]
    if not (rd["alive"][seat] and not rd["revealed"][seat] and rd["cards"][seat] == "slave"):
        refuse("not_hidden_slave", "only a seat holding a face-down Slave may call a revolt out of turn")
    if rd["pending"]["kind"] == "window":
        refuse("window_open", "a revolt may not be called while another window is open")
    if rd["prison"][seat] and not state["options"]["detained_may_join"]:
        refuse("detained", "a detained Slave may not reveal out of turn under this option set")


def check_capture(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "capture")
    rd = state["round_state"]
    if state["options"]["enforce_status_card_limits"] and supply(rd, "capture") == 0:
        refuse("no_capture_card", "no capture card is left in the supply")
    target = other_living(rd, seat, payload.get("target"))
    if rd["revealed"][target] and (rd["cards"][target] != "slave" or rd["captured"][target]):
        refuse("not_capturable", "capture a hidden seat or a revealed, uncaptured Slave")


def check_dance(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "dance")
    if state["round_state"]["revealed"][seat]:
        refuse("already_revealed", "the Belly Dancer is already dancing")


def check_manipulate(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "manipulate")
    rd = state["round_state"]
    side = payload.get("side")
    if rd["revealed"][seat]:
        if side is not None:
            refuse("side_fixed", "a revealed Vizier keeps the side she chose")
    elif side not in SIDES:
        refuse("side_required", "a hidden Vizier chooses a side as she reveals")
    other_hidden(rd, seat, payload.get("target"))


def check_foretell(state: State, seat: int, payload: Payload) -> None:
    ability_allowed(state, seat, "foretell")
    if state["round_state"]["revealed"][seat]:
        refuse("already_revealed", "only a hidden Oracle foretells")


def check_look(state: State, seat: int, payload: Payload) -> None:
    rd = state["round_state"]
    target = other_hidden(rd, seat, payload.get("target"))
    if target in rd["pending"]["looked"]:
        refuse("already_looked", "you already looked at that card")


def check_predict(state: State, seat: int, payload: Payload) -> None:
    if payload.get("side") not in SIDES:
        refuse("invalid_side", "predict loyalists or rebels")


def check_respond(state: State, seat: int, payload: Payload) -> None:
    rd = state["round_state"]
    pending = rd["pending"]
    if payload.get("window") != pending["id"]:
        refuse("wrong_window", "that window is not the one open")
    if payload.get("choice") not in windows.choices(pending["window"], rd["cards"][seat]):
        refuse("invalid_choice", "your card cannot give that answer")


# -- effects -----------------------------------------------------------------------
def do_investigate(eng: Engine, seat: int, payload: Payload) -> None:
    rd, target = eng.rd, payload["target"]
    if not rd["revealed"][target]:  # a face-up card is public: nothing to note (version 2)
        knowledge.observe(rd, seat, target, rd["cards"][target])
    eng.note("investigated", seat=seat, target=target)
    eng.settle()


def exchange(rd: Round, seat: int, partner: Location) -> tuple[str, str]:
    mine: str = rd["cards"][seat]
    theirs: str
    if partner == "spare":
        theirs, rd["spare"] = rd["spare"], mine
    else:
        theirs, rd["cards"][partner] = rd["cards"][partner], mine
    rd["cards"][seat] = theirs
    return mine, theirs


def do_swap(eng: Engine, seat: int, payload: Payload) -> None:
    rd, partner = eng.rd, payload["with"]
    mine, theirs = exchange(rd, seat, partner)
    knowledge.open_swap(rd, seat, partner, mine, theirs)
    if partner != "spare":
        rd["incoming"][partner] = sorted(set(rd["incoming"][partner]) | {seat})
        if eng.option("swap_back_rule") == "both_directions_open":
            if versions.version(eng.st) >= versions.SWAP_BACK_OUTLIVES_THE_TURN:
                # kept through the swapper's next turn: end_turn makes it the seat's incoming
                # (an open swap is always the turn owner's: a bonus or forced seat is face up)
                rd["due"] = {**rd["due"], "swap_back": partner}
            else:  # versions 1 and 2: cleared at the end of this very turn, so it changed nothing
                rd["incoming"][seat] = sorted(set(rd["incoming"][seat]) | {partner})
    eng.note("swapped", seat=seat, partner=partner)
    eng.settle()


def do_hide(eng: Engine, seat: int, payload: Payload) -> None:
    """Case B: eyes closed; others learn only that the seat hid (and where it could have swapped)."""
    rd, partner = eng.rd, payload.get("with")
    candidates = [str(c) for c in swap_candidates(eng.st, seat)]
    old = rd["cards"][seat]
    eng.hide(seat)
    if partner is not None:
        exchange(rd, seat, partner)
    knowledge.secret_swap(rd, seat, None if partner is None else str(partner), old, candidates)
    eng.note("hid", seat=seat)
    eng.settle()


def do_execute(eng: Engine, seat: int, payload: Payload) -> None:
    eng.reveal(seat)
    eng.note("executed", seat=seat, target=payload["target"])
    eng.kill(payload["target"])
    eng.settle()


def do_detain(eng: Engine, seat: int, payload: Payload) -> None:
    target = payload["target"]
    eng.reveal(seat)
    eng.note("detention_called", seat=seat, target=target)
    eligible = windows.forbid_eligible(eng.st, seat, target)
    windows.open_window(eng, "forbid", eligible, {"guard": seat, "target": target})


def do_assassinate(eng: Engine, seat: int, payload: Payload) -> None:
    target = payload["target"]
    eng.reveal(seat)
    eng.note("attacked", seat=seat, target=target)
    eligible = windows.block_eligible(eng.rd, eng.st["options"], seat, target)
    windows.open_window(eng, "block", eligible, {"assassin": seat, "target": target})


def do_call_revolt(eng: Engine, seat: int, payload: Payload) -> None:
    """As the main action; or out of turn (G2 variant), after which the interrupted step resumes."""
    rd = eng.rd
    if own_action_step(rd, seat):
        eng.reveal(seat)
        eng.note("revolt_called", seat=seat)
    else:
        rd["stack"].append({"then": "resume", "pending": rd["pending"]})
        eng.reveal(seat)
        eng.note("revolt_called", seat=seat, out_of_turn=True)
    eligible = windows.revolt_eligible(eng.rd, eng.st["options"], seat)
    windows.open_window(eng, "revolt", eligible, {"caller": seat})


def do_capture(eng: Engine, seat: int, payload: Payload) -> None:
    rd, target = eng.rd, payload["target"]
    forced = rd["pending"]["kind"] == "forced"
    eng.reveal(seat)
    if rd["revealed"][target]:
        rd["captured"][target] = True
        eng.note("captured", seat=seat, target=target)
    elif rd["cards"][target] == "slave":
        eng.reveal(target)
        rd["captured"][target] = True
        eng.note("captured", seat=seat, target=target)
        if not forced or eng.option("forced_slaver_gets_bonus"):
            rd["stack"].append({"then": "bonus", "seat": seat})
    else:
        eng.note("not_a_slave", seat=seat, target=target)
    eng.settle()


def do_dance(eng: Engine, seat: int, payload: Payload) -> None:
    eng.reveal(seat)
    eng.note("danced", seat=seat)
    eng.settle()


def do_manipulate(eng: Engine, seat: int, payload: Payload) -> None:
    rd, target = eng.rd, payload["target"]
    if not rd["revealed"][seat]:
        eng.reveal(seat)
        rd["faction"][seat] = payload["side"]
    eng.note("manipulated", seat=seat, target=target, side=rd["faction"][seat])
    eng.reveal(target)
    rd["stack"].append({"then": "fatigue", "seat": target})
    force(eng, target)


def force(eng: Engine, seat: int) -> None:
    """The Vizier's victim must use its action ability if it has any legal use (G3, G13)."""
    from .legal import ability_options  # legal enumerates with these checks

    rd = eng.rd
    card = rd["cards"][seat]
    if card == "slave":
        eng.note("revolt_called", seat=seat)
        windows.open_window(eng, "revolt", windows.revolt_eligible(rd, eng.st["options"], seat), {"caller": seat})
    elif card == "oracle":
        start_looks(eng, seat)
    elif card == "dancer":
        eng.settle()
    else:
        ability = {"sultan": "execute", "guard": "detain", "assassin": "assassinate", "slaver": "capture"}[card]
        rd["pending"] = {"kind": "forced", "seat": seat, "ability": ability}
        if not ability_options(eng.st, seat, ability):
            eng.note("no_legal_use", seat=seat)
            eng.settle()


def start_looks(eng: Engine, seat: int) -> None:
    rd = eng.rd
    count = min(SCORING["oracle_looks"], len([s for s in hidden_living(rd) if s != seat]))
    if count:
        rd["pending"] = {"kind": "looks", "seat": seat, "left": count, "looked": []}
    else:
        rd["pending"] = {"kind": "prediction", "seat": seat}


def do_foretell(eng: Engine, seat: int, payload: Payload) -> None:
    eng.reveal(seat)
    eng.note("foretold", seat=seat)
    start_looks(eng, seat)


def do_look(eng: Engine, seat: int, payload: Payload) -> None:
    rd, target = eng.rd, payload["target"]
    if not rd["revealed"][target]:  # a face-up card is public: nothing to note (version 2)
        knowledge.observe(rd, seat, target, rd["cards"][target])
    pending = rd["pending"]
    pending["looked"].append(target)
    pending["left"] -= 1
    eng.note("looked", seat=seat, target=target)
    others = [s for s in hidden_living(rd) if s != seat and s not in pending["looked"]]
    if pending["left"] == 0 or not others:
        rd["pending"] = {"kind": "prediction", "seat": seat}


def do_predict(eng: Engine, seat: int, payload: Payload) -> None:
    rd = eng.rd
    rd["faction"][seat] = payload["side"]
    rd["must_hide"][seat] = True
    eng.note("predicted", seat=seat, side=payload["side"])
    eng.settle()


def do_respond(eng: Engine, seat: int, payload: Payload) -> None:
    pending = eng.rd["pending"]
    pending["responses"][str(seat)] = payload["choice"]
    if len(pending["responses"]) == len(pending["eligible"]):
        windows.close(eng)


def do_window_timeout(eng: Engine, seat: int | None, payload: Payload) -> None:
    eng.note("window_timed_out", id=payload["window"])
    windows.close(eng)


def do_royal_claim(eng: Engine, seat: int, payload: Payload) -> None:
    """The claim changes no step, except one it leaves without options (the Sultan was the
    last card the Oracle or a forced Slaver could still pick): that step then moves on."""
    eng.reveal(seat)
    eng.note("royal_claim", seat=seat)
    if eng.checkpoint():
        return
    if not eng.keep_step(eng.rd["pending"]):
        eng.settle()


CHECKS: dict[str, Check] = {
    "investigate": check_investigate,
    "swap": check_swap,
    "hide": check_hide,
    "execute": check_execute,
    "detain": check_detain,
    "assassinate": check_assassinate,
    "call_revolt": check_call_revolt,
    "capture": check_capture,
    "dance": check_dance,
    "manipulate": check_manipulate,
    "foretell": check_foretell,
    "look": check_look,
    "predict": check_predict,
    "respond": check_respond,
}
EFFECTS: dict[str, Effect] = {
    "investigate": do_investigate,
    "swap": do_swap,
    "hide": do_hide,
    "execute": do_execute,
    "detain": do_detain,
    "assassinate": do_assassinate,
    "call_revolt": do_call_revolt,
    "capture": do_capture,
    "dance": do_dance,
    "manipulate": do_manipulate,
    "foretell": do_foretell,
    "look": do_look,
    "predict": do_predict,
    "respond": do_respond,
    "window_timeout": do_window_timeout,
    "royal_claim": do_royal_claim,
}


def effect(state: State, seat: int | None, kind: str, payload: Payload, rng: Rng) -> None:
    """The action's change on the copy; the notes say what this event caused. ``seat`` is
    None only for the system's window_timeout (legal.may_act), whose effect ignores it."""
    state["notes"] = []
    EFFECTS[kind](Engine(state, rng), cast(int, seat), dict(payload))
