//===- Metadata.h - parse the tc_module_metadata_v1 text
//--------------------===//
//
// The grammar is specified in tc-runtime/module_abi.h.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_METADATA_H
#define TC_LIB_RUNTIME_METADATA_H

#include "tc-runtime/runtime.h"

#include <string>
#include <vector>

namespace tc::rt {

struct ArgSignature {
  std::string name;
  tc_dtype_t dtype = TC_DTYPE_INVALID;
  std::vector<int64_t> dims;        // -1 for dynamic extents
  std::vector<std::string> symbols; // "" for static / anonymous extents
  // c_str() of `symbols`, for tc_arg_info; filled by finalize() once the
  // strings no longer move.
  std::vector<const char *> symbolPtrs;
};

struct ModuleSignature {
  std::string name;
  std::vector<ArgSignature> inputs;
  std::vector<ArgSignature> outputs;
  std::vector<std::string> targets;
  /// The `bucket` records, each spelled "name=extent,..." (unescaped).
  std::vector<std::string> shapeBuckets;
  /// The `compiler` record ("tc 0.1.0 llvm 22.1.0"), "" when absent.
  std::string compiler;
  /// The `cpu` record: the CPU compiled for and the features it may use.
  std::string cpuName;
  std::vector<std::string> cpuFeatures;
  /// The `mode` record (tc-compile --mode): "default" when absent.
  std::string mode = "default";
  /// Compiled with --mode=reduce-overhead: runs keep the CPU threads hot
  /// and replay GPU graphs unless the runtime's options say otherwise.
  bool reducesOverhead() const { return mode == "reduce-overhead"; }

  /// Points symbolPtrs at the final strings; call after the last change.
  void finalize();
};

/// Parses `text`; on failure returns false and sets `error` to a message
/// naming the line ("line 3: ..."), with `signature` unspecified.
bool parseMetadata(const char *text, ModuleSignature &signature,
                   std::string &error);

/// Decodes an <escaped-name> ("%" is the empty name, %XX a byte); returns
/// false on a malformed escape or a byte that should have been escaped.
bool unescapeName(const std::string &escaped, std::string &out);

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_METADATA_H
