"""One module per game, named by the game's short name; importing this package registers them."""

from plateau.games import albea, empire, x

__all__ = ["albea", "empire", "x"]
