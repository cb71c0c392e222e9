# cython: language_level=3
"""``BatchCore``: the game-independent half of a batched engine (see ``_batch.pxd``). It owns
the bookkeeping (one method at a time, length and shape checks, finished games reported and
reset) and loops over the games with the GIL released, calling the game's hooks.

Validation of dtypes is done by ``plateau.StateBatch``; these methods still check what would
otherwise reach memory out of bounds (lengths, shapes, ranges, legality).
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset

from plateau_core._common cimport Rng, rng_seed
from plateau_core import _common as _c   # (ArgumentError: the argument errors' class)

cdef enum:
    SKIP = -2       # in the private copy of the actions: a game ``step`` leaves as it is


@cython.auto_pickle(False)
cdef class BatchCore:
    """``n`` games of one game and variant, stepped as one."""

    def __cinit__(self, *args, **kwargs):
        self._acts = NULL
        self._drawn = NULL
        self.rngs = NULL
        self._kept_ids[0] = self._kept_ids[1] = NULL
        self._kept_off[0] = self._kept_off[1] = NULL
        self._kept_cap[0] = self._kept_cap[1] = 0
        self._kept_now = -1

    def __dealloc__(self):
        free(self._acts)
        free(self._drawn)
        free(self.rngs)
        free(self._kept_ids[0])
        free(self._kept_ids[1])
        free(self._kept_off[0])
        free(self._kept_off[1])

    cdef int _setup(self, int n, unsigned long long seed, int ply_cap) except -1:
        # called by the game's __cinit__ once n_actions, n_players, list_cap and obs_shape
        # are set and its arrays are allocated
        cdef int i
        self._acts = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
        self._drawn = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
        self.rngs = <Rng*>malloc(max(n, 1) * sizeof(Rng))
        self._kept_off[0] = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        self._kept_off[1] = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        if self._acts == NULL or self._drawn == NULL or self.rngs == NULL \
                or self._kept_off[0] == NULL or self._kept_off[1] == NULL:
            raise MemoryError(f"no memory for a batch of {n:,} games (actions)")
        self.num_envs = n
        self.ply_cap = ply_cap
        self.games_finished = 0
        self._busy = False
        self.obs_size = 1
        for d in self.obs_shape:
            self.obs_size *= d
        # game i samples as the lone game of a batch seeded seed + i (mod 2**64), so that any
        # game of a big batch can be replayed alone
        for i in range(n):
            rng_seed(&self.rngs[i], <uint64_t>(seed + <unsigned long long>i))
        self.reset()
        return 0

    @property
    def num_distinct_actions(self) -> int:
        return self.n_actions

    @property
    def num_players(self) -> int:
        return self.n_players

    @property
    def observation_shape(self) -> tuple:
        return self.obs_shape

    @property
    def max_legal(self) -> int:
        """At least the number of legal actions of any position of the game (a list of any
        position fits in this many ids)."""
        return self.list_cap

    cdef int _enter(self) except -1:
        # one method at a time per batch: two threads must step two batches, not one
        if self._busy:
            raise RuntimeError("this batch is in use by another thread")
        self._busy = True
        return 0

    cdef int _check_len(self, Py_ssize_t length, str what) except -1:
        if length != self.num_envs:
            raise _c.ArgumentError(f"{what} must have length {self.num_envs}, got {length}")
        return 0

    def reset(self) -> None:
        """Every game back to its start position."""
        cdef int i
        self._enter()
        try:
            for i in range(self.num_envs):
                self._init_game(i)
                self._drawn[i] = -1
        finally:
            self._busy = False

    def legal_masks(self, object arr, bint update=False) -> None:
        """Fill ``arr`` (uint8, shape ``(n, num_distinct_actions)``) with 1 at legal actions,
        every row written whole (if ``arr`` is the kept array, it is kept no more).
        ``update``: if ``arr`` is the array the last ``update`` call filled (the caller vouches
        that it holds what that call wrote), only the ids it set are cleared and the legal
        ones set; either way the ids set are kept, with ``arr``.
        Which of the two is decided under the batch's guard, so that no other call can
        change the kept ids in between. Whatever ``arr`` holds, every write lands inside it
        (kept ids are below ``num_distinct_actions``)."""
        cdef uint8_t[:, ::1] out = arr
        if out.shape[0] != self.num_envs or out.shape[1] != self.n_actions:
            raise _c.ArgumentError(
                f"mask array must have shape ({self.num_envs}, {self.n_actions}), "
                f"got ({out.shape[0]}, {out.shape[1]})")
        cdef int i, bad = 0
        cdef bint same
        # (the array kept before, held here until the guard is left: dropping the batch's
        # reference under the guard must not free it, which could run a finaliser)
        previous = self._kept_array
        self._enter()
        try:
            same = arr is previous and self._kept_now >= 0
            if not update:
                if arr is previous:  # (written whole now: what was kept no longer holds)
                    self._kept_array = None
                    self._kept_now = -1
                with nogil:
                    for i in range(self.num_envs):
                        self._fill_mask(i, &out[i, 0])
            else:
                self._kept_array = None  # (kept again only once the call succeeded)
                with nogil:
                    bad = self._masks_kept(out, same)
                if not bad:
                    self._kept_array = arr
        finally:
            self._busy = False
        if bad:
            raise MemoryError("no memory for the kept legal ids of the batch's masks")

    cdef int _masks_kept(self, uint8_t[:, ::1] out, bint update) noexcept nogil:
        # (under the guard) legal_masks with ``update``: list each game's legal ids into the
        # buffer not holding the kept ones, clear the kept ids of its row (``update``: ``out``
        # is the kept array) or the whole row, set the new ones; then the new buffer is the
        # kept one. Returns 1 (and keeps nothing; the rows written so far are right, the rest
        # zero) if memory runs out.
        cdef int nxt = 0 if self._kept_now == 1 else 1, old = 1 - nxt
        cdef int i, k, m
        cdef Py_ssize_t used = 0, want, j
        cdef int32_t* ids
        cdef int32_t* grown
        cdef uint8_t* row
        for i in range(self.num_envs):
            row = &out[i, 0]
            if update:
                ids = self._kept_ids[old]
                for j in range(self._kept_off[old][i], self._kept_off[old][i + 1]):
                    row[ids[j]] = 0
            else:
                memset(row, 0, self.n_actions)
            if used + self.list_cap > self._kept_cap[nxt]:
                want = max(2 * self._kept_cap[nxt], used + self.list_cap)
                grown = <int32_t*>realloc(self._kept_ids[nxt], want * sizeof(int32_t))
                if grown == NULL:
                    self._kept_now = -1
                    for k in range(i, self.num_envs):
                        memset(&out[k, 0], 0, self.n_actions)
                    return 1
                self._kept_ids[nxt] = grown
                self._kept_cap[nxt] = want
            ids = self._kept_ids[nxt] + used
            m = self._list(i, ids)
            for k in range(m):
                row[ids[k]] = 1
            self._kept_off[nxt][i] = used
            used += m
        self._kept_off[nxt][self.num_envs] = used
        self._kept_now = nxt
        return 0

    def legal_lists(self, int64_t[:, ::1] ids, int32_t[::1] counts) -> None:
        """Fill ``counts[i]`` with the number of legal actions of game ``i`` and ``ids[i]``
        (int64, shape ``(n, width)``) with them, ascending, padded with -1; a game with more
        than ``width`` legal actions gets only its first ``width``."""
        self._check_len(ids.shape[0], "id array")
        self._check_len(counts.shape[0], "count array")
        cdef int32_t* buf = <int32_t*>malloc(self.list_cap * sizeof(int32_t))
        if buf == NULL:
            raise MemoryError()
        cdef int i, k, n
        cdef Py_ssize_t width = ids.shape[1]
        try:
            self._enter()
            try:
                with nogil:
                    for i in range(self.num_envs):
                        n = self._list(i, buf)
                        counts[i] = n
                        for k in range(width):
                            ids[i, k] = buf[k] if k < n else -1
            finally:
                self._busy = False
        finally:
            free(buf)

    def num_legal(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with the number of legal actions of each game."""
        self._check_len(out.shape[0], "count array")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    out[i] = self._count(i)
        finally:
            self._busy = False

    def sample_random(self, int64_t[::1] out) -> None:
        """Fill ``out`` (int64, shape ``(n,)``) with a uniformly random legal action per game,
        each drawn from its game's own seeded generator."""
        self._check_len(out.shape[0], "action array")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    self._drawn[i] = self._random_action(i)
                    out[i] = self._drawn[i]
        finally:
            self._busy = False

    def current_players(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with the player to act in each game."""
        self._check_len(out.shape[0], "player array")
        cdef int i
        self._enter()
        try:
            for i in range(self.num_envs):
                out[i] = self._player(i)
        finally:
            self._busy = False

    def first_illegal(self, const int64_t[::1] actions) -> int:
        """The index of the first game whose action is not legal, or -1 if all are."""
        self._check_len(actions.shape[0], "action array")
        cdef int bad
        self._enter()
        try:
            self._copy_actions(actions)
            with nogil:
                bad = self._first_bad(self._acts)
        finally:
            self._busy = False
        return bad

    cdef void _copy_actions(self, const int64_t[::1] actions) noexcept:
        # (under the guard) a private copy of the caller's actions in the batch's own buffer,
        # each id checked for range (out of range becomes -1): the caller's array may be
        # written by another thread, or overlap an output array of the same call, while the
        # kernels run on the copy
        cdef int i
        cdef int64_t a
        for i in range(self.num_envs):
            a = actions[i]
            self._acts[i] = <int32_t>a if 0 <= a < self.n_actions else -1

    cdef int _copy_skips(self, object skip) except -1:
        # (under the guard, after _copy_actions) the games to leave as they are get SKIP in
        # the private copy, whatever their action was
        cdef const uint8_t[::1] mask
        cdef int i
        if skip is None:
            return 0
        mask = skip
        self._check_len(mask.shape[0], "skip array")
        for i in range(self.num_envs):
            if mask[i]:
                self._acts[i] = SKIP
        return 0

    cdef int _first_bad(self, const int32_t* acts) noexcept nogil:
        cdef int i
        for i in range(self.num_envs):
            if acts[i] == SKIP:
                continue
            if acts[i] < 0:  # (out of range: never compared with a draw, which may be -1)
                return i
            if acts[i] == self._drawn[i]:  # drawn by sample_random in this very position
                continue
            if not self._is_legal(i, acts[i]):
                return i
        return -1

    def step(self, const int64_t[::1] actions, uint8_t[::1] done, float[:, ::1] returns,
             float[:, :, :, ::1] final_obs=None, skip=None) -> int:
        """Apply ``actions[i]`` to game ``i`` for every game (all must be legal: nothing is
        applied otherwise, and -1 - i is returned for the first illegal one). Games that end
        (``done[i] = 1``) or reach ``ply_cap`` (``done[i] = 2``) get their returns written to
        ``returns[i]`` (zeros when truncated) and are reset; others get ``done[i] = 0``.
        With ``final_obs`` (float32, ``(n, *observation_shape)``), a finished game's last
        observation (as ``observations`` gives it) goes to ``final_obs[i]`` before the reset;
        other rows are left as they were. ``skip`` (uint8, ``(n,)``, optional): the games where
        it is non-zero are left as they are (``done[i] = 0``), their actions neither checked
        nor applied.
        Returns the number of games that finished. The actions are copied before they are
        checked: what is applied is exactly what was checked, whatever happens to ``actions``
        meanwhile (another thread, or ``done`` overlapping it)."""
        self._check_len(actions.shape[0], "action array")
        self._check_len(done.shape[0], "done array")
        if returns.shape[0] != self.num_envs or returns.shape[1] != self.n_players:
            raise _c.ArgumentError(f"returns array must have shape ({self.num_envs}, "
                             f"{self.n_players}), got ({returns.shape[0]}, {returns.shape[1]})")
        cdef int i, p, bad, finished = 0
        cdef int32_t* acts = self._acts
        cdef bint keep = final_obs is not None
        if keep:
            got = (final_obs.shape[0], final_obs.shape[1], final_obs.shape[2],
                   final_obs.shape[3])
            if got != (self.num_envs,) + self.obs_shape:
                raise _c.ArgumentError(f"final observation array must have shape "
                                 f"{(self.num_envs,) + self.obs_shape}, got {got}")
        self._enter()
        try:
            self._copy_actions(actions)
            self._copy_skips(skip)
            with nogil:
                bad = self._first_bad(acts)
                if bad < 0:
                    for i in range(self.num_envs):
                        if acts[i] == SKIP:
                            done[i] = 0
                            continue
                        self._make(i, acts[i])
                        self._drawn[i] = -1
                        if self._ended(i):
                            done[i] = 1
                            self._returns(i, &returns[i, 0])
                        elif self._ply(i) >= self.ply_cap:
                            done[i] = 2
                            for p in range(self.n_players):
                                returns[i, p] = 0
                        else:
                            done[i] = 0
                            continue
                        finished += 1
                        if keep:
                            self._observe(i, &final_obs[i, 0, 0, 0])
                        self._init_game(i)
        finally:
            self._busy = False
        if bad >= 0:
            return -1 - bad
        self.games_finished += finished
        return finished

    def observations(self, float[:, :, :, ::1] out) -> None:
        """Fill ``out`` (float32, shape ``(n, *observation_shape)``) with each game's
        observation planes (those of the player to act; see the game's
        ``observation_tensor``)."""
        got = (out.shape[0], out.shape[1], out.shape[2], out.shape[3])
        if got != (self.num_envs,) + self.obs_shape:
            raise _c.ArgumentError(f"observation array must have shape "
                             f"{(self.num_envs,) + self.obs_shape}, got {got}")
        cdef int i
        self._enter()
        try:
            with nogil:
                for i in range(self.num_envs):
                    self._observe(i, &out[i, 0, 0, 0])
        finally:
            self._busy = False

    def plies(self, int32_t[::1] out) -> None:
        """Fill ``out`` (int32, shape ``(n,)``) with each game's ply count since its reset."""
        self._check_len(out.shape[0], "ply array")
        cdef int i
        self._enter()
        try:
            for i in range(self.num_envs):
                out[i] = self._ply(i)
        finally:
            self._busy = False

    def hashes(self, uint64_t[::1] out) -> None:
        """Fill ``out`` (uint64, shape ``(n,)``) with each game's position hash."""
        self._check_len(out.shape[0], "hash array")
        cdef int i
        self._enter()
        try:
            for i in range(self.num_envs):
                out[i] = self._hash(i)
        finally:
            self._busy = False

    # -- hooks: every game's batch overrides all of them ---------------------------------------

    cdef void _init_game(self, int i) noexcept nogil:
        pass

    cdef int _list(self, int i, int32_t* out) noexcept nogil:
        return 0

    cdef int _count(self, int i) noexcept nogil:
        return 0

    cdef void _fill_mask(self, int i, uint8_t* out) noexcept nogil:
        pass

    cdef bint _is_legal(self, int i, int a) noexcept nogil:
        return False

    cdef int _random_action(self, int i) noexcept nogil:
        return 0

    cdef void _make(self, int i, int a) noexcept nogil:
        pass

    cdef bint _ended(self, int i) noexcept nogil:
        return False

    cdef void _returns(self, int i, float* out) noexcept nogil:
        pass

    cdef int _ply(self, int i) noexcept nogil:
        return 0

    cdef int _player(self, int i) noexcept nogil:
        return 0

    cdef uint64_t _hash(self, int i) noexcept nogil:
        return 0

    cdef void _observe(self, int i, float* out) noexcept nogil:
        pass
