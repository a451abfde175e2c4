//===- Profile.h - tc-run --profile's table -------------------*- C++ -*-===//

#ifndef TC_TOOLS_TC_RUN_PROFILE_H
#define TC_TOOLS_TC_RUN_PROFILE_H

#include "tc-runtime/runtime.h"

#include <cstdio>
#include <string>

namespace tc::run {

/// Prints the counters of `module`'s profiled runs: each kernel's share of
/// the run time with its ONNX op types and nodes, slowest first, then the
/// same summed by op types. Returns an error message instead when there is
/// nothing to report (no profiled run on the CPU, no kernel table).
std::string printProfile(const tc_module *module, std::FILE *out);

/// The same counters as JSON, for scripts (benchmarks/kernel_profile.py):
/// {"runs", "ms_per_run", "kernel_ms_per_run", "kernels": [{"kernel",
/// "ops", "ms_per_run", "calls", "workgroups", "nodes": [every node name]}]},
/// slowest first; counts are totals over the runs.
std::string writeProfileJson(const tc_module *module, std::FILE *out);

} // namespace tc::run

#endif // TC_TOOLS_TC_RUN_PROFILE_H
