//===- Autotune.cpp - tc-compile --mode=max-autotune ----------------------===//

#include "Autotune.h"

#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Target/Cpu/KernelConfig.h"
#include "tc/Target/Host/SharedLibrary.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

using namespace mlir;
using mlir::tc::cpu::RegisterTileConfig;

namespace tc_compile {
namespace {

/// A candidate must beat the heuristic configuration by this much in every
/// round to be kept: below it, the difference is the machine's noise.
constexpr double kMargin = 0.05;
/// Interleaved rounds of runs per trial; a kernel's time is its fastest.
constexpr int kRounds = 3;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// A directory removed with its files when the tuning ends.
struct ScratchDirectory {
  llvm::SmallString<128> path;
  ~ScratchDirectory() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
  std::string file(const Twine &name) const {
    llvm::SmallString<128> result(path);
    llvm::sys::path::append(result, name);
    return result.str().str();
  }
};

/// A kernel of a trial library, as its trampoline names it.
struct TrialKernel {
  std::string name, key;
  RegisterTileConfig config;
};

std::vector<TrialKernel> configuredKernels(ModuleOp module) {
  std::vector<TrialKernel> kernels;
  module.walk([&](LLVM::LLVMFuncOp fn) {
    auto key = fn->getAttrOfType<StringAttr>(
        fusion::FusionDialect::kKernelKeyAttr);
    std::optional<RegisterTileConfig> config =
        mlir::tc::cpu::registerTileConfig(fn);
    StringRef name = fn.getSymName();
    if (!key || !config || !name.consume_back("_trampoline"))
      return;
    kernels.push_back({name.str(), key.str(), *config});
  });
  return kernels;
}

/// `module` lowered with every kernel at its `candidate`-th configuration
/// (a clone: the trial shares the original's weights, so nothing of it may
/// free them).
FailureOr<OwningOpRef<ModuleOp>> lowerTrial(ModuleOp module, int64_t candidate,
                                            const AutotuneOptions &options,
                                            std::string &error) {
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> trial = module.clone();
  auto main = trial->lookupSymbol<func::FuncOp>("main");
  FailureOr<mlir::tc::SignatureAttr> signature = options.signature(main, error);
  if (failed(signature))
    return failure();
  (*trial)->setAttr(mlir::tc::kSignatureAttr, *signature);
  mlir::tc::cpu::CpuPipelineOptions pipeline = options.pipeline;
  pipeline.releaseReplacedWeights = false;
  pipeline.emitEntry = true;
  pipeline.configCandidate = candidate;
  pipeline.configTable.clear();
  PassManager lowering(context);
  mlir::tc::cpu::buildCpuPipeline(lowering, pipeline);
  if (failed(lowering.run(*trial))) {
    error = "max-autotune: compiling candidate " + std::to_string(candidate) +
            " failed (see the diagnostics above)";
    return failure();
  }
  return trial;
}

LogicalResult emitTrial(ModuleOp trial, const AutotuneOptions &options,
                        StringRef path, std::string &error) {
  mlir::tc::host::SharedLibraryOptions library;
  library.cpu = options.cpu;
  return mlir::tc::host::emitSharedLibrary(trial, path, library, error);
}

/// The .npy spelling of a tensor element type, or "".
std::string npyDescr(Type element) {
  if (element.isF32())
    return "<f4";
  if (element.isF64())
    return "<f8";
  if (element.isF16())
    return "<f2";
  if (element.isInteger(1))
    return "|b1";
  if (auto integer = dyn_cast<IntegerType>(element)) {
    unsigned bytes = integer.getWidth() / 8;
    if (integer.getWidth() % 8 || bytes == 0 || bytes > 8 ||
        (bytes & (bytes - 1)))
      return "";
    std::string kind = integer.isUnsigned() ? "u" : "i";
    return (bytes == 1 ? "|" : "<") + kind + std::to_string(bytes);
  }
  return "";
}

/// One input of @main as a .npy file: floats uniform in [-1, 1) from a
/// fixed seed, integers 1 (a valid index, a mask that keeps), booleans
/// true.
LogicalResult writeInput(StringRef path, RankedTensorType type,
                         StringRef descr, uint64_t seed, std::string &error) {
  std::string shape = "(";
  for (int64_t d : type.getShape())
    shape += std::to_string(d) + ",";
  if (type.getRank() > 1)
    shape.pop_back();
  shape += ")";
  std::string header = "{'descr': '" + descr.str() +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic, version, length, header: a multiple of 64 bytes, '\n'-ended.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "max-autotune: cannot write '" + path.str() + "': " + ec.message();
    return failure();
  }
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  Type element = type.getElementType();
  int64_t count = type.getNumElements();
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  auto uniform = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return double(state >> 11) / double(1ull << 53) * 2.0 - 1.0;
  };
  for (int64_t i = 0; i < count; ++i) {
    if (element.isF32()) {
      float v = float(uniform());
      os.write(reinterpret_cast<const char *>(&v), 4);
    } else if (element.isF64()) {
      double v = uniform();
      os.write(reinterpret_cast<const char *>(&v), 8);
    } else if (element.isF16()) {
      // Uniform in [-1, 1) with 8 bits of mantissa: sign, exponent 14 or
      // below, the mantissa's top bits.
      double v = uniform();
      uint16_t bits = v < 0 ? 0x8000 : 0;
      int exponent = 0;
      double m = std::frexp(std::fabs(v), &exponent); // [0.5, 1) * 2^e
      if (m != 0 && exponent > -13)
        bits |= uint16_t((exponent + 14) << 10) |
                uint16_t((m * 2 - 1) * 1024) ;
      os.write(reinterpret_cast<const char *>(&bits), 2);
    } else {
      unsigned bytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
      char one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
      os.write(one, bytes);
    }
  }
  return success();
}

