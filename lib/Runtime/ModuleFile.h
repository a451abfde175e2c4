//===- ModuleFile.h - a model.so checked before the dynamic loader sees it -===//
//
// dlopen trusts the file it maps: a truncated model.so raises SIGBUS inside
// it and a zeroed tail SIGSEGV in relocation. So tc_module_load opens the
// file itself, checks that it is a regular file, an ELF shared object for
// this machine whose headers and loadable segments lie inside the file, and
// that the seal tc-compile appended (tc-runtime/module_seal.h) matches its
// bytes; only then does it hand the open file to dlopen.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_MODULEFILE_H
#define TC_LIB_RUNTIME_MODULEFILE_H

#include "tc-runtime/runtime.h"

#include <cstdint>
#include <string>
#include <sys/types.h>

namespace tc::rt {

struct ModuleFile {
  int fd = -1;        // open for reading, close-on-exec; the caller closes it
  dev_t device = 0;   // identity of the file opened
  ino_t inode = 0;
  uint64_t checksum = 0; // from the seal, checked against the bytes
  // The appended weights (tc-runtime/module_weights.h), if the file has any.
  bool hasWeights = false;
  uint64_t weightsOffset = 0;
  uint64_t weightsBytes = 0;
};

/// Opens `path` and checks it as described above; on failure returns a
/// status that names the file and says what is wrong, with nothing open.
tc_status openModuleFile(const std::string &path, ModuleFile &file);

/// dlopen of a checked file (which this call takes over). dlopen alone
/// keys loaded libraries by name, so loading a path again after the file
/// was replaced would return the old code; this loads the open file itself
/// (through /proc/self/fd), so each load gets the bytes that were checked,
/// and two loads of one unchanged file share its code. A file overwritten
/// in place while loaded is refused. The file's weights are mapped over the
/// library's weights region before this returns, so nothing of the module
/// can see the region empty. `outKey` is for releaseModuleFile.
tc_status loadModuleFile(const std::string &path, ModuleFile file,
                         void **outHandle, uint64_t *outKey);

/// Closes a loaded file's handle (dlclose) and forgets the file once no
/// module uses it.
void releaseModuleFile(void *handle, uint64_t key);

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_MODULEFILE_H
