"""Tournaments as pure folds: the state of a tournament stream, pairing and seating for
the next round, and standings from the finished games' results. No Redis, no Flask."""
