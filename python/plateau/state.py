"""``GameState``: the API every game's state class shares.

A game's public state class inherits from its compiled core class first (which supplies
``legal_actions``, ``apply``, ``undo``, ``clone``, ``perft``, ``hash`` ...) and from this mixin
second, which adds what is game-independent: action parsing and checking, returns by place,
serialization and the error paths.
"""

from __future__ import annotations

import json
import numbers
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Protocol, Union

import numpy as np
from plateau_core._common import GameCore

from plateau.checks import check_int, check_ranking, check_seed, shown
from plateau.errors import ActionError, IllegalActionError, InvalidActionError, InvalidArgumentError

if TYPE_CHECKING:
    import numpy.typing as npt

    _CoreApi = GameCore
else:  # at run time each game's class puts its compiled core first: GameState is a mixin
    _CoreApi = object


#: the ``"format"`` and ``"version"`` of a game record (``plateau.record`` reads them back)
RECORD_FORMAT = "plateau-game-record"
RECORD_VERSION = 1


class GameEntry(Protocol):
    """What a state takes from its game's registry entry (``plateau.registry.GameInfo``),
    which ``plateau.registry.register`` sets on the state class: the state makes new games
    and draws itself through it, without importing the layers above it."""

    @property
    def factory(self) -> Callable[..., GameState]: ...

    @property
    def from_setup(self) -> Callable[..., GameState] | None: ...

    @property
    def render(self) -> Callable[[GameState, int | None, bool], str] | None: ...


#: a seed, ``random.Random`` or numpy ``Generator`` (for samplers of hidden information)
RandomSource = Union[int, random.Random, "np.random.Generator", None]


def check_rng(rng: object, name: str = "rng") -> RandomSource:
    """``rng`` after checking that it is a source of randomness: None, a ``random.Random``, a
    numpy ``Generator`` or a seed (any integral type but bool, in ``[0, 2**64)``; returned as an
    ``int``); InvalidArgumentError naming ``name`` otherwise. Every game checks its samplers'
    sources with this, whether it draws from them or not.

    >>> try:
    ...     check_rng(-1)
    ... except InvalidArgumentError as e:
    ...     print(e)
    rng must be an int in [0, 2**64), a random.Random or a numpy Generator, got -1
    """
    if rng is None or isinstance(rng, random.Random):
        return rng
    import numpy as np

    if isinstance(rng, np.random.Generator):
        return rng
    try:
        return check_seed(rng, name)
    except ValueError:
        raise InvalidArgumentError(
            f"{name} must be an int in [0, 2**64), a random.Random or a numpy Generator, "
            f"got {shown(rng)}"
        ) from None


class Determinizer:
    """Draws states consistent with one player's knowledge of a position. This base serves
    perfect-information games, where that is the position itself; a game with hidden
    information subclasses it and overrides ``_sample`` to draw the hidden rest."""

    def __init__(self, state: GameState, player: int) -> None:
        self.state = state
        self.player = state._check_player(player)

    def sample(self, rng: RandomSource = None) -> GameState:
        """One consistent state (``rng``: a seed, ``random.Random`` or numpy Generator,
        checked by :func:`plateau.state.check_rng` in every game)."""
        return self._sample(check_rng(rng))

    def _sample(self, rng: RandomSource) -> GameState:
        """One consistent state, ``rng`` already checked (per game; here: the position)."""
        return self.state.clone()


