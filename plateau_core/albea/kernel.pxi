# Plateau (Albea): the nogil kernels, over flat C structs and raw arrays (no Python objects here).
# Included by core.pyx, which adds the Python-facing parts (tables, module functions and the
# wrapper class): one compiled module, so that the kernels' calls to one another stay direct.

# ------------------------------------------------------------------------------------------
# Small helpers
# ------------------------------------------------------------------------------------------
cdef inline uint32_t FULL(int n) noexcept nogil:
    return <uint32_t>((<uint64_t>1 << n) - 1)


# The list has two builds, from one source: a fused type, ``Keep``, chooses how the functions
# on its path keep an id that a square's owner may rule out.
# - ``ByBranch``: they branch on the owner. Perft uses this build: a position's children are
#   listed one after another and are alike, so the branch predictor learns those branches,
#   and fewer instructions win.
# - ``ByCount``: they write every id and keep it by adding 0 or 1 to the count, with no
#   branch (every list has room for one id past its last). Random play uses this build (the
#   Python API, playouts, batches): there the owners follow no pattern a predictor could
#   learn. Against ``ByBranch`` everywhere (docs/performance.md, tenth session): the Python
#   loop +4%, batch steps +14%, playouts +4%; perft in this build would lose 12%.
ctypedef struct ByBranch:
    char unused
ctypedef struct ByCount:
    char unused
ctypedef fused Keep:
    ByBranch
    ByCount


cdef inline int top_unit(Keep* k, const AlbeaState* s, int sq) noexcept nogil:
    """Size of the top unit of square sq (0 if empty): the run of its top owner's pieces down
    from the top, ended by the highest piece of the other player (none: the whole stack)."""
    cdef int n = s.ht[sq]
    cdef uint32_t own = s.own[sq], me, theirs
    if Keep is ByCount:
        # (an empty square has own == 0, so theirs == 0; the low bit put under theirs stands
        # for "none of theirs": the whole stack)
        me = (own >> ((n - 1) & 31)) & 1
        theirs = (~own & FULL(n)) if me else own
        return n - pl_msb32((theirs << 1) | 1)
    else:
        if n == 0:
            return 0
        me = (own >> (n - 1)) & 1
        theirs = (~own & FULL(n)) if me else own
        if theirs == 0:
            return n
        return n - 1 - pl_msb32(theirs)


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


ctypedef struct Tops:
    # What generation reads of every square again and again, worked out once per list: the
    # size of its top unit (0: empty) and whether the player to act's opponent owns its top.
    uint8_t unit[16]
    uint8_t enemy[16]


cdef inline void _tops(Keep* k, const AlbeaState* s, Tops* tp) noexcept nogil:
    cdef int sq, n
    cdef uint32_t me = <uint32_t>s.player
    for sq in range(16):
        n = s.ht[sq]
        tp.unit[sq] = <uint8_t>top_unit(k, s, sq)
        if Keep is ByCount:
            tp.enemy[sq] = (n > 0) & (((s.own[sq] >> ((n - 1) & 31)) & 1) != me)
        else:
            tp.enemy[sq] = n > 0 and ((s.own[sq] >> (n - 1)) & 1) != me


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
cdef inline int _walk_last(const Tops* tp, const int8_t* psq, int pos, int Lc, uint32_t gcol,
                           bint tc, int base, uint16_t* out, int cnt) noexcept nogil:
    """The last leg of a ``ByCount`` walk (``_walk_ray`` at level 2): a stop on each square
    past ``pos``, the ids one apart. An enemy's square takes the stop if the group shows a
    colour and, as the end, if the top does (``tc``). Each id is kept by the count."""
    cdef int d
    cdef int over = (gcol != 0) & tc
    for d in range(pos + 1, Lc + 1):
        out[cnt] = <uint16_t>(base + d - pos - 1)
        cnt += (tp.enemy[psq[d - 1]] ^ 1) | over
    return cnt


