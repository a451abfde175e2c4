//===- GpuTune.cpp - timing a module's tunable GPU kernels on the device --===//
//
// A module compiled with --gpu-candidates carries each tunable kernel in a
// few alternative configurations (module_abi.h, tc_gpu_site_v2); the host
// code runs the one env->choices names. Tuning times them on the GPU that
// runs them: the model runs once per trial (every kernel at its heuristic
// alternative, then every kernel at its c-th), each launch of a tunable
// kernel between two events, so that one run times every kernel key at
// once and the number of runs does not grow with the number of kernels.
// Rounds interleave the trials, so that a clock change or another process
// weighs on all of them alike; the rule that decides (5 % faster in every
// round) is the CPU tuner's (tools/tc-compile/Autotune.cpp).
//
//===----------------------------------------------------------------------===//

#include "GpuDevice.h"
#include "Internal.h"

#include <algorithm>
#include <chrono>
#include <limits>

using namespace tc::rt;

namespace {

/// A kernel key of the module and the sites that share it.
struct KeyTrials {
  std::string key;
  std::vector<size_t> sites;
  /// Alternatives every one of its sites has.
  int32_t candidates = 0;
  /// Milliseconds per run, per trial (0: the heuristic kernels, c + 1:
  /// alternative c) and round.
  std::vector<std::vector<double>> rounds;
};

/// The alternative of `site` that `entry` names: -1 for the heuristic
/// kernel, and for a configuration the site does not have (a table written
/// for another build of the kernel).
int32_t choiceFor(const GpuTuningEntry &entry, const TcGpuSite &site) {
  auto found =
      std::find(site.candidates.begin(), site.candidates.end(), entry.config);
  return found == site.candidates.end()
             ? -1
             : static_cast<int32_t>(found - site.candidates.begin());
}

constexpr double kMargin = 0.95;

/// The trial a key keeps: the heuristic kernels (-1) unless an alternative
/// beats them by the margin in every round both completed; of those, the
/// fastest by its best round. Sets `ms` and `heuristicMs` (best rounds).
int32_t decide(const KeyTrials &trials, double &ms, double &heuristicMs) {
  const std::vector<double> &heuristic = trials.rounds[0];
  auto best = [](const std::vector<double> &times, size_t n) {
    return *std::min_element(times.begin(), times.begin() + n);
  };
  heuristicMs = heuristic.empty() ? 0 : best(heuristic, heuristic.size());
  ms = heuristicMs;
  int32_t chosen = -1;
  for (int32_t c = 0; c < trials.candidates; ++c) {
    const std::vector<double> &times = trials.rounds[c + 1];
    size_t n = std::min(times.size(), heuristic.size());
    if (n == 0)
      continue;
    bool everyRound = true;
    for (size_t r = 0; r < n; ++r)
      everyRound &= heuristic[r] > 0 && times[r] <= kMargin * heuristic[r];
    if (everyRound && best(times, n) < ms) {
      ms = best(times, n);
      chosen = c;
    }
  }
  return chosen;
}

} // namespace

extern "C" void tc_gpu_tune_options_init(tc_gpu_tune_options *options) {
  if (!options)
    return;
  *options = tc_gpu_tune_options{};
  options->budget_seconds = 60;
  options->rounds = 5;
  options->use_table = 1;
}

GpuTuningTable &GpuDevice::table(tc_status *readError) {
  if (!tableRead) {
    tableRead = true;
    if (!tuning.table.empty())
      tableError = readGpuTable(tuning.table, tuningEntries);
  }
  if (readError && tableError)
    *readError =
        makeStatus(tc_status_code(tableError), tc_status_message(tableError));
  return tuningEntries;
}

