"""Every registered game as an OpenSpiel (``pyspiel``) Python game, with no per-game code.

Importing this module registers each game of :func:`plateau.games` under its registry id with
``-`` written ``_`` (``plateau_x``, ``albea_plateau``, ``empire_plateau``). Its parameters are
``variant`` (the default variant unless given), every game option whose default is an int,
float, bool or str (Plateau X ``first_player``, Albea's Plateau ``max_plies``, Empire Plateau
``board``, a shipped board's name: a game string is data, and a path is refused) and
``max_game_length``::

    import pyspiel
    import plateau.openspiel  # registers the games

    game = pyspiel.load_game("plateau_x(variant=mini)")
    state = game.new_initial_state()

The game type comes from the registry: sequential, deterministic (no game of the library has
chance events: ``current_player`` is always a player), perfect or imperfect information as
:attr:`plateau.registry.GameInfo.perfect_information` says, terminal rewards, and the utility
(zero-, constant- or general-sum, bounds) from ``points_for`` over every possible ranking.
``max_game_length`` (default 10,000 actions, far beyond the longest random game of any variant)
is the bound OpenSpiel requires: a game that reaches it ends there, scored as a tie of all
players.

Observations: the observation tensor and string are the game's ``observation_tensor(player)``
and ``observation_string(player)`` (what that player may see). The information state string is
perfect recall: the action ids in a perfect-information game (as OpenSpiel's C++ games); with
hidden information the history as that player saw it (``history_strings(viewer=player)``)
followed by their observation string.
There is no information state tensor. ``state.resample_from_infostate(player, sampler)``
draws a determinization (``GameState.resample_hidden``), as OpenSpiel's information-set MCTS
asks. ``state.serialize()`` is OpenSpiel's; ``game.deserialize_state(text)`` replays the
history of the text and never unpickles its ``__dict__=`` part (which could run any code);
pyspiel's own ``deserialize_game_and_state`` does unpickle it, as for every Python game.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from plateau._adapt import action_id, outcomes, tie_returns
from plateau.checks import check_int, shown
from plateau.errors import IllegalActionError, InvalidArgumentError, PlateauError
from plateau.registry import GameInfo, check_data_options, game_info, games, resolve
from plateau.state import GameState

#: the default of the ``max_game_length`` parameter
DEFAULT_MAX_GAME_LENGTH = 10_000

_OPTION_TYPES = (bool, int, float, str)

#: a player or action id in a serialized history: ASCII digits only (str.isdigit also takes
#: '²' and '٣', which int() refuses or reads as 3), at most 18 (below 2**63, and no int() of
#: over 4,300 digits, which Python refuses)
_HISTORY_ID = re.compile(r"[0-9]{1,18}")


def _uniform_draw(value: object) -> float:
    """``value`` as a sampler's draw: a real number (not bool), finite, in [0, 1)
    (InvalidArgumentError otherwise: NaN, inf or a str would fail in ``int()`` or run out of
    memory)."""
    if (
        isinstance(value, (int, float, np.integer, np.floating))
        and not isinstance(value, bool)
        and 0 <= value < 1  # (False for NaN and the infinities; no float() of a huge int)
    ):
        return float(value)
    raise InvalidArgumentError(f"sampler: a draw is a finite number in [0, 1), got {shown(value)}")


def short_name(game: str) -> str:
    """The OpenSpiel name of a registry id: ``plateau-x`` -> ``plateau_x``."""
    return game.replace("-", "_")


def _parameters(info: GameInfo) -> dict[str, Any]:
    params: dict[str, Any] = {"variant": info.default_variant}
    for name, default in info.options.items():
        if isinstance(default, _OPTION_TYPES):
            params[name] = default
    params["max_game_length"] = DEFAULT_MAX_GAME_LENGTH
    return params


def _utility(info: GameInfo) -> Any:
    # constant-sum when every variant's returns sum to one total (each variant's own total is
    # its game instance's utility_sum), zero-sum when that total is 0 in every variant
    sums = {outcomes(resolve(info.name, v)).utility_sum for v in info.variants}
    if None in sums:
        return pyspiel.GameType.Utility.GENERAL_SUM
    if sums == {0.0}:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.CONSTANT_SUM


def game_type(game: str) -> Any:
    """The ``pyspiel.GameType`` of a registered game."""
    info = game_info(game)
    players = [outcomes(game, v).num_players for v in info.variants]
    information = (
        pyspiel.GameType.Information.PERFECT_INFORMATION
        if info.perfect_information
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=info.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=information,
        utility=_utility(info),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(info),
    )


class PlateauGame(pyspiel.Game):  # type: ignore[misc,unused-ignore]
    """A registered game and variant as a pyspiel game (see the module docstring)."""

    #: the registry id (set on the class made for each game)
    plateau_game: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        info = game_info(self.plateau_game)
        merged = {**_parameters(info), **(params or {})}
        self.variant: str = str(merged.pop("variant"))
        # (checked, not int(): a float would be truncated, True taken for 1)
        self.max_length = check_int(merged.pop("max_game_length"), "max_game_length", 1, 2**31)
        self.options: dict[str, Any] = merged
        # (a game string is data, in pyspiel's serialized games too: no path to a board file)
        check_data_options(self.plateau_game, merged)
        #: the game, variant and options of every game of this instance
        self.game_spec = resolve(self.plateau_game, self.variant, **merged)
        probe = self.game_spec.new_game()
        out = outcomes(self.game_spec)
        self.perfect_information = info.perfect_information
        self.observation_shape: tuple[int, ...] = tuple(probe.observation_shape)
        kind = game_type(self.plateau_game)
        constant = kind.utility != pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(
            kind,
            pyspiel.GameInfo(
                num_distinct_actions=probe.num_distinct_actions,
                max_chance_outcomes=0,
                num_players=out.num_players,
                min_utility=out.min_utility,
                max_utility=out.max_utility,
                utility_sum=out.utility_sum if constant else None,
                max_game_length=self.max_length,
            ),
            {"variant": self.variant, "max_game_length": self.max_length, **merged},
        )

    def new_initial_state(self) -> PlateauState:
        """The start position of the variant."""
        return PlateauState(self, self.game_spec.new_game())

    def deserialize_state(self, text: str) -> PlateauState:
        """The state of ``serialize()``'s text, by replaying its history: each entry's player
        must be the one to act and its action legal, and the move number must be the
        history's length (InvalidArgumentError otherwise). Its ``__dict__=`` part, a pickle,
        is never read: unpickling runs any code the text carries. (pyspiel's
        ``deserialize_game_and_state``, in C++, does unpickle it, as for every Python game:
        give it only text you trust.)"""
        if not isinstance(text, str):
            raise InvalidArgumentError(f"a serialized state is a str, got {type(text).__name__}")
        lines = text.split("\n", 2)
        if (
            len(lines) < 2
            or not lines[0].startswith("history=")
            or not lines[1].startswith("move_number=")
        ):
            raise InvalidArgumentError(
                f"not a serialized state (history=..., move_number=...): {shown(text)}"
            )
        state = self.new_initial_state()
        entries = lines[0][len("history=") :]
        for i, entry in enumerate(entries.split(",") if entries else []):
            player, _, action = entry.partition(":")
            if not (_HISTORY_ID.fullmatch(player) and _HISTORY_ID.fullmatch(action)):
                raise InvalidArgumentError(f"history entry {i}: not player:action: {shown(entry)}")
            if int(player) != state.current_player():
                raise InvalidArgumentError(
                    f"history entry {i}: player {player} does not act there "
                    f"(player {state.current_player()} does)"
                )
            try:
                state.apply_action(int(action))
            except (PlateauError, pyspiel.SpielError) as e:
                raise InvalidArgumentError(f"history entry {i}: {e}") from None
        if lines[1][len("move_number=") :] != str(len(state.history())):
            raise InvalidArgumentError(
                f"move_number {shown(lines[1][len('move_number=') :])} is not the history's "
                f"length, {len(state.history())}"
            )
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PlateauObserver:
        """The observer of what a player may see (``perfect_recall``: the information state)."""
        if params:
            raise InvalidArgumentError(f"observation parameters are not supported, got {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return PlateauObserver(self, iig_obs_type)


class PlateauState(pyspiel.State):  # type: ignore[misc,unused-ignore]
    """A pyspiel state over a :class:`plateau.GameState` (``plateau_state``)."""

    def __init__(
        self, game: PlateauGame, plateau_state: GameState, seen: list[list[str]] | None = None
    ) -> None:
        super().__init__(game)
        self.plateau_state = plateau_state
        self._max_length = game.max_length
        self._perfect = game.perfect_information
        #: per player, the history as seen before ``plateau_state``'s own history began (a
        #: determinization has none of its own)
        self._seen_before = seen

    def _capped(self) -> bool:
        return self.plateau_state.ply >= self._max_length

    def apply_action(self, action: Any) -> None:
        """OpenSpiel's ``apply_action``, once ``action`` is known to be an action id of the
        game (``action_id``, as the other adapters check it): InvalidActionError otherwise, with
        nothing changed (pyspiel's own conversion takes True for 1, and answers a float or -1 with
        errors of its own)."""
        super().apply_action(action_id(action, self.plateau_state.num_distinct_actions))

    def current_player(self) -> int:
        """The player to act, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.plateau_state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.plateau_state.legal_actions().tolist())

    def _apply_action(self, action: int) -> None:
        if self._capped():  # (a game cut at max_game_length is over: OpenSpiel does not ask)
            raise IllegalActionError(
                f"{int(action)}: the game is over (it reached max_game_length, "
                f"{self._max_length} actions)"
            )
        self.plateau_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.plateau_state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.plateau_state.is_terminal() or self._capped()

    def returns(self) -> list[float]:
        """Points by place once the game is over (a tie at ``max_game_length``), else zeros."""
        if self.plateau_state.is_terminal():
            return self.plateau_state.returns()
        if self._capped():
            return tie_returns(self.plateau_state)
        return [0.0] * self.plateau_state.num_players

    def seen_history(self, player: int) -> list[str]:
        """The actions so far as ``player`` saw them."""
        s = self.plateau_state
        before = self._seen_before[player] if self._seen_before else []
        if self._perfect:
            return before + [str(a) for a in s.history]
        return before + s.history_strings(viewer=player)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> PlateauState:
        """A state consistent with what ``player`` knows (``sampler``: an OpenSpiel
        probability sampler or None; a uniform draw from it, a number in [0, 1), seeds the
        determinization: InvalidArgumentError for another draw or sampler).

        In the sample, ``player``'s information state is theirs in this state; another
        player's is ``player``'s view of the history with that player's observation of the
        sampled world (what they would know there), so that equal keys mean equal legal
        actions, as information-set MCTS needs."""
        if sampler is None:
            seed = int(np.random.randint(2**62))
        elif callable(sampler):
            seed = int(_uniform_draw(sampler()) * 2**53)
        else:
            raise InvalidArgumentError(
                f"sampler: a probability sampler (callable) or None, got {shown(sampler)}"
            )
        sample = self.plateau_state.resample_hidden(player, seed)
        game = self.get_game()
        if not sample.is_determinization:
            return PlateauState(game, sample, self._seen_before)
        mine = self.seen_history(player)
        seen = [mine if p == player else list(mine) for p in range(sample.num_players)]
        return PlateauState(game, sample, seen)

    def information_state(self, player: int) -> str:
        """``player``'s information state: the history as they saw it, then (with hidden
        information) what they see now."""
        history = f"p{player}: " + " ".join(self.seen_history(player))
        if self._perfect:
            return history
        return history + "\n" + self.plateau_state.observation_string(player)

    def __str__(self) -> str:
        return str(self.plateau_state)

    def __deepcopy__(self, memo: dict[int, Any]) -> PlateauState:
        # copy.deepcopy of the state: OpenSpiel's clone, which copies the C++ side (the
        # history, the move number) as well; its clone deep-copies the fields, not the state,
        # so this is not called from it
        out: PlateauState = self.clone()
        return out