cdef inline int _walk_on(Keep* k, const AlbeaState* s, const Tops* tp, const int8_t* psq,
                         int L, int Lc, int d, int lvl, int g, uint32_t gcol, bint tc,
                         int base, int sub, uint16_t* out, int cnt) noexcept nogil:
    """The walks that go on from a stop on ``psq[d - 1]`` at level ``lvl`` (below 2): each
    group the next leg can carry (``base``: the id of the first one's subtree, ``sub`` ids
    apart). On a square of the player's own, the group picks up its top unit and leaves any
    size but its own; on an enemy's, it leaves a smaller group whose top piece shows a
    colour."""
    cdef int n, u, unit, j, q
    cdef uint32_t ucol, cj
    if not tp.enemy[psq[d - 1]]:
        u = tp.unit[psq[d - 1]]
        unit = g + u
        n = s.ht[psq[d - 1]]
        ucol = (gcol << u) | ((s.col[psq[d - 1]] >> (n - u)) & FULL(u)) if u > 0 else gcol
        for j in range(1, unit + 1):
            if j == g:
                continue
            q = j - 1 - (1 if j > g else 0)
            cj = (ucol >> (unit - j)) & FULL(j)
            if Keep is ByCount and lvl == 1:
                cnt = _walk_last(tp, psq, d, Lc, cj, tc, base + q * sub, out, cnt)
            else:
                cnt = _walk_ray(k, s, tp, psq, L, Lc, d, lvl + 1, j, cj, tc, base + q * sub,
                                out, cnt)
    else:
        for j in range(1, g):
            if (gcol >> (g - j - 1)) & 1:
                cj = (gcol >> (g - j)) & FULL(j)
                if Keep is ByCount and lvl == 1:
                    cnt = _walk_last(tp, psq, d, Lc, cj, tc, base + (j - 1) * sub, out, cnt)
                else:
                    cnt = _walk_ray(k, s, tp, psq, L, Lc, d, lvl + 1, j, cj, tc,
                                    base + (j - 1) * sub, out, cnt)
    return cnt


cdef int _walk_ray(Keep* k, const AlbeaState* s, const Tops* tp, const int8_t* psq, int L,
                   int Lc, int pos, int lvl, int g, uint32_t gcol, bint tc, int base,
                   uint16_t* out, int cnt) noexcept nogil:
    """Depth-first stop walk on one ray; base = id of the subtree's first code (``ByCount``
    walks levels 0 and 1 here, the last in ``_walk_last``)."""
    cdef int r = L - pos
    cdef int off = 0
    cdef int d, t, sub, free, allowed, n, u, unit, j, q
    cdef uint32_t ucol
    cdef bint enemy
    for d in range(pos + 1, Lc + 1):
        t = psq[d - 1]
        if Keep is ByCount:
            free = tp.enemy[t] ^ 1
            allowed = free | (gcol != 0)
            sub = TT[r - (d - pos)][lvl + 1]
            out[cnt] = <uint16_t>(base + off)   # (kept by the count if it may end the move)
            cnt += allowed & (free | tc)
            if allowed and d < Lc:
                cnt = _walk_on(k, s, tp, psq, L, Lc, d, lvl, g, gcol, tc, base + off + 1, sub,
                               out, cnt)
            off += 1 + CJ[lvl] * sub
        else:
            enemy = tp.enemy[t]
            sub = TT[r - (d - pos)][lvl + 1] if lvl < 2 else 0
            if not enemy or gcol != 0:
                out[cnt] = <uint16_t>(base + off)
                cnt += not enemy or tc          # (kept if it may end the move)
                if d < Lc and lvl < 2:
                    # (_walk_on's body written out: gcc calls _walk_on rather than inline
                    # it here, and perft would pay a call at every stop)
                    if not enemy:
                        u = tp.unit[t]
                        unit = g + u
                        n = s.ht[t]
                        ucol = (gcol << u) | ((s.col[t] >> (n - u)) & FULL(u)) if u > 0 else gcol
                        for j in range(1, unit + 1):
                            if j == g:
                                continue
                            q = j - 1 - (1 if j > g else 0)
                            cnt = _walk_ray(k, s, tp, psq, L, Lc, d, lvl + 1, j,
                                            (ucol >> (unit - j)) & FULL(j), tc,
                                            base + off + 1 + q * sub, out, cnt)
                    else:
                        for j in range(1, g):
                            if (gcol >> (g - j - 1)) & 1:
                                cnt = _walk_ray(k, s, tp, psq, L, Lc, d, lvl + 1, j,
                                                (gcol >> (g - j)) & FULL(j), tc,
                                                base + off + 1 + (j - 1) * sub, out, cnt)
            off += 1 + (CJ[lvl] * sub if lvl < 2 else 0)
    return cnt


