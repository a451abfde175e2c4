/* A module from a future ABI: the runtime must refuse it by version. */
#include <stdint.h>

const uint32_t tc_module_abi_version = 2;
const char tc_module_metadata_v1[] = "tc-module 1\nname future\n";
int32_t tc_module_run_v1(void) { return 0; }
