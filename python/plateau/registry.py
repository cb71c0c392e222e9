"""The table of games: each game registers its name, variants and factories here, once.

Adding a game is adding one package under ``plateau.games`` (its state class, and by name
the optional parts :class:`GameInfo` finds there: ``picture``, ``bench``, ``samples``) whose
``__init__`` makes one :func:`register` call; its compiled kernel goes under ``plateau_core``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from plateau.checks import check_int, check_seed
from plateau.errors import (
    InvalidArgumentError,
    InvalidOptionError,
    UnknownGameError,
    UnknownOptionError,
    UnknownVariantError,
)
from plateau.state import GameState

if TYPE_CHECKING:
    from plateau.bench_spec import BenchSpec


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows of one game."""

    name: str
    title: str
    variants: tuple[str, ...]
    default_variant: str
    #: ``factory(variant, **options)`` returns a new game in its start position
    factory: Callable[..., GameState]
    #: ``playouts(variant, n, seed, ply_cap, **options)`` plays random games in the core
    #: (game ``i`` as the lone game seeded ``seed + i``) and returns the dict
    #: :func:`random_playouts` documents
    playouts: Callable[..., dict[str, Any]]
    #: option name -> default value, as accepted by ``factory``
    options: dict[str, Any]
    #: ``batch(variant, n, seed, ply_cap, **options)`` makes the core of a StateBatch (the
    #: options checked as ``factory`` checks them)
    batch: Callable[..., Any] | None = None
    #: False when players hide information from each other (bots then get determinizations)
    perfect_information: bool = True
    #: ``from_setup(variant, setup, **options)``: a game from a set-up position (records)
    from_setup: Callable[..., GameState] | None = None
    #: the leaf evaluation ``mcts`` uses by default here (``mixed``, ``heuristic``, ``playout``)
    mcts_eval: str = "mixed"
    #: ``check_data_options(options)`` raises ValueError for option values a saved game (a
    #: record, a pickle) may not hold because they would reach outside it, such as a file path
    check_data_options: Callable[[dict[str, Any]], None] | None = None
    #: ``check_option_values(variant, options) -> options``: the values of a full set of
    #: options checked (ValueError) and put in the form the state's ``options`` shows, as
    #: :class:`GameSpec` keeps them (None: the factory checks them)
    check_option_values: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
    #: the game's package (``plateau.games.x``): the parts that are not the rules are found
    #: there by name, each optional: ``picture.draw`` (:attr:`render`), ``bench.BENCH``
    #: (:attr:`bench`) and ``samples.OPTION_VALUES`` (:attr:`option_values`)
    package: str = ""

    def _part(self, module: str, name: str) -> Any:
        """Attribute ``name`` of the module ``module`` of the game's package (None without)."""
        if not self.package:
            return None
        try:
            found = importlib.import_module(f"{self.package}.{module}")
        except ModuleNotFoundError as e:
            if e.name != f"{self.package}.{module}":
                raise  # the part exists but imports something missing: a real fault
            return None
        return getattr(found, name)

    @property
    def bench(self) -> BenchSpec | None:
        """What ``plateau bench`` needs to measure the game (``bench.BENCH`` of its package;
        None: it cannot be benchmarked)."""
        spec: BenchSpec | None = self._part("bench", "BENCH")
        return spec

    @property
    def option_values(self) -> dict[str, tuple[Any, ...]]:
        """A few accepted values of each option besides its default, for the conformance suite
        and the fuzzers (``samples.OPTION_VALUES`` of its package; without: int options moved
        up by a few are tried)."""
        values: dict[str, tuple[Any, ...]] | None = self._part("samples", "OPTION_VALUES")
        return dict(values or {})

    @property
    def render(self) -> Callable[[GameState, int | None, bool], str] | None:
        """``draw(state, viewer, last)`` of its package's ``picture`` module: the position as
        SVG text, as ``viewer`` may see it (None: the full truth), marking the last action if
        ``last``; what ``plateau.render.svg`` calls (None: the text diagram is drawn instead).
        Imported when first used: playing needs no drawing code."""
        draw: Callable[[GameState, int | None, bool], str] | None = self._part("picture", "draw")
        return draw


_GAMES: dict[str, GameInfo] = {}
#: ids a game had before 0.1.0 was released, for a helpful error
_RENAMED = {"plateau": "albea-plateau"}


