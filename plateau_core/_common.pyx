# cython: language_level=3
"""Python-visible hooks into the shared core toolkit (used by tests of the PRNG and hashing)."""
cimport cython
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int32_t, int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

import numbers
import operator

import numpy as np
cimport numpy as cnp

cnp.import_array()

from plateau_core._common cimport (
    History, Playout, PLAYOUT_MAX_PLAYERS, Rng, Work, rng_seed, rng_next, rng_below, splitmix64,
    history_writable, SolverEntry, nth_set_bit, pl_popcount,
)

cdef extern from "Python.h":
    # declared without an exception value: the raised exception stays pending for the wrapper
    int _check_signals "PyErr_CheckSignals" ()


cdef bint signals_raised() noexcept nogil:
    """Run Python's pending signal handlers (main thread only; a no-op elsewhere); True if one
    raised, which leaves its exception pending for :func:`raise_pending`."""
    cdef int r
    with gil:
        r = _check_signals()
    return r != 0


cdef int raise_pending() except -1:
    """Propagate the exception that a signal handler left pending (see ``signals_raised``)."""
    return -1


cdef dict run_playouts(Playout* p, long long n, uint64_t seed, int cap):
    """Play ``n`` uniformly random games through the kernel's hooks ``p`` with the GIL
    released, game ``i`` from its own generator seeded ``seed + i``, and count them the same
    way for every game: ``games``, ``plies``, ``ended`` (reached their end; the others were cut
    at ``cap`` plies and count in neither of the next two), ``wins`` (per player, the ended
    games in which it finished first, alone or sharing first place) and ``draws`` (the ended
    games with a shared first place). A signal handler that raises (Ctrl-C) stops the run."""
    cdef long long i, plies = 0, ended = 0, draws = 0
    cdef long long wins[PLAYOUT_MAX_PLAYERS]
    cdef uint64_t keys[PLAYOUT_MAX_PLAYERS]
    cdef uint64_t best
    cdef int k, firsts, players = p.players
    cdef Rng r
    cdef Work w = Work(0, False)
    for k in range(PLAYOUT_MAX_PLAYERS):
        wins[k] = 0
    with nogil:
        for i in range(n):
            rng_seed(&r, seed + <uint64_t>i)
            p.start(p)
            plies += p.play(p, &r, cap, &w)
            if w.stop:
                break
            if not p.ended(p):
                continue
            ended += 1
            p.standing(p, keys)
            best = keys[0]
            for k in range(1, players):
                if keys[k] > best:
                    best = keys[k]
            firsts = 0
            for k in range(players):
                if keys[k] == best:
                    wins[k] += 1
                    firsts += 1
            if firsts > 1:
                draws += 1
    if w.stop:
        raise_pending()
    return {"games": n, "plies": plies, "ended": ended,
            "wins": [wins[k] for k in range(players)], "draws": draws}


cdef object new_array(object shape, object dtype, bint zero, void** data):
    """A fresh C-contiguous numpy array and its data pointer, for kernels to fill (cheaper
    than a typed memoryview; the pointer stays valid while the array lives). Made by numpy's C
    API, without a Python call (this is on the path of every ``legal_actions``)."""
    cdef cnp.npy_intp dims[8]
    cdef int nd, i, num
    if dtype is np.int64:
        num = cnp.NPY_INT64
    elif dtype is np.bool_:
        num = cnp.NPY_BOOL
    elif dtype is np.float32:
        num = cnp.NPY_FLOAT32
    else:
        raise TypeError(f"new_array: unsupported dtype {dtype!r}")
    if isinstance(shape, int):
        nd = 1
        dims[0] = shape
    else:
        nd = len(shape)
        if nd > 8:
            raise ArgumentError(f"new_array: {nd} dimensions")
        for i in range(nd):
            dims[i] = shape[i]
    out = cnp.PyArray_ZEROS(nd, dims, num, 0) if zero else cnp.PyArray_EMPTY(nd, dims, num, 0)
    data[0] = cnp.PyArray_DATA(<cnp.ndarray>out)
    return out


cdef extern from *:
    """
    /* a new 1-d array of n int64 (the descriptor passed is borrowed: NewFromDescr steals one
       reference, so take one first) */
    static inline PyObject* pl_new_int64_vector(PyObject* descr, npy_intp n) {
        Py_INCREF(descr);
        return PyArray_NewFromDescr(&PyArray_Type, (PyArray_Descr*)descr, 1, &n, NULL, NULL,
                                    0, NULL);
    }
    """
    object pl_new_int64_vector(object descr, cnp.npy_intp n)


cdef object _INT64_DESCR = np.dtype(np.int64)


