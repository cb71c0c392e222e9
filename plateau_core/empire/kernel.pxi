# Empire Plateau: the nogil kernels, over flat C structs and raw arrays (no Python objects here).
# Included by core.pyx, which adds the Python-facing parts (tables, module functions and the
# wrapper class): one compiled module, so that the kernels' calls to one another stay direct.

# ---------------------------------------------------------------------------------------------
# Zobrist keys (mixed on the fly from SplitMix64: no tables to keep per board)
# ---------------------------------------------------------------------------------------------

cdef uint64_t K_ARMY = <uint64_t>0xE3B1F0A5C0FFEE00
cdef uint64_t K_TURN = <uint64_t>0x5A17D2C4B3E1F00D
cdef uint64_t K_MOVED = <uint64_t>0x9C2E4F6A8B0D1E3F
cdef uint64_t K_CAP = <uint64_t>0x7F1E2D3C4B5A6978
cdef uint64_t K_ORDER = <uint64_t>0x1D2C3B4A59687766
cdef uint64_t K_LIMIT = <uint64_t>0x6B8D3E1F2A4C5079


cdef inline uint64_t _akey(int d, int code) noexcept nogil:
    return splitmix64(K_ARMY + <uint64_t>(d * 32 + code))


# ---------------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------------

cdef void empire_copy(EmpireState* dst, const EmpireState* src) noexcept nogil:
    memcpy(dst, src, src.bd.state_bytes)


cdef void empire_init(EmpireState* s, const EmpireBoard* bd, const int8_t* owner,
                      int nplayers) noexcept nogil:
    """The start position of a variant (``owner``: the player of each Empire, -1 if absent)."""
    cdef int e, t, i, d
    memset(s, 0, bd.state_bytes)
    s.bd = bd
    s.nplayers = nplayers
    s.free_from = -1
    s.to_move = -1
    for e in range(4):
        s.owner[e] = owner[e]
        if owner[e] < 0:
            continue
        s.alive |= 1 << e
        if s.to_move < 0:
            s.to_move = e
        for t in range(4):
            for i in range(bd.nstarts[e][t]):
                d = bd.starts[e][t][i]
                s.army[d] = army_code(e, t)
                s.zob ^= _akey(d, army_code(e, t))
    if s.to_move < 0:
        s.to_move = 0


cdef int empire_current_player(const EmpireState* s) noexcept nogil:
    return -1 if s.result != EMPIRE_RUNNING else s.owner[s.to_move]


# ---------------------------------------------------------------------------------------------
# Move generation
# ---------------------------------------------------------------------------------------------
#
# For each army of the Empire to act that may still move, the search marks found[to] |= 1 << n
# for every end dot ``to`` that some allowed path reaches at cost ``n``; the marks then give the
# ids, ascending. Dots are classed once per generation: PASS (may be passed through, and is a
# plain end dot), TAKE (an end dot only: an enemy army or an enemy base) or BLOCK.
#
# A 2 (at most 2 steps) is enumerated directly. The 6s and 4s (at most 6 steps in a turn) and an
# Emblem with at most EVERY_MAX steps left walk every simple path depth first (_walk with
# ``every``; a 4's jumps start some of them): for so few steps that is cheaper than any
# bookkeeping. An Emblem with more steps left searches the simple paths (self-avoiding walks)
# depth first, which on open ground means some 3 x 10^5 walks for 12 steps; four things make that
# cheap while keeping it exact:
#
# 1. A breadth-first search from the Emblem first gives each dot u its distance d(u) over PASS
#    dots. A path to u never costs less than d(u), and on a bipartite board costs d(u),
#    d(u) + 2, ...: ``need[u]`` holds those costs up to the budget, the most that can be found
#    for u; (u, d(u)) itself is found at once (a shortest path is simple). A TAKE dot is entered
#    only from a PASS neighbour (or from the Emblem's own dot), one step after a cost needed
#    there, which makes ``need`` tighter for it.
# 2. ``left`` counts the needed (dot, cost) pairs not found yet, ``miss[n]`` holds the dots
#    still missing cost n; when none is missing the search stops: nothing more can be found.
# 3. Before the search descends into a dot v at cost k it asks whether a missing (u, n) may lie
#    below: only if u is at most n - k steps from v. First on the bare board (a precomputed
#    ball of v, ANDed with ``miss[n]``: a few word operations), then, for big subtrees, by a
#    breadth-first search from v over the dots off the path. If none may, the subtree is
#    skipped.
# 4. The last step of a path is made inline (no call, no test).
#
# On a board with lanes (ep16: dot ids are ring * S + spoke with S = 16, 32 or 64, checked when
# the tables are built) the searches work by word operations on bitsets of the dots instead.
# Every army but a 2 with at most SHORT_MAX steps left (the 4s and 6s always) follows all its
# walks that never step straight back at once, cost by cost (_short_lanes): on such a board a
# walk of up to 6 steps is a simple path unless it goes round a square, which three quarter
# turns the same way in a row tell. An Emblem with more steps left uses _lanes_search:
#
# a. the distances of item 1 by a breadth-first search of shifts (_expand, _next_layer), a
#    layer per cost, and from them ``may[n]``, the dots that may be reached at cost n (as
#    ``need`` above);
# b. four families of paths that are simple by their shape (_monotone_paths: never back to a
#    ring, or to a spoke, once left), each followed for every cost at once, three bitsets per
#    cost; at an Emblem with its whole budget they find 95% of the pairs beyond the shortest;
# c. the same families after a straight run of 1 to TURN_MAX steps, going back the other way
#    (_turned_paths: the run's dots are off the board meanwhile);
# d. _walk_lanes for the rest, if any: the dots off the path are bitsets, a step marks all of a
#    dot's neighbours at once, and the test of 3 is a layer-by-layer expansion by shifts
#    (_quiet_lanes) from LANES_MIN steps left. That test also finds pairs: a dot u at distance
#    e from v off the path is reached at cost k + e by the path to v and then a shortest way to
#    u, so it marks every dot of layer e found at k + e.
#
# The functions of a to d take a fused tag (Lanes, core.pyx) that compiles them twice: for ep16's
# lanes of 16 and 3 words as constants, and for any other board with lanes.
#
# Every pair b and c find is a simple path and d looks for every pair still missing, so the list
# is exact whatever b and c find. Any other board uses _walk; both list the same moves (tested
# on ep16 and on boards of 32 and 64 spokes against the same boards with their dots renumbered).

cdef enum:
    C_BLOCK = 0
    C_PASS = 1
    C_TAKE = 2
    ALL_COSTS = 0x1FFE      # bits 1..12
    BFS_MIN = 7             # the breadth-first test only with at least this many steps left
    LANES_MIN = 3           # the word-parallel test (boards with lanes) from this many left
    EVERY_MAX = 7           # budgets up to this: every path, no breadth-first search
    TURN_MAX = 3            # _turned_paths: straight runs of up to this many steps
    SHORT_MAX = 6           # on boards with lanes: _short_lanes up to this budget, then
                            # _lanes_search (an Emblem)


ctypedef struct Walk:
    const EmpireBoard* bd
    const uint8_t* army
    uint8_t* cls
    uint16_t* found
    uint16_t* need
    uint64_t* touched
    int16_t* queue
    int16_t* reached
    int8_t* dist
    uint32_t* stamp
    uint32_t cur
    int budget
    int left                # needed (dot, cost) pairs not found yet
    int nreached
    uint16_t want[16]       # want[m]: the costs m, m + step, ... up to the budget
    uint64_t miss[13][EMPIRE_WORDS]     # miss[n]: the dots u with n needed, not found yet
    int16_t nmiss[13]                   # how many dots miss[n] holds
    uint16_t costs_missing              # bit n: nmiss[n] > 0
    # the Emblem's word-parallel walk (boards with lanes), _walk_lanes:
    uint64_t open_[LANE_WORDS]          # PASS dots within reach and off the path
    uint64_t ends[LANE_WORDS]           # PASS or TAKE dots within reach and off the path


ctypedef struct Gen:
    Walk w
    uint16_t found[EMPIRE_MAX_DOTS]
    uint16_t need[EMPIRE_MAX_DOTS]
    uint8_t cls[EMPIRE_MAX_DOTS]
    int8_t dist[EMPIRE_MAX_DOTS]
    int16_t queue[EMPIRE_MAX_DOTS]
    int16_t reached[EMPIRE_MAX_DOTS]
    uint32_t stamp[EMPIRE_MAX_DOTS]
    uint64_t touched[EMPIRE_WORDS]
    uint64_t passb[LANE_WORDS]          # the PASS and TAKE dots as bitsets (boards with lanes,
    uint64_t takeb[LANE_WORDS]          # made on first use: bits_ready)
    bint bits_ready
    uint64_t may[13][LANE_WORDS]        # _lanes_search: may[n], the dots u for which (u, n)
                                        # may be legal (from the distances)


cdef inline uint16_t _costs_from(int lo) noexcept nogil:
    """The cost bits lo..12."""
    if lo < 1:
        lo = 1
    return <uint16_t>(ALL_COSTS & ~((1 << lo) - 1))


cdef inline void _mark(Walk* w, int v, int n) noexcept nogil:
    cdef uint16_t bit = <uint16_t>(1 << n)
    if not (w.found[v] & bit):
        w.found[v] |= bit
        w.touched[v >> 6] |= (<uint64_t>1) << (v & 63)
        if w.need[v] & bit:
            w.miss[n][v >> 6] &= ~((<uint64_t>1) << (v & 63))
            w.nmiss[n] -= 1
            if w.nmiss[n] == 0:
                w.costs_missing &= ~bit
        w.left -= 1


cdef inline void _mark_any(Walk* w, int v, int n) noexcept nogil:
    """_mark for the searches that keep no ``need`` (every path, a 2's, a 4's jumps): only the
    mark."""
    w.found[v] |= <uint16_t>(1 << n)
    w.touched[v >> 6] |= (<uint64_t>1) << (v & 63)


cdef void _set_missing(Walk* w) noexcept nogil:
    """``left`` and ``miss`` from ``need`` and ``found`` over the reached dots."""
    cdef int i, u, n
    cdef uint16_t lack
    for n in range(1, w.budget + 1):
        memset(&w.miss[n][0], 0, w.bd.words * sizeof(uint64_t))
    memset(w.nmiss, 0, sizeof(w.nmiss))
    w.costs_missing = 0
    w.left = 0
    for i in range(w.nreached):
        u = w.reached[i]
        lack = w.need[u] & ~w.found[u]
        w.left += pl_popcount(<uint64_t>lack)
        w.costs_missing |= lack
        while lack:
            n = pl_ctz(lack)
            lack &= lack - 1
            w.miss[n][u >> 6] |= (<uint64_t>1) << (u & 63)
            w.nmiss[n] += 1


cdef inline bint _quiet(Walk* w, int v, int k) noexcept nogil:
    """Whether no missing (u, n) is within reach of walks going on from ``v`` at cost ``k``:
    each such u is more than n - k steps from v even on the bare board."""
    cdef int W = w.bd.words, n, j
    cdef const uint64_t* ball = w.bd.ball + v * 13 * W
    cdef uint16_t costs = w.costs_missing & _costs_from(k + 1)
    while costs:
        # the farthest first: their balls are the biggest, the likeliest to hold a missing dot
        n = 31 - __builtin_clz(costs)
        costs &= ~(1 << n)
        for j in range(W):
            if w.miss[n][j] & ball[(n - k) * W + j]:
                return False
    return True


cdef void _set_want(Walk* w) noexcept nogil:
    """``want`` for the budget (only the breadth-first search _reach reads it)."""
    cdef int m, step = 2 if w.bd.bipartite else 1
    memset(w.want, 0, sizeof(w.want))
    for m in range(w.budget, 0, -1):
        w.want[m] = <uint16_t>(1 << m)
        if m + step <= w.budget:
            w.want[m] |= w.want[m + step]


cdef inline void _reach_add(Walk* w, int u, int d, int* tail) noexcept nogil:
    w.dist[u] = <int8_t>d
    w.need[u] = w.want[d]
    w.reached[w.nreached] = <int16_t>u
    w.nreached += 1
    _mark(w, u, d)
    if w.cls[u] == C_PASS:
        w.queue[tail[0]] = <int16_t>u
        tail[0] += 1


cdef void _reach(Walk* w, int s0) noexcept nogil:
    """Breadth-first distances from the Emblem on ``s0`` over PASS dots (TAKE dots end a path):
    fills ``need``, ``left`` and the shortest (dot, cost) pairs."""
    cdef int head = 0, tail = 0, c, dr, u, d
    _set_want(w)
    w.left = 0
    w.nreached = 0
    w.dist[s0] = 0
    w.reached[0] = <int16_t>s0
    w.nreached = 1
    w.queue[0] = <int16_t>s0
    tail = 1
    while head < tail:
        c = w.queue[head]
        head += 1
        d = w.dist[c]
        if d >= w.budget:
            break                   # the queue is in order of distance
        for dr in range(4):
            u = w.bd.nb[c][dr]
            if u >= 0 and w.dist[u] < 0 and w.cls[u] != C_BLOCK:
                _reach_add(w, u, d + 1, &tail)
    _set_missing(w)


