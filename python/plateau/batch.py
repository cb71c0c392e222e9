"""``StateBatch``: many games of one variant held in one block of C memory and stepped together
with the GIL released (so two threads with two batches use two cores). For reinforcement
learning and fast self-play: masks, actions, returns and observations are numpy arrays that the
caller allocates once and the core fills in place.

>>> import numpy as np, plateau
>>> b = plateau.StateBatch("plateau-x", "mini", n=4, seed=1)
>>> masks = b.legal_masks()
>>> masks.shape, int(masks.sum(axis=1)[0])
((4, 1493), 232)
>>> done, returns = b.step(b.sample_random())
>>> done.tolist(), returns.shape
([0, 0, 0, 0], (4, 2))
"""

from __future__ import annotations

from typing import Any, NoReturn, SupportsIndex

import numpy as np
import numpy.typing as npt

from plateau.checks import check_flag, check_int
from plateau.errors import IllegalActionError, InvalidActionError, InvalidArgumentError
from plateau.registry import NO_PLY_CAP, GameSpec, spec_of


def _out(arr: Any, dtype: np.dtype[Any], shape: tuple[int, ...], name: str) -> Any:
    """Check a caller-supplied output array (or allocate one). Contiguity and writability are
    checked again by the core when it takes the buffer."""
    if arr is None:
        return np.zeros(shape, dtype=dtype)
    if type(arr) is np.ndarray and arr.dtype == dtype and arr.shape == shape:
        flags = arr.flags
        if flags.c_contiguous and flags.writeable:
            return arr
        raise InvalidArgumentError(f"{name} must be C-contiguous and writeable")
    if type(arr) is not np.ndarray:  # (a subclass may hold its data anywhere: a plain array)
        raise InvalidArgumentError(f"{name} must be a numpy.ndarray, got {type(arr).__name__}")
    if arr.dtype != dtype:
        raise InvalidArgumentError(f"{name} must have dtype {dtype}, got {arr.dtype}")
    raise InvalidArgumentError(f"{name} must have shape {shape}, got {arr.shape}")


_U8 = np.dtype(np.uint8)
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)


