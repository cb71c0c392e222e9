"""Plateau X kernel: bitboard move generation, make, plateau labelling, ranking keys, perft and
random playouts over a flat C struct, plus ``XCore``, the thin validated wrapper the Python
package builds its public state class on.

Square ``i`` is bit ``i`` of a ``uint64_t`` (``i = row * n + col``). Plateaus are the connected
components of the "same level" relation (``eq_e``/``eq_n``) among spaces of level >= 1; a step is
allowed along the "levels differ by one" relation (``step_e``/``step_n``). Both relations are
updated incrementally by builds, the only actions that change levels.

Kernels never raise and never check their input; ``XCore`` checks everything first.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from plateau_core._common cimport (
    GameCore, Playout, Rng, rng_seed, rng_below, run_playouts,
    splitmix64, pl_popcount, pl_ctz, nth_set_bit, check_int, check_seed, Work, work_tick, raise_pending, NODE_TICKS, PLY_TICKS,
    shared_points,
)


# ---------------------------------------------------------------------------------------------
# Variants
# ---------------------------------------------------------------------------------------------

#: name, board side, players, pieces per player, singles, doubles, triples in supply,
#: points by place (the rules page's variant table)
VARIANTS = (
    ("standard", 7, 4, 1, 2, 1, 37, (4.0, 2.0, 1.0, 0.0)),
    ("triple", 7, 3, 1, 2, 1, 37, (3.0, 1.0, 0.0)),
    ("mini", 6, 2, 1, 3, 1, 37, (1.0, 0.0)),
    ("double", 7, 2, 2, 3, 1, 37, (1.0, 0.0)),
)

cdef XSpec SPECS[4]

#: bytes of one position (the C struct), without its history
STATE_NBYTES = sizeof(XState)
#: bytes of history per applied action (an undo record and the action id)
HISTORY_NBYTES_PER_PLY = sizeof(XSnap)

cdef XState _layout_probe
# X_HOT_BYTES (x.pxd) is the size of the hot prefix of XState, everything before the tile
# table, as a compile-time constant so that copies of it compile to inline moves; check it.
if <size_t>(<char*>&_layout_probe.top[0] - <char*>&_layout_probe) != X_HOT_BYTES:
    raise ImportError("X_HOT_BYTES in plateau_core/x/core.pxd does not match the XState layout")


cdef void _build_spec(XSpec* sp, int index, int n, int players, int ppp,
                      int singles, int doubles, int triples) noexcept:
    cdef int r, c, sq, k
    sp.index = index
    sp.n = n
    sp.nn = n * n
    sp.players = players
    sp.ppp = ppp
    sp.npieces = players * ppp
    sp.singles = singles
    sp.doubles = doubles
    sp.triples = triples
    sp.board = 0
    sp.not_last_col = 0
    sp.not_last_row = 0
    sp.block = 0
    for k in range(64):
        sp.dh_index[k] = -1
        sp.blk_index[k] = -1
        sp.dh_anchor[k] = -1
        sp.blk_anchor[k] = -1
    k = 0
    for r in range(n):
        for c in range(n):
            sq = r * n + c
            sp.board |= (<uint64_t>1) << sq
            if c < n - 1:
                sp.not_last_col |= (<uint64_t>1) << sq
                sp.dh_index[sq] = r * (n - 1) + c
                sp.dh_anchor[r * (n - 1) + c] = sq
            if r < n - 1:
                sp.not_last_row |= (<uint64_t>1) << sq
            if c < n - 1 and r < n - 1:
                sp.block |= (<uint64_t>1) << sq
                sp.blk_index[sq] = r * (n - 1) + c
                sp.blk_anchor[r * (n - 1) + c] = sq
    sp.nb = (n - 1) * (n - 1)
    sp.has_west = sp.not_last_col << 1
    sp.base_s = 0
    sp.base_dh = sp.nn
    sp.base_dv = sp.base_dh + n * (n - 1)
    sp.base_t = sp.base_dv + n * (n - 1)
    sp.base_enter = sp.base_t + 4 * sp.nb
    sp.base_move = sp.base_enter + sp.nn
    sp.base_end = sp.base_move + sp.nn * (sp.nn - 1)
    sp.num_actions = sp.base_end + 1
    cdef int cells[3]
    cdef int a, m, shape, anchor
    for a in range(sp.base_enter):
        m = x_cells(sp, a, cells)
        sp.build_cover[a] = 0
        for k in range(m):
            sp.build_cover[a] |= (<uint64_t>1) << cells[k]
        if a < sp.base_dh:
            shape, anchor = 0, a - sp.base_s
        elif a < sp.base_dv:
            shape, anchor = 1, sp.dh_anchor[a - sp.base_dh]
        elif a < sp.base_t:
            shape, anchor = 2, a - sp.base_dv
        else:
            shape = 3 + (a - sp.base_t) // sp.nb
            anchor = sp.blk_anchor[(a - sp.base_t) % sp.nb]
        sp.build_shape[a] = shape
        sp.build_anchor[a] = anchor
        sp.border_n[a] = 0
        for k in range(m):
            c = cells[k]
            # (pair anchor, direction, neighbour) for the four sides of c
            for anchor2, direction, nb, ok in (
                (c - 1, 0, c - 1, c % n > 0),
                (c, 0, c + 1, c % n < n - 1),
                (c - n, 1, c - n, c >= n),
                (c, 1, c + n, c < sp.nn - n),
            ):
                if ok and not (sp.build_cover[a] >> nb) & 1:
                    sp.border[a][sp.border_n[a]][0] = anchor2
                    sp.border[a][sp.border_n[a]][1] = direction
                    sp.border[a][sp.border_n[a]][2] = nb
                    sp.border_n[a] += 1


for _i, _v in enumerate(VARIANTS):
    _build_spec(&SPECS[_i], _i, _v[1], _v[2], _v[3], _v[4], _v[5], _v[6])
    for _j, _pts in enumerate(_v[7]):
        SPECS[_i].points[_j] = _pts


cdef const XSpec* x_spec(int variant) noexcept nogil:
    return &SPECS[variant]


# ---------------------------------------------------------------------------------------------
# Zobrist keys (computed on the fly from a strong mix; no tables to keep in cache)
# ---------------------------------------------------------------------------------------------

# Keys come from SplitMix64 of distinct integers. A tile's key is its placement's key rotated by
# the level it lies at, so one table of X_MAX_BUILDS keys serves every level.
cdef uint64_t Z_TILE[X_MAX_BUILDS]
cdef uint64_t Z_PIECE[4][64]
cdef uint64_t Z_STOCK[4][2][8]
cdef uint64_t Z_SUPPLY[64]
cdef uint64_t Z_TOMOVE[4]
cdef uint64_t Z_ORDER[4][8]
cdef uint64_t Z_ENDED


cdef void _init_keys() noexcept:
    global Z_ENDED
    cdef uint64_t k = <uint64_t>0x51A7EA0C0FFEE
    cdef int i, j, c
    for i in range(X_MAX_BUILDS):
        k += 1
        Z_TILE[i] = splitmix64(k)
    for i in range(4):
        for j in range(64):
            k += 1
            Z_PIECE[i][j] = splitmix64(k)
        for j in range(2):
            for c in range(8):
                k += 1
                Z_STOCK[i][j][c] = splitmix64(k)
        for j in range(8):
            k += 1
            Z_ORDER[i][j] = splitmix64(k)
        k += 1
        Z_TOMOVE[i] = splitmix64(k)
    for i in range(64):
        k += 1
        Z_SUPPLY[i] = splitmix64(k)
    k += 1
    Z_ENDED = splitmix64(k)


_init_keys()


cdef inline uint64_t _rotl(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------

cdef inline uint64_t bit(int sq) noexcept nogil:
    return (<uint64_t>1) << sq


cdef void x_init(XState* s, const XSpec* sp, int first_player) noexcept nogil:
    cdef int i
    memset(s, 0, sizeof(XState))
    s.spec = sp
    s.ground = sp.board
    s.eq_e = sp.not_last_col
    s.eq_n = sp.not_last_row
    memset(s.top, X_NO_TILE, sizeof(s.top))
    s.zob = 0
    for i in range(4):
        s.pos[i] = -1
        s.stamp[i] = 0
        s.singles[i] = 0
        s.doubles[i] = 0
    for i in range(sp.players):
        s.singles[i] = sp.singles
        s.doubles[i] = sp.doubles
        s.zob ^= Z_STOCK[i][0][sp.singles]
        s.zob ^= Z_STOCK[i][1][sp.doubles]
    s.supply = sp.triples
    s.zob ^= Z_SUPPLY[sp.triples]
    s.player = first_player
    s.zob ^= Z_TOMOVE[first_player]
    s.ply = 0
    s.ended = 0


cdef uint64_t x_plateau(const XState* s, int sq) noexcept nogil:
    """The spaces of the plateau holding ``sq`` (0 if ``sq`` is at level 0)."""
    if s.level[sq] == 0:
        return 0
    cdef int n = s.spec.n
    cdef uint64_t eqe = s.eq_e, eqn = s.eq_n
    cdef uint64_t comp = bit(sq), grow
    while True:
        grow = comp | ((comp & eqe) << 1) | ((comp >> 1) & eqe) \
            | ((comp & eqn) << n) | ((comp >> n) & eqn)
        if grow == comp:
            return comp
        comp = grow


cdef inline uint64_t _reach(const XState* s, int start, uint64_t allowed) noexcept nogil:
    """Spaces a piece on ``start`` can end a move on: steps of exactly one level, into allowed."""
    cdef int n = s.spec.n
    cdef uint64_t se = s.step_e, sn = s.step_n
    cdef uint64_t seen = bit(start), front = seen, nxt
    while front:
        nxt = ((front & se) << 1) | ((front >> 1) & se) | ((front & sn) << n) | ((front >> n) & sn)
        front = nxt & allowed & ~seen
        seen |= front
    return seen & ~bit(start)


cdef inline uint64_t _blocked(const XState* s, int player) noexcept nogil:
    """Spaces closed to ``player``: the plateaus (level >= 1) holding another player's piece."""
    cdef const XSpec* sp = s.spec
    cdef uint64_t blocked = 0
    cdef int q, sq, own_lo = player * sp.ppp
    for q in range(sp.npieces):
        sq = s.pos[q]
        if sq >= 0 and (q < own_lo or q >= own_lo + sp.ppp) and s.level[sq] != 0 \
                and not (blocked & bit(sq)):
            blocked |= x_plateau(s, sq)
    return blocked