/// tc-run --input arguments for `main`, generated into `dir`.
FailureOr<std::vector<std::string>> generateInputs(func::FuncOp main,
                                                   const ScratchDirectory &dir,
                                                   std::string &error) {
  std::vector<std::string> inputs;
  for (auto [i, type] : llvm::enumerate(main.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    std::string name = std::to_string(i);
    if (auto attr = main.getArgAttrOfType<StringAttr>(i, mlir::tc::kNameAttr))
      name = "'" + attr.str() + "'";
    if (!tensor || !tensor.hasStaticShape()) {
      error = "max-autotune times the model on generated inputs, and input " +
              name +
              " has a dynamic shape: give inputs of the shapes to tune for "
              "with --autotune-inputs=DIR";
      return failure();
    }
    std::string descr = npyDescr(tensor.getElementType());
    if (descr.empty()) {
      std::string spelled;
      llvm::raw_string_ostream os(spelled);
      os << tensor.getElementType();
      error = "max-autotune cannot generate input " + name + " of type " +
              spelled + ": give inputs with --autotune-inputs=DIR";
      return failure();
    }
    std::string path = dir.file("input_" + std::to_string(i) + ".npy");
    if (failed(writeInput(path, tensor, descr, i + 1, error)))
      return failure();
    inputs.push_back(path);
  }
  return inputs;
}

/// Runs `library` with tc-run: `runs` timed runs with a per-kernel
/// profile; each kernel's milliseconds per run.
FailureOr<llvm::StringMap<double>>
profile(const AutotuneOptions &options, const std::vector<std::string> &inputs,
        StringRef library, int runs, const ScratchDirectory &dir,
        std::string &error) {
  std::string json = dir.file("profile.json"), log = dir.file("run.log");
  std::vector<std::string> args = {options.tcRun, library.str(),
                                   "--benchmark=" + std::to_string(runs),
                                   "--warmup=1", "--profile-json=" + json};
  for (const std::string &input : inputs)
    args.push_back("--input=" + input);
  SmallVector<StringRef> refs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(options.tcRun, refs, std::nullopt,
                                     redirects, 0, 0, &message);
  if (rc != 0) {
    auto text = llvm::MemoryBuffer::getFile(log);
    error = "max-autotune: running a candidate library failed" +
            (message.empty() ? "" : ": " + message) +
            (text ? ":\n" + (*text)->getBuffer().rtrim().str() : "");
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getFile(json);
  llvm::Expected<llvm::json::Value> parsed =
      buffer ? llvm::json::parse((*buffer)->getBuffer())
             : llvm::Expected<llvm::json::Value>(
                   llvm::createStringError("unreadable"));
  const llvm::json::Object *root = parsed ? parsed->getAsObject() : nullptr;
  const llvm::json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    error = "max-autotune: tc-run wrote no kernel profile";
    return failure();
  }
  llvm::StringMap<double> times;
  for (const llvm::json::Value &kernel : *kernels) {
    const llvm::json::Object *entry = kernel.getAsObject();
    std::optional<StringRef> name = entry ? entry->getString("kernel") : std::nullopt;
    std::optional<double> ms = entry ? entry->getNumber("ms_per_run") : std::nullopt;
    if (name && ms)
      times[*name] = *ms;
  }
  return times;
}

/// The tuning table's kernels (an empty object for a missing or damaged
/// table, which is then rewritten whole).
llvm::json::Object readTable(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return {};
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    llvm::errs() << "tc-compile: warning: the tuning table '" << path
                 << "' is damaged (" << llvm::toString(json.takeError())
                 << "); it is rebuilt\n";
    return {};
  }
  if (llvm::json::Object *root = json->getAsObject())
    if (llvm::json::Object *kernels = root->getObject("kernels"))
      return std::move(*kernels);
  return {};
}