def register(info: GameInfo) -> None:
    """Add a game to the registry (a name may be registered only once). Its ``factory`` is
    its state class, a :class:`~plateau.state.GameState`: it gets the entry (as ``_entry``),
    through which a state makes new games, pickles and draws itself."""
    if info.name in _GAMES:
        raise InvalidArgumentError(f"game {info.name!r} is already registered")
    if not (isinstance(info.factory, type) and issubclass(info.factory, GameState)):
        raise TypeError(f"the factory of {info.name!r} must be its GameState class")
    info.factory._entry = info
    _GAMES[info.name] = info


def game_info(game: str) -> GameInfo:
    """The registry entry of ``game``; UnknownGameError naming the known games otherwise."""
    try:
        return _GAMES[game]
    except (KeyError, TypeError):
        new = _RENAMED.get(game) if isinstance(game, str) else None
        hint = f" (now {new!r})" if new else ""
        raise UnknownGameError(
            f"unknown game {game!r}{hint}; known games: {', '.join(_GAMES)}"
        ) from None


def games() -> list[str]:
    """The names of the games the library plays.

    >>> games()
    ['albea-plateau', 'empire-plateau', 'plateau-x']
    """
    return list(_GAMES)


def variants(game: str) -> list[str]:
    """The variant names of ``game``.

    >>> variants("plateau-x")
    ['standard', 'triple', 'mini', 'double']
    """
    return list(game_info(game).variants)


def check_variant(game: str, variant: str) -> GameInfo:
    """The entry of ``game`` after checking that it has ``variant`` (UnknownVariantError)."""
    info = game_info(game)
    if not isinstance(variant, str) or variant not in info.variants:
        raise UnknownVariantError(
            f"unknown variant {variant!r} of {game!r}; known variants: {', '.join(info.variants)}"
        )
    return info


