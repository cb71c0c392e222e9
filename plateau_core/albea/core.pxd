# Albea's Plateau (1986) kernel: declarations shared by albea.pyx and any kernel that cimports it.
# Layout and rules: docs/albea-plateau-design.md; oracle: tests/reference/albea.py.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int8_t, int32_t, uint64_t

from plateau_core._common cimport Work


cdef enum:
    ALBEA_SQ = 16
    ALBEA_CAP = 24              # stack capacity: all 24 pieces on one square
    ALBEA_OT = 11               # oriented piece types
    ALBEA_MAX_LEGAL = 8192      # > the legal actions of any position (at most 7,803): a list
                                # may write one id past the last it keeps
    ALBEA_NUM_ACTIONS = 41188
    ALBEA_BASE_OPEN = 0
    ALBEA_BASE_ONBOARD = 1452
    ALBEA_BASE_MOVE = 5676
    ALBEA_BASE_STOMP = 39716
    ALBEA_BASE_OFFER = 39748
    ALBEA_BASE_GIVE = 40467
    ALBEA_REFUSE = 41186
    ALBEA_PASS = 41187
    ALBEA_PHASE_OPENING = 0
    ALBEA_PHASE_PLAY = 1
    ALBEA_PHASE_RESPOND = 2
    ALBEA_PHASE_OVER = 3
    ALBEA_MAX_PLY = 1 << 30     # set-up plies and the max_plies option stay below this
    ALBEA_PLY_CEILING = 0x7FFFFF00  # a random game stops here whatever its cap: ply is an int32


# Piece byte (design section 2): bit 0 owner, bits 1-3 type index (TYPES order), bit 4 which
# face is up (0: the type's first letter), bits 5 and 6 whether face 0 / face 1 has been shown.
# Everything outside this file reads and writes piece bytes through these names.
cdef enum:
    PIECE_OWNER = 0x01
    PIECE_TYPE_SHIFT = 1
    PIECE_TYPE_MASK = 0x07
    PIECE_UP_SHIFT = 4
    PIECE_UP = 0x10
    PIECE_SHOWN_SHIFT = 5       # face f's shown flag is bit PIECE_SHOWN_SHIFT + f
    PIECE_SHOWN_BOTH = 0x60
    PIECE_FACES = 0x1f          # owner, type and up: the piece as it stands (no shown flags)


cdef inline int piece_owner(uint8_t b) noexcept nogil:
    return b & PIECE_OWNER


cdef inline int piece_type(uint8_t b) noexcept nogil:
    return (b >> PIECE_TYPE_SHIFT) & PIECE_TYPE_MASK


cdef inline int piece_up(uint8_t b) noexcept nogil:
    return (b >> PIECE_UP_SHIFT) & 1


cdef inline bint piece_shown(uint8_t b, int face) noexcept nogil:
    """Whether face ``face`` (0 or 1, not up/down) of the piece has been shown."""
    return (b >> (PIECE_SHOWN_SHIFT + face)) & 1


cdef inline uint8_t make_piece(int owner, int t, int up) noexcept nogil:
    """A piece byte with no face shown yet."""
    return <uint8_t>(owner | (t << PIECE_TYPE_SHIFT) | (up << PIECE_UP_SHIFT))


cdef inline void show_up(uint8_t* b) noexcept nogil:
    """Mark the face now up as shown."""
    b[0] |= <uint8_t>(1 << (PIECE_SHOWN_SHIFT + piece_up(b[0])))


ctypedef struct AlbeaState:
    # One flat position (584 bytes), copied by value for undo and perft children.
    uint32_t own[16]        # bit i: piece i (0 = bottom) of the stack is White's (cache)
    uint32_t col[16]        # bit i: piece i shows a colored face up (cache)
    uint8_t pc[16][24]      # piece bytes bottom..top (PIECE_* above)
    uint8_t ht[16]          # stack heights
    uint8_t res[2][8]       # reserve counts per type (index 7: total)
    uint8_t pri[2][8]       # prisoners held by p (opponent's types), index 7: total
    uint8_t tender[8]       # in respond: tendered counts per type, index 7: v(T)
    uint8_t floor[2]        # refused value per player
    int8_t phase            # 0 opening, 1 play, 2 respond, 3 over
    int8_t player           # who acts
    int8_t offerer
    int8_t result           # -1 none, 0/1 winner, 2 draw
    uint8_t passes
    uint8_t tops_shown      # 1: every top piece is shown (a cache of make's: then a make
                            # shows only the tops it changes); 0: not known (set-ups, determinizations)
    int32_t ply
    int32_t max_plies       # 0 = off


cdef void albea_init(AlbeaState* s, int max_plies) noexcept nogil
cdef int albea_list(const AlbeaState* s, uint16_t* out) noexcept nogil
cdef int albea_is_legal(const AlbeaState* s, int a, uint16_t* buf) noexcept nogil
cdef void albea_make(AlbeaState* s, int a) noexcept nogil
cdef uint64_t albea_perft(const AlbeaState* s, int depth, bint bulk, uint16_t* bufs,
                          Work* w) noexcept nogil
cdef uint64_t albea_hash(const AlbeaState* s) noexcept nogil
cdef void albea_points(const AlbeaState* s, float* out) noexcept nogil
cdef void albea_observe(const AlbeaState* s, int viewer, float* out) noexcept nogil