cdef inline int _keep(Keep* k, uint16_t* out, int cnt, int a, bint kept) noexcept nogil:
    """Append id ``a`` if ``kept``: by a branch, or written and kept by the count."""
    if Keep is ByCount:
        out[cnt] = <uint16_t>a
        return cnt + kept
    else:
        if kept:
            out[cnt] = <uint16_t>a
            cnt += 1
        return cnt


cdef int _walk_twister(Keep* k, const AlbeaState* s, const Tops* tp, const int8_t* psq, int g,
                       uint32_t gcol, bint tc, int base, uint16_t* out, int cnt) noexcept nogil:
    """A Twister's moves from the path ``psq`` (its middle square, then where it lands): a
    stop at the end, or at the middle and then the end. An enemy's square takes a stop if the
    group's top piece shows a colour, and the end if the top does (``tc``)."""
    cdef int mid = psq[0], kn = psq[1]
    cdef int n, u, unit, j, q
    cdef uint32_t ucol, cg
    cdef int free_kn = tp.enemy[kn] ^ 1
    cnt = _keep(k, out, cnt, base, free_kn | ((gcol != 0) & tc))
    if tp.enemy[mid] and gcol == 0:
        return cnt
    if not tp.enemy[mid]:
        u = tp.unit[mid]
        unit = g + u
        n = s.ht[mid]
        ucol = (gcol << u) | ((s.col[mid] >> (n - u)) & FULL(u)) if u > 0 else gcol
        for j in range(1, unit + 1):
            if j == g:
                continue
            q = j - 1 - (1 if j > g else 0)
            cg = (ucol >> (unit - j)) & FULL(j)
            cnt = _keep(k, out, cnt, base + 1 + q, free_kn | ((cg != 0) & tc))
    else:
        for j in range(1, g):
            if (gcol >> (g - j - 1)) & 1:
                cg = (gcol >> (g - j)) & FULL(j)
                cnt = _keep(k, out, cnt, base + j, free_kn | ((cg != 0) & tc))
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
    cdef int t, n = 0, i = 0, v = 0
    for t in range(7):
        c[t] = 0
    while True:
        # increment (digit 0 least significant), the index and value kept along
        t = 0
        while t < 7:
            if c[t] < have[t]:
                c[t] += 1
                i += C_W[t]
                v += C_VALUE[t]
                break
            i -= c[t] * C_W[t]
            v -= c[t] * C_VALUE[t]
            c[t] = 0
            t += 1
        if t == 7:
            return n
        idx[n] = i
        val[n] = v
        n += 1


cdef inline uint32_t _onboard_gaps(Keep* k, const AlbeaState* s, int sq, int me) noexcept nogil:
    """Bit g: a piece of ``me`` may be put in at level g of the stack on ``sq`` (the bottom or
    just above or below one of ``me``'s pieces; an empty square at level 0)."""
    cdef int n = s.ht[sq]
    cdef uint32_t mine = s.own[sq] if me else (~s.own[sq] & FULL(n))
    if Keep is ByCount:
        return ((mine << 1) | mine | <uint32_t>(n == 0)) & FULL(n + 1)
    else:
        if n == 0:
            return 1
        return ((mine << 1) | mine) & FULL(n + 1)