@dataclass(frozen=True)
class GameSpec:
    """A game, its variant and all its options, checked when made (:func:`resolve` fills in
    the defaults) and carried unchanged to every layer that makes a game: states, batches,
    playouts, the arena, openings, engines. ``options`` holds every option of the game, in the
    form the state's ``options`` shows (a path to an Empire board becomes the board's JSON).

    >>> spec = resolve("empire-plateau", board="ep24")
    >>> spec
    GameSpec(game='empire-plateau', variant='two', options={'board': 'ep24', 'turn_limit': 0})
    >>> spec.new_game().options == spec.options
    True
    """

    game: str
    variant: str
    #: option name -> value, every option of the game (not to be changed: the spec is a value)
    options: dict[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        info = check_variant(self.game, self.variant)
        if not isinstance(self.options, Mapping):
            raise UnknownOptionError(f"options map names to values, got {self.options!r}")
        _check_options(self.game, info, self.options)
        options = {**info.options, **self.options}
        if info.check_option_values is not None:
            try:
                options = info.check_option_values(self.variant, options)
            except InvalidOptionError:
                raise
            except ValueError as e:
                raise InvalidOptionError(str(e)) from None
        object.__setattr__(self, "options", options)

    @property
    def info(self) -> GameInfo:
        """The game's registry entry."""
        return _GAMES[self.game]

    def new_game(self) -> GameState:
        """A new game of this spec in its start position."""
        return self.info.factory(self.variant, **self.options)


def resolve(game: str, variant: str | None = None, **options: Any) -> GameSpec:
    """The :class:`GameSpec` of ``game``, ``variant`` (None: the game's default) and
    ``options`` (the others at their defaults), checked: UnknownGameError,
    UnknownVariantError, UnknownOptionError or InvalidOptionError otherwise.

    >>> resolve("plateau-x")
    GameSpec(game='plateau-x', variant='standard', options={'first_player': 0})
    """
    info = game_info(game)
    return GameSpec(game, info.default_variant if variant is None else variant, options)


def spec_of(
    game: str | GameSpec, variant: str | None = None, options: Mapping[str, Any] | None = None
) -> GameSpec:
    """``game`` if it is a :class:`GameSpec` (given alone), else :func:`resolve` of
    ``game``, ``variant`` and ``options``."""
    if options is not None and not isinstance(options, Mapping):
        raise InvalidArgumentError(
            f"options are a mapping of option names to values, got {type(options).__name__}"
        )
    if isinstance(game, GameSpec):
        if variant is not None or options:
            raise InvalidArgumentError(
                f"give a GameSpec alone or a game's name with its variant and options, "
                f"not both (variant {variant!r}, options {options!r})"
            )
        return game
    return resolve(game, variant, **(options or {}))


def new_game(game: str | GameSpec, variant: str | None = None, **options: Any) -> GameState:
    """A new game of ``game`` (a name, or a :class:`GameSpec`) in its start position.

    >>> s = new_game("plateau-x", variant="mini")
    >>> s.num_players, s.board_size, s.current_player
    (2, 6, 0)
    """
    if not options and type(game) is str and (variant is None or type(variant) is str):
        # the spec of a name alone (the usual ``new_game("plateau-x")`` of a loop that starts a
        # game after each one ends) is checked once: resolving it again each time took 2-4 us,
        # more than making the state
        known = _DEFAULT_SPECS.get((game, variant))
        if known is not None and _GAMES.get(game) is known[0]:
            return known[1].new_game()
        spec = resolve(game, variant)
        _DEFAULT_SPECS[(game, variant)] = (spec.info, spec)
        return spec.new_game()
    return spec_of(game, variant, options).new_game()


#: (name, variant or None) -> the registry entry and the checked GameSpec with no option given,
#: for :func:`new_game` (used while the name is still registered to that entry); only pairs that
#: resolved are kept, so it holds at most two entries per variant of each game
_DEFAULT_SPECS: dict[tuple[str, str | None], tuple[GameInfo, GameSpec]] = {}


#: what ``ply_cap=None`` (no cap) becomes in the kernels: a game of 2**31 - 1 plies cannot end
NO_PLY_CAP = 2**31 - 1


def check_ply_cap(ply_cap: object) -> int:
    """A cap on the plies a playout or batch game plays: an int in [0, 2**31), None for none."""
    return NO_PLY_CAP if ply_cap is None else check_int(ply_cap, "ply_cap", 0, 2**31)


def check_options(game: str, options: Mapping[str, Any]) -> None:
    """Refuse option names that ``game`` does not have, with UnknownOptionError (their values
    are checked by :class:`GameSpec`)."""
    _check_options(game, game_info(game), options)


def check_data_options(game: str, options: dict[str, Any]) -> None:
    """Refuse option values that data (a record, a pickle, the engine protocol) may not carry,
    such as a file path, with ValueError (the game's :attr:`GameInfo.check_data_options`)."""
    info = game_info(game)
    _check_options(game, info, options)
    if info.check_data_options is not None:
        info.check_data_options(options)


def _check_options(game: str, info: GameInfo, options: Mapping[str, Any]) -> None:
    unknown = sorted(map(str, set(options) - set(info.options)))
    if unknown:
        raise UnknownOptionError(
            f"unknown option(s) {', '.join(map(repr, unknown))} for {game!r}; "
            f"known options: {', '.join(info.options) or 'none'}"
        )


def random_playouts(
    game: str | GameSpec,
    variant: str | None = None,
    n: int = 1000,
    seed: int = 0,
    ply_cap: int | None = 400,
    **options: Any,
) -> dict[str, Any]:
    """Play ``n`` uniformly random games entirely inside the compiled core (GIL released),
    each from the start position of ``variant`` with the game's ``options``, for at most
    ``ply_cap`` plies (None: no cap). Game ``i`` plays exactly as the lone game of
    ``random_playouts(..., n=1, seed=seed + i)``, in every game, so any game of a big run can
    be played again alone.

    ``game`` is a name, or a :class:`GameSpec` (given alone). Returns a dict with the same keys
    for every game:

    - ``games``: ``n``;
    - ``plies``: the plies played, in all;
    - ``ended``: the games that reached their end; the other ``games - ended`` were cut short
      at ``ply_cap`` plies and count in neither ``wins`` nor ``draws``;
    - ``wins``: per player, the ended games in which that player finished first, alone or
      sharing first place (a shared first place counts for each of its players, so
      ``sum(wins)`` may exceed ``ended``);
    - ``draws``: the ended games in which two or more players shared first place (with two
      players, drawn games), so ``ended - draws`` games had a sole winner.

    >>> r = random_playouts("plateau-x", "mini", n=100, seed=1)
    >>> sorted(r), r["games"], r["ended"] - r["draws"] <= sum(r["wins"])
    (['draws', 'ended', 'games', 'plies', 'wins'], 100, True)
    """
    spec = spec_of(game, variant, options)
    n = check_int(n, "n", 0, 2**62)
    seed = check_seed(seed, "seed")
    cap = check_ply_cap(ply_cap)
    return spec.info.playouts(spec.variant, n, seed, cap, **spec.options)
