"""Empire Plateau kernel: board tables, move generation (self-avoiding walks with pruning), make,
Zobrist hash, perft, random playouts, returns, observation planes and the heuristic's values over
a flat C struct, plus ``EmpireCore``, the thin validated wrapper the Python package builds its
public state class on.

Rules: ``docs/rules/empire-plateau.md``. Action ids, planes and the library's decisions:
``docs/empire-plateau.md``. The board is data (``plateau.games.empire.board``): the kernel reads
only its tables (neighbours by direction, bases, starting dots), loaded once per board into an
``EmpireTables`` that every state on that board points to.

Kernels never raise and never check their input; ``EmpireTables`` and ``EmpireCore`` check
everything first. A kernel file reads top-down: tables, keys, generation, make, queries, search.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize

from plateau_core._common cimport (
    GameCore, ListCore, Rng, Work, rng_seed, rng_below, splitmix64, pl_ctz, pl_popcount, check_int,
    check_seed, work_tick, raise_pending, ids_contain32, new_id_array, NODE_TICKS, PLY_TICKS,
    shared_points, Playout, run_playouts,
)

cdef extern from *:
    int __builtin_clz(unsigned int x) nogil

cdef extern from "bytes16.h" nogil:
    # sixteen bytes at a time where the CPU has SSE2; each returns the bytes it did (0 without)
    int pl_class_bytes(const uint8_t* army, uint8_t* cls, int n, const uint8_t* lo, int nlo)
    int pl_find_bytes(const uint8_t* army, int n, int lo, int16_t* dots, int cap, int* count)
    int pl_byte_bits(const uint8_t* bytes, int n, uint8_t a, uint8_t b, uint64_t* eq_a,
                     uint64_t* eq_b)

cdef extern from "Python.h":
    # declared without an exception value: the MemoryError stays pending for the wrapper
    void* _no_memory "PyErr_NoMemory" ()

import numpy as np
from plateau_core import _common as _c   # (ArgumentError: the argument errors' class)


# ---------------------------------------------------------------------------------------------
# Variants and material
# ---------------------------------------------------------------------------------------------

#: name, players, owner of each Empire in EMPIRES order (B, G, M, R; -1 = not in play)
VARIANTS = (
    ("two", 2, (0, 1, 0, 1)),
    ("four", 4, (0, 1, 2, 3)),
    ("duel", 2, (0, -1, 1, -1)),
    ("three", 3, (0, 1, 0, 2)),     # [RB] tips: Advanced Plateau for three, B + M allied
)
#: points by place, per number of players (tied players share the points of their places)
POINTS = {2: (1.0, 0.0), 3: (3.0, 1.0, 0.0), 4: (4.0, 2.0, 1.0, 0.0)}
#: army types in id order, their most steps in one move and how many an Empire has
TYPES = ("E", "6", "4", "2")
VALUE = (12, 6, 4, 2)
COUNT = (1, 2, 4, 12)

cdef int C_VALUE[4]
C_VALUE[:] = [12, 6, 4, 2]
cdef int C_COUNT[4]
C_COUNT[:] = [1, 2, 4, 12]
#: material of each type for the heuristic (the Emblem carries the long turns)
cdef double C_WORTH[4]
C_WORTH[:] = [15.0, 6.0, 4.0, 2.0]
cdef float C_POINTS[5][4]
C_POINTS[2][:] = [1.0, 0.0, 0.0, 0.0]
C_POINTS[3][:] = [3.0, 1.0, 0.0, 0.0]
C_POINTS[4][:] = [4.0, 2.0, 1.0, 0.0]

cdef EmpireState _probe
#: bytes of the header of a position (everything but the armies)
HEADER_BYTES = <Py_ssize_t>(<char*>&_probe.army[0] - <char*>&_probe)


cdef inline int _round8(int n) noexcept nogil:
    return (n + 7) & ~7


# ---------------------------------------------------------------------------------------------
# Board tables
# ---------------------------------------------------------------------------------------------

# An empty board (no dot): what a core holds before it is given a board. Every kernel is safe
# on it (nothing to move; End is the only action and draws at once).
cdef EmpireBoard _EMPTY


cdef void _init_empty() noexcept:
    memset(&_EMPTY, 0, sizeof(EmpireBoard))
    _EMPTY.ndots = 0
    _EMPTY.bipartite = 1
    _EMPTY.rows = 1
    _EMPTY.cols = 1
    _EMPTY.state_bytes = _round8(HEADER_BYTES)
    _EMPTY.max_legal = 1
    _EMPTY.base_free = 0
    _EMPTY.end_id = 0
    _EMPTY.num_actions = 1
    for e in range(4):
        _EMPTY.base_dot[e] = -1


_init_empty()


@cython.auto_pickle(False)
cdef class EmpireTables:
    """One board's tables in C (neighbours, bases, starting dots, observation cells), built once
    and shared read-only by every state on the board. Built from the arrays of a validated
    ``empire_board.Board``; the arrays are checked again here, so that nothing out of range can
    reach a kernel."""

    def __cinit__(self, str name, const int16_t[:, ::1] neighbours, const int8_t[::1] bases,
                  const int8_t[:, ::1] layout, const int32_t[::1] cells, int rows, int cols):
        self.bd = NULL
        cdef int D = neighbours.shape[0], d, k, e, t, j
        if not 0 < D <= EMPIRE_MAX_DOTS:
            raise _c.ArgumentError(f"a board has 1 to {EMPIRE_MAX_DOTS} dots, got {D}")
        if neighbours.shape[1] != 4 or bases.shape[0] != D or layout.shape[0] != D \
                or layout.shape[1] != 2 or cells.shape[0] != D:
            raise _c.ArgumentError("board arrays of inconsistent shapes")
        if not (rows >= 1 and cols >= 1 and rows * cols <= 1 << 20):
            raise _c.ArgumentError(f"bad observation plane {rows} x {cols}")
        self.bd = <EmpireBoard*>calloc(1, sizeof(EmpireBoard))
        if self.bd == NULL:
            raise MemoryError()
        bd = self.bd
        bd.ndots = D
        bd.rows = rows
        bd.cols = cols
        for e in range(4):
            bd.base_dot[e] = -1
        for d in range(D):
            for k in range(4):
                j = neighbours[d, k]
                if not -1 <= j < D or j == d:
                    raise _c.ArgumentError(f"dot {d}: neighbour {j} out of range")
                bd.nb[d][k] = j
            e = bases[d]
            if not -1 <= e < 4:
                raise _c.ArgumentError(f"dot {d}: base {e} out of range")
            bd.base_emp[d] = e
            if e >= 0:
                if bd.base_dot[e] >= 0:
                    raise _c.ArgumentError(f"Empire {e} has two bases")
                bd.base_dot[e] = d
            if not 0 <= cells[d] < rows * cols:
                raise _c.ArgumentError(f"dot {d}: observation cell {cells[d]} out of range")
            bd.cell[d] = cells[d]
            e, t = layout[d, 0], layout[d, 1]
            if e == -1 and t == -1:
                continue
            if not (0 <= e < 4 and 0 <= t < 4):
                raise _c.ArgumentError(f"dot {d}: bad starting army ({e}, {t})")
            if bd.nstarts[e][t] >= C_COUNT[t]:
                raise _c.ArgumentError(f"Empire {e} has too many starting dots of type {TYPES[t]}")
            bd.starts[e][t][bd.nstarts[e][t]] = d    # ascending: dots are visited in order
            bd.nstarts[e][t] += 1
        for d in range(D):
            for k in range(4):
                j = bd.nb[d][k]
                if j >= 0 and bd.nb[j][k ^ 1] != d:
                    raise _c.ArgumentError(f"dot {d}: neighbours are not symmetric")
        for e in range(4):
            if bd.base_dot[e] < 0:
                raise _c.ArgumentError(f"Empire {e} has no base")
            for t in range(4):
                if bd.nstarts[e][t] != C_COUNT[t]:
                    raise _c.ArgumentError(f"Empire {e} has {bd.nstarts[e][t]} starting dots of "
                                     f"type {TYPES[t]}, not {C_COUNT[t]}")
            if bd.starts[e][EMPIRE_T_E][0] != bd.base_dot[e]:
                raise _c.ArgumentError(f"Empire {e}'s Emblem does not start on its base")
        bd.bipartite = _two_colourable(bd)
        bd.words = (D + 63) >> 6
        bd.ball = <uint64_t*>calloc(D * 13 * bd.words, sizeof(uint64_t))
        if bd.ball == NULL:
            raise MemoryError()
        _fill_balls(bd)
        # (LANE_WORDS words of padding: the word-parallel walk reads LANE_WORDS from any row)
        bd.nbm = <uint64_t*>calloc(D * bd.words + LANE_WORDS, sizeof(uint64_t))
        if bd.nbm == NULL:
            raise MemoryError()
        for d in range(D):
            for k in range(4):
                j = bd.nb[d][k]
                if j >= 0:
                    bd.nbm[d * bd.words + (j >> 6)] |= (<uint64_t>1) << (j & 63)
        _find_lanes(bd)
        bd.state_bytes = _round8(HEADER_BYTES + D)
        bd.base_free = D * D * EMPIRE_COSTS
        bd.end_id = bd.base_free + EMPIRE_TYPES * D
        bd.num_actions = bd.end_id + 1
        # a move is (from, to, n); per destination an Empire's 19 armies have at most
        # 12 + 2 * 6 + 4 * 4 + 12 * 2 = 64 costs; then frees and End
        bd.max_legal = 64 * D + EMPIRE_TYPES * D + 1
        self.name = name

    def __dealloc__(self):
        if self.bd != NULL:
            free(self.bd.ball)
            free(self.bd.nbm)
        free(self.bd)

    @property
    def ndots(self) -> int:
        return self.bd.ndots

    @property
    def num_actions(self) -> int:
        return self.bd.num_actions

    @property
    def lane(self) -> int:
        """S if every dot's neighbours are its bit shifted on lanes of S bits (the Emblem's
        search then uses the word-parallel test), else 0."""
        return self.bd.lane

    @property
    def bipartite(self) -> bool:
        """Whether every path between two given dots has the same parity (the shipped boards)."""
        return bool(self.bd.bipartite)

    @property
    def plane(self) -> tuple:
        """``(rows, cols)`` of an observation plane."""
        return (self.bd.rows, self.bd.cols)

    @property
    def max_legal(self) -> int:
        return self.bd.max_legal


cdef void _fill_balls(EmpireBoard* bd) noexcept:
    """ball[v][r]: the dots within r steps of v on the bare board (a breadth-first search from
    every dot)."""
    cdef int D = bd.ndots, W = bd.words, v, r, head, tail, c, k, j, level_end
    cdef int16_t* queue = <int16_t*>malloc(D * sizeof(int16_t))
    cdef int8_t* dist = <int8_t*>malloc(D)
    cdef uint64_t* ball
    if queue == NULL or dist == NULL:
        free(queue)
        free(dist)
        for v in range(D):          # no memory for the search: every ball is the whole board
            for r in range(13):
                for j in range(D):
                    bd.ball[(v * 13 + r) * W + (j >> 6)] |= (<uint64_t>1) << (j & 63)
        return
    for v in range(D):
        memset(dist, -1, D)
        dist[v] = 0
        queue[0] = v
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            if dist[c] >= 12:
                continue
            for k in range(4):
                j = bd.nb[c][k]
                if j >= 0 and dist[j] < 0:
                    dist[j] = dist[c] + 1
                    queue[tail] = j
                    tail += 1
        for head in range(tail):
            c = queue[head]
            for r in range(dist[c], 13):
                bd.ball[(v * 13 + r) * W + (c >> 6)] |= (<uint64_t>1) << (c & 63)
    free(queue)
    free(dist)


# The word-parallel search is compiled twice, by the fused type ``Lanes`` that each of its
# functions takes as a first argument (always NULL: only its type is read): ``Lanes16`` for a
# board of lanes S = 16 and at most 3 words of dots (ep16: 16 spokes, 176 dots), where the shift
# and the word count are constants the compiler unrolls and folds, and ``LanesAny`` for every
# other board with lanes (S and ``lane0`` read from the board, LANE_WORDS words).
ctypedef struct Lanes16:
    char unused


ctypedef struct LanesAny:
    char unused


ctypedef fused Lanes:
    Lanes16
    LanesAny


cdef inline int _nwords(Lanes* L) noexcept nogil:
    """The words of a bitset the search of ``L`` works on."""
    if Lanes is Lanes16:
        return 3
    else:
        return LANE_WORDS


cdef inline int _lane(Lanes* L, const EmpireBoard* bd) noexcept nogil:
    if Lanes is Lanes16:
        return 16
    else:
        return bd.lane


cdef inline uint64_t _lane0(Lanes* L, const EmpireBoard* bd) noexcept nogil:
    if Lanes is Lanes16:
        return <uint64_t>0x0001000100010001
    else:
        return bd.lane0


cdef inline uint64_t _out_word(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                               int j) noexcept nogil:
    """Word j of x moved one ring out (+S) on a board with ``lane`` S (dot ring * S + spoke)."""
    cdef int S = _lane(L, bd)
    cdef uint64_t prev = x[j - 1] if j > 0 else 0
    return prev if S == 64 else (x[j] << S) | (prev >> (64 - S))


cdef inline uint64_t _in_word(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                              int j) noexcept nogil:
    """Word j of x moved one ring in (-S)."""
    cdef int S = _lane(L, bd)
    cdef uint64_t nxt = x[j + 1] if j + 1 < _nwords(L) else 0
    return nxt if S == 64 else (x[j] >> S) | (nxt << (64 - S))


cdef inline uint64_t _up_word(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                              int j) noexcept nogil:
    """Word j of x moved one spoke up its ring (a rotation by 1 within each lane of S bits)."""
    cdef uint64_t L0 = _lane0(L, bd)
    return ((x[j] << 1) & ~L0) | ((x[j] >> (_lane(L, bd) - 1)) & L0)


cdef inline uint64_t _down_word(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                                int j) noexcept nogil:
    """Word j of x moved one spoke down its ring."""
    cdef uint64_t LS = _lane0(L, bd) << (_lane(L, bd) - 1)
    return ((x[j] >> 1) & ~LS) | ((x[j] << (_lane(L, bd) - 1)) & LS)


cdef inline void _expand(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                         uint64_t* y) noexcept nogil:
    """y = the neighbours of the dots of x, by word operations: on a board with ``lane`` S the
    dot ring * S + spoke has the neighbours +-S (out, in) and the next and previous spoke on its
    ring (a rotation within its lane of S bits). Bitsets of _nwords(L) words; bits past the last
    dot may be set."""
    cdef int j
    for j in range(_nwords(L)):
        y[j] = _out_word(L, bd, x, j) | _in_word(L, bd, x, j) | _up_word(L, bd, x, j) \
            | _down_word(L, bd, x, j)


cdef void _find_lanes(EmpireBoard* bd) noexcept:
    """Set ``lane`` to the first S in 16, 32, 64 for which _expand gives every dot exactly its
    neighbours (else 0): checked dot by dot, so a board that only looks polar never uses it.
    Only boards of up to 64 * LANE_WORDS dots."""
    cdef int D = bd.ndots, S, d, j, k, u, ok
    cdef uint64_t x[LANE_WORDS]
    cdef uint64_t y[LANE_WORDS]
    cdef uint64_t want[LANE_WORDS]
    cdef uint64_t valid
    bd.lane = 0
    bd.lane0 = 0
    if D > 64 * LANE_WORDS:
        return
    for S in (16, 32, 64):
        bd.lane = S
        bd.lane0 = 0
        for j in range(0, 64, S):
            bd.lane0 |= (<uint64_t>1) << j
        ok = 1
        for d in range(D):
            memset(x, 0, sizeof(x))
            memset(want, 0, sizeof(want))
            x[d >> 6] = (<uint64_t>1) << (d & 63)
            for k in range(4):
                u = bd.nb[d][k]
                if u >= 0:
                    want[u >> 6] |= (<uint64_t>1) << (u & 63)
            _expand(<LanesAny*>NULL, bd, x, y)
            for j in range(LANE_WORDS):
                valid = ~(<uint64_t>0) if D >= (j + 1) * 64 else \
                    ((<uint64_t>1) << (D - j * 64)) - 1 if D > j * 64 else 0
                if (y[j] & valid) != want[j]:
                    ok = 0
            if not ok:
                break
        if ok:
            return
    bd.lane = 0
    bd.lane0 = 0


cdef int _two_colourable(const EmpireBoard* bd) noexcept:
    """1 if the board's graph is bipartite (BFS 2-colouring), else 0."""
    cdef int D = bd.ndots, d, head, tail, c, k, j
    cdef int8_t* colour = <int8_t*>malloc(D)
    cdef int16_t* queue = <int16_t*>malloc(D * sizeof(int16_t))
    cdef int ok = 1
    if colour == NULL or queue == NULL:
        free(colour)
        free(queue)
        return 0
    memset(colour, -1, D)
    for d in range(D):
        if colour[d] >= 0:
            continue
        colour[d] = 0
        queue[0] = d
        head, tail = 0, 1
        while head < tail and ok:
            c = queue[head]
            head += 1
            for k in range(4):
                j = bd.nb[c][k]
                if j < 0:
                    continue
                if colour[j] < 0:
                    colour[j] = 1 - colour[c]
                    queue[tail] = j
                    tail += 1
                elif colour[j] == colour[c]:
                    ok = 0
    free(colour)
    free(queue)
    return ok


