"""Every registered game as a PettingZoo AEC environment, with no per-game code.

>>> from plateau.pettingzoo import env
>>> e = env(game="plateau-x", variant="mini")
>>> e.reset(seed=0)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, obs["action_mask"].shape
('player_0', (10, 6, 6), (1493,))

Agents are ``player_0`` .. ``player_{n-1}`` (the game's players). The agent to act is always the
game's ``current_player``, so a turn of several actions (Empire Plateau) is the same agent selected
several times in a row. An agent's observation is a dict: ``"observation"``, its
``observation_tensor(player)`` (what that player may see: an Albea's Plateau agent does not see its
opponent's hidden faces) in a float32 ``Box`` bounded by ``observation_bounds()``, and
``"action_mask"``, int8 (the dtype gymnasium's masked ``sample`` takes) over the
``Discrete(num_distinct_actions)`` action space (all zeros when it is not that agent's turn).
The same ids compactly: ``infos[agent]["legal_actions"]`` (what ``last()`` returns as ``info``)
and :meth:`PlateauAECEnv.legal_actions`, the int64 ids set in that mask, ascending (empty for an
agent not to act). ``reuse_masks=True``: each agent's mask is one read-only buffer kept by the
environment and updated in place (the entries of the last legal ids cleared, the new ones set:
no 372,417-entry array per step in Empire Plateau); it is overwritten at a later observation of
that agent, so copy a mask you keep. The default is a fresh array per observation.
Rewards are 0 until the game ends, then each agent's ``returns()`` (points by place; a tie as the
game scores it). ``max_game_length`` (None: no cap) truncates a game after that many actions, with
zero rewards. An illegal action raises ``plateau.IllegalActionError``; a value that is no id of
the action space (a bool, a float, a string, out of range) ``plateau.InvalidActionError``; a step
before ``reset()`` or once every agent is done :class:`ResetNeeded`. A refused step changes
nothing: not the game, the rewards nor the agent selected.

``render_mode``: ``"ansi"`` returns the diagram (``str(state)``, the whole truth, as a
spectator sees it), ``"rgb_array"`` the picture of ``plateau.render.rgb_array`` (that module is
imported only then).
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from plateau._adapt import (
    NO_ACTIONS,
    RENDER_MODES,
    ResetNeeded,
    ReusedMask,
    action_id,
    check_render_mode,
    render_state,
)
from plateau.checks import check_flag, check_int, check_seed, shown
from plateau.errors import InvalidActionError
from plateau.registry import resolve
from plateau.state import GameState

__all__ = ["PlateauAECEnv", "ResetNeeded", "agent_name", "env", "observation_space", "raw_env"]


def agent_name(player: int) -> str:
    """The agent of a player: ``player_0``, ``player_1`` ..."""
    return f"player_{player}"


def observation_space(state: GameState) -> Any:
    """The observation space of every agent of ``state``'s game and variant."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(*state.observation_bounds(), dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(
                0, 1, shape=(state.num_distinct_actions,), dtype=np.int8
            ),
        }
    )


