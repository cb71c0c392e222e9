"""A batch of Plateau (Albea) games in one block of C memory, stepped together with the GIL
released (the public methods are ``BatchCore``'s, in ``_batch.pyx``): masks, padded legal-id
lists (which suit the 41,188 action ids better than masks), random actions, a step that reports
and resets finished games, and the observation planes of the player to act in each game.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from plateau_core._batch cimport BatchCore
from plateau_core._common cimport ids_contain, rng_below
from plateau_core.albea.core cimport (
    AlbeaState, ALBEA_MAX_LEGAL, ALBEA_MAX_PLY, ALBEA_NUM_ACTIONS, ALBEA_PHASE_OVER, albea_init,
    albea_list, albea_make, albea_hash, albea_observe, albea_is_legal, albea_points,
)
from plateau_core import _common as _c   # (ArgumentError: the argument errors' class)

OBSERVATION_SHAPE = (276, 4, 4)


@cython.auto_pickle(False)
cdef class AlbeaBatch(BatchCore):
    """``n`` games of Plateau (Albea), stepped as one."""

    cdef AlbeaState* states
    cdef readonly int max_plies     # the game option: a draw after that many plies (0 = off)

    def __cinit__(self, int n, unsigned long long seed=0, int ply_cap=400, int max_plies=0):
        self.states = NULL
        if not 0 <= max_plies < ALBEA_MAX_PLY:
            raise _c.ArgumentError(
                f"max_plies must be an int in [0, {ALBEA_MAX_PLY}), got {_c.shown(max_plies)}")
        self.max_plies = max_plies
        if n < 1:
            raise _c.ArgumentError(f"a batch holds at least one game, got n={_c.shown(n)}")
        if ply_cap < 1:
            raise _c.ArgumentError(f"ply_cap must be >= 1, got {_c.shown(ply_cap)}")
        self.states = <AlbeaState*>malloc(n * sizeof(AlbeaState))
        if self.states == NULL:
            gib = n * sizeof(AlbeaState) / 2.0**30
            raise MemoryError(f"no memory for a batch of {n:,} games ({gib:.1f} GiB of positions)")
        self.n_actions = ALBEA_NUM_ACTIONS
        self.n_players = 2
        self.list_cap = ALBEA_MAX_LEGAL
        self.obs_shape = OBSERVATION_SHAPE
        self._setup(n, seed, ply_cap)

    def __dealloc__(self):
        free(self.states)

    cdef void _init_game(self, int i) noexcept nogil:
        albea_init(&self.states[i], self.max_plies)

    cdef int _list(self, int i, int32_t* out) noexcept nogil:
        cdef uint16_t ids[ALBEA_MAX_LEGAL]
        cdef int k, n = albea_list(&self.states[i], ids)
        for k in range(n):
            out[k] = ids[k]
        return n

    cdef int _count(self, int i) noexcept nogil:
        cdef uint16_t buf[ALBEA_MAX_LEGAL]
        return albea_list(&self.states[i], buf)

    cdef void _fill_mask(self, int i, uint8_t* out) noexcept nogil:
        cdef uint16_t buf[ALBEA_MAX_LEGAL]
        cdef int k, n = albea_list(&self.states[i], buf)
        memset(out, 0, ALBEA_NUM_ACTIONS)
        for k in range(n):
            out[buf[k]] = 1

    cdef bint _is_legal(self, int i, int a) noexcept nogil:
        # in play the one action alone (albea_is_legal), else the list
        cdef uint16_t buf[ALBEA_MAX_LEGAL]
        cdef int r = albea_is_legal(&self.states[i], a, buf)
        if r >= 0:
            return r
        return ids_contain(buf, albea_list(&self.states[i], buf), a)

    cdef int _random_action(self, int i) noexcept nogil:
        cdef uint16_t buf[ALBEA_MAX_LEGAL]
        cdef int n = albea_list(&self.states[i], buf)
        return buf[rng_below(&self.rngs[i], <uint32_t>n)]

    cdef void _make(self, int i, int a) noexcept nogil:
        albea_make(&self.states[i], a)

    cdef bint _ended(self, int i) noexcept nogil:
        return self.states[i].phase == ALBEA_PHASE_OVER

    cdef void _returns(self, int i, float* out) noexcept nogil:
        albea_points(&self.states[i], out)

    cdef int _ply(self, int i) noexcept nogil:
        return self.states[i].ply

    cdef int _player(self, int i) noexcept nogil:
        return self.states[i].player

    cdef uint64_t _hash(self, int i) noexcept nogil:
        return albea_hash(&self.states[i])

    cdef void _observe(self, int i, float* out) noexcept nogil:
        memset(out, 0, 276 * 16 * sizeof(float))
        albea_observe(&self.states[i], self.states[i].player, out)
