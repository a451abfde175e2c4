/* Has the version and metadata but not the run entry point. */
#include "tc-runtime/module_abi.h"

const uint32_t tc_module_abi_version = TC_MODULE_ABI_VERSION;
const char tc_module_metadata_v1[] = "tc-module 1\nname norun\n";