cdef void _reach_clear(Walk* w) noexcept nogil:
    cdef int i, u
    for i in range(w.nreached):
        u = w.reached[i]
        w.dist[u] = -1
        w.need[u] = 0


cdef void _limit_takes(Walk* w, int s0) noexcept nogil:
    """A TAKE dot is entered only from a PASS neighbour (or from the army's own dot), one step
    after a cost needed there: tighten ``need`` of the TAKE dots so, and recount."""
    cdef int i, u, c, dr
    cdef uint16_t acc
    for i in range(w.nreached):
        u = w.reached[i]
        if w.cls[u] != C_TAKE:
            continue
        acc = 0
        for dr in range(4):
            c = w.bd.nb[u][dr]
            if c == s0:
                acc |= 2
            elif c >= 0 and w.dist[c] >= 0 and w.cls[c] == C_PASS:
                acc |= <uint16_t>(w.need[c] << 1)
        w.need[u] &= acc
    _set_missing(w)


cdef bint _quiet_off_path(Walk* w, int v, int k) noexcept nogil:
    """Whether no missing (u, n) is within reach of walks going on from ``v`` at cost ``k``,
    by breadth-first distances over the dots off the path (a sharper, dearer _quiet)."""
    cdef int r = 31 - __builtin_clz(w.costs_missing) - k if w.costs_missing else 0
    cdef int head = 0, tail = 1, end, e = 0, c, dr, u
    cdef uint32_t cur
    cdef uint16_t later
    if r <= 0:
        return True
    if w.cur == 0:
        memset(w.stamp, 0, w.bd.ndots * sizeof(uint32_t))     # (first use in this generation)
    w.cur += 1
    cur = w.cur
    w.stamp[v] = cur
    w.queue[0] = <int16_t>v
    while head < tail and e < r:
        e += 1
        later = _costs_from(k + e)
        end = tail
        while head < end:
            c = w.queue[head]
            head += 1
            for dr in range(4):
                u = w.bd.nb[c][dr]
                if u < 0 or w.stamp[u] == cur or w.cls[u] == C_BLOCK:
                    continue
                w.stamp[u] = cur
                if w.need[u] & ~w.found[u] & later:
                    return False
                if w.cls[u] == C_PASS:
                    w.queue[tail] = <int16_t>u
                    tail += 1
    return True


cdef inline uint64_t _next_layer(Lanes* L, Walk* w, uint64_t* front, uint64_t* seen,
                                 uint64_t* layer) noexcept nogil:
    """One layer of a breadth-first search by shifts over ``ends`` (the dots off the path):
    ``layer`` = the dots next to ``front`` not ``seen`` yet, added to ``seen``; ``front``
    becomes its PASS dots (``open_``), the next layer's start. Returns 0 when that is empty."""
    cdef int j
    cdef uint64_t more = 0
    _expand(L, w.bd, front, layer)
    for j in range(_nwords(L)):
        layer[j] &= w.ends[j] & ~seen[j]
        seen[j] |= layer[j]
        front[j] = layer[j] & w.open_[j]
        more |= front[j]
    return more


cdef bint _quiet_lanes(Lanes* L, Walk* w, int v, int k) noexcept nogil:
    """The subtree test of the word-parallel walk, which also finds pairs: the dots u at each
    distance e from ``v`` off the path, a layer at a time (by shifts), are found at cost k + e
    (the path to v, then a shortest way to u off it, is a simple path of that cost); then the
    subtree below v may hold a missing pair only if some such u still misses a cost >= k + e + 2
    (a longer way to it)."""
    cdef int e, j, n, last = 0, r = w.budget - k
    cdef uint64_t front[LANE_WORDS]
    cdef uint64_t seen[LANE_WORDS]
    cdef uint64_t later[LANE_WORDS]
    cdef uint64_t layer[13][LANE_WORDS]
    cdef uint64_t more, hit
    if not w.costs_missing & _costs_from(k + 1):
        return True
    for j in range(_nwords(L)):
        front[j] = 0
    front[v >> 6] = (<uint64_t>1) << (v & 63)
    for j in range(_nwords(L)):
        seen[j] = front[j]
    for e in range(1, r + 1):
        more = _next_layer(L, w, front, seen, layer[e])
        last = e
        if (w.costs_missing >> (k + e)) & 1:
            _drop(L, w, k + e, layer[e])
        if not more or not w.costs_missing & _costs_from(k + e + 1):
            break
    # later: the dots still missing some cost >= k + e + 2, for e from the last layer down
    for j in range(_nwords(L)):
        later[j] = 0
    for n in range(w.budget, k + last + 1, -1):
        for j in range(_nwords(L)):
            later[j] |= w.miss[n][j]
    for e in range(last, 0, -1):
        hit = 0
        for j in range(_nwords(L)):
            hit |= layer[e][j] & later[j]
        if hit:
            return False
        if k + e + 1 <= w.budget:
            for j in range(_nwords(L)):
                later[j] |= w.miss[k + e + 1][j]
    return True


cdef inline void _last_step(Walk* w, int v, int c, int n, bint every) noexcept nogil:
    """The path's last step, from ``v`` (reached from ``c``) at cost ``n``."""
    cdef int dr, u
    for dr in range(4):
        u = w.bd.nb[v][dr]
        if u >= 0 and u != c and w.cls[u] != C_BLOCK:
            if every:
                _mark_any(w, u, n)
            else:
                _mark(w, u, n)


cdef void _walk(Walk* w, int c, int k, bint every) noexcept nogil:
    """Extend the simple path that has reached ``c`` at cost ``k``. The dots on the path are
    BLOCK while it is searched, which keeps it simple. ``every``: every simple path, without the
    search's pruning (no ``need``): for small budgets, where that costs less than the
    breadth-first search and its bookkeeping."""
    cdef int dr, v, cl, k1 = k + 1
    cdef const int16_t* nb = &w.bd.nb[c][0]
    for dr in range(4):
        v = nb[dr]
        if v < 0:
            continue
        cl = w.cls[v]
        if cl == C_BLOCK:
            continue
        if every:               # a plain end dot or a capture / conquest (the move ends there)
            _mark_any(w, v, k1)
        else:
            _mark(w, v, k1)
        if cl != C_PASS or k1 >= w.budget or (not every and w.left == 0):
            continue
        if k1 == w.budget - 1:
            _last_step(w, v, c, k1 + 1, every)
        elif every or (not _quiet(w, v, k1)
                       and not (w.budget - k1 >= BFS_MIN and _quiet_off_path(w, v, k1))):
            w.cls[v] = C_BLOCK
            _walk(w, v, k1, every)
            w.cls[v] = C_PASS


cdef inline void _drop(Lanes* L, Walk* w, int n, const uint64_t* m) noexcept nogil:
    """Mark (u, n) found for the end dots u of the bitset ``m`` (the word-parallel walk keeps
    only ``miss`` and ``costs_missing``; ``found`` is made from them at the end)."""
    cdef int j
    cdef uint64_t x, rest = 0, hit = 0
    for j in range(_nwords(L)):
        x = w.miss[n][j] & m[j] & w.ends[j]
        hit |= x
        w.miss[n][j] &= ~x
        rest |= w.miss[n][j]
    if hit and not rest:
        w.costs_missing &= ~(1 << n)


cdef void _walk_lanes(Lanes* L, Walk* w, int c, int k) noexcept nogil:
    """_walk on a board with lanes: the dots reached and the dots off the path are bitsets,
    a step marks all of c's neighbours by word operations, and the subtree test is
    _quiet_lanes from LANES_MIN steps left (the bare-board _quiet below)."""
    cdef int dr, v, W = w.bd.words, k1 = k + 1
    cdef const int16_t* nb = &w.bd.nb[c][0]
    cdef uint64_t bit
    if (w.costs_missing >> k1) & 1:
        _drop(L, w, k1, w.bd.nbm + c * W)
    if k1 >= w.budget:
        return
    for dr in range(4):
        v = nb[dr]
        if v < 0 or not (w.open_[v >> 6] >> (v & 63)) & 1:
            continue
        if not w.costs_missing:
            return
        if k1 == w.budget - 1:
            if (w.costs_missing >> w.budget) & 1:
                _drop(L, w, w.budget, w.bd.nbm + v * W)    # (c is off ``ends``: on the path)
        elif not (_quiet(w, v, k1) or (w.budget - k1 >= LANES_MIN and _quiet_lanes(L, w, v, k1))):
            bit = (<uint64_t>1) << (v & 63)
            w.open_[v >> 6] &= ~bit
            w.ends[v >> 6] &= ~bit
            _walk_lanes(L, w, v, k1)
            w.open_[v >> 6] |= bit
            w.ends[v >> 6] |= bit


cdef inline void _step_out(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                           uint64_t* y) noexcept nogil:
    """y = x moved one ring out: each dot's ``out`` neighbour, on a board with lanes."""
    cdef int j
    for j in range(_nwords(L)):
        y[j] = _out_word(L, bd, x, j)


cdef inline void _step_in(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                          uint64_t* y) noexcept nogil:
    """y = x moved one ring in."""
    cdef int j
    for j in range(_nwords(L)):
        y[j] = _in_word(L, bd, x, j)


cdef inline void _step_up(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                          uint64_t* y) noexcept nogil:
    """y = x moved one spoke up its ring."""
    cdef int j
    for j in range(_nwords(L)):
        y[j] = _up_word(L, bd, x, j)


cdef inline void _step_down(Lanes* L, const EmpireBoard* bd, const uint64_t* x,
                            uint64_t* y) noexcept nogil:
    """y = x moved one spoke down its ring."""
    cdef int j
    for j in range(_nwords(L)):
        y[j] = _down_word(L, bd, x, j)


cdef enum:
    STEP_OUT = 0
    STEP_IN = 1
    STEP_UP = 2
    STEP_DOWN = 3


cdef inline void _step(Lanes* L, const EmpireBoard* bd, int dr, const uint64_t* x,
                       uint64_t* y) noexcept nogil:
    if dr == STEP_OUT:
        _step_out(L, bd, x, y)
    elif dr == STEP_IN:
        _step_in(L, bd, x, y)
    elif dr == STEP_UP:
        _step_up(L, bd, x, y)
    else:
        _step_down(L, bd, x, y)


cdef void _monotone_paths(Lanes* L, Walk* w, int v, int k, int main, int side_a,
                          int side_b) noexcept nogil:
    """Mark found every (u, n) of a path of one monotone family from ``v`` at cost ``k`` (over
    ``open_`` and ``ends``, which leave out the path up to v): each step is ``main`` or a side
    step, and the side steps between two main steps all go the same way (``side_a`` or
    ``side_b``). With ``main`` one ring out (or in, or one spoke up or down: the side steps
    then move along the other axis), such a path never comes back to a ring (spoke) it left,
    and a run of at most 12 side steps along a ring of S >= 16 dots (or a spoke) never meets
    itself: every such path is simple. Three bitsets per cost: the ends of the paths whose
    last step was a main step (``e``), a side_a step (``a``), a side_b step (``b``)."""
    cdef const EmpireBoard* bd = w.bd
    cdef uint64_t e[LANE_WORDS]
    cdef uint64_t a[LANE_WORDS]
    cdef uint64_t b[LANE_WORDS]
    cdef uint64_t x[LANE_WORDS]
    cdef uint64_t e2[LANE_WORDS]
    cdef uint64_t a2[LANE_WORDS]
    cdef uint64_t b2[LANE_WORDS]
    cdef uint64_t alive
    cdef int n, j
    for j in range(_nwords(L)):
        e[j] = a[j] = b[j] = 0
    e[v >> 6] = (<uint64_t>1) << (v & 63)
    for n in range(k + 1, w.budget + 1):
        for j in range(_nwords(L)):
            x[j] = e[j] | a[j] | b[j]
        _step(L, bd, main, x, e2)
        for j in range(_nwords(L)):
            x[j] = e[j] | a[j]
        _step(L, bd, side_a, x, a2)
        for j in range(_nwords(L)):
            x[j] = e[j] | b[j]
        _step(L, bd, side_b, x, b2)
        alive = 0
        for j in range(_nwords(L)):
            x[j] = (e2[j] | a2[j] | b2[j]) & w.ends[j]
            e[j] = e2[j] & w.open_[j]
            a[j] = a2[j] & w.open_[j]
            b[j] = b2[j] & w.open_[j]
            alive |= e[j] | a[j] | b[j]
        if (w.costs_missing >> n) & 1:
            _drop(L, w, n, x)
        if not alive or not (w.costs_missing & _costs_from(n + 1)):
            break


