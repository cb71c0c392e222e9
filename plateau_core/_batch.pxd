# The game-independent half of a batched engine: n games of one game in one block of C memory.
# Each game's batch class (x_batch.XBatch, albea_batch.AlbeaBatch) derives from BatchCore and
# implements the per-game hooks below; BatchCore implements every public method once.
from libc.stdint cimport uint8_t, uint16_t, int32_t, int64_t, uint64_t

from plateau_core._common cimport Rng


cdef class BatchCore:
    cdef Rng* rngs              # one generator per game: game i's is seeded seed + i
    cdef readonly int num_envs
    cdef readonly int ply_cap
    cdef readonly long long games_finished
    cdef int n_actions          # ids per game
    cdef int n_players
    cdef int list_cap           # a buffer of this many int32 ids holds any legal list
    cdef tuple obs_shape        # observation planes of one game
    cdef Py_ssize_t obs_size    # floats in one game's observation
    cdef bint _busy             # a method is running without the GIL on these arrays
    # legal_masks(update=True): the ids each game's row was last given, per game a run of
    # _kept_ids[_kept_off[i]:_kept_off[i + 1]] (two buffers: the ids written, the ids now)
    cdef int32_t* _kept_ids[2]
    cdef Py_ssize_t _kept_cap[2]
    cdef Py_ssize_t* _kept_off[2]
    cdef int _kept_now          # the buffer holding the last call's ids (-1: none kept)
    cdef object _kept_array     # the array those ids were written into (None: none), held
                                # so that its memory is never another's while it is kept

    cdef int _setup(self, int n, unsigned long long seed, int ply_cap) except -1
    cdef int _enter(self) except -1
    cdef int _check_len(self, Py_ssize_t length, str what) except -1
    cdef int32_t* _acts          # the batch's private copy of the actions being applied
    cdef int32_t* _drawn         # per game, the action sample_random drew in its position
                                 # (legal there: step need not check it again), else -1
    cdef void _copy_actions(self, const int64_t[::1] actions) noexcept
    cdef int _copy_skips(self, object skip) except -1
    cdef int _first_bad(self, const int32_t* acts) noexcept nogil
    cdef int _masks_kept(self, uint8_t[:, ::1] out, bint update) noexcept nogil

    # -- per-game hooks (game i of the batch; called without the GIL) --------------------------
    cdef void _init_game(self, int i) noexcept nogil
    cdef int _list(self, int i, int32_t* out) noexcept nogil
    cdef int _count(self, int i) noexcept nogil
    cdef void _fill_mask(self, int i, uint8_t* out) noexcept nogil
    cdef bint _is_legal(self, int i, int a) noexcept nogil
    cdef int _random_action(self, int i) noexcept nogil
    cdef void _make(self, int i, int a) noexcept nogil
    cdef bint _ended(self, int i) noexcept nogil
    cdef void _returns(self, int i, float* out) noexcept nogil
    cdef int _ply(self, int i) noexcept nogil
    cdef int _player(self, int i) noexcept nogil
    cdef uint64_t _hash(self, int i) noexcept nogil
    cdef void _observe(self, int i, float* out) noexcept nogil
