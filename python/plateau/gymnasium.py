"""Gymnasium environments over every registered game, with no per-game code.

- :class:`SingleAgentEnv`: one seat is the agent, the other seats are played by a library bot
  (:func:`plateau.bots.make_bot`; with hidden information the bot sees only its own view).
- :class:`BatchEnv`: a vector environment over :class:`plateau.StateBatch` (the games stepped
  in the compiled core), for self-play: in each game the acting seat alternates and one policy
  plays every seat.

>>> from plateau.gymnasium import SingleAgentEnv
>>> env = SingleAgentEnv("plateau-x", "mini", opponent="random", seat=1)
>>> obs, info = env.reset(seed=0)
>>> obs.shape, info["action_mask"].shape, int(info["action_mask"].sum()) > 0
((10, 6, 6), (1493,), True)
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from plateau._adapt import (
    NO_ACTIONS,
    RENDER_MODES,
    ResetNeeded,
    ReusedMask,
    _read_only,
    action_id,
    check_render_mode,
    render_state,
)
from plateau.batch import StateBatch
from plateau.bots import make_bot
from plateau.bots.base import Bot
from plateau.checks import check_flag, check_int, check_number, check_seed
from plateau.errors import IllegalActionError, InvalidArgumentError
from plateau.registry import resolve
from plateau.state import GameState

__all__ = ["ILLEGAL_ACTION_MODES", "BatchEnv", "ResetNeeded", "SingleAgentEnv"]

ILLEGAL_ACTION_MODES = ("lose", "raise")


def _obs_space(state: GameState) -> gymnasium.spaces.Space[npt.NDArray[np.float32]]:
    """A ``Box`` with the game's declared bounds of every plane entry."""
    low, high = state.observation_bounds()
    box = gymnasium.spaces.Box(low, high, dtype=np.float32)
    return cast("gymnasium.spaces.Space[npt.NDArray[np.float32]]", box)


class SingleAgentEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):  # type: ignore[misc,unused-ignore]
    """``game`` and ``variant`` from seat ``seat``; every other seat is played by the bot
    ``opponent`` (a spec such as ``"random"`` or ``"mcts:iters=200"``; one bot per seat,
    seeded from the reset seed, so a seeded episode replays exactly).

    Observations are the agent's ``observation_tensor(seat)`` (float32, in a ``Box`` bounded by the
    state's ``observation_bounds()``); actions are ``Discrete(num_distinct_actions)`` ids;
    :meth:`action_masks` (and ``info["action_mask"]``) give the legal ones, as masked-policy
    learners ask, and :meth:`legal_actions` (and ``info["legal_actions"]``) the same as int64
    ids, ascending (empty when the agent is not to act). ``reuse_masks=True``: the mask is one
    read-only buffer kept by the environment and updated in place (the entries of the last
    legal ids cleared, the new ones set), overwritten at the next ``action_masks()``,
    ``step()`` or ``reset()``: copy one you keep. The default is a fresh array each time.

    The reward is 0 until the game ends, then the agent's ``returns()`` (points by
    place). ``max_game_length`` (None: no cap) truncates a game after that many actions. An illegal
    action: ``illegal_action="lose"`` (the default, so that unmasked learners and ``check_env`` can
    send any id of the space) ends the episode with reward ``illegal_reward`` and
    ``info["illegal_action"]``; ``"raise"`` raises ``plateau.IllegalActionError``. A value that
    is no id of the space (a bool, a float, a string, out of range) raises
    ``plateau.InvalidActionError`` in either mode, and a step before ``reset()`` or after the
    episode ended raises :class:`ResetNeeded`; a refused step changes nothing.
    ``render_mode``: as :mod:`plateau.pettingzoo` (``"ansi"``, ``"rgb_array"``).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = "plateau-x",
        variant: str | None = None,
        opponent: str = "random",
        seat: int = 0,
        max_game_length: int | None = None,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        *,
        reuse_masks: bool = False,
        **options: Any,
    ) -> None:
        #: the game, variant and options of every game played here
        self.game_spec = resolve(game, variant, **options)
        self.game = game
        self.variant = self.game_spec.variant
        self.options = options
        self.state: GameState = self.game_spec.new_game()
        self.seat = check_int(seat, "seat", 0, self.state.num_players)
        self.opponent = opponent
        make_bot(opponent)  # refuse a bad spec now, not at the first reset
        if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTION_MODES:
            raise InvalidArgumentError(
                f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.illegal_reward = check_number(illegal_reward, "illegal_reward", -math.inf)
        self.max_game_length = (
            None if max_game_length is None else check_int(max_game_length, "max_game_length", 1)
        )
        self.render_mode = check_render_mode(render_mode)
        self.observation_space = _obs_space(self.state)
        self.action_space = gymnasium.spaces.Discrete(self.state.num_distinct_actions)
        self._bots: dict[int, Bot] = {}
        self._view_seed = 0
        self._perfect = self.game_spec.info.perfect_information
        #: ``reuse_masks=True``: the agent's mask, kept and updated in place (else None)
        self.reuse_masks = check_flag(reuse_masks, "reuse_masks")
        self._mask = ReusedMask(self.state.num_distinct_actions, np.bool_) if reuse_masks else None
        #: why a step would be refused now (no episode has begun, or it has ended), else None
        self._no_step: str | None = "step() before reset(): call reset() first"

    def _to_act(self) -> bool:
        s = self.state
        return self._no_step is None and not s.is_terminal() and s.current_player == self.seat

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent now (all False before the first reset and once the
        episode is over); with ``reuse_masks=True`` the kept buffer, overwritten at the next
        call."""
        mask = self._mask
        if mask is not None:
            return mask.show(self.state.legal_actions()) if self._to_act() else mask.clear()
        if not self._to_act():
            return np.zeros(self.state.num_distinct_actions, dtype=np.bool_)
        return self.state.legal_actions_mask()

    def legal_actions(self) -> npt.NDArray[np.int64]:
        """The ids set in :meth:`action_masks`, int64, ascending (empty when the agent is not
        to act)."""
        return self.state.legal_actions() if self._to_act() else NO_ACTIONS

    def _observe(self) -> npt.NDArray[np.float32]:
        return self.state.observation_tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks(),
            "legal_actions": self.legal_actions(),
            "ply": self.state.ply,
        }

    def _capped(self) -> bool:
        return self.max_game_length is not None and self.state.ply >= self.max_game_length

    def _play_opponents(self) -> None:
        s = self.state
        # with perfect information a bot's view is a clone (what view_for gives, without its
        # checks: a tenth of the time in Empire Plateau, where the bots play most actions)
        perfect = self._perfect
        cap = self.max_game_length
        seat = self.seat
        while not s.is_terminal() and s.current_player != seat and (cap is None or s.ply < cap):
            p = s.current_player
            self._view_seed += 1
            view = s.clone() if perfect else s.view_for(p, self._view_seed)
            s.apply(self._bots[p].select_action(view))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new game, the bots playing until the agent's first turn (``seed``: an int in
        ``[0, 2**64)``, checked before anything changes)."""
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        self._no_step = "step() after a reset() that failed: call reset()"
        base = int(self.np_random.integers(2**62))
        for _attempt in range(100):
            self.state = self.game_spec.new_game()
            self._bots = {
                p: make_bot(self.opponent, seed=base + p)
                for p in range(self.state.num_players)
                if p != self.seat
            }
            self._view_seed = base
            self._play_opponents()
            if not self.state.is_terminal() and not self._capped():
                self._no_step = None
                return self._observe(), self._info()
            base += 1000
        raise InvalidArgumentError(
            f"the opponents ended 100 games before the agent's first turn (seat {self.seat}): "
            "this game, its options and max_game_length leave the agent no turn"
        )

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """The agent's action, then the bots' until the agent's next turn or the end.
        Everything is checked before anything changes: the episode (ResetNeeded), the action
        (InvalidActionError; IllegalActionError when ``illegal_action="raise"``)."""
        self._check_steppable()
        a = action_id(action, self.state.num_distinct_actions)
        # (reading the action may have run the caller's code, e.g. its ``__index__``, which
        # may have reset or stepped this environment: what is played on is read afresh)
        self._check_steppable()
        s = self.state
        if not s.is_legal(a):
            if self.illegal_action == "raise":
                s.apply(a)  # raises IllegalActionError saying why
                raise IllegalActionError(f"{a} is illegal")  # pragma: no cover
            self._no_step = "the episode is over (an illegal action lost it): call reset()"
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        s.apply(a)
        self._play_opponents()
        terminated = s.is_terminal()
        truncated = not terminated and self._capped()
        reward = float(s.returns()[self.seat]) if terminated else 0.0
        info = self._info()
        if terminated:
            info["returns"] = s.returns()
        if terminated or truncated:
            self._no_step = "the episode is over: call reset()"
        return self._observe(), reward, terminated, truncated, info

    def _check_steppable(self) -> None:
        """ResetNeeded unless the agent is to act in an episode still going."""
        s = self.state
        if self._no_step is None and (s.is_terminal() or s.current_player != self.seat):
            self._no_step = "the episode is over: call reset()"  # (the state was played on)
        if self._no_step is not None:
            raise ResetNeeded(self._no_step)

    def render(self) -> Any:
        """The position in ``render_mode`` (None without one)."""
        return render_state(self.state, self.render_mode)


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _one_at_a_time(method: _Method) -> _Method:
    """A :class:`BatchEnv` method that runs alone: called while another of them runs in another
    thread, it raises RuntimeError and changes nothing (a step is several calls of the batch:
    another thread's call between them would have failed the step after it was applied)."""

    @functools.wraps(method)
    def alone(self: BatchEnv, *args: Any, **kwargs: Any) -> Any:
        if not self._lock.acquire(blocking=False):
            raise RuntimeError(
                "this environment is in use by another thread (or by a call of its own that "
                "has not returned)"
            )
        try:
            return method(self, *args, **kwargs)
        finally:
            self._lock.release()

    return cast(_Method, alone)


class BatchEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):  # type: ignore[misc,unused-ignore]
    """``num_envs`` self-play games of ``game`` and ``variant`` in one
    :class:`plateau.StateBatch` (options as the batch takes them; ``ply_cap`` truncates).

    Each step takes one action per game, for the seat to act there (``infos["player"]``
    says which seat acts next, :meth:`action_masks` which actions are legal). Observations
    are those of the seat to act. Reward convention: ``rewards[i]`` is 0 unless game ``i``
    ended at this step; then it is the final return of the seat that made the ending move
    (``infos["mover"][i]``), and ``infos["returns"][i]`` holds every seat's returns (zeros when
    truncated), so a learner can credit each seat.

    Autoreset (``autoreset_mode``, declared in ``metadata["autoreset_mode"]``):

    - ``"same_step"`` (the default, the batch's own behaviour): a game that ends is restarted
      within the step, the returned observation is the new game's, and the last observation
      of the finished game is in ``infos["final_obs"][i]`` (present when a game finished;
      ``infos["_final_obs"]`` marks the rows that have one, the others are zeros).
    - ``"next_step"``: the step that ends a game returns its last observation; the next step
      ignores that game's action (any id) and returns the new game's first observation, with
      reward 0, not terminated, and ``infos["mover"][i] = -1``. Gymnasium's vector
      observation wrappers (``NormalizeObservation`` ...) accept only this mode.

    :meth:`legal_actions` gives the legal ids compactly: int64 ``(num_envs, width)`` padded
    with -1 and their numbers. ``reuse_masks=True``: :meth:`action_masks` returns one read-only
    buffer kept by the environment and updated in place (the entries of the last legal ids
    cleared, the new ones set), overwritten at the next call: copy one you keep. The default is
    a fresh array each call.

    A step before the first ``reset()`` raises :class:`ResetNeeded`; a refused step or reset
    changes nothing. One call at a time: a call while another runs in another thread raises
    RuntimeError and changes nothing (``batch`` is the environment's own: called directly
    meanwhile, it may fail a step after the step was applied).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str = "plateau-x",
        variant: str | None = None,
        num_envs: int = 8,
        seed: int = 0,
        ply_cap: int | None = None,
        autoreset_mode: str | AutoresetMode = "same_step",
        *,
        reuse_masks: bool = False,
        **options: Any,
    ) -> None:
        modes = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP}
        mode = (
            modes.get(autoreset_mode, autoreset_mode)
            if isinstance(autoreset_mode, str)
            else autoreset_mode
        )
        if mode not in modes.values():
            raise InvalidArgumentError(
                f"autoreset_mode must be 'same_step' or 'next_step', got {autoreset_mode!r}"
            )
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        #: the game, variant and options of every game of the batch
        self.game_spec = resolve(game, variant, **options)
        self.game = game
        self.variant = self.game_spec.variant
        self._ply_cap = ply_cap
        self.batch = StateBatch(self.game_spec, None, num_envs, seed, ply_cap)
        self._lock = threading.Lock()  # (held by each call: one at a time)
        self.num_envs = self.batch.num_envs
        self.num_players = self.batch.num_players
        shape = self.batch.observation_shape
        self.single_observation_space = _obs_space(self.game_spec.new_game())
        self.single_action_space = gymnasium.spaces.Discrete(self.batch.num_distinct_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._final = np.zeros((self.num_envs, *shape), dtype=np.float32)
        #: next_step mode: the games that finished at the last step (restarted in the batch)
        self._pending = np.zeros(self.num_envs, dtype=np.bool_)
        self._reset_done = False
        self._width = 256  # (the width legal_actions asks for first; it grows as needed)
        #: ``reuse_masks=True``: the masks of every game, kept and updated in place (else None)
        self.reuse_masks = check_flag(reuse_masks, "reuse_masks")
        # (the batch updates the kept masks in place: StateBatch.legal_masks(update=True))
        self._masks = (
            np.zeros((self.num_envs, self.batch.num_distinct_actions), dtype=np.uint8)
            if reuse_masks
            else None
        )
        self._masks_view = None if self._masks is None else _read_only(self._masks.view(np.bool_))

    @_one_at_a_time
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal actions of the seat to act in each game, bool ``(num_envs, actions)``; with
        ``reuse_masks=True`` the kept buffer, overwritten at the next call."""
        if self._masks is None or self._masks_view is None:
            return self.batch.legal_masks().view(np.bool_)
        self.batch.legal_masks(self._masks, update=True)
        return self._masks_view

    @_one_at_a_time
    def legal_actions(
        self, width: int | None = None
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """The legal ids of the seat to act in each game, ascending, int64
        ``(num_envs, width)`` padded with -1, and their numbers, int32 ``(num_envs,)``
        (:meth:`plateau.StateBatch.legal_lists`). ``width`` None: the largest number now, so
        that no id is left out."""
        if width is not None:
            return self.batch.legal_lists(width)
        ids, counts = self.batch.legal_lists(self._width)
        most = int(counts.max())
        if most > self._width:  # (rare: the lists are made again, as wide as the longest)
            self._width = most
            ids, counts = self.batch.legal_lists(most)
        return ids[:, :most] if most < self._width else ids, counts

    @_one_at_a_time
    def sample_legal(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (the batch's seeded generator)."""
        return self.batch.sample_random()

    @_one_at_a_time
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Every game to its start (``seed``: an int in ``[0, 2**64)`` reseeds the batch's
        generator and the action space; checked before either changes)."""
        if isinstance(seed, list):
            raise InvalidArgumentError("BatchEnv is seeded by one int (the batch's generator)")
        if seed is not None:
            seed = check_seed(seed)
            batch = StateBatch(self.game_spec, None, self.num_envs, seed, self._ply_cap)
            self.action_space.seed(seed)
            self.batch = batch
        else:
            self.batch.reset()
        self._pending[:] = False
        self._reset_done = True
        return self.batch.observations(), {"player": self.batch.current_players()}

    @_one_at_a_time
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action per game (all legal, or an ActionError of StateBatch.step and nothing
        applied; in ``next_step`` mode the games being reset take any id)."""
        if not self._reset_done:
            raise ResetNeeded("step() before reset(): call reset() first")
        next_step = self.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        skip = self._pending if next_step else None
        mover = self.batch.current_players()
        done, returns = self.batch.step(actions, final_observations=self._final, skip=skip)
        terminated = done == 1
        truncated = done == 2
        finished = terminated | truncated
        rows = np.arange(self.num_envs)
        rewards = np.where(terminated, returns[rows, mover], 0.0).astype(np.float32)
        obs = self.batch.observations()
        if skip is not None:
            mover[skip] = -1
        infos: dict[str, Any] = {
            "player": self.batch.current_players(),
            "mover": mover,
            "returns": returns.copy(),
        }
        if next_step:
            obs[finished] = self._final[finished]
            self._pending = finished
        elif finished.any():
            infos["final_obs"] = np.where(finished[:, None, None, None], self._final, 0.0)
            infos["_final_obs"] = finished
        return obs, rewards, terminated, truncated, infos