cdef void _turned_paths(Lanes* L, Walk* w, int s0) noexcept nogil:
    """The families that turn back once: a straight run of 1 to TURN_MAX steps from ``s0`` in
    one direction, then a monotone family whose main step is the opposite one (out 2, then
    anything that never goes out again: the way around an army in front). The run's dots
    leave ``open_`` and ``ends`` while the family is followed, so every path is simple."""
    cdef int dr, n, c, v
    cdef int16_t run[TURN_MAX]
    cdef uint64_t bit
    for dr in range(4):
        c = s0
        n = 0
        while n < TURN_MAX and n + 2 < w.budget and w.costs_missing:
            v = w.bd.nb[c][dr]
            if v < 0 or not (w.open_[v >> 6] >> (v & 63)) & 1:
                break
            bit = (<uint64_t>1) << (v & 63)
            w.open_[v >> 6] &= ~bit
            w.ends[v >> 6] &= ~bit
            run[n] = <int16_t>v
            n += 1
            if dr < 2:
                _monotone_paths(L, w, v, n, dr ^ 1, STEP_UP, STEP_DOWN)
            else:
                _monotone_paths(L, w, v, n, dr ^ 1, STEP_OUT, STEP_IN)
            c = v
        while n > 0:
            n -= 1
            v = run[n]
            bit = (<uint64_t>1) << (v & 63)
            w.open_[v >> 6] |= bit
            w.ends[v >> 6] |= bit


cdef void _class_bits(Gen* g, int D) noexcept nogil:
    """``passb`` and ``takeb`` from ``cls``, eight dots at a time: the classes are bytes 0, 1,
    2, so a PASS byte has bit 0 alone and a TAKE byte bit 1; the low bits of the eight bytes
    are gathered into one byte by a multiply (each lands on its own bit of the top byte).
    Sixteen at a time first where the CPU allows (bytes16.h)."""
    cdef int i, j
    cdef uint64_t x, p, t, keep
    cdef uint64_t ONES = <uint64_t>0x0101010101010101
    cdef uint64_t GATHER = <uint64_t>0x0102040810204080
    for j in range(LANE_WORDS):
        g.passb[j] = 0
        g.takeb[j] = 0
    for i in range(pl_byte_bits(g.cls, D, C_PASS, C_TAKE, g.passb, g.takeb), D, 8):
        memcpy(&x, &g.cls[i], 8)
        p = x & ~(x >> 1) & ONES
        t = (x >> 1) & ONES
        keep = 0xFF if D - i >= 8 else ((<uint64_t>1) << (D - i)) - 1     # (bytes past D)
        g.passb[i >> 6] |= (((p * GATHER) >> 56) & keep) << (i & 63)
        g.takeb[i >> 6] |= (((t * GATHER) >> 56) & keep) << (i & 63)
    g.bits_ready = True


# Armies with at most SHORT_MAX steps to take, on a board with lanes (_short_lanes): a board
# with lanes is part of a cylinder grid of at least 16 spokes, where a step out and a step
# round commute. Its only cycles of up to 6 steps are squares (4 steps) and two squares side by
# side (6), and a walk of up to 6 steps that never steps straight back meets a dot twice only
# (a) where it began (a cycle of 4 or 6 from the start: the army's own dot is never an end), or
# (b) by going round a square: four steps, each a quarter turn the same way round as the one
# before (three turns alike in a row). Every other such walk is a simple path. So the pairs
# are the ends of the walks that never step back, cost by cost, kept apart by the direction of
# their last step and, from 5 steps, by the turns just made (none, one or two to the left, one
# or two to the right); a third turn alike is never taken. Rotating a quarter turn:
# out -> up -> in -> down -> out (_LEFT), and back (_RIGHT).
cdef int _LEFT[4]
cdef int _RIGHT[4]
_LEFT[STEP_OUT], _LEFT[STEP_UP], _LEFT[STEP_IN], _LEFT[STEP_DOWN] = \
    STEP_UP, STEP_IN, STEP_DOWN, STEP_OUT
_RIGHT[STEP_UP], _RIGHT[STEP_IN], _RIGHT[STEP_DOWN], _RIGHT[STEP_OUT] = \
    STEP_OUT, STEP_UP, STEP_IN, STEP_DOWN

cdef enum:
    TURNS = 5                   # the turns just made: none, left, left twice, right, right twice
    T_NONE = 0
    T_LEFT = 1
    T_LEFT2 = 2
    T_RIGHT = 3
    T_RIGHT2 = 4


cdef inline void _mark_got(Walk* w, int j, int n, uint64_t got) noexcept nogil:
    """Mark (u, n) found for the dots u of word ``j`` of a bitset (the word-parallel
    searches)."""
    cdef uint16_t bit = <uint16_t>(1 << n)
    w.touched[j] |= got
    while got:
        w.found[(j << 6) + pl_ctz(got)] |= bit
        got &= got - 1


cdef void _short_lanes(Lanes* L, Gen* g, const EmpireState* s, int s0,
                       bint open_own) noexcept nogil:
    """Every (to, cost) of the army on ``s0``, with at most SHORT_MAX steps to take, on a
    board with lanes, by word operations (the walks above). ``open_own``: the Emblem (its own
    base is open to it when empty). Marks ``found`` / ``touched`` for _emit."""
    cdef Walk* w = &g.w
    cdef const EmpireBoard* bd = s.bd
    cdef int B = w.budget, n, j, t, r, l, p = 0, own = bd.base_dot[s.to_move]
    # the walks' ends at cost n, by the direction dr of their last step and (from 5 steps) the
    # turns q just made: word j of set (dr, q) at [(dr * TURNS + q) * LANE_WORDS + j], in two
    # buffers (this cost's and the next)
    cdef uint64_t buf[2][4 * TURNS * LANE_WORDS]
    cdef uint64_t* cur
    cdef uint64_t* nxt
    cdef uint64_t x[TURNS][LANE_WORDS]
    cdef uint64_t every[4][LANE_WORDS]      # every[dr]: the ends of last step dr, any turns
    cdef uint64_t opn[LANE_WORDS]
    cdef uint64_t ends[LANE_WORDS]
    cdef uint64_t got, radial, round_, alive = 0
    cdef bint turns = B > 4     # (up to 4 steps no square closes off the start)
    cdef int q_sets = TURNS if turns else 1
    if not g.bits_ready:
        _class_bits(g, bd.ndots)
    for j in range(_nwords(L)):
        opn[j] = g.passb[j]
        x[0][j] = 0
    if open_own and s.army[own] == 0:
        opn[own >> 6] |= (<uint64_t>1) << (own & 63)
    for j in range(_nwords(L)):
        ends[j] = opn[j] | g.takeb[j]
    x[0][s0 >> 6] = (<uint64_t>1) << (s0 & 63)
    cur = buf[0]
    for t in range(4):
        _step(L, bd, t, x[0], cur + t * TURNS * LANE_WORDS)
        for j in range(LANE_WORDS, q_sets * LANE_WORDS):
            cur[t * TURNS * LANE_WORDS + j] = 0
    n = 1
    while True:
        # the ends reached at n; then what goes on from them (PASS dots only)
        for j in range(_nwords(L)):
            for t in range(4):
                every[t][j] = cur[t * TURNS * LANE_WORDS + j]
            if turns:
                for t in range(4):
                    for r in range(1, TURNS):
                        every[t][j] |= cur[(t * TURNS + r) * LANE_WORDS + j]
            got = every[0][j] | every[1][j] | every[2][j] | every[3][j]
            alive |= got & opn[j]
            got &= ends[j]
            if got:
                _mark_got(w, j, n, got)
        if n >= B or not alive:
            return
        alive = 0
        p ^= 1
        nxt = buf[p]
        if not turns:
            # each direction goes on from the ends whose last step was not its opposite
            for j in range(_nwords(L)):
                radial = every[STEP_OUT][j] | every[STEP_IN][j]
                round_ = every[STEP_UP][j] | every[STEP_DOWN][j]
                x[STEP_OUT][j] = (every[STEP_OUT][j] | round_) & opn[j]
                x[STEP_IN][j] = (every[STEP_IN][j] | round_) & opn[j]
                x[STEP_UP][j] = (every[STEP_UP][j] | radial) & opn[j]
                x[STEP_DOWN][j] = (every[STEP_DOWN][j] | radial) & opn[j]
            for t in range(4):
                _step(L, bd, t, x[t], nxt + t * TURNS * LANE_WORDS)
        else:
            # to t: straight on (any turns before), a left turn from _RIGHT[t] (after no turn
            # or right turns), a second one, a right turn from _LEFT[t], a second one
            for t in range(4):
                r = (_RIGHT[t] * TURNS) * LANE_WORDS
                l = (_LEFT[t] * TURNS) * LANE_WORDS
                for j in range(_nwords(L)):
                    x[T_NONE][j] = every[t][j] & opn[j]
                    x[T_LEFT][j] = (cur[r + T_NONE * LANE_WORDS + j]
                                    | cur[r + T_RIGHT * LANE_WORDS + j]
                                    | cur[r + T_RIGHT2 * LANE_WORDS + j]) & opn[j]
                    x[T_LEFT2][j] = cur[r + T_LEFT * LANE_WORDS + j] & opn[j]
                    x[T_RIGHT][j] = (cur[l + T_NONE * LANE_WORDS + j]
                                     | cur[l + T_LEFT * LANE_WORDS + j]
                                     | cur[l + T_LEFT2 * LANE_WORDS + j]) & opn[j]
                    x[T_RIGHT2][j] = cur[l + T_RIGHT * LANE_WORDS + j] & opn[j]
                for r in range(TURNS):
                    _step(L, bd, t, x[r], nxt + (t * TURNS + r) * LANE_WORDS)
        cur = nxt
        n += 1


cdef void _lanes_search(Lanes* L, Gen* g, const EmpireState* s, int s0) noexcept nogil:
    """The (to, cost) pairs of the Emblem on ``s0``, with more than SHORT_MAX steps to take, on
    a board with lanes, by word operations throughout: the distances by a breadth-first search
    of shifts, the pairs they allow (``may``), the pairs the four monotone families of paths
    find and the families that turn back, then _walk_lanes for the rest. The own base is open
    to the Emblem when empty. Marks the found pairs in ``found`` / ``touched`` for _emit."""
    cdef Walk* w = &g.w
    cdef const EmpireBoard* bd = s.bd
    cdef int B = w.budget, n, j, u, own = bd.base_dot[s.to_move]
    cdef uint64_t layer[13][LANE_WORDS]
    cdef uint64_t same[13][LANE_WORDS]      # same[n]: the dots at a distance d <= n, n - d even
    cdef uint64_t seen[LANE_WORDS]
    cdef uint64_t front[LANE_WORDS]
    cdef uint64_t x[LANE_WORDS]
    cdef uint64_t y[LANE_WORDS]
    cdef uint64_t take[LANE_WORDS]
    cdef uint64_t more, takes = 0
    # the classes as bitsets (the own base opened to the Emblem when it is empty)
    if not g.bits_ready:
        _class_bits(g, bd.ndots)
    for j in range(_nwords(L)):
        w.open_[j] = g.passb[j]
        take[j] = g.takeb[j]
    if s.army[own] == 0:
        w.open_[own >> 6] |= (<uint64_t>1) << (own & 63)
    for j in range(_nwords(L)):
        w.ends[j] = w.open_[j] | take[j]
        seen[j] = 0
        front[j] = 0
        layer[0][j] = 0
        same[0][j] = 0
    front[s0 >> 6] = seen[s0 >> 6] = layer[0][s0 >> 6] = same[0][s0 >> 6] = \
        (<uint64_t>1) << (s0 & 63)
    # distances: layer[n], the dots first reached at n (a path only goes on from PASS dots)
    more = 1
    for n in range(1, B + 1):
        if more:
            more = _next_layer(L, w, front, seen, layer[n])
        else:
            for j in range(_nwords(L)):
                layer[n][j] = 0         # (nothing further: no dot to go on from)
        for j in range(_nwords(L)):
            same[n][j] = layer[n][j] | (same[n - 2][j] if n >= 2 else 0)
    # may[n]: a PASS dot at distance d <= n with n - d even (a board with lanes is a part of a
    # cylinder grid of an even number of spokes, so it has two colours); a TAKE dot one step
    # past a PASS dot that may be reached at n - 1 (or next to the army, n = 1)
    for j in range(_nwords(L)):
        takes |= take[j] & seen[j]
    w.costs_missing = 0
    for n in range(1, B + 1):
        if takes and n >= 2:
            for j in range(_nwords(L)):
                x[j] = same[n - 1][j] & w.open_[j]
            _expand(L, bd, x, y)
        else:
            for j in range(_nwords(L)):
                y[j] = 0
        more = 0
        for j in range(_nwords(L)):
            g.may[n][j] = (same[n][j] & w.open_[j]) | (take[j] & (y[j] | layer[n][j]))
            w.miss[n][j] = g.may[n][j] & ~layer[n][j]
            more |= w.miss[n][j]
        if more:
            w.costs_missing |= <uint16_t>(1 << n)
    # the families of simple paths, then the search for what they left
    if w.costs_missing:
        _monotone_paths(L, w, s0, 0, STEP_OUT, STEP_UP, STEP_DOWN)
    if w.costs_missing:
        _monotone_paths(L, w, s0, 0, STEP_IN, STEP_UP, STEP_DOWN)
    if w.costs_missing:
        _monotone_paths(L, w, s0, 0, STEP_UP, STEP_OUT, STEP_IN)
    if w.costs_missing:
        _monotone_paths(L, w, s0, 0, STEP_DOWN, STEP_OUT, STEP_IN)
    if w.costs_missing:
        _turned_paths(L, w, s0)
    if w.costs_missing:
        _walk_lanes(L, w, s0, 0)
    # found: what may be, less what is still missing
    for n in range(1, B + 1):
        for j in range(_nwords(L)):
            _mark_got(w, j, n, g.may[n][j] & ~w.miss[n][j])


