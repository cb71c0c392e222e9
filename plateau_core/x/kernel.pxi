# Plateau X: the nogil kernels, over flat C structs and raw arrays (no Python objects here).
# Included by core.pyx, which adds the Python-facing parts (tables, module functions and the
# wrapper class): one compiled module, so that the kernels' calls to one another stay direct.

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
    if (s.ground >> sq) & 1:
        return 0
    return _component(s, sq)


cdef inline uint64_t _component(const XState* s, int sq) noexcept nogil:
    """The spaces joined to ``sq`` through sides of equal level (its plateau if it is above
    level 0); reads the relations only."""
    return _joined(s, bit(sq))


cdef inline uint64_t _joined(const XState* s, uint64_t comp) noexcept nogil:
    """The spaces joined to any space of ``comp`` through sides of equal level: the union of
    their components, in one flood (the relation is symmetric)."""
    cdef int n = s.spec.n
    cdef uint64_t eqe = s.eq_e, eqn = s.eq_n, grow
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
    cdef uint64_t own = 0
    cdef int q
    for q in range(player * sp.ppp, (player + 1) * sp.ppp):
        if s.pos[q] >= 0:
            own |= bit(s.pos[q])
    return _closed(s, own)


cdef inline uint64_t _closed(const XState* s, uint64_t own) noexcept nogil:
    """``_blocked`` given the spaces of the player's own pieces (``own``): the other pieces
    above level 0 are the occupied spaces less those, and their plateaus one flood."""
    cdef uint64_t seeds = s.occ & ~own & ~s.ground
    return _joined(s, seeds) if seeds else 0


cdef void x_masks(const XState* s, XMasks* m) noexcept nogil:
    """The legal actions of ``s`` as masks."""
    _masks(s, m)


cdef inline void _builds(const XState* s, int p, uint64_t free, int n,
                         XMasks* m) noexcept nogil:
    """The build masks of player ``p`` (``n``: the board side) and End."""
    cdef uint64_t eqe = s.eq_e, eqn = s.eq_n, blk
    cdef uint64_t bs = 0, bdh = 0, bdv = 0, t0 = 0, t1 = 0, t2 = 0, t3 = 0
    # (the masks are worked out in locals and stored once: stores through m could alias
    # the position's words, and would make the compiler read them again)
    # A tile needs equal levels, no piece, and must not lie flush on a tile of its kind.
    if s.singles[p]:
        bs = free & ~s.whole[0]
    if s.doubles[p]:
        bdh = eqe & free & (free >> 1) & ~s.whole[1]
        bdv = eqn & free & (free >> n) & ~s.whole[2]
    if s.supply > 0:
        blk = s.spec.block
        # orientation o leaves out corner o of the 2x2 block [a, a+1, a+n, a+n+1]
        t0 = blk & (eqn >> 1) & (eqe >> n) & (free >> 1) & (free >> n) & (free >> (n + 1)) \
            & ~s.whole[3]
        t1 = blk & eqn & (eqe >> n) & free & (free >> n) & (free >> (n + 1)) & ~s.whole[4]
        t2 = blk & eqe & (eqn >> 1) & free & (free >> 1) & (free >> (n + 1)) & ~s.whole[5]
        t3 = blk & eqe & eqn & free & (free >> 1) & (free >> n) & ~s.whole[6]
    m.s = bs
    m.dh = bdh
    m.dv = bdv
    m.t[0] = t0
    m.t[1] = t1
    m.t[2] = t2
    m.t[3] = t3
    # End is legal exactly when no build is.
    m.end = (bs | bdh | bdv | t0 | t1 | t2 | t3) == 0