class StateBatch:
    """``n`` games of one variant, stepped as one (see the module docstring).

    ``game`` is a name or a :class:`plateau.GameSpec` (given alone); ``options`` are the
    game's own (as :func:`plateau.new_game` takes them, e.g. ``first_player`` in Plateau X,
    ``max_plies`` in Albea's Plateau); ``ply_cap`` cuts a game
    short after that many plies (``done`` 2, zero returns) and restarts it; None never does.
    Each game draws its random actions from its own generator: game ``i`` of a batch seeded
    ``s`` samples exactly as the lone game of a batch seeded ``s + i`` (mod 2**64), restarts
    included, so that any game of a big batch can be replayed alone."""

    def __init__(
        self,
        game: str | GameSpec,
        variant: str | None = None,
        n: int = 64,
        seed: int = 0,
        ply_cap: int | None = 400,
        **options: Any,
    ) -> None:
        spec = spec_of(game, variant, options)
        info = spec.info
        if info.batch is None:
            raise InvalidArgumentError(f"{spec.game!r} has no batched engine")
        n = check_int(n, "n", 1, 2**31)
        seed = check_int(seed, "seed", 0, 2**64)
        cap = NO_PLY_CAP if ply_cap is None else check_int(ply_cap, "ply_cap", 1, 2**31)
        #: the game, variant and options of every game of the batch
        self.spec = spec
        self.game = spec.game
        self.variant = spec.variant
        #: the game's options (as ``new_game`` takes them), the same in every game
        self.options: dict[str, Any] = dict(spec.options)
        self._core: Any = info.batch(spec.variant, n, seed, cap, **spec.options)
        self.num_envs: int = self._core.num_envs
        self.num_players: int = self._core.num_players
        self.num_distinct_actions: int = self._core.num_distinct_actions
        self.observation_shape: tuple[int, ...] = tuple(self._core.observation_shape)
        #: plies after which a game is cut short and restarted (None: never)
        self.ply_cap = ply_cap

    def __reduce_ex__(self, protocol: SupportsIndex) -> NoReturn:
        # (copy.copy would otherwise give a second object over the same games)
        raise TypeError(
            "a StateBatch cannot be copied or pickled (its games live in the compiled core): "
            "make another with the same arguments, seed included, and step it alike"
        )

    @property
    def games_finished(self) -> int:
        """Games that ended or were truncated (and reset) since the batch was made."""
        return int(self._core.games_finished)

    def reset(self) -> None:
        """Every game back to its start position."""
        self._core.reset()

    def legal_masks(
        self, out: npt.NDArray[np.uint8] | None = None, *, update: bool = False
    ) -> npt.NDArray[np.uint8]:
        """Legal-action masks, uint8 ``(n, num_distinct_actions)``, written into ``out``.

        ``update=True`` is for a learner that reads the masks every step from one array: pass
        the array the previous ``update=True`` call filled, unchanged since, and only what
        changed is written (each game's previously legal ids cleared, its legal ids set): a few
        hundred bytes a game instead of whole rows (Plateau X: 1,493 to 2,679 bytes; Plateau:
        41,188). Any other array, or one written by a call without ``update``, is filled whole
        and becomes the one kept. Writing into the kept array yourself breaks the promise: the
        masks stay in bounds but may be wrong."""
        arr: npt.NDArray[np.uint8] = _out(
            out, _U8, (self.num_envs, self.num_distinct_actions), "mask array"
        )
        # (the core keeps the array ``update`` filled last, and tells it from another under
        # its guard: decided here, another thread's call could change the kept ids between)
        self._core.legal_masks(arr, check_flag(update, "update"))
        return arr

    def legal_lists(
        self,
        width: int | None = None,
        ids: npt.NDArray[np.int64] | None = None,
        counts: npt.NDArray[np.int32] | None = None,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """The legal action ids of each game, ascending, as int64 ``(n, width)`` padded with -1,
        and their numbers, int32 ``(n,)``: compact where masks are wide (Plateau has 41,188
        ids and about 100 legal actions a position). A game with more than ``width`` legal
        actions gets its first ``width`` (its count says how many there are). ``width``
        defaults to 256, or to the second dimension of ``ids`` when given (a ``width`` given
        with ``ids`` must equal it); at least 1, at most 256 or the most legal actions a
        position of the game can have, whichever is more (a wider list would be padding)."""
        if width is None:
            width = ids.shape[1] if isinstance(ids, np.ndarray) and ids.ndim == 2 else 256
        width = check_int(width, "width", 1, max(256, self._core.max_legal) + 1)
        ids = _out(ids, _I64, (self.num_envs, width), "id array")
        counts = _out(counts, _I32, (self.num_envs,), "count array")
        self._core.legal_lists(ids, counts)
        return ids, counts

    def num_legal(self, out: npt.NDArray[np.int32] | None = None) -> npt.NDArray[np.int32]:
        """The number of legal actions of each game."""
        out = _out(out, _I32, (self.num_envs,), "count array")
        self._core.num_legal(out)
        return out

    def sample_random(self, out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game, each from its game's seeded generator."""
        out = _out(out, _I64, (self.num_envs,), "action array")
        self._core.sample_random(out)
        return out

    def step(
        self,
        actions: npt.ArrayLike,
        done: npt.NDArray[np.uint8] | None = None,
        returns: npt.NDArray[np.float32] | None = None,
        final_observations: npt.NDArray[np.float32] | None = None,
        skip: npt.ArrayLike | None = None,
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
        """Apply one action per game. ``done[i]`` is 1 if game ``i`` ended, 2 if it reached
        ``ply_cap``, else 0; a finished game's points by place go to ``returns[i]`` (zeros
        when truncated) and the game restarts. If any action is refused, nothing is applied:
        InvalidActionError for a malformed array or an id out of range, IllegalActionError for
        an id the game does not allow now; either names the first such game.

        ``final_observations`` (float32 ``(n, *observation_shape)``, optional): a finished
        game's last observation, as :meth:`observations` would have given it just before the
        restart, is written to its row (the rows of the other games are left untouched), so
        a learner that bootstraps from a truncated game's last position still has it.

        ``skip`` (bools or integers, shape ``(n,)``, optional): the games where it is true are
        left as they are, ``done[i] = 0``, their actions neither checked nor applied (what a
        vector environment that resets on the next step needs, or a policy still thinking).

        >>> import numpy as np, plateau
        >>> b = plateau.StateBatch("plateau-x", "mini", n=2, ply_cap=1)
        >>> last = np.zeros((2, *b.observation_shape), dtype=np.float32)
        >>> done, _ = b.step(b.sample_random(), final_observations=last)
        >>> done.tolist(), bool(last.any()), b.plies().tolist()
        ([2, 2], True, [0, 0])
        """
        skips = None
        if skip is not None:
            skips = np.asarray(skip)
            if skips.shape != (self.num_envs,) or skips.dtype.kind not in "biu":
                raise InvalidArgumentError(
                    f"skip must be bools or integers of shape ({self.num_envs},), got "
                    f"{skips.dtype} {skips.shape}"
                )
            skips = np.ascontiguousarray(skips != 0, dtype=_U8)
        acts = actions
        big = given = None
        if not (
            type(acts) is np.ndarray
            and acts.dtype == _I64
            and acts.shape == (self.num_envs,)
            and acts.flags.c_contiguous
        ):
            acts = np.asarray(actions)
            if acts.shape != (self.num_envs,):
                raise InvalidActionError(
                    f"actions must have shape ({self.num_envs},), got {acts.shape}"
                )
            if acts.dtype.kind not in "iu":
                raise InvalidActionError(f"actions must be integer ids, got dtype {acts.dtype}")
            if acts.dtype.kind == "u" and acts.size and int(acts.max()) >= 2**63:
                # (a copy: the ids named in an error are those checked, whatever another
                # thread writes to the caller's array meanwhile)
                given = acts = np.array(acts)
                big = acts >= 2**63
            acts = np.ascontiguousarray(acts, dtype=np.int64)
            if big is not None:
                # past int64: -1 (out of range) where the id is checked, so the first refused
                # game is named as for any other id; 0 where skipped (neither checked nor applied)
                acts[big] = -1 if skips is None else np.where(skips[big] != 0, 0, -1)
        done = _out(done, _U8, (self.num_envs,), "done array")
        returns = _out(returns, _F32, (self.num_envs, self.num_players), "returns array")
        final = final_observations
        if final is not None:
            final = _out(
                final, _F32, (self.num_envs, *self.observation_shape), "final observation array"
            )
        code = self._core.step(acts, done, returns, final, skips)
        if code < 0:
            i = -1 - code
            a = int(acts[i] if given is None else given[i])
            if not 0 <= a < self.num_distinct_actions:
                raise InvalidActionError(
                    f"game {i} of the batch: action {a} is out of range "
                    f"[0, {self.num_distinct_actions})"
                )
            raise IllegalActionError(f"game {i} of the batch: action {a} is not legal in that game")
        return done, returns

    def observations(self, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """Observation planes of every game, float32 ``(n, *observation_shape)``."""
        out = _out(out, _F32, (self.num_envs, *self.observation_shape), "observation array")
        self._core.observations(out)
        return out

    def current_players(self) -> npt.NDArray[np.int32]:
        """The player to move in each game."""
        out = np.zeros(self.num_envs, dtype=np.int32)
        self._core.current_players(out)
        return out

    def plies(self) -> npt.NDArray[np.int32]:
        """Each game's ply count since its last reset."""
        out = np.zeros(self.num_envs, dtype=np.int32)
        self._core.plies(out)
        return out

    def hashes(self) -> npt.NDArray[np.uint64]:
        """Each game's position hash (as ``GameState.hash``)."""
        out = np.zeros(self.num_envs, dtype=np.uint64)
        self._core.hashes(out)
        return out

    def __repr__(self) -> str:
        return f"<StateBatch {self.game}/{self.variant} n={self.num_envs}>"