cdef void _walk_two(Walk* w, int s0) noexcept nogil:
    """A 2: plain moves along any path; captures and conquests only along an L of exactly two
    steps, one radial (out, in) and one tangential (cw, ccw)."""
    cdef int d1, d2, v, u, cl
    for d1 in range(4):
        v = w.bd.nb[s0][d1]
        if v < 0 or w.cls[v] != C_PASS:
            continue                # a 2 never takes after a single step
        _mark_any(w, v, 1)
        if w.budget < 2:
            continue
        for d2 in range(4):
            u = w.bd.nb[v][d2]
            if u < 0 or u == s0:
                continue
            cl = w.cls[u]
            if cl == C_PASS or (cl == C_TAKE and (d1 < 2) != (d2 < 2)):
                _mark_any(w, u, 2)


cdef void _jumps(Walk* w, int s0, int own_base) noexcept nogil:
    """A 4's jumps: the first link only, over an army (any Empire) on the neighbour in one
    direction, landing on that army's neighbour in the same direction, for 2 steps; never over
    the 4's own base. The jumped dot is not visited (the path may come back onto it)."""
    cdef int dr, over, land, cl
    for dr in range(4):
        over = w.bd.nb[s0][dr]
        if over < 0 or w.army[over] == 0 or over == own_base:
            continue
        land = w.bd.nb[over][dr]
        if land < 0:
            continue
        cl = w.cls[land]
        if cl == C_BLOCK:
            continue
        _mark_any(w, land, 2)
        if cl == C_PASS and w.budget > 2:
            w.cls[land] = C_BLOCK
            _walk(w, land, 2, True)
            w.cls[land] = C_PASS


cdef inline uint64_t _bytes_between(uint64_t y, uint64_t below,
                                    uint64_t above) noexcept nogil:
    """The high bit of every byte of ``y`` (bytes of at most 127) strictly between m and n,
    given below = 127 + n and above = 127 - m in every byte (0 <= m, n <= 128): no byte
    borrows or carries into the next, so the test is exact (_own, _classify)."""
    return (below - y) & (y + above) & (<uint64_t>0x8080808080808080)


cdef void _classify(const EmpireState* s, uint8_t* cls) noexcept nogil:
    """Class every dot for the Empire to act (the own base is BLOCK: only the Emblem's search
    opens it): by the army on it, then the bases still standing. Eight dots at a time: with y
    an army byte less its moved flag, a byte is 0 when y and the flag are; it is a friend's
    army when 4e < y < 4e + 5 for an Empire e of the player to act (the byte-range test of
    word operations, as in _own); PASS, BLOCK and TAKE are the bytes 1, 0, 2. Sixteen at a time
    first where the CPU allows (bytes16.h)."""
    cdef const EmpireBoard* bd = s.bd
    cdef int D = bd.ndots, d, e, i, nown = 0, mover = s.to_move, me = s.owner[s.to_move]
    cdef uint64_t ONES = <uint64_t>0x0101010101010101
    cdef uint64_t LOW7 = ONES * 127
    cdef uint64_t HIGH = ONES << 7
    cdef uint64_t below[EMPIRE_EMPIRES]
    cdef uint64_t above[EMPIRE_EMPIRES]
    cdef uint64_t x, y, zero, own, word
    cdef uint8_t b
    cdef uint8_t lows[EMPIRE_EMPIRES]
    for e in range(EMPIRE_EMPIRES):
        if s.owner[e] == me:
            below[nown] = ONES * <uint64_t>(127 + 4 * e + 5)
            above[nown] = ONES * <uint64_t>(127 - 4 * e)
            lows[nown] = army_code(e, 0)
            nown += 1
    d = pl_class_bytes(s.army, cls, D, lows, nown)
    while d + 8 <= D:
        memcpy(&x, &s.army[d], 8)
        y = x & LOW7
        zero = ~((y + LOW7) | x) & HIGH
        own = 0
        for i in range(nown):
            own |= _bytes_between(y, below[i], above[i])
        word = (zero >> 7) | ((~(zero | own) & HIGH) >> 6)
        memcpy(&cls[d], &word, 8)
        d += 8
    while d < D:                # (the last dots one by one: the state may end with them)
        b = s.army[d]
        cls[d] = C_PASS if b == 0 else C_BLOCK if s.owner[army_empire(b)] == me else C_TAKE
        d += 1
    for e in range(EMPIRE_EMPIRES):
        if (s.alive >> e) & 1:
            # a base still standing: closed to its own small armies and to friends; an enemy
            # base ends any move that enters it (a conquest)
            cls[bd.base_dot[e]] = C_BLOCK if (e == mover or s.owner[e] == me) else C_TAKE


cdef int _emit(Walk* w, int s0, uint16_t keep, int32_t* out, int n) noexcept nogil:
    """Write the ids of the marked (to, cost) of the army on ``s0`` (ascending) and clear the
    marks."""
    cdef int D = w.bd.ndots, word, v, k
    cdef uint64_t bits
    cdef uint16_t m
    cdef int32_t base = s0 * D
    for word in range((D + 63) >> 6):
        bits = w.touched[word]
        w.touched[word] = 0
        while bits:
            v = (word << 6) + pl_ctz(bits)
            bits &= bits - 1
            m = w.found[v] & keep
            w.found[v] = 0
            while m:
                k = pl_ctz(m)
                m &= m - 1
                out[n] = (base + v) * EMPIRE_COSTS + k - 1
                n += 1
    return n


cdef void _clear_marks(Walk* w) noexcept nogil:
    """Forget every mark (as _emit does, without writing ids)."""
    cdef int word
    cdef uint64_t bits
    for word in range((w.bd.ndots + 63) >> 6):
        bits = w.touched[word]
        w.touched[word] = 0
        while bits:
            w.found[(word << 6) + pl_ctz(bits)] = 0
            bits &= bits - 1


cdef uint16_t _found_any(Walk* w) noexcept nogil:
    """The union of the marks of every dot."""
    cdef int word
    cdef uint64_t bits
    cdef uint16_t acc = 0
    for word in range((w.bd.ndots + 63) >> 6):
        bits = w.touched[word]
        while bits:
            acc |= w.found[(word << 6) + pl_ctz(bits)]
            bits &= bits - 1
    return acc


cdef void _gen_init(Gen* g, const EmpireState* s) noexcept nogil:
    cdef int D = s.bd.ndots
    g.w.bd = s.bd
    g.w.army = s.army
    g.w.cls = g.cls
    g.w.found = g.found
    g.w.need = g.need
    g.w.touched = g.touched
    g.w.queue = g.queue
    g.w.reached = g.reached
    g.w.dist = g.dist
    g.w.stamp = g.stamp
    g.w.cur = 0                 # (the stamps are cleared on first use: _quiet_off_path)
    memset(g.found, 0, D * sizeof(uint16_t))
    memset(g.need, 0, D * sizeof(uint16_t))
    memset(g.dist, -1, D)
    memset(g.touched, 0, sizeof(g.touched))
    g.bits_ready = False
    _classify(s, g.cls)


cdef int _army_budget(const EmpireState* s, int t) noexcept nogil:
    """The most steps an unmoved army of type ``t`` of the Empire to act may take now."""
    cdef int b
    if t == EMPIRE_T_E:
        return 0 if s.emblem_moved else EMPIRE_MAX_STEPS - s.total
    if s.locked:
        return 0
    b = C_VALUE[t]
    if EMPIRE_SMALL_STEPS - s.small < b:
        b = EMPIRE_SMALL_STEPS - s.small
    if EMPIRE_MAX_STEPS - s.total < b:
        b = EMPIRE_MAX_STEPS - s.total
    return b


cdef inline bint _lanes16(const EmpireBoard* bd) noexcept nogil:
    """Whether the word-parallel searches take their ep16 build (lanes of 16, 3 words)."""
    return bd.lane == 16 and bd.ndots <= 64 * _nwords(<Lanes16*>NULL)


cdef void _army_search(Gen* g, const EmpireState* s, int d, int cap) noexcept nogil:
    """Mark in ``g`` the (to, cost) of the moves of at most ``cap`` steps that the path and
    budget rules allow the army on ``d`` (an unmoved army of the Empire to act), for _emit or
    _emit_six. The six-step rule is applied by _emit_six or the callers (_six_check)."""
    cdef int t = army_type(s.army[d]), budget = _army_budget(s, t)
    cdef int own = s.bd.base_dot[s.to_move]
    if budget > cap:
        budget = cap
    if budget <= 0:
        return
    g.w.budget = budget
    if t == EMPIRE_T_2:
        _walk_two(&g.w, d)
    elif g.w.bd.lane and budget <= SHORT_MAX:
        if _lanes16(g.w.bd):
            _short_lanes(<Lanes16*>NULL, g, s, d, t == EMPIRE_T_E)
        else:
            _short_lanes(<LanesAny*>NULL, g, s, d, t == EMPIRE_T_E)
        if t == EMPIRE_T_4 and budget >= 2:
            _jumps(&g.w, d, own)
    elif g.w.bd.lane and t == EMPIRE_T_E:
        if _lanes16(g.w.bd):
            _lanes_search(<Lanes16*>NULL, g, s, d)
        else:
            _lanes_search(<LanesAny*>NULL, g, s, d)
    elif t != EMPIRE_T_E or budget <= EVERY_MAX:
        if t == EMPIRE_T_E and s.army[own] == 0:
            g.cls[own] = C_PASS         # the Emblem may pass through and stop on its own base
        _walk(&g.w, d, 0, True)         # (d holds the army: it is BLOCK)
        if t == EMPIRE_T_4 and budget >= 2:
            _jumps(&g.w, d, own)
        g.cls[own] = C_BLOCK
    else:
        if s.army[own] == 0:
            g.cls[own] = C_PASS
        _reach(&g.w, d)
        if g.w.left > 0:
            _limit_takes(&g.w, d)
        if g.w.left > 0:
            _walk(&g.w, d, 0, False)
        _reach_clear(&g.w)
        g.cls[own] = C_BLOCK


cdef int _army_moves(Gen* g, const EmpireState* s, int d, int cap, int32_t* out,
                     int n) noexcept nogil:
    """Append the ids of the moves of at most ``cap`` steps that the path and budget rules allow
    the army on ``d`` (an unmoved army of the Empire to act) to ``out[n:]``; returns the new
    length (the six-step rule not applied)."""
    _army_search(g, s, d, cap)
    return _emit(&g.w, d, ALL_COSTS, out, n)


cdef int _frees(const EmpireState* s, int32_t* out, int n) noexcept nogil:
    """Append the legal frees (ascending): in the window after a conquest, the conqueror's own
    armies that the conquered Empire had captured, a 2, 4 or 6 on an empty starting dot of its
    type in either layout, the Emblem on the own base if it is empty."""
    cdef const EmpireBoard* bd = s.bd
    cdef int D = bd.ndots, x = s.to_move, y = s.free_from, t, d, i, j
    cdef int32_t base
    cdef const int16_t* a1
    cdef const int16_t* a2
    if y < 0:
        return n
    for t in range(EMPIRE_TYPES):
        if s.cap[y][x][t] == 0:
            continue
        base = bd.base_free + t * D
        if t == EMPIRE_T_E:
            d = bd.base_dot[x]
            if s.army[d] == 0:
                out[n] = base + d
                n += 1
            continue
        a1 = &bd.starts[x][t][0]
        a2 = &bd.starts[y][t][0]
        i = j = 0
        while i < bd.nstarts[x][t] or j < bd.nstarts[y][t]:
            if j >= bd.nstarts[y][t] or (i < bd.nstarts[x][t] and a1[i] < a2[j]):
                d = a1[i]
                i += 1
            else:
                d = a2[j]
                j += 1
            if s.army[d] == 0:
                out[n] = base + d
                n += 1
    return n


# -- six steps when possible ----------------------------------------------------------------------
#
# [ruling 2026-12-01] While some sequence of this turn's army moves and frees (legal by the path
# and budget rules) can still bring the total to 6, a move after which none can is illegal,
# unless it ends the game; End needs a total of 6, or no legal army move and no sequence (of
# frees, then moves) that reaches 6. "Can the turn still reach 6?" is answered in tiers,
# cheapest first:
#
# 1. Witnesses (_witness): a plain path of ``need`` = 6 - total steps for the Emblem, and small
#    armies walked greedily one after another along plain paths. A path of more than ``need``
#    steps has a plain prefix of exactly ``need``, so the Emblem's answer is exact for plain
#    ends. A witness also settles most moves of a list at once: a move that leaves the witness's
#    armies and dots alone keeps it (its last path is cut short where 6 is reached). A list
#    applies these tests per destination as it writes each army's ids (_emit_six: masks of the
#    costs kept per dot, made once per list), a single move by _six_check.
# 2. The witnesses again after the one move (_after_move), on the classes of the dots changed
#    in place.
# 3. An exhaustive search over the turn's sequences (_six_search) on copies of the state, moves
#    of at most max(need, 2) steps (a shorter plain prefix exists but for a 4's first-link jump),
#    longest first, frees in ascending order (they commute), pruned by the steps the armies
#    still on hand or capturable back could add at most. Only cramped positions get there.

