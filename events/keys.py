"""Redis key names. Every key of a game carries the hash tag ``{id}`` so a Redis
Cluster keeps them in one slot (the compare-and-append script touches several)."""


def events(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def idempotency(game_id: str) -> str:
    return f"game:{{{game_id}}}:actions"


def seed(game_id: str) -> str:
    return f"game:{{{game_id}}}:seed"


def tokens(game_id: str) -> str:
    return f"game:{{{game_id}}}:tokens"


def notes(game_id: str) -> str:
    return f"game:{{{game_id}}}:notes"


def summary(game_id: str) -> str:
    """The game's lobby line, written by the append script in the game's own slot."""
    return f"game:{{{game_id}}}:summary"


def bots(game_id: str) -> str:
    """Seat -> the computer's own seat token (the bot runner acts with it)."""
    return f"game:{{{game_id}}}:bots"


def analysis(game_id: str) -> str:
    return f"game:{{{game_id}}}:analysis"


def snapshots(game_id: str, version: str) -> str:
    return f"game:{{{game_id}}}:snapshots:{version}"


GAMES_INDEX = "games:index"
DEADLINES = "games:deadlines"
BOTS_DUE = "bots:due"  # games where a computer seat is awaited, by when it was noticed
ANALYSIS_DUE = "analysis:due"  # games whose evaluation line was asked for


# Tournaments: their own stream and secrets, under the hash tag {tid}.
TOURNAMENTS_INDEX = "tournaments:index"


def tournament_events(tid: str) -> str:
    return f"tournament:{{{tid}}}:events"


def tournament_idempotency(tid: str) -> str:
    return f"tournament:{{{tid}}}:actions"


def tournament_secrets(tid: str) -> str:
    return f"tournament:{{{tid}}}:secrets"


def tournament_pairing_lock(tid: str) -> str:
    return f"tournament:{{{tid}}}:pairing"


# Accounts: every key under the one hash tag {accounts} (one slot on a Redis Cluster,
# so creating an account checks its look-alike keys and writes its record atomically).
ACCOUNTS = "accounts:{accounts}:records"  # normalised name -> JSON record (password hash inside)
ACCOUNT_SKELETONS = "accounts:{accounts}:skeletons"  # look-alike key -> the name holding it
ACCOUNT_SESSIONS = "accounts:{accounts}:sessions"  # session token digest -> name


def account_sessions(name: str) -> str:
    """The session digests of one account (for logout everywhere)."""
    return f"accounts:{{accounts}}:sessions-of:{name}"


def account_games(name: str) -> str:
    """The games a seat of this account sits in, by when it was bound."""
    return f"accounts:{{accounts}}:games-of:{name}"


# Ratings: their own stream of ``rating.result`` events, under the hash tag {ratings}.
RATINGS_EVENTS = "ratings:{ratings}:events"
RATINGS_IDEMPOTENCY = "ratings:{ratings}:actions"
