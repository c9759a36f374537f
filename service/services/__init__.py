"""The services: every write an append to a stream, every read a fold."""