cdef object new_id_array(Py_ssize_t n, int64_t** data):
    """A fresh 1-d numpy int64 array of ``n`` entries and its data pointer: what every
    ``legal_actions`` returns, made with the int64 descriptor kept here (the path of every step
    of a Python loop; ``new_array`` looks the type up each time)."""
    out = pl_new_int64_vector(_INT64_DESCR, n)
    data[0] = <int64_t*>cnp.PyArray_DATA(<cnp.ndarray>out)
    return out


cdef int _array_moved(int* tries) except -1:
    """For a method that sized a fresh array by its state and found the state changed once the
    array was made: count the try, RuntimeError after 100. Making a numpy array may let other
    threads run (numpy releases the GIL while it allocates a zeroed buffer of 1 KiB or more,
    and a user's allocator may run Python), and one may have re-initialised or played on this
    state meanwhile: so each such method checks the size again after making the array, and
    from that check until the kernel has filled it runs no Python."""
    tries[0] += 1
    if tries[0] >= 100:
        raise RuntimeError("the state kept changing in another thread while its array was made")
    return 0


#: the classes of the errors the compiled core raises: ValueError until the plateau package
#: hands down its own (``InvalidArgumentError``, ``InvalidActionError``, ``IllegalActionError``,
#: each a ValueError) when it is imported
ArgumentError = ValueError
InvalidActionError = ValueError
IllegalActionError = ValueError
NothingToUndoError = IndexError


def _use_errors(argument, invalid_action, illegal_action, nothing_to_undo=None):
    """Raise these classes (ValueError subclasses) for a bad argument, an action that names
    no action of the game and an action that may not be played here, and ``nothing_to_undo``
    (an IndexError subclass; None: IndexError) for an undo with nothing to take back, from now
    on."""
    global ArgumentError, InvalidActionError, IllegalActionError, NothingToUndoError
    for cls in (argument, invalid_action, illegal_action):
        if not (isinstance(cls, type) and issubclass(cls, ValueError)):
            raise TypeError(f"an error class is a ValueError subclass, got {cls!r}")
    if nothing_to_undo is None:
        nothing_to_undo = IndexError
    if not (isinstance(nothing_to_undo, type) and issubclass(nothing_to_undo, IndexError)):
        raise TypeError(f"nothing_to_undo is an IndexError subclass, got {nothing_to_undo!r}")
    ArgumentError = argument
    InvalidActionError = invalid_action
    IllegalActionError = illegal_action
    NothingToUndoError = nothing_to_undo


cpdef str shown(object v):
    """``repr(v)`` for an error message, at most about 200 characters: a longer one is cut in
    the middle, and an int too long to print (Python refuses over 4,300 digits) is told by its
    size. (The plateau package's ``checks.shown`` is its twin.)"""
    cdef str r
    if isinstance(v, int) and not isinstance(v, bool) and (<object>v).bit_length() > 600:
        return f"<an integer of {(<object>v).bit_length():,} bits>"
    r = repr(v)
    if len(r) > 200:
        r = f"{r[:100]}...<{len(r) - 160:,} characters>...{r[-60:]}"
    return r


cdef object _integer_in(object v, object lo, object hi, str what, str shown_hi):
    # the rule of both checkers below: any integral type but bool (numpy's too: numpy 1.x still
    # lets operator.index take it), range checked on the Python value (before any conversion)
    if not isinstance(v, (bool, np.bool_)):
        try:
            i = operator.index(v)
        except TypeError:
            pass
        else:
            if lo <= i < hi:
                return i
    raise ArgumentError(f"{what} must be an int in [{lo}, {shown_hi}), got {shown(v)}")


cdef long long check_int(object v, object lo, object hi, str what) except? -1:
    """``v`` as a C integer after checking that it is an integer (int or numpy integer, not a
    bool) in [lo, hi); ValueError naming ``what`` and the value otherwise."""
    return _integer_in(v, lo, hi, what, str(hi))


cdef uint64_t check_seed(object v, str what) except? 0xFFFFFFFFFFFFFFFF:
    """A seed: an integer in [0, 2**64)."""
    return _integer_in(v, 0, 2**64, what, "2**64")


cdef bint check_flag(object v, str what) except -1:
    """A flag: a bool or a numpy bool (any other value's truth is not what the caller meant:
    ``bulk="no"`` was true)."""
    if type(v) is bool or isinstance(v, np.bool_):
        return bool(v)
    raise ArgumentError(f"{what} must be True or False, got {shown(v)}")


cdef int check_ply_cap(object ply_cap) except -1:
    """A playout's cap on the plies it plays: an int in [0, 2**31), or None for no cap."""
    if ply_cap is None:
        return PLY_CAP_NONE
    return <int>check_int(ply_cap, 0, 2**31, "ply_cap")


