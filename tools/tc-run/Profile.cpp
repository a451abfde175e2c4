//===- Profile.cpp - tc-run --profile's table -----------------------------===//

#include "Profile.h"

#include <algorithm>
#include <map>
#include <vector>

namespace tc::run {
namespace {

/// The first few node names of a kernel (one per line in `nodes`), and how
/// many more there are: a fused kernel may compute dozens.
std::string summarizeNodes(const std::string &nodes, size_t shown = 3) {
  std::vector<std::string> names;
  for (size_t begin = 0; begin < nodes.size();) {
    size_t end = nodes.find('\n', begin);
    if (end == std::string::npos)
      end = nodes.size();
    names.push_back(nodes.substr(begin, end - begin));
    begin = end + 1;
  }
  std::string text;
  for (size_t i = 0; i < names.size() && i < shown; ++i)
    text += (i ? ", " : "") + names[i];
  if (names.size() > shown)
    text += " (+" + std::to_string(names.size() - shown) + " more)";
  return text.empty() ? "-" : text;
}

/// The profiled runs' counters: how many runs, their time, and each
/// kernel's counters, slowest first.
struct Counters {
  int64_t runs = 0, runNs = 0, kernelNs = 0;
  std::vector<tc_kernel_profile> kernels;
};

/// Reads `module`'s counters into `counters`; an error message when there is
/// nothing to report.
std::string readCounters(const tc_module *module, Counters &counters) {
  tc_module_profile_runs(module, &counters.runs, &counters.runNs);
  size_t count = tc_module_num_kernels(module);
  if (counters.runs == 0)
    return count == 0 ? "the model has no kernel table (compiled by an older "
                        "tc-compile, or for GPUs only); recompile it"
                      : "no run was profiled: the profile measures the CPU "
                        "code (run with --device=cpu)";
  counters.kernels.resize(count);
  for (size_t i = 0; i < count; ++i) {
    if (tc_status status =
            tc_module_kernel_profile(module, i, &counters.kernels[i])) {
      std::string message = tc_status_message(status);
      tc_status_free(status);
      return message;
    }
    counters.kernelNs += counters.kernels[i].nanoseconds;
  }
  std::stable_sort(counters.kernels.begin(), counters.kernels.end(),
                   [](const tc_kernel_profile &a, const tc_kernel_profile &b) {
                     return a.nanoseconds > b.nanoseconds;
                   });
  return "";
}

/// `text` as a JSON string.
std::string jsonString(const char *text) {
  std::string quoted = "\"";
  for (const char *c = text; *c; ++c) {
    unsigned char u = static_cast<unsigned char>(*c);
    if (u == '"' || u == '\\') {
      quoted += '\\';
      quoted += *c;
    } else if (u < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", u);
      quoted += escape;
    } else {
      quoted += *c;
    }
  }
  return quoted + "\"";
}

} // namespace

std::string writeProfileJson(const tc_module *module, std::FILE *out) {
  Counters counters;
  if (std::string error = readCounters(module, counters); !error.empty())
    return error;
  double perRun = 1e-6 / counters.runs;
  std::fprintf(out, "{\"runs\": %lld, \"ms_per_run\": %.6f, \"kernel_ms_per_run\": %.6f,\n"
                    " \"kernels\": [",
               static_cast<long long>(counters.runs), counters.runNs * perRun,
               counters.kernelNs * perRun);
  const char *separator = "\n";
  for (const tc_kernel_profile &k : counters.kernels) {
    std::fprintf(out, "%s  {\"kernel\": %s, \"ops\": %s, \"ms_per_run\": %.6f, "
                      "\"calls\": %lld, \"workgroups\": %lld, \"nodes\": [",
                 separator, jsonString(k.name).c_str(), jsonString(k.ops).c_str(),
                 k.nanoseconds * perRun, static_cast<long long>(k.calls),
                 static_cast<long long>(k.workgroups));
    std::string nodes = k.nodes;
    for (size_t begin = 0, i = 0; begin < nodes.size(); ++i) {
      size_t end = std::min(nodes.find('\n', begin), nodes.size());
      std::fprintf(out, "%s%s", i ? ", " : "",
                   jsonString(nodes.substr(begin, end - begin).c_str()).c_str());
      begin = end + 1;
    }
    std::fprintf(out, "]}");
    separator = ",\n";
  }
  std::fprintf(out, "\n]}\n");
  return "";
}

std::string printProfile(const tc_module *module, std::FILE *out) {
  Counters counters;
  if (std::string error = readCounters(module, counters); !error.empty())
    return error;
  int64_t runs = counters.runs, runNs = counters.runNs,
          kernelNs = counters.kernelNs;
  const std::vector<tc_kernel_profile> &kernels = counters.kernels;

  double perRun = 1e-6 / runs; // ns in total -> ms per run
  double total = std::max<int64_t>(runNs, 1);
  std::fprintf(out,
               "profile: %lld runs, %.3f ms per run: kernels %.3f ms (%.1f%%), "
               "outside kernels %.3f ms\n",
               static_cast<long long>(runs), runNs * perRun, kernelNs * perRun,
               100.0 * kernelNs / total, (runNs - kernelNs) * perRun);
  std::fprintf(out, "%7s %9s %7s %7s  %-6s %-24s %s\n", "share", "ms/run",
               "calls", "wgs", "kernel", "ops", "nodes");
  for (const tc_kernel_profile &k : kernels) {
    if (k.calls == 0)
      continue;
    std::fprintf(out, "%6.1f%% %9.3f %7.3g %7.3g  %-6s %-24s %s\n",
                 100.0 * k.nanoseconds / total, k.nanoseconds * perRun,
                 double(k.calls) / runs, double(k.workgroups) / k.calls,
                 k.name, *k.ops ? k.ops : "-", summarizeNodes(k.nodes).c_str());
  }

  // The same by op types: where a model's time goes at a glance.
  struct Sum {
    int64_t ns = 0, kernels = 0;
  };
  std::map<std::string, Sum> byOps;
  for (const tc_kernel_profile &k : kernels)
    if (k.calls) {
      Sum &sum = byOps[*k.ops ? k.ops : "-"];
      sum.ns += k.nanoseconds;
      ++sum.kernels;
    }
  std::vector<std::pair<std::string, Sum>> sums(byOps.begin(), byOps.end());
  std::stable_sort(sums.begin(), sums.end(), [](const auto &a, const auto &b) {
    return a.second.ns > b.second.ns;
  });
  std::fprintf(out, "by op types:\n%7s %9s %7s  %s\n", "share", "ms/run",
               "kernels", "ops");
  for (const auto &[ops, sum] : sums)
    std::fprintf(out, "%6.1f%% %9.3f %7lld  %s\n", 100.0 * sum.ns / total,
                 sum.ns * perRun, static_cast<long long>(sum.kernels),
                 ops.c_str());
  return "";
}

} // namespace tc::run
