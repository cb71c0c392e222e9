/* Bit tricks shared by every game kernel: popcount and lowest-set-bit index on 64-bit boards,
 * highest-set-bit index of a 32-bit word (pl_ctz and pl_msb32: x must not be 0). */
#ifndef PLATEAU_BITS_H
#define PLATEAU_BITS_H
#include <stdint.h>

#if defined(_MSC_VER)
#include <intrin.h>
static inline int pl_popcount(uint64_t x) { return (int)__popcnt64(x); }
static inline int pl_ctz(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static inline int pl_msb32(uint32_t x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
#else
static inline int pl_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int pl_ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int pl_msb32(uint32_t x) { return 31 - __builtin_clz(x); }
#endif

#endif