ctypedef struct Own:
    int n                       # the unmoved armies of the Empire to act, in dot order
    int16_t dots[EMPIRE_MAX_START * EMPIRE_TYPES]


cdef int _own(const EmpireState* s, Own* o) noexcept nogil:
    """Fill ``o`` with the dots of the unmoved armies of the Empire to act; returns how many.
    Eight dots at a time: their army bytes b with lo <= b <= lo + 3 (lo: the Empire's first
    code; a moved army has the high bit) each get the high bit of their byte set by the
    byte-range test of word operations (lo - 1 < b < lo + 4 on the low seven bits, bytes with
    the high bit left out), exact for bounds up to 128. Sixteen at a time first where the CPU
    allows (bytes16.h)."""
    cdef int lo = army_code(s.to_move, 0), D = s.bd.ndots, d, n = 0
    cdef int cap = EMPIRE_MAX_START * EMPIRE_TYPES
    cdef uint64_t x, low, hit
    cdef uint64_t ONES = <uint64_t>0x0101010101010101
    cdef uint64_t LOW7 = ONES * 127
    cdef uint64_t below = ONES * <uint64_t>(127 + lo + 4)    # 127 + the upper bound
    cdef uint64_t above = ONES * <uint64_t>(127 - (lo - 1))  # 127 - the lower bound
    d = pl_find_bytes(s.army, D, lo, o.dots, cap, &n)
    while d + 8 <= D:
        memcpy(&x, &s.army[d], 8)
        low = x & LOW7
        hit = _bytes_between(low, below, above) & ~x      # (moved armies left out)
        while hit and n < cap:
            o.dots[n] = <int16_t>(d + (pl_ctz(hit) >> 3))
            n += 1
            hit &= hit - 1
        d += 8
    while d < D:                # (the last dots one by one: the state may end with them)
        if <unsigned int>(s.army[d] - lo) < EMPIRE_TYPES and n < cap:
            o.dots[n] = <int16_t>d
            n += 1
        d += 1
    o.n = n
    return n


cdef enum:
    WALKS = 8                   # the most greedy walks of small armies a witness keeps


ctypedef struct Witness:
    bint emblem                 # the Emblem has a plain path of ``need`` steps: edots[0]
    bint emblem2                # and (``every``) a second one apart from it: edots[1]
    int16_t edots[2][6]
    int nwalks                  # walks of the small armies one after another along plain paths:
    int got[WALKS]              # the first by all of them; then (``every``) one without each
    int narmies[WALKS]          # army of the first, and one without all of them. A walk reaches
    int16_t armies[WALKS][6]    # got[j] <= need steps with the armies armies[j] over the dots
    int ndots[WALKS]            # dots[j]: a move that leaves both alone keeps it
    int16_t dots[WALKS][6]


ctypedef struct Six:
    Gen* g                      # NULL until opened (_six_open)
    char* states                # SIX_LEVELS states of ``sb`` bytes: a copy per level
    int32_t* ids                # the levels' move ids, one arena (offsets: it may grow)
    uint64_t* memo              # SIX_MEMO keys (positions' hashes, low bit: the answer), 0 empty
    int sb
    int cap
    int used


cdef enum:
    SIX_LEVELS = 27             # 5 moves below 6 steps, at most 19 frees, and room
    SIX_MEMO = 4096             # answers remembered over one list (a power of 2)
    SIX_PROBES = 8


cdef bint _plain_path(const EmpireBoard* bd, uint8_t* cls, int c, int k,
                      int16_t* path) noexcept nogil:
    """Whether a simple path of exactly ``k`` steps over PASS dots leads on from ``c`` (its
    dots into ``path``)."""
    cdef int dr, v
    cdef bint ok
    for dr in range(4):
        v = bd.nb[c][dr]
        if v < 0 or cls[v] != C_PASS:
            continue
        path[0] = <int16_t>v
        if k == 1:
            return True
        cls[v] = C_BLOCK
        ok = _plain_path(bd, cls, v, k - 1, path + 1)
        cls[v] = C_PASS
        if ok:
            return True
    return False


cdef inline bint _among(const int16_t* a, int lo, int hi, int v) noexcept nogil:
    cdef int i
    for i in range(lo, hi):
        if a[i] == v:
            return True
    return False


cdef bint _witness(const EmpireState* s, const Own* o, uint8_t* cls, int total, int small,
                   bint emblem_moved, bint locked, int skip, Witness* w,
                   bint every=False) noexcept nogil:
    """Tier 1 for the turn record given (the army on ``skip`` counts as moved; ``o``: the
    unmoved armies of ``s``): whether the Emblem, or the small armies walked greedily, reach
    ``6 - total`` more steps by plain moves; ``w`` keeps the witnesses (``every``: the
    alternative ones too). ``cls`` is restored."""
    cdef const EmpireBoard* bd = s.bd
    cdef int need = EMPIRE_END_MIN - total, own = bd.base_dot[s.to_move]
    cdef int d, e = -1, ns = 0, i, j
    cdef uint8_t saved
    cdef int16_t smalls[EMPIRE_MAX_START * EMPIRE_TYPES]
    w.emblem = w.emblem2 = False
    w.nwalks = 0
    for i in range(o.n):
        d = o.dots[i]
        if d != skip:
            if army_type(s.army[d]) == EMPIRE_T_E:
                e = d
            else:
                smalls[ns] = <int16_t>d
                ns += 1
    if e >= 0 and not emblem_moved:
        saved = cls[own]
        if s.army[own] == 0:
            cls[own] = C_PASS
        w.emblem = _plain_path(bd, cls, e, need, w.edots[0])
        if w.emblem and every:
            for i in range(need):
                cls[w.edots[0][i]] = C_BLOCK
            w.emblem2 = _plain_path(bd, cls, e, need, w.edots[1])
            for i in range(need):
                cls[w.edots[0][i]] = C_PASS
        cls[own] = saved
    if locked or ns == 0:
        return w.emblem
    w.got[0] = _greedy(bd, s, cls, smalls, ns, need, NULL, 0, w.armies[0], &w.narmies[0],
                       w.dots[0], &w.ndots[0])
    w.nwalks = 1
    if every and w.got[0] > 0:
        for i in range(w.narmies[0] if w.narmies[0] < WALKS - 2 else WALKS - 2):
            j = w.nwalks
            w.got[j] = _greedy(bd, s, cls, smalls, ns, need, &w.armies[0][i], 1, w.armies[j],
                               &w.narmies[j], w.dots[j], &w.ndots[j])
            w.nwalks += 1
        if w.narmies[0] > 1:
            j = w.nwalks
            w.got[j] = _greedy(bd, s, cls, smalls, ns, need, w.armies[0], w.narmies[0],
                               w.armies[j], &w.narmies[j], w.dots[j], &w.ndots[j])
            w.nwalks += 1
    return w.emblem or w.got[0] >= need


cdef int _greedy(const EmpireBoard* bd, const EmpireState* s, uint8_t* cls, const int16_t* smalls,
                 int ns, int need, const int16_t* skip, int nskip, int16_t* armies, int* narmies,
                 int16_t* dots, int* ndots) noexcept nogil:
    """Walk the small armies ``smalls`` (but ``skip``) one after another along plain paths of as
    many steps as they may, until ``need`` steps; their dots and paths into ``armies`` and
    ``dots``. Returns the steps reached; ``cls`` is restored."""
    cdef int i, d, t, k, got = 0, na = 0, nd = 0
    for i in range(ns):
        if got >= need:
            break
        d = smalls[i]
        if _among(skip, 0, nskip, d):
            continue
        t = army_type(s.army[d])
        k = need - got if need - got < C_VALUE[t] else C_VALUE[t]
        while k >= 1 and not _plain_path(bd, cls, d, k, dots + nd):
            k -= 1
        if k >= 1:
            cls[d] = C_PASS
            cls[dots[nd + k - 1]] = C_BLOCK
            armies[na] = <int16_t>d
            na += 1
            nd += k
            got += k
    # (the dots first: a later army's path may cross the dot an earlier one left)
    for i in range(nd):
        cls[dots[i]] = C_PASS
    for i in range(na):
        cls[armies[i]] = C_BLOCK
    narmies[0] = na
    ndots[0] = nd
    return got


cdef bint _wins(const EmpireState* s, int t) noexcept nogil:
    """Whether entering dot ``t`` (a legal end dot) ends the game: the conquest of the last
    Empire of the last player but one still in play."""
    cdef int be = s.bd.base_emp[t], q, e, out
    if be < 0 or be == s.to_move or not (s.alive >> be) & 1:
        return False
    q = s.owner[be]
    out = s.nout + 1
    for e in range(EMPIRE_EMPIRES):
        if e != be and (s.alive >> e) & 1 and s.owner[e] == q:
            out = s.nout
    return s.nplayers - out <= 1


cdef int _emblem_room(const EmpireState* s, int e) noexcept nogil:
    """The most steps the Emblem on ``e`` could make this turn whatever the small armies do
    first, when no conquest can happen: the dots it may reach over empty dots and over those of
    the unmoved small armies (which may leave), plus one for a capture at the end."""
    cdef const EmpireBoard* bd = s.bd
    cdef uint8_t cls[EMPIRE_MAX_DOTS]
    cdef int16_t queue[EMPIRE_MAX_DOTS]
    cdef int head = 0, tail = 1, c, dr, v, lo = army_code(s.to_move, 0), take = 0
    cdef int own = bd.base_dot[s.to_move]
    _classify(s, cls)
    for v in range(bd.ndots):
        if <unsigned int>(s.army[v] - lo - 1) < EMPIRE_TYPES - 1:
            cls[v] = C_PASS             # an unmoved small army: its dot may empty
    if s.army[own] == 0:
        cls[own] = C_PASS
    queue[0] = <int16_t>e
    cls[e] = C_BLOCK
    while head < tail:
        c = queue[head]
        head += 1
        for dr in range(4):
            v = bd.nb[c][dr]
            if v < 0:
                continue
            if cls[v] == C_PASS:
                cls[v] = C_BLOCK
                queue[tail] = <int16_t>v
                tail += 1
            elif cls[v] == C_TAKE:
                take = 1
    return tail - 1 + take


ctypedef struct Supply:
    int smalls                  # the values of the small armies on hand or freeable (uncapped)
    bint emblem                 # an unmoved Emblem on hand or freeable
    int e                       # the Emblem's dot, -1 if not on the board
    bint conquest               # a conquest this turn could free armies


cdef void _supply(const EmpireState* s, const Own* o, Supply* u) noexcept nogil:
    """What could still move this turn: the armies on hand, and those that could be freed.
    Armies are freed only in the window now open, or after a conquest this turn: of an enemy
    whose base some unmoved army is near enough to (the armies ignored), unless that conquest
    ends the game (a game won does not reach 6). ``o``: the unmoved armies of ``s``."""
    cdef const EmpireBoard* bd = s.bd
    cdef int x = s.to_move, d, y, t, ns = o.n, i, r
    cdef int W = bd.words, home
    cdef bint near
    cdef const int16_t* mine = o.dots
    u.smalls = 0
    u.emblem = u.conquest = False
    u.e = -1
    for i in range(ns):
        d = mine[i]
        t = army_type(s.army[d])
        if t == EMPIRE_T_E:
            u.emblem = True
            u.e = d
        else:
            u.smalls += C_VALUE[t]
    for y in range(EMPIRE_EMPIRES):
        near = y == s.free_from
        if (not near and (s.alive >> y) & 1 and s.owner[y] != s.owner[x]
                and not _wins(s, bd.base_dot[y])):
            home = bd.base_dot[y]
            for i in range(ns):
                r = _army_budget(s, army_type(s.army[mine[i]]))
                if r > 0 and (bd.ball[(mine[i] * 13 + r) * W + (home >> 6)] >> (home & 63)) & 1:
                    near = True
                    u.conquest = True
                    break
        if not near:
            continue
        u.emblem = u.emblem or s.cap[y][x][EMPIRE_T_E] > 0
        for t in range(1, EMPIRE_TYPES):
            u.smalls += s.cap[y][x][t] * C_VALUE[t]
    if s.emblem_moved:
        u.emblem = False


cdef bint _six_bound(const EmpireState* s, const Own* o, int need) noexcept nogil:
    """Whether the armies on hand (``o``), and those that could be freed this turn (_supply),
    could add ``need`` steps at all."""
    cdef Supply u
    cdef int smalls
    _supply(s, o, &u)
    smalls = u.smalls
    if s.locked:
        smalls = 0
    elif smalls > EMPIRE_SMALL_STEPS - s.small:
        smalls = EMPIRE_SMALL_STEPS - s.small
    if smalls >= need:
        return True
    if not u.emblem:
        return False
    if u.conquest or u.e < 0 or s.free_from >= 0:
        return True                     # 12 - total >= 6 >= need
    return smalls + _emblem_room(s, u.e) >= need


