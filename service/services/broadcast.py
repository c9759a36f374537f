"""A tournament's broadcast: the director's feed delay and the delayed omniscient feed.

Commentators and the audience may see a hidden-information game's full state (hands,
roles, votes), but only as it stood before the delay the director set on the tournament
(``projections/tournaments/feed_delay.py`` decides which entry; nothing newer is ever
read into a frame). Each frame is signed by the server's signer, so a commentator's
screenshot can be checked like a receipt.
"""

from __future__ import annotations

import hashlib

from events.envelope import canonical_json, parse_ts
from events.shapes import JSON
from projections import fold
from projections.games.base import REFEREE
from projections.tournaments import feed_delay
from service.ports import GameLog, Signer
from service.services.errors import not_found
from service.services.tournaments import Tournaments

FRAME = "omniscient-frame"


def frame_statement(frame: JSON) -> JSON:
    """What the server signs of a frame: the digest of everything but the signature."""
    body = canonical_json({k: v for k, v in frame.items() if k != "signature"})
    return {
        "kind": FRAME,
        "tournament": frame["tournament"],
        "game_id": frame["game_id"],
        "seq": frame["seq"],
        "digest": hashlib.sha256(body.encode()).hexdigest(),
    }


class Broadcast:
    def __init__(self, tournaments: Tournaments, log: GameLog, signer: Signer) -> None:
        self._tournaments = tournaments
        self._log = log
        self._signer = signer

    def delay(self, tid: str) -> JSON:
        """The delay in force and every change of it (who, when, why)."""
        events = self._tournaments.events(tid)
        changes = [
            {"seq": e["seq"], "ts": e["ts"], "actor": e.get("actor"), **e["payload"]}
            for e in events
            if e["type"] == "feed.delay_set"
        ]
        current = changes[-1]["delay"] if changes else feed_delay.DEFAULT
        return {"feed_delay": current, "changes": changes}

    def frame(self, tid: str, game_id: str, now: float) -> JSON:
        """The signed omniscient frame of one of the tournament's games at ``now``."""
        state = self._tournaments.state(tid)
        if game_id not in state["games"]:
            raise not_found("game")
        delay = state.get("feed_delay", feed_delay.DEFAULT)
        entries = self._log.read(game_id)
        finished = self._log.state(game_id)["status"] == "finished"
        seq = feed_delay.visible_seq(delay, [(e["seq"], parse_ts(e["ts"])) for e in entries], now, finished)
        frame: JSON = {"tournament": tid, "game_id": game_id, "delay": delay, "seq": seq, "position": None}
        if seq is not None:
            p = self._log.state_at(game_id, seq)
            frame["position"] = {
                "status": p["status"],
                "result": p["result"],
                "to_act": fold.awaited(p),
                "clocks": p["clocks"],
                "view": fold.game_of(p).view(p["state"], REFEREE),
            }
            frame["hash"] = next(e["hash"] for e in entries if e["seq"] == seq)
        return {**frame, "signature": self._signer.sign(frame_statement(frame))}