cdef inline void _masks(const XState* s, XMasks* m) noexcept nogil:
    cdef const XSpec* sp = s.spec
    cdef int p = s.player, n = sp.n, i, q, sq, k, tmp, own_lo
    cdef uint64_t free, allowed, dest, mine
    cdef int8_t own[4]
    m.enter = 0
    m.nmove = 0
    if s.ended:
        m.s = m.dh = m.dv = m.t[0] = m.t[1] = m.t[2] = m.t[3] = 0
        m.end = 0
        return
    free = sp.board & ~s.occ
    _builds(s, p, free, n, m)
    # Enter: a piece not yet in play goes to an unoccupied level-0 space.
    k = 0
    mine = 0
    own_lo = p * sp.ppp
    for i in range(sp.ppp):
        q = own_lo + i
        if s.pos[q] < 0:
            m.enter = s.ground & free
        else:
            own[k] = s.pos[q]
            mine |= bit(own[k])
            k += 1
    if k == 0:
        return
    # Move: opponents' plateaus (level >= 1) are closed; own pieces never block a plateau.
    allowed = free & ~_closed(s, mine)
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
    return _count(m)


cdef inline int _count(const XMasks* m) noexcept nogil:
    cdef int total = pl_popcount(m.s) + pl_popcount(m.dh) + pl_popcount(m.dv) \
        + pl_popcount(m.t[0]) + pl_popcount(m.t[1]) + pl_popcount(m.t[2]) + pl_popcount(m.t[3]) \
        + pl_popcount(m.enter) + m.end
    cdef int i
    for i in range(m.nmove):
        total += pl_popcount(m.move_to[i])
    return total


cdef inline int move_id(const XSpec* sp, int f, int t) noexcept nogil:
    return sp.base_move + f * (sp.nn - 1) + (t if t < f else t - 1)


ctypedef fused id_out:
    uint16_t
    int64_t


cdef int x_list(const XState* s, const XMasks* m, uint16_t* out) noexcept nogil:
    """Write the legal action ids in ascending order; return how many."""
    return x_list_into(s, m, out)


cdef inline int x_list_into(const XState* s, const XMasks* m, id_out* out) noexcept nogil:
    """x_list into either width of id (``legal_actions`` writes int64 straight into its
    array)."""
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
        f = sp.move_from[a - sp.base_move]
        t = sp.move_to[a - sp.base_move]
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


cdef inline void _build_board(const XSpec* sp, const uint8_t* level, int a, int h, int p,
                              XState* s) noexcept nogil:
    """What player ``p``'s build ``a`` on spaces of level ``h`` changes in ``s`` besides the
    levels, the tile table and the key: the stock it came from, the tiles lying whole on top
    (flush rule), the ground, and the relations of the pairs across the tile's border (the
    levels of the spaces outside it read from ``level``; pairs inside the tile keep theirs)."""
    cdef int n = sp.n, i, d, nb, shape = sp.build_shape[a]
    cdef uint64_t cover = sp.build_cover[a], eq, step
    if shape == 0:
        s.singles[p] -= 1
    elif shape <= 2:
        s.doubles[p] -= 1
    else:
        s.supply -= 1
    # tiles with a covered space no longer lie whole on top
    s.whole[0] &= ~cover
    s.whole[1] &= ~(cover | (cover >> 1))
    s.whole[2] &= ~(cover | (cover >> n))
    s.whole[3] &= ~((cover >> 1) | (cover >> n) | (cover >> (n + 1)))
    s.whole[4] &= ~(cover | (cover >> n) | (cover >> (n + 1)))
    s.whole[5] &= ~(cover | (cover >> 1) | (cover >> (n + 1)))
    s.whole[6] &= ~(cover | (cover >> 1) | (cover >> n))
    s.whole[shape] |= bit(sp.build_anchor[a])
    if h == 0:
        s.ground &= ~cover
    # each border pair: its bit in the same-level relation if the outside space is at the
    # tile's level h + 1, in the one-apart relation if it is one above or below. With every
    # outside space on the ground (most builds of an opening), no pair is level and all are
    # one apart exactly when the tile lies on the ground too: no loop over the pairs
    if (sp.border_out[a] & ~s.ground) == 0:
        s.eq_e &= ~sp.border_mask_e[a]
        s.eq_n &= ~sp.border_mask_n[a]
        if h == 0:
            s.step_e |= sp.border_mask_e[a]
            s.step_n |= sp.border_mask_n[a]
        else:
            s.step_e &= ~sp.border_mask_e[a]
            s.step_n &= ~sp.border_mask_n[a]
        return
    nb = sp.border_e[a]
    eq = s.eq_e & ~sp.border_mask_e[a]
    step = s.step_e & ~sp.border_mask_e[a]
    for i in range(nb):
        d = level[sp.border[a][i][1]] - (h + 1)
        eq |= (<uint64_t>(d == 0)) << sp.border[a][i][0]
        step |= (<uint64_t>(((d + 1) & ~2) == 0)) << sp.border[a][i][0]  # d = +-1
    s.eq_e = eq
    s.step_e = step
    eq = s.eq_n & ~sp.border_mask_n[a]
    step = s.step_n & ~sp.border_mask_n[a]
    for i in range(nb, sp.border_n[a]):
        d = level[sp.border[a][i][1]] - (h + 1)
        eq |= (<uint64_t>(d == 0)) << sp.border[a][i][0]
        step |= (<uint64_t>(((d + 1) & ~2) == 0)) << sp.border[a][i][0]
    s.eq_n = eq
    s.step_n = step


