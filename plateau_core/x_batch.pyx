"""A batch of Plateau X games of one variant in one block of C memory, stepped together with
the GIL released: legal masks into a caller's array, an array of actions applied at once, games
that end reported with their returns and reset, observation planes exported in place, and
uniformly random legal actions drawn in C. Two threads stepping two batches run on two cores.

Validation of shapes and dtypes is done by ``plateau.StateBatch``; these methods still check
what would otherwise reach memory out of bounds (lengths, ranges, legality).
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from plateau_core._common cimport Rng, rng_seed
from plateau_core.x cimport (
    XSpec, XState, XMasks, X_MAX_ACTIONS, x_spec, x_init, x_masks, x_count, x_list,
    x_masks_has, x_fill_mask, x_make, x_random_action, x_returns, x_observe, x_hash,
)


@cython.auto_pickle(False)
cdef class XBatch:
    """``n`` games of one Plateau X variant, stepped as one."""

    cdef XState* states
    cdef XMasks* masks
    cdef uint8_t* masks_ok
    cdef const XSpec* sp
    cdef Rng rng
    cdef readonly int num_envs
    cdef readonly int variant_index
    cdef readonly int max_plies
    cdef readonly int first_player
    cdef readonly long long games_finished
    cdef bint _busy             # a method is running without the GIL on these arrays

    def __cinit__(self, int variant_index, int n, unsigned long long seed=0, int max_plies=400,
                  int first_player=0):
        self.states = NULL
        self.masks = NULL
        self.masks_ok = NULL
        if not 0 <= variant_index < 4:
            raise ValueError(f"variant index {variant_index!r} out of range [0, 4)")
        if n < 1:
            raise ValueError(f"a batch holds at least one game, got n={n!r}")
        if max_plies < 1:
            raise ValueError(f"max_plies must be >= 1, got {max_plies!r}")
        self.sp = x_spec(variant_index)
        if not 0 <= first_player < self.sp.players:
            raise ValueError(f"first_player {first_player!r} out of range [0, {self.sp.players})")
        self.states = <XState*>malloc(n * sizeof(XState))
        self.masks = <XMasks*>malloc(n * sizeof(XMasks))
        self.masks_ok = <uint8_t*>malloc(n)
        if self.states == NULL or self.masks == NULL or self.masks_ok == NULL:
            raise MemoryError()
        self.num_envs = n
        self.variant_index = variant_index
        self.max_plies = max_plies
        self.first_player = first_player
        self.games_finished = 0
        self._busy = False
        rng_seed(&self.rng, seed)
        self.reset()

    def __dealloc__(self):
        free(self.states)
        free(self.masks)
        free(self.masks_ok)

    @property
    def num_distinct_actions(self) -> int:
        return self.sp.num_actions

    @property
    def num_players(self) -> int:
        return self.sp.players

    @property
    def observation_shape(self) -> tuple:
        return (self.sp.players + 8, self.sp.n, self.sp.n)

    cdef int _enter(self) except -1:
        # one method at a time per batch: two threads must step two batches, not one
        if self._busy:
            raise RuntimeError("this batch is in use by another thread")
        self._busy = True
        return 0

    def reset(self) -> None:
        """Every game back to its start position."""
        cdef int i
        if self._busy:
            raise RuntimeError("this batch is in use by another thread")
        for i in range(self.num_envs):
            x_init(&self.states[i], self.sp, self.first_player)
            self.masks_ok[i] = 0

    cdef inline void _masks(self, int i) noexcept nogil:
        if not self.masks_ok[i]:
            x_masks(&self.states[i], &self.masks[i])
            self.masks_ok[i] = 1

    def legal_masks(self, uint8_t[:, ::1] out) -> None:
        """Fill ``out`` (uint8, shape ``(n, num_distinct_actions)``) with 1 at legal actions."""
        if out.shape[0] != self.num_envs or out.shape[1] != self.sp.num_actions:
            raise ValueError(f"mask array must have shape ({self.num_envs}, "
                             f"{self.sp.num_actions}), got ({out.shape[0]}, {out.shape[1]})")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    self._masks(i)
                    x_fill_mask(&self.states[i], &self.masks[i], &out[i, 0])
        finally:
            self._busy = False

    def legal_lists(self, int64_t[:, ::1] ids, int32_t[::1] counts) -> None:
        """Fill ``counts[i]`` with the number of legal actions of game ``i`` and ``ids[i]``
        (int64, shape ``(n, width)``) with them, ascending, padded with -1; a game with more
        than ``width`` legal actions gets only its first ``width``."""
        self._check_len(ids.shape[0], "id array")
        self._check_len(counts.shape[0], "count array")
        cdef uint16_t buf[X_MAX_ACTIONS]
        cdef int i, k, n
        cdef Py_ssize_t width = ids.shape[1]
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    self._masks(i)
                    n = x_list(&self.states[i], &self.masks[i], buf)
                    counts[i] = n
                    for k in range(width):
                        ids[i, k] = buf[k] if k < n else -1
        finally:
            self._busy = False

    def num_legal(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with the number of legal actions of each game."""
        self._check_len(out.shape[0], "count array")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    self._masks(i)
                    out[i] = x_count(&self.masks[i])
        finally:
            self._busy = False

    cdef int _check_len(self, Py_ssize_t length, str what) except -1:
        if length != self.num_envs:
            raise ValueError(f"{what} must have length {self.num_envs}, got {length}")
        return 0

    def sample_random(self, int64_t[::1] out) -> None:
        """Fill ``out`` (int64, shape ``(n,)``) with a uniformly random legal action per game,
        drawn from the batch's own seeded generator."""
        self._check_len(out.shape[0], "action array")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    self._masks(i)
                    out[i] = x_random_action(&self.states[i], &self.masks[i], &self.rng)
        finally:
            self._busy = False

    def current_players(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with the player to move in each game."""
        self._check_len(out.shape[0], "player array")
        cdef int i
        for i in range(self.num_envs):
            out[i] = self.states[i].player

    def first_illegal(self, const int64_t[::1] actions) -> int:
        """The index of the first game whose action is not legal, or -1 if all are."""
        self._check_len(actions.shape[0], "action array")
        cdef int i, bad = -1
        cdef int64_t a
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    a = actions[i]
                    if a < 0 or a >= self.sp.num_actions:
                        bad = i
                        break
                    self._masks(i)
                    if not x_masks_has(&self.states[i], &self.masks[i], <int>a):
                        bad = i
                        break
        finally:
            self._busy = False
        return bad

    def step(self, const int64_t[::1] actions, uint8_t[::1] done, float[:, ::1] returns) -> int:
        """Apply ``actions[i]`` to game ``i`` for every game (all must be legal: nothing is
        applied otherwise, and -1 - i is returned for the first illegal one). Games that end
        (``done[i] = 1``) or reach ``max_plies`` (``done[i] = 2``) get their returns written to
        ``returns[i]`` (zeros when truncated) and are reset; others get ``done[i] = 0``.
        Returns the number of games that finished."""
        self._check_len(actions.shape[0], "action array")
        self._check_len(done.shape[0], "done array")
        if returns.shape[0] != self.num_envs or returns.shape[1] != self.sp.players:
            raise ValueError(f"returns array must have shape ({self.num_envs}, "
                             f"{self.sp.players}), got ({returns.shape[0]}, {returns.shape[1]})")
        cdef int bad = self.first_illegal(actions)
        if bad >= 0:
            return -1 - bad
        cdef int i, p, finished = 0
        cdef XState* st
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    st = &self.states[i]
                    x_make(st, <int>actions[i])
                    self.masks_ok[i] = 0
                    if st.ended or st.ply >= self.max_plies:
                        finished += 1
                        if st.ended:
                            done[i] = 1
                            x_returns(st, &returns[i, 0])
                        else:
                            done[i] = 2
                            for p in range(self.sp.players):
                                returns[i, p] = 0
                        x_init(st, self.sp, self.first_player)
                    else:
                        done[i] = 0
        finally:
            self._busy = False
        self.games_finished += finished
        return finished

    def observations(self, float[:, :, :, ::1] out) -> None:
        """Fill ``out`` (float32, shape ``(n, players + 8, board, board)``) with each game's
        observation planes (see ``PlateauXState.observation_tensor``)."""
        got = (out.shape[0], out.shape[1], out.shape[2], out.shape[3])
        if got != (self.num_envs,) + self.observation_shape:
            raise ValueError(f"observation array must have shape "
                             f"{(self.num_envs,) + self.observation_shape}, got {got}")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    x_observe(&self.states[i], &out[i, 0, 0, 0])
        finally:
            self._busy = False

    def plies(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with each game's ply count since its reset."""
        self._check_len(out.shape[0], "ply array")
        cdef int i
        for i in range(self.num_envs):
            out[i] = self.states[i].ply

    def hashes(self, uint64_t[::1] out) -> None:
        """Fill ``out`` (uint64, shape ``(n,)``) with each game's position hash."""
        self._check_len(out.shape[0], "hash array")
        cdef int i
        for i in range(self.num_envs):
            out[i] = x_hash(&self.states[i])