LogicalResult writeTable(StringRef path, llvm::json::Object kernels,
                         std::string &error) {
  StringRef directory = llvm::sys::path::parent_path(path);
  if (std::error_code ec = directory.empty()
                               ? std::error_code()
                               : llvm::sys::fs::create_directories(directory)) {
    error = "max-autotune: cannot create the tuning table's directory: " +
            ec.message();
    return failure();
  }
  llvm::json::Object root{{"version", 1}, {"kernels", std::move(kernels)}};
  // Written beside it and renamed: a reader never sees half a table, and
  // of two compiles that tune at once, the last one's table stays whole.
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temporary)) {
    error = "max-autotune: cannot write the tuning table: " + ec.message();
    return failure();
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    error = "max-autotune: cannot write the tuning table: " + ec.message();
    return failure();
  }
  return success();
}

/// Milliseconds as the table keeps them: to 0.1 microsecond.
double tableMs(double ms) { return std::round(ms * 1e4) / 1e4; }

llvm::json::Value tableEntry(const RegisterTileConfig &config, double ms,
                             double heuristicMs) {
  return llvm::json::Object{
      {"tile", llvm::json::Array{config.rows, config.lanes}},
      {"workgroups", config.workgroups},
      {"ms", tableMs(ms)},
      {"heuristic_ms", tableMs(heuristicMs)}};
}

} // namespace

