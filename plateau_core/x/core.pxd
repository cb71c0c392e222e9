# Plateau X kernel: declarations shared by x.pyx and any kernel that cimports it (bots, batches).
from libc.stdint cimport uint8_t, uint16_t, int8_t, int16_t, int32_t, uint64_t

from plateau_core._common cimport Rng, Work


cdef enum:
    X_MAX_SQ = 64          # boards up to 8x8 fit one uint64_t; Plateau X uses 7x7 and 6x6
    X_MAX_PLAYERS = 4
    X_MAX_PIECES = 4       # players * pieces per player, in every variant
    X_MAX_ACTIONS = 2720   # >= num_distinct_actions of every variant (7x7: 2679)
    X_MAX_BUILDS = 280     # >= number of build actions of every variant (7x7: 277)
    X_MAX_MOVES = 2352     # >= number of move actions of every variant (7x7: 49 * 48)
    X_SHAPES = 7           # tile shapes: S, D horizontal, D vertical, T orientations 0-3
    X_MAX_TILES = 56       # >= tiles in a game: 37 triples + 4 players x (3 singles + 1 double)
    X_NO_TILE = 0xFF
    X_HOT_BYTES = 232      # offset of XState.top: the hot prefix (checked at import)


ctypedef struct XSpec:
    # One variant's constants, plus the action-id layout and anchor lookup tables.
    int index
    int n                  # board side
    int nn                 # number of spaces
    int players
    int ppp                # pieces per player
    int npieces
    int singles
    int doubles
    int triples
    float points[4]        # points by place
    uint64_t board         # every space
    uint64_t not_last_col  # spaces with a right-hand neighbour
    uint64_t not_last_row  # spaces with an upper neighbour
    uint64_t has_west      # spaces with a left-hand neighbour
    uint64_t block         # lower-left corners of 2x2 blocks
    int nb                 # number of 2x2 blocks, (n-1)**2
    # action-id layout: [S | DH | DV | T (4 orientations x nb) | enter | move | end]
    int base_s
    int base_dh
    int base_dv
    int base_t
    int base_enter
    int base_move
    int base_end
    int num_actions
    int16_t dh_index[64]   # anchor square -> dense index (-1 if no such tile)
    int16_t blk_index[64]
    int8_t dh_anchor[64]   # dense index -> anchor square
    int8_t blk_anchor[64]
    # per build action: the spaces it covers, its shape (index into XState.top) and anchor
    uint64_t build_cover[X_MAX_BUILDS]
    uint8_t build_shape[X_MAX_BUILDS]
    int8_t build_anchor[X_MAX_BUILDS]
    # per build action: the side-neighbour pairs that cross the tile's border, whose
    # relations the build changes: (pair anchor, outside space), the border_e[a] horizontal
    # pairs first, then the vertical ones (border_n[a] in all); and their anchors as masks
    uint8_t border_n[X_MAX_BUILDS]
    uint8_t border_e[X_MAX_BUILDS]
    uint8_t border[X_MAX_BUILDS][8][2]
    uint64_t border_mask_e[X_MAX_BUILDS]
    uint64_t border_mask_n[X_MAX_BUILDS]
    uint64_t border_out[X_MAX_BUILDS]   # the outside spaces of those pairs
    # per move action (id - base_move): its start and end space
    int8_t move_from[X_MAX_MOVES]
    int8_t move_to[X_MAX_MOVES]


ctypedef struct XState:
    # Everything that defines a position, in flat arrays; copied by value for undo and clone.
    # The fields up to ``ntiles`` are all that move generation and make read ("hot"); the tile
    # table and the top tiles come last, so that perft can copy only the hot prefix.
    const XSpec* spec
    uint64_t occ           # spaces holding a piece
    uint64_t ground        # spaces at level 0
    uint64_t eq_e          # bit a: a and a+1 (its right neighbour) have the same level
    uint64_t eq_n          # bit a: a and a+n (its upper neighbour) have the same level
    uint64_t step_e        # bit a: levels of a and a+1 differ by exactly one
    uint64_t step_n        # bit a: levels of a and a+n differ by exactly one
    uint64_t whole[7]      # anchors of the tiles lying whole on top, by shape (flush rule)
    uint64_t zob           # incremental Zobrist key (stamp order is folded in by x_hash)
    uint8_t level[64]
    int8_t pos[4]          # square of each piece, -1 while not in play
    int32_t stamp[4]       # ply at which each piece last entered or moved
    uint8_t singles[4]
    uint8_t doubles[4]
    int32_t supply
    int32_t player         # player to move
    int32_t ply
    int32_t ended          # 1 once End was applied
    int32_t ntiles         # tiles placed so far
    # -- cold: written by make, read only by the Python layer --
    uint8_t top[64]        # tile-table index of the tile on top of each space (X_NO_TILE: none)
    uint16_t tiles[X_MAX_TILES]      # the tile table: the build action that placed each tile
    uint8_t tile_level[X_MAX_TILES]  # and the level it lies at


ctypedef struct XSnap:
    # One undo record: the hot prefix of the position before an action, and the top tiles
    # of the spaces a build covered (the tile table itself only grows, so ntiles restores it).
    int32_t action         # the action applied (first: GameCore reads it)
    uint8_t hot[X_HOT_BYTES]
    uint8_t old_top[3]


ctypedef struct XMasks:
    # The legal actions of a position as bit masks (shared by counting, listing and checking).
    uint64_t s
    uint64_t dh
    uint64_t dv
    uint64_t t[4]
    uint64_t enter
    int nmove
    int8_t move_from[4]
    uint64_t move_to[4]
    int end


cdef const XSpec* x_spec(int variant) noexcept nogil
cdef void x_init(XState* s, const XSpec* sp, int first_player) noexcept nogil
cdef void x_masks(const XState* s, XMasks* m) noexcept nogil
cdef int x_count(const XMasks* m) noexcept nogil
cdef int x_list(const XState* s, const XMasks* m, uint16_t* out) noexcept nogil
cdef void x_fill_mask(const XState* s, const XMasks* m, uint8_t* out) noexcept nogil
cdef bint x_masks_has(const XState* s, const XMasks* m, int a) noexcept nogil
cdef void x_make(XState* s, int a) noexcept nogil
cdef uint64_t x_plateau(const XState* s, int sq) noexcept nogil
cdef uint64_t x_hash(const XState* s) noexcept nogil
cdef void x_player_keys(const XState* s, uint64_t* keys) noexcept nogil
cdef int x_mobility(const XState* s, int player) noexcept nogil
cdef int x_random_game(XState* s, Rng* rng, int ply_cap, bint sensible_end, Work* w) noexcept nogil
cdef void x_returns(const XState* s, float* out) noexcept nogil
cdef void x_observe(const XState* s, int viewer, float* out) noexcept nogil
cdef uint64_t x_perft(const XState* s, int depth, bint bulk, uint16_t* bufs,
                      Work* w) noexcept nogil
cdef int x_random_action(const XState* s, const XMasks* m, Rng* rng) noexcept nogil