void GpuDevice::applyTable(const tc_module *module, Loaded &kernels) {
  if (tuning.mode == 0 || module->gpuSites.empty() || tuning.table.empty())
    return;
  // (A table that cannot be read gives what it held up to the bad line.)
  const GpuTuningTable &entries = table();
  kernels.choices.resize(module->gpuSites.size(), -1);
  for (size_t s = 0; s < module->gpuSites.size(); ++s) {
    auto found = entries.find(module->gpuSites[s].key);
    if (found != entries.end())
      kernels.choices[s] = choiceFor(found->second, module->gpuSites[s]);
  }
}

bool GpuDevice::tunesAtFirstRun(const tc_module *module) const {
  if (module->gpuSites.empty())
    return false;
  return tuning.mode == 2 ||
         (tuning.mode == -1 && module->signature.mode == "max-autotune");
}

tc_status GpuDevice::lastTuning(const tc_module *module,
                                tc_gpu_tune_report &report) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = loaded.find(module->id);
  if (found == loaded.end() || !found->second.tuned)
    return makeStatus(TC_STATUS_NOT_FOUND, "model '" + module->path +
                                               "' was not tuned on " +
                                               gpu->spec());
  report = found->second.report;
  if (found->second.tuneCode == TC_STATUS_OK)
    return nullptr;
  return makeStatus(found->second.tuneCode, found->second.tuneMessage);
}

tc_status GpuDevice::tune(const tc_module *module, tc_tensor *const *inputs,
                          size_t numInputs, const tc_gpu_tune_options &options,
                          tc_gpu_tune_report &report) {
  std::lock_guard<std::mutex> lock(mutex);
  Loaded *kernels = nullptr;
  if (tc_status s = activateAndLoad(module, &kernels))
    return s;
  // Asked for explicitly: the first run has nothing left to do.
  kernels->firstRunTuned = true;
  return tuneLoaded(module, kernels, inputs, numInputs, options, report);
}

