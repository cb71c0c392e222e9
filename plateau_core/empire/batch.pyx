"""A batch of Empire Plateau games of one variant and board in one block of C memory, stepped
together with the GIL released (the public methods are ``BatchCore``'s, in ``_batch.pyx``):
masks, padded legal-id lists (which suit the hundreds of thousands of action ids better than
masks), random actions, a step that reports and resets finished games, and the observation
planes of the player to act in each game.

Each game keeps its last legal list if it is short (most are), so that asking for masks or
lists and then stepping generates the moves once. A game without a kept list draws a random
action with the playouts' sampler and checks a stepped action alone (the army, free or End it
names), so random stepping never lists all the moves.
"""
cimport cython
from libc.stdint cimport uint8_t, int8_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from plateau_core._batch cimport BatchCore
from plateau_core._common cimport ids_contain32, rng_below
from plateau_core.empire.core cimport (
    EmpireBoard, EmpireState, EmpireTables, EMPIRE_OBS_PLANES, EMPIRE_RUNNING, empire_init,
    empire_list, empire_make, empire_hash, empire_returns, empire_observe,
    empire_current_player, empire_random_action, empire_is_legal,
)

from plateau_core.empire.core import VARIANTS as _VARIANTS
from plateau_core import _common as _c   # (ArgumentError: the argument errors' class)

cdef enum:
    CACHE_IDS = 256         # a game's legal list is kept if it is at most this long


