/* Bit tricks shared by every game kernel: popcount and lowest-set-bit index on 64-bit boards. */
#ifndef PLATEAU_BITS_H
#define PLATEAU_BITS_H
#include <stdint.h>

#if defined(_MSC_VER)
#include <intrin.h>
static inline int pl_popcount(uint64_t x) { return (int)__popcnt64(x); }
static inline int pl_ctz(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
#else
static inline int pl_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int pl_ctz(uint64_t x) { return __builtin_ctzll(x); }
#endif

#endif