include "kernel.pxi"


# ---------------------------------------------------------------------------------------------
# Module functions for the Python layer
# ---------------------------------------------------------------------------------------------

cdef const int8_t* _variant_owner(int variant, int8_t* owner) noexcept:
    cdef int e
    for e in range(4):
        owner[e] = VARIANTS[variant][2][e]
    return owner


ctypedef struct EmpirePlayoutCtx:
    const EmpireBoard* bd
    int8_t owner[4]
    int players
    int limit
    int32_t* buf                # room for a legal list


cdef void _po_start(Playout* p) noexcept nogil:
    cdef const EmpirePlayoutCtx* c = <const EmpirePlayoutCtx*>p.ctx
    cdef EmpireState* st = <EmpireState*>p.state
    empire_init(st, c.bd, c.owner, c.players)
    st.turn_limit = c.limit


cdef long long _po_play(Playout* p, Rng* r, int cap, Work* w) noexcept nogil:
    return empire_random_game(<EmpireState*>p.state, r, cap,
                              (<const EmpirePlayoutCtx*>p.ctx).buf, w)


cdef bint _po_ended(const Playout* p) noexcept nogil:
    return (<const EmpireState*>p.state).result != EMPIRE_RUNNING


cdef void _po_standing(const Playout* p, uint64_t* keys) noexcept nogil:
    # points by place (shared places split them): equal points, equal keys
    cdef float pts[4]
    cdef int k
    empire_returns(<const EmpireState*>p.state, pts)
    for k in range(p.players):
        keys[k] = <uint64_t>((pts[k] + 64.0) * 1048576.0 + 0.5)


