# cython: language_level=3
"""Compiled move generation for Jim Albea's Plateau (1986).

Implements the action-id layout of docs/albea-plateau-design.md section 1, the flat ``AlbeaState`` of
section 2 and the generation / make kernels of section 3 for the perfect-information rules.
Kernels are ``noexcept nogil`` and never check input; :class:`AlbeaCore` validates everything.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int8_t, int32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, realloc, free

import numpy as np

from plateau_core._common cimport (
    GameCore, ListCore, Playout, Rng, ids_contain, new_array, run_playouts,
    rng_below, rng_seed, splitmix64, check_int, check_seed, check_depth, Work, work_tick,
    raise_pending, NODE_TICKS, PLY_TICKS,
)

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
    raise ValueError("empty stop list")


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
        BLOCK[o] = off
        MOVE_OFF[o] = total
        _PY_BLOCK.append(off)
        _PY_PATH_OFF.append(offs)
        _PY_MOVE_OFF.append(total)
        total += 10 * off
    assert total == ALBEA_BASE_STOMP - ALBEA_BASE_MOVE, total

_init_geometry()


# ------------------------------------------------------------------------------------------
# Small helpers
# ------------------------------------------------------------------------------------------
cdef inline uint32_t FULL(int n) noexcept nogil:
    return <uint32_t>((<uint64_t>1 << n) - 1)


cdef inline int top_unit(const AlbeaState* s, int sq) noexcept nogil:
    """Size of the top unit of square sq (0 if empty)."""
    cdef int n = s.ht[sq]
    if n == 0:
        return 0
    cdef uint32_t own = s.own[sq]
    cdef int me = (own >> (n - 1)) & 1
    cdef uint32_t mine = own if me else (~own & FULL(n))
    cdef int h = 0
    while h < n and ((mine >> (n - 1 - h)) & 1):
        h += 1
    return h


cdef inline void rebuild(AlbeaState* s, int sq) noexcept nogil:
    cdef int i
    cdef uint8_t b
    cdef uint32_t own = 0, col = 0
    for i in range(s.ht[sq]):
        b = s.pc[sq][i]
        own |= <uint32_t>piece_owner(b) << i
        if UPFACE[b & PIECE_FACES] != 0:
            col |= <uint32_t>1 << i
    s.own[sq] = own
    s.col[sq] = col


cdef inline bint has_run6(uint32_t m) noexcept nogil:
    cdef uint32_t a = m & (m >> 1)
    cdef uint32_t b = a & (a >> 2)
    return (b & (a >> 4)) != 0


# ------------------------------------------------------------------------------------------
# Init
# ------------------------------------------------------------------------------------------
cdef void albea_init(AlbeaState* s, int max_plies) noexcept nogil:
    cdef int p, t
    memset(s, 0, sizeof(AlbeaState))
    for p in range(2):
        for t in range(7):
            s.res[p][t] = C_COUNT[t]
        s.res[p][7] = 12
    s.phase = ALBEA_PHASE_OPENING
    s.player = 0
    s.offerer = -1
    s.result = -1
    s.max_plies = max_plies


# ------------------------------------------------------------------------------------------
# Generation
# ------------------------------------------------------------------------------------------
cdef int _walk_ray(const AlbeaState* s, const int8_t* psq, int L, int Lc, int pos, int lvl,
                   int g, uint32_t gcol, bint tc, int me, int base,
                   uint16_t* out, int cnt) noexcept nogil:
    """Depth-first stop walk on one ray; base = id of the subtree's first code."""
    cdef int r = L - pos
    cdef int off = 0
    cdef int d, t, n, u, unit, j, q, sub
    cdef bint enemy, allowed, endok
    cdef uint32_t ucol
    for d in range(pos + 1, Lc + 1):
        t = psq[d - 1]
        n = s.ht[t]
        enemy = n > 0 and ((s.own[t] >> (n - 1)) & 1) != <uint32_t>me
        if enemy:
            allowed = gcol != 0
            endok = tc
        else:
            allowed = True
            endok = True
        sub = TT[r - (d - pos)][lvl + 1] if lvl < 2 else 0
        if allowed:
            if endok:
                out[cnt] = <uint16_t>(base + off)
                cnt += 1
            if d < Lc and lvl < 2:
                if not enemy:
                    u = top_unit(s, t)
                    unit = g + u
                    ucol = (gcol << u) | ((s.col[t] >> (n - u)) & FULL(u)) if u > 0 else gcol
                    for j in range(1, unit + 1):
                        if j == g:
                            continue
                        q = j - 1 - (1 if j > g else 0)
                        cnt = _walk_ray(s, psq, L, Lc, d, lvl + 1, j,
                                        (ucol >> (unit - j)) & FULL(j), tc, me,
                                        base + off + 1 + q * sub, out, cnt)
                else:
                    for j in range(1, g):
                        if (gcol >> (g - j - 1)) & 1:
                            cnt = _walk_ray(s, psq, L, Lc, d, lvl + 1, j,
                                            (gcol >> (g - j)) & FULL(j), tc, me,
                                            base + off + 1 + (j - 1) * sub, out, cnt)
        off += 1 + (CJ[lvl] * sub if lvl < 2 else 0)
    return cnt