cdef int check_depth(object depth) except -1:
    """A perft depth in [0, PERFT_MAX_DEPTH)."""
    return <int>check_int(depth, 0, PERFT_MAX_DEPTH, "perft depth")


cdef void history_release(History* h) noexcept:
    """Drop one reference to ``h`` (NULL is fine); the last one frees it."""
    if h != NULL:
        h.refs -= 1
        if h.refs == 0:
            free(h.data)
            free(h)


cdef int history_copy(History** hp, Py_ssize_t length, Py_ssize_t size) except -1:
    """The slow path of ``history_writable``: ``hp[0]`` becomes a private copy of the first
    ``length`` records with room to append (the shared one loses a reference)."""
    cdef History* h = hp[0]
    cdef History* fresh
    cdef Py_ssize_t cap
    cap = max(length + 16, 2 * length)
    fresh = <History*>malloc(sizeof(History))
    if fresh == NULL:
        raise MemoryError()
    fresh.data = <char*>malloc(cap * size)
    if fresh.data == NULL:
        free(fresh)
        raise MemoryError()
    fresh.refs = 1
    fresh.cap = cap
    fresh.size = size
    fresh.used = length
    if h != NULL:
        memcpy(fresh.data, h.data, length * size)
        history_release(h)
    hp[0] = fresh
    return 0


cdef History* history_share(History* h, Py_ssize_t length) noexcept:
    """Another reference to ``h`` for a clone whose history has ``length`` records (a sole
    owner first forgets what lies past its own history, so the clone may append in place)."""
    if h != NULL:
        if h.refs == 1:
            h.used = length
        h.refs += 1
    return h


def mix64(x: int) -> int:
    """SplitMix64 finaliser of a 64-bit integer."""
    return splitmix64(<uint64_t>(x & 0xFFFFFFFFFFFFFFFF))


def nth_set_bit_of(x: int, k: int) -> int:
    """The index of the ``k``-th (0-based) set bit of the 64-bit ``x`` (the kernels' pick of
    a random legal action from a mask)."""
    cdef uint64_t v = check_seed(x, "x")
    cdef int c = pl_popcount(v)
    cdef int kk = <int>check_int(k, 0, max(c, 1), "k")
    if c == 0:
        raise ArgumentError("x has no set bit")
    return nth_set_bit(v, kk)