cdef int _square_moves(Keep* k, const AlbeaState* s, const Tops* tp, int o, uint16_t* out,
                       int cnt, uint32_t* stomps) noexcept nogil:
    """Append the move ids (ascending) of the stack on ``o`` if the player to act owns its top,
    and set its stomps' bits (``o * 2 + flip``) in ``stomps``; returns the new length (it may
    write ``out[length]``)."""
    cdef int n = s.ht[o], h, nflip, flip, size, i, p, L, upf, base, npaths, over
    cdef const int8_t* paths
    cdef uint32_t colp, gcol
    cdef bint tc
    cdef uint8_t top
    if n == 0 or tp.enemy[o]:
        return cnt
    h = tp.unit[o]
    top = s.pc[o][n - 1]
    nflip = 2 if TWOFACED[top & PIECE_FACES] else 1
    for flip in range(nflip):
        upf = UPFACE[(top ^ (flip * PIECE_UP)) & PIECE_FACES]
        tc = upf != 0
        colp = (s.col[o] & ~(<uint32_t>1 << (n - 1))) | ((<uint32_t>tc) << (n - 1))
        if Keep is ByCount:
            stomps[0] |= <uint32_t>((h < n) & tc) << (o * 2 + flip)
        elif h < n and tc:
            stomps[0] |= <uint32_t>1 << (o * 2 + flip)
        # the paths the up face allows (PATHS_BY_FACE): x every ray, b the diagonal rays, r the
        # orthogonal rays, o the Twisters
        paths = &PATHS_BY_FACE[o][upf][0]
        npaths = PATHS_BY_FACE_N[o][upf]
        for size in range(1, h + 1):
            gcol = (colp >> (n - size)) & FULL(size)
            base = ALBEA_BASE_MOVE + MOVE_OFF[o] + (flip * 5 + size - 1) * BLOCK[o]
            if upf == 3:
                for i in range(npaths):
                    p = paths[i]
                    cnt = _walk_twister(k, s, tp, &PATH_SQ[o][p][0], size, gcol, tc,
                                        base + PATH_OFF[o][p], out, cnt)
            elif h == 1:
                # one step, to each path's first square: the walk cut short (a stop there that
                # may also end the move). Each id is written and kept by the count, with no
                # branch: whether an enemy holds the square follows no pattern a branch
                # predictor could learn in random play (every list has room for one id past
                # its last)
                over = (gcol != 0) & tc
                for i in range(npaths):
                    p = paths[i]
                    out[cnt] = <uint16_t>(base + PATH_OFF[o][p])
                    cnt += (tp.enemy[PATH_SQ[o][p][0]] ^ 1) | over
            else:
                for i in range(npaths):
                    p = paths[i]
                    L = PATH_LEN[o][p]
                    cnt = _walk_ray(k, s, tp, &PATH_SQ[o][p][0], L, L if L < h else h, 0, 0, size,
                                    gcol, tc, base + PATH_OFF[o][p], out, cnt)
    return cnt