tc_status GpuDevice::tuneLoaded(const tc_module *module, Loaded *kernels,
                                tc_tensor *const *inputs, size_t numInputs,
                                const tc_gpu_tune_options &options,
                                tc_gpu_tune_report &report) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point begin = Clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(Clock::now() - begin).count();
  };
  report = tc_gpu_tune_report{};
  report.sites = static_cast<int64_t>(module->gpuSites.size());
  kernels->choices.resize(module->gpuSites.size(), -1);

  // The kernel keys, in the order of their first site. A site whose
  // heuristic kernels are unknown (a development version's library) cannot
  // be timed.
  std::vector<KeyTrials> keys;
  std::map<std::string, size_t> indexOf;
  for (size_t s = 0; s < module->gpuSites.size(); ++s) {
    const TcGpuSite &site = module->gpuSites[s];
    auto [it, added] = indexOf.emplace(site.key, keys.size());
    if (added)
      keys.push_back(
          {site.key, {}, static_cast<int32_t>(site.candidates.size())});
    KeyTrials &key = keys[it->second];
    key.sites.push_back(s);
    key.candidates =
        std::min(key.candidates, static_cast<int32_t>(site.candidates.size()));
  }
  report.keys = static_cast<int64_t>(keys.size());

  auto finish = [&](tc_status status) {
    forgetRecordings(module);
    report.seconds = seconds();
    kernels->tuned = true;
    kernels->report = report;
    kernels->tuneCode = tc_status_code(status);
    kernels->tuneMessage = tc_status_message(status);
    return status;
  };
  bool useTable = options.use_table && !tuning.table.empty();
  if (useTable) {
    tc_status readError = nullptr;
    table(&readError);
    if (readError)
      return finish(readError);
  }
  std::vector<size_t> timed; // indices into keys
  for (size_t k = 0; k < keys.size(); ++k) {
    const TcGpuSite &first = module->gpuSites[keys[k].sites.front()];
    auto known =
        useTable ? tuningEntries.find(keys[k].key) : tuningEntries.end();
    if (known != tuningEntries.end() && !options.retune) {
      for (size_t s : keys[k].sites)
        kernels->choices[s] = choiceFor(known->second, module->gpuSites[s]);
      ++report.keys_from_table;
    } else if (!first.heuristicKernels.empty() && keys[k].candidates > 0) {
      timed.push_back(k);
    }
  }
  if (timed.empty())
    return finish(nullptr);
  if (!gpu->supportsTiming())
    return finish(makeStatus(TC_STATUS_UNAVAILABLE,
                             "cannot tune the GPU kernels of '" + module->path +
                                 "' on " + gpu->description() +
                                 ": its driver has no events to time them"));

  // Which timed key each kernel's launches belong to.
  std::vector<int> keyOfKernel(module->gpuKernels.size(), -1);
  int32_t trials = 0;
  for (size_t t = 0; t < timed.size(); ++t) {
    KeyTrials &key = keys[timed[t]];
    key.rounds.assign(key.candidates + 1, {});
    trials = std::max(trials, key.candidates);
    for (size_t s : key.sites) {
      const TcGpuSite &site = module->gpuSites[s];
      for (const std::vector<uint32_t> *list :
           {&site.kernels, &site.heuristicKernels})
        for (uint32_t kernel : *list)
          if (kernel < keyOfKernel.size())
            keyOfKernel[kernel] = static_cast<int>(t);
    }
  }

  std::vector<int32_t> before = kernels->choices;
  auto setTrial = [&](int32_t c) {
    for (size_t index : timed)
      for (size_t s : keys[index].sites)
        kernels->choices[s] = c < keys[index].candidates ? c : -1;
  };
  // Round 0 warms up (a kernel's first launch may load it); rounds 1 to
  // `rounds` are timed, until the budget is spent.
  int32_t rounds = std::max(options.rounds, 1);
  std::vector<double> msPerKey(timed.size());
  for (int32_t round = 0; round <= rounds && !report.budget_exhausted;
       ++round) {
    for (int32_t c = -1; c < trials; ++c) {
      if (round > 0 && seconds() > options.budget_seconds) {
        report.budget_exhausted = 1;
        break;
      }
      setTrial(c);
      std::fill(msPerKey.begin(), msPerKey.end(), 0.0);
      if (tc_status s = timedRun(module, kernels, inputs, numInputs,
                                 keyOfKernel, msPerKey)) {
        kernels->choices = before;
        return finish(s);
      }
      ++report.runs;
      if (round == 0)
        continue;
      for (size_t t = 0; t < timed.size(); ++t)
        if (c < keys[timed[t]].candidates)
          keys[timed[t]].rounds[c + 1].push_back(msPerKey[t]);
    }
  }

  // Each key's winner, on the device and in the table.
  kernels->choices = before;
  GpuTuningTable results;
  for (size_t index : timed) {
    KeyTrials &key = keys[index];
    // (The budget ended the tuning before any round: as it was.)
    if (key.rounds[0].empty())
      continue;
    double ms = 0, heuristicMs = 0;
    int32_t chosen = decide(key, ms, heuristicMs);
    const TcGpuSite &first = module->gpuSites[key.sites.front()];
    for (size_t s : key.sites)
      kernels->choices[s] = chosen;
    // A key whose kernels did not run on these inputs (a branch not
    // taken) stays untuned.
    if (heuristicMs <= 0)
      continue;
    ++report.keys_tuned;
    report.keys_changed += chosen >= 0;
    report.heuristic_ms += heuristicMs;
    report.tuned_ms += ms;
    results[key.key] = {chosen >= 0 ? first.candidates[chosen] : "heuristic",
                        ms, heuristicMs};
  }
  if (useTable && !results.empty()) {
    // Read again: another process may have added keys since.
    GpuTuningTable merged;
    tc_status_free(readGpuTable(tuning.table, merged));
    for (auto &[key, entry] : results)
      merged[key] = entry;
    std::string device = gpu->name();
    if (!gpu->arch().empty())
      device += " (" + gpu->arch() + ")";
    if (tc_status s = writeGpuTable(tuning.table, merged, device))
      return finish(s);
    tuningEntries = std::move(merged);
  }
  return finish(nullptr);
}
