/* Byte scans sixteen bytes at a time (SSE2, part of every x86-64 CPU) for the kernels that class
 * a board of one byte per dot (Empire Plateau). Each function does the first n & ~15 bytes and
 * returns how many it did; the caller does the rest its own way (eight bytes at a time, then one
 * by one). Without SSE2 (or with PLATEAU_NO_SIMD defined) each does nothing and returns 0, so
 * the caller's own loop does everything. Loads and stores stay within the n bytes given. */
#ifndef PLATEAU_BYTES16_H
#define PLATEAU_BYTES16_H
#include <stdint.h>

#if !defined(PLATEAU_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64))
#include <emmintrin.h>
#include "bits.h"
#define PL_BYTES16 1

/* cls[i] for i < n & ~15: 1 where army[i] is 0, 0 where the low seven bits of army[i] lie in
 * lo[k] .. lo[k] + 3 for some k < nlo (every lo[k] in 1 .. 123), else 2. */
static inline int pl_class_bytes(const uint8_t* army, uint8_t* cls, int n, const uint8_t* lo,
                                 int nlo)
{
    __m128i low7 = _mm_set1_epi8(0x7F), one = _mm_set1_epi8(1), two = _mm_set1_epi8(2);
    __m128i above[4], below[4];
    int k, i, m = n & ~15;
    for (k = 0; k < nlo && k < 4; k++) {
        above[k] = _mm_set1_epi8((char)(lo[k] - 1));   /* y > lo - 1 */
        below[k] = _mm_set1_epi8((char)(lo[k] + 4));   /* y < lo + 4 */
    }
    for (i = 0; i < m; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i*)(army + i));
        __m128i y = _mm_and_si128(x, low7);            /* 0 .. 127: signed compares are exact */
        __m128i zero = _mm_cmpeq_epi8(x, _mm_setzero_si128());
        __m128i own = _mm_setzero_si128();
        for (k = 0; k < nlo && k < 4; k++)
            own = _mm_or_si128(own, _mm_and_si128(_mm_cmpgt_epi8(y, above[k]),
                                                  _mm_cmpgt_epi8(below[k], y)));
        _mm_storeu_si128((__m128i*)(cls + i),
                         _mm_or_si128(_mm_and_si128(zero, one),
                                      _mm_andnot_si128(_mm_or_si128(zero, own), two)));
    }
    return m;
}

/* Append to dots[] (up to cap in all, *count of them already there) every i < n & ~15 with
 * lo <= army[i] <= lo + 3 (lo in 1 .. 123: a byte with the high bit set is never one). */
static inline int pl_find_bytes(const uint8_t* army, int n, int lo, int16_t* dots, int cap,
                                int* count)
{
    __m128i above = _mm_set1_epi8((char)(lo - 1)), below = _mm_set1_epi8((char)(lo + 4));
    int i, c = *count, m = n & ~15;
    unsigned int hit;
    for (i = 0; i < m; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i*)(army + i));
        hit = (unsigned int)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpgt_epi8(x, above), _mm_cmpgt_epi8(below, x)));
        while (hit && c < cap) {
            dots[c++] = (int16_t)(i + pl_ctz(hit));
            hit &= hit - 1;
        }
    }
    *count = c;
    return m;
}

/* Bit i of eq_a / eq_b (64-bit words, cleared by the caller) for i < n & ~15: bytes[i] == a,
 * bytes[i] == b. */
static inline int pl_byte_bits(const uint8_t* bytes, int n, uint8_t a, uint8_t b, uint64_t* eq_a,
                               uint64_t* eq_b)
{
    __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
    int i, m = n & ~15;
    for (i = 0; i < m; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i*)(bytes + i));
        eq_a[i >> 6] |= (uint64_t)(unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(x, va))
                        << (i & 63);
        eq_b[i >> 6] |= (uint64_t)(unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(x, vb))
                        << (i & 63);
    }
    return m;
}

#else
#define PL_BYTES16 0

static inline int pl_class_bytes(const uint8_t* army, uint8_t* cls, int n, const uint8_t* lo,
                                 int nlo)
{
    (void)army; (void)cls; (void)n; (void)lo; (void)nlo;
    return 0;
}

static inline int pl_find_bytes(const uint8_t* army, int n, int lo, int16_t* dots, int cap,
                                int* count)
{
    (void)army; (void)n; (void)lo; (void)dots; (void)cap; (void)count;
    return 0;
}

static inline int pl_byte_bits(const uint8_t* bytes, int n, uint8_t a, uint8_t b, uint64_t* eq_a,
                               uint64_t* eq_b)
{
    (void)bytes; (void)n; (void)a; (void)b; (void)eq_a; (void)eq_b;
    return 0;
}
#endif

#endif