cdef bint _short(const EmpireState* s, const Own* o, Supply* u, bint* ready, int need, int f,
                 int t, int c, int at) noexcept nogil:
    """Whether the move (``f`` to ``t``, ``c`` steps, an army of type ``at``) surely leaves
    too little to reach 6 when no Emblem could move after it (``u``: the supply before it,
    filled on first use: ``ready``). A conquest frees armies: it is never short here."""
    cdef int be = s.bd.base_emp[t], smalls
    if be >= 0 and be != s.to_move and (s.alive >> be) & 1:
        return False
    if not ready[0]:
        _supply(s, o, u)
        ready[0] = True
    if at == EMPIRE_T_E:
        smalls = u.smalls               # (an Emblem moved with small == 0: nothing is locked)
    elif u.emblem:
        return False
    else:
        smalls = u.smalls - C_VALUE[at]
    if smalls > EMPIRE_SMALL_STEPS - s.small - (0 if at == EMPIRE_T_E else c):
        smalls = EMPIRE_SMALL_STEPS - s.small - (0 if at == EMPIRE_T_E else c)
    return smalls < need - c


cdef int _six_search(Six* x, int level, int min_free) noexcept nogil:
    """Tier 3: 1 if some sequence of moves and frees from the copy at ``level`` reaches 6,
    0 if none, -1 out of memory."""
    cdef EmpireState* st = <EmpireState*>(x.states + level * x.sb)
    cdef EmpireState* child
    cdef const EmpireBoard* bd = st.bd
    cdef int need, i, slot = 0, r
    cdef uint64_t key = 0, k
    cdef Witness w
    cdef Own o
    if st.total >= EMPIRE_END_MIN:
        return 1
    if st.result != EMPIRE_RUNNING or level + 1 >= SIX_LEVELS:
        return 0
    need = EMPIRE_END_MIN - st.total
    _own(st, &o)
    if not _six_bound(st, &o, need):
        return 0
    _gen_init(x.g, st)
    if _witness(st, &o, x.g.cls, st.total, st.small, st.emblem_moved, st.locked, -1, &w):
        return 1
    if min_free == 0:           # (frees in ascending order only: a later one sees fewer)
        key = empire_hash(st) & ~(<uint64_t>1)
        slot = <int>(key >> 40) & (SIX_MEMO - 1)
        for i in range(SIX_PROBES):
            k = x.memo[(slot + i) & (SIX_MEMO - 1)]
            if k == 0:
                break
            if k & ~(<uint64_t>1) == key:
                return <int>(k & 1)
    r = _six_sequences(x, level, min_free, need)
    if min_free == 0 and r >= 0:
        for i in range(SIX_PROBES):
            k = x.memo[(slot + i) & (SIX_MEMO - 1)]
            if k == 0 or i == SIX_PROBES - 1:
                x.memo[(slot + i) & (SIX_MEMO - 1)] = key | <uint64_t>r
                break
    return r


cdef int _six_sequences(Six* x, int level, int min_free, int need) noexcept nogil:
    """_six_search's search proper, below its tests."""
    cdef EmpireState* st = <EmpireState*>(x.states + level * x.sb)
    cdef EmpireState* child
    cdef const EmpireBoard* bd = st.bd
    cdef int lo, d, i, n, nm, base, c, r = 0
    cdef int32_t* grown
    base = x.used
    lo = army_code(st.to_move, 0)
    n = base
    for d in range(bd.ndots):
        if <unsigned int>(st.army[d] - lo) < EMPIRE_TYPES:
            if n + (EMPIRE_COSTS + EMPIRE_TYPES) * bd.ndots > x.cap:   # one army, or the frees
                grown = <int32_t*>realloc(x.ids, (2 * x.cap + 16 * bd.ndots) * sizeof(int32_t))
                if grown == NULL:
                    return -1
                x.ids = grown
                x.cap = 2 * x.cap + 16 * bd.ndots
            nm = n
            n = _army_moves(x.g, st, d, need if need > 2 else 2, x.ids, n)
            for i in range(nm, n):
                if x.ids[i] % EMPIRE_COSTS + 1 >= need:
                    return 1
    nm = n
    n = _frees(st, x.ids, n)
    x.used = n
    child = <EmpireState*>(x.states + (level + 1) * x.sb)
    c = need - 1
    while c >= 1 and r == 0:
        for i in range(base, nm):
            if x.ids[i] % EMPIRE_COSTS + 1 == c:
                empire_copy(child, st)
                empire_make(child, x.ids[i])
                r = _six_search(x, level + 1, 0)
                if r != 0:
                    break
        c -= 1
    i = nm
    while i < n and r == 0:
        if x.ids[i] >= min_free:
            empire_copy(child, st)
            empire_make(child, x.ids[i])
            r = _six_search(x, level + 1, x.ids[i] + 1)
        i += 1
    x.used = base
    return r


cdef bint _six_open(Six* x, const EmpireBoard* bd) noexcept nogil:
    """Allocate the search's room (False: out of memory, all freed)."""
    x.sb = _round8(bd.state_bytes)
    x.cap = 32 * bd.ndots
    x.used = 0
    x.g = <Gen*>malloc(sizeof(Gen))
    x.states = <char*>malloc(SIX_LEVELS * x.sb)
    x.ids = <int32_t*>malloc(x.cap * sizeof(int32_t))
    x.memo = <uint64_t*>calloc(SIX_MEMO, sizeof(uint64_t))
    if x.g == NULL or x.states == NULL or x.ids == NULL or x.memo == NULL:
        _six_close(x)
        return False
    return True


cdef void _six_close(Six* x) noexcept nogil:
    free(x.g)
    free(x.states)
    free(x.ids)
    free(x.memo)
    x.g = NULL


cdef bint _six_deep(const EmpireState* s, Six* x) noexcept nogil:
    """Whether some sequence of this turn's moves and frees brings ``s`` to 6 (tier 3), in the
    room ``x`` (opened here if it is not; NULL: a room of its own), whose answers carry over
    from one call to the next. Out of memory it answers yes: the turn is then held to 6, as in
    almost every position."""
    cdef Six own
    cdef Own o
    cdef int r
    if s.total >= EMPIRE_END_MIN:
        return True
    if s.result != EMPIRE_RUNNING:
        return False
    _own(s, &o)
    if not _six_bound(s, &o, EMPIRE_END_MIN - s.total):
        return False
    if x == NULL:
        own.g = NULL
        if not _six_open(&own, s.bd):
            return True
        empire_copy(<EmpireState*>own.states, s)
        r = _six_search(&own, 0, 0)
        _six_close(&own)
        return r != 0
    if x.g == NULL and not _six_open(x, s.bd):
        return True
    empire_copy(<EmpireState*>x.states, s)
    return _six_search(x, 0, 0) != 0


cdef bint _after_move(const EmpireState* s, const Own* o, uint8_t* cls, int a, int f, int t,
                      int cost, int at, Six* x) noexcept nogil:
    """Tier 2, then 3: whether the turn can still reach 6 after the move ``a`` (``f`` to ``t``,
    ``cost`` steps, an army of type ``at``; ``o``: the unmoved armies of ``s``)."""
    cdef EmpireState after
    cdef Witness w
    cdef int own = s.bd.base_dot[s.to_move], be = s.bd.base_emp[t]
    cdef uint8_t cf = cls[f], ct = cls[t]
    cdef bint ok
    if not (be >= 0 and be != s.to_move and (s.alive >> be) & 1):
        cls[f] = C_BLOCK if f == own else C_PASS
        cls[t] = C_BLOCK
        ok = _witness(s, o, cls, s.total + cost, s.small + (0 if at == EMPIRE_T_E else cost),
                      s.emblem_moved or at == EMPIRE_T_E,
                      s.locked or (at == EMPIRE_T_E and s.small > 0), f, &w)
        cls[f] = cf
        cls[t] = ct
        if ok:
            return True
    empire_copy(&after, s)
    empire_make(&after, a)
    return _six_deep(&after, x)


cdef inline bint _walk_keeps(const Witness* w, int need, int f, int t, int cost) noexcept nogil:
    """Whether a walk of ``w`` still reaches 6 after a move of ``cost`` steps from ``f`` to
    ``t``: one that reaches ``need - cost`` steps, moves no army on ``f`` and crosses no ``t``."""
    cdef int j
    for j in range(w.nwalks):
        if (w.got[j] + cost >= need and not _among(w.armies[j], 0, w.narmies[j], f)
                and not _among(w.dots[j], 0, w.ndots[j], t)):
            return True
    return False


cdef bint _six_check(const EmpireState* s, const Own* o, uint8_t* cls, const Witness* w,
                     int a) noexcept nogil:
    """Whether the six-step rule allows the move ``a`` (legal by the path and budget rules) in
    ``s``, where the turn can still reach 6 (``w``: its witnesses, ``cls``: its classes)."""
    cdef int D = s.bd.ndots, m = a // EMPIRE_COSTS, cost = a % EMPIRE_COSTS + 1
    cdef int f = m // D, t = m % D, at = army_type(s.army[f])
    cdef int need = EMPIRE_END_MIN - s.total
    if cost >= need or _wins(s, t):
        return True
    if at == EMPIRE_T_E:
        if s.small > 0:
            return False                # it locks the small armies: nothing could follow
        if _walk_keeps(w, need, f, t, cost):
            return True
    else:
        # the Emblem's path keeps if the move lands past the ``need - cost`` steps it still
        # needs after the move
        if w.emblem and not _among(w.edots[0], 0, need - cost, t):
            return True
        if w.emblem2 and not _among(w.edots[1], 0, need - cost, t):
            return True
        if _walk_keeps(w, need, f, t, cost):
            return True
    return _after_move(s, o, cls, a, f, t, cost, at, NULL)


cdef bint _six_holds(const EmpireState* s, const Own* o, uint8_t* cls, Witness* w) noexcept nogil:
    """Whether the turn of ``s`` (total below 6) can still reach 6; ``o``: its unmoved armies,
    ``cls``: the classes of its dots; ``w`` gets the witnesses (empty ones if only the search
    found a way)."""
    if _witness(s, o, cls, s.total, s.small, s.emblem_moved, s.locked, -1, w, True):
        return True
    return _six_deep(s, NULL)


cdef enum:
    SIX_UNREADY = 0
    SIX_OFF = 1                 # the rule keeps every move of the list
    SIX_ON = 2


ctypedef struct SixList:
    # The six-step rule over one list (empire_list): the tests of _six_check on the dots marked
    # once, made on first need (a move of fewer steps than the turn still needs).
    int state                   # SIX_UNREADY, SIX_OFF or SIX_ON
    int need                    # 6 - total
    uint16_t low                # the cost bits 1 .. need - 1 (none when need <= 1)
    Witness w
    Six x                       # the search's room, opened on first need and shared
    Supply u
    bint supplied
    uint8_t onwalk[EMPIRE_MAX_DOTS]     # bit j: the dot is on walk j's paths
    uint8_t inwalk[EMPIRE_MAX_DOTS]     # bit j: walk j moves the army on the dot
    uint8_t epos[EMPIRE_MAX_DOTS]       # 1 + the dot's place on the Emblem's first path
    uint8_t epos2[EMPIRE_MAX_DOTS]      # and on its second, 0 off them
    uint8_t wins[EMPIRE_MAX_DOTS]       # entering the dot ends the game
    uint8_t enough[EMPIRE_COSTS + 1]    # bit j: walk j reaches need - c steps
    uint16_t walked                     # the costs c for which some walk reaches need - c
    bint emblem_free                    # an Emblem's move locks no small army (small == 0)
    uint16_t keeps[EMPIRE_MAX_DOTS]     # the costs of a small army's move onto the dot that
                                        # keep for the dot alone (the Emblem's witness paths
                                        # left alone, or a winning conquest)


cdef inline void _six_list_init(SixList* q, const EmpireState* s) noexcept nogil:
    q.state = SIX_UNREADY
    q.need = EMPIRE_END_MIN - s.total
    q.low = <uint16_t>(((1 << q.need) - 2) if q.need > 1 else 0)
    q.x.g = NULL


cdef inline uint16_t _past(int p, int need) noexcept nogil:
    """The costs c of a move onto the dot at place ``p`` (1-based, 0: off it) of the Emblem's
    witness path that leave the path's first need - c dots alone."""
    return ALL_COSTS if p == 0 else _costs_from(need - p + 1)


