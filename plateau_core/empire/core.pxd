# Empire Plateau kernel: declarations shared by empire.pyx and the kernels that cimport it
# (empire_batch). Rules: docs/rules/empire-plateau.md; ids and planes: docs/empire-plateau.md.
from libc.stdint cimport uint8_t, uint16_t, int8_t, int16_t, int32_t, uint32_t, uint64_t

from plateau_core._common cimport Rng, Work


cdef enum:
    EMPIRE_MAX_DOTS = 1024      # the most dots a board may have (empire_board.EMPIRE_MAX_DOTS)
    EMPIRE_WORDS = 16           # uint64 words of a bitset over EMPIRE_MAX_DOTS dots
    LANE_WORDS = 4              # the word-parallel search's bitsets (boards of up to 256 dots)
    EMPIRE_EMPIRES = 4          # B, G, M, R (turn order, empire_board.EMPIRES)
    EMPIRE_TYPES = 4            # E, 6, 4, 2 (empire_board.ARMY_TYPES)
    EMPIRE_T_E = 0
    EMPIRE_T_6 = 1
    EMPIRE_T_4 = 2
    EMPIRE_T_2 = 3
    EMPIRE_MAX_STEPS = 12       # steps in a turn, and the Emblem's reach
    EMPIRE_SMALL_STEPS = 6      # steps of the small armies in a turn
    EMPIRE_END_MIN = 6          # End is legal from this total on (or when nothing can lengthen
                                # the turn: no army move, and no frees then moves reach 6)
    EMPIRE_COSTS = 12           # a move id holds its cost n in 1..12
    EMPIRE_MAX_START = 12       # starting dots of one Empire and type (twelve 2s)
    EMPIRE_RUNNING = 0          # EmpireState.result
    EMPIRE_WON = 1
    EMPIRE_DRAW = 2
    EMPIRE_OBS_PLANES = 36      # observation planes (docs/empire-plateau.md)
    EMPIRE_PLY_CEILING = 0x7FFFFF00  # a random game stops here whatever its cap: ply is int32


# -- an army on a dot is one byte: 0 for none, else 1 + 4 * empire + type, plus the moved flag --
cdef enum:
    EMPIRE_CODE_MASK = 0x1F
    EMPIRE_MOVED = 0x80         # the army has moved this turn (the turn's Empire only)


cdef inline uint8_t army_code(int empire, int atype) noexcept nogil:
    return <uint8_t>(1 + 4 * empire + atype)


cdef inline int army_empire(uint8_t b) noexcept nogil:
    """The Empire of army byte ``b`` (not 0)."""
    return ((b & EMPIRE_CODE_MASK) - 1) >> 2


cdef inline int army_type(uint8_t b) noexcept nogil:
    """The type (E, 6, 4, 2 = 0..3) of army byte ``b`` (not 0)."""
    return ((b & EMPIRE_CODE_MASK) - 1) & 3


ctypedef struct EmpireBoard:
    # One board's tables, built once per board and shared read-only by every state on it.
    int32_t ndots               # D
    int32_t bipartite           # all paths between two dots have one parity (move pruning)
    int32_t rows                # observation planes are rows x cols (polar: rings x spokes)
    int32_t cols
    int32_t state_bytes         # bytes of an EmpireState on this board (armies of D dots)
    int32_t max_legal           # an upper bound on the legal actions of any position
    # action ids: moves (from * D + to) * 12 + n - 1, frees base_free + type * D + dot, end
    int32_t base_free
    int32_t end_id
    int32_t num_actions
    int32_t words                       # uint64 words of a bitset over the dots
    uint64_t* nbm                       # nbm[v * words ...]: v's neighbours as a bitset
    int32_t lane                        # S if a dot's neighbours are the shifts of its bit on
                                        # lanes of S = 16, 32 or 64 bits (ring-major polar dot
                                        # ids, as on ep16), else 0: see empire.pyx _expand
    uint64_t lane0                      # the first bit of every lane in a word
    uint64_t* ball                      # ball[(v * 13 + r) * words ...]: the dots at most r
                                        # steps from v (the armies ignored), r = 0..12
    int16_t base_dot[4]                 # each Empire's base
    int16_t starts[4][4][12]            # starting dots by Empire and type, ascending
    int8_t nstarts[4][4]
    int16_t nb[EMPIRE_MAX_DOTS][4]      # neighbours out, in, cw, ccw (-1: none)
    int8_t base_emp[EMPIRE_MAX_DOTS]    # the Empire whose base the dot is, or -1
    int32_t cell[EMPIRE_MAX_DOTS]       # the dot's place in an observation plane


ctypedef struct EmpireState:
    # One position. Only the first ``bd.state_bytes`` bytes exist (the armies of the board's D
    # dots): copy it with empire_copy, never by value.
    const EmpireBoard* bd
    uint64_t zob                # Zobrist key of the armies (incremental; the rest is mixed in
                                # by empire_hash)
    int32_t ply
    int32_t turns               # Empire turns ended (End actions) since the start
    int32_t turn_limit          # the game ends once ``turns`` reaches it (0: no limit)
    int8_t owner[4]             # the player of each Empire, -1 if not in this variant
    int8_t nplayers
    int8_t to_move              # the Empire whose turn it is
    int8_t total                # steps this turn
    int8_t small                # steps by small armies this turn
    int8_t emblem_moved
    int8_t locked               # the Emblem moved after a small army: small armies stay
    int8_t free_from            # the Empire just conquered (free window open), else -1
    int8_t result               # EMPIRE_RUNNING, EMPIRE_WON or EMPIRE_DRAW
    int8_t alive                # bit e: Empire e is in play and not conquered
    int8_t nconq
    int8_t conq[4]              # conquered Empires, in order
    int8_t nout
    int8_t out[4]               # players out, in the order they went out
    int8_t empty_turns          # consecutive turns ended with total 0
    int8_t nmoved
    int16_t moved[12]           # dots of the armies moved this turn (they carry EMPIRE_MOVED)
    uint8_t cap[4][4][4]        # captures not freed: [captor][victim][type]
    uint8_t army[EMPIRE_MAX_DOTS]


cdef void empire_copy(EmpireState* dst, const EmpireState* src) noexcept nogil
cdef void empire_init(EmpireState* s, const EmpireBoard* bd, const int8_t* owner,
                      int nplayers) noexcept nogil
cdef int empire_list(const EmpireState* s, int32_t* out) noexcept nogil
cdef int empire_random_action(const EmpireState* s, Rng* r, int32_t* buf) noexcept nogil
cdef int empire_is_legal(const EmpireState* s, int a, int32_t* buf) noexcept nogil
cdef void empire_make(EmpireState* s, int a) noexcept nogil
cdef uint64_t empire_hash(const EmpireState* s) noexcept nogil
cdef void empire_returns(const EmpireState* s, float* out) noexcept nogil
cdef void empire_observe(const EmpireState* s, int viewer, float* out) noexcept nogil
cdef int empire_random_game(EmpireState* s, Rng* r, int ply_cap, int32_t* buf,
                            Work* w) noexcept nogil
cdef int empire_current_player(const EmpireState* s) noexcept nogil


cdef class EmpireTables:
    # Owner of one board's EmpireBoard (states point into it; holders keep this alive).
    cdef EmpireBoard* bd
    cdef readonly str name
    cdef public object info     # the Python layer's own data about the board (never read here)
    cdef object __weakref__