def random_playouts(EmpireTables tables not None, variant, n, seed=0, ply_cap=400, turn_limit=0):
    """Play ``n`` uniformly random games from the start in C (GIL released); game ``i`` uses
    seed ``seed + i``, with the ``turn_limit`` option (the game ends after that many Empire
    turns, 0 for none), counted by the shared loop (``_common.run_playouts``: ``games``,
    ``plies``, ``ended``, ``wins``, ``draws``; a game cut at ``ply_cap`` is neither)."""
    cdef int v = check_int(variant, 0, len(VARIANTS), "variant index")
    cdef long long games = check_int(n, 0, 1 << 62, "n")
    cdef uint64_t sd = check_seed(seed, "seed")
    cdef int cap = check_int(ply_cap, 0, 1 << 31, "ply_cap")
    cdef EmpirePlayoutCtx ctx
    cdef Playout p
    cdef EmpireState* st
    ctx.limit = check_int(turn_limit, 0, 1 << 30, "turn_limit")
    ctx.bd = tables.bd
    ctx.players = VARIANTS[v][1]
    _variant_owner(v, ctx.owner)
    st = <EmpireState*>malloc(ctx.bd.state_bytes)
    ctx.buf = <int32_t*>malloc(ctx.bd.max_legal * sizeof(int32_t))
    if st == NULL or ctx.buf == NULL:
        free(st)
        free(ctx.buf)
        raise MemoryError()
    p.state = st
    p.ctx = &ctx
    p.players = ctx.players
    p.start = _po_start
    p.play = _po_play
    p.ended = _po_ended
    p.standing = _po_standing
    try:
        return run_playouts(&p, games, sd, cap)
    finally:
        free(st)
        free(ctx.buf)


