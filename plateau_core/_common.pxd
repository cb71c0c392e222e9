# Shared toolkit of the compiled core: 64-bit board helpers, a seeded PRNG and numpy arrays
# (made through numpy's C API).
# Every game kernel cimports these; all but new_array and new_id_array are inline, noexcept and
# nogil.
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int32_t, int64_t

cdef extern from "bits.h" nogil:
    int pl_popcount(uint64_t x)
    int pl_ctz(uint64_t x)
    int pl_msb32(uint32_t x)


cdef inline uint64_t splitmix64(uint64_t x) noexcept nogil:
    """A strong 64-bit mix of x (SplitMix64's finaliser); used for hash keys and seeding."""
    x += <uint64_t>0x9E3779B97F4A7C15
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EB
    return x ^ (x >> 31)



cdef inline float shared_points(const float* points, int place, int tied) noexcept nogil:
    """The points of each of ``tied`` players who share the places ``place`` .. ``place + tied
    - 1`` (0 = first): those places' points split equally, so that a game's points always sum
    the same (the rule of every game: plateau.state.points_for_ranking says it in Python)."""
    cdef float total = 0
    cdef int i
    for i in range(place, place + tied):
        total += points[i]
    return total / tied

ctypedef struct Rng:
    # xoshiro256** state (Blackman & Vigna), seeded through splitmix64
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    r.s0 = splitmix64(seed)
    r.s1 = splitmix64(r.s0 ^ <uint64_t>0x1)
    r.s2 = splitmix64(r.s1 ^ <uint64_t>0x2)
    r.s3 = splitmix64(r.s2 ^ <uint64_t>0x3)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = _rotl(r.s3, 45)
    return result


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) for n >= 1 (Lemire's multiply-shift, bias below 2**-32)."""
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef inline int nth_set_bit(uint64_t x, int k) noexcept nogil:
    """Index of the k-th (0-based) set bit of x; x must have more than k bits set. Halves the
    word by popcount down to a byte, then clears the bits below it one by one."""
    cdef int base = 0, c, i
    c = pl_popcount(x & <uint64_t>0xFFFFFFFF)
    if k >= c:
        k -= c
        x >>= 32
        base = 32
    c = pl_popcount(x & <uint64_t>0xFFFF)
    if k >= c:
        k -= c
        x >>= 16
        base += 16
    c = pl_popcount(x & <uint64_t>0xFF)
    if k >= c:
        k -= c
        x >>= 8
        base += 8
    for i in range(k):
        x &= x - 1
    return base + pl_ctz(x)


cdef object new_array(object shape, object dtype, bint zero, void** data)
cdef object new_id_array(Py_ssize_t n, int64_t** data)


# -- Ctrl-C in long kernels: a kernel that may run for long calls work_tick() in its loop; every
# mask + 1 ticks it takes the GIL and lets Python run its signal handlers. If one raised (Ctrl-C:
# KeyboardInterrupt), ``stop`` is set, the kernel unwinds, and its wrapper calls raise_pending().
cdef enum:
    NODE_TICKS = 0x3F       # perft: check every 64 interior nodes (well under a millisecond)
    PLY_TICKS = 0xFFF       # random games: check every 4,096 plies (a few milliseconds)

ctypedef struct Work:
    uint32_t ticks
    bint stop

cdef bint signals_raised() noexcept nogil
cdef int raise_pending() except -1


# -- random playouts: one loop for every game (run_playouts), the kernels supply the steps -----
cdef enum:
    PLAYOUT_MAX_PLAYERS = 4

cdef struct Playout:
    void* state                 # room for one game (the caller's)
    const void* ctx             # what the hooks need besides: a spec, a board, options
    int players
    # the state to the start position (game i of a run is the lone game seeded seed + i)
    void (*start)(Playout* p) noexcept nogil
    # a uniformly random game from there, for at most ``cap`` plies; returns its plies
    long long (*play)(Playout* p, Rng* r, int cap, Work* w) noexcept nogil
    # whether the game reached its end (not cut at the cap)
    bint (*ended)(const Playout* p) noexcept nogil
    # each player's standing at the end, bigger better: first place is the largest
    void (*standing)(const Playout* p, uint64_t* keys) noexcept nogil

cdef dict run_playouts(Playout* p, long long n, uint64_t seed, int cap)


cdef inline bint work_tick(Work* w, uint32_t mask) noexcept nogil:
    """Count one unit of work; True once the work must stop (a signal handler raised)."""
    w.ticks += 1
    if (w.ticks & mask) == 0 and not w.stop:
        w.stop = signals_raised()
    return w.stop


# -- the one argument checker of every wrapper: Python values are checked before any conversion,
# so no input can overflow into a kernel; any integral type but bool is accepted ---------------
cdef enum:
    PERFT_MAX_DEPTH = 64    # depths are below this: deeper counts could never finish, and the
                            # cap bounds perft's scratch space

cdef long long check_int(object v, object lo, object hi, str what) except? -1
cdef uint64_t check_seed(object v, str what) except? 0xFFFFFFFFFFFFFFFF
cdef int check_depth(object depth) except -1
cdef enum:
    PLY_CAP_NONE = 0x7FFFFFFF   # ply_cap=None: no cap (a 2**31 - 1 ply game cannot finish)
cdef int check_ply_cap(object ply_cap) except -1


ctypedef struct History:
    # Undo records of ``size`` bytes each, shared copy-on-write between a game and its clones.
    # Records below ``used`` are never overwritten while shared (refs > 1); a sharer whose
    # history ends at ``used`` appends in place, any other writer copies its records first.
    Py_ssize_t refs
    Py_ssize_t used
    Py_ssize_t cap
    Py_ssize_t size
    char* data


cdef void history_release(History* h) noexcept
cdef int history_copy(History** hp, Py_ssize_t length, Py_ssize_t size) except -1
cdef History* history_share(History* h, Py_ssize_t length) noexcept


cdef inline int history_writable(History** hp, Py_ssize_t length, Py_ssize_t size) except -1:
    """Make record ``length`` of ``hp[0]`` writable for a game whose history has ``length``
    records: in place when nobody else can see it, else on a private copy (copy-on-write)."""
    cdef History* h = hp[0]
    if h != NULL and length < h.cap and (h.refs == 1 or length == h.used):
        return 0
    return history_copy(hp, length, size)


cdef inline bint ids_contain(const unsigned short* ids, int n, int a) noexcept nogil:
    """Whether the ascending list ``ids[0:n]`` holds ``a``: a binary search with no branch on
    the comparisons (each halving moves ``base`` by a conditional move), since ``apply`` looks
    up a random legal action, and a search that branched would be mispredicted about half its
    steps. The loop runs log2(n) times whatever ``a`` is."""
    cdef const unsigned short* base = ids
    cdef int half
    if n <= 0:
        return False
    while n > 1:
        half = n >> 1
        base = base + half if base[half] <= a else base
        n -= half
    return base[0] == a


cdef inline bint ids_contain32(const int32_t* ids, int n, long a) noexcept nogil:
    """``ids_contain`` for int32 ids (games with more than 65,536 action ids)."""
    cdef const int32_t* base = ids
    cdef int half
    if n <= 0:
        return False
    while n > 1:
        half = n >> 1
        base = base + half if base[half] <= a else base
        n -= half
    return base[0] == a


ctypedef struct SolverEntry:
    # one answer of the exact solver's table: for the question (hash, ply, who, goal), the
    # largest distance known to fail and the smallest known to succeed
    uint64_t hash
    int64_t ply
    int32_t fail
    int32_t succeed
    uint8_t who
    uint8_t goal
    uint8_t full


cdef class SolverTable:
    # The exact solver's transposition table and budget (plateau.solver drives the search).
    cdef SolverEntry* slots
    cdef Py_ssize_t cap             # slots (a power of two, or 0)
    cdef Py_ssize_t used            # answers held
    cdef Py_ssize_t limit           # the table is cleared when it holds this many
    cdef public long long nodes     # positions searched since the count was last reset
    cdef long long max_nodes        # -1: no limit
    cdef double deadline            # time.perf_counter() value; 0: none
    cdef bint _busy
    cdef object _clock
    cdef void _empty(self) noexcept
    cdef int _grow(self) except -1
    cdef SolverEntry* _find(self, uint64_t h, int64_t ply, int who, int goal) noexcept
    cdef int _store(self, uint64_t h, int64_t ply, int who, int goal, int32_t fail,
                    int32_t succeed) except -1


cdef class GameCore:
    # One game in progress with its undo history: what every game's compiled wrapper shares
    # (legal-action queries, the apply fast path, undo, clone, perft, random playouts,
    # observation arrays, argument checks). A game subclasses it, sets the fields below in its
    # __cinit__ and implements the hooks; each behaviour is then decided here, once.
    # Undo records are ``_snap_size`` bytes each and begin with the int32 action id.
    cdef History* _h
    cdef Py_ssize_t _len            # how many records are this game's history
    cdef Py_ssize_t _snap_size
    cdef long _num_actions          # action ids are [0, _num_actions)
    cdef int _num_players
    cdef Py_ssize_t _scratch_bytes  # perft scratch per ply: room for the longest legal list
    cdef bint _legal_ok             # the game's legal-action cache is valid
    cdef bint _det                  # a determinization (resample_hidden): no history to replay
    cdef bint _setup                # the history starts from a set-up position

    # -- hooks: the game's kernels ---------------------------------------------------------
    cdef int _gen(self) except -1                       # make the legal cache valid
    cdef bint _has(self, long a) noexcept               # legal? (after _gen; a in range)
    cdef int _check_one(self, long a) except -2         # without the list: 1 legal, 0 not,
                                                        # -1 only the list tells (default)
    cdef int _count(self) noexcept                      # legal actions (after _gen)
    cdef void _write_list(self, int64_t* out) noexcept  # ascending ids (after _gen)
    cdef void _write_mask(self, uint8_t* out) noexcept  # 1 at legal ids, out zeroed
    cdef long _nth(self, int k) except -1              # the k-th legal id, ascending (after
                                                        # _gen; 0 <= k < _count())
    cdef void _save(self, char* snap, int a) noexcept   # undo record before applying a
    cdef void _restore(self, const char* snap) noexcept
    cdef void _make(self, int a) noexcept
    cdef int _copy_to(self, GameCore other) except -1  # the position (and kept caches); may
                                                        # allocate, so it may raise
    cdef bint _over(self) noexcept
    cdef int _mover(self) noexcept                      # the kernel's player to act
    cdef uint64_t _perft_copy(self, int depth, bint bulk, void* scratch, Work* w) noexcept
    cdef void _playout_copy(self, uint64_t seed, int cap, bint sensible_end, double* out,
                            Work* w) noexcept
    cdef void _observe(self, int viewer, float* out) noexcept
    cdef tuple _obs_shape(self)                         # the shape _observe fills
    cdef long _ply(self) noexcept                       # plies since the game began
    cdef uint64_t _hash(self) noexcept                  # 64-bit key of the position
    cdef void _points(self, float* out) noexcept        # each player's points by place now
                                                        # (final once the game is over)
    cdef object _pins(self)                             # what the position points into (None:
                                                        # nothing): held while a kernel runs

    # -- shared machinery ------------------------------------------------------------------
    cdef int _push(self, int a) except -1
    cdef int _legal_id(self, long a) except -1          # legal? (a in range)
    cdef int _check_player(self, object p) except -1
    cdef int _reset_history(self) except -1
    cdef int _undo_one(self) noexcept
    cdef int _solve_node(self, int d, int who, int goal, SolverTable t) except -1


cdef class ListCore(GameCore):
    # A game whose legal actions are cached as a list of ids (ascending): the legal-list hooks
    # (_has, _count, _write_list, _write_mask) are here, and the game's _gen stores its list
    # with _store_legal / _store_legal16. The cache is sized to the list, not to the game's
    # worst case: programs keep many states alive. It holds uint16 ids if the game's
    # __cinit__ sets _narrow (its ids all fit: half the copying), else int32 ids.
    cdef void* _legal
    cdef int _nlegal
    cdef int _legal_cap
    cdef bint _narrow
    cdef int _legal_fit(self, int n) except -1
    cdef int _store_legal(self, const int32_t* ids, int n) except -1
    cdef int _store_legal16(self, const uint16_t* ids, int n) except -1
    cdef int _copy_legal_to(self, ListCore other) except -1  # a clone keeps the list