cdef void x_masks(const XState* s, XMasks* m) noexcept nogil:
    cdef const XSpec* sp = s.spec
    cdef int p = s.player, n = sp.n, i, q, sq, k, tmp, own_lo
    cdef uint64_t free, eqe, eqn, blk, allowed, dest
    cdef int8_t own[4]
    m.s = 0
    m.dh = 0
    m.dv = 0
    m.t[0] = 0
    m.t[1] = 0
    m.t[2] = 0
    m.t[3] = 0
    m.enter = 0
    m.nmove = 0
    m.end = 0
    if s.ended:
        return
    free = sp.board & ~s.occ
    eqe = s.eq_e
    eqn = s.eq_n
    # Build. A tile needs equal levels, no piece, and must not lie flush on a tile of its kind.
    if s.singles[p]:
        m.s = free & ~s.whole[0]
    if s.doubles[p]:
        m.dh = eqe & free & (free >> 1) & ~s.whole[1]
        m.dv = eqn & free & (free >> n) & ~s.whole[2]
    if s.supply > 0:
        blk = sp.block
        # orientation o leaves out corner o of the 2x2 block [a, a+1, a+n, a+n+1]
        m.t[0] = blk & (eqn >> 1) & (eqe >> n) & (free >> 1) & (free >> n) & (free >> (n + 1)) \
            & ~s.whole[3]
        m.t[1] = blk & eqn & (eqe >> n) & free & (free >> n) & (free >> (n + 1)) & ~s.whole[4]
        m.t[2] = blk & eqe & (eqn >> 1) & free & (free >> 1) & (free >> (n + 1)) & ~s.whole[5]
        m.t[3] = blk & eqe & eqn & free & (free >> 1) & (free >> n) & ~s.whole[6]
    # End is legal exactly when no build is.
    m.end = (m.s | m.dh | m.dv | m.t[0] | m.t[1] | m.t[2] | m.t[3]) == 0
    # Enter: a piece not yet in play goes to an unoccupied level-0 space.
    k = 0
    own_lo = p * sp.ppp
    for i in range(sp.ppp):
        q = own_lo + i
        if s.pos[q] < 0:
            m.enter = s.ground & free
        else:
            own[k] = s.pos[q]
            k += 1
    if k == 0:
        return
    # Move: opponents' plateaus (level >= 1) are closed; own pieces never block a plateau.
    allowed = free & ~_blocked(s, p)
    if k == 2 and own[1] < own[0]:
        tmp = own[0]
        own[0] = own[1]
        own[1] = tmp
    for i in range(k):
        dest = _reach(s, own[i], allowed)
        if dest:
            m.move_from[m.nmove] = own[i]
            m.move_to[m.nmove] = dest
            m.nmove += 1


