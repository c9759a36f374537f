"""The round's machinery: reveals, hides, deaths, checkpoints, turns and round ends.

An ``Engine`` wraps the (already copied) state being built by one ``apply`` and the
rng of that event; rules call it to change the table. Steps with no decision
(serving a detention, skipping a captive, crown checks, scoring, the next deal)
all happen here, right after the decision that leads to them.
"""

from __future__ import annotations

import json
from typing import Any

from projections.games.base import Rng, State

from . import knowledge
from .scoring import final_result, game_over, round_points, winner_at_checkpoint
from .state import Round, deal_round
from .table import hidden_living, supply


class Engine:
    def __init__(self, state: State, rng: Rng):
        self.st = state
        self.rng = rng

    @property
    def rd(self) -> Round:
        rd: Round = self.st["round_state"]
        return rd

    def option(self, key: str) -> Any:
        return self.st["options"][key]

    def note(self, kind: str, **fields: Any) -> None:
        """A public fact the last event produced (shown in every view until the next event)."""
        self.st["notes"].append({"kind": kind, **fields})

    # -- cards turning --------------------------------------------------------------
    def reveal(self, seat: int) -> None:
        rd = self.rd
        if rd["revealed"][seat]:
            return
        rd["revealed"][seat] = True
        knowledge.made_public(rd, seat)
        self.note("revealed", seat=seat, role=rd["cards"][seat])
        if rd["cards"][seat] == "sultan":
            rd["crown"] = rd["owner"]
            self.note("crowned", seat=rd["owner"])

    def hide(self, seat: int) -> None:
        """A revealed seat turns its card down: every effect of being revealed ends."""
        rd = self.rd
        rd["revealed"][seat] = False
        card = rd["cards"][seat]
        if card == "sultan":
            rd["crown"] = None
        elif card == "slaver":
            self.free_captives()
        elif card in ("vizier", "oracle"):
            rd["faction"][seat] = None
            rd["must_hide"][seat] = False

    def free_captives(self) -> None:
        self.rd["captured"] = [False] * len(self.rd["captured"])

    def kill(self, seat: int) -> None:
        rd = self.rd
        rd["alive"][seat] = False
        rd["revealed"][seat] = True
        knowledge.made_public(rd, seat)
        for status in ("prison", "fatigue", "captured", "must_hide"):
            rd[status][seat] = False
        rd["faction"][seat] = None
        if rd["cards"][seat] == "slaver":
            self.free_captives()
        self.note("died", seat=seat, role=rd["cards"][seat])

    # -- continuations ----------------------------------------------------------------
    def settle(self) -> None:
        """A decision has been carried out: checkpoint, then what was waiting, else end the turn."""
        rd = self.rd
        rd["pending"] = None
        if self.checkpoint():
            return
        while rd["stack"]:
            frame = rd["stack"].pop()
            if frame["then"] == "bonus":
                rd["pending"] = {"kind": "action", "seat": frame["seat"], "mode": "bonus"}
                return
            if frame["then"] == "resume":  # a step an out-of-turn revolt interrupted (G2 variant)
                if self.keep_step(json.loads(json.dumps(frame["pending"]))):
                    return
                continue
            if frame["then"] == "fatigue":
                seat = frame["seat"]
                if rd["alive"][seat] and not rd["fatigue"][seat] and supply(rd, "fatigue") > 0:
                    rd["fatigue"][seat] = True
                    self.note("fatigued", seat=seat)
        self.end_turn()

    def keep_step(self, pending: dict[str, Any]) -> bool:
        """Await ``pending`` again after an interrupt turned cards face up; False when nothing
        is left to choose in it (a forced ability lapses: the caller settles). The Oracle's
        looks with no face-down card left to look at move on to her prediction."""
        from .legal import ability_options  # legal enumerates with the rules' checks

        rd = self.rd
        rd["pending"] = pending
        if pending["kind"] == "looks":
            if not any(s != pending["seat"] and s not in pending["looked"] for s in hidden_living(rd)):
                rd["pending"] = {"kind": "prediction", "seat": pending["seat"]}
        elif pending["kind"] == "forced" and not ability_options(self.st, pending["seat"], pending["ability"]):
            self.note("no_legal_use", seat=pending["seat"])
            return False
        return True

    def checkpoint(self) -> bool:
        winner = winner_at_checkpoint(self.rd, self.st["options"])
        if winner is None:
            return False
        self.end_round(winner, self.rd["owner"])
        return True

    # -- turns ------------------------------------------------------------------------
    def begin_turn(self, seat: int) -> bool:
        """Start ``seat``'s turn; False when the turn is skipped (captured, detained, exhausted)."""
        rd = self.rd
        rd["owner"] = seat
        rd["turns"] += 1
        rd["due"] = {"prison": rd["prison"][seat], "fatigue": rd["fatigue"][seat]}
        exhausted = rd["fatigue"][seat] and self.option("fatigue_scope") == "whole_turn"
        if rd["captured"][seat] or rd["prison"][seat] or exhausted:
            self.note("turn_skipped", seat=seat)
            rd["pending"] = None
            return False
        mode = "forced_hide" if rd["revealed"][seat] and rd["must_hide"][seat] else "normal"
        rd["pending"] = {"kind": "action", "seat": seat, "mode": mode}
        return True

    def end_turn(self) -> None:
        """Expire the owner's due cards, checkpoint, then pass play on (crown check, skips)."""
        rd = self.rd
        seats = len(rd["cards"])
        while True:
            owner = rd["owner"]
            if rd["due"]["prison"]:
                rd["prison"][owner] = False
            if rd["due"]["fatigue"]:
                rd["fatigue"][owner] = False
            swapped = rd["due"].get("swap_back")  # both_directions_open, version 3 (rules.do_swap)
            rd["due"] = {"prison": False, "fatigue": False}
            rd["incoming"][owner] = [] if swapped is None else [swapped]
            if self.checkpoint():
                return
            nxt = owner
            while True:
                nxt = (nxt + 1) % seats
                if rd["crown"] == nxt:
                    self.end_round("loyalists", nxt)
                    return
                if rd["alive"][nxt]:
                    break
            limit = self.option("round_turn_limit")
            if limit is not None and rd["turns"] >= limit:
                self.end_round(None, owner)
                return
            if self.begin_turn(nxt):
                return

    # -- rounds -----------------------------------------------------------------------
    def start_round(self, start: int) -> None:
        st = self.st
        st["round"] += 1
        st["round_state"] = deal_round(st["seats"], self.rng, self.option("knowledge_aid") == "raw")
        self.note("round_started", round=st["round"], seat=start)
        if not self.begin_turn(start):
            self.end_turn()

    def end_round(self, winner: str | None, ender: int) -> None:
        """Score, record every card (public after the round), then deal again or finish."""
        st, rd = self.st, self.rd
        points = round_points(rd, winner)
        st["totals"] = [t + p for t, p in zip(st["totals"], points)]
        st["history"].append(
            {
                "round": st["round"],
                "winner": winner,
                "points": points,
                "ender": ender,
                "cards": list(rd["cards"]),
                "spare": rd["spare"],
                "set_aside": list(rd["set_aside"]),
            }
        )
        self.note("round_over", round=st["round"], winner=winner, points=points)
        rd["pending"] = None
        rd["stack"] = []
        if game_over(st):
            st["finished"] = True
            st["result"] = final_result(st)
            return
        self.start_round((ender + 1) % st["seats"])
