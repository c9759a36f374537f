"""In the Shadow of the Emperor (Ralf Burkert, 2004) for 2-4 players, as a pure fold."""

from .game import ShadowOfTheEmperor

GAME = ShadowOfTheEmperor()

__all__ = ["GAME"]