cdef int x_count(const XMasks* m) noexcept nogil:
    cdef int total = pl_popcount(m.s) + pl_popcount(m.dh) + pl_popcount(m.dv) \
        + pl_popcount(m.t[0]) + pl_popcount(m.t[1]) + pl_popcount(m.t[2]) + pl_popcount(m.t[3]) \
        + pl_popcount(m.enter) + m.end
    cdef int i
    for i in range(m.nmove):
        total += pl_popcount(m.move_to[i])
    return total


cdef inline int move_id(const XSpec* sp, int f, int t) noexcept nogil:
    return sp.base_move + f * (sp.nn - 1) + (t if t < f else t - 1)


cdef int x_list(const XState* s, const XMasks* m, uint16_t* out) noexcept nogil:
    """Write the legal action ids in ascending order; return how many."""
    cdef const XSpec* sp = s.spec
    cdef int k = 0, o, i, sq, f
    cdef uint64_t b
    b = m.s
    while b:
        out[k] = sp.base_s + pl_ctz(b)
        k += 1
        b &= b - 1
    b = m.dh
    while b:
        out[k] = sp.base_dh + sp.dh_index[pl_ctz(b)]
        k += 1
        b &= b - 1
    b = m.dv
    while b:
        out[k] = sp.base_dv + pl_ctz(b)
        k += 1
        b &= b - 1
    for o in range(4):
        b = m.t[o]
        while b:
            out[k] = sp.base_t + o * sp.nb + sp.blk_index[pl_ctz(b)]
            k += 1
            b &= b - 1
    b = m.enter
    while b:
        out[k] = sp.base_enter + pl_ctz(b)
        k += 1
        b &= b - 1
    for i in range(m.nmove):
        f = m.move_from[i]
        b = m.move_to[i]
        while b:
            out[k] = move_id(sp, f, pl_ctz(b))
            k += 1
            b &= b - 1
    if m.end:
        out[k] = sp.base_end
        k += 1
    return k


cdef void x_fill_mask(const XState* s, const XMasks* m, uint8_t* out) noexcept nogil:
    """Write the 0/1 legality of every action id into ``out[0:num_actions]``."""
    cdef const XSpec* sp = s.spec
    cdef int o, i, f
    cdef uint64_t b
    memset(out, 0, sp.num_actions)
    b = m.s
    while b:
        out[sp.base_s + pl_ctz(b)] = 1
        b &= b - 1
    b = m.dh
    while b:
        out[sp.base_dh + sp.dh_index[pl_ctz(b)]] = 1
        b &= b - 1
    b = m.dv
    while b:
        out[sp.base_dv + pl_ctz(b)] = 1
        b &= b - 1
    for o in range(4):
        b = m.t[o]
        while b:
            out[sp.base_t + o * sp.nb + sp.blk_index[pl_ctz(b)]] = 1
            b &= b - 1
    b = m.enter
    while b:
        out[sp.base_enter + pl_ctz(b)] = 1
        b &= b - 1
    for i in range(m.nmove):
        f = m.move_from[i]
        b = m.move_to[i]
        while b:
            out[move_id(sp, f, pl_ctz(b))] = 1
            b &= b - 1
    out[sp.base_end] = m.end != 0