@cython.auto_pickle(False)
cdef class EmpireBatch(BatchCore):
    """``n`` games of one Empire Plateau variant on one board, stepped as one."""

    cdef char* states               # n positions of ``stride`` bytes
    cdef Py_ssize_t stride
    cdef int32_t* buf               # one legal list (batch methods run one at a time)
    cdef int32_t* cache             # n lists of CACHE_IDS ids
    cdef int32_t* cached            # per game: the cached list's length, -1 if none
    cdef readonly EmpireTables tables
    cdef readonly int variant_index
    cdef int8_t owner[4]
    cdef int nplayers
    cdef int turn_limit

    def __cinit__(self, EmpireTables tables not None, int variant_index, int n,
                  unsigned long long seed=0, int ply_cap=400, int turn_limit=0):
        cdef const EmpireBoard* bd = tables.bd
        cdef int e
        self.states = NULL
        self.buf = NULL
        self.cache = NULL
        self.cached = NULL
        if not 0 <= variant_index < len(_VARIANTS):
            raise _c.ArgumentError(
                f"variant index {_c.shown(variant_index)} out of range [0, {len(_VARIANTS)})")
        if n < 1:
            raise _c.ArgumentError(f"a batch holds at least one game, got n={_c.shown(n)}")
        if ply_cap < 1:
            raise _c.ArgumentError(f"ply_cap must be >= 1, got {_c.shown(ply_cap)}")
        if not 0 <= turn_limit <= 1 << 30:
            raise _c.ArgumentError(f"turn_limit must be in [0, 2**30], got {_c.shown(turn_limit)}")
        self.turn_limit = turn_limit
        self.tables = tables
        self.variant_index = variant_index
        self.nplayers = _VARIANTS[variant_index][1]
        for e in range(4):
            self.owner[e] = _VARIANTS[variant_index][2][e]
        self.stride = bd.state_bytes
        # sizes in size_t: n * 256 ids overflows an int long before memory runs out
        self.states = <char*>malloc(<size_t>n * <size_t>self.stride)
        self.cache = <int32_t*>malloc(<size_t>n * CACHE_IDS * sizeof(int32_t))
        self.cached = <int32_t*>malloc(<size_t>n * sizeof(int32_t))
        self.buf = <int32_t*>malloc(bd.max_legal * sizeof(int32_t))
        if self.states == NULL or self.cache == NULL or self.cached == NULL or self.buf == NULL:
            gib = <double>n * (self.stride + CACHE_IDS * 4 + 4) / 2.0**30
            raise MemoryError(f"no memory for a batch of {n:,} games ({gib:.1f} GiB of positions)")
        self.n_actions = bd.num_actions
        self.n_players = self.nplayers
        self.list_cap = bd.max_legal
        self.obs_shape = (EMPIRE_OBS_PLANES, bd.rows, bd.cols)
        self._setup(n, seed, ply_cap)

    def __dealloc__(self):
        free(self.states)
        free(self.cache)
        free(self.cached)
        free(self.buf)

    cdef inline EmpireState* _s(self, int i) noexcept nogil:
        return <EmpireState*>(self.states + i * self.stride)

    cdef const int32_t* _legal(self, int i, int* n) noexcept nogil:
        """Game ``i``'s legal ids (from its cache, or generated into ``buf``)."""
        cdef int k
        if self.cached[i] >= 0:
            n[0] = self.cached[i]
            return &self.cache[<Py_ssize_t>i * CACHE_IDS]
        k = empire_list(self._s(i), self.buf)
        n[0] = k
        if k <= CACHE_IDS:
            memcpy(&self.cache[<Py_ssize_t>i * CACHE_IDS], self.buf, k * sizeof(int32_t))
            self.cached[i] = k
            return &self.cache[<Py_ssize_t>i * CACHE_IDS]
        return self.buf

    cdef void _init_game(self, int i) noexcept nogil:
        empire_init(self._s(i), self.tables.bd, self.owner, self.nplayers)
        self._s(i).turn_limit = self.turn_limit
        self.cached[i] = -1

    cdef int _list(self, int i, int32_t* out) noexcept nogil:
        cdef int n
        cdef const int32_t* ids = self._legal(i, &n)
        if ids != out:
            memcpy(out, ids, n * sizeof(int32_t))
        return n

    cdef int _count(self, int i) noexcept nogil:
        cdef int n
        self._legal(i, &n)
        return n

    cdef void _fill_mask(self, int i, uint8_t* out) noexcept nogil:
        cdef int k, n
        cdef const int32_t* ids = self._legal(i, &n)
        memset(out, 0, self.n_actions)
        for k in range(n):
            out[ids[k]] = 1

    cdef bint _is_legal(self, int i, int a) noexcept nogil:
        # without a cached list, only the army or free that ``a`` names is examined (End
        # before a total of 6 takes the list)
        cdef int r, n
        cdef const int32_t* ids
        if self.cached[i] < 0:
            r = empire_is_legal(self._s(i), a, self.buf)
            if r >= 0:
                return r
        ids = self._legal(i, &n)
        return ids_contain32(ids, n, a)

    cdef int _random_action(self, int i) noexcept nogil:
        # without a cached list, the playouts' sampler: as uniform, without listing every action
        if self.cached[i] < 0:
            return empire_random_action(self._s(i), &self.rngs[i], self.buf)
        return self.cache[<Py_ssize_t>i * CACHE_IDS
                          + rng_below(&self.rngs[i], <uint32_t>self.cached[i])]

    cdef void _make(self, int i, int a) noexcept nogil:
        empire_make(self._s(i), a)
        self.cached[i] = -1

    cdef bint _ended(self, int i) noexcept nogil:
        return self._s(i).result != EMPIRE_RUNNING

    cdef void _returns(self, int i, float* out) noexcept nogil:
        empire_returns(self._s(i), out)

    cdef int _ply(self, int i) noexcept nogil:
        return self._s(i).ply

    cdef int _player(self, int i) noexcept nogil:
        return empire_current_player(self._s(i))

    cdef uint64_t _hash(self, int i) noexcept nogil:
        return empire_hash(self._s(i))

    cdef void _observe(self, int i, float* out) noexcept nogil:
        cdef EmpireState* s = self._s(i)
        cdef int p = empire_current_player(s)
        empire_observe(s, p if p >= 0 else 0, out)
