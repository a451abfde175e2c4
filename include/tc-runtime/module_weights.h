/*===- tc-runtime/module_weights.h - where a model.so keeps its weights ----===*
 *
 * A model's weights are most of its bytes, and the linker gains nothing
 * from seeing them: it would only copy them (lld holds its output in memory,
 * so ResNet-50's 100 MB cost twice that in the link alone). So tc-compile
 * links a zero-fill region in their place and appends the bytes themselves
 * to the linked library:
 *
 *   - the region is the NOBITS section ".tc_weights", exported as the object
 *     symbol tc_module_weights_v1 (its st_size is the region's size); its
 *     address and its size are multiples of TC_WEIGHTS_ALIGNMENT, so it
 *     shares no page with anything else; the code addresses each weight as
 *     a hidden symbol inside it;
 *   - the bytes follow the ELF file at a file offset that is a multiple of
 *     TC_WEIGHTS_ALIGNMENT, laid out exactly as in the region;
 *   - a 32-byte trailer, just before the seal (module_seal.h), says where:
 *
 *       offset size-64: "TCWGHT\1\0"        (8 bytes, TC_WEIGHTS_MAGIC)
 *       offset size-56: file offset, u64 LE (of the first byte)
 *       offset size-48: byte count, u64 LE  (<= the region's size)
 *       offset size-40: zero                (reserved)
 *       offset size-32: the seal, which covers everything before it
 *
 * After dlopen and before anything of the module runs, the runtime maps
 * those bytes read-only over the region (mmap with MAP_FIXED): nothing is
 * copied, and pages are read from the file when first touched. A module
 * with no large constant has neither the symbol nor the trailer.
 *
 * Static inline C, like the seal, so that tc-compile (which writes the
 * trailer) and the runtime (which reads it) share one definition.
 *===----------------------------------------------------------------------===*/

#ifndef TC_RUNTIME_MODULE_WEIGHTS_H
#define TC_RUNTIME_MODULE_WEIGHTS_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_WEIGHTS_MAGIC "TCWGHT\1"
#define TC_WEIGHTS_TRAILER_SIZE 32
#define TC_WEIGHTS_SYMBOL "tc_module_weights_v1"
/* The largest page size of the hosts tc supports (AArch64 kernels may use
 * 64 KB pages; x86-64 uses 4 KB). */
#define TC_WEIGHTS_ALIGNMENT 65536u

static inline void tc_weights_store64(unsigned char *bytes, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    bytes[i] = (unsigned char)(value >> (8 * i));
}

static inline uint64_t tc_weights_load64(const unsigned char *bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i)
    value = value << 8 | bytes[i];
  return value;
}

static inline void tc_weights_write_trailer(unsigned char *trailer,
                                            uint64_t offset, uint64_t size) {
  memset(trailer, 0, TC_WEIGHTS_TRAILER_SIZE);
  memcpy(trailer, TC_WEIGHTS_MAGIC, 8);
  tc_weights_store64(trailer + 8, offset);
  tc_weights_store64(trailer + 16, size);
}

/* Returns 1 and the recorded range when `trailer` is a weights trailer. */
static inline int tc_weights_read_trailer(const unsigned char *trailer,
                                          uint64_t *offset, uint64_t *size) {
  if (memcmp(trailer, TC_WEIGHTS_MAGIC, 8) != 0)
    return 0;
  *offset = tc_weights_load64(trailer + 8);
  *size = tc_weights_load64(trailer + 16);
  return 1;
}

#ifdef __cplusplus
}
#endif

#endif /* TC_RUNTIME_MODULE_WEIGHTS_H */