def random_below(seed: int, n: int, count: int) -> list:
    """``count`` draws in [0, n) from the core PRNG seeded with ``seed``."""
    if n < 1 or n > 0xFFFFFFFF:
        raise ArgumentError(f"n must be in [1, 2**32), got {shown(n)}")
    cdef Rng r
    rng_seed(&r, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
    return [rng_below(&r, <uint32_t>n) for _ in range(count)]


# ---------------------------------------------------------------------------------------------
# The exact solver's table (plateau.solver asks its questions through GameCore.solver_forces)

#: the deepest question the core's solver takes (its search recurses once per action)
SOLVER_MAX_DEPTH = 1000


cdef inline Py_ssize_t _solver_slot(uint64_t h, int64_t ply, int who, int goal,
                                    Py_ssize_t mask) noexcept:
    return <Py_ssize_t>(splitmix64(h ^ (<uint64_t>ply * <uint64_t>0x9E3779B97F4A7C15)
                                   ^ (<uint64_t>(who * 2 + goal) << 56)) & <uint64_t>mask)


@cython.auto_pickle(False)
cdef class SolverTable:
    """The transposition table and budget of one exact solver (``plateau.solver.Solver`` keeps
    one and passes it to :meth:`GameCore.solver_forces`): per question (position hash, ply,
    player, goal), the largest distance known to fail and the smallest known to succeed. It
    holds at most ``limit`` answers, then is emptied; ``nodes`` counts the positions searched,
    and :meth:`budget` bounds them and the time."""

    def __cinit__(self, *args, **kwargs):
        self.slots = NULL
        self.cap = 0
        self.used = 0
        self.limit = 1
        self.nodes = 0
        self.max_nodes = -1
        self.deadline = 0.0
        self._busy = False

    def __init__(self, limit):
        import time
        self.limit = <Py_ssize_t>check_int(limit, 1, 2**40, "limit")
        self._clock = time.perf_counter

    def __dealloc__(self):
        free(self.slots)

    def __len__(self) -> int:
        return self.used

    def budget(self, max_nodes=None, deadline=None) -> None:
        """Stop searching once ``nodes`` reaches ``max_nodes`` or ``time.perf_counter()``
        passes ``deadline`` (None: no bound)."""
        cdef long long m = -1
        cdef double dl = 0.0
        if max_nodes is not None:
            m = check_int(max_nodes, 0, 2**62, "max_nodes")
        if deadline is not None:
            if isinstance(deadline, bool) or not isinstance(deadline, numbers.Real):
                raise ArgumentError(f"deadline must be a number, got {shown(deadline)}")
            dl = deadline
            if not dl > 0 or dl == float("inf"):
                raise ArgumentError(f"deadline must be > 0 and finite, got {shown(deadline)}")
        self.max_nodes = m
        self.deadline = dl

    def clear(self) -> None:
        """Forget every answer."""
        if self._busy:
            raise RuntimeError("this solver table is in use by a search")
        self._empty()

    cdef void _empty(self) noexcept:
        if self.slots != NULL:
            memset(self.slots, 0, self.cap * sizeof(SolverEntry))
        self.used = 0

    cdef SolverEntry* _find(self, uint64_t h, int64_t ply, int who, int goal) noexcept:
        cdef Py_ssize_t mask = self.cap - 1, i
        cdef SolverEntry* e
        if self.cap == 0:
            return NULL
        i = _solver_slot(h, ply, who, goal, mask)
        while True:
            e = &self.slots[i]
            if not e.full:
                return NULL
            if e.hash == h and e.ply == ply and e.who == who and e.goal == goal:
                return e
            i = (i + 1) & mask

    cdef int _grow(self) except -1:
        cdef Py_ssize_t cap = max(1024, 2 * self.cap), mask = cap - 1, k, i
        cdef SolverEntry* fresh = <SolverEntry*>malloc(cap * sizeof(SolverEntry))
        cdef SolverEntry* e
        if fresh == NULL:
            raise MemoryError("no memory for the solver's table")
        memset(fresh, 0, cap * sizeof(SolverEntry))
        for k in range(self.cap):
            e = &self.slots[k]
            if e.full:
                i = _solver_slot(e.hash, e.ply, e.who, e.goal, mask)
                while fresh[i].full:
                    i = (i + 1) & mask
                fresh[i] = e[0]
        free(self.slots)
        self.slots = fresh
        self.cap = cap
        return 0

    cdef int _store(self, uint64_t h, int64_t ply, int who, int goal, int32_t fail,
                    int32_t succeed) except -1:
        cdef SolverEntry* e
        cdef Py_ssize_t i
        if self.used >= self.limit:
            self._empty()  # (as the pure-Python search empties its dict, even for an update)
        e = self._find(h, ply, who, goal)
        if e == NULL:
            if 2 * (self.used + 1) > self.cap:
                self._grow()
            i = _solver_slot(h, ply, who, goal, self.cap - 1)
            while self.slots[i].full:
                i = (i + 1) & (self.cap - 1)
            e = &self.slots[i]
            e.hash = h
            e.ply = ply
            e.who = <uint8_t>who
            e.goal = <uint8_t>goal
            e.full = 1
            self.used += 1
        e.fail = fail
        e.succeed = succeed
        return 0


# ---------------------------------------------------------------------------------------------
# GameCore: the part of every game's compiled wrapper that does not depend on the game
# ---------------------------------------------------------------------------------------------
cdef object _BOOL = np.bool_
cdef object _FLOAT32 = np.float32
cdef type _NP_INT64_TYPE = np.int64


cdef extern from *:
    """
    #include <numpy/arrayscalars.h>
    /* the value of a numpy.int64 scalar (the caller has checked its exact type) */
    static inline int64_t pl_np_int64_value(PyObject* o) {
        return (int64_t)PyArrayScalar_VAL(o, Int64);
    }
    """
    int64_t np_int64_value "pl_np_int64_value" (object o) noexcept


@cython.auto_pickle(False)  # pickling goes through the game record (GameState.__reduce__)
cdef class GameCore:
    """One game in progress with its undo history (the shared base of the games' compiled
    wrappers). Everything here validates its input before a kernel sees it; the public state
    classes add notation, serialization and views on top."""

    def __cinit__(self, *args, **kwargs):
        self._h = NULL
        self._len = 0
        self._snap_size = sizeof(int32_t)
        self._num_actions = 0
        self._num_players = 1
        self._scratch_bytes = 0
        self._legal_ok = False
        self._det = False
        self._setup = False

    def __dealloc__(self):
        history_release(self._h)

    # -- hooks (a game overrides every one) ---------------------------------------------------
    cdef int _gen(self) except -1:
        raise NotImplementedError
    cdef bint _has(self, long a) noexcept:
        return False
    cdef int _check_one(self, long a) except -2:
        return -1
    cdef int _count(self) noexcept:
        return 0
    cdef void _write_list(self, int64_t* out) noexcept:
        pass
    cdef void _write_mask(self, uint8_t* out) noexcept:
        pass
    cdef long _nth(self, int k) except -1:
        # any game: the whole list, then one entry (a game with a cached list overrides it)
        cdef int64_t* ids = <int64_t*>malloc(max(self._count(), 1) * sizeof(int64_t))
        cdef long a
        if ids == NULL:
            raise MemoryError("no memory for the legal list")
        self._write_list(ids)
        a = ids[k]
        free(ids)
        return a
    cdef void _save(self, char* snap, int a) noexcept:
        (<int32_t*>snap)[0] = a
    cdef void _restore(self, const char* snap) noexcept:
        pass
    cdef void _make(self, int a) noexcept:
        pass
    cdef int _copy_to(self, GameCore other) except -1:
        return 0
    cdef bint _over(self) noexcept:
        return True
    cdef int _mover(self) noexcept:
        return 0
    cdef uint64_t _perft_copy(self, int depth, bint bulk, void* scratch, Work* w) noexcept:
        return 0
    cdef void _playout_copy(self, uint64_t seed, int cap, bint sensible_end, double* out,
                            Work* w) noexcept:
        pass
    cdef void _observe(self, int viewer, float* out) noexcept:
        pass
    cdef tuple _obs_shape(self):
        return (0,)
    cdef long _ply(self) noexcept:
        return 0
    cdef uint64_t _hash(self) noexcept:
        return 0
    cdef void _points(self, float* out) noexcept:
        cdef int p
        for p in range(self._num_players):
            out[p] = 0
    cdef object _pins(self):
        # Everything the position points into that only this state keeps alive (an Empire
        # Plateau board's tables). perft and random_playout hold it for as long as their
        # kernel runs without the GIL: another thread may re-initialise this state meanwhile,
        # and the kernel's private copy must not outlive what it points to.
        return None

    # -- shared machinery ---------------------------------------------------------------------
    cdef int _push(self, int a) except -1:
        """Record the position and apply ``a`` (a legal id)."""
        history_writable(&self._h, self._len, self._snap_size)
        self._save(self._h.data + self._len * self._snap_size, a)
        self._len += 1
        self._h.used = self._len
        self._make(a)
        self._legal_ok = False
        return 0

    cdef int _legal_id(self, long a) except -1:
        """Whether ``a`` (in range) is legal: from the cached list, else from the game's check
        of that one action (``_check_one``), else by listing (into the cache)."""
        cdef int r
        if not self._legal_ok:
            r = self._check_one(a)
            if r >= 0:
                return r
        self._gen()
        return self._has(a)

    cdef int _undo_one(self) noexcept:
        """Take back the last record (there must be one) and return its action id."""
        cdef char* snap
        self._len -= 1
        snap = self._h.data + self._len * self._snap_size
        self._restore(snap)
        self._legal_ok = False
        return (<int32_t*>snap)[0]

    cdef int _solve_node(self, int d, int who, int goal, SolverTable t) except -1:
        """One node of the exact solver's AND/OR search (``solver_forces``): 1 if ``who``
        forces the goal within ``d`` actions, 0 if not, 2 if the budget ran out; the position
        is restored however it returns (an exception included)."""
        cdef float pts[PLAYOUT_MAX_PLAYERS]
        cdef float best = -1e30
        cdef int q, n, i, got = 0, result
        cdef bint mine
        cdef SolverEntry* e
        cdef int32_t fail = 0, succeed = 1 << 30
        cdef uint64_t h
        cdef int64_t ply
        cdef Py_ssize_t start
        cdef int64_t* ids
        if self._over():
            self._points(pts)
            for q in range(self._num_players):
                if q != who and pts[q] > best:
                    best = pts[q]
            return (pts[who] > best) if goal else (pts[who] >= best)
        if d <= 0:
            return 0
        h = self._hash()
        ply = self._ply()
        e = t._find(h, ply, who, goal)
        if e != NULL:
            if e.succeed <= d:
                return 1
            if e.fail >= d:
                return 0
            fail = e.fail
            succeed = e.succeed
        if t.max_nodes >= 0 and t.nodes >= t.max_nodes:
            return 2
        t.nodes += 1
        if not t.nodes & 1023:
            if t.deadline > 0 and t._clock() > t.deadline:
                return 2
            if _check_signals() != 0:
                return -1          # a signal handler raised (Ctrl-C): it is pending
            with nogil:            # let other threads run, as the interpreter would
                pass
        mine = self._mover() == who
        result = not mine
        self._gen()
        n = self._count()
        ids = <int64_t*>malloc(max(n, 1) * sizeof(int64_t))
        if ids == NULL:
            raise MemoryError("no memory for the solver's legal list")
        self._write_list(ids)
        start = self._len
        try:
            for i in range(n):
                self._push(<int>ids[i])
                try:
                    got = self._solve_node(d - 1, who, goal, t)
                finally:
                    while self._len > start:
                        self._undo_one()
                if got == 2:
                    return 2
                if got == mine:  # an action that proves an OR node, a reply refuting an AND
                    result = mine
                    break
        finally:
            free(ids)
        if result:
            t._store(h, ply, who, goal, fail, min(succeed, d))
        else:
            t._store(h, ply, who, goal, max(fail, d), succeed)
        return result

    def solver_forces(self, d, who, goal, SolverTable table not None):
        """Whether player ``who`` can force, within ``d`` actions (at most
        ``SOLVER_MAX_DEPTH``), a finished game in which it is first alone (``goal`` 1) or
        first at all (``goal`` 0): True or False, or None once ``table``'s budget ran out.
        One question of ``plateau.solver``'s search, asked of a private copy (this state is
        unchanged), with the answers kept in ``table``."""
        cdef int dd = <int>check_int(d, 0, SOLVER_MAX_DEPTH + 1, "d")
        cdef int w = self._check_player(who)
        cdef int g = <int>check_int(goal, 0, 2, "goal")
        cdef int r
        cdef GameCore work
        if table._busy:
            raise RuntimeError("this solver table is in use by another search")
        work = self.clone()
        table._busy = True
        try:
            r = work._solve_node(dd, w, g, table)
        finally:
            table._busy = False
        return None if r == 2 else r == 1

    def _final_points(self) -> list:
        """Each player's points by place as the core counts them (the solver's view of a
        finished game; ``returns()`` once the game is over)."""
        cdef float pts[PLAYOUT_MAX_PLAYERS]
        self._points(pts)
        return [pts[p] for p in range(self._num_players)]

    cdef int _check_player(self, object p) except -1:
        return <int>check_int(p, 0, self._num_players, "player")

    cdef int _reset_history(self) except -1:
        """Forget the history (a new start or set-up position)."""
        history_release(self._h)
        self._h = NULL
        self._len = 0
        self._legal_ok = False
        self._det = False
        return 0

    # -- the state API ------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._num_players

    @property
    def ply(self) -> int:
        """Plies played since the game began (a set-up position says its own)."""
        return self._ply()

    @property
    def hash(self) -> int:
        """64-bit key of the position, not of the way it was reached (each game's docs say
        what it leaves out)."""
        return self._hash()

    @property
    def observation_shape(self) -> tuple:
        """Shape of :meth:`observation_tensor` (each game's docs give its planes)."""
        return self._obs_shape()

    @property
    def num_distinct_actions(self) -> int:
        return self._num_actions

    @property
    def current_player(self) -> int:
        """The player who must act, or -1 once the game is over."""
        return -1 if self._over() else self._mover()

    def is_terminal(self) -> bool:
        return self._over()

    @property
    def is_determinization(self) -> bool:
        """True for a state made by ``resample_hidden`` (sampled hidden information, no
        history)."""
        return self._det

    @property
    def history(self) -> list:
        """The applied action ids, oldest first (a copy)."""
        cdef char* data = self._h.data if self._h != NULL else NULL
        return [(<int32_t*>(data + i * self._snap_size))[0] for i in range(self._len)]

    def legal_actions(self):
        """The legal action ids, ascending, as a numpy int64 array."""
        cdef int64_t* data
        cdef int n, tries = 0
        while True:
            self._gen()
            n = self._count()
            out = new_id_array(n, &data)
            self._gen()                 # (see _array_moved: no Python runs from here on)
            if self._count() == n:
                break
            _array_moved(&tries)
        self._write_list(data)
        return out

    def legal_actions_mask(self):
        """A bool array of length ``num_distinct_actions``, True at the legal action ids."""
        cdef void* data
        cdef int n, tries = 0
        while True:
            n = self._num_actions
            out = new_array(n, _BOOL, True, &data)
            if self._num_actions == n:
                break
            _array_moved(&tries)
        self._gen()
        self._write_mask(<uint8_t*>data)
        return out

    def num_legal_actions(self) -> int:
        self._gen()
        return self._count()

    def is_legal(self, a) -> bool:
        """Whether ``a`` (an int or numpy integer id, or notation) names a legal action; any
        other value gives False."""
        if type(a) is not int:
            if isinstance(a, str):
                return self._is_legal_text(a)
            if isinstance(a, bool) or not isinstance(a, numbers.Integral):
                return False
            a = operator.index(a)
        if not 0 <= a < self._num_actions:
            return False
        return self._legal_id(a) == 1

    def apply(self, a) -> None:
        """Apply a legal action, given as an int id or a notation string."""
        cdef long ai
        cdef int64_t v
        if type(a) is _NP_INT64_TYPE:
            # an entry of legal_actions(): its value read in place (int(a) would make an int)
            v = np_int64_value(a)
            if 0 <= v < self._num_actions and self._legal_id(<long>v):
                self._push(<int>v)
                return
        elif type(a) is int:
            try:
                ai = a
            except OverflowError:
                ai = -1
            if 0 <= ai < self._num_actions and self._legal_id(ai):
                self._push(ai)
                return
        self._apply_other(a)

    def apply_index(self, k) -> int:
        """Apply the action at index ``k`` of ``legal_actions()`` and return its id: the
        Python loop's fast path, with no array built (``s.apply_index(random.randrange(
        s.num_legal_actions()))`` plays a uniformly random legal action). ``k`` is any
        integral type but bool; ArgumentError unless ``0 <= k < num_legal_actions()``
        (IllegalActionError once the game is over: there is no legal action)."""
        cdef int n
        cdef long ki = -1, a
        self._gen()
        n = self._count()
        if n == 0 or self._over():
            raise IllegalActionError(f"apply_index({shown(k)}): the game is over")
        if type(k) is int:
            try:
                ki = k
            except OverflowError:
                ki = -1
        if not 0 <= ki < n:
            ki = check_int(k, 0, n, f"the index of one of the {n} legal actions")
            # (reading ``k`` may have run Python, e.g. its ``__index__``: another thread may
            # have played on meanwhile, so the index is checked again against the list now)
            self._gen()
            n = self._count()
            if n == 0 or self._over():
                raise IllegalActionError(f"apply_index({shown(k)}): the game is over")
            if ki >= n:
                raise ArgumentError(f"the index of one of the {n} legal actions must be an "
                                    f"int in [0, {n}), got {ki} (the game changed meanwhile)")
        a = self._nth(<int>ki)
        self._push(a)
        return a

    def _is_legal_text(self, text) -> bool:
        """``is_legal`` of a string: False here (the core reads no notation); the Python layer
        overrides this hook to read the game's notation."""
        return False

    def _apply_other(self, a) -> None:
        """What ``apply`` does with anything but a legal int (or int64) id: apply any other
        integer type's legal id, refuse the rest (InvalidActionError: not an id of the game;
        IllegalActionError: not legal here). The Python layer overrides this hook to read
        notation as well and to say why an action is illegal."""
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, numbers.Integral):
            raise InvalidActionError(
                f"an action is an int id, got {shown(a)} ({type(a).__name__})")
        i = operator.index(a)
        if not 0 <= i < self._num_actions:
            raise InvalidActionError(f"action id {shown(i)} out of range [0, {self._num_actions})")
        if self._over():
            raise IllegalActionError(f"{shown(i)}: the game is over")
        if not self._legal_id(i):
            raise IllegalActionError(f"{shown(i)} is illegal")
        self._push(i)

    def undo(self) -> int:
        """Take back the last action and return its id."""
        if self._len == 0:
            if self._det:
                raise NothingToUndoError("nothing to undo: a determinization has no history")
            raise NothingToUndoError("nothing to undo: no action has been applied")
        return self._undo_one()

    def clone(self):
        """An independent copy, history included (shared copy-on-write)."""
        cdef GameCore other = type(self).__new__(type(self))
        other._h = history_share(self._h, self._len)
        other._len = self._len
        other._det = self._det
        other._setup = self._setup
        other._legal_ok = False
        self._copy_to(other)
        return other

    def perft(self, depth, bulk=True) -> int:
        """Leaves ``depth`` actions below this position (``depth`` below 64). ``bulk`` counts
        the last ply from the legal list instead of making each leaf; both give the same
        count. Counts on a private copy with the GIL released: other threads may use this
        game meanwhile; Ctrl-C stops it."""
        cdef int d = check_depth(depth)
        cdef bint bk = check_flag(bulk, "bulk")
        cdef uint64_t r
        cdef Work w = Work(0, False)
        cdef object pins = self._pins()    # alive until the count returns (see _pins)
        cdef void* scratch = malloc(max(d, 1) * self._scratch_bytes)
        if scratch == NULL:
            raise MemoryError("no memory for perft's scratch space")
        try:
            r = self._perft_copy(d, bk, scratch, &w)
        finally:
            free(scratch)
        if w.stop:
            raise_pending()
        return r

    def random_playout(self, seed=0, ply_cap=400, sensible_end=False) -> list:
        """Returns per player after finishing the game from here with random actions, at
        most ``ply_cap`` of them (None: no cap), in C with the GIL released; the state itself
        is unchanged. A game still running at the cap scores as the game's docs say (its
        ranking at that moment, or a draw). With ``sensible_end``, in a game with an End
        action, a player who may End does so exactly when alone in first place."""
        cdef uint64_t seed64 = check_seed(seed, "seed")
        cdef int cap = check_ply_cap(ply_cap)
        cdef bint sensible = check_flag(sensible_end, "sensible_end")
        cdef double out[4]
        cdef Work w = Work(0, False)
        cdef object pins = self._pins()    # alive until the game returns (see _pins)
        # (the players of the position copied now: another thread may re-initialise this
        # state as another variant while the kernel runs on the copy)
        cdef int n = self._num_players
        self._playout_copy(seed64, cap, sensible, out, &w)
        if w.stop:
            raise_pending()
        return [out[p] for p in range(n)]

    def observation_tensor(self, player=None):
        """Observation planes (float32, ``observation_shape``) of what ``player`` may see
        (default: the player to act, player 0 once the game is over); layouts in the docs."""
        cdef void* data
        cdef int viewer = -1, tries = 0
        if player is not None:
            viewer = self._check_player(player)
        while True:
            shape = self._obs_shape()
            out = new_array(shape, _FLOAT32, True, &data)
            if self._obs_shape() == shape:
                break
            _array_moved(&tries)
        # (from here on no Python runs: the position is the one the array was sized for)
        if viewer < 0:
            viewer = 0 if self._over() else self._mover()
        elif viewer >= self._num_players:
            raise ArgumentError(f"player must be an int in [0, {self._num_players}), got {shown(player)}")
        self._observe(viewer, <float*>data)
        return out


