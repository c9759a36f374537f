"""Who has won a round (digest 11), round scoring (12.1) and the game's result (12.2)."""

from __future__ import annotations

from projections.games.base import Options, Result, State, ranking_from

from .components import SCORING
from .state import Round
from .table import cards_in_play, is_free, living, neighbours, team_of


def revolution(rd: Round) -> bool:
    """R2: three consecutive living seats (skipping the dead) hold revealed, free Slaves."""
    alive = living(rd)
    if len(alive) < 3 or sum(1 for s in alive if rd["revealed"][s] and rd["cards"][s] == "slave") < 3:
        return False

    def ready(s: int) -> bool:
        return rd["revealed"][s] and rd["cards"][s] == "slave" and is_free(rd, s)

    k = len(alive)
    return any(all(ready(alive[(i + j) % k]) for j in range(3)) for i in range(k))


def all_known_one_team(rd: Round) -> str | None:
    """Optional end (reference implementation only): every living seat revealed, one side."""
    alive = living(rd)
    if not all(rd["revealed"][s] for s in alive):
        return None
    teams = {team_of(rd, s) for s in alive}
    return teams.pop() if len(teams) == 1 and None not in teams else None


def winner_at_checkpoint(rd: Round, options: Options) -> str | None:
    """R1, then R2, then L2 (precedence of the reference implementation); L1 is the crown check.

    L2 ("the Rebels can no longer win") also holds once a single seat lives: no assassination
    and no revolution is possible any more (reconstructed; the digest's formula misses it).
    """
    if any(card == "sultan" and not rd["alive"][s] for s, card in enumerate(rd["cards"])):
        return "rebels"
    if revolution(rd):
        return "rebels"
    cards = cards_in_play(rd)
    if "assassin" not in cards and cards.count("slave") <= 2:
        return "loyalists"
    if len(living(rd)) < 2:
        return "loyalists"  # a lone survivor: nobody left to assassinate, no row of three (reconstructed)
    if options.get("end_when_all_known_one_team"):
        return all_known_one_team(rd)
    return None


def round_points(rd: Round, winner: str | None) -> list[int]:
    """Points of each seat for the round that ``winner`` won (None: a stalemate, nobody scores)."""
    seats = len(rd["cards"])
    points = [0] * seats
    if winner is None:
        return points
    for s in range(seats):
        if not rd["alive"][s]:
            continue
        card, revealed = rd["cards"][s], rd["revealed"][s]
        if card == "oracle":
            if revealed and rd["faction"][s] == winner:
                points[s] = SCORING["revealed_oracle_correct_prediction"]
        elif card == "vizier" and not revealed:
            continue
        elif team_of(rd, s) == winner:
            points[s] = SCORING["alive_winner_revealed"] if revealed else SCORING["alive_winner_hidden"]
    two = SCORING["alive_winner_revealed"]
    for s in range(seats):
        if rd["alive"][s] and rd["cards"][s] == "vizier" and not rd["revealed"][s]:
            if any(points[t] == two for t in neighbours(rd, s)):
                points[s] = SCORING["hidden_vizier_beside_a_two_point_scorer"]
    return points


def game_over(state: State) -> bool:
    options = state["options"]
    target = options.get("target_score")
    return state["round"] >= options["rounds"] or (target is not None and max(state["totals"]) >= target)


def final_result(state: State) -> Result:
    """Totals, then the latest round in which a seat scored exactly 2 (G19); ties share."""
    totals = state["totals"]
    history = state["history"]
    two = SCORING["alive_winner_revealed"]
    if state["options"]["tiebreak_lookback"] == "last_round_only":
        history = history[-1:]

    def latest_two(seat: int) -> int:
        return max((h["round"] for h in history if h["points"][seat] == two), default=0)

    keys = [(totals[s], latest_two(s)) for s in range(len(totals))]
    ranking = ranking_from(keys)
    by_total = ranking_from(totals)
    tiebreak = None
    if ranking != by_total:
        tiebreak = "equal totals ranked by the latest round in which the seat scored 2 points"
    return {"scores": list(totals), "ranking": ranking, "tiebreak": tiebreak}