cdef inline bint _can_stop(const AlbeaState* s, int t, uint32_t gcol, int me) noexcept nogil:
    cdef int n = s.ht[t]
    if n == 0 or ((s.own[t] >> (n - 1)) & 1) == <uint32_t>me:
        return True
    return gcol != 0


cdef inline bint _can_end(const AlbeaState* s, int t, bint tc, int me) noexcept nogil:
    cdef int n = s.ht[t]
    if n == 0 or ((s.own[t] >> (n - 1)) & 1) == <uint32_t>me:
        return True
    return tc


cdef int _walk_twister(const AlbeaState* s, const int8_t* psq, int g, uint32_t gcol, bint tc,
                       int me, int base, uint16_t* out, int cnt) noexcept nogil:
    cdef int mid = psq[0], kn = psq[1]
    cdef int n, u, unit, j, q
    cdef uint32_t ucol, cg
    cdef bint enemy
    if _can_stop(s, kn, gcol, me) and _can_end(s, kn, tc, me):
        out[cnt] = <uint16_t>base
        cnt += 1
    if not _can_stop(s, mid, gcol, me):
        return cnt
    n = s.ht[mid]
    enemy = n > 0 and ((s.own[mid] >> (n - 1)) & 1) != <uint32_t>me
    if not enemy:
        u = top_unit(s, mid)
        unit = g + u
        ucol = (gcol << u) | ((s.col[mid] >> (n - u)) & FULL(u)) if u > 0 else gcol
        for j in range(1, unit + 1):
            if j == g:
                continue
            q = j - 1 - (1 if j > g else 0)
            cg = (ucol >> (unit - j)) & FULL(j)
            if _can_stop(s, kn, cg, me) and _can_end(s, kn, tc, me):
                out[cnt] = <uint16_t>(base + 1 + q)
                cnt += 1
    else:
        for j in range(1, g):
            if (gcol >> (g - j - 1)) & 1:
                cg = (gcol >> (g - j)) & FULL(j)
                if _can_stop(s, kn, cg, me) and _can_end(s, kn, tc, me):
                    out[cnt] = <uint16_t>(base + j)
                    cnt += 1
    return cnt


cdef inline int _ms_value(const uint8_t* c) noexcept nogil:
    cdef int t, v = 0
    for t in range(7):
        v += c[t] * C_VALUE[t]
    return v


cdef int _submultisets(const uint8_t* have, int* idx, int* val) noexcept nogil:
    """All non-empty sub-multisets of have[0..6]: their mixed-radix index and value,
    in ascending index order.  Returns how many."""
    cdef int c[7]
    cdef int t, n = 0, i, v
    for t in range(7):
        c[t] = 0
    while True:
        # increment (digit 0 least significant)
        t = 0
        while t < 7:
            if c[t] < have[t]:
                c[t] += 1
                break
            c[t] = 0
            t += 1
        if t == 7:
            return n
        i = 0
        v = 0
        for t in range(7):
            i += c[t] * C_W[t]
            v += c[t] * C_VALUE[t]
        idx[n] = i
        val[n] = v
        n += 1


cdef inline uint32_t _onboard_gaps(const AlbeaState* s, int sq, int me) noexcept nogil:
    """Bit g: a piece of ``me`` may be put in at level g of the stack on ``sq`` (the bottom or
    just above or below one of ``me``'s pieces; an empty square at level 0)."""
    cdef int n = s.ht[sq]
    cdef uint32_t mine
    if n == 0:
        return 1
    mine = s.own[sq] if me else (~s.own[sq] & FULL(n))
    return ((mine << 1) | mine) & FULL(n + 1)


