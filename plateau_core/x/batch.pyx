"""A batch of Plateau X games of one variant in one block of C memory, stepped together with
the GIL released (the public methods are ``BatchCore``'s, in ``_batch.pyx``): legal masks into
a caller's array, an array of actions applied at once, games that end reported with their
returns and reset, observation planes exported in place, and uniformly random legal actions
drawn in C. Two threads stepping two batches run on two cores.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int32_t, uint64_t
from libc.stdlib cimport malloc, free

from plateau_core._batch cimport BatchCore
from plateau_core.x.core cimport (
    XSpec, XState, XMasks, X_MAX_ACTIONS, x_spec, x_init, x_masks, x_count, x_list,
    x_masks_has, x_fill_mask, x_make, x_random_action, x_returns, x_observe, x_hash,
)
from plateau_core import _common as _c   # (ArgumentError: the argument errors' class)


@cython.auto_pickle(False)
cdef class XBatch(BatchCore):
    """``n`` games of one Plateau X variant, stepped as one."""

    cdef XState* states
    cdef XMasks* masks
    cdef uint8_t* masks_ok
    cdef const XSpec* sp
    cdef readonly int variant_index
    cdef readonly int first_player

    def __cinit__(self, int variant_index, int n, unsigned long long seed=0, int ply_cap=400,
                  int first_player=0):
        self.states = NULL
        self.masks = NULL
        self.masks_ok = NULL
        if not 0 <= variant_index < 4:
            raise _c.ArgumentError(f"variant index {_c.shown(variant_index)} out of range [0, 4)")
        if n < 1:
            raise _c.ArgumentError(f"a batch holds at least one game, got n={_c.shown(n)}")
        if ply_cap < 1:
            raise _c.ArgumentError(f"ply_cap must be >= 1, got {_c.shown(ply_cap)}")
        self.sp = x_spec(variant_index)
        if not 0 <= first_player < self.sp.players:
            raise _c.ArgumentError(
                f"first_player {_c.shown(first_player)} out of range [0, {self.sp.players})")
        self.states = <XState*>malloc(n * sizeof(XState))
        self.masks = <XMasks*>malloc(n * sizeof(XMasks))
        self.masks_ok = <uint8_t*>malloc(n)
        if self.states == NULL or self.masks == NULL or self.masks_ok == NULL:
            gib = n * sizeof(XState) / 2.0**30
            raise MemoryError(f"no memory for a batch of {n:,} games ({gib:.1f} GiB of positions)")
        self.variant_index = variant_index
        self.first_player = first_player
        self.n_actions = self.sp.num_actions
        self.n_players = self.sp.players
        self.list_cap = X_MAX_ACTIONS
        self.obs_shape = (self.sp.players + 8, self.sp.n, self.sp.n)
        self._setup(n, seed, ply_cap)

    def __dealloc__(self):
        free(self.states)
        free(self.masks)
        free(self.masks_ok)

    cdef inline XMasks* _m(self, int i) noexcept nogil:
        if not self.masks_ok[i]:
            x_masks(&self.states[i], &self.masks[i])
            self.masks_ok[i] = 1
        return &self.masks[i]

    cdef void _init_game(self, int i) noexcept nogil:
        x_init(&self.states[i], self.sp, self.first_player)
        self.masks_ok[i] = 0

    cdef int _list(self, int i, int32_t* out) noexcept nogil:
        cdef uint16_t ids[X_MAX_ACTIONS]
        cdef int k, n = x_list(&self.states[i], self._m(i), ids)
        for k in range(n):
            out[k] = ids[k]
        return n

    cdef int _count(self, int i) noexcept nogil:
        return x_count(self._m(i))

    cdef void _fill_mask(self, int i, uint8_t* out) noexcept nogil:
        x_fill_mask(&self.states[i], self._m(i), out)

    cdef bint _is_legal(self, int i, int a) noexcept nogil:
        return x_masks_has(&self.states[i], self._m(i), a)

    cdef int _random_action(self, int i) noexcept nogil:
        return x_random_action(&self.states[i], self._m(i), &self.rngs[i])

    cdef void _make(self, int i, int a) noexcept nogil:
        # the next position's masks at once, while the position is in cache: every next
        # call (masks, sampling, or the legality check of the next step) reads them
        x_make(&self.states[i], a)
        x_masks(&self.states[i], &self.masks[i])
        self.masks_ok[i] = 1

    cdef bint _ended(self, int i) noexcept nogil:
        return self.states[i].ended != 0

    cdef void _returns(self, int i, float* out) noexcept nogil:
        x_returns(&self.states[i], out)

    cdef int _ply(self, int i) noexcept nogil:
        return self.states[i].ply

    cdef int _player(self, int i) noexcept nogil:
        return self.states[i].player

    cdef uint64_t _hash(self, int i) noexcept nogil:
        return x_hash(&self.states[i])

    cdef void _observe(self, int i, float* out) noexcept nogil:
        x_observe(&self.states[i], self.states[i].player, out)