LogicalResult autotuneCpuKernels(ModuleOp module, const AutotuneOptions &options,
                                 AutotuneSummary &summary, std::string &error) {
  Clock::time_point start = Clock::now();
  ScratchDirectory scratch;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(
          "tc-autotune", scratch.path)) {
    error = "max-autotune: cannot create a scratch directory: " + ec.message();
    return failure();
  }
  llvm::json::Object table = readTable(options.table);

  // The heuristic compile: which kernels there are, and whether the table
  // already knows them all.
  FailureOr<OwningOpRef<ModuleOp>> heuristic = lowerTrial(module, 0, options, error);
  if (failed(heuristic))
    return failure();
  std::vector<TrialKernel> heuristicKernels = configuredKernels(**heuristic);
  llvm::StringMap<RegisterTileConfig> heuristicConfigs;
  for (const TrialKernel &kernel : heuristicKernels)
    heuristicConfigs[kernel.key] = kernel.config;
  summary.kernels = heuristicKernels.size();
  summary.keys = heuristicConfigs.size();
  for (const auto &entry : heuristicConfigs)
    if (table.get(entry.getKey()))
      ++summary.keysFromTable;
  if (summary.keysFromTable == summary.keys) {
    summary.seconds = secondsSince(start);
    return success();
  }

  std::vector<std::string> inputs = options.inputs;
  if (inputs.empty()) {
    FailureOr<std::vector<std::string>> generated = generateInputs(
        module.lookupSymbol<func::FuncOp>("main"), scratch, error);
    if (failed(generated))
      return failure();
    inputs = std::move(*generated);
  }

  // The trials: candidate c for every kernel, while any kernel has a c-th
  // candidate and the budget lasts.
  struct Trial {
    std::string library;
    std::vector<TrialKernel> kernels;
  };
  std::vector<Trial> trials;
  for (int64_t c = 0;; ++c) {
    if (c > 0 && secondsSince(start) > options.budgetSeconds) {
      summary.budgetExhausted = true;
      break;
    }
    OwningOpRef<ModuleOp> lowered;
    if (c == 0) {
      lowered = std::move(*heuristic);
    } else {
      FailureOr<OwningOpRef<ModuleOp>> next = lowerTrial(module, c, options, error);
      if (failed(next))
        return failure();
      lowered = std::move(*next);
    }
    std::vector<TrialKernel> kernels = configuredKernels(*lowered);
    bool differs = c == 0;
    for (const TrialKernel &kernel : kernels)
      if (!(kernel.config == heuristicConfigs.lookup(kernel.key)))
        differs = true;
    if (!differs)
      break;
    std::string library = scratch.file("candidate-" + std::to_string(c) + ".so");
    if (failed(emitTrial(*lowered, options, library, error)))
      return failure();
    trials.push_back({library, std::move(kernels)});
  }
  summary.trials = trials.size();

  // Runs per profile: about a third of a second of runs, at least 3.
  FailureOr<llvm::StringMap<double>> probe =
      profile(options, inputs, trials[0].library, 2, scratch, error);
  if (failed(probe))
    return failure();
  double runMs = 0;
  for (const auto &entry : *probe)
    runMs += entry.getValue();
  int runs = std::clamp(int(300.0 / std::max(runMs, 0.01)), 3, 50);

  // Each trial's kernels' times, per interleaved round.
  std::vector<std::vector<llvm::StringMap<double>>> times(
      trials.size(), std::vector<llvm::StringMap<double>>(kRounds));
  for (int round = 0; round < kRounds; ++round)
    for (auto [i, trial] : llvm::enumerate(trials)) {
      FailureOr<llvm::StringMap<double>> measured =
          profile(options, inputs, trial.library, runs, scratch, error);
      if (failed(measured))
        return failure();
      times[i][round] = std::move(*measured);
    }

  // Per kernel key and trial: the summed time of the kernels with that key
  // in each round, and the configuration they had.
  struct Measured {
    RegisterTileConfig config;
    SmallVector<double> rounds = SmallVector<double>(kRounds, 0.0);
    double best() const { return *llvm::min_element(rounds); }
  };
  std::map<std::string, std::vector<std::optional<Measured>>> byKey;
  for (auto [i, trial] : llvm::enumerate(trials))
    for (const TrialKernel &kernel : trial.kernels) {
      auto &slots = byKey[kernel.key];
      slots.resize(trials.size());
      if (!slots[i])
        slots[i] = Measured{kernel.config};
      for (int round = 0; round < kRounds; ++round)
        slots[i]->rounds[round] += times[i][round].lookup(kernel.name);
    }
  for (auto &[key, slots] : byKey) {
    if (table.get(key) || !slots[0])
      continue;
    // A candidate replaces the heuristic configuration only if it is
    // faster by the margin in every round: a single fast round is as
    // likely the machine's noise (another process, a frequency change).
    const Measured &base = *slots[0];
    const Measured *chosen = &base;
    for (const std::optional<Measured> &slot : slots) {
      if (!slot || slot->config == base.config)
        continue;
      bool always = true;
      for (int round = 0; round < kRounds; ++round)
        always &= slot->rounds[round] < base.rounds[round] * (1 - kMargin);
      if (always && slot->best() < chosen->best())
        chosen = &*slot;
    }
    summary.heuristicMs += base.best();
    summary.tunedMs += chosen->best();
    // Every candidate's rounds stay in the entry: why it was chosen.
    llvm::json::Array measured;
    for (const std::optional<Measured> &slot : slots) {
      if (!slot)
        continue;
      llvm::json::Array rounds;
      for (double ms : slot->rounds)
        rounds.push_back(tableMs(ms));
      measured.push_back(llvm::json::Object{
          {"tile", llvm::json::Array{slot->config.rows, slot->config.lanes}},
          {"workgroups", slot->config.workgroups},
          {"rounds_ms", std::move(rounds)}});
    }
    llvm::json::Value entry = tableEntry(chosen->config, chosen->best(), base.best());
    entry.getAsObject()->try_emplace("candidates", std::move(measured));
    table[key] = std::move(entry);
    if (chosen != &base) {
      ++summary.changed;
      summary.changes.push_back(
          key + ": " + mlir::tc::cpu::describe(chosen->config) + " (" +
          llvm::formatv("{0:F3}", chosen->best()).str() + " ms, heuristic " +
          mlir::tc::cpu::describe(base.config) + " " +
          llvm::formatv("{0:F3}", base.best()).str() + " ms)");
    }
  }
  if (failed(writeTable(options.table, std::move(table), error)))
    return failure();
  summary.seconds = secondsSince(start);
  return success();
}

} // namespace tc_compile