# ---------------------------------------------------------------------------------------------
# EmpireCore: one game in progress, with its undo history
# ---------------------------------------------------------------------------------------------

# A growable id buffer for generation under the GIL (legal lists are copied into each state's
# own, right-sized cache). Only code that holds the GIL throughout uses it.
cdef int32_t* _SCRATCH = NULL
cdef Py_ssize_t _SCRATCH_LEN = 0


cdef int32_t* _scratch(Py_ssize_t n) except NULL:
    global _SCRATCH, _SCRATCH_LEN
    cdef int32_t* grown
    if n > _SCRATCH_LEN:
        grown = <int32_t*>realloc(_SCRATCH, n * sizeof(int32_t))
        if grown == NULL:
            raise MemoryError()
        _SCRATCH = grown
        _SCRATCH_LEN = n
    return _SCRATCH


@cython.auto_pickle(False)  # pickling goes through the game record (GameState.__reduce__)
cdef class EmpireCore(ListCore):
    """An Empire Plateau position with its history (the shared machinery is ``GameCore``'s).
    The public class ``plateau.EmpirePlateauState`` adds notation, set-ups, serialization and
    the diagram; everything here validates its input before a kernel sees it."""

    cdef EmpireState* s
    cdef Py_ssize_t _s_cap          # bytes allocated at s
    cdef EmpireTables _tables       # keeps the board tables that s points to alive
    cdef int _variant

    def __cinit__(self, *args, **kwargs):
        self._variant = 0
        self._tables = None
        self._s_cap = _EMPTY.state_bytes
        self.s = <EmpireState*>calloc(1, self._s_cap)
        if self.s == NULL:
            raise MemoryError()
        cdef int8_t none[4]
        none[:] = [-1, -1, -1, -1]
        empire_init(self.s, &_EMPTY, none, 1)
        self._set_sizes()

    def __dealloc__(self):
        free(self.s)

    cdef void _set_sizes(self) noexcept:
        cdef const EmpireBoard* bd = self.s.bd
        self._snap_size = _round8(sizeof(int64_t) + bd.state_bytes)
        self._num_actions = bd.num_actions
        self._num_players = self.s.nplayers
        self._scratch_bytes = _perft_ply_bytes(bd)

    cdef int _fit(self, Py_ssize_t nbytes) except -1:
        """Make room for a state of ``nbytes`` at self.s."""
        cdef EmpireState* grown
        if nbytes > self._s_cap:
            grown = <EmpireState*>realloc(self.s, nbytes)
            if grown == NULL:
                raise MemoryError()
            self.s = grown
            self._s_cap = nbytes
        return 0

    def _core_init(self, EmpireTables tables not None, variant, turn_limit=0):
        """The start position of variant ``variant`` (an index of ``VARIANTS``) on the board
        of ``tables``; the game ends after ``turn_limit`` Empire turns (0: no limit)."""
        cdef int v = check_int(variant, 0, len(VARIANTS), "variant index")
        cdef int limit = check_int(turn_limit, 0, 1 << 30, "turn_limit")
        cdef int8_t owner[4]
        self._fit(tables.bd.state_bytes)
        self._reset_history()
        self._setup = False
        self._tables = tables
        self._variant = v
        empire_init(self.s, tables.bd, _variant_owner(v, owner), VARIANTS[v][1])
        self.s.turn_limit = limit
        self._set_sizes()

    # -- GameCore hooks -----------------------------------------------------------------------
    cdef int _gen(self) except -1:
        cdef int32_t* buf
        if not self._legal_ok:
            buf = _scratch(self.s.bd.max_legal)
            self._store_legal(buf, empire_list(self.s, buf))
        return 0

    cdef int _check_one(self, long a) except -2:
        # only the army or free that ``a`` names (End before a total of 6: -1, the list)
        return empire_is_legal(self.s, <int>a, _scratch(self.s.bd.max_legal))

    cdef void _save(self, char* snap, int a) noexcept:
        (<int32_t*>snap)[0] = a
        memcpy(snap + sizeof(int64_t), self.s, self.s.bd.state_bytes)

    cdef void _restore(self, const char* snap) noexcept:
        memcpy(self.s, snap + sizeof(int64_t),
               (<const EmpireState*>(snap + sizeof(int64_t))).bd.state_bytes)

    cdef void _make(self, int a) noexcept:
        empire_make(self.s, a)

    cdef int _copy_to(self, GameCore other) except -1:
        cdef EmpireCore o = <EmpireCore>other
        o._fit(self.s.bd.state_bytes)
        empire_copy(o.s, self.s)
        o._tables = self._tables
        o._variant = self._variant
        o._set_sizes()
        return self._copy_legal_to(o)

    cdef bint _over(self) noexcept:
        return self.s.result != EMPIRE_RUNNING

    cdef int _mover(self) noexcept:
        return self.s.owner[self.s.to_move]

    cdef uint64_t _perft_copy(self, int depth, bint bulk, void* scratch, Work* w) noexcept:
        cdef EmpireState* local = <EmpireState*>scratch
        cdef uint64_t r
        empire_copy(local, self.s)
        with nogil:
            r = empire_perft(local, depth, bulk, <char*>scratch, w)
        return r

    cdef void _playout_copy(self, uint64_t seed, int cap, bint sensible_end, double* out,
                            Work* w) noexcept:
        # ``sensible_end`` has no effect: End ends a turn here, never the game
        cdef const EmpireBoard* bd = self.s.bd
        cdef EmpireState* st = <EmpireState*>malloc(bd.state_bytes)
        cdef int32_t* buf = <int32_t*>malloc(bd.max_legal * sizeof(int32_t))
        cdef Rng r
        cdef float pts[4]
        cdef int p, n
        if st == NULL or buf == NULL:
            free(st)
            free(buf)
            _no_memory()            # pending for GameCore.random_playout's raise_pending
            w.stop = True
            return
        empire_copy(st, self.s)
        rng_seed(&r, seed)
        with nogil:
            empire_random_game(st, &r, cap, buf, w)
            empire_returns(st, pts)
        n = st.nplayers             # (the copy's: ``self`` may have been re-initialised)
        free(st)
        free(buf)
        for p in range(n):
            out[p] = pts[p]

    cdef void _points(self, float* out) noexcept:
        empire_returns(self.s, out)

    cdef void _observe(self, int viewer, float* out) noexcept:
        empire_observe(self.s, viewer, out)

    cdef object _pins(self):
        return self._tables         # s.bd points into them

    # -- Empire Plateau queries ---------------------------------------------------------------

    cdef long _ply(self) noexcept:
        return self.s.ply

    cdef uint64_t _hash(self) noexcept:
        # Zobrist key of the position (not of the way it was reached, nor the ply)
        return empire_hash(self.s)

    cdef tuple _obs_shape(self):
        # (36, rows, cols): the rows and columns are the rings and spokes of a polar board
        # (else one row of dots)
        return (EMPIRE_OBS_PLANES, self.s.bd.rows, self.s.bd.cols)

    @property
    def _variant_index(self) -> int:
        return self._variant

    @property
    def _board_tables(self):
        return self._tables

    def _army(self, dot) -> int:
        """The army code (0 none, else 1 + 4 * empire + type) on ``dot``."""
        return self.s.army[check_int(dot, 0, self.s.bd.ndots, "dot index")] & EMPIRE_CODE_MASK

    def _position(self) -> tuple:
        """The raw position: ``(armies, to_move, total, small, emblem_moved, locked, free_from,
        result, conquered, out, empty_turns, moved, captures)``; armies as bytes of codes,
        captures as ``(captor, victim, type, count)``."""
        cdef EmpireState* s = self.s
        cdef int c, v, t, d, n = s.bd.ndots
        cdef bytes armies = PyBytes_FromStringAndSize(NULL, n)
        cdef char* a = PyBytes_AS_STRING(armies)
        for d in range(n):
            a[d] = <char>(s.army[d] & EMPIRE_CODE_MASK)
        caps = [(c, v, t, s.cap[c][v][t]) for c in range(4) for v in range(4) for t in range(4)
                if s.cap[c][v][t]]
        return (armies, s.to_move, s.total, s.small, bool(s.emblem_moved), bool(s.locked),
                s.free_from, s.result, [s.conq[i] for i in range(s.nconq)],
                [s.out[i] for i in range(s.nout)], s.empty_turns,
                sorted(s.moved[i] for i in range(s.nmoved)), caps)

    def _status(self) -> tuple:
        """``(to_move, result, empty_turns, free_from)`` of the raw position without the rest
        of it: what ``result``, ``current_empire``, ``empty_turns`` and ``free_window`` read,
        maybe at every step of a user's loop."""
        return self.s.to_move, self.s.result, self.s.empty_turns, self.s.free_from

    def _turns(self) -> tuple:
        """``(turns, turn_limit)``: the Empire turns ended so far and the limit (0: none)."""
        return self.s.turns, self.s.turn_limit

    def _owners(self) -> tuple:
        return tuple(self.s.owner[e] for e in range(4))

    def _values(self) -> list:
        """The heuristic's value of each player."""
        cdef double v[4]
        empire_values(self.s, v)
        return [v[p] for p in range(self.s.nplayers)]

    def _army_moves(self, dot):
        """The move ids the path and budget rules allow the army on ``dot`` if it belongs to
        the Empire to act and has not moved (else none), before the six-step rule."""
        cdef int d = check_int(dot, 0, self.s.bd.ndots, "dot index"), n = 0
        cdef uint8_t b = self.s.army[d]
        cdef Gen* g
        cdef int32_t* buf
        cdef int64_t* data
        if self.s.result != EMPIRE_RUNNING or b == 0 or (b & EMPIRE_MOVED) \
                or army_empire(b) != self.s.to_move:
            return np.zeros(0, dtype=np.int64)
        g = <Gen*>malloc(sizeof(Gen))
        buf = <int32_t*>malloc(self.s.bd.max_legal * sizeof(int32_t))
        if g == NULL or buf == NULL:
            free(g)
            free(buf)
            raise MemoryError()
        _gen_init(g, self.s)
        n = _army_moves(g, self.s, d, EMPIRE_MAX_STEPS, buf, 0)
        free(g)
        try:
            # (a private buffer: making the array may let another thread run, see
            # _common.pyx, _array_moved)
            out = new_id_array(n, &data)
            for i in range(n):
                data[i] = buf[i]
        finally:
            free(buf)
        return out

    def _sample(self, seed, count) -> list:
        """``count`` draws of the random playouts' action sampler from this position (seeded),
        for tests of its distribution; empty once the game is over."""
        cdef uint64_t sd = check_seed(seed, "seed")
        cdef long k = check_int(count, 0, 1 << 40, "count"), i
        cdef Rng r
        cdef int32_t* buf
        if self.s.result != EMPIRE_RUNNING:
            return []
        buf = _scratch(self.s.bd.max_legal)
        rng_seed(&r, sd)
        return [empire_random_action(self.s, &r, buf) for i in range(k)]

    def _root(self):
        """For a game from a set-up position: that position (a new core, no history); else
        None."""
        cdef EmpireCore other
        if not self._setup:
            return None
        other = type(self).__new__(type(self))
        other._fit(self.s.bd.state_bytes)
        other._tables = self._tables
        other._variant = self._variant
        if self._len > 0:
            empire_copy(other.s, <EmpireState*>(self._h.data + sizeof(int64_t)))
        else:
            empire_copy(other.s, self.s)
        other._setup = True
        other._set_sizes()
        return other

    def _load(self, EmpireTables tables not None, variant, bytes armies, int to_move,
              int total, int small, bint emblem_moved, bint locked, int free_from,
              list conquered, list out, int empty_turns, list moved, list captures, ply=0,
              turns=0, turn_limit=0):
        """Replace the position (history cleared) by a set-up that the Python layer has
        checked against the rules (``from_position_dict``). Here only what keeps the kernels in
        bounds is checked again (ValueError)."""
        cdef int v = check_int(variant, 0, len(VARIANTS), "variant index")
        cdef const EmpireBoard* bd = tables.bd
        cdef int D = bd.ndots, d, e, i, c, y, t, k, nplayers = VARIANTS[v][1]
        cdef int8_t owner[4]
        cdef EmpireState* s
        cdef int standing[4]
        _variant_owner(v, owner)
        if len(armies) != D:
            raise _c.ArgumentError(f"armies: {len(armies)} dots given, the board has {D}")
        for d in range(D):
            if armies[d] > 16:
                raise _c.ArgumentError(f"armies: bad army code {armies[d]} on dot {d}")
            if armies[d] and owner[army_empire(armies[d])] < 0:
                raise _c.ArgumentError(f"armies: an army of an Empire not in play on dot {d}")
        if not (0 <= to_move < 4 and owner[to_move] >= 0):
            raise _c.ArgumentError(f"to_move: {to_move} is not an Empire in play")
        if not (0 <= small <= EMPIRE_SMALL_STEPS and small <= total <= EMPIRE_MAX_STEPS):
            raise _c.ArgumentError(f"total and small out of range: {total}, {small}")
        if not (-1 <= free_from < 4) or not (0 <= empty_turns <= 4):
            raise _c.ArgumentError("free_from or empty_turns out of range")
        cdef int at_ply = check_int(ply, 0, 1 << 30, "ply")
        cdef int limit = check_int(turn_limit, 0, 1 << 30, "turn_limit")
        cdef int ended = check_int(turns, 0, limit + 1 if limit else 1 << 30, "turns")
        if len(conquered) > 4 or len(out) > nplayers or len(moved) > 12 or len(moved) > total:
            raise _c.ArgumentError("too many conquered Empires, players out or moved armies")
        for e in conquered:
            if not (0 <= e < 4 and owner[e] >= 0):
                raise _c.ArgumentError(f"conquered: {e} is not an Empire in play")
        for p in out:
            if not 0 <= p < nplayers:
                raise _c.ArgumentError(f"out: {p} is not a player")
        for d in moved:
            if not (0 <= d < D and armies[d] and army_empire(armies[d]) == to_move):
                raise _c.ArgumentError(f"moved: no army of the Empire to act on dot {d}")
        for c, y, t, k in captures:
            if not (0 <= c < 4 and 0 <= y < 4 and 0 <= t < 4 and 0 < k <= C_COUNT[t]):
                raise _c.ArgumentError(f"captures: bad entry {(c, y, t, k)}")
        self._fit(bd.state_bytes)
        s = self.s
        empire_init(s, bd, owner, nplayers)
        for d in range(D):
            if s.army[d]:
                s.zob ^= _akey(d, s.army[d])
            s.army[d] = armies[d]
            if armies[d]:
                s.zob ^= _akey(d, armies[d])
        s.to_move = to_move
        s.ply = at_ply
        s.total = total
        s.small = small
        s.emblem_moved = emblem_moved
        s.locked = locked
        s.free_from = free_from
        s.empty_turns = empty_turns
        s.turns = ended
        s.turn_limit = limit
        for e in conquered:
            s.conq[s.nconq] = e
            s.nconq += 1
            s.alive &= ~(1 << e)
        for p in out:
            s.out[s.nout] = p
            s.nout += 1
        for d in moved:
            s.army[d] |= EMPIRE_MOVED
            s.moved[s.nmoved] = d
            s.nmoved += 1
        for c, y, t, k in captures:
            s.cap[c][y][t] = k
        if nplayers - s.nout <= 1:
            s.result = EMPIRE_WON
        elif ((s.empty_turns >= pl_popcount(<uint64_t><uint8_t>s.alive) and s.total == 0)
              or (limit and ended >= limit)):
            # (the count is compared when a turn ends: a conquest in the middle of a turn may
            # leave fewer Empires than the count, and that turn has steps: no draw)
            s.result = EMPIRE_DRAW
        self._tables = tables
        self._variant = v
        self._reset_history()
        self._setup = True
        self._set_sizes()


# ---------------------------------------------------------------------------------------------
# Layout helpers for the Python layer (notation lives there; the id layout lives here, once)
# ---------------------------------------------------------------------------------------------

def layout(EmpireTables tables not None) -> dict:
    """The action-id layout of a board: moves ``(from * D + to) * 12 + n - 1`` from 0, frees
    ``base_free + type * D + dot`` (types E, 6, 4, 2), then ``end``."""
    cdef const EmpireBoard* bd = tables.bd
    return {"dots": bd.ndots, "base_free": bd.base_free, "end": bd.end_id,
            "num_actions": bd.num_actions, "max_legal": bd.max_legal}
