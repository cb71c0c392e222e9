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
    splitmix64, pl_popcount, pl_ctz, nth_set_bit, check_int, check_seed, Work, work_tick,
    raise_pending, NODE_TICKS, PLY_TICKS, shared_points,
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
    for f in range(sp.nn):
        for t in range(sp.nn - 1):
            sp.move_from[f * (sp.nn - 1) + t] = f
            sp.move_to[f * (sp.nn - 1) + t] = t if t < f else t + 1
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
        sp.border_mask_e[a] = 0
        sp.border_mask_n[a] = 0
        sp.border_out[a] = 0
        for direction in (0, 1):  # the horizontal pairs first
            for k in range(m):
                c = cells[k]
                # (pair anchor, direction, neighbour) for the four sides of c
                for anchor2, d2, nb, ok in (
                    (c - 1, 0, c - 1, c % n > 0),
                    (c, 0, c + 1, c % n < n - 1),
                    (c - n, 1, c - n, c >= n),
                    (c, 1, c + n, c < sp.nn - n),
                ):
                    if d2 == direction and ok and not (sp.build_cover[a] >> nb) & 1:
                        sp.border[a][sp.border_n[a]][0] = anchor2
                        sp.border[a][sp.border_n[a]][1] = nb
                        sp.border_n[a] += 1
                        sp.border_out[a] |= (<uint64_t>1) << nb
                        if direction:
                            sp.border_mask_n[a] |= (<uint64_t>1) << anchor2
                        else:
                            sp.border_mask_e[a] |= (<uint64_t>1) << anchor2
            if direction == 0:
                sp.border_e[a] = sp.border_n[a]


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


include "kernel.pxi"


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
    cdef int k
    cdef int a = check_int(action, 0, sp.num_actions, "action id")
    if a < sp.base_enter:
        k = x_cells(sp, a, cells)
        return ("S", "D", "T")[k - 1], tuple(cells[i] for i in range(k))
    if a < sp.base_move:
        return "P", (a - sp.base_enter,)
    if a < sp.base_end:
        return "M", (sp.move_from[a - sp.base_move], sp.move_to[a - sp.base_move])
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
        x_list_into(&self.s, &self._m, out)

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
        memcpy(&o.s, &self.s, sizeof(XState))  # (a struct assignment copies through a temporary)
        o._set_spec()
        memcpy(&o._m, &self._m, sizeof(XMasks))
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

    cdef void _points(self, float* out) noexcept:
        x_returns(&self.s, out)

    cdef void _observe(self, int viewer, float* out) noexcept:
        x_observe(&self.s, viewer, out)

    # -- Plateau X queries --------------------------------------------------------------------

    @property
    def board_size(self) -> int:
        return self.s.spec.n

    @property
    def pieces_per_player(self) -> int:
        return self.s.spec.ppp

    cdef long _ply(self) noexcept:
        return self.s.ply

    @property
    def first_player(self) -> int:
        return self._first

    @property
    def supply(self) -> int:
        """Triples left in the common supply."""
        return self.s.supply

    cdef uint64_t _hash(self) noexcept:
        # Zobrist key of the position (not of the way it was reached)
        return x_hash(&self.s)

    cdef tuple _obs_shape(self):
        # (players + 8, n, n)
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