class PlateauObserver:
    """OpenSpiel's Python observer interface: ``tensor``, ``dict``, ``set_from``,
    ``string_from``."""

    def __init__(self, game: PlateauGame, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if (
            not game.perfect_information
            and not self.perfect_recall
            and private != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise InvalidArgumentError(
                "observations of a game with hidden information are a player's own view "
                "(private_info=SINGLE_PLAYER); other observation types are not supported"
            )
        shape = (0,) if self.perfect_recall else game.observation_shape
        self.tensor: npt.NDArray[np.float32] = np.zeros(math.prod(shape), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: PlateauState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation of ``state``."""
        if not self.perfect_recall:
            self.tensor[:] = state.plateau_state.observation_tensor(player).ravel()

    def string_from(self, state: PlateauState, player: int) -> str:
        """``player``'s observation string, or with perfect recall their information
        state: the history as they saw it."""
        if self.perfect_recall:
            return state.information_state(player)
        return state.plateau_state.observation_string(player)


def _game_class(game: str) -> type[PlateauGame]:
    name = "".join(part.title() for part in game.split("-")) + "Game"
    cls = type(name, (PlateauGame,), {"plateau_game": game, "__module__": __name__})
    globals()[name] = cls  # found by name, as pickle looks a class up
    return cls


#: the pyspiel game class of each registered game, by registry id
GAME_CLASSES: dict[str, type[PlateauGame]] = {}


def register_all() -> list[str]:
    """Register every game of the registry not yet known to pyspiel (called on import;
    call it again after registering a game later). Returns the OpenSpiel names."""
    known = set(pyspiel.registered_names())
    for game in games():
        if short_name(game) in known:
            continue
        cls = _game_class(game)
        GAME_CLASSES[game] = cls
        pyspiel.register_game(game_type(game), cls)
    return [short_name(g) for g in games()]


register_all()