def rank_by_keys(keys: Sequence[Any]) -> list[list[int]]:
    """Players ranked by standing key (bigger is better; any comparable keys), equal keys
    grouped, players in ascending order inside a group.

    >>> rank_by_keys([5, 9, 5, 0])
    [[1], [0, 2], [3]]
    """
    # a reversed sort is stable too: equal keys keep ascending player order
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    groups: list[list[int]] = []
    for p in order:
        if groups and keys[groups[-1][0]] == keys[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def points_for_ranking(ranking: Sequence[Sequence[int]], points: Sequence[float]) -> list[float]:
    """Points by place; the players of a tied group split the points of the places they share,
    so that a game's points always sum the same (the one rule of every game; the kernels'
    ``shared_points`` is its C twin).

    >>> points_for_ranking([[2], [0], [1, 3]], (4, 2, 1, 0))
    [2.0, 0.5, 4.0, 0.5]
    >>> points_for_ranking([[0, 1]], (1, 0))
    [0.5, 0.5]
    """
    out = [0.0] * sum(len(g) for g in ranking)
    place = 0
    for group in ranking:
        share = sum(float(x) for x in points[place : place + len(group)]) / len(group)
        for p in group:
            out[p] = share
        place += len(group)
    return out


class GameState(_CoreApi):
    """Shared behaviour of every game's state (mixed in after the compiled core class)."""

    __slots__ = ()  # no per-instance dict: clone() stays a C-level copy

    #: registry name of the game
    game: ClassVar[str]
    #: characters the notation reader takes for others (Empire Plateau: ``x`` for ``-``), so
    #: that checks of "accepted notation spells the canonical one" can allow them
    notation_aliases: ClassVar[Mapping[str, str]] = {}
    #: the game's registry entry, set on the class by ``plateau.registry.register``
    _entry: ClassVar[GameEntry | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A state class lists its compiled core first, whose hooks would hide this mixin's
        # overrides: unless a class between them overrides it, the class gets this one.
        for hook in ("_apply_other", "_is_legal_text"):
            owner = next(k for k in cls.__mro__ if hook in vars(k))
            if owner is GameCore:
                setattr(cls, hook, vars(GameState)[hook])

    # -- per game (overridden) ---------------------------------------------------------------

    @property
    def variant(self) -> str:
        raise NotImplementedError

    @property
    def options(self) -> dict[str, Any]:
        """The options the game was created with (as ``new_game`` takes them)."""
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        raise NotImplementedError

    def parse_action(self, text: str) -> int:
        raise NotImplementedError

    def ranking(self) -> list[list[int]]:
        raise NotImplementedError

    def points_by_place(self) -> tuple[float, ...]:
        """The points of first, second, ... place in this variant."""
        raise NotImplementedError

    def heuristic(self, player: int) -> float:
        """A quick static estimate of how well ``player`` stands (bigger is better), used by
        the greedy and alpha-beta bots; each game documents its own. The default knows
        nothing and returns 0."""
        return 0.0

    def why_illegal(self, action: int | str) -> str | None:
        """Why ``action`` (an id, a numpy integer or notation) is not legal here, in a short
        phrase, or None if it is legal. InvalidActionError if it names no action of the game
        (as ``apply`` would raise).

        >>> import plateau
        >>> s = plateau.new_game("plateau-x", "mini")
        >>> s.why_illegal("S@a1") is None, s.why_illegal("a1-b1")
        (True, 'player 0 (black) has no piece on a1')
        """
        a = self.action_id(action)
        if self.is_terminal():
            return "the game is over"
        if self.is_legal(a):
            return None
        return self._why_illegal(a)

    def _why_illegal(self, action: int) -> str:
        """The reason for an in-range id that is not legal in a running game (per game)."""
        return f"it is not among the legal actions of player {self.current_player}"

    # -- shared --------------------------------------------------------------------------------

    def action_id(self, action: object) -> int:
        """The id of ``action`` (an int id, a numpy integer or a notation string), range-checked
        but not checked for legality; InvalidActionError if it names no action of the game."""
        if isinstance(action, str):
            return self.parse_action(action)
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise InvalidActionError(
                f"an action is an int id or a notation string, got {shown(action)} "
                f"({type(action).__name__})"
            )
        a = int(action)
        if not 0 <= a < self.num_distinct_actions:
            raise InvalidActionError(
                f"action id {shown(a)} out of range [0, {self.num_distinct_actions})"
            )
        return a

    def string_to_action(self, text: str) -> int:
        """The id of the legal action written ``text``: InvalidActionError if ``text`` is not
        notation of this game, IllegalActionError if its action is not legal here."""
        a = self.parse_action(text)
        self._check_legal(a, text)
        return a

    def _check_legal(self, a: int, given: object) -> None:
        if self.is_terminal():
            raise IllegalActionError(f"{shown(given)}: the game is over")
        if not self.is_legal(a):
            name = self.action_to_string(a)
            told = shown(given) if given == name else f"{shown(given)} ({name})"
            raise IllegalActionError(f"{told} is illegal: {self._why_illegal(a)}")

    def _is_legal_text(self, text: str) -> bool:
        """The core's ``is_legal`` hook for a string, overridden (see ``__init_subclass__``):
        whether it is notation of a legal action (text that is no action: False)."""
        try:
            a = self.parse_action(text)
        except ActionError:
            return False
        return bool(self.is_legal(a))

    def _apply_other(self, action: object) -> None:
        """The core's ``apply`` hook for anything but a legal int id, overridden (see
        ``__init_subclass__``): notation too, and refusals that say why."""
        a = self.action_id(action)
        self._check_legal(a, action)
        GameCore._apply_other(self, a)

    def apply_all(self, actions: Iterable[int | str]) -> None:
        """Apply several actions in order; on a refused one, the state is left as it was and
        the error (InvalidActionError or IllegalActionError, as ``apply`` raised it) names its
        place in the sequence. Any other error while the actions are read (an iterator that
        raises) also leaves the state as it was."""
        if isinstance(actions, (str, bytes, bytearray, memoryview)):
            raise InvalidActionError(
                f"apply_all takes a sequence of actions, got the string {shown(actions)} "
                "(use apply for one action)"
            )
        try:
            each = iter(actions)
        except TypeError:
            raise InvalidActionError(
                f"apply_all takes a sequence of actions, got {type(actions).__name__}"
            ) from None
        start = len(self.history)
        try:
            for a in each:
                self.apply(a)
        except BaseException as e:
            # (a refused action, the iterable's own error or Ctrl-C anywhere in the loop:
            # nothing applied stays, counted by the history, not by a counter Ctrl-C may skip)
            done = len(self.history) - start
            for _ in range(done):
                self.undo()
            if isinstance(e, ActionError):
                raise type(e)(f"action {done} of the sequence: {e}") from None
            raise

    def legal_action_strings(self) -> list[str]:
        """The legal actions in canonical notation, in action-id order."""
        return [self.action_to_string(int(a)) for a in self.legal_actions()]

    def returns(self) -> list[float]:
        """Points by place per player once the game is over, else zeros."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        return self.points_for(self.ranking())

    def points_for(self, ranking: Sequence[Sequence[int]]) -> list[float]:
        """Each player's points for a final ``ranking`` (best first, ties grouped): the
        variant's points by place, the players of a tied group splitting the points of the
        places they share (a two-player draw: 1/2 each). ``returns()``, the arena and
        tournaments all score through it."""
        return points_for_ranking(check_ranking(ranking, self.num_players), self.points_by_place())

    @property
    def is_determinization(self) -> bool:
        """True for a state sampled from a player's view (a game with hidden information);
        such a state has no history and no record."""
        return False

    def setup_position(self, viewer: int | None = None) -> dict[str, Any] | None:
        """The set-up position the history starts from, for games that have set-ups; None
        for a game from its start position (always, by default; ``viewer`` is checked all the
        same)."""
        if viewer is not None:
            self._check_player(viewer, "viewer")
        return None

    def winning_actions(self) -> npt.NDArray[np.int64]:
        """The legal actions after which the player to move is alone in first place of a
        finished game (ascending). This default tries each action; a game's core may do it
        faster. The state is left as it is, even by an exception or another thread (the
        actions are tried on a copy)."""
        import numpy as np

        work = self.clone()
        me = work.current_player
        wins = []
        for a in work.legal_actions().tolist():
            work.apply(a)
            if work.is_terminal():
                r = work.returns()
                if r[me] == max(r) and r.count(r[me]) == 1:
                    wins.append(a)
            work.undo()
        return np.array(wins, dtype=np.int64)

    # -- what a player may see: perfect-information defaults (a game that hides information
    # overrides all of them) ---------------------------------------------------------------

    def observation(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` (default: the player to move) may know, as plain data (per game)."""
        raise NotImplementedError

    def observation_string(self, player: int | None = None) -> str:
        """:meth:`observation` as text. With perfect information every player sees the whole
        position: the diagram."""
        p = self._viewer(player)
        return f"{self}\n(seen by player {p}: everything is public)"

    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(low, high)``: float32 arrays of ``observation_shape`` that bound every entry of
        every ``observation_tensor`` of this game, variant and options, at any ply and for any
        viewer (what a learner's observation space declares; the conformance suite checks
        them over random games)."""
        shape = tuple(self.observation_shape)
        low = np.zeros(shape, dtype=np.float32)
        high = np.ones(shape, dtype=np.float32)
        for plane, value in self._plane_highs().items():
            high[plane] = value
        return low, high

    def _plane_highs(self) -> dict[int, float]:
        """The planes whose entries may exceed 1, with their largest value (per game; every
        other entry lies in [0, 1])."""
        return {}

    def determinizer(self, player: int) -> Determinizer:
        """A sampler of states consistent with what ``player`` knows; ``.sample(rng)`` draws
        one. With perfect information there is only the position itself: a clone."""
        return Determinizer(self, player)

    def resample_hidden(self, player: int, rng: RandomSource = None) -> GameState:
        """One state consistent with what ``player`` knows, drawn with ``rng`` (a seed,
        ``random.Random`` or numpy Generator; None: fresh randomness): with perfect information
        a clone, with hidden information a determinization (``is_determinization`` set, no
        history). Every game checks ``player`` and ``rng``, whether it uses them or not."""
        p = self._check_player(player)
        return self.determinizer(p).sample(check_rng(rng))

    def _viewer(self, player: int | None) -> int:
        """``player`` checked, or by default the player to move (0 once the game is over)."""
        if player is None:
            return max(self.current_player, 0)
        return self._check_player(player)

    def view_for(self, player: int, seed: int = 0) -> GameState:
        """The position as a bot playing ``player`` may be given it: :meth:`resample_hidden`
        with an int ``seed`` (in ``[0, 2**64)``, checked in every game). With perfect
        information that is simply a clone; a game with hidden information returns a state
        consistent with what ``player`` has seen (a determinization drawn with ``seed``)."""
        p = self._check_player(player)
        return self.determinizer(p).sample(check_seed(seed, "seed"))

    def _check_player(self, player: object, name: str = "player") -> int:
        """``player`` as an int after checking it is a player of this game (any integral type
        but bool); ValueError otherwise, worded the same in every game and method
        (``player must be an int in [0, 2), got 5``; ``name`` is the argument's name)."""
        return check_int(player, name, 0, self.num_players)

    def winners(self) -> list[int]:
        """The players in first place (the game need not be over: "if it ended now")."""
        return list(self.ranking()[0])

    def to_record(self, viewer: int | None = None) -> dict[str, Any]:
        """The game record as a plain dict (what :meth:`to_json` writes): format version,
        game, variant, options, the set-up position if the game started from one, the actions
        in notation and, once the game is over, its result. With ``viewer``, the actions as
        that player saw them and a ``"viewer"`` field that marks the record as a per-player
        export, which cannot be replayed."""
        if viewer is not None:
            viewer = self._check_player(viewer, "viewer")  # a plain int from here (JSON)
        if self.is_determinization:
            raise InvalidArgumentError(
                "a determinization is a guess at the hidden faces, not a game: it has no record"
            )
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "variant": self.variant,
            "options": self.options,
        }
        setup = self.setup_position(viewer)
        if setup is not None:
            record["setup"] = setup
        if viewer is None:
            record["actions"] = self.history_strings()
        else:
            record["viewer"] = viewer
            record["actions"] = self.history_strings(viewer=viewer)
        if self.is_terminal():
            record["result"] = {"ranking": self.ranking(), "returns": self.returns()}
        return record

    def to_json(self, viewer: int | None = None, indent: int | None = None) -> str:
        """The game record as JSON (:meth:`to_record`): the full truth, replayable by
        ``plateau.from_json``; with ``viewer``, that player's export instead. ``indent``: None
        (one line) or the spaces of each level, an int in [0, 16]."""
        if indent is not None:
            indent = check_int(indent, "indent", 0, 17)  # (json took 10**7: 90 MB of spaces)
        return json.dumps(self.to_record(viewer), indent=indent)

    def history_strings(self, viewer: int | None = None) -> list[str]:
        """The applied actions in canonical notation (as ``viewer`` saw them, in a game that
        hides information; with perfect information every action is public, so ``viewer``
        changes nothing)."""
        if viewer is not None:
            self._check_player(viewer, "viewer")
        probe = self._replay_probe()
        out = []
        for a in self.history:
            out.append(probe.action_to_string(a))
            probe.apply(a)
        return out

    def action_as_seen(self, action: int | str, viewer: int) -> str:
        """The legal action ``action`` of the player to act, in notation, as ``viewer`` will
        see it once played: what ``history_strings(viewer)`` will show for it. All of it for
        the actor and in a game of perfect information; a game that hides information redacts
        what ``viewer`` cannot see (Plateau: the faces an opening or onboard puts face down).
        Two actions with the same text are the same to ``viewer``; the text depends only on
        the action, the player to act and ``viewer`` (information-set search groups actions by
        it).

        >>> import plateau
        >>> s = plateau.new_game("albea-plateau")
        >>> s.action_as_seen("xx,rb@a1", 0), s.action_as_seen("xx,rb@a1", 1)
        ('xx,rb@a1', '??,r?@a1')
        """
        v = self._check_player(viewer, "viewer")
        a = self.action_id(action)
        self._check_legal(a, action)
        return self._action_as_seen(a, v)

    def _action_as_seen(self, action: int, viewer: int) -> str:
        """:meth:`action_as_seen` of a checked legal id (per game; here: all of it)."""
        return self.action_to_string(action)

    @classmethod
    def _registered(cls) -> GameEntry:
        """The registry's entry of this state's game (set by ``plateau.registry.register``)."""
        if cls._entry is None:
            raise RuntimeError(f"{cls.__name__} is not the state class of a registered game")
        return cls._entry

    def _replay_probe(self) -> GameState:
        return self._registered().factory(self.variant, **self.options)

    def _repr_svg_(self) -> str | None:
        """The position as an SVG picture (the full truth, last action marked): Jupyter shows
        a state as this (a game without a picture shows as text). ``plateau.render.svg(state,
        viewer)`` draws a player's view."""
        draw = self._registered().render
        return None if draw is None else draw(self, None, True)

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game}/{self.variant} ply={self.ply} "
            f"to_move={self.current_player} hash={self.hash:016x}>"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self)._from_pickle, (self.to_record(),))

    @classmethod
    def _from_pickle(cls, record: dict[str, Any]) -> GameState:
        """A pickled state: the record of :meth:`__reduce__` replayed (``plateau.from_json``
        checks a record from elsewhere; a pickle is trusted as pickles are)."""
        entry = cls._registered()
        options = record["options"]
        if "setup" in record:
            if entry.from_setup is None:
                raise InvalidArgumentError(f"{shown(record['game'])} has no set-up positions")
            state = entry.from_setup(record["variant"], record["setup"], **options)
        else:
            state = entry.factory(record["variant"], **options)
        state.apply_all(record["actions"])
        return state

    # -- equality: by position, as python-chess boards compare -----------------------------

    def _position_key(self) -> object:
        """What makes two positions of this game and variant the same (per game): everything
        that decides the rest of the game, not the way it was reached nor the ply count."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        """Equal when they are the same game and variant in the same position with the same
        player to move; the history is ignored (``s == s.clone()``, and two move orders that
        reach one position give equal states)."""
        if not isinstance(other, GameState):
            return NotImplemented
        return (self.game, self.variant) == (other.game, other.variant) and (
            self._position_key() == other._position_key()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: use .hash for a position key

    def __copy__(self) -> GameState:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self.clone()