class PlateauAECEnv(AECEnv):  # type: ignore[misc,unused-ignore]
    """An AEC environment over one game and variant (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "plateau",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        variant: str | None = None,
        render_mode: str | None = None,
        max_game_length: int | None = None,
        *,
        reuse_masks: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        #: the game, variant and options of every game played here
        self.game_spec = resolve(game, variant, **options)
        self.game = game
        self.variant = self.game_spec.variant
        self.options = options
        self.render_mode = check_render_mode(render_mode)
        self.max_game_length = (
            None if max_game_length is None else check_int(max_game_length, "max_game_length", 1)
        )
        self.state: GameState = self.game_spec.new_game()
        n = self.state.num_players
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        space = observation_space(self.state)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.state.num_distinct_actions)
            for a in self.possible_agents
        }
        #: ``reuse_masks=True``: each agent's mask, kept and updated in place (else None)
        self.reuse_masks = check_flag(reuse_masks, "reuse_masks")
        self._masks = (
            [ReusedMask(self.state.num_distinct_actions, np.int8) for _ in range(n)]
            if self.reuse_masks
            else None
        )
        self._start()
        self._reset_done = False

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            a: {"legal_actions": NO_ACTIONS} for a in self.agents
        }
        self.agent_selection = agent_name(self.state.current_player)
        self.infos[self.agent_selection] = {"legal_actions": self.state.legal_actions()}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game (the games have no chance: ``seed``, an int in ``[0, 2**64)``, only
        seeds the action spaces; checked before anything changes)."""
        if seed is not None:
            seed = check_seed(seed)
        state = self.game_spec.new_game()
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.state = state
        self._start()
        self._reset_done = True

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s view: its observation planes and its legal-action mask (with
        ``reuse_masks=True`` the agent's kept buffer, overwritten at its next observation)."""
        p = self._index[agent]
        s = self.state
        masks = self._masks
        if masks is not None:
            mask = masks[p].show(s.legal_actions()) if s.current_player == p else masks[p].clear()
        elif s.current_player == p:
            mask = s.legal_actions_mask().view(np.int8)
        else:
            mask = np.zeros(s.num_distinct_actions, dtype=np.int8)
        return {"observation": s.observation_tensor(p), "action_mask": mask}

    def legal_actions(self, agent: str | None = None) -> npt.NDArray[np.int64]:
        """The ids set in ``agent``'s action mask (default: the agent selected), int64,
        ascending: the legal actions if it is that agent's turn in the game, else empty."""
        p = self._index[self.agent_selection if agent is None else agent]
        s = self.state
        return s.legal_actions() if s.current_player == p else NO_ACTIONS

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (None once it is terminated or truncated).
        Everything is checked before anything changes (see the module docstring)."""
        if not self._reset_done:
            raise ResetNeeded("step() before reset(): call reset() first")
        if not self.agents:
            raise ResetNeeded("every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidActionError(
                    f"{agent} is done: its only action is None, got {shown(action)}"
                )
            self._was_dead_step(action)
            return
        act = action_id(action, self.state.num_distinct_actions)
        # (reading the action may have run the caller's code, e.g. its ``__index__``, which
        # may have reset or stepped this environment: what is played on is read afresh)
        if not self.agents:
            raise ResetNeeded("every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise InvalidActionError(f"{agent} is done: its only action is None, got {act}")
        s = self.state
        s.apply(act)  # IllegalActionError: nothing changed
        self._cumulative_rewards[agent] = 0.0
        infos = self.infos
        if s.is_terminal():
            self.rewards = dict.fromkeys(self.agents, 0.0)
            for a, r in zip(self.possible_agents, s.returns()):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
            infos[agent] = {"legal_actions": NO_ACTIONS}
            self._accumulate_rewards()
            return
        # (the rewards are all 0 between a reset and the end: nothing to clear or accumulate)
        mover = self.possible_agents[s.current_player]
        if mover != agent:
            infos[agent] = {"legal_actions": NO_ACTIONS}
        # (after a cut the player to move keeps the legal ids of the position, as its mask)
        infos[mover] = {"legal_actions": s.legal_actions()}
        if self.max_game_length is not None and s.ply >= self.max_game_length:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = mover

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The position in ``render_mode`` (None without one)."""
        return render_state(self.state, self.render_mode)

    def close(self) -> None:
        pass


#: what PettingZoo's order-enforcing wrapper refuses to read before the first reset
_GUARDED = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc,unused-ignore]
    """PettingZoo's order-enforcing wrapper with the same checks in fewer calls: an attribute
    read in one ``__getattr__`` (the wrapper's goes through two), ``last()`` and ``step()``
    handed to the environment once reset (``last()`` read six attributes through
    ``__getattr__``). PettingZoo's own took about half of an Empire Plateau loop's agent-steps
    per second (23,000-30,000 against 52,000-65,000 unwrapped, reuse_masks=True), this one
    about a quarter (36,000-56,000)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") and name != "_cumulative_rewards":
            raise AttributeError(f"accessing private attribute '{name}' is prohibited")
        if name in _GUARDED and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def last(self, observe: bool = True) -> Any:
        if not self._has_reset:
            return super().last(observe)  # (the wrapper's error)
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        # (the environment's own refusals: PettingZoo's wrapper asserts before a reset and only
        # warns once every agent is done)
        if not self._has_reset:
            raise ResetNeeded("step() before reset(): call reset() first")
        if not self.env.agents:
            raise ResetNeeded("every agent is done: call reset()")
        self._has_updated = True
        self.env.step(action)

    def __str__(self) -> str:
        return str(self.env)


def raw_env(
    game: str = "plateau-x",
    variant: str | None = None,
    render_mode: str | None = None,
    max_game_length: int | None = None,
    *,
    reuse_masks: bool = False,
    **options: Any,
) -> PlateauAECEnv:
    """The AEC environment without PettingZoo's wrappers."""
    return PlateauAECEnv(
        game, variant, render_mode, max_game_length, reuse_masks=reuse_masks, **options
    )


def env(
    game: str = "plateau-x",
    variant: str | None = None,
    render_mode: str | None = None,
    max_game_length: int | None = None,
    *,
    reuse_masks: bool = False,
    **options: Any,
) -> Any:
    """The AEC environment of ``game`` and ``variant`` with ``options`` (the game's own, as
    :func:`plateau.new_game` takes them), wrapped in PettingZoo's order-enforcing wrapper (a
    subclass of it with the same checks in fewer calls)."""
    return _OrderEnforcing(
        raw_env(game, variant, render_mode, max_game_length, reuse_masks=reuse_masks, **options)
    )
