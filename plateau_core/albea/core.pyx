# cython: language_level=3
"""Compiled move generation for Jim Albea's Plateau (1986).

Implements the action-id layout of docs/albea-plateau-design.md section 1, the flat
``AlbeaState`` of section 2 and the generation / make kernels of section 3 for the
perfect-information rules.
Kernels are ``noexcept nogil`` and never check input; :class:`AlbeaCore` validates everything.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int8_t, int32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, realloc, free

import numpy as np

from plateau_core._common cimport (
    GameCore, ListCore, Playout, Rng, ids_contain, new_id_array, run_playouts,
    rng_below, rng_seed, splitmix64, check_int, check_seed, check_depth, Work, work_tick,
    raise_pending, NODE_TICKS, PLY_TICKS, pl_ctz, pl_msb32,
)
from plateau_core import _common as _c   # (ArgumentError: the argument errors' class)

# ------------------------------------------------------------------------------------------
# Material tables
# ------------------------------------------------------------------------------------------
TYPES = ("xx", "bb", "rr", "bx", "rx", "ox", "rb")
COUNT = (4, 2, 2, 1, 1, 1, 1)
VALUE = (1, 4, 5, 8, 10, 15, 21)
OT_CODES = ("xx", "bb", "rr", "bx", "xb", "rx", "xr", "ox", "xo", "rb", "br")
_MS_WEIGHTS = (1, 5, 15, 45, 90, 180, 360)
PERIMETER = tuple(i for i in range(16) if i // 4 in (0, 3) or i % 4 in (0, 3))
NUM_DISTINCT_ACTIONS = ALBEA_NUM_ACTIONS

cdef int OT_TYPE[11]
cdef int OT_UP[11]
cdef int OT_OF[7][2]          # (type, up) -> ot (up 0 for the single-coloured types)
cdef int C_COUNT[7]
cdef int C_VALUE[7]
cdef int C_W[7]
cdef uint8_t UPFACE[32]       # piece byte & PIECE_FACES -> up face 0 x, 1 b, 2 r, 3 o
cdef uint8_t TWOFACED[32]     # piece byte & PIECE_FACES -> two different faces
cdef int PERI[12]

_FACE_INDEX = {"x": 0, "b": 1, "r": 2, "o": 3}


def _init_material():
    cdef int i, t, u, o
    for i in range(11):
        code = OT_CODES[i]
        for t in range(7):
            if TYPES[t] == code:
                OT_TYPE[i] = t; OT_UP[i] = 0
                break
            if TYPES[t] == code[::-1]:
                OT_TYPE[i] = t; OT_UP[i] = 1
                break
        OT_OF[OT_TYPE[i]][OT_UP[i]] = i
    for t in range(7):
        C_COUNT[t] = COUNT[t]; C_VALUE[t] = VALUE[t]; C_W[t] = _MS_WEIGHTS[t]
        if TYPES[t][0] == TYPES[t][1]:
            OT_OF[t][1] = OT_OF[t][0]
    for i in range(32):
        t = piece_type(i)
        u = piece_up(i)
        if t < 7:
            UPFACE[i] = _FACE_INDEX[TYPES[t][u]]
            TWOFACED[i] = TYPES[t][0] != TYPES[t][1]
        else:
            UPFACE[i] = 0; TWOFACED[i] = 0
    for i in range(12):
        PERI[i] = PERIMETER[i]

_init_material()

# ------------------------------------------------------------------------------------------
# Move-id geometry (design 1.3)
# ------------------------------------------------------------------------------------------
_RAYS = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))
_ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))
J_LEVEL = (9, 11, 0)

cdef int TT[4][3]             # T(r, l)
cdef int CJ[3]
cdef int MOVE_OFF[16]
cdef int BLOCK[16]
cdef int PATH_OFF[16][16]
cdef int PATH_CNT[16][16]
cdef int PATH_LEN[16][16]     # geometric ray length (1..3), 2 for a Twister, 0 = no path
cdef int8_t PATH_SQ[16][16][3]
cdef int8_t PATHS_BY_FACE[16][4][8]  # the paths of origin o an up face allows (x every ray,
cdef int PATHS_BY_FACE_N[16][4]      # b the diagonals 4-7, r the orthogonals 0-3, o the
                                     # Twisters 8-15), those that exist only, ascending
cdef int8_t RAY_DEC[4][129][5]  # nstops, d1, d2, d3 / q1, q2 packed below
cdef int8_t RAY_DECQ[4][129][2]


def _T(r, l):
    if r <= 0:
        return 0
    return sum(1 + J_LEVEL[l] * (_T(r - i, l + 1) if l + 1 < 3 else 0) for i in range(1, r + 1))


def _path_squares(o):
    """The 16 paths of origin o: list of square lists (empty = no path), index as design 1.3."""
    c0, r0 = o % 4, o // 4
    out = []
    for dc, dr in _RAYS:
        sq = []
        for d in range(1, 4):
            c, r = c0 + dc * d, r0 + dr * d
            if not (0 <= c < 4 and 0 <= r < 4):
                break
            sq.append(r * 4 + c)
        out.append(sq)
    for dc, dr in _ORTHO:
        for sc, sr in ((dr, dc), (-dr, -dc)):
            mc, mr = c0 + dc, r0 + dr
            ec, er = c0 + 2 * dc + sc, r0 + 2 * dr + sr
            if 0 <= ec < 4 and 0 <= er < 4:
                out.append([mr * 4 + mc, er * 4 + ec])
            else:
                out.append([])
    return out


def _ray_encode(L, dists, qs):
    code = 0
    pos = 0
    l = 0
    for n, d in enumerate(dists):
        r = L - pos
        for i in range(1, d - pos):
            code += 1 + J_LEVEL[l] * _T(r - i, l + 1)
        if n == len(dists) - 1:
            return code
        code += 1 + qs[n] * _T(r - (d - pos), l + 1)
        pos = d
        l += 1
    raise _c.ArgumentError("empty stop list")


def _ray_sequences(L):
    """All (dists, qs) stop sequences of a ray of length L, in preorder."""
    out = []

    def rec(pos, l, dists, qs):
        for d in range(pos + 1, L + 1):
            out.append((dists + (d,), qs))
            if d < L and l < 2:
                for q in range(J_LEVEL[l]):
                    rec(d, l + 1, dists + (d,), qs + (q,))
    rec(0, 0, (), ())
    return out


_PY_PATHS = [_path_squares(o) for o in range(16)]
_PY_BLOCK = []
_PY_PATH_OFF = []
_PY_MOVE_OFF = []
_RAY_DECODE = {}


def _init_geometry():
    cdef int o, p, i, L, code
    for r in range(4):
        for l in range(3):
            TT[r][l] = _T(r, l)
    for l in range(3):
        CJ[l] = J_LEVEL[l]
    for L in range(1, 4):
        seqs = _ray_sequences(L)
        assert len(seqs) == _T(L, 0)
        table = []
        for code, (dists, qs) in enumerate(seqs):
            assert _ray_encode(L, dists, qs) == code
            RAY_DEC[L][code][0] = len(dists)
            for i in range(3):
                RAY_DEC[L][code][1 + i] = dists[i] if i < len(dists) else 0
            for i in range(2):
                RAY_DECQ[L][code][i] = qs[i] if i < len(qs) else 0
            table.append((dists, qs))
        _RAY_DECODE[L] = table
    total = 0
    for o in range(16):
        paths = _PY_PATHS[o]
        off = 0
        offs = []
        for p in range(16):
            sq = paths[p]
            if p < 8:
                L = len(sq)
                cnt = _T(L, 0)
            else:
                L = 2 if sq else 0
                cnt = 10 if sq else 0
            PATH_LEN[o][p] = L
            PATH_OFF[o][p] = off
            PATH_CNT[o][p] = cnt
            offs.append(off if cnt else None)
            for i in range(3):
                PATH_SQ[o][p][i] = sq[i] if i < len(sq) else -1
            off += cnt
        for face, (p_lo, p_hi) in enumerate(((0, 8), (4, 8), (0, 4), (8, 16))):
            PATHS_BY_FACE_N[o][face] = 0
            for p in range(p_lo, p_hi):
                if PATH_LEN[o][p]:
                    PATHS_BY_FACE[o][face][PATHS_BY_FACE_N[o][face]] = p
                    PATHS_BY_FACE_N[o][face] += 1
        BLOCK[o] = off
        MOVE_OFF[o] = total
        _PY_BLOCK.append(off)
        _PY_PATH_OFF.append(offs)
        _PY_MOVE_OFF.append(total)
        total += 10 * off
    assert total == ALBEA_BASE_STOMP - ALBEA_BASE_MOVE, total

_init_geometry()


include "kernel.pxi"


# ------------------------------------------------------------------------------------------
# Id arithmetic for the Python layer: the id layout lives here, once; the notation (text)
# lives in python/plateau/games/albea/notation.py
# ------------------------------------------------------------------------------------------
#: the action kinds, in id order (``decode``'s first item, ``encode``'s kind)
KINDS = ("opening", "onboard", "move", "stomp", "offer", "give", "refuse", "pass")
BASE_OPENING = ALBEA_BASE_OPEN
BASE_ONBOARD = ALBEA_BASE_ONBOARD
BASE_MOVE = ALBEA_BASE_MOVE
BASE_STOMP = ALBEA_BASE_STOMP
BASE_OFFER = ALBEA_BASE_OFFER
BASE_GIVE = ALBEA_BASE_GIVE
REFUSE = ALBEA_REFUSE
PASS = ALBEA_PASS
STACK_CAP = ALBEA_CAP
MAX_PLY = ALBEA_MAX_PLY
#: ``encode``'s answers when the fields name no action id
ENCODE_INVALID = -1     # a field of the wrong type or out of range, or an unknown kind
ENCODE_OFF_PATH = -2    # move: the stops are not at increasing distances on one path
ENCODE_BAD_CARRY = -3   # move: a carry is no pick-up or drop-off, or more than the ids hold


def layout():
    """The id layout of design section 1.2-1.3 as plain Python data."""
    return {
        "num_distinct_actions": ALBEA_NUM_ACTIONS,
        "bases": {"opening": ALBEA_BASE_OPEN, "onboard": ALBEA_BASE_ONBOARD,
                  "move": ALBEA_BASE_MOVE, "stomp": ALBEA_BASE_STOMP, "offer": ALBEA_BASE_OFFER,
                  "give": ALBEA_BASE_GIVE, "refuse": ALBEA_REFUSE, "pass": ALBEA_PASS},
        "move_off": list(_PY_MOVE_OFF),
        "block": list(_PY_BLOCK),
        "path_off": [list(x) for x in _PY_PATH_OFF],
        "paths": [[list(p) for p in ps] for ps in _PY_PATHS],
        "T": [[_T(r, l) for l in range(3)] for r in range(4)],
    }


def move_fields(action):
    """``(origin, flip, k, path, code)`` of a move id: its mixed-radix fields (design 1.3)."""
    cdef int o, flip, k, p, code, a
    if type(action) is int and ALBEA_BASE_MOVE <= action < ALBEA_BASE_STOMP:
        a = action
    else:
        a = check_int(action, ALBEA_BASE_MOVE, ALBEA_BASE_STOMP, "move id")
    _move_decode[ByCount](NULL, a, &o, &flip, &k, &p, &code)
    return o, flip, k, p, code


cdef tuple _move_stops(int a):
    """``(origin, flip, k, squares, carries)`` of move id ``a``: the stop squares in order
    and the group carried on from each stop but the last."""
    cdef int o, flip, k, p, code, g, j, n
    _move_decode[ByCount](NULL, a, &o, &flip, &k, &p, &code)
    sqs = _PY_PATHS[o][p]
    if p >= 8:
        if code == 0:
            return o, flip, k, (sqs[1],), ()
        j = code + 1 if code >= k else code
        return o, flip, k, (sqs[0], sqs[1]), (j,)
    dists, qs = _RAY_DECODE[len(sqs)][code]
    carries = []
    g = k
    for n in range(len(dists) - 1):
        j = qs[n] + 1
        if j >= g:
            j += 1
        carries.append(j)
        g = j
    return o, flip, k, tuple(sqs[d - 1] for d in dists), tuple(carries)


cdef tuple _ms_counts(int idx):
    cdef uint8_t c[7]
    _ms_from_index(idx, c)
    return (c[0], c[1], c[2], c[3], c[4], c[5], c[6])


def decode(action):
    """``(kind, fields)`` of an action id; the fields by kind:

    - ``opening``: ``(bottom, top, square)``, oriented pieces as ``OT_CODES`` indices
    - ``onboard``: ``(piece, square, gap)``
    - ``move``: ``(origin, flip, k, squares, carries)``: the stops in order, and the number
      of pieces carried on from each stop but the last
    - ``stomp``: ``(square, flip)``
    - ``offer``, ``give``: the 7 counts per type (``TYPES`` order)
    - ``refuse``, ``pass``: ``()``
    """
    cdef int a = _small_int(action, ALBEA_NUM_ACTIONS, "action id")
    cdef int i
    if a < ALBEA_BASE_ONBOARD:
        i = a // 12
        return "opening", (i // 11, i % 11, PERIMETER[a % 12])
    if a < ALBEA_BASE_MOVE:
        i = a - ALBEA_BASE_ONBOARD
        return "onboard", (i // 384, (i // 24) % 16, i % 24)
    if a < ALBEA_BASE_STOMP:
        return "move", _move_stops(a)
    if a < ALBEA_BASE_OFFER:
        i = a - ALBEA_BASE_STOMP
        return "stomp", (i // 2, i % 2)
    if a < ALBEA_BASE_GIVE:
        return "offer", _ms_counts(a - ALBEA_BASE_OFFER + 1)
    if a < ALBEA_REFUSE:
        return "give", _ms_counts(a - ALBEA_BASE_GIVE + 1)
    return ("refuse", ()) if a == ALBEA_REFUSE else ("pass", ())


cdef bint _in(object v, long lo, long hi):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v < hi


cdef tuple _move_path(int o, list sqs):
    """The path from ``o`` through the stops ``sqs``: ``(path, distances)`` on a ray with the
    stops at increasing distances, ``(path, None)`` on the Twister path, ``(-1, None)`` if
    there is none."""
    cdef int p, d, last
    cdef list dists
    for p in range(16):
        ps = _PY_PATHS[o][p]
        if not ps:
            continue
        if p >= 8:
            if sqs == [ps[1]] or sqs == ps:
                return p, None
            continue
        dists = []
        last = 0
        for st in sqs:
            if st not in ps:
                break
            d = ps.index(st) + 1
            if d <= last:
                break
            dists.append(d)
            last = d
        else:
            return p, dists
    return -1, None


cdef long _encode_move(tuple f):
    if len(f) != 5:
        return ENCODE_INVALID
    o, flip, k, squares, carries = f
    if not (_in(o, 0, 16) and _in(flip, 0, 2) and _in(k, 1, 6)
            and isinstance(squares, tuple) and isinstance(carries, tuple)
            and len(squares) >= 1 and len(carries) == len(squares) - 1):
        return ENCODE_INVALID
    for x in squares:
        if not _in(x, 0, 16):
            return ENCODE_INVALID
    for x in carries:
        if not _in(x, 0, 1 << 62):
            return ENCODE_INVALID
    p, dists = _move_path(o, list(squares))
    if p < 0:
        return ENCODE_OFF_PATH
    base = (ALBEA_BASE_MOVE + _PY_MOVE_OFF[o] + (flip * 5 + k - 1) * _PY_BLOCK[o]
            + _PY_PATH_OFF[o][p])
    g = k
    qs = []
    for n, j in enumerate(carries):
        if j < 1 or j == g:
            return ENCODE_BAD_CARRY
        q = j - 1 - (1 if j > g else 0)
        # a ray has at most two stops before its last, the Twister path one
        if n >= 2 or q >= (J_LEVEL[n] if p < 8 else 9):
            return ENCODE_BAD_CARRY
        qs.append(q)
        g = j
    if p < 8:
        return base + _ray_encode(len(_PY_PATHS[o][p]), dists, qs)
    return base if not qs else base + 1 + qs[0]


def encode(str kind, tuple fields):
    """The id of the action ``kind`` with ``fields`` in :func:`decode`'s form (its inverse),
    or a negative ``ENCODE_*`` status when they name no action."""
    cdef long i = 0
    cdef int t
    if kind == "move":
        return _encode_move(fields)
    if kind in ("refuse", "pass"):
        if fields:
            return ENCODE_INVALID
        return ALBEA_REFUSE if kind == "refuse" else ALBEA_PASS
    if kind in ("offer", "give"):
        if len(fields) != 7 or not all(_in(fields[t], 0, C_COUNT[t] + 1) for t in range(7)):
            return ENCODE_INVALID
        for t in range(7):
            i += fields[t] * C_W[t]
        if i == 0:
            return ENCODE_INVALID  # an offer or a gift of nothing
        return (ALBEA_BASE_OFFER if kind == "offer" else ALBEA_BASE_GIVE) + i - 1
    if kind == "opening":
        if not (len(fields) == 3 and _in(fields[0], 0, ALBEA_OT) and _in(fields[1], 0, ALBEA_OT)
                and _in(fields[2], 0, 16) and fields[2] in PERIMETER):
            return ENCODE_INVALID
        return (fields[0] * ALBEA_OT + fields[1]) * 12 + PERIMETER.index(fields[2])
    if kind == "onboard":
        if not (len(fields) == 3 and _in(fields[0], 0, ALBEA_OT) and _in(fields[1], 0, 16)
                and _in(fields[2], 0, ALBEA_CAP)):
            return ENCODE_INVALID
        return ALBEA_BASE_ONBOARD + (fields[0] * 16 + fields[1]) * ALBEA_CAP + fields[2]
    if kind == "stomp":
        if not (len(fields) == 2 and _in(fields[0], 0, 16) and _in(fields[1], 0, 2)):
            return ENCODE_INVALID
        return ALBEA_BASE_STOMP + fields[0] * 2 + fields[1]
    return ENCODE_INVALID


# ------------------------------------------------------------------------------------------
# The wrapper
# ------------------------------------------------------------------------------------------
PHASES = ("opening", "play", "respond", "over")
OBSERVATION_SHAPE = (276, 4, 4)


ctypedef struct AlbeaSnap:
    int32_t action              # first: GameCore reads it
    AlbeaState s                # the position before the action


cdef void _po_start(Playout* p) noexcept nogil:
    albea_init(<AlbeaState*>p.state, (<const int*>p.ctx)[0])


cdef long long _po_play(Playout* p, Rng* r, int cap, Work* w) noexcept nogil:
    return albea_random_game(<AlbeaState*>p.state, r, cap, w)


cdef bint _po_ended(const Playout* p) noexcept nogil:
    return (<const AlbeaState*>p.state).phase == ALBEA_PHASE_OVER


cdef void _po_standing(const Playout* p, uint64_t* keys) noexcept nogil:
    # the winner first; a draw (result 2) leaves both equal
    cdef int result = (<const AlbeaState*>p.state).result
    keys[0] = 1 if result == 0 else 0
    keys[1] = 1 if result == 1 else 0


def random_playouts(n, seed, ply_cap, max_plies=0):
    """Play ``n`` uniformly random games from the start in C (GIL released); game ``i`` uses
    seed ``seed + i``, with the game option ``max_plies`` (0 = off), counted by the shared
    loop (``_common.run_playouts``: ``games``, ``plies``, ``ended``, ``wins``, ``draws``; a
    game cut at ``ply_cap`` is neither a win nor a draw)."""
    cdef long long games = check_int(n, 0, 1 << 62, "n")
    cdef uint64_t sd = check_seed(seed, "seed")
    cdef int cap = check_int(ply_cap, 0, 1 << 31, "ply_cap")
    cdef int opt = check_int(max_plies, 0, ALBEA_MAX_PLY, "max_plies")
    cdef AlbeaState st
    cdef Playout p
    p.state = &st
    p.ctx = &opt
    p.players = 2
    p.start = _po_start
    p.play = _po_play
    p.ended = _po_ended
    p.standing = _po_standing
    return run_playouts(&p, games, sd, cap)


@cython.auto_pickle(False)  # pickling goes through the game record (GameState.__reduce__)
cdef class AlbeaCore(ListCore):
    """An Albea Plateau position (the referee's full truth) with its undo history (the shared
    machinery is ``GameCore``'s). The public class ``plateau.AlbeaPlateauState`` adds
    notation, views and serialization; everything here validates its input before a kernel
    sees it."""

    cdef AlbeaState s

    def __cinit__(self, *args, **kwargs):
        self._snap_size = sizeof(AlbeaSnap)
        self._num_actions = ALBEA_NUM_ACTIONS
        self._num_players = 2
        self._scratch_bytes = ALBEA_MAX_LEGAL * sizeof(uint16_t)
        self._narrow = True             # (ids below ALBEA_NUM_ACTIONS <= 65,536)
        albea_init(&self.s, 0)

    def _core_init(self, max_plies):
        cdef int mp = check_int(max_plies, 0, ALBEA_MAX_PLY, "max_plies")
        albea_init(&self.s, mp)
        self._reset_history()
        self._setup = False

    # -- GameCore hooks -----------------------------------------------------------------------
    cdef int _gen(self) except -1:
        cdef uint16_t buf[ALBEA_MAX_LEGAL]
        if not self._legal_ok:
            self._store_legal16(buf, albea_list(&self.s, buf))
        return 0

    cdef int _check_one(self, long a) except -2:
        # in play, only the onboard or the square ``a`` names (else -1: the list)
        cdef uint16_t buf[ALBEA_MAX_LEGAL]
        return albea_is_legal(&self.s, <int>a, buf)

    cdef void _save(self, char* snap, int a) noexcept:
        # (memcpy: Cython copies a struct assignment through a temporary, twice the copying)
        (<AlbeaSnap*>snap).action = a
        memcpy(&(<AlbeaSnap*>snap).s, &self.s, sizeof(AlbeaState))

    cdef void _restore(self, const char* snap) noexcept:
        memcpy(&self.s, &(<const AlbeaSnap*>snap).s, sizeof(AlbeaState))

    cdef void _make(self, int a) noexcept:
        albea_make(&self.s, a)

    cdef int _copy_to(self, GameCore other) except -1:
        memcpy(&(<AlbeaCore>other).s, &self.s, sizeof(AlbeaState))
        return self._copy_legal_to(<AlbeaCore>other)

    cdef bint _over(self) noexcept:
        return self.s.phase == ALBEA_PHASE_OVER

    cdef int _mover(self) noexcept:
        return self.s.player

    cdef uint64_t _perft_copy(self, int depth, bint bulk, void* scratch, Work* w) noexcept:
        cdef AlbeaState local = self.s
        cdef uint64_t r
        with nogil:
            r = albea_perft(&local, depth, bulk, <uint16_t*>scratch, w)
        return r

    cdef void _playout_copy(self, uint64_t seed, int cap, bint sensible_end, double* out,
                            Work* w) noexcept:
        # ``sensible_end`` has no effect: this game has no End action
        cdef AlbeaState st = self.s
        cdef Rng r
        cdef float pts[2]
        rng_seed(&r, seed)
        with nogil:
            albea_random_game(&st, &r, cap, w)
        albea_points(&st, pts)
        out[0] = pts[0]
        out[1] = pts[1]

    cdef void _points(self, float* out) noexcept:
        albea_points(&self.s, out)

    cdef void _observe(self, int viewer, float* out) noexcept:
        albea_observe(&self.s, viewer, out)

    # -- Albea Plateau queries ----------------------------------------------------------------

    def _root(self):
        """For a game from a set-up position: that position (a new state, no history);
        otherwise None."""
        cdef AlbeaCore other
        if not self._setup:
            return None
        other = type(self).__new__(type(self))
        other.s = (<AlbeaSnap*>self._h.data)[0].s if self._len > 0 else self.s
        other._setup = True
        return other

    def _raw_player(self) -> int:
        """The kernel's player field (kept once the game is over)."""
        return self.s.player

    def _actors(self) -> list:
        """Who took each action of the history (the responder for gives and refusals)."""
        cdef AlbeaSnap* snaps = <AlbeaSnap*>self._h.data if self._h != NULL else NULL
        return [snaps[i].s.player for i in range(self._len)]

    cdef uint64_t _hash(self) noexcept:
        # the shown flags and the ply left out
        return albea_hash(&self.s)

    @property
    def phase(self) -> str:
        """``opening``, ``play``, ``respond`` (an exchange answer is due) or ``over``."""
        return PHASES[self.s.phase]

    cdef long _ply(self) noexcept:
        return self.s.ply

    @property
    def passes(self) -> int:
        """Consecutive passes just played (two end the game as a draw)."""
        return self.s.passes

    @property
    def floor(self) -> list:
        """Per player: the value of their last refused offer; a new offer must exceed it."""
        return [self.s.floor[0], self.s.floor[1]]

    @property
    def max_plies(self) -> int:
        """The draw-after option (0 = off)."""
        return self.s.max_plies

    @property
    def result(self):
        """None while running, ``"win"`` or ``"draw"`` once over."""
        if self.s.result < 0:
            return None
        return "draw" if self.s.result == 2 else "win"

    @property
    def winner(self):
        """The winner once the game is won, else None."""
        return self.s.result if self.s.result in (0, 1) else None

    def reserve(self, p) -> dict:
        """Player ``p``'s pieces off the board, by type (the referee's view)."""
        cdef int q = self._check_player(p)
        return {TYPES[t]: self.s.res[q][t] for t in range(7) if self.s.res[q][t]}

    def prisoners(self, p) -> dict:
        """The opponent's pieces that ``p`` holds, by type."""
        cdef int q = self._check_player(p)
        return {TYPES[t]: self.s.pri[q][t] for t in range(7) if self.s.pri[q][t]}

    @property
    def tender(self):
        """The pending offer (by type) while an answer is due, else None."""
        if self.s.phase != ALBEA_PHASE_RESPOND:
            return None
        return {TYPES[t]: self.s.tender[t] for t in range(7) if self.s.tender[t]}

    @property
    def offerer(self):
        """Who made the pending offer, else None."""
        return None if self.s.offerer < 0 else self.s.offerer

    def _board(self) -> list:
        """16 stacks, bottom..top, of pieces ``(owner, type, up, shown0, shown1)``: ``type`` a
        ``TYPES`` index, ``up`` which face is up (0: the type's first letter), ``shown0`` and
        ``shown1`` whether face 0 and face 1 have been shown. :meth:`_load_raw` takes the same."""
        cdef int sq, i
        cdef uint8_t b
        out = []
        for sq in range(16):
            st = []
            for i in range(self.s.ht[sq]):
                b = self.s.pc[sq][i]
                st.append((piece_owner(b), piece_type(b), piece_up(b), piece_shown(b, 0),
                           piece_shown(b, 1)))
            out.append(st)
        return out

    def check_caches(self) -> bool:
        """True iff the own/col caches match the piece bytes (a debugging aid)."""
        cdef AlbeaState t = self.s
        cdef int sq
        for sq in range(16):
            rebuild(&t, sq)
            if t.own[sq] != self.s.own[sq] or t.col[sq] != self.s.col[sq]:
                return False
        return True

    # -- search helpers -----------------------------------------------------------------------

    def winning_actions(self):
        """The legal actions after which the player to act has won at once (numpy int64,
        ascending; empty if none)."""
        cdef uint16_t buf[ALBEA_MAX_LEGAL]
        cdef int64_t* data
        cdef int k = albea_winning(&self.s, buf), i
        out = new_id_array(k, &data)
        for i in range(k):
            data[i] = buf[i]
        return out

    def _values(self) -> tuple:
        """The heuristic's values of both players (see ``heuristic``)."""
        cdef double v[2]
        albea_values(&self.s, v)
        return (v[0], v[1])

    cdef tuple _obs_shape(self):
        return OBSERVATION_SHAPE

    # -- set-up -------------------------------------------------------------------------------

    def _resample(self, list pieces, opponent, list reserve):
        """A determinization: this position with each ``(square, level, type, up)`` of
        ``pieces`` (opponent pieces) retyped and the opponent's reserve set to ``reserve`` (7
        counts). The caller (the Python layer) draws a consistent world; this refuses
        (ValueError) one that would break the kernel's invariants."""
        cdef AlbeaCore other = type(self).__new__(type(self))
        cdef int opp = self._check_player(opponent)
        cdef int sq, lv, t, up, old_up, total = 0
        cdef uint8_t b
        cdef bint seen_up, seen_down
        other.s = self.s
        for item in pieces:
            if len(item) != 4:
                raise _c.ArgumentError("a retyped piece is (square, level, type, up)")
            sq = _small_int(item[0], 16, "square")
            lv = _small_int(item[1], other.s.ht[sq], "level")
            t = _small_int(item[2], 7, "type")
            up = _small_int(item[3], 2 if TWOFACED[make_piece(0, t, 0)] else 1, "up")
            b = other.s.pc[sq][lv]
            if piece_owner(b) != opp:
                raise _c.ArgumentError("a determinization may retype only the opponent's pieces")
            # what was seen stays seen: the shown flags follow the faces, not the face indices
            old_up = piece_up(b)
            seen_up = piece_shown(b, old_up)
            seen_down = piece_shown(b, 1 - old_up)
            b = make_piece(opp, t, up)
            if seen_up:
                show_up(&b)
            if seen_down:
                b |= <uint8_t>(1 << (PIECE_SHOWN_SHIFT + 1 - up))
            other.s.pc[sq][lv] = b
            rebuild(&other.s, sq)
        other.s.tops_shown = 0          # (the pieces' bytes were written here, not by a make)
        _set_counts(reserve, &other.s.res[opp][0], "reserve")
        if not _material_ok(&other.s):
            raise _c.ArgumentError("a determinization must not hold more pieces than exist")
        other._det = True
        return other

    def _load_raw(self, list board, list reserve, list prisoners, tender, phase, player,
                  offerer, list floor, result, passes, ply, max_plies):
        """Replace the position (history cleared) by plain data that the Python layer has
        validated (``AlbeaPlateauState.load_dict``, which words its errors for people):
        ``board`` as :meth:`_board` gives it; ``reserve`` and ``prisoners`` per player and
        ``tender`` 7 counts in ``TYPES`` order (the tender all zeros outside the respond
        phase); ``phase`` a ``PHASES`` index; ``offerer`` and ``result`` -1 for none (result 2:
        a draw); the rest as their properties. Only copies, after refusing (ValueError) what
        would break the kernel's invariants: ranges, stacks above 24, more pieces than exist,
        a tender the offerer does not hold, a run of six or six prisoners in a running game."""
        cdef AlbeaState t
        cdef int sq, i, n, ty, up, v = 0
        cdef uint8_t b
        albea_init(&t, check_int(max_plies, 0, ALBEA_MAX_PLY, "max_plies"))
        if len(board) != 16:
            raise _c.ArgumentError("board must hold 16 stacks")
        for sq in range(16):
            st = board[sq]
            n = len(st)
            if n > ALBEA_CAP:
                raise _c.ArgumentError(f"stack {sq} holds {n} pieces; at most {ALBEA_CAP} fit")
            for i in range(n):
                pce = st[i]
                if len(pce) != 5:
                    raise _c.ArgumentError("a piece is (owner, type, up, shown0, shown1)")
                ty = _small_int(pce[1], 7, "type")
                up = _small_int(pce[2], 2 if TWOFACED[make_piece(0, ty, 0)] else 1, "up")
                b = make_piece(_small_int(pce[0], 2, "owner"), ty, up)
                if pce[3]:
                    b |= <uint8_t>(1 << PIECE_SHOWN_SHIFT)
                if pce[4]:
                    b |= <uint8_t>(1 << (PIECE_SHOWN_SHIFT + 1))
                t.pc[sq][i] = b
            t.ht[sq] = n
            rebuild(&t, sq)
        if len(reserve) != 2 or len(prisoners) != 2:
            raise _c.ArgumentError("reserve and prisoners hold two lists of counts")
        for i in range(2):
            _set_counts(reserve[i], &t.res[i][0], "reserve")
            _set_counts(prisoners[i], &t.pri[i][0], "prisoners")
        if not _material_ok(&t):
            raise _c.ArgumentError("more pieces than exist")
        t.phase = check_int(phase, 0, 4, "phase")
        t.player = check_int(player, 0, 2, "player")
        t.offerer = check_int(offerer, -1, 2, "offerer")
        if (t.offerer >= 0) != (t.phase == ALBEA_PHASE_RESPOND) or (
                t.offerer >= 0 and t.offerer != 1 - t.player):
            raise _c.ArgumentError("an offerer (the player not to act) in the respond phase only")
        _set_counts(tender, &t.tender[0], "tender")
        for ty in range(7):
            if t.tender[ty] > (t.pri[t.offerer][ty] if t.offerer >= 0 else 0):
                raise _c.ArgumentError(
                    "a tender of the offerer's prisoners in the respond phase only")
            v += t.tender[ty] * C_VALUE[ty]
        if (v > 0) != (t.phase == ALBEA_PHASE_RESPOND):
            raise _c.ArgumentError("the respond phase needs a non-empty tender")
        t.tender[7] = v
        if len(floor) != 2:
            raise _c.ArgumentError("floor holds two values")
        for i in range(2):
            t.floor[i] = check_int(floor[i], 0, 60, "floor")
        t.result = check_int(result, -1, 3, "result")
        if (t.result >= 0) != (t.phase == ALBEA_PHASE_OVER):
            raise _c.ArgumentError("a result needs the over phase, and the over phase a result")
        t.passes = check_int(passes, 0, 3 if t.result == 2 else 2, "passes")
        t.ply = check_int(ply, 0, ALBEA_MAX_PLY, "ply")
        if t.phase != ALBEA_PHASE_OVER and (_meets_win(&t, 0) or _meets_win(&t, 1)):
            # also what keeps the prisoners' sub-multisets within albea_list's buffers
            raise _c.ArgumentError("a non-terminal position with a run of six or six prisoners")
        self.s = t
        self._reset_history()
        self._setup = True


cdef inline int _small_int(object v, int hi, str what) except -1:
    """``check_int(v, 0, hi, what)``, with a fast path for a plain int (the usual case)."""
    if type(v) is int and 0 <= v < hi:  # compared as Python ints: a huge one is no error
        return <int>v
    return <int>check_int(v, 0, hi, what)


cdef int _set_counts(object counts, uint8_t* out, str what) except -1:
    """``out[0..6]`` = 7 per-type counts (each within the material), ``out[7]`` their sum."""
    cdef int ty, total = 0
    if len(counts) != 7:
        raise _c.ArgumentError(f"{what} holds 7 counts, one per type")
    for ty in range(7):
        out[ty] = _small_int(counts[ty], C_COUNT[ty] + 1, what)
        total += out[ty]
    out[7] = total
    return 0


cdef bint _material_ok(const AlbeaState* s) noexcept nogil:
    """No player has more pieces of a type on the board, in reserve and held by the opponent
    than exist: what keeps every stack within ALBEA_CAP and every count within its byte."""
    cdef int used[2][7]
    cdef int sq, i, p, t
    memset(used, 0, sizeof(used))
    for sq in range(16):
        for i in range(s.ht[sq]):
            used[piece_owner(s.pc[sq][i])][piece_type(s.pc[sq][i])] += 1
    for p in range(2):
        for t in range(7):
            if used[p][t] + s.res[p][t] + s.pri[1 - p][t] > C_COUNT[t]:
                return False
    return True
