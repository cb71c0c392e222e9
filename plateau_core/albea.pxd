# Albea's Plateau (1986) kernel: declarations shared by albea.pyx and any kernel that cimports it.
# Layout and rules: docs/albea-plateau-design.md; oracle: tests/reference/albea.py.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int8_t, int32_t, uint64_t

from plateau_core._common cimport Work


cdef enum:
    ALBEA_SQ = 16
    ALBEA_CAP = 24              # stack capacity: all 24 pieces on one square
    ALBEA_OT = 11               # oriented piece types
    ALBEA_MAX_LEGAL = 8192      # >= legal actions of any reachable non-terminal position
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


ctypedef struct AlbeaState:
    # One flat position (584 bytes), copied by value for undo and perft children.
    uint32_t own[16]        # bit i: piece i (0 = bottom) of the stack is White's (cache)
    uint32_t col[16]        # bit i: piece i shows a colored face up (cache)
    uint8_t pc[16][24]      # piece bytes bottom..top: bit0 owner, bits1-3 type, bit4 up,
                            # bit5 shown[0], bit6 shown[1]
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
    uint8_t pad
    int32_t ply
    int32_t max_plies       # 0 = off


cdef void albea_init(AlbeaState* s, int max_plies) noexcept nogil
cdef int albea_list(const AlbeaState* s, uint16_t* out) noexcept nogil
cdef void albea_make(AlbeaState* s, int a) noexcept nogil
cdef uint64_t albea_perft(const AlbeaState* s, int depth, bint bulk, uint16_t* bufs, Work* w) noexcept nogil
cdef uint64_t albea_hash(const AlbeaState* s) noexcept nogil
cdef void albea_observe(const AlbeaState* s, int viewer, float* out) noexcept nogil