cdef int _square_moves(const AlbeaState* s, int o, uint16_t* out, int cnt,
                       uint32_t* stomps) noexcept nogil:
    """Append the move ids (ascending) of the stack on ``o`` if the player to act owns its top,
    and set its stomps' bits (``o * 2 + flip``) in ``stomps``; returns the new length."""
    cdef int me = s.player, n = s.ht[o], h, nflip, flip, k, p, L, Lc, upf, base
    cdef uint32_t colp, gcol
    cdef bint tc
    cdef uint8_t top
    if n == 0 or ((s.own[o] >> (n - 1)) & 1) != <uint32_t>me:
        return cnt
    h = top_unit(s, o)
    top = s.pc[o][n - 1]
    nflip = 2 if TWOFACED[top & PIECE_FACES] else 1
    for flip in range(nflip):
        upf = UPFACE[(top ^ (flip * PIECE_UP)) & PIECE_FACES]
        tc = upf != 0
        colp = (s.col[o] & ~(<uint32_t>1 << (n - 1))) | ((<uint32_t>tc) << (n - 1))
        if h < n and tc:
            stomps[0] |= <uint32_t>1 << (o * 2 + flip)
        for k in range(1, h + 1):
            gcol = (colp >> (n - k)) & FULL(k)
            base = ALBEA_BASE_MOVE + MOVE_OFF[o] + (flip * 5 + k - 1) * BLOCK[o]
            for p in range(16):
                L = PATH_LEN[o][p]
                if L == 0:
                    continue
                if p < 4:
                    if upf != 0 and upf != 2:
                        continue
                elif p < 8:
                    if upf != 0 and upf != 1:
                        continue
                else:
                    if upf != 3:
                        continue
                if p < 8:
                    Lc = L if L < h else h
                    cnt = _walk_ray(s, &PATH_SQ[o][p][0], L, Lc, 0, 0, k, gcol, tc, me,
                                    base + PATH_OFF[o][p], out, cnt)
                else:
                    cnt = _walk_twister(s, &PATH_SQ[o][p][0], k, gcol, tc, me,
                                        base + PATH_OFF[o][p], out, cnt)
    return cnt


