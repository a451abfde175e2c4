/*===- SealModule.c - tc-seal-module: seal a hand-built shared library ----===*
 *
 * tc_module_load only loads files sealed as tc-compile seals its output
 * (tc-runtime/module_seal.h). The fake modules of these tests are linked by
 * CMake, so a post-build step seals each with this tool:
 *   tc-seal-module FILE
 *===----------------------------------------------------------------------===*/

#include "tc-runtime/module_seal.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tc-seal-module FILE\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "r+b");
  if (!file || fseek(file, 0, SEEK_END) != 0) {
    perror(argv[1]);
    return 1;
  }
  long size = ftell(file);
  unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
  if (size < 0 || !bytes || fseek(file, 0, SEEK_SET) != 0 ||
      fread(bytes, 1, (size_t)size, file) != (size_t)size) {
    perror(argv[1]);
    return 1;
  }
  unsigned char trailer[TC_SEAL_TRAILER_SIZE];
  uint64_t sealed = 0, checksum = 0;
  if (size >= TC_SEAL_TRAILER_SIZE &&
      tc_seal_read_trailer(bytes + size - TC_SEAL_TRAILER_SIZE, &sealed,
                           &checksum) &&
      sealed == (uint64_t)size - TC_SEAL_TRAILER_SIZE)
    return 0; /* sealed already */
  tc_seal_write_trailer(trailer, (uint64_t)size,
                        tc_seal_checksum(bytes, (size_t)size));
  if (fseek(file, 0, SEEK_END) != 0 ||
      fwrite(trailer, 1, sizeof(trailer), file) != sizeof(trailer) ||
      fclose(file) != 0) {
    perror(argv[1]);
    return 1;
  }
  free(bytes);
  return 0;
}
