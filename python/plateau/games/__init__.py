"""One module per game; importing this package registers every game."""

from plateau.games import plateau_albea, plateau_x

__all__ = ["plateau_albea", "plateau_x"]