cdef int albea_is_legal(const AlbeaState* s, int a, uint16_t* buf) noexcept nogil:
    """1 if ``a`` (an id in range) is legal in ``s``, 0 if not (the answer of looking it up in
    ``albea_list``), -1 if only the whole list can tell: the opening, answers to a tender,
    tenders and pass. In play, an onboard is checked alone, a move or stomp against the moves
    of its square alone (``buf``: room for ``ALBEA_MAX_LEGAL`` ids)."""
    cdef int me = s.player, k, o, sq, g, n
    cdef uint32_t mine, gaps, stomps = 0
    cdef Tops tp
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
        return <int>((_onboard_gaps[ByCount](NULL, s, sq, me) >> g) & 1)
    _tops[ByCount](NULL, s, &tp)
    if a < ALBEA_BASE_STOMP:
        o = 15
        while MOVE_OFF[o] > a - ALBEA_BASE_MOVE:
            o -= 1
        return ids_contain(buf, _square_moves[ByCount](NULL, s, &tp, o, buf, 0, &stomps), a)
    k = a - ALBEA_BASE_STOMP
    _square_moves[ByCount](NULL, s, &tp, k // 2, buf, 0, &stomps)
    return <int>((stomps >> k) & 1)


cdef int albea_list(const AlbeaState* s, uint16_t* out) noexcept nogil:
    """Every legal action id of s, in ascending id order (emission order = id order). ``out``
    needs room for ``ALBEA_MAX_LEGAL`` ids: the list may write one past its last. The build
    for random play (``ByCount``); perft lists with ``_list[ByBranch]``."""
    return _list[ByCount](NULL, s, out)


cdef int _list(Keep* k, const AlbeaState* s, uint16_t* out) noexcept nogil:
    """``albea_list`` in either build (``Keep``)."""
    cdef int cnt = 0
    cdef int me = s.player
    cdef int b, tp, sq, i, o, base, m, largest
    cdef uint32_t gaps, ours, stomps = 0
    cdef uint16_t gap_ids[16 * 24 + 1]
    cdef uint16_t first
    cdef uint16_t* dst
    cdef int ngaps
    cdef Tops tops
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
    # play phase: onboards. The gaps of each square are the same for every piece type: their
    # offsets (sq * 24 + level, ascending) are listed once, then written for each type with
    # its base added (a loop the compiler does several ids at a time)
    if s.res[me][7] > 0:
        ngaps = 0
        for sq in range(16):
            gaps = _onboard_gaps(k, s, sq, me)
            if Keep is ByCount:
                # (each level kept by the count: the four lowest with no branch at all, as
                # gaps has no bit above the height; a loop, whose end the height decides,
                # only for a stack of four or more)
                gap_ids[ngaps] = <uint16_t>(sq * 24)
                ngaps += gaps & 1
                gap_ids[ngaps] = <uint16_t>(sq * 24 + 1)
                ngaps += (gaps >> 1) & 1
                gap_ids[ngaps] = <uint16_t>(sq * 24 + 2)
                ngaps += (gaps >> 2) & 1
                gap_ids[ngaps] = <uint16_t>(sq * 24 + 3)
                ngaps += (gaps >> 3) & 1
                if s.ht[sq] >= 4:
                    for i in range(4, s.ht[sq] + 1):
                        gap_ids[ngaps] = <uint16_t>(sq * 24 + i)
                        ngaps += (gaps >> i) & 1
            else:
                while gaps:
                    gap_ids[ngaps] = <uint16_t>(sq * 24 + pl_ctz(gaps))
                    ngaps += 1
                    gaps &= gaps - 1
        for o in range(11):
            if s.res[me][OT_TYPE[o]] == 0:
                continue
            first = <uint16_t>(ALBEA_BASE_ONBOARD + o * 16 * 24)
            # (through a pointer: gcc vectorizes ``dst[i]``, not ``out[cnt + i]``, whose index
            # may wrap under -fwrapv)
            dst = out + cnt
            for i in range(ngaps):
                dst[i] = first + gap_ids[i]
            cnt += ngaps
    # moves and stomps: the squares whose top the player to act owns, by a mask (not a test per
    # square that the branch predictor cannot learn)
    _tops(k, s, &tops)
    ours = 0
    for o in range(16):
        if Keep is ByCount:
            ours |= <uint32_t>((s.ht[o] != 0) & (tops.enemy[o] ^ 1)) << o
        else:
            ours |= <uint32_t>(s.ht[o] != 0 and not tops.enemy[o]) << o
    while ours:
        cnt = _square_moves(k, s, &tops, pl_ctz(ours), out, cnt, &stomps)
        ours &= ours - 1
    while stomps:
        out[cnt] = <uint16_t>(ALBEA_BASE_STOMP + pl_ctz(stomps))
        cnt += 1
        stomps &= stomps - 1
    # tenders
    m = _submultisets(&s.pri[me][0], idx, val)
    for i in range(m):
        cnt = _keep(k, out, cnt, ALBEA_BASE_OFFER + idx[i] - 1, val[i] > s.floor[me])
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
    cdef int c = top_unit[ByBranch](NULL, s, sq)
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


cdef void _move_decode(Keep* keep, int a, int* o, int* flip, int* k, int* p,
                       int* code) noexcept nogil:
    """The fields of move id ``a`` (design 1.3). ``ByCount`` counts the square and the path
    instead of searching for them: the end of a search is a branch that random play
    mispredicts, and perft predicts. (MOVE_OFF ascends; PATH_OFF[i] is cumulative, so the
    path is the last one whose offset is at most m, what is left of the id: an empty path
    shares its offset with the next, or, at the end, sits at the block's end, past m.)"""
    cdef int m = a - ALBEA_BASE_MOVE
    cdef int i, q, j
    if Keep is ByCount:
        i = -1
        for j in range(16):
            i += MOVE_OFF[j] <= m
    else:
        i = 15
        while MOVE_OFF[i] > m:
            i -= 1
    o[0] = i
    m -= MOVE_OFF[i]
    cdef int fk = m // BLOCK[i]
    flip[0] = fk // 5
    k[0] = fk % 5 + 1
    m = m % BLOCK[i]
    if Keep is ByCount:
        q = -1
        for j in range(16):
            q += PATH_OFF[i][j] <= m
    else:
        q = 15
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
    """Apply the legal action ``a`` to ``s``: the build for random play (``ByCount``); perft
    makes its children with ``_make[ByBranch]``."""
    _make[ByCount](NULL, s, a)


cdef void _make_perft(AlbeaState* s, int a) noexcept nogil:
    """Perft's make (``_make[ByBranch]``), called through ``_PERFT_MAKE``: gcc inlined a
    direct call into the recursive perft, and perft ran 2% slower."""
    _make[ByBranch](NULL, s, a)


cdef void (*_PERFT_MAKE)(AlbeaState*, int) noexcept nogil
_PERFT_MAKE = _make_perft


cdef void _make(Keep* keep, AlbeaState* s, int a) noexcept nogil:
    """``albea_make`` in either build (``Keep``)."""
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
        _move_decode(keep, a, &o, &flip, &k, &p, &code)
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
        if Keep is ByCount and n > k:
            show_up(&s.pc[o][n - k - 1])    # (the origin's new top: shown rule 1)
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
    # shown rule 1: the top piece of every stack. Each action above shows the tops it changes
    # (a new top: the stacks it builds on and lands on, an origin's new top, a flipped top;
    # a capture takes pieces from below the top). So once every top is shown (tops_shown),
    # random play (``ByCount``) looks at no other stack. Perft (``ByBranch``: its children
    # are alike, its branches here the predictor learns; its states are its own) looks at
    # all sixteen, as does random play's first action from a set-up or a determinization
    if Keep is ByBranch or not s.tops_shown:
        for sq in range(16):
            if s.ht[sq]:
                show_up(&s.pc[sq][s.ht[sq] - 1])
        if Keep is ByCount:
            s.tops_shown = 1
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
    n = _list[ByBranch](NULL, s, bufs)
    if depth == 1 and bulk:
        return n
    for i in range(n):
        child = s[0]
        _PERFT_MAKE(&child, bufs[i])
        total += albea_perft(&child, depth - 1, bulk, bufs + ALBEA_MAX_LEGAL, w)
    return total


cdef void albea_points(const AlbeaState* s, float* out) noexcept nogil:
    """Each player's points: 1 and 0 after a win, else 1/2 each (a draw, or a game stopped
    before its end: "if it ended now")."""
    if s.phase == ALBEA_PHASE_OVER and (s.result == 0 or s.result == 1):
        out[s.result] = 1.0
        out[1 - s.result] = 0.0
    else:
        out[0] = out[1] = 0.5


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