cdef bint x_masks_has(const XState* s, const XMasks* m, int a) noexcept nogil:
    """Whether action id ``a`` (0 <= a < num_actions) is among the legal ones in ``m``."""
    cdef const XSpec* sp = s.spec
    cdef int r, f, t, i
    if a < sp.base_dh:
        return (m.s >> (a - sp.base_s)) & 1
    if a < sp.base_dv:
        return (m.dh >> sp.dh_anchor[a - sp.base_dh]) & 1
    if a < sp.base_t:
        return (m.dv >> (a - sp.base_dv)) & 1
    if a < sp.base_enter:
        r = a - sp.base_t
        return (m.t[r // sp.nb] >> sp.blk_anchor[r % sp.nb]) & 1
    if a < sp.base_move:
        return (m.enter >> (a - sp.base_enter)) & 1
    if a < sp.base_end:
        r = a - sp.base_move
        f = r // (sp.nn - 1)
        t = r % (sp.nn - 1)
        if t >= f:
            t += 1
        for i in range(m.nmove):
            if m.move_from[i] == f:
                return (m.move_to[i] >> t) & 1
        return False
    return m.end != 0


cdef int x_cells(const XSpec* sp, int a, int* cells) noexcept nogil:
    """The spaces covered by build action ``a``, ascending; returns how many (1-3)."""
    cdef int n = sp.n, c, o, r
    if a < sp.base_dh:
        cells[0] = a - sp.base_s
        return 1
    if a < sp.base_dv:
        c = sp.dh_anchor[a - sp.base_dh]
        cells[0] = c
        cells[1] = c + 1
        return 2
    if a < sp.base_t:
        c = a - sp.base_dv
        cells[0] = c
        cells[1] = c + n
        return 2
    r = a - sp.base_t
    o = r // sp.nb
    c = sp.blk_anchor[r % sp.nb]
    if o == 0:
        cells[0] = c + 1
        cells[1] = c + n
        cells[2] = c + n + 1
    elif o == 1:
        cells[0] = c
        cells[1] = c + n
        cells[2] = c + n + 1
    elif o == 2:
        cells[0] = c
        cells[1] = c + 1
        cells[2] = c + n + 1
    else:
        cells[0] = c
        cells[1] = c + 1
        cells[2] = c + n
    return 3


cdef inline void _pair(uint64_t* eq, uint64_t* step, int a, int la, int lb) noexcept nogil:
    """Set bit ``a`` of the same-level and one-apart relations from the two levels (branchless)."""
    cdef int d = la - lb
    cdef uint64_t m = bit(a)
    eq[0] = (eq[0] & ~m) | ((<uint64_t>(d == 0)) << a)
    step[0] = (step[0] & ~m) | ((<uint64_t>(d * d == 1)) << a)


cdef void x_make(XState* s, int a) noexcept nogil:
    """Apply legal action ``a`` in place."""
    _make(s, a, True)


cdef inline void _make(XState* s, int a, bint tile_table) noexcept nogil:
    """Apply legal action ``a``; without ``tile_table`` the tile table and top tiles are left
    alone (perft's children, which never read them)."""
    cdef const XSpec* sp = s.spec
    cdef int p = s.player, n = sp.n, i, c, h, q, f, t, r, shape
    cdef uint64_t cover, b
    if a < sp.base_enter:
        cover = sp.build_cover[a]
        h = s.level[pl_ctz(cover)]
        # tiles with a covered space no longer lie fully on top (flush rule)
        s.whole[0] &= ~cover
        s.whole[1] &= ~(cover | (cover >> 1))
        s.whole[2] &= ~(cover | (cover >> n))
        s.whole[3] &= ~((cover >> 1) | (cover >> n) | (cover >> (n + 1)))
        s.whole[4] &= ~(cover | (cover >> n) | (cover >> (n + 1)))
        s.whole[5] &= ~(cover | (cover >> 1) | (cover >> (n + 1)))
        s.whole[6] &= ~(cover | (cover >> 1) | (cover >> n))
        shape = sp.build_shape[a]
        s.whole[shape] |= bit(sp.build_anchor[a])
        # the tile table and the top tile of each covered space
        if tile_table:
            s.tiles[s.ntiles] = a
            s.tile_level[s.ntiles] = h + 1
        if h == 0:
            s.ground &= ~cover
        # Levels rise by one under the tile. Pairs inside the tile keep their relations; the
        # pairs across its border (precomputed per action) are recomputed.
        b = cover
        while b:
            c = pl_ctz(b)
            b &= b - 1
            s.level[c] = h + 1
            if tile_table:
                s.top[c] = s.ntiles
        for i in range(sp.border_n[a]):
            c = sp.border[a][i][2]
            if sp.border[a][i][1]:
                _pair(&s.eq_n, &s.step_n, sp.border[a][i][0], s.level[c], h + 1)
            else:
                _pair(&s.eq_e, &s.step_e, sp.border[a][i][0], s.level[c], h + 1)
        s.ntiles += 1
        s.zob ^= _rotl(Z_TILE[a], h + 1)
        if shape == 0:
            s.zob ^= Z_STOCK[p][0][s.singles[p]]
            s.singles[p] -= 1
            s.zob ^= Z_STOCK[p][0][s.singles[p]]
        elif shape <= 2:
            s.zob ^= Z_STOCK[p][1][s.doubles[p]]
            s.doubles[p] -= 1
            s.zob ^= Z_STOCK[p][1][s.doubles[p]]
        else:
            s.zob ^= Z_SUPPLY[s.supply]
            s.supply -= 1
            s.zob ^= Z_SUPPLY[s.supply]
    elif a < sp.base_move:
        c = a - sp.base_enter
        for i in range(sp.ppp):
            q = p * sp.ppp + i
            if s.pos[q] < 0:
                break
        s.pos[q] = c
        s.stamp[q] = s.ply
        s.occ |= bit(c)
        s.zob ^= Z_PIECE[q][c]
    elif a < sp.base_end:
        r = a - sp.base_move
        f = r // (sp.nn - 1)
        t = r % (sp.nn - 1)
        if t >= f:
            t += 1
        for i in range(sp.ppp):
            q = p * sp.ppp + i
            if s.pos[q] == f:
                break
        s.pos[q] = t
        s.stamp[q] = s.ply
        s.occ = (s.occ & ~bit(f)) | bit(t)
        s.zob ^= Z_PIECE[q][f] ^ Z_PIECE[q][t]
    else:
        s.ended = 1
        s.zob ^= Z_ENDED
        s.ply += 1
        return
    s.zob ^= Z_TOMOVE[p]
    p += 1
    if p == sp.players:
        p = 0
    s.player = p
    s.zob ^= Z_TOMOVE[p]
    s.ply += 1


cdef uint64_t x_hash(const XState* s) noexcept nogil:
    """Zobrist key of the position: the incremental key plus the order of the pieces' stamps
    (only their order matters for the ranking, so positions that differ in absolute plies only
    hash alike)."""
    cdef uint64_t h = s.zob
    cdef int q, r, q2
    for q in range(s.spec.npieces):
        if s.pos[q] >= 0:
            r = 0
            for q2 in range(s.spec.npieces):
                if s.pos[q2] >= 0 and s.stamp[q2] < s.stamp[q]:
                    r += 1
            h ^= Z_ORDER[q][r]
    return h


cdef inline uint64_t _piece_key(const XState* s, int q) noexcept nogil:
    cdef int sq = s.pos[q]
    cdef uint64_t size
    if sq < 0:
        return 0
    size = pl_popcount(x_plateau(s, sq))
    return ((<uint64_t>1) << 60) | ((<uint64_t>s.level[sq]) << 52) | (size << 44) \
        | (((<uint64_t>1) << 40) - 1 - <uint64_t>s.stamp[q])


cdef void x_player_keys(const XState* s, uint64_t* keys) noexcept nogil:
    """Each player's standing as one integer (bigger is better): in play, level, plateau size,
    earlier stamp, of their best piece."""
    cdef int p, i
    cdef uint64_t k
    for p in range(s.spec.players):
        keys[p] = 0
        for i in range(s.spec.ppp):
            k = _piece_key(s, p * s.spec.ppp + i)
            if k > keys[p]:
                keys[p] = k


cdef int x_mobility(const XState* s, int player) noexcept nogil:
    """Spaces ``player``'s pieces could move to if it were their turn (summed over pieces)."""
    cdef XState t
    cdef XMasks m
    cdef int i, total = 0
    memcpy(&t, s, X_HOT_BYTES)
    t.player = player
    t.ended = 0
    x_masks(&t, &m)
    for i in range(m.nmove):
        total += pl_popcount(m.move_to[i])
    return total


cdef bint _leads(const XState* s, int player) noexcept nogil:
    """Whether ``player`` is alone in first place right now."""
    cdef uint64_t keys[4]
    cdef int q
    x_player_keys(s, keys)
    for q in range(s.spec.players):
        if q != player and keys[q] >= keys[player]:
            return False
    return True


cdef int x_random_game(XState* s, Rng* rng, int ply_cap, bint sensible_end,
                       Work* w) noexcept nogil:
    """Play random actions in place until the game ends or ``ply_cap`` actions were played;
    return whether it ended. Uniformly random, or with ``sensible_end``: a player who may End
    does so exactly when alone in first place, and otherwise plays a uniformly random other
    action. (The tile table of ``s`` is not kept up to date.) Stops early if ``w`` says so
    (Ctrl-C)."""
    cdef XMasks m
    cdef int plies = 0
    while not s.ended and plies < ply_cap:
        if work_tick(w, PLY_TICKS):
            break
        plies += 1
        x_masks(s, &m)
        if sensible_end and m.end and x_count(&m) > 1:
            if _leads(s, s.player):
                x_make(s, s.spec.base_end)
                continue
            m.end = 0
        x_make(s, x_random_action(s, &m, rng))
    return s.ended


cdef void x_returns(const XState* s, float* out) noexcept nogil:
    """Points by place per player (players who share places split their points)."""
    cdef uint64_t keys[4]
    cdef int p, q, place, tied
    x_player_keys(s, keys)
    for p in range(s.spec.players):
        place = 0
        tied = 0
        for q in range(s.spec.players):
            if keys[q] > keys[p]:
                place += 1
            elif keys[q] == keys[p]:
                tied += 1
        out[p] = shared_points(s.spec.points, place, tied)


cdef inline void _plane(float* out, uint64_t b, float v) noexcept nogil:
    while b:
        out[pl_ctz(b)] = v
        b &= b - 1


cdef void x_observe(const XState* s, int viewer, float* out) noexcept nogil:
    """Observation planes, ``(P + 8) x n x n`` floats, from the view of player ``viewer``.

    0: level; 1..P: pieces of the viewer, then of the next players in turn order;
    P+1, P+2, P+3: spaces under a single, double, triple lying fully on top (the flush rule);
    P+4: spaces closed to the viewer (opponents' plateaus); P+5, P+6: the viewer's
    singles and doubles left / 4 (broadcast); P+7: triples left in the supply / 37.
    """
    cdef const XSpec* sp = s.spec
    cdef int nn = sp.nn, n = sp.n, P = sp.players, i, q, rel, shape
    cdef int me = viewer
    cdef uint64_t b, cells
    for i in range((P + 8) * nn):
        out[i] = 0
    for i in range(nn):
        out[i] = s.level[i]
    for q in range(sp.npieces):
        if s.pos[q] >= 0:
            rel = (q // sp.ppp - me + P) % P
            out[(1 + rel) * nn + s.pos[q]] = 1
    # cells of the tiles lying fully on top, from their anchors
    b = s.whole[0]
    _plane(out + (P + 1) * nn, b, 1)
    _plane(out + (P + 2) * nn, s.whole[1] | (s.whole[1] << 1), 1)
    _plane(out + (P + 2) * nn, s.whole[2] | (s.whole[2] << n), 1)
    cells = (s.whole[3] << 1) | (s.whole[3] << n) | (s.whole[3] << (n + 1)) \
        | s.whole[4] | (s.whole[4] << n) | (s.whole[4] << (n + 1)) \
        | s.whole[5] | (s.whole[5] << 1) | (s.whole[5] << (n + 1)) \
        | s.whole[6] | (s.whole[6] << 1) | (s.whole[6] << n)
    _plane(out + (P + 3) * nn, cells, 1)
    if not s.ended:
        _plane(out + (P + 4) * nn, _blocked(s, me), 1)
    for i in range(nn):
        out[(P + 5) * nn + i] = s.singles[me] / 4.0
        out[(P + 6) * nn + i] = s.doubles[me] / 4.0
        out[(P + 7) * nn + i] = s.supply / 37.0


cdef uint64_t x_perft(const XState* s, int depth, bint bulk, uint16_t* bufs,
                     Work* w) noexcept nogil:
    """Leaves ``depth`` plies below s (bulk counting at the last ply). ``bufs`` holds
    ``depth * X_MAX_ACTIONS`` ids of scratch space (on the heap, so deep counts need little
    C stack). Unwinds with a meaningless count once ``w`` says stop (Ctrl-C)."""
    cdef XMasks m
    cdef XState child
    cdef int k, i
    cdef uint64_t total = 0
    if depth == 0:
        return 1
    if s.ended:
        return 0
    x_masks(s, &m)
    if depth == 1 and bulk:
        return x_count(&m)
    if depth >= 2 and work_tick(w, NODE_TICKS):
        return 0
    k = x_list(s, &m, bufs)
    for i in range(k):
        # children copy the hot prefix only: nothing below reads the tile table
        memcpy(&child, s, X_HOT_BYTES)
        _make(&child, bufs[i], False)
        total += x_perft(&child, depth - 1, bulk, bufs + X_MAX_ACTIONS, w)
    return total


cdef int x_random_action(const XState* s, const XMasks* m, Rng* rng) noexcept nogil:
    """A uniformly random legal action (the position must not be over)."""
    cdef const XSpec* sp = s.spec
    cdef int k = <int>rng_below(rng, <uint32_t>x_count(m)), c, o, i
    c = pl_popcount(m.s)
    if k < c:
        return sp.base_s + nth_set_bit(m.s, k)
    k -= c
    c = pl_popcount(m.dh)
    if k < c:
        return sp.base_dh + sp.dh_index[nth_set_bit(m.dh, k)]
    k -= c
    c = pl_popcount(m.dv)
    if k < c:
        return sp.base_dv + nth_set_bit(m.dv, k)
    k -= c
    for o in range(4):
        c = pl_popcount(m.t[o])
        if k < c:
            return sp.base_t + o * sp.nb + sp.blk_index[nth_set_bit(m.t[o], k)]
        k -= c
    c = pl_popcount(m.enter)
    if k < c:
        return sp.base_enter + nth_set_bit(m.enter, k)
    k -= c
    for i in range(m.nmove):
        c = pl_popcount(m.move_to[i])
        if k < c:
            return move_id(sp, m.move_from[i], nth_set_bit(m.move_to[i], k))
        k -= c
    return sp.base_end


# -- random playouts: the hooks of the shared loop (_common.run_playouts) ------------------

ctypedef struct XPlayoutCtx:
    const XSpec* sp
    int first


cdef void _po_start(Playout* p) noexcept nogil:
    cdef const XPlayoutCtx* c = <const XPlayoutCtx*>p.ctx
    x_init(<XState*>p.state, c.sp, c.first)


cdef long long _po_play(Playout* p, Rng* r, int cap, Work* w) noexcept nogil:
    cdef XState* st = <XState*>p.state
    x_random_game(st, r, cap, False, w)
    return st.ply


cdef bint _po_ended(const Playout* p) noexcept nogil:
    return (<const XState*>p.state).ended


cdef void _po_standing(const Playout* p, uint64_t* keys) noexcept nogil:
    x_player_keys(<const XState*>p.state, keys)


# ---------------------------------------------------------------------------------------------
# Layout helpers for the Python layer (notation lives there; the id layout lives here, once)
# ---------------------------------------------------------------------------------------------

cdef const XSpec* _checked_spec(object variant) except NULL:
    return &SPECS[check_int(variant, 0, 4, "variant index")]


def layout(variant):
    """The action-id layout and constants of a variant, as a dict."""
    cdef const XSpec* sp = _checked_spec(variant)
    return {
        "name": VARIANTS[variant][0], "n": sp.n, "players": sp.players, "ppp": sp.ppp,
        "singles": sp.singles, "doubles": sp.doubles, "triples": sp.triples,
        "base_s": sp.base_s, "base_dh": sp.base_dh, "base_dv": sp.base_dv, "base_t": sp.base_t,
        "base_enter": sp.base_enter, "base_move": sp.base_move, "base_end": sp.base_end,
        "num_actions": sp.num_actions,
    }


def decode(variant, action):
    """``(kind, squares)`` of action id ``a``: kind is one of "S", "D", "T" (squares ascending),
    "P" (the square entered), "M" (from, to) or "E" (no squares)."""
    cdef const XSpec* sp = _checked_spec(variant)
    cdef int cells[3]
    cdef int k, r, f, t
    cdef int a = check_int(action, 0, sp.num_actions, "action id")
    if a < sp.base_enter:
        k = x_cells(sp, a, cells)
        return ("S", "D", "T")[k - 1], tuple(cells[i] for i in range(k))
    if a < sp.base_move:
        return "P", (a - sp.base_enter,)
    if a < sp.base_end:
        r = a - sp.base_move
        f = r // (sp.nn - 1)
        t = r % (sp.nn - 1)
        if t >= f:
            t += 1
        return "M", (f, t)
    return "E", ()


def encode(variant, str kind, tuple squares):
    """Inverse of :func:`decode`; returns -1 if no action of that kind covers those squares."""
    cdef const XSpec* sp = _checked_spec(variant)
    cdef int n = sp.n, a, i
    cdef int cells[3]
    for sq in squares:
        if not (isinstance(sq, int) and 0 <= sq < sp.nn):
            return -1
    cdef list sqs = sorted(squares)
    if len(set(sqs)) != len(sqs):
        return -1
    if kind == "E":
        return sp.base_end if not sqs else -1
    if kind == "P":
        return sp.base_enter + sqs[0] if len(sqs) == 1 else -1
    if kind == "M":
        if len(squares) != 2:
            return -1
        return move_id(sp, squares[0], squares[1])
    if kind == "S":
        return sp.base_s + sqs[0] if len(sqs) == 1 else -1
    if kind == "D":
        if len(sqs) != 2:
            return -1
        if sqs[1] == sqs[0] + 1 and sqs[0] % n < n - 1:
            return sp.base_dh + sp.dh_index[sqs[0]]
        if sqs[1] == sqs[0] + n:
            return sp.base_dv + sqs[0]
        return -1
    if kind == "T":
        if len(sqs) != 3:
            return -1
        for a in range(sp.base_t, sp.base_enter):
            x_cells(sp, a, cells)
            if cells[0] == sqs[0] and cells[1] == sqs[1] and cells[2] == sqs[2]:
                return a
        return -1
    return -1


def random_playouts(variant, n, seed=0, ply_cap=400, first_player=0):
    """Play ``n`` uniformly random games inside the core (GIL released), game ``i`` seeded
    ``seed + i``, counted by the shared loop (``_common.run_playouts``: ``games``, ``plies``,
    ``ended``, ``wins``, ``draws``)."""
    cdef const XSpec* sp = _checked_spec(variant)
    cdef long games = check_int(n, 0, 2**62, "number of games")
    cdef uint64_t seed64 = check_seed(seed, "seed")
    cdef int plies_cap = check_int(ply_cap, 0, 2**31, "ply_cap")
    cdef XPlayoutCtx ctx
    cdef XState st
    cdef Playout p
    ctx.sp = sp
    ctx.first = check_int(first_player, 0, sp.players, "first_player")
    p.state = &st
    p.ctx = &ctx
    p.players = sp.players
    p.start = _po_start
    p.play = _po_play
    p.ended = _po_ended
    p.standing = _po_standing
    return run_playouts(&p, games, seed64, plies_cap)


# ---------------------------------------------------------------------------------------------
# XCore: one game in progress, with its undo history
# ---------------------------------------------------------------------------------------------

@cython.auto_pickle(False)  # pickling goes through the game record (GameState.__reduce__)
cdef class XCore(GameCore):
    """A Plateau X position with its history (the shared machinery is ``GameCore``'s). The
    public class ``plateau.PlateauXState`` adds notation, serialization and the diagram on
    top; everything here validates its input."""

    cdef XState s
    cdef XMasks _m              # legal masks of s, valid while _legal_ok
    cdef int _variant
    cdef int _first

    def __cinit__(self, *args, **kwargs):
        self._variant = 0
        self._first = 0
        x_init(&self.s, &SPECS[0], 0)
        self._set_spec()

    cdef void _set_spec(self) noexcept:
        self._snap_size = sizeof(XSnap)
        self._num_actions = self.s.spec.num_actions
        self._num_players = self.s.spec.players
        self._scratch_bytes = X_MAX_ACTIONS * sizeof(uint16_t)

    def _core_init(self, variant_index, first_player):
        cdef const XSpec* sp = _checked_spec(variant_index)
        cdef int variant = sp.index
        cdef int first = check_int(first_player, 0, sp.players, "first_player")
        self._variant = variant
        self._first = first
        self._reset_history()
        x_init(&self.s, sp, first)
        self._set_spec()

    # -- GameCore hooks -----------------------------------------------------------------------
    cdef int _gen(self) except -1:
        if not self._legal_ok:
            x_masks(&self.s, &self._m)
            self._legal_ok = True
        return 0

    cdef bint _has(self, long a) noexcept:
        return x_masks_has(&self.s, &self._m, a)

    cdef int _count(self) noexcept:
        return x_count(&self._m)

    cdef void _write_list(self, int64_t* out) noexcept:
        cdef uint16_t buf[X_MAX_ACTIONS]
        cdef int k = x_list(&self.s, &self._m, buf), i
        for i in range(k):
            out[i] = buf[i]

    cdef void _write_mask(self, uint8_t* out) noexcept:
        x_fill_mask(&self.s, &self._m, out)

    cdef void _save(self, char* snap_bytes, int a) noexcept:
        cdef XSnap* snap = <XSnap*>snap_bytes
        cdef uint64_t cover
        cdef int i = 0
        snap.action = a
        memcpy(snap.hot, &self.s, X_HOT_BYTES)
        if a < self.s.spec.base_enter:
            cover = self.s.spec.build_cover[a]
            while cover:
                snap.old_top[i] = self.s.top[pl_ctz(cover)]
                cover &= cover - 1
                i += 1

    cdef void _restore(self, const char* snap_bytes) noexcept:
        cdef const XSnap* snap = <const XSnap*>snap_bytes
        cdef int a = snap.action
        cdef uint64_t cover
        cdef int i = 0
        memcpy(&self.s, snap.hot, X_HOT_BYTES)
        if a < self.s.spec.base_enter:
            cover = self.s.spec.build_cover[a]
            while cover:
                self.s.top[pl_ctz(cover)] = snap.old_top[i]
                cover &= cover - 1
                i += 1

    cdef void _make(self, int a) noexcept:
        x_make(&self.s, a)

    cdef int _copy_to(self, GameCore other) except -1:
        cdef XCore o = <XCore>other
        o._variant = self._variant
        o._first = self._first
        o.s = self.s
        o._set_spec()
        o._m = self._m
        o._legal_ok = self._legal_ok
        return 0

    cdef bint _over(self) noexcept:
        return self.s.ended != 0

    cdef int _mover(self) noexcept:
        return self.s.player

    cdef uint64_t _perft_copy(self, int depth, bint bulk, void* scratch, Work* w) noexcept:
        cdef XState local
        cdef uint64_t r
        memcpy(&local, &self.s, X_HOT_BYTES)
        with nogil:
            r = x_perft(&local, depth, bulk, <uint16_t*>scratch, w)
        return r

    cdef void _playout_copy(self, uint64_t seed, int cap, bint sensible_end, double* out,
                            Work* w) noexcept:
        cdef XState t
        cdef Rng rng
        cdef float pts[4]
        cdef int p
        memcpy(&t, &self.s, X_HOT_BYTES)
        with nogil:
            rng_seed(&rng, seed)
            x_random_game(&t, &rng, cap, sensible_end, w)
            x_returns(&t, pts)
        for p in range(4):
            out[p] = pts[p]

    cdef void _observe(self, int viewer, float* out) noexcept:
        x_observe(&self.s, viewer, out)

    # -- Plateau X queries --------------------------------------------------------------------

    @property
    def board_size(self) -> int:
        return self.s.spec.n

    @property
    def pieces_per_player(self) -> int:
        return self.s.spec.ppp

    @property
    def ply(self) -> int:
        return self.s.ply

    @property
    def first_player(self) -> int:
        return self._first

    @property
    def supply(self) -> int:
        """Triples left in the common supply."""
        return self.s.supply

    @property
    def hash(self) -> int:
        """64-bit Zobrist hash of the position (not of the way it was reached)."""
        return x_hash(&self.s)

    @property
    def observation_shape(self) -> tuple:
        """Shape of :meth:`observation_tensor`: ``(players + 8, n, n)``."""
        return (self.s.spec.players + 8, self.s.spec.n, self.s.spec.n)

    def mobility(self, player) -> int:
        """How many spaces ``player``'s pieces could move to if it were their turn."""
        return x_mobility(&self.s, self._check_player(player))

    # -- position accessors used by the Python layer ------------------------------------------

    cdef int _sq(self, object sq) except -1:
        return check_int(sq, 0, self.s.spec.nn, "square index")

    def _level(self, sq) -> int:
        return self.s.level[self._sq(sq)]

    def _levels(self) -> list:
        return [self.s.level[i] for i in range(self.s.spec.nn)]

    def _top_tile(self, sq) -> int:
        """Index in the tile table of the tile on top of ``sq``, or -1 on the bare board."""
        cdef int t = self.s.top[self._sq(sq)]
        return -1 if t == X_NO_TILE else t

    def _tiles(self) -> list:
        """The tile table: ``(build action id, level)`` of each placed tile, in order."""
        return [(self.s.tiles[i], self.s.tile_level[i]) for i in range(self.s.ntiles)]

    def _plateau_mask(self, sq) -> int:
        return x_plateau(&self.s, self._sq(sq))

    def _positions(self) -> list:
        return [self.s.pos[q] for q in range(self.s.spec.npieces)]

    def _stamps(self) -> list:
        return [self.s.stamp[q] for q in range(self.s.spec.npieces)]

    def _stock(self, player) -> tuple:
        cdef int p = self._check_player(player)
        return self.s.singles[p], self.s.doubles[p]

    def _player_keys(self) -> list:
        cdef uint64_t keys[4]
        x_player_keys(&self.s, keys)
        return [keys[p] for p in range(self.s.spec.players)]

    @property
    def _variant_index(self) -> int:
        return self._variant