cdef int albea_is_legal(const AlbeaState* s, int a, uint16_t* buf) noexcept nogil:
    """1 if ``a`` (an id in range) is legal in ``s``, 0 if not (the answer of looking it up in
    ``albea_list``), -1 if only the whole list can tell: the opening, answers to a tender,
    tenders and pass. In play, an onboard is checked alone, a move or stomp against the moves
    of its square alone (``buf``: room for ``ALBEA_MAX_LEGAL`` ids)."""
    cdef int me = s.player, k, o, sq, g, n
    cdef uint32_t mine, gaps, stomps = 0
    if s.phase == ALBEA_PHASE_OVER:
        return 0
    if s.phase != ALBEA_PHASE_PLAY or a >= ALBEA_BASE_OFFER:
        return -1
    if a < ALBEA_BASE_ONBOARD:
        return 0                        # an opening action, in play
    if a < ALBEA_BASE_MOVE:
        k = a - ALBEA_BASE_ONBOARD
        g = k % 24
        o = k // 24 // 16
        sq = k // 24 % 16
        if s.res[me][7] == 0 or s.res[me][OT_TYPE[o]] == 0:
            return 0
        return <int>((_onboard_gaps(s, sq, me) >> g) & 1)
    if a < ALBEA_BASE_STOMP:
        o = 15
        while MOVE_OFF[o] > a - ALBEA_BASE_MOVE:
            o -= 1
        return ids_contain(buf, _square_moves(s, o, buf, 0, &stomps), a)
    k = a - ALBEA_BASE_STOMP
    _square_moves(s, k // 2, buf, 0, &stomps)
    return <int>((stomps >> k) & 1)


cdef int albea_list(const AlbeaState* s, uint16_t* out) noexcept nogil:
    """Every legal action id of s, in ascending id order (emission order = id order)."""
    cdef int cnt = 0
    cdef int me = s.player
    cdef int b, tp, sq, i, o, g, base, m, largest
    cdef uint32_t gaps, stomps = 0
    cdef int idx[64]
    cdef int val[64]
    if s.phase == ALBEA_PHASE_OVER:
        return 0
    if s.phase == ALBEA_PHASE_OPENING:
        for b in range(11):
            if s.res[me][OT_TYPE[b]] == 0:
                continue
            for tp in range(11):
                if s.res[me][OT_TYPE[tp]] - (1 if OT_TYPE[tp] == OT_TYPE[b] else 0) <= 0:
                    continue
                for i in range(12):
                    if s.ht[PERI[i]] == 0:
                        out[cnt] = <uint16_t>((b * 11 + tp) * 12 + i)
                        cnt += 1
        return cnt
    if s.phase == ALBEA_PHASE_RESPOND:
        m = _submultisets(&s.pri[me][0], idx, val)
        largest = 0
        for i in range(m):
            if val[i] <= s.tender[7] and val[i] > largest:
                largest = val[i]
        for i in range(m):
            if val[i] >= largest:
                out[cnt] = <uint16_t>(ALBEA_BASE_GIVE + idx[i] - 1)
                cnt += 1
        if largest == 0:
            out[cnt] = ALBEA_REFUSE
            cnt += 1
        return cnt
    # play phase: onboards
    if s.res[me][7] > 0:
        for o in range(11):
            if s.res[me][OT_TYPE[o]] == 0:
                continue
            for sq in range(16):
                gaps = _onboard_gaps(s, sq, me)
                base = ALBEA_BASE_ONBOARD + (o * 16 + sq) * 24
                while gaps:
                    g = 0
                    while not ((gaps >> g) & 1):
                        g += 1
                    gaps &= gaps - 1
                    out[cnt] = <uint16_t>(base + g)
                    cnt += 1
    # moves and stomps
    for o in range(16):
        cnt = _square_moves(s, o, out, cnt, &stomps)
    while stomps:
        i = 0
        while not ((stomps >> i) & 1):
            i += 1
        stomps &= stomps - 1
        out[cnt] = <uint16_t>(ALBEA_BASE_STOMP + i)
        cnt += 1
    # tenders
    m = _submultisets(&s.pri[me][0], idx, val)
    for i in range(m):
        if val[i] > s.floor[me]:
            out[cnt] = <uint16_t>(ALBEA_BASE_OFFER + idx[i] - 1)
            cnt += 1
    if cnt == 0:
        out[cnt] = ALBEA_PASS
        cnt += 1
    return cnt


# ------------------------------------------------------------------------------------------
# Make
# ------------------------------------------------------------------------------------------
cdef bint _meets_win(const AlbeaState* s, int p) noexcept nogil:
    cdef int sq, n
    if s.pri[p][7] >= 6:
        return True
    for sq in range(16):
        n = s.ht[sq]
        if n >= 6:
            if has_run6(s.own[sq] if p else (~s.own[sq] & FULL(n))):
                return True
    return False


cdef void _end(AlbeaState* s, int result) noexcept nogil:
    s.phase = ALBEA_PHASE_OVER
    s.result = result
    s.offerer = -1
    memset(&s.tender[0], 0, 8)


cdef void _check_win(AlbeaState* s, int mover) noexcept nogil:
    if _meets_win(s, mover):
        _end(s, mover)
    elif _meets_win(s, 1 - mover):
        _end(s, 1 - mover)


cdef void _flip_top(AlbeaState* s, int sq) noexcept nogil:
    cdef int n = s.ht[sq]
    s.pc[sq][n - 1] ^= PIECE_UP
    show_up(&s.pc[sq][n - 1])
    if n >= 2:
        show_up(&s.pc[sq][n - 2])
    rebuild(s, sq)


cdef int _capture(AlbeaState* s, int sq) noexcept nogil:
    cdef int n = s.ht[sq]
    cdef int me = piece_owner(s.pc[sq][n - 1])
    cdef int c = top_unit(s, sq)
    cdef int i, taken = 0, w
    cdef uint8_t b
    cdef uint32_t capt = 0
    if UPFACE[s.pc[sq][n - 1] & PIECE_FACES] == 0 or n == c:
        return 0
    i = n - c - 1
    while i >= 0 and taken < c:
        b = s.pc[sq][i]
        if piece_owner(b) != me:
            capt |= <uint32_t>1 << i
            taken += 1
            s.pc[sq][i] |= PIECE_SHOWN_BOTH
            if i >= 1:
                show_up(&s.pc[sq][i - 1])
            s.pri[me][piece_type(b)] += 1
            s.pri[me][7] += 1
        i -= 1
    w = 0
    for i in range(n):
        if not ((capt >> i) & 1):
            s.pc[sq][w] = s.pc[sq][i]
            w += 1
    s.ht[sq] = w
    rebuild(s, sq)
    if taken:
        s.floor[0] = 0
        s.floor[1] = 0
    return taken


cdef void _move_decode(int a, int* o, int* flip, int* k, int* p, int* code) noexcept nogil:
    cdef int m = a - ALBEA_BASE_MOVE
    cdef int i = 15
    while MOVE_OFF[i] > m:
        i -= 1
    o[0] = i
    m -= MOVE_OFF[i]
    cdef int fk = m // BLOCK[i]
    flip[0] = fk // 5
    k[0] = fk % 5 + 1
    m = m % BLOCK[i]
    cdef int q = 15
    while PATH_CNT[i][q] == 0 or PATH_OFF[i][q] > m:
        q -= 1
    p[0] = q
    code[0] = m - PATH_OFF[i][q]


cdef void _ms_from_index(int idx, uint8_t* c) noexcept nogil:
    cdef int t
    for t in range(6, -1, -1):
        c[t] = idx // C_W[t]
        idx = idx % C_W[t]


cdef void albea_make(AlbeaState* s, int a) noexcept nogil:
    cdef int me = s.player
    cdef int b, tp, sq, ot, g, n, i, o, flip, k, p, code, L, nst, t, jv, gsz
    cdef int stops[3]
    cdef int js[3]
    cdef uint8_t grp[24]
    cdef uint8_t c[7]
    cdef int resp, off
    if a < ALBEA_BASE_ONBOARD:
        ot = a // 12
        sq = PERI[a % 12]
        b = ot // 11
        tp = ot % 11
        s.res[me][OT_TYPE[b]] -= 1
        s.res[me][OT_TYPE[tp]] -= 1
        s.res[me][7] -= 2
        s.pc[sq][0] = make_piece(me, OT_TYPE[b], OT_UP[b])
        s.pc[sq][1] = make_piece(me, OT_TYPE[tp], OT_UP[tp])
        show_up(&s.pc[sq][1])
        s.ht[sq] = 2
        rebuild(s, sq)
        if me == 0:
            s.player = 1
        else:
            s.phase = ALBEA_PHASE_PLAY
            s.player = 0
    elif a < ALBEA_BASE_MOVE:
        i = a - ALBEA_BASE_ONBOARD
        g = i % 24
        i //= 24
        sq = i % 16
        ot = i // 16
        n = s.ht[sq]
        s.res[me][OT_TYPE[ot]] -= 1
        s.res[me][7] -= 1
        i = n
        while i > g:
            s.pc[sq][i] = s.pc[sq][i - 1]
            i -= 1
        s.pc[sq][g] = make_piece(me, OT_TYPE[ot], OT_UP[ot])
        show_up(&s.pc[sq][g])
        if 0 < g < n:
            show_up(&s.pc[sq][g - 1])
        s.ht[sq] = n + 1
        rebuild(s, sq)
        _check_win(s, me)
        if s.phase != ALBEA_PHASE_OVER:
            s.player = 1 - me
    elif a < ALBEA_BASE_STOMP:
        _move_decode(a, &o, &flip, &k, &p, &code)
        if p < 8:
            L = PATH_LEN[o][p]
            nst = RAY_DEC[L][code][0]
            gsz = k
            for i in range(nst):
                stops[i] = PATH_SQ[o][p][RAY_DEC[L][code][1 + i] - 1]
                if i < nst - 1:
                    jv = RAY_DECQ[L][code][i] + 1
                    if jv >= gsz:
                        jv += 1
                    js[i] = jv
                    gsz = jv
        else:
            if code == 0:
                nst = 1
                stops[0] = PATH_SQ[o][p][1]
            else:
                nst = 2
                stops[0] = PATH_SQ[o][p][0]
                stops[1] = PATH_SQ[o][p][1]
                jv = code
                if jv >= k:
                    jv += 1
                js[0] = jv
        if flip:
            _flip_top(s, o)
        n = s.ht[o]
        gsz = k
        memcpy(grp, &s.pc[o][n - k], k)
        s.ht[o] = n - k
        rebuild(s, o)
        for i in range(nst):
            t = stops[i]
            n = s.ht[t]
            memcpy(&s.pc[t][n], grp, gsz)
            n += gsz
            show_up(&s.pc[t][n - 1])
            if i < nst - 1:
                gsz = js[i]
                memcpy(grp, &s.pc[t][n - gsz], gsz)
                n -= gsz
                if n > 0:
                    show_up(&s.pc[t][n - 1])
            s.ht[t] = n
            rebuild(s, t)
        _capture(s, stops[nst - 1])
        _check_win(s, me)
        if s.phase != ALBEA_PHASE_OVER:
            s.player = 1 - me
    elif a < ALBEA_BASE_OFFER:
        i = a - ALBEA_BASE_STOMP
        sq = i >> 1
        if i & 1:
            _flip_top(s, sq)
        _capture(s, sq)
        _check_win(s, me)
        if s.phase != ALBEA_PHASE_OVER:
            s.player = 1 - me
    elif a < ALBEA_BASE_GIVE:
        _ms_from_index(a - ALBEA_BASE_OFFER + 1, c)
        for t in range(7):
            s.tender[t] = c[t]
        s.tender[7] = _ms_value(c)
        s.offerer = me
        s.phase = ALBEA_PHASE_RESPOND
        s.player = 1 - me
    elif a < ALBEA_REFUSE:
        resp = me
        off = s.offerer
        _ms_from_index(a - ALBEA_BASE_GIVE + 1, c)
        for t in range(7):
            s.pri[off][t] -= s.tender[t]
            s.pri[off][7] -= s.tender[t]
            s.res[resp][t] += s.tender[t]
            s.res[resp][7] += s.tender[t]
            s.pri[resp][t] -= c[t]
            s.pri[resp][7] -= c[t]
            s.res[off][t] += c[t]
            s.res[off][7] += c[t]
        s.floor[0] = 0
        s.floor[1] = 0
        s.phase = ALBEA_PHASE_PLAY
        memset(&s.tender[0], 0, 8)
        s.offerer = -1
        _check_win(s, resp)
        if s.phase != ALBEA_PHASE_OVER:
            s.player = resp
    elif a == ALBEA_REFUSE:
        off = s.offerer
        s.floor[off] = s.tender[7]
        s.phase = ALBEA_PHASE_PLAY
        memset(&s.tender[0], 0, 8)
        s.offerer = -1
        s.player = off
    else:
        s.passes += 1
        if s.passes >= 2:
            _end(s, 2)
        else:
            s.player = 1 - me
    # shown rule 1: the top piece of every stack
    for sq in range(16):
        if s.ht[sq]:
            show_up(&s.pc[sq][s.ht[sq] - 1])
    if a != ALBEA_PASS:
        s.passes = 0
    s.ply += 1
    if s.phase != ALBEA_PHASE_OVER and s.max_plies > 0 and s.ply >= s.max_plies:
        _end(s, 2)


cdef uint64_t albea_perft(const AlbeaState* s, int depth, bint bulk, uint16_t* bufs,
                     Work* w) noexcept nogil:
    """Leaves ``depth`` actions below s; with ``bulk`` the last ply is counted from the legal
    list instead of making each leaf (the same count: a check of albea_make against albea_list).
    ``bufs`` holds ``depth * ALBEA_MAX_LEGAL`` ids of scratch space (on the heap, so deep counts
    need little C stack). Unwinds with a meaningless count once ``w`` says stop (Ctrl-C)."""
    cdef int n, i
    cdef uint64_t total = 0
    cdef AlbeaState child
    if depth == 0:
        return 1
    if s.phase == ALBEA_PHASE_OVER:
        return 0
    if depth >= 2 and work_tick(w, NODE_TICKS):
        return 0
    n = albea_list(s, bufs)
    if depth == 1 and bulk:
        return n
    for i in range(n):
        child = s[0]
        albea_make(&child, bufs[i])
        total += albea_perft(&child, depth - 1, bulk, bufs + ALBEA_MAX_LEGAL, w)
    return total


cdef uint64_t albea_hash(const AlbeaState* s) noexcept nogil:
    """64-bit key of the position: pieces (square, level, owner, type, up), reserves,
    prisoners, tender, floors, phase, player, offerer, passes and result. Shown flags (what
    was seen, not where things stand) and the ply are left out (design section 2)."""
    cdef uint64_t h = splitmix64(<uint64_t>(s.phase + 4 * (s.player + 2 * (s.offerer + 1
                                 + 3 * (s.result + 1 + 4 * s.passes)))))
    cdef uint64_t w
    cdef int sq, i
    for sq in range(16):
        for i in range(s.ht[sq]):
            h ^= splitmix64(<uint64_t>(((sq * ALBEA_CAP + i) << 5) | (s.pc[sq][i] & PIECE_FACES))
                            + <uint64_t>0x51ED27B3A1F0C3D5)
    memcpy(&w, &s.res[0][0], 8)
    h = splitmix64(h ^ w)
    memcpy(&w, &s.res[1][0], 8)
    h = splitmix64(h ^ w)
    memcpy(&w, &s.pri[0][0], 8)
    h = splitmix64(h ^ w)
    memcpy(&w, &s.pri[1][0], 8)
    h = splitmix64(h ^ w)
    memcpy(&w, &s.tender[0], 8)
    h = splitmix64(h ^ w ^ (<uint64_t>s.floor[0] << 56) ^ (<uint64_t>s.floor[1] << 48))
    return h


cdef void albea_values(const AlbeaState* s, double* v) noexcept nogil:
    """The heuristic's per-player values (docs/albea-plateau.md): 10 per prisoner, 0.2 per point of
    their value, 3 per piece of the longest own run in a stack, 2 per own-topped stack, and 1
    per own colored top standing on a stack that holds an enemy piece."""
    cdef int sq, n, p, t, run, top
    cdef uint32_t mine, m
    v[0] = 0.0
    v[1] = 0.0
    cdef int best[2]
    best[0] = 0
    best[1] = 0
    for sq in range(16):
        n = s.ht[sq]
        if n == 0:
            continue
        for p in range(2):
            mine = s.own[sq] if p else (~s.own[sq] & FULL(n))
            m = mine
            run = 0
            while m:
                m &= m << 1
                run += 1
            if run > best[p]:
                best[p] = run
        top = piece_owner(s.pc[sq][n - 1])
        v[top] += 2.0
        mine = s.own[sq] if top else (~s.own[sq] & FULL(n))
        if UPFACE[s.pc[sq][n - 1] & PIECE_FACES] != 0 and mine != FULL(n):
            v[top] += 1.0
    for p in range(2):
        v[p] += 10.0 * s.pri[p][7] + 3.0 * best[p]
        for t in range(7):
            v[p] += 0.2 * C_VALUE[t] * s.pri[p][t]


cdef int albea_winning(const AlbeaState* s, uint16_t* out) noexcept nogil:
    """The legal actions after which the player to act has won (ascending); their number."""
    cdef uint16_t buf[ALBEA_MAX_LEGAL]
    cdef int n = albea_list(s, buf), i, k = 0
    cdef int me = s.player
    cdef AlbeaState child
    for i in range(n):
        child = s[0]
        albea_make(&child, buf[i])
        if child.result == me:
            out[k] = buf[i]
            k += 1
    return k


cdef int albea_random_game(AlbeaState* s, Rng* r, int ply_cap, Work* w) noexcept nogil:
    """Finish the game with uniformly random actions, at most ``ply_cap`` of them; returns the
    plies played (a capped game is left unfinished). Stops early if ``w`` says so (Ctrl-C)."""
    cdef uint16_t buf[ALBEA_MAX_LEGAL]
    cdef int n, plies = 0
    while (s.phase != ALBEA_PHASE_OVER and plies < ply_cap
           and s.ply < ALBEA_PLY_CEILING):
        if work_tick(w, PLY_TICKS):
            break
        n = albea_list(s, buf)
        if n == 0:
            break  # not reachable from a validated position (load_dict refuses it)
        albea_make(s, buf[rng_below(r, <uint32_t>n)])
        plies += 1
    return plies


cdef void albea_observe(const AlbeaState* s, int viewer, float* out) noexcept nogil:
    """Observation planes of ``viewer`` (design section 4), float32 (276, 4, 4), zeroed by the
    caller: per level 10 planes (own piece, opponent piece, known up face x/b/r/o, known
    down face x/b/r/o), then 36 constant planes of counts and flags."""
    cdef int sq, i, t, up, plane, f, p
    cdef uint8_t b
    cdef bint known_up, known_down
    cdef float v
    cdef float vals[36]
    for sq in range(16):
        for i in range(s.ht[sq]):
            b = s.pc[sq][i]
            up = piece_up(b)
            plane = i * 10
            if piece_owner(b) == viewer:
                out[plane * 16 + sq] = 1.0
                known_up = True
                known_down = True
            else:
                out[(plane + 1) * 16 + sq] = 1.0
                known_up = piece_shown(b, up)
                known_down = piece_shown(b, 1 - up)
                if (known_up and UPFACE[b & PIECE_FACES] == 3) or (
                        known_down and UPFACE[(b ^ PIECE_UP) & PIECE_FACES] == 3):
                    known_up = True     # an orange face identifies the piece (ox)
                    known_down = True
            if known_up:
                out[(plane + 2 + UPFACE[b & PIECE_FACES]) * 16 + sq] = 1.0
            if known_down:
                out[(plane + 6 + UPFACE[(b ^ PIECE_UP) & PIECE_FACES]) * 16 + sq] = 1.0
    for t in range(7):
        vals[t] = s.res[viewer][t] / <float>C_COUNT[t]
        vals[8 + t] = s.pri[viewer][t] / <float>C_COUNT[t]
        vals[15 + t] = s.pri[1 - viewer][t] / <float>C_COUNT[t]
        vals[22 + t] = (s.tender[t] / <float>C_COUNT[t]) if s.phase == ALBEA_PHASE_RESPOND else 0.0
    vals[7] = s.res[1 - viewer][7] / 12.0
    vals[29] = s.floor[viewer] / 59.0
    vals[30] = s.floor[1 - viewer] / 59.0
    for f in range(3):
        vals[31 + f] = 1.0 if s.phase == f else 0.0
    vals[34] = s.passes
    vals[35] = 1.0 if (s.phase != ALBEA_PHASE_OVER and s.player == viewer) else 0.0
    for p in range(36):
        v = vals[p]
        if v != 0.0:
            for sq in range(16):
                out[(240 + p) * 16 + sq] = v


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
        "bases": {"opening": ALBEA_BASE_OPEN, "onboard": ALBEA_BASE_ONBOARD, "move": ALBEA_BASE_MOVE,
                  "stomp": ALBEA_BASE_STOMP, "offer": ALBEA_BASE_OFFER, "give": ALBEA_BASE_GIVE,
                  "refuse": ALBEA_REFUSE, "pass": ALBEA_PASS},
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
    _move_decode(a, &o, &flip, &k, &p, &code)
    return o, flip, k, p, code


cdef tuple _move_stops(int a):
    """``(origin, flip, k, squares, carries)`` of move id ``a``: the stop squares in order
    and the group carried on from each stop but the last."""
    cdef int o, flip, k, p, code, g, j, n
    _move_decode(a, &o, &flip, &k, &p, &code)
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

cdef object _INT64 = np.int64


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
        (<AlbeaSnap*>snap).action = a
        (<AlbeaSnap*>snap).s = self.s

    cdef void _restore(self, const char* snap) noexcept:
        self.s = (<const AlbeaSnap*>snap).s

    cdef void _make(self, int a) noexcept:
        albea_make(&self.s, a)

    cdef int _copy_to(self, GameCore other) except -1:
        (<AlbeaCore>other).s = self.s
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
        rng_seed(&r, seed)
        with nogil:
            albea_random_game(&st, &r, cap, w)
        if st.phase != ALBEA_PHASE_OVER or st.result == 2:
            out[0] = out[1] = 0.5
        else:
            out[st.result] = 1.0
            out[1 - st.result] = 0.0

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

    @property
    def hash(self) -> int:
        """64-bit key of the position (shown flags and the ply left out)."""
        return albea_hash(&self.s)

    @property
    def phase(self) -> str:
        """``opening``, ``play``, ``respond`` (an exchange answer is due) or ``over``."""
        return PHASES[self.s.phase]

    @property
    def ply(self) -> int:
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
        cdef void* data
        cdef int k = albea_winning(&self.s, buf), i
        out = new_array(k, _INT64, False, &data)
        cdef int64_t* p = <int64_t*>data
        for i in range(k):
            p[i] = buf[i]
        return out

    def _values(self) -> tuple:
        """The heuristic's values of both players (see ``heuristic``)."""
        cdef double v[2]
        albea_values(&self.s, v)
        return (v[0], v[1])

    @property
    def observation_shape(self) -> tuple:
        """Shape of :meth:`observation_tensor`: ``(276, 4, 4)``."""
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
                raise ValueError("a retyped piece is (square, level, type, up)")
            sq = _small_int(item[0], 16, "square")
            lv = _small_int(item[1], other.s.ht[sq], "level")
            t = _small_int(item[2], 7, "type")
            up = _small_int(item[3], 2 if TWOFACED[make_piece(0, t, 0)] else 1, "up")
            b = other.s.pc[sq][lv]
            if piece_owner(b) != opp:
                raise ValueError("a determinization may retype only the opponent's pieces")
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
        _set_counts(reserve, &other.s.res[opp][0], "reserve")
        if not _material_ok(&other.s):
            raise ValueError("a determinization must not hold more pieces than exist")
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
            raise ValueError("board must hold 16 stacks")
        for sq in range(16):
            st = board[sq]
            n = len(st)
            if n > ALBEA_CAP:
                raise ValueError(f"stack {sq} holds {n} pieces; at most {ALBEA_CAP} fit")
            for i in range(n):
                pce = st[i]
                if len(pce) != 5:
                    raise ValueError("a piece is (owner, type, up, shown0, shown1)")
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
            raise ValueError("reserve and prisoners hold two lists of counts")
        for i in range(2):
            _set_counts(reserve[i], &t.res[i][0], "reserve")
            _set_counts(prisoners[i], &t.pri[i][0], "prisoners")
        if not _material_ok(&t):
            raise ValueError("more pieces than exist")
        t.phase = check_int(phase, 0, 4, "phase")
        t.player = check_int(player, 0, 2, "player")
        t.offerer = check_int(offerer, -1, 2, "offerer")
        if (t.offerer >= 0) != (t.phase == ALBEA_PHASE_RESPOND) or (
                t.offerer >= 0 and t.offerer != 1 - t.player):
            raise ValueError("an offerer (the player not to act) in the respond phase only")
        _set_counts(tender, &t.tender[0], "tender")
        for ty in range(7):
            if t.tender[ty] > (t.pri[t.offerer][ty] if t.offerer >= 0 else 0):
                raise ValueError("a tender of the offerer's prisoners in the respond phase only")
            v += t.tender[ty] * C_VALUE[ty]
        if (v > 0) != (t.phase == ALBEA_PHASE_RESPOND):
            raise ValueError("the respond phase needs a non-empty tender")
        t.tender[7] = v
        if len(floor) != 2:
            raise ValueError("floor holds two values")
        for i in range(2):
            t.floor[i] = check_int(floor[i], 0, 60, "floor")
        t.result = check_int(result, -1, 3, "result")
        if (t.result >= 0) != (t.phase == ALBEA_PHASE_OVER):
            raise ValueError("a result needs the over phase, and the over phase a result")
        t.passes = check_int(passes, 0, 3 if t.result == 2 else 2, "passes")
        t.ply = check_int(ply, 0, ALBEA_MAX_PLY, "ply")
        if t.phase != ALBEA_PHASE_OVER and (_meets_win(&t, 0) or _meets_win(&t, 1)):
            # also what keeps the prisoners' sub-multisets within albea_list's buffers
            raise ValueError("a non-terminal position with a run of six or six prisoners")
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
        raise ValueError(f"{what} holds 7 counts, one per type")
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
