/*===- tc-runtime/module_seal.h - the checksum trailer of a model.so -------===*
 *
 * tc-compile seals every model.so it writes: after linking, it appends a
 * 32-byte trailer that records the size of the file before the trailer and
 * a 64-bit checksum of those bytes. The dynamic loader ignores bytes past
 * the ELF's last section, so a sealed file loads like any shared library;
 * tc_module_load checks the seal before it maps anything, so a truncated
 * file, a zeroed tail or flipped bytes are refused with a status instead of
 * crashing the process inside dlopen.
 *
 *   offset size-32: "TCSEAL\1\0"          (8 bytes, TC_SEAL_MAGIC)
 *   offset size-24: sealed size, u64 LE   (== file size - 32)
 *   offset size-16: checksum, u64 LE      (tc_seal_checksum of the first
 *                                          "sealed size" bytes)
 *   offset size-8:  zero                  (reserved)
 *
 * The checksum detects damage, not tampering: it is not a signature, and a
 * model.so is code that only trusted parties may provide (runtime.h).
 *
 * The checksum runs four independent lanes over the data as little-endian
 * 64-bit words (lane i takes words i, i+4, i+8, ...); each step xors the word
 * in, multiplies by an odd constant and folds the high bits down, all
 * bijections, so changing any one word always changes the result. The last
 * partial block is zero-padded and the length mixed in at the end. It runs at
 * memory speed, so checking a model with 100 MB of weights costs tens of
 * milliseconds.
 *
 * Everything here is static inline C so that tc-compile (which writes the
 * seal), the runtime (which checks it) and any other tool share one
 * definition without a library.
 *===----------------------------------------------------------------------===*/

#ifndef TC_RUNTIME_MODULE_SEAL_H
#define TC_RUNTIME_MODULE_SEAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_SEAL_MAGIC "TCSEAL\1"
#define TC_SEAL_TRAILER_SIZE 32
/* Data is fed in multiples of this (except the last piece). */
#define TC_SEAL_BLOCK 32

typedef struct tc_seal_state {
  uint64_t lanes[4];
  uint64_t length;
} tc_seal_state;

static inline void tc_seal_init(tc_seal_state *state) {
  state->lanes[0] = 0x243f6a8885a308d3ull;
  state->lanes[1] = 0x13198a2e03707344ull;
  state->lanes[2] = 0xa4093822299f31d0ull;
  state->lanes[3] = 0x082efa98ec4e6c89ull;
  state->length = 0;
}

static inline uint64_t tc_seal_load64(const unsigned char *bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i)
    value = value << 8 | bytes[i];
  return value;
}

static inline uint64_t tc_seal_step(uint64_t lane, uint64_t word) {
  lane ^= word;
  lane *= 0x9e3779b97f4a7c15ull;
  return lane ^ (lane >> 29);
}

/* Feeds `size` bytes; every call but the last must pass a multiple of
 * TC_SEAL_BLOCK bytes. */
static inline void tc_seal_update(tc_seal_state *state, const void *data,
                                  size_t size) {
  const unsigned char *bytes = (const unsigned char *)data;
  size_t full = size / TC_SEAL_BLOCK * TC_SEAL_BLOCK;
  for (size_t at = 0; at < full; at += TC_SEAL_BLOCK)
    for (int lane = 0; lane < 4; ++lane)
      state->lanes[lane] = tc_seal_step(
          state->lanes[lane], tc_seal_load64(bytes + at + 8 * lane));
  if (full < size) {
    unsigned char last[TC_SEAL_BLOCK] = {0};
    memcpy(last, bytes + full, size - full);
    for (int lane = 0; lane < 4; ++lane)
      state->lanes[lane] =
          tc_seal_step(state->lanes[lane], tc_seal_load64(last + 8 * lane));
  }
  state->length += size;
}

static inline uint64_t tc_seal_finish(const tc_seal_state *state) {
  uint64_t result = tc_seal_step(state->length, 0x452821e638d01377ull);
  for (int lane = 0; lane < 4; ++lane)
    result = tc_seal_step(result, state->lanes[lane]);
  return tc_seal_step(result, result >> 32);
}

/* The checksum of one contiguous buffer. */
static inline uint64_t tc_seal_checksum(const void *data, size_t size) {
  tc_seal_state state;
  tc_seal_init(&state);
  tc_seal_update(&state, data, size);
  return tc_seal_finish(&state);
}

static inline void tc_seal_store64(unsigned char *bytes, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    bytes[i] = (unsigned char)(value >> (8 * i));
}

/* Writes the trailer for `sealed_size` bytes whose checksum is `checksum`. */
static inline void tc_seal_write_trailer(unsigned char *trailer,
                                         uint64_t sealed_size,
                                         uint64_t checksum) {
  memset(trailer, 0, TC_SEAL_TRAILER_SIZE);
  memcpy(trailer, TC_SEAL_MAGIC, 8);
  tc_seal_store64(trailer + 8, sealed_size);
  tc_seal_store64(trailer + 16, checksum);
}

/* Reads a trailer; returns 0 if it does not start with TC_SEAL_MAGIC. */
static inline int tc_seal_read_trailer(const unsigned char *trailer,
                                       uint64_t *sealed_size,
                                       uint64_t *checksum) {
  if (memcmp(trailer, TC_SEAL_MAGIC, 8) != 0)
    return 0;
  *sealed_size = tc_seal_load64(trailer + 8);
  *checksum = tc_seal_load64(trailer + 16);
  return 1;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TC_RUNTIME_MODULE_SEAL_H */