cdef void _six_list_open(SixList* q, const EmpireState* s, const Own* o,
                         uint8_t* cls) noexcept nogil:
    """Decide whether the rule binds (the turn can still reach 6) and, if so, mark the dots."""
    cdef const EmpireBoard* bd = s.bd
    cdef Witness* w = &q.w
    cdef int D = bd.ndots, need = q.need, i, j, c, e
    if not _six_holds(s, o, cls, w):
        q.state = SIX_OFF               # (every move then takes the total to 6)
        return
    q.state = SIX_ON
    q.supplied = False
    memset(q.onwalk, 0, D)
    memset(q.inwalk, 0, D)
    memset(q.epos, 0, D)
    memset(q.epos2, 0, D)
    memset(q.wins, 0, D)
    if w.emblem:
        for i in range(need):
            q.epos[w.edots[0][i]] = <uint8_t>(i + 1)
    if w.emblem2:
        for i in range(need):
            q.epos2[w.edots[1][i]] = <uint8_t>(i + 1)
    for j in range(w.nwalks):
        for i in range(w.ndots[j]):
            q.onwalk[w.dots[j][i]] |= <uint8_t>(1 << j)
        for i in range(w.narmies[j]):
            q.inwalk[w.armies[j][i]] |= <uint8_t>(1 << j)
    q.walked = 0
    for c in range(EMPIRE_COSTS + 1):
        q.enough[c] = 0
        for j in range(w.nwalks):
            if w.got[j] + c >= need:
                q.enough[c] |= <uint8_t>(1 << j)
        if q.enough[c]:
            q.walked |= <uint16_t>(1 << c)
    q.emblem_free = s.small == 0
    for e in range(EMPIRE_EMPIRES):
        if _wins(s, bd.base_dot[e]):
            q.wins[bd.base_dot[e]] = 1
    # keeps: every cost off the Emblem's witness path (or off one of the two), else the costs
    # that land past the ``need - c`` steps it still needs after the move
    if w.emblem:
        memset(q.keeps, 0xFF, D * sizeof(uint16_t))
        for i in range(need):
            c = w.edots[0][i]
            q.keeps[c] = _past(q.epos[c], need) | (_past(q.epos2[c], need) if w.emblem2 else 0)
    else:
        for i in range(D):
            q.keeps[i] = <uint16_t>~q.low
    for e in range(EMPIRE_EMPIRES):
        if q.wins[bd.base_dot[e]]:
            q.keeps[bd.base_dot[e]] = 0xFFFF


cdef uint16_t _six_rest(SixList* q, const EmpireState* s, const Own* o, uint8_t* cls, int f,
                        int t, int at, uint16_t m) noexcept nogil:
    """The costs of ``m`` (moves from ``f`` to ``t`` of an army of type ``at``, each below
    ``need``, none kept by ``keeps`` for a small army) that the six-step rule keeps: the rest of
    the tests of _six_check, cheapest first."""
    cdef int need = q.need, c
    cdef uint16_t keep = 0
    cdef uint8_t avoid
    if at == EMPIRE_T_E:
        if q.wins[t]:
            return m
        if s.small > 0:
            return 0                    # it locks the small armies: nothing could follow
        avoid = q.onwalk[t]
    else:
        avoid = q.onwalk[t] | q.inwalk[f]
    while m:
        c = pl_ctz(m)
        m &= m - 1
        if (q.enough[c] & ~avoid
                or (not _short(s, o, &q.u, &q.supplied, need, f, t, c, at)
                    and _after_move(s, o, cls, (f * s.bd.ndots + t) * EMPIRE_COSTS + c - 1, f,
                                    t, c, at, &q.x))):
            keep |= <uint16_t>(1 << c)
    return keep


cdef int _emit_six(Gen* g, const EmpireState* s, const Own* o, SixList* q, int s0,
                   int32_t* out, int n) noexcept nogil:
    """_emit for a list: the ids of the marked (to, cost) of the army on ``s0`` that the
    six-step rule keeps (ascending), the marks cleared. (A loop of its own: _emit with the rule
    as an option cost the list 11% more instructions.)"""
    cdef Walk* w = &g.w
    cdef int D = w.bd.ndots, word, v, at = army_type(s.army[s0])
    cdef uint64_t bits
    cdef uint16_t m, rest
    cdef int32_t row
    for word in range((D + 63) >> 6):
        bits = w.touched[word]
        w.touched[word] = 0
        while bits:
            v = (word << 6) + pl_ctz(bits)
            bits &= bits - 1
            m = w.found[v]
            w.found[v] = 0
            if m & q.low:
                if q.state == SIX_UNREADY:
                    _six_list_open(q, s, o, g.cls)
                if q.state == SIX_ON:
                    rest = m & (q.low if at == EMPIRE_T_E else ~q.keeps[v])
                    if (rest and (at != EMPIRE_T_E or q.emblem_free)
                            and not (q.onwalk[v] | q.inwalk[s0])):
                        rest &= ~q.walked       # (the move leaves every walk alone)
                    if rest:
                        m = (m & ~rest) | _six_rest(q, s, o, g.cls, s0, v, at, rest)
            row = (s0 * D + v) * EMPIRE_COSTS - 1
            while m:
                out[n] = row + pl_ctz(m)
                n += 1
                m &= m - 1
    return n


cdef int empire_list(const EmpireState* s, int32_t* out) noexcept nogil:
    """The legal action ids of ``s``, ascending, into ``out`` (room for ``bd.max_legal``);
    returns how many."""
    cdef Gen g
    cdef Own o
    cdef SixList q
    cdef int n = 0, i, nmoves
    if s.result != EMPIRE_RUNNING:
        return 0
    _gen_init(&g, s)
    _own(s, &o)
    _six_list_init(&q, s)
    for i in range(o.n):
        _army_search(&g, s, o.dots[i], EMPIRE_MAX_STEPS)
        n = _emit_six(&g, s, &o, &q, o.dots[i], out, n)
    if q.x.g != NULL:
        _six_close(&q.x)
    nmoves = n
    n = _frees(s, out, nmoves)
    # End with no army move legal, short of 6: not while frees and then moves could reach 6
    # (the turn could still be lengthened; the search answers yes out of memory, and the frees
    # are then legal actions)
    if s.total >= EMPIRE_END_MIN or (nmoves == 0 and (n == nmoves or not _six_deep(s, NULL))):
        out[n] = s.bd.end_id
        n += 1
    return n


# -- sampling one legal action (random playouts) --------------------------------------------------
#
# A random playout needs one uniformly random legal action, not the list. The list is cheap but
# for the Emblem, so the Emblem's moves are drawn from a superset instead: the (dot, cost) pairs
# that ``need`` allows after the breadth-first search, (u, d(u)) among them (always legal). A
# draw that lands on the Emblem is checked by a search for one path of exactly that cost to that
# dot; a pair with no such path leaves the superset and the draw is repeated. Every legal action
# stays exactly as likely as any other.


cdef bint _path_to(Walk* w, int c, int k, int u, int n, const int8_t* togo) noexcept nogil:
    """Whether the simple path that reached ``c`` at cost ``k`` goes on to ``u`` at cost
    exactly ``n`` (``togo``: distances to ``u`` over PASS dots, -1 beyond)."""
    cdef int dr, v, left = n - k - 1, step = 2 if w.bd.bipartite else 1
    cdef bint ok
    for dr in range(4):
        v = w.bd.nb[c][dr]
        if v < 0:
            continue
        if v == u:
            if left == 0:
                return True
            continue
        if left <= 0 or w.cls[v] != C_PASS or togo[v] < 0 or togo[v] > left:
            continue
        if step == 2 and (left - togo[v]) & 1:
            continue
        w.cls[v] = C_BLOCK
        ok = _path_to(w, v, k + 1, u, n, togo)
        w.cls[v] = C_PASS
        if ok:
            return True
    return False


cdef bint _emblem_pair_legal(Walk* w, int s0, int u, int n, int8_t* togo) noexcept nogil:
    """Whether the Emblem on ``s0`` has a path of exactly ``n`` steps to ``u``."""
    cdef int head = 0, tail = 1, c, dr, v, i
    cdef bint ok
    cdef int16_t* queue = w.queue
    togo[u] = 0
    queue[0] = <int16_t>u
    while head < tail:
        c = queue[head]
        head += 1
        if togo[c] >= n - 1:
            continue
        for dr in range(4):
            v = w.bd.nb[c][dr]
            if v >= 0 and togo[v] < 0 and w.cls[v] == C_PASS:
                togo[v] = togo[c] + 1
                queue[tail] = <int16_t>v
                tail += 1
    ok = _path_to(w, s0, 0, u, n, togo)
    for i in range(tail):
        togo[queue[i]] = -1
    return ok


cdef void _emblem_bounds(Gen* g, const EmpireState* s, int emblem, int budget) noexcept nogil:
    """The breadth-first bounds of the moves of the Emblem on ``emblem`` (``budget`` > 0) into
    ``g``: ``need`` (a superset of its (dot, cost) pairs legal by the path and budget rules) and
    the shortest pairs marked found, its own base opened if empty."""
    cdef int own = s.bd.base_dot[s.to_move]
    g.w.budget = budget
    if s.army[own] == 0:
        g.cls[own] = C_PASS
    _reach(&g.w, emblem)
    _limit_takes(&g.w, emblem)


cdef int empire_random_action(const EmpireState* s, Rng* r, int32_t* buf) noexcept nogil:
    """A uniformly random legal action of ``s`` (a running game); ``buf`` holds
    ``bd.max_legal`` ids. The same distribution as picking from ``empire_list``, faster: while
    the six-step rule binds, a drawn move it forbids leaves the set and the draw is repeated."""
    cdef Gen g
    cdef Witness wit
    cdef Own o
    cdef int8_t togo[EMPIRE_MAX_DOTS]
    cdef uint8_t cls[EMPIRE_MAX_DOTS]
    cdef int n = 0, d, t, nmoves, emblem = -1, budget, own, i, u, k, bits, total_bits = 0, lo
    cdef int nsmall, need = EMPIRE_END_MIN - s.total
    cdef bint binds = False
    cdef uint8_t b
    cdef uint16_t cut
    cdef uint32_t k32
    if s.total < EMPIRE_END_MIN:
        _classify(s, cls)
        _own(s, &o)
        binds = _six_holds(s, &o, cls, &wit)
        if binds and s.free_from >= 0 and _frees(s, buf, 0) > 0:
            # End's legality then needs every move checked: draw from the list
            n = empire_list(s, buf)
            return buf[rng_below(r, <uint32_t>n)]
    _gen_init(&g, s)
    own = s.bd.base_dot[s.to_move]
    lo = army_code(s.to_move, 0)
    for d in range(s.bd.ndots):
        b = s.army[d]
        if <unsigned int>(b - lo) >= EMPIRE_TYPES:
            continue                    # not an unmoved army of the Empire to act
        if army_type(b) == EMPIRE_T_E:
            emblem = d
            continue
        n = _army_moves(&g, s, d, EMPIRE_MAX_STEPS, buf, n)
    nsmall = n
    budget = _army_budget(s, EMPIRE_T_E) if emblem >= 0 else 0
    if budget > 0:
        _emblem_bounds(&g, s, emblem, budget)
        # an Emblem move after small armies locks them: while the rule binds it must reach 6
        # or win (a winning dot is an enemy base: only its cost-bits stay whole)
        cut = _costs_from(need) if binds and s.small > 0 else ALL_COSTS
        for i in range(1, g.w.nreached):
            u = g.w.reached[i]
            if cut != ALL_COSTS and not _wins(s, u):
                g.w.need[u] &= cut
            total_bits += pl_popcount(<uint64_t>g.w.need[u])
    nmoves = n + total_bits
    n = _frees(s, buf, n)
    if s.total >= EMPIRE_END_MIN or (nmoves == 0 and not binds):
        buf[n] = s.bd.end_id
        n += 1
    memset(togo, -1, s.bd.ndots)
    while True:
        k = <int>rng_below(r, <uint32_t>(n + total_bits))
        if k < n:
            if binds and k < nsmall and not _six_check(s, &o, cls, &wit, buf[k]):
                buf[k] = buf[nsmall - 1]        # out of the set, and draw again
                buf[nsmall - 1] = buf[n - 1]
                nsmall -= 1
                n -= 1
                continue
            k = buf[k]
            break
        k -= n
        for i in range(1, g.w.nreached):
            u = g.w.reached[i]
            bits = pl_popcount(<uint64_t>g.w.need[u])
            if k < bits:
                break
            k -= bits
        cut = g.w.need[u]
        for t in range(k):
            cut &= cut - 1
        t = pl_ctz(cut)             # the cost drawn
        k = (emblem * s.bd.ndots + u) * EMPIRE_COSTS + t - 1
        if (((g.w.found[u] >> t) & 1 or _emblem_pair_legal(&g.w, emblem, u, t, togo))
                and (not binds or _six_check(s, &o, cls, &wit, k))):
            break
        g.w.need[u] &= ~(1 << t)    # not legal: out of the superset, draw again
        total_bits -= 1
    if budget > 0:
        _reach_clear(&g.w)
        _clear_marks(&g.w)
        g.cls[own] = C_BLOCK
    return k