@cython.auto_pickle(False)
cdef class ListCore(GameCore):
    """A ``GameCore`` whose legal actions are cached as a list of ids."""

    def __cinit__(self, *args, **kwargs):
        self._legal = NULL
        self._nlegal = 0
        self._legal_cap = 0
        self._narrow = False

    def __dealloc__(self):
        free(self._legal)

    cdef int _legal_fit(self, int n) except -1:
        cdef int cap
        cdef void* grown
        if n > self._legal_cap:
            cap = max(n, 64)
            grown = realloc(self._legal, cap * (sizeof(uint16_t) if self._narrow
                                                else sizeof(int32_t)))
            if grown == NULL:
                raise MemoryError()
            self._legal = grown
            self._legal_cap = cap
        return 0

    cdef int _store_legal(self, const int32_t* ids, int n) except -1:
        cdef int i
        cdef uint16_t* narrow
        self._legal_fit(n)
        if self._narrow:
            narrow = <uint16_t*>self._legal
            for i in range(n):
                narrow[i] = <uint16_t>ids[i]
        elif n > 0:
            memcpy(self._legal, ids, n * sizeof(int32_t))
        self._nlegal = n
        self._legal_ok = True
        return 0

    cdef int _store_legal16(self, const uint16_t* ids, int n) except -1:
        cdef int i
        cdef int32_t* wide
        self._legal_fit(n)
        if not self._narrow:
            wide = <int32_t*>self._legal
            for i in range(n):
                wide[i] = ids[i]
        elif n > 0:
            memcpy(self._legal, ids, n * sizeof(uint16_t))
        self._nlegal = n
        self._legal_ok = True
        return 0

    cdef int _copy_legal_to(self, ListCore other) except -1:
        # (from a game's _copy_to) a clone of a position whose list is cached keeps the list:
        # the common clone-then-apply of a search looks its action up instead of listing all
        if self._legal_ok:
            if self._narrow:
                other._store_legal16(<const uint16_t*>self._legal, self._nlegal)
            else:
                other._store_legal(<const int32_t*>self._legal, self._nlegal)
        return 0

    cdef bint _has(self, long a) noexcept:
        # (a is an id of the game: in range, so a narrow list's int holds it)
        if self._narrow:
            return ids_contain(<const uint16_t*>self._legal, self._nlegal, <int>a)
        return ids_contain32(<const int32_t*>self._legal, self._nlegal, a)

    cdef int _count(self) noexcept:
        return self._nlegal

    cdef void _write_list(self, int64_t* out) noexcept:
        cdef int i
        cdef const uint16_t* narrow = <const uint16_t*>self._legal
        cdef const int32_t* wide = <const int32_t*>self._legal
        if self._narrow:
            for i in range(self._nlegal):
                out[i] = narrow[i]
        else:
            for i in range(self._nlegal):
                out[i] = wide[i]

    cdef void _write_mask(self, uint8_t* out) noexcept:
        cdef int i
        cdef const uint16_t* narrow = <const uint16_t*>self._legal
        cdef const int32_t* wide = <const int32_t*>self._legal
        if self._narrow:
            for i in range(self._nlegal):
                out[narrow[i]] = 1
        else:
            for i in range(self._nlegal):
                out[wide[i]] = 1

    cdef long _nth(self, int k) except -1:
        if self._narrow:
            return (<const uint16_t*>self._legal)[k]
        return (<const int32_t*>self._legal)[k]