cdef inline int _piece_on(const XState* s, int p, int sq) noexcept nogil:
    """Player ``p``'s first piece on ``sq`` (-1: its first piece not yet in play)."""
    cdef int q, last = (p + 1) * s.spec.ppp - 1
    for q in range(p * s.spec.ppp, last):
        if s.pos[q] == sq:
            return q
    return last  # (the caller knows there is one)


cdef void x_make(XState* s, int a) noexcept nogil:
    """Apply legal action ``a`` in place."""
    _make(s, a, True)


cdef inline void _make(XState* s, int a, bint full) noexcept nogil:
    """Apply legal action ``a``; without ``full`` the tile table, the top tiles and the
    Zobrist key are left alone (perft's children, which never read them)."""
    cdef const XSpec* sp = s.spec
    cdef int p = s.player, c, h, q, f, t, r, shape
    cdef uint64_t cover, b
    if a < sp.base_enter:
        cover = sp.build_cover[a]
        h = s.level[pl_ctz(cover)]
        shape = sp.build_shape[a]
        if full:  # (the key of the stock before the build; the build takes one tile)
            if shape == 0:
                s.zob ^= Z_STOCK[p][0][s.singles[p]] ^ Z_STOCK[p][0][s.singles[p] - 1]
            elif shape <= 2:
                s.zob ^= Z_STOCK[p][1][s.doubles[p]] ^ Z_STOCK[p][1][s.doubles[p] - 1]
            else:
                s.zob ^= Z_SUPPLY[s.supply] ^ Z_SUPPLY[s.supply - 1]
        _build_board(sp, s.level, a, h, p, s)
        # the tile table, and the levels (and top tile) of the covered spaces
        if full:
            s.tiles[s.ntiles] = a
            s.tile_level[s.ntiles] = h + 1
        b = cover
        while b:
            c = pl_ctz(b)
            b &= b - 1
            s.level[c] = h + 1
            if full:
                s.top[c] = s.ntiles
        s.ntiles += 1
        if full:
            s.zob ^= _rotl(Z_TILE[a], h + 1)
    elif a < sp.base_move:
        c = a - sp.base_enter
        q = _piece_on(s, p, -1)
        s.pos[q] = c
        s.stamp[q] = s.ply
        s.occ |= bit(c)
        if full:
            s.zob ^= Z_PIECE[q][c]
    elif a < sp.base_end:
        r = a - sp.base_move
        f = sp.move_from[r]
        t = sp.move_to[r]
        q = _piece_on(s, p, f)
        s.pos[q] = t
        s.stamp[q] = s.ply
        s.occ = (s.occ & ~bit(f)) | bit(t)
        if full:
            s.zob ^= Z_PIECE[q][f] ^ Z_PIECE[q][t]
    else:
        s.ended = 1
        if full:
            s.zob ^= Z_ENDED
        s.ply += 1
        return
    if full:
        s.zob ^= Z_TOMOVE[p]
    p += 1
    if p == sp.players:
        p = 0
    s.player = p
    if full:
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
    action. (The tile table, the top tiles and the hash key of ``s`` are not kept up to date:
    callers read only its standings.) Stops early if ``w`` says so (Ctrl-C)."""
    cdef XMasks m
    cdef int plies = 0
    while not s.ended and plies < ply_cap:
        if work_tick(w, PLY_TICKS):
            break
        plies += 1
        _masks(s, &m)
        if sensible_end and m.end and _count(&m) > 1:
            if _leads(s, s.player):
                _make(s, s.spec.base_end, False)
                continue
            m.end = 0
        _make(s, x_random_action(s, &m, rng), False)
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


ctypedef struct XNext:
    # The moves of the player who acts after ``s`` (perft's last ply), worked out once on the
    # board of ``s``: a build's child has the same ones where the build changes no relation
    # that their floods read.
    uint64_t closed     # the spaces closed to that player (their flood visits these only)
    uint64_t allowed    # the spaces its pieces may move to
    uint64_t touch[4]   # each piece in play: the spaces its reach's flood visits
    int moves[4]        # and how many moves it has
    int8_t own[4]       # and its space
    int k               # how many of its pieces are in play
    bint outside        # whether it has a piece not yet in play (enter is legal)


cdef inline void _next_moves(const XState* s, XNext* nx) noexcept nogil:
    """``nx`` for ``s`` (not over): the next player's moves on the board of ``s``, as
    ``_masks`` would find them for a child in which only the player to act changed."""
    cdef const XSpec* sp = s.spec
    cdef int q = s.player + 1, i, sq
    cdef uint64_t mine = 0, dest
    if q == sp.players:
        q = 0
    nx.k = 0
    nx.outside = False
    nx.closed = 0
    for i in range(sp.ppp):
        sq = s.pos[q * sp.ppp + i]
        if sq < 0:
            nx.outside = True
        else:
            nx.own[nx.k] = <int8_t>sq
            mine |= bit(sq)
            nx.k += 1
    if nx.k == 0:
        return
    nx.closed = _closed(s, mine)
    nx.allowed = (sp.board & ~s.occ) & ~nx.closed
    for i in range(nx.k):
        dest = _reach(s, nx.own[i], nx.allowed)
        nx.moves[i] = pl_popcount(dest)
        nx.touch[i] = dest | bit(nx.own[i])


cdef inline int _count_after(const XState* s, int a, XState* c, const XNext* nx) noexcept nogil:
    """The number of legal actions after legal action ``a`` (perft's last ply), without
    making the child: only the fields move generation reads are set in the scratch ``c`` (from
    ``s``, and what ``a`` changes in them); its levels, stamps, tiles and key stay unset.
    ``nx``: the next player's moves on the board of ``s`` (``_next_moves``). A build changes
    the relations of the pairs across its border only, and occupies nothing: a flood that
    visits none of the spaces of those pairs finds in the child what it found in ``s``. So
    when the closed plateaus' flood visits none, only the builds, enter and the reach of each
    piece whose flood visits one are worked out again."""
    cdef const XSpec* sp = s.spec
    cdef int p = s.player, f, total, i
    cdef uint64_t free, hit
    cdef XMasks m
    if a >= sp.base_end:
        return 0  # End: the game is over
    c.spec = sp
    c.occ = s.occ
    c.ground = s.ground
    c.eq_e = s.eq_e
    c.eq_n = s.eq_n
    c.step_e = s.step_e
    c.step_n = s.step_n
    memcpy(c.whole, s.whole, sizeof(s.whole))
    memcpy(c.pos, s.pos, sizeof(s.pos))
    memcpy(c.singles, s.singles, sizeof(s.singles))
    memcpy(c.doubles, s.doubles, sizeof(s.doubles))
    c.supply = s.supply
    c.ended = 0
    p += 1
    if p == sp.players:
        p = 0
    if a < sp.base_enter:
        _build_board(sp, s.level, a, s.level[pl_ctz(sp.build_cover[a])], s.player, c)
        hit = sp.build_cover[a] | sp.border_out[a]
        if (hit & nx.closed) == 0:
            free = sp.board & ~c.occ
            _builds(c, p, free, sp.n, &m)
            m.enter = (c.ground & free) if nx.outside else 0
            m.nmove = 0  # (the moves are counted here)
            total = _count(&m)
            for i in range(nx.k):
                if hit & nx.touch[i]:
                    total += pl_popcount(_reach(c, nx.own[i], nx.allowed))
                else:
                    total += nx.moves[i]
            return total
    elif a < sp.base_move:
        c.pos[_piece_on(s, s.player, -1)] = a - sp.base_enter
        c.occ |= bit(a - sp.base_enter)
    else:
        f = sp.move_from[a - sp.base_move]
        c.pos[_piece_on(s, s.player, f)] = sp.move_to[a - sp.base_move]
        c.occ = (c.occ & ~bit(f)) | bit(sp.move_to[a - sp.base_move])
    c.player = p
    _masks(c, &m)
    return _count(&m)


cdef uint64_t x_perft(const XState* s, int depth, bint bulk, uint16_t* bufs,
                     Work* w) noexcept nogil:
    """Leaves ``depth`` plies below s (bulk counting at the last ply). ``bufs`` holds
    ``depth * X_MAX_ACTIONS`` ids of scratch space (on the heap, so deep counts need little
    C stack). Unwinds with a meaningless count once ``w`` says stop (Ctrl-C)."""
    cdef XMasks m
    cdef XState child
    cdef XNext nx
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
    if depth == 2 and bulk:  # the children's counts, without making them
        _next_moves(s, &nx)
        for i in range(k):
            total += _count_after(s, bufs[i], &child, &nx)
        return total
    for i in range(k):
        # children copy the hot prefix only: nothing below reads the tile table
        memcpy(&child, s, X_HOT_BYTES)
        _make(&child, bufs[i], False)
        total += x_perft(&child, depth - 1, bulk, bufs + X_MAX_ACTIONS, w)
    return total


cdef int x_random_action(const XState* s, const XMasks* m, Rng* rng) noexcept nogil:
    """A uniformly random legal action (the position must not be over). Each mask is counted
    once: the total draws ``k``, the same counts find the mask that holds it."""
    cdef const XSpec* sp = s.spec
    cdef int cs = pl_popcount(m.s), cdh = pl_popcount(m.dh), cdv = pl_popcount(m.dv)
    cdef int ce = pl_popcount(m.enter), c, i, o, k
    cdef int ct[4]
    cdef int cm[4]
    cdef int total = cs + cdh + cdv + ce + m.end
    for o in range(4):
        ct[o] = pl_popcount(m.t[o])
        total += ct[o]
    for i in range(m.nmove):
        cm[i] = pl_popcount(m.move_to[i])
        total += cm[i]
    k = <int>rng_below(rng, <uint32_t>total)
    if k < cs:
        return sp.base_s + nth_set_bit(m.s, k)
    k -= cs
    if k < cdh:
        return sp.base_dh + sp.dh_index[nth_set_bit(m.dh, k)]
    k -= cdh
    if k < cdv:
        return sp.base_dv + nth_set_bit(m.dv, k)
    k -= cdv
    for o in range(4):
        c = ct[o]
        if k < c:
            return sp.base_t + o * sp.nb + sp.blk_index[nth_set_bit(m.t[o], k)]
        k -= c
    if k < ce:
        return sp.base_enter + nth_set_bit(m.enter, k)
    k -= ce
    for i in range(m.nmove):
        c = cm[i]
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