cdef int empire_is_legal(const EmpireState* s, int a, int32_t* buf) noexcept nogil:
    """1 if ``a`` (an id in range) is legal in ``s``, 0 if not (the answer of looking it up in
    ``empire_list``), found from the one army or free it names (``buf``: room for
    ``bd.max_legal`` ids); -1 for End before a total of 6, which only the whole list can tell
    (legal when no army move is, and no frees and then moves could reach 6). An Emblem's move
    is checked as ``empire_random_action`` checks a draw: inside the breadth-first superset,
    then a shortest pair or a search for one path of exactly that cost. A move the path rules
    allow then meets the six-step rule."""
    cdef const EmpireBoard* bd = s.bd
    cdef int D = bd.ndots, d, u, t, cost, budget, ok
    cdef uint8_t b
    cdef Gen g
    cdef Witness wit
    cdef Own o
    cdef int8_t togo[EMPIRE_MAX_DOTS]
    cdef uint8_t cls[EMPIRE_MAX_DOTS]
    if s.result != EMPIRE_RUNNING:
        return 0
    if a == bd.end_id:
        return 1 if s.total >= EMPIRE_END_MIN else -1
    if a >= bd.base_free:
        return ids_contain32(buf, _frees(s, buf, 0), a)
    d = a // (D * EMPIRE_COSTS)
    u = (a // EMPIRE_COSTS) % D
    cost = a % EMPIRE_COSTS + 1
    b = s.army[d]
    if b == 0 or (b & EMPIRE_MOVED) or army_empire(b) != s.to_move:
        return 0
    t = army_type(b)
    budget = _army_budget(s, t)
    if cost > budget:
        return 0
    _gen_init(&g, s)
    if t != EMPIRE_T_E:
        ok = ids_contain32(buf, _army_moves(&g, s, d, EMPIRE_MAX_STEPS, buf, 0), a)
    else:
        _emblem_bounds(&g, s, d, budget)
        if not (g.w.need[u] >> cost) & 1:
            ok = 0
        elif (g.w.found[u] >> cost) & 1:
            ok = 1
        else:
            memset(togo, -1, D)
            ok = 1 if _emblem_pair_legal(&g.w, d, u, cost, togo) else 0
    if not ok or s.total + cost >= EMPIRE_END_MIN:
        return ok
    _classify(s, cls)
    _own(s, &o)
    if not _six_holds(s, &o, cls, &wit):
        return 1
    return 1 if _six_check(s, &o, cls, &wit, a) else 0


# ---------------------------------------------------------------------------------------------
# Make
# ---------------------------------------------------------------------------------------------

cdef void _conquer(EmpireState* s, int y) noexcept nogil:
    """Empire ``y``'s base has been entered by an enemy: all its armies leave, it is conquered,
    its player may be out, and either the game ends or the free window opens."""
    cdef int d, e, q = s.owner[y], standing = 0
    cdef uint8_t b
    for d in range(s.bd.ndots):
        b = s.army[d] & EMPIRE_CODE_MASK
        if b and army_empire(b) == y:
            s.zob ^= _akey(d, b)
            s.army[d] = 0
    s.conq[s.nconq] = y
    s.nconq += 1
    s.alive &= ~(1 << y)
    for e in range(4):
        if (s.alive >> e) & 1 and s.owner[e] == q:
            standing = 1
    if not standing:
        s.out[s.nout] = q
        s.nout += 1
    if s.nplayers - s.nout <= 1:
        s.result = EMPIRE_WON
    else:
        s.free_from = y


cdef void _move(EmpireState* s, int f, int t, int n) noexcept nogil:
    cdef int x = s.to_move, be = s.bd.base_emp[t]
    cdef uint8_t code = s.army[f] & EMPIRE_CODE_MASK, taken = s.army[t] & EMPIRE_CODE_MASK
    cdef bint conquest = be >= 0 and be != x and (s.alive >> be) & 1
    if taken:
        s.cap[x][army_empire(taken)][army_type(taken)] += 1
        s.zob ^= _akey(t, taken)
    s.zob ^= _akey(f, code) ^ _akey(t, code)
    s.army[f] = 0
    s.army[t] = code | EMPIRE_MOVED
    s.moved[s.nmoved] = <int16_t>t
    s.nmoved += 1
    s.total += n
    if army_type(code) == EMPIRE_T_E:
        if s.small > 0:
            s.locked = 1
        s.emblem_moved = 1
    else:
        s.small += n
    s.free_from = -1              # the window closes at the next move
    if conquest:
        _conquer(s, be)


cdef void _free(EmpireState* s, int t, int d) noexcept nogil:
    cdef uint8_t code = army_code(s.to_move, t)
    s.cap[s.free_from][s.to_move][t] -= 1
    s.army[d] = code
    s.zob ^= _akey(d, code)


cdef void _end(EmpireState* s) noexcept nogil:
    cdef int i, e
    if s.total == 0:
        s.empty_turns += 1
    else:
        s.empty_turns = 0
    for i in range(s.nmoved):
        s.army[s.moved[i]] &= ~EMPIRE_MOVED
    s.nmoved = 0
    s.total = 0
    s.small = 0
    s.emblem_moved = 0
    s.locked = 0
    s.free_from = -1
    for i in range(1, 5):
        e = (s.to_move + i) & 3
        if (s.alive >> e) & 1:
            s.to_move = e
            break
    if s.empty_turns >= pl_popcount(<uint64_t><uint8_t>s.alive):
        s.result = EMPIRE_DRAW    # [ruling] a full round of empty turns
    s.turns += 1
    if s.turn_limit > 0 and s.turns >= s.turn_limit:
        s.result = EMPIRE_DRAW    # the turn-limit option: the players still in play tie


cdef void empire_make(EmpireState* s, int a) noexcept nogil:
    """Apply the legal action ``a``."""
    cdef const EmpireBoard* bd = s.bd
    cdef int D = bd.ndots, m, r
    s.ply += 1
    if a < bd.base_free:
        m = a // EMPIRE_COSTS
        _move(s, m // D, m % D, a % EMPIRE_COSTS + 1)
    elif a < bd.end_id:
        r = a - bd.base_free
        _free(s, r // D, r % D)
    else:
        _end(s)


# ---------------------------------------------------------------------------------------------
# Queries: hash, returns, observation, the heuristic's values
# ---------------------------------------------------------------------------------------------

cdef uint64_t empire_hash(const EmpireState* s) noexcept nogil:
    """64-bit key of the position: the armies, the turn's record, the capture record, the
    conquests and players out (in order) and the empty-turn counter; not the ply."""
    cdef uint64_t h = s.zob, order = 0
    cdef int i, c, v, t
    h ^= splitmix64(K_TURN + <uint64_t>(s.to_move | (s.total << 2) | (s.small << 6)
                                        | (s.emblem_moved << 9) | (s.locked << 10)
                                        | ((s.free_from + 1) << 11) | (s.empty_turns << 14)
                                        | (s.result << 18)))
    for i in range(s.nmoved):
        h ^= splitmix64(K_MOVED + <uint64_t>s.moved[i])
    for c in range(4):
        for v in range(4):
            for t in range(4):
                if s.cap[c][v][t]:
                    h ^= splitmix64(K_CAP + <uint64_t>((((c * 4 + v) * 4 + t) << 8)
                                                       | s.cap[c][v][t]))
    for i in range(s.nconq):
        order = order * 5 + s.conq[i] + 1
    for i in range(s.nout):
        order = order * 5 + s.out[i] + 1
    if s.turn_limit > 0:        # the turns left matter only under a limit
        h ^= splitmix64(K_LIMIT + ((<uint64_t>s.turn_limit) << 32) + <uint64_t>s.turns)
    return h ^ splitmix64(K_ORDER + (order << 8) + <uint64_t>(s.nconq * 5 + s.nout))


cdef void empire_returns(const EmpireState* s, float* out) noexcept nogil:
    """Points by place of the ranking now (final once the game is over): the players not out
    share the first places (their points split), then the players out, the last to go out
    first."""
    cdef int p, i, n = s.nplayers
    cdef float shared = 0
    if s.nout < n:
        shared = shared_points(C_POINTS[n], 0, n - s.nout)
    for p in range(n):
        out[p] = shared
    for i in range(s.nout):
        out[s.out[i]] = C_POINTS[n][n - 1 - i]


cdef int _slot_of(const EmpireState* s, int viewer, int e) noexcept nogil:
    """Empire ``e``'s slot in ``viewer``'s planes: slot 0 is the viewer's first Empire in turn
    order, then clockwise."""
    cdef int first = 0, k
    for k in range(4):
        if s.owner[k] == viewer:
            first = k
            break
    return (e - first) & 3


cdef void empire_observe(const EmpireState* s, int viewer, float* out) noexcept nogil:
    """Observation planes for ``viewer`` (layout: docs/empire-plateau.md), all written."""
    cdef const EmpireBoard* bd = s.bd
    cdef int plane = bd.rows * bd.cols, d, e, k, i
    cdef int alive = pl_popcount(<uint64_t><uint8_t>s.alive)
    cdef int slot[4]
    cdef uint8_t b
    cdef float value
    for e in range(4):
        slot[e] = _slot_of(s, viewer, e)
    memset(out, 0, EMPIRE_OBS_PLANES * plane * sizeof(float))
    for d in range(bd.ndots):
        b = s.army[d]
        if b:
            out[(4 * slot[army_empire(b)] + army_type(b)) * plane + bd.cell[d]] = 1
        e = bd.base_emp[d]
        if e >= 0 and (s.alive >> e) & 1:
            out[(16 + slot[e]) * plane + bd.cell[d]] = 1
        out[35 * plane + bd.cell[d]] = 1
    for i in range(s.nmoved):
        out[20 * plane + bd.cell[s.moved[i]]] = 1
    for k in range(21, 35):
        value = 0
        if k == 21:
            value = s.total / 12.0
        elif k == 22:
            value = s.small / 6.0
        elif k == 23:
            value = s.emblem_moved
        elif k == 24:
            value = s.locked
        elif k == 25:
            value = s.free_from >= 0
        elif k < 30:
            value = s.result == EMPIRE_RUNNING and slot[s.to_move] == k - 26
        elif k < 34:
            for e in range(4):
                if slot[e] == k - 30:
                    value = s.owner[e] == viewer
        else:
            value = s.empty_turns / (<float>alive if alive else 1.0)
        if value != 0:
            for i in range(plane):
                out[k * plane + i] = value


cdef void empire_values(const EmpireState* s, double* v) noexcept nogil:
    """The heuristic's value of each player (docs/empire-plateau.md): for each Empire still
    standing 60 plus its material (Emblem 15, 6, 4, 2), plus half a point per step by which
    the player's nearest army is closer than 12 steps to each enemy base still standing
    (board distance, armies ignored)."""
    cdef const EmpireBoard* bd = s.bd
    cdef int D = bd.ndots, p, d, e, head, tail, c, k, j
    cdef uint8_t b
    cdef int8_t dist[EMPIRE_MAX_DOTS]
    cdef int16_t queue[EMPIRE_MAX_DOTS]
    for p in range(s.nplayers):
        v[p] = 0
        for e in range(4):
            if (s.alive >> e) & 1 and s.owner[e] == p:
                v[p] += 60
        memset(dist, -1, D)
        tail = 0
        for d in range(D):
            b = s.army[d]
            if b and s.owner[army_empire(b)] == p:
                v[p] += C_WORTH[army_type(b)]
                dist[d] = 0
                queue[tail] = d
                tail += 1
        head = 0
        while head < tail:
            c = queue[head]
            head += 1
            if dist[c] >= 11:
                continue
            for k in range(4):
                j = bd.nb[c][k]
                if j >= 0 and dist[j] < 0:
                    dist[j] = dist[c] + 1
                    queue[tail] = j
                    tail += 1
        for e in range(4):
            if (s.alive >> e) & 1 and s.owner[e] != p and dist[bd.base_dot[e]] >= 0:
                v[p] += 0.5 * (12 - dist[bd.base_dot[e]])


# ---------------------------------------------------------------------------------------------
# Search: perft and random games
# ---------------------------------------------------------------------------------------------

cdef inline Py_ssize_t _perft_ply_bytes(const EmpireBoard* bd) noexcept nogil:
    """Scratch per perft ply: a spare state (the root's copy, in ply 0), the child state, the
    legal ids (rounded up to 8 bytes, so that the next ply's states stay 8-byte aligned)."""
    return 2 * bd.state_bytes + _round8(bd.max_legal * sizeof(int32_t))


cdef uint64_t empire_perft(const EmpireState* s, int depth, bint bulk, char* scratch,
                           Work* w) noexcept nogil:
    """Leaves ``depth`` plies below ``s``; ``scratch`` holds ``depth`` plies of
    ``_perft_ply_bytes``."""
    cdef const EmpireBoard* bd = s.bd
    cdef EmpireState* child = <EmpireState*>(scratch + bd.state_bytes)
    cdef int32_t* ids = <int32_t*>(scratch + 2 * bd.state_bytes)
    cdef int n, i
    cdef uint64_t total = 0
    if depth == 0:
        return 1
    if s.result != EMPIRE_RUNNING:
        return 0
    n = empire_list(s, ids)
    if depth == 1 and bulk:
        return n
    if depth >= 2 and work_tick(w, NODE_TICKS):
        return 0
    for i in range(n):
        memcpy(child, s, bd.state_bytes)
        empire_make(child, ids[i])
        total += empire_perft(child, depth - 1, bulk, scratch + _perft_ply_bytes(bd), w)
    return total


cdef int empire_random_game(EmpireState* s, Rng* r, int ply_cap, int32_t* buf,
                            Work* w) noexcept nogil:
    """Play uniformly random legal actions until the game ends, ``ply_cap`` plies are played or
    Ctrl-C; ``buf`` holds ``bd.max_legal`` ids. Returns the plies played."""
    cdef int plies = 0
    while s.result == EMPIRE_RUNNING and plies < ply_cap and s.ply < EMPIRE_PLY_CEILING:
        if work_tick(w, PLY_TICKS):
            break
        empire_make(s, empire_random_action(s, r, buf))
        plies += 1
    return plies
