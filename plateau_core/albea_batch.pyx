"""A batch of Plateau (Albea) games in one block of C memory, stepped together with the GIL
released: the same interface as ``XBatch`` (legal masks, random actions, a step that reports
and resets finished games, observation planes), plus padded legal-action lists, which suit the
41,188 action ids better than masks. Observations are those of the player to act in each game.

Validation of shapes and dtypes is done by ``plateau.StateBatch``; these methods still check
what would otherwise reach memory out of bounds (lengths, ranges, legality).
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from plateau_core._common cimport Rng, rng_seed, rng_below
from plateau_core.albea cimport (
    AState, A_MAX_LEGAL, A_NUM_ACTIONS, A_PHASE_OVER, a_init, a_list, a_make, a_hash,
    a_observe,
)

OBSERVATION_SHAPE = (276, 4, 4)


cdef bint _has(const uint16_t* ids, int n, int a) noexcept nogil:
    cdef int lo = 0, hi = n - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if ids[mid] == a:
            return True
        if ids[mid] < a:
            lo = mid + 1
        else:
            hi = mid - 1
    return False


@cython.auto_pickle(False)
cdef class ABatch:
    """``n`` games of Plateau (Albea), stepped as one."""

    cdef AState* states
    cdef Rng rng
    cdef readonly int num_envs
    cdef readonly int max_plies
    cdef readonly long long games_finished
    cdef bint _busy             # a method is running without the GIL on these arrays

    def __cinit__(self, int n, unsigned long long seed=0, int max_plies=400):
        self.states = NULL
        if n < 1:
            raise ValueError(f"a batch holds at least one game, got n={n!r}")
        if max_plies < 1:
            raise ValueError(f"max_plies must be >= 1, got {max_plies!r}")
        self.states = <AState*>malloc(n * sizeof(AState))
        if self.states == NULL:
            raise MemoryError()
        self.num_envs = n
        self.max_plies = max_plies
        self.games_finished = 0
        self._busy = False
        rng_seed(&self.rng, seed)
        self.reset()

    def __dealloc__(self):
        free(self.states)

    @property
    def num_distinct_actions(self) -> int:
        return A_NUM_ACTIONS

    @property
    def num_players(self) -> int:
        return 2

    @property
    def observation_shape(self) -> tuple:
        return OBSERVATION_SHAPE

    cdef int _enter(self) except -1:
        # one method at a time per batch: two threads must step two batches, not one
        if self._busy:
            raise RuntimeError("this batch is in use by another thread")
        self._busy = True
        return 0

    cdef int _check_len(self, Py_ssize_t length, str what) except -1:
        if length != self.num_envs:
            raise ValueError(f"{what} must have length {self.num_envs}, got {length}")
        return 0

    def reset(self) -> None:
        """Every game back to its start position."""
        cdef int i
        if self._busy:
            raise RuntimeError("this batch is in use by another thread")
        for i in range(self.num_envs):
            a_init(&self.states[i], 0)

    def legal_masks(self, uint8_t[:, ::1] out) -> None:
        """Fill ``out`` (uint8, shape ``(n, 41188)``) with 1 at legal actions."""
        if out.shape[0] != self.num_envs or out.shape[1] != A_NUM_ACTIONS:
            raise ValueError(f"mask array must have shape ({self.num_envs}, {A_NUM_ACTIONS}), "
                             f"got ({out.shape[0]}, {out.shape[1]})")
        cdef uint16_t buf[A_MAX_LEGAL]
        cdef int i, k, n
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    memset(&out[i, 0], 0, A_NUM_ACTIONS)
                    n = a_list(&self.states[i], buf)
                    for k in range(n):
                        out[i, buf[k]] = 1
        finally:
            self._busy = False

    def legal_lists(self, int64_t[:, ::1] ids, int32_t[::1] counts) -> None:
        """Fill ``counts[i]`` with the number of legal actions of game ``i`` and ``ids[i]``
        (int64, shape ``(n, width)``) with them, ascending, padded with -1; a game with more
        than ``width`` legal actions gets only its first ``width``."""
        self._check_len(ids.shape[0], "id array")
        self._check_len(counts.shape[0], "count array")
        cdef uint16_t buf[A_MAX_LEGAL]
        cdef int i, k, n
        cdef Py_ssize_t width = ids.shape[1]
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    n = a_list(&self.states[i], buf)
                    counts[i] = n
                    for k in range(width):
                        ids[i, k] = buf[k] if k < n else -1
        finally:
            self._busy = False

    def num_legal(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with the number of legal actions of each game."""
        self._check_len(out.shape[0], "count array")
        cdef uint16_t buf[A_MAX_LEGAL]
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    out[i] = a_list(&self.states[i], buf)
        finally:
            self._busy = False

    def sample_random(self, int64_t[::1] out) -> None:
        """Fill ``out`` (int64, shape ``(n,)``) with a uniformly random legal action per game,
        drawn from the batch's own seeded generator."""
        self._check_len(out.shape[0], "action array")
        cdef uint16_t buf[A_MAX_LEGAL]
        cdef int i, n
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    n = a_list(&self.states[i], buf)
                    out[i] = buf[rng_below(&self.rng, <uint32_t>n)]
        finally:
            self._busy = False

    def current_players(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with the player to act in each game (the
        responder while an offer is pending)."""
        self._check_len(out.shape[0], "player array")
        cdef int i
        for i in range(self.num_envs):
            out[i] = self.states[i].player

    def first_illegal(self, const int64_t[::1] actions) -> int:
        """The index of the first game whose action is not legal, or -1 if all are."""
        self._check_len(actions.shape[0], "action array")
        cdef uint16_t buf[A_MAX_LEGAL]
        cdef int i, n, bad = -1
        cdef int64_t a
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    a = actions[i]
                    if a < 0 or a >= A_NUM_ACTIONS:
                        bad = i
                        break
                    n = a_list(&self.states[i], buf)
                    if not _has(buf, n, <int>a):
                        bad = i
                        break
        finally:
            self._busy = False
        return bad

    def step(self, const int64_t[::1] actions, uint8_t[::1] done, float[:, ::1] returns) -> int:
        """Apply ``actions[i]`` to game ``i`` for every game (all must be legal: nothing is
        applied otherwise, and -1 - i is returned for the first illegal one). Games that end
        (``done[i] = 1``, returns 1/0 or 1/2 each for a draw) or reach ``max_plies``
        (``done[i] = 2``, returns zeros) are reset; others get ``done[i] = 0``. Returns the
        number of games that finished."""
        self._check_len(actions.shape[0], "action array")
        self._check_len(done.shape[0], "done array")
        if returns.shape[0] != self.num_envs or returns.shape[1] != 2:
            raise ValueError(f"returns array must have shape ({self.num_envs}, 2), "
                             f"got ({returns.shape[0]}, {returns.shape[1]})")
        cdef int bad = self.first_illegal(actions)
        if bad >= 0:
            return -1 - bad
        cdef int i, finished = 0
        cdef AState* st
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    st = &self.states[i]
                    a_make(st, <int>actions[i])
                    if st.phase == A_PHASE_OVER or st.ply >= self.max_plies:
                        finished += 1
                        if st.phase == A_PHASE_OVER:
                            done[i] = 1
                            if st.result == 2:
                                returns[i, 0] = 0.5
                                returns[i, 1] = 0.5
                            else:
                                returns[i, 0] = 1.0 if st.result == 0 else 0.0
                                returns[i, 1] = 1.0 if st.result == 1 else 0.0
                        else:
                            done[i] = 2
                            returns[i, 0] = 0.0
                            returns[i, 1] = 0.0
                        a_init(st, 0)
                    else:
                        done[i] = 0
        finally:
            self._busy = False
        self.games_finished += finished
        return finished

    def observations(self, float[:, :, :, ::1] out) -> None:
        """Fill ``out`` (float32, shape ``(n, 276, 4, 4)``) with the observation planes of the
        player to act in each game (see ``PlateauAlbeaState.observation_tensor``)."""
        got = (out.shape[0], out.shape[1], out.shape[2], out.shape[3])
        if got != (self.num_envs,) + OBSERVATION_SHAPE:
            raise ValueError(f"observation array must have shape "
                             f"{(self.num_envs,) + OBSERVATION_SHAPE}, got {got}")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    memset(&out[i, 0, 0, 0], 0, 276 * 16 * sizeof(float))
                    a_observe(&self.states[i], self.states[i].player, &out[i, 0, 0, 0])
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
            out[i] = a_hash(&self.states[i])
