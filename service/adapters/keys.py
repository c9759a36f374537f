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


def listed(game_id: str) -> str:
    """The lobby line the archive's listing holds for a game read back from the archive."""
    return f"game:{{{game_id}}}:listed"


def bots(game_id: str) -> str:
    """Seat -> the computer's own seat token (the bot runner acts with it)."""
    return f"game:{{{game_id}}}:bots"


def analysis(game_id: str) -> str:
    return f"game:{{{game_id}}}:analysis"


def chat(game_id: str) -> str:
    """The table's chat: beside the log, never folded, never in its hash chain."""
    return f"game:{{{game_id}}}:chat"


def chat_hidden(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat:hidden"


def chat_settings(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat:settings"


def chat_mutes(game_id: str, reader: str) -> str:
    return f"game:{{{game_id}}}:chat:mutes:{reader}"


def chat_rate(game_id: str, writer: str) -> str:
    return f"game:{{{game_id}}}:chat:rate:{writer}"


def snapshots(game_id: str, version: str) -> str:
    return f"game:{{{game_id}}}:snapshots:{version}"


GAMES_INDEX = "games:index"
DEADLINES = "games:deadlines"
ANALYSIS_DUE = "analysis:due"  # games whose evaluation line was asked for
HEARTBEAT = "clocks:heartbeat"  # when a clock sweeper last ran (the outage credit reads it)
MAINTENANCE = "clocks:maintenance"  # set while an operator holds every clock
HELD = "clocks:held"  # games whose clocks maintenance paused


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


# Open tables: their own stream under the hash tag of the game they become ({id}).
TABLES_OPEN = "tables:open"  # listed open tables, by when they expire


def table_invitations(account: str) -> str:
    """The tables an account is invited to, by when."""
    return f"tables:invited:{account}"


def rematch(game_id: str) -> str:
    """The open table offering a rematch of a finished game."""
    return f"game:{{{game_id}}}:rematch"


def table_referee(table_id: str) -> str:
    """The referee token of a started table's game, for the account it named referee."""
    return f"table:{{{table_id}}}:referee"


def table_starting(table_id: str) -> str:
    """Held while one caller makes the game of a full table."""
    return f"table:{{{table_id}}}:starting"


def table_events(table_id: str) -> str:
    return f"table:{{{table_id}}}:events"


def table_idempotency(table_id: str) -> str:
    return f"table:{{{table_id}}}:actions"


# Accounts: every key under the one hash tag {accounts} (one slot on a Redis Cluster,
# so creating an account checks its look-alike keys and writes its record atomically).
ACCOUNTS = "accounts:{accounts}:records"  # normalised name -> JSON record (password hash inside)
ACCOUNT_SKELETONS = "accounts:{accounts}:looks"  # look-alike key -> the name holding it
ACCOUNT_LOOKS_INDEXED = "accounts:{accounts}:looks-source"  # the skeleton source the looks were indexed by
ACCOUNT_OLD_SKELETONS = "accounts:{accounts}:skeletons"  # the looks before UTS #39 skeletons (dropped)
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
