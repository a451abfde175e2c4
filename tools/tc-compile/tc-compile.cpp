//===- tc-compile.cpp - compile an ONNX model -----------------------------===//
//
// tc-compile model.onnx -o model.so     compile for the CPU (the default)
// tc-compile model.onnx --check         import and verify; list what is
//                                       unsupported, all at once
// tc-compile model.onnx --emit=tc       the graph-level IR after shape
//                                       inference and canonicalization
// tc-compile model.onnx --emit=llvm     the LLVM dialect the .so is made of
// tc-compile model.onnx --target=cuda:sm_90,rocm:gfx942 --emit=gpu-kernels
//            -o DIR                      the kernels of each GPU target,
//                                        compiled and checked offline
// --dump-ir=DIR writes the IR after every stage and pass into DIR.
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"
#include "Calibration.h"
#include "mlir/IR/Diagnostics.h"
#include "tc/Cache/CompileCache.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "tc/Frontend/Onnx/Importer.h"
#include "tc/InitAllDialects.h"
#include "tc/InitAllPasses.h"
#include "tc/Pipelines/Pipelines.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/ShapeBuckets.h"
#include "tc/Target/Gpu/Passes.h"
#include "tc/Target/Host/ConstantsObject.h"
#include "tc/Target/Host/ModuleAbi.h"
#include "tc/Target/Host/SharedLibrary.h"
#include "tc/Version.h"
#include "llvm/Config/llvm-config.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <optional>
#include <set>
#include <thread>

using namespace mlir;
namespace cl = llvm::cl;

namespace {
// --help lists these; LLVM's and MLIR's own options stay accepted,
// unlisted.
cl::OptionCategory category("tc-compile options");
cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model.onnx>"),
                               cl::cat(category));
cl::opt<std::string> outputPath(
    "o", cl::cat(category),
    cl::desc("output file (default: the model's name with .so, or "
             "stdout for --emit=tc/llvm)"),
    cl::value_desc("path"));
cl::opt<bool> checkOnly("check", cl::cat(category),
                        cl::desc("import and verify the model, report every "
                                 "unsupported piece, write nothing"));
enum class Emit { Tc, Llvm, So, GpuKernels };
cl::opt<Emit> emit(
    "emit", cl::cat(category), cl::desc("what to produce"),
    cl::init(Emit::So),
    cl::values(clEnumValN(Emit::Tc, "tc", "graph-level tc IR (MLIR text)"),
               clEnumValN(Emit::Llvm, "llvm",
                          "the LLVM dialect module (MLIR text)"),
               clEnumValN(Emit::So, "so", "a shared library (model.so)"),
               clEnumValN(Emit::GpuKernels, "gpu-kernels",
                          "the compiled kernels of each GPU target, checked "
                          "offline, into the directory -o names")));
cl::opt<std::string> target(
    "target", cl::cat(category),
    cl::desc("code generation targets, comma-separated: cpu, cuda:<sm>, "
             "rocm:<gfx> (see the error for the supported list)"),
    cl::init("cpu"));
cl::opt<std::string> cpuName("cpu", cl::cat(category),
                             cl::desc("LLVM CPU to optimize for ('host', or "
                                      "e.g. x86-64-v3)"),
                             cl::init("host"));
cl::opt<int64_t> maxWorkgroups("max-workgroups", cl::cat(category),
                               cl::desc("largest number of workgroups a "
                                        "kernel is split into"),
                               cl::init(64));
cl::opt<bool> winograd(
    "winograd", cl::cat(category),
    cl::desc("on the CPU, compute 3x3 convolutions with unit strides and "
             "enough output tiles by Winograd's F(4x4, 3x3) or F(2x2, 3x3) "
             "where that is estimated faster (its transformed weights "
             "counted as read from memory): a quarter (or 4/9) of the "
             "multiplies, results within about "
             "1e-5 of the output's scale of the direct sum; =false computes "
             "every convolution directly"),
    cl::init(true));
cl::opt<bool> channelsLast(
    "channels-last", cl::cat(category),
    cl::desc("on the CPU, compute the depthwise and pointwise convolutions "
             "of a model with depthwise ones (MobileNet, EfficientNet, "
             "ConvNeXt) or mostly pointwise ones (ResNet-50) channels-last "
             "(NHWC), the layout kept from kernel to kernel; =false keeps "
             "every convolution NCHW"),
    cl::init(true));
cl::opt<bool> gpuFpContract(
    "gpu-fp-contract", cl::cat(category),
    cl::desc("in GPU kernels, fuse a float multiply and the add of its "
             "product into one fused multiply-add, rounded once (as nvcc and "
             "hipcc do by default); =false rounds each separately"),
    cl::init(true));
/// The alternatives per GPU kernel of a --mode=max-autotune build.
constexpr int64_t kAutotuneGpuCandidates = 3;
cl::opt<int64_t> gpuCandidates(
    "gpu-candidates", cl::cat(category),
    cl::desc("with GPU targets: build each contraction kernel also in up to "
             "N alternative configurations (tiles and pipeline stages every "
             "target supports), for a tuner to choose among (tc-tune, or the "
             "runtime at a max-autotune model's first run); 0: none (the "
             "default; 3 with --mode=max-autotune)"),
    cl::init(0));
cl::opt<int64_t> gpuCandidate(
    "gpu-candidate", cl::cat(category),
    cl::desc("with --gpu-candidates: the alternative every such kernel runs "
             "(0 the first; a kernel with fewer runs its heuristic one), a "
             "tuner's trial build; -1: the heuristic kernels"),
    cl::init(-1));
cl::opt<std::string> emulatedMatrixCores(
    "emulate-matrix-cores", cl::cat(category),
    cl::desc("with --target=gpu-emulation: the GPU target whose matrix "
             "instructions (their lanes' layouts) the 16-bit matrix products "
             "use, executed by scalar code; none: CUDA-core code"),
    cl::init("cuda:sm_90"));
cl::opt<std::string> precision(
    "precision", cl::cat(category),
    cl::desc("the type contractions, convolutions and attention compute in: "
             "fp32 (default); tf32, their factors rounded to TF32's 10 "
             "mantissa bits; or fp16/bf16 with f32 accumulation; the rest "
             "of the model staying fp32 (docs/precision.md)"),
    cl::init("fp32"), cl::value_desc("fp32|tf32|fp16|bf16"));
cl::opt<std::string> calibrateDir(
    "calibrate", cl::cat(category),
    cl::desc("with --precision=fp16: run the fp32 model on the samples in "
             "this directory first (one per subdirectory, as input_<i>.pb "
             "or <input name>.npy files) and keep in f32 the contractions "
             "whose activations go beyond fp16's range"),
    cl::value_desc("dir"));
cl::opt<std::string> dumpDir("dump-ir", cl::cat(category),
                             cl::desc("write the IR after every stage and "
                                      "pass into this directory"),
                             cl::value_desc("dir"));
cl::opt<std::string> timing(
    "timing", cl::cat(category), cl::ValueOptional,
    cl::desc("print a table of how long each stage took and the private "
             "memory held when it ended; --timing=passes also times each "
             "pass of the MLIR pipelines"),
    cl::value_desc("passes"));
cl::opt<std::string> cacheDir(
    "cache-dir", cl::cat(category),
    cl::desc("the compile cache's directory (default: TC_CACHE_DIR, "
             "$XDG_CACHE_HOME/tc or ~/.cache/tc; TC_CACHE_MAX_BYTES bounds "
             "its size, 10G by default)"),
    cl::value_desc("dir"));
cl::opt<bool> noCache("no-cache", cl::cat(category),
                      cl::desc("neither read nor write the compile cache"));
cl::opt<bool> cacheStats(
    "cache-stats", cl::cat(category),
    cl::desc("print the compile cache's entries, bytes, hits and misses, "
             "and exit"));
cl::list<std::string> bind(
    "bind", cl::cat(category),
    cl::desc("replace graph input NAME by the TensorProto in FILE "
             "(NAME=FILE): specializes shape parameters given as inputs"),
    cl::value_desc("name=file.pb"));

cl::opt<std::string> mode(
    "mode", cl::cat(category), cl::init("default"),
    cl::desc("default: the kernel configurations of the heuristics (or of "
             "--tuning-table); reduce-overhead: the default code, marked so "
             "that the runtime keeps its CPU threads awake between runs and "
             "replays GPU runs as graphs; max-autotune: time candidate "
             "configurations of the CPU kernels on this machine and keep the "
             "fastest per kernel, in a tuning table in the compile cache that "
             "later compiles reuse; GPU kernels come in 3 configurations "
             "(--gpu-candidates), timed on the GPU at the first run"),
    cl::value_desc("default|reduce-overhead|max-autotune"));
cl::opt<std::string> tuningTable(
    "tuning-table", cl::cat(category),
    cl::desc("the kernel configurations to compile with (JSON, as "
             "--mode=max-autotune writes; docs/autotuning.md); with "
             "--mode=max-autotune, the table it reads and updates instead of "
             "the compile cache's"),
    cl::value_desc("file.json"));
cl::opt<std::string> autotuneInputs(
    "autotune-inputs", cl::cat(category),
    cl::desc("with --mode=max-autotune: time the candidates on these inputs "
             "(input_<i>.pb or <input name>.npy files) instead of generated "
             "ones; needed for inputs of dynamic shape"),
    cl::value_desc("dir"));
cl::opt<double> autotuneBudget(
    "autotune-budget", cl::cat(category), cl::init(600),
    cl::desc("with --mode=max-autotune: compile no further candidates "
             "once this many seconds have passed"),
    cl::value_desc("seconds"));

cl::list<std::string> shapeBucketSpecs(
    "shape-bucket", cl::cat(category),
    cl::desc("also compile the model with these named (dim_param) dimensions "
             "fixed, into the same library (NAME=EXTENT[,NAME=EXTENT]...; "
             "repeatable): a run whose inputs have those extents takes that "
             "code, any other run the generic code; CPU target"),
    cl::value_desc("name=extent,..."));

int fail(const llvm::Twine &message) {
  llvm::errs() << "tc-compile: error: " << message << "\n";
  return 1;
}

/// The process's private (anonymous) resident memory in MB, from Linux's
/// /proc/self/status (RssAnon); negative where that is not available.
double privateMegabytes() {
  auto status = llvm::MemoryBuffer::getFileAsStream("/proc/self/status");
  if (!status)
    return -1;
  for (StringRef line : llvm::split((*status)->getBuffer(), '\n')) {
    if (!line.consume_front("RssAnon:"))
      continue;
    uint64_t kilobytes = 0;
    if (!line.trim().split(' ').first.getAsInteger(10, kilobytes))
      return kilobytes / 1024.0;
  }
  return -1;
}

/// --timing: the stages' wall times, and the private memory the compiler
/// holds when each ends (which stage keeps what: issue 21's compile-memory
/// work reads it beside benchmarks/compile_time.py --timeline), printed as
/// a table when the compile ends (whether or not it succeeded).
struct StageTimer {
  using Clock = std::chrono::steady_clock;
  struct Stage {
    std::string name;
    double seconds, privateMB;
  };
  Clock::time_point begin = Clock::now();
  Clock::time_point start = begin;
  SmallVector<Stage> stages;
  static bool enabled() { return timing.getNumOccurrences() > 0; }
  void report(StringRef stage) {
    auto now = Clock::now();
    stages.push_back({stage.str(),
                      std::chrono::duration<double>(now - start).count(),
                      enabled() ? privateMegabytes() : -1});
    start = now;
  }
  /// Times each pass of `pm` with --timing=passes (its report is printed
  /// when `pm` is destroyed).
  static void timePasses(PassManager &pm) {
    if (timing == "passes")
      pm.enableTiming();
  }
  ~StageTimer() {
    if (!enabled() || stages.empty())
      return;
    double total = std::chrono::duration<double>(Clock::now() - begin).count();
    llvm::errs() << llvm::format("%-34s %9s %6s %11s\n", "stage", "seconds",
                                 "share", "private MB");
    for (const Stage &stage : stages) {
      llvm::errs() << llvm::format("%-34s %9.3f %5.1f%%", stage.name.c_str(),
                                   stage.seconds, 100.0 * stage.seconds / total);
      if (stage.privateMB >= 0)
        llvm::errs() << llvm::format(" %11.1f", stage.privateMB);
      llvm::errs() << "\n";
    }
    llvm::errs() << llvm::format("%-34s %9.3f\n", "total", total);
  }
};

LogicalResult writeModule(ModuleOp module, StringRef path, bool elide) {
  std::string error;
  auto output = openOutputFile(path, &error);
  if (!output) {
    llvm::errs() << "tc-compile: error: " << error << "\n";
    return failure();
  }
  OpPrintingFlags flags;
  if (elide)
    flags.elideLargeElementsAttrs(16).elideLargeResourceString(64);
  module->print(output->os(), flags);
  output->keep();
  return success();
}

/// Whether `a` and `b` name the same existing file.
bool sameFile(StringRef a, StringRef b) {
  bool same = false;
  return !llvm::sys::fs::equivalent(a, b, same) && same;
}

/// The output path, checked before anything is compiled: -o with an empty
/// name, a directory, a directory that does not exist or cannot be written,
/// or one of the compile's own inputs (the model, a --bind file) is refused
/// now, instead of after the compile or by overwriting the model. Returns
/// "" after printing the error.
std::string checkedOutputPath() {
  if (outputPath.getNumOccurrences() && outputPath.empty()) {
    fail("-o needs a file name (got an empty one)");
    return "";
  }
  std::string output = outputPath;
  bool toStdout = emit == Emit::Tc || emit == Emit::Llvm;
  if (output.empty() && toStdout)
    return "-";
  if (output.empty()) {
    llvm::SmallString<256> path(inputPath);
    llvm::sys::path::replace_extension(path, "so");
    output = path.str().str();
  }
  if (output == "-" && toStdout)
    return output;
  std::vector<std::string> inputs = {inputPath};
  for (const std::string &entry : bind)
    inputs.push_back(StringRef(entry).split('=').second.str());
  for (const std::string &input : inputs)
    if (sameFile(output, input) || output == input) {
      fail("the output '" + output + "' is an input of this compile ('" +
           input + "'); choose another -o");
      return "";
    }
  if (emit == Emit::GpuKernels)
    return output; // a directory, created when the kernels are written
  if (llvm::sys::fs::is_directory(output)) {
    fail("the output '" + output + "' is a directory; -o names the file to "
         "write");
    return "";
  }
  llvm::SmallString<256> directory(output);
  llvm::sys::path::remove_filename(directory);
  if (directory.empty())
    directory = ".";
  if (!llvm::sys::fs::is_directory(directory)) {
    fail("cannot write '" + output + "': the directory '" + directory +
         "' does not exist");
    return "";
  }
  if (llvm::sys::fs::access(directory, llvm::sys::fs::AccessMode::Write)) {
    fail("cannot write '" + output + "': the directory '" + directory +
         "' is not writable");
    return "";
  }
  return output;
}

/// Every input and output must have an element type the runtime knows.
LogicalResult checkSignature(func::FuncOp main) {
  bool ok = true;
  auto check = [&](Type type, StringRef what, unsigned index) {
    Type element = cast<ShapedType>(type).getElementType();
    // The metadata can name exactly the types the ABI carries.
    if (tc::moduleDtypeName(element).empty()) {
      llvm::errs() << "tc-compile: error: " << what << " " << index
                   << " has element type " << element
                   << ", which compiled models cannot take or return yet\n";
      ok = false;
    }
  };
  for (auto [i, type] : llvm::enumerate(main.getArgumentTypes()))
    check(type, "input", i);
  for (auto [i, type] : llvm::enumerate(main.getResultTypes()))
    check(type, "output", i);
  return success(ok);
}
/// The signature of a library compiled from a module with this @main: the
/// model's inputs and outputs, the compiler, the CPU `cpu` names with its
/// features, the CPU target then `gpuTargets`, and the compile mode (the
/// runtime reads it, module_abi.h: reduce-overhead changes how runs are
/// made, not the code).
FailureOr<tc::SignatureAttr>
artifactSignature(func::FuncOp main, StringRef name, StringRef cpu,
                  std::string &error, ArrayRef<std::string> gpuTargets = {},
                  StringRef mode = "default") {
  tc::SignatureAttr base = tc::host::buildSignature(main, name);
  tc::host::SharedLibraryOptions cpuOptions;
  cpuOptions.cpu = cpu.str();
  std::string cpuName;
  std::vector<std::string> features;
  if (failed(tc::host::describeTargetCpu(cpuOptions, cpuName, features, error)))
    return failure();
  MLIRContext *ctx = main.getContext();
  Builder b(ctx);
  SmallVector<StringRef> targets = {"cpu"};
  targets.append(gpuTargets.begin(), gpuTargets.end());
  SmallVector<StringRef> featureNames(features.begin(), features.end());
  return tc::SignatureAttr::get(
      ctx, base.getName(), base.getInputs(), base.getOutputs(),
      b.getStrArrayAttr(targets),
      b.getStringAttr("tc " TC_VERSION_STRING " llvm " LLVM_VERSION_STRING),
      b.getStringAttr(cpuName), b.getStrArrayAttr(featureNames), mode,
      base.getBuckets());
}

/// tc-run, which is installed beside tc-compile; `flag` is what needs it.
FailureOr<std::string> findTcRun(const char *argv0, StringRef flag) {
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&fail));
  llvm::SmallString<256> tcRun(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(tcRun, "tc-run");
  if (!llvm::sys::fs::can_execute(tcRun))
    return failure(fail(flag + " runs the model with tc-run, which is not "
                               "beside tc-compile ('" + tcRun.str() + "')"));
  return tcRun.str().str();
}

/// The tuning table --mode=max-autotune reads and updates: --tuning-table,
/// else one per machine in the compile cache (`cacheDirectory`; empty
/// with --no-cache: a file of this compile only, in `scratch`).
std::string tuningTablePath(StringRef cacheDirectory, StringRef scratch) {
  if (!tuningTable.empty())
    return tuningTable;
  // The machine that measured: its CPU, features and cores, and the code's
  // CPU.
  std::string device = llvm::sys::getHostCPUName().str();
  SmallVector<std::string> features;
  for (auto &feature : llvm::sys::getHostCPUFeatures())
    if (feature.second)
      features.push_back(feature.first().str());
  llvm::sort(features);
  device += ":" + llvm::join(features, ",") + ":" +
            std::to_string(std::thread::hardware_concurrency()) + ":" +
            cpuName.getValue();
  llvm::SmallString<256> path(cacheDirectory.empty() ? scratch : cacheDirectory);
  llvm::sys::path::append(path, "tuning",
                          "cpu-" + llvm::sys::getHostCPUName().str() + "-" +
                              llvm::utohexstr(llvm::xxh3_64bits(device), true) +
                              ".json");
  return path.str().str();
}

/// The graph stage (tc-graph-pipeline) on an imported module. With
/// --calibrate (`samples`), the fp32 graph first runs on the samples, so
/// that the precision policy, which comes after, sees how large the
/// activations get (Calibration.h).
LogicalResult runGraphPasses(MLIRContext &context, ModuleOp module,
                             const std::vector<tc_compile::CalibrationSample> &samples,
                             const char *argv0) {
  PassManager graph(&context);
  StageTimer::timePasses(graph);
  tc::GraphPipelineOptions options;
  options.precision = samples.empty() ? precision.getValue() : "fp32";
  tc::buildGraphPipeline(graph, options);
  if (failed(graph.run(module)))
    return failure();
  if (samples.empty())
    return success();
  tc_compile::CalibrationOptions calibration;
  calibration.samples = samples;
  FailureOr<std::string> tcRun = findTcRun(argv0, "--calibrate");
  if (failed(tcRun))
    return failure();
  calibration.tcRun = *tcRun;
  calibration.signature = [](func::FuncOp main, std::string &error) {
    return artifactSignature(main, "calibration", "host", error);
  };
  std::string error;
  if (failed(tc_compile::calibrate(module, calibration, error)))
    return failure(fail(error));
  PassManager policy(&context);
  StageTimer::timePasses(policy);
  tc::buildPrecisionPipeline(policy, precision);
  return policy.run(module);
}

/// How the GPU kernels are lowered, from the flags.
tc::gpu::KernelCompileOptions kernelOptions() {
  tc::gpu::KernelCompileOptions options;
  options.fpContract = gpuFpContract;
  return options;
}

/// The number of comma-separated entries of a --target value.
size_t specsCount(StringRef value) {
  SmallVector<StringRef> specs;
  value.split(specs, ',', -1, /*KeepEmpty=*/false);
  return specs.size();
}

/// Each --shape-bucket names symbolic dimensions of the model's inputs:
/// checked on the imported model, before the generic code is compiled.
LogicalResult checkBucketDimensions(ModuleOp module,
                                    ArrayRef<tc::cpu::ShapeBucket> buckets) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (buckets.empty() || !main)
    return success();
  std::set<std::string> named;
  for (unsigned i = 0; i < main.getNumArguments(); ++i)
    if (auto dims =
            main.getArgAttrOfType<ArrayAttr>(i, mlir::tc::kDimParamsAttr))
      for (auto dim : dims.getAsValueRange<StringAttr>())
        if (!dim.empty())
          named.insert(dim.str());
  for (auto [spec, bucket] : llvm::zip(shapeBucketSpecs, buckets))
    for (const auto &entry : bucket.dims)
      if (!named.count(entry.first))
        return failure(fail(
            "--shape-bucket=" + spec + ": no input has a dimension named '" +
            entry.first + "' (named dimensions: " +
            (named.empty() ? std::string("none") : llvm::join(named, ", ")) +
            ")"));
  return success();
}

/// --shape-bucket: each bucket imported with its dimensions fixed, through
/// the graph stage and the CPU pipeline (without the entry point), then
/// merged into `module`, the generic model lowered the same way, whose
/// @main took `genericInputs`; then the entry point that chooses between
/// them.
LogicalResult compileShapeBuckets(MLIRContext &context, ModuleOp module,
                                  ArrayRef<tc::cpu::ShapeBucket> buckets,
                                  const tc::onnx::ImportOptions &options,
                                  ArrayRef<Type> genericInputs,
                                  const tc::cpu::CpuPipelineOptions &pipeline,
                                  StageTimer &timer) {
  for (auto [i, bucket] : llvm::enumerate(buckets)) {
    std::string flag = "--shape-bucket=" + shapeBucketSpecs[i];
    tc::onnx::ImportOptions bucketOptions = options;
    bucketOptions.dimParams = bucket.dims;
    tc::onnx::ImportResult result =
        tc::onnx::importOnnxFile(context, inputPath, bucketOptions);
    if (!result.succeeded()) {
      llvm::errs() << "tc-compile: error: " << flag << ":\n";
      result.printErrors(llvm::errs(), inputPath);
      return failure();
    }
    ModuleOp fixed = *result.module;
    if (failed(runGraphPasses(context, fixed, {}, nullptr)))
      return failure();
    tc::host::releaseUnreferencedResources(&context, {module, fixed});
    auto main = fixed.lookupSymbol<func::FuncOp>("main");
    std::string error;
    FailureOr<SmallVector<int64_t>> guard =
        main ? tc::cpu::bucketGuard(genericInputs, main.getArgumentTypes(), error)
             : FailureOr<SmallVector<int64_t>>(failure());
    if (failed(guard))
      return failure(fail(flag + ": " + (error.empty() ? "no @main" : error)));
    if (failed(checkSignature(main)))
      return failure();
    PassManager lowering(&context);
    StageTimer::timePasses(lowering);
    tc::cpu::buildCpuPipeline(lowering, pipeline);
    if (failed(lowering.run(fixed)))
      return failure(fail(flag + ": code generation failed (see the "
                                 "diagnostics above)"));
    if (failed(tc::cpu::mergeShapeBucket(module, fixed, *guard, bucket, error)))
      return failure(fail(flag + ": " + error));
    timer.report("shape bucket " + bucket.describe());
  }
  PassManager entry(&context);
  entry.addPass(tc::cpu::createCpuEmitEntryPass());
  if (failed(entry.run(module)))
    return failure(fail("emitting the entry point failed (see the "
                        "diagnostics above)"));
  return success();
}

/// "cuda:sm_90,rocm:gfx942": the targets the kernels are configured for.
std::string targetNames(ArrayRef<tc::gpu::GpuTarget> targets) {
  std::string names;
  for (const tc::gpu::GpuTarget &target : targets)
    names += (names.empty() ? "" : ",") + target.name();
  return names;
}

/// The GPU code of `module` for `targets`, in place: the vendor-neutral
/// kernel pipeline (then `afterKernels`), each target's device lowering,
/// serialization and offline check (its image, or the error, handed to
/// `onImage`, which adds what the module carries to `images` and says
/// whether to go on), then the host code with those images. Fails, after
/// the message, when a pipeline fails or `onImage` stops.
LogicalResult lowerGpuCode(
    MLIRContext &context, ModuleOp module, ArrayRef<tc::gpu::GpuTarget> targets,
    function_ref<LogicalResult()> afterKernels,
    function_ref<bool(const tc::gpu::GpuTarget &,
                      FailureOr<tc::gpu::GpuImage> &, const std::string &,
                      SmallVectorImpl<Attribute> &)>
        onImage) {
  PassManager kernels(&context);
  StageTimer::timePasses(kernels);
  tc::gpu::GpuPipelineOptions kernelPipeline;
  kernelPipeline.targets = targetNames(targets);
  kernelPipeline.candidates = gpuCandidates;
  tc::gpu::buildGpuKernelPipeline(kernels, kernelPipeline);
  if (failed(kernels.run(module))) {
    fail("GPU code generation failed (see the diagnostics above)");
    return failure();
  }
  if (failed(afterKernels()))
    return failure();
  SmallVector<Attribute> images;
  for (const tc::gpu::GpuTarget &gpuTarget : targets) {
    std::string error;
    FailureOr<tc::gpu::GpuImage> image =
        tc::gpu::compileKernels(module, gpuTarget, error, kernelOptions());
    if (!onImage(gpuTarget, image, error, images))
      return failure();
  }
  module->setAttr(mlir::tc::kGpuImagesAttr, ArrayAttr::get(&context, images));
  PassManager host(&context);
  StageTimer::timePasses(host);
  tc::gpu::buildGpuHostPipeline(host, gpuCandidate);
  if (failed(host.run(module))) {
    fail("GPU host code generation failed (see the diagnostics above)");
    return failure();
  }
  return success();
}

/// --emit=gpu-kernels: the vendor-neutral kernel pipeline, then each GPU
/// target's lowering, serialization and offline check; the binaries and
/// their assembly go into the directory -o names.
int compileGpuKernels(MLIRContext &context, ModuleOp module,
                      ArrayRef<tc::gpu::GpuTarget> targets, StringRef dumpDir,
                      StageTimer &timer) {
  if (outputPath.empty())
    return fail("--emit=gpu-kernels needs -o DIR");
  if (std::error_code ec = llvm::sys::fs::create_directories(outputPath))
    return fail("cannot create '" + outputPath + "': " + ec.message());
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return fail("the imported module has no @main");
  if (failed(checkSignature(main)))
    return 1;
  module->setAttr(
      mlir::tc::kSignatureAttr,
      tc::host::buildSignature(main, llvm::sys::path::stem(inputPath)));
  auto path = [](StringRef dir, const Twine &name) {
    llvm::SmallString<256> result(dir);
    llvm::sys::path::append(result, name);
    return result.str().str();
  };
  auto afterKernels = [&]() -> LogicalResult {
    timer.report("kernel generation");
    if (!dumpDir.empty())
      return writeModule(module, path(dumpDir, "02-gpu-kernels.mlir"), true);
    return success();
  };
  // Every target is tried, so one run reports them all; the host code is
  // lowered too (not emitted): its failures are the model's on every GPU
  // target.
  bool ok = true;
  auto onImage = [&](const tc::gpu::GpuTarget &gpuTarget,
                     FailureOr<tc::gpu::GpuImage> &image,
                     const std::string &error, SmallVectorImpl<Attribute> &) {
    if (failed(image)) {
      fail(gpuTarget.name() + ": " + error);
      ok = false;
      return true;
    }
    std::string stem = gpuTarget.name();
    std::replace(stem.begin(), stem.end(), ':', '-');
    auto write = [&](const std::string &file, StringRef bytes) {
      std::string message;
      auto output = openOutputFile(file, &message);
      if (!output) {
        fail(message);
        return false;
      }
      output->os() << bytes;
      output->keep();
      return true;
    };
    std::string listing;
    for (const std::string &kernel : image->kernels)
      listing += kernel + "\n";
    StringRef assemblyExtension = gpuTarget.backend->assemblySuffix();
    if (!write(path(outputPath, stem + ".kernels"), listing) ||
        (!image->binary.empty() &&
         !write(path(outputPath, stem + "." + image->format), image->binary)) ||
        (!image->assembly.empty() && image->format != "ptx" &&
         !write(path(outputPath, stem + assemblyExtension.str()),
                image->assembly))) {
      return false;
    }
    llvm::outs() << gpuTarget.name() << ": ok, " << image->kernels.size()
                 << " kernels, " << image->format << " checked offline\n";
    timer.report(gpuTarget.name());
    return true;
  };
  if (failed(lowerGpuCode(context, module, targets, afterKernels, onImage)))
    return 1;
  llvm::outs() << "host code: ok\n";
  return ok ? 0 : 1;
}
/// The compile cache of --cache-dir / TC_CACHE_DIR with the bound of
/// TC_CACHE_MAX_BYTES; failure (after the message) for a bad bound or
/// when there is no directory to use.
FailureOr<tc::cache::CompileCache> openCache() {
  std::string directory =
      cacheDir.empty() ? tc::cache::CompileCache::defaultDirectory()
                       : cacheDir.getValue();
  if (directory.empty()) {
    fail("no compile cache directory: set TC_CACHE_DIR or HOME, pass "
         "--cache-dir, or --no-cache");
    return failure();
  }
  uint64_t maxBytes = tc::cache::CompileCache::kDefaultMaxBytes;
  if (const char *bound = std::getenv("TC_CACHE_MAX_BYTES"); bound && *bound) {
    FailureOr<uint64_t> parsed = tc::cache::CompileCache::parseSize(bound);
    if (failed(parsed)) {
      fail(std::string("TC_CACHE_MAX_BYTES='") + bound +
           "' is not a size (bytes, or with K, M, G or T)");
      return failure();
    }
    maxBytes = *parsed;
  }
  return tc::cache::CompileCache(directory, maxBytes, llvm::errs());
}

/// TC_REMOTE_CACHE's cache (TC_REMOTE_CACHE_TIMEOUT_MS bounds each wait,
/// 2000 by default), or none; a malformed setting is a warning, as a
/// remote cache that does not answer is: it never fails a compile.
std::optional<tc::cache::RemoteCache> openRemoteCache() {
  const char *url = std::getenv("TC_REMOTE_CACHE");
  if (!url || !*url)
    return std::nullopt;
  unsigned timeoutMs = 2000;
  if (const char *t = std::getenv("TC_REMOTE_CACHE_TIMEOUT_MS"); t && *t) {
    if (StringRef(t).getAsInteger(10, timeoutMs) || timeoutMs == 0) {
      llvm::errs() << "tc-compile: warning: TC_REMOTE_CACHE_TIMEOUT_MS='" << t
                   << "' is not a positive number of milliseconds; using "
                      "2000\n";
      timeoutMs = 2000;
    }
  }
  std::string error;
  FailureOr<tc::cache::RemoteCache> remote =
      tc::cache::RemoteCache::open(url, timeoutMs, error);
  if (failed(remote)) {
    llvm::errs() << "tc-compile: warning: " << error
                 << "; going on with the local cache only\n";
    return std::nullopt;
  }
  return std::move(*remote);
}

/// The cache key of this compile: the model's bytes and name (model.so
/// records the name), the --bind files' contents, and every option that
/// changes the code, with --cpu=host resolved to this CPU's name and
/// features. External data is checked by the cache itself (its .deps).
FailureOr<std::string> computeCacheKey(std::string &error) {
  tc::cache::KeyBuilder key;
  if (failed(key.addFile("model", inputPath, error)))
    return failure();
  key.add("name", llvm::sys::path::stem(inputPath));
  for (const std::string &entry : bind) {
    auto [name, file] = StringRef(entry).split('=');
    key.add("bind", name);
    if (failed(key.addFile("bind-file", file, error)))
      return failure();
  }
  key.add("target", target);
  std::string cpu = cpuName;
  if (cpu == "host") {
    cpu = "host:" + llvm::sys::getHostCPUName().str();
    SmallVector<std::string> features;
    for (auto &feature : llvm::sys::getHostCPUFeatures())
      features.push_back((feature.second ? "+" : "-") + feature.first().str());
    llvm::sort(features);
    cpu += ":" + llvm::join(features, ",");
  }
  key.add("cpu", cpu);
  key.add("max-workgroups", std::to_string(maxWorkgroups));
  key.add("winograd", winograd ? "1" : "0");
  key.add("channels-last", channelsLast ? "1" : "0");
  key.add("gpu-fp-contract", gpuFpContract ? "1" : "0");
  key.add("precision", precision);
  // A calibration's result depends on its samples' bytes.
  if (!calibrateDir.empty()) {
    std::vector<std::string> files;
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(calibrateDir, ec), end;
         it != end && !ec; it.increment(ec))
      if (llvm::sys::fs::is_regular_file(it->path()))
        files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const std::string &file : files) {
      // Named within the directory: the same samples elsewhere are a hit.
      key.add("calibration-file", StringRef(file).drop_front(
                                      StringRef(calibrateDir).size()));
      if (failed(key.addFile("calibration-bytes", file, error)))
        return failure();
    }
  }
  key.add("emulate-matrix-cores", emulatedMatrixCores);
  key.add("gpu-candidates", std::to_string(gpuCandidates));
  key.add("gpu-candidate", std::to_string(gpuCandidate));
  // max-autotune's result is its own entry (tuned once, then a hit); a
  // given table's configurations are part of the code.
  key.add("mode", mode);
  if (!tuningTable.empty() && llvm::sys::fs::exists(tuningTable) &&
      failed(key.addFile("tuning-table", tuningTable, error)))
    return failure();
  for (const std::string &spec : shapeBucketSpecs)
    key.add("shape-bucket", spec);
  return key.finish();
}

int printCacheStats() {
  FailureOr<tc::cache::CompileCache> cache = openCache();
  if (failed(cache))
    return 1;
  tc::cache::CacheStats stats = cache->stats();
  llvm::outs() << "directory: " << stats.directory << "\n"
               << "entries: " << stats.entries << "\n"
               << "bytes: " << stats.bytes << " (bound " << stats.maxBytes
               << ")\n"
               << "hits: " << stats.hits << "\n"
               << "misses: " << stats.misses << "\n";
  return 0;
}
} // namespace

int main(int argc, char **argv) {
#if defined(__GLIBC__)
  // One malloc arena for every thread. The code generation threads free
  // their modules' memory at different times, and with an arena each, the
  // pages one thread frees stay resident beside the ones another allocates,
  // which dominates peak memory for small models (docs/compile-time.md).
  // The threads spend their time in LLVM's code generation, not in malloc,
  // so sharing the arena costs no measurable compile time.
  mallopt(M_ARENA_MAX, 1);
#endif
  llvm::InitLLVM init(argc, argv);
  // --target and --emulate-matrix-cores name the registered back ends.
  tc::registerAllGpuBackends();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "tc model compiler\n");
  if (cacheStats)
    return printCacheStats();
  if (inputPath.empty())
    return fail("no model given (usage: tc-compile model.onnx -o model.so; "
                "--help lists the options)");

  bool cpuTarget = false, emulation = false, emulateInReverse = false;
  std::vector<tc::gpu::GpuTarget> gpuTargets;
  {
    SmallVector<StringRef> specs;
    StringRef(target).split(specs, ',', -1, /*KeepEmpty=*/false);
    if (specs.empty())
      return fail("--target is empty; supported targets: cpu, " +
                  tc::gpu::supportedGpuTargets());
    for (StringRef spec : specs) {
      spec = spec.trim();
      if (spec == "cpu") {
        cpuTarget = true;
        continue;
      }
      // Testing: the GPU kernels run on the CPU (docs/gpu-abi.md); `:reverse`
      // runs their blocks and threads last to first, a race check.
      if (spec.consume_front("gpu-emulation")) {
        if (!spec.empty() && spec != ":reverse")
          return fail("--target: unknown gpu-emulation variant '" +
                      spec.drop_front().str() +
                      "'; use gpu-emulation or gpu-emulation:reverse");
        emulation = true;
        emulateInReverse = !spec.empty();
        continue;
      }
      std::string error;
      FailureOr<tc::gpu::GpuTarget> parsed = tc::gpu::parseGpuTarget(spec, error);
      if (failed(parsed))
        return fail("--target: " + error);
      gpuTargets.push_back(*parsed);
    }
  }
  if (emulation && (specsCount(target) != 1))
    return fail("--target=gpu-emulation cannot be combined with other targets");
  if (emulatedMatrixCores != "none") {
    std::string error;
    if (failed(tc::gpu::parseGpuTarget(emulatedMatrixCores, error)))
      return fail("--emulate-matrix-cores: " + error + " (or none)");
  }
  if (gpuCandidates < 0 || gpuCandidate < -1)
    return fail("--gpu-candidates must be at least 0 and --gpu-candidate at "
                "least -1");
  if ((gpuCandidates != 0 || gpuCandidate != -1) && gpuTargets.empty() &&
      !emulation)
    return fail("--gpu-candidates and --gpu-candidate need a GPU --target "
                "(or gpu-emulation)");
  if (emit == Emit::GpuKernels && gpuTargets.empty())
    return fail("--emit=gpu-kernels needs a GPU --target (cuda:<sm> or "
                "rocm:<gfx>)");
  // The CPU code is always there: the reference path a model.so falls back
  // to (tc-run --device=cpu), whatever GPU targets it also carries.
  (void)cpuTarget;
  if (maxWorkgroups < 1)
    return fail("--max-workgroups must be at least 1");
  if (precision != "fp32" && precision != "tf32" && precision != "fp16" &&
      precision != "bf16")
    return fail("--precision: unknown precision '" + precision +
                "'; use fp32, tf32, fp16 or bf16");
  const bool autotune = mode == "max-autotune";
  if (mode != "default" && mode != "reduce-overhead" && !autotune)
    return fail("--mode: unknown mode '" + mode +
                "'; use default, reduce-overhead or max-autotune");
  // max-autotune for a GPU this host may lack: the library carries each
  // contraction kernel's best few configurations, timed on the GPU at the
  // model's first run there (or ahead of time by tc-tune).
  if (autotune && !gpuTargets.empty() && gpuCandidates.getNumOccurrences() == 0)
    gpuCandidates.setValue(kAutotuneGpuCandidates);
  if (autotune && emulation)
    return fail("--mode=max-autotune tunes the CPU's kernels; "
                "--target=gpu-emulation is a test target without them");
  if (autotune && emit != Emit::So && emit != Emit::Llvm)
    return fail("--mode=max-autotune tunes compiled code (--emit=so or "
                "--emit=llvm)");
  if (!autotune && (!autotuneInputs.empty() ||
                    autotuneBudget.getNumOccurrences() > 0))
    return fail("--autotune-inputs and --autotune-budget need "
                "--mode=max-autotune");
  if (!(autotuneBudget >= 0))
    return fail("--autotune-budget must be a number of seconds, at least 0");
  if (!autotune && !tuningTable.empty() && !llvm::sys::fs::exists(tuningTable))
    return fail("--tuning-table: '" + tuningTable + "' does not exist");
  std::vector<std::string> autotuneInputFiles;
  if (!autotuneInputs.empty()) {
    std::string error;
    FailureOr<std::vector<tc_compile::CalibrationSample>> samples =
        tc_compile::findCalibrationSamples(autotuneInputs, error,
                                           "--autotune-inputs");
    if (failed(samples))
      return fail(error);
    autotuneInputFiles = samples->front().inputs;
  }
  std::vector<tc_compile::CalibrationSample> calibrationSamples;
  if (!calibrateDir.empty()) {
    if (precision != "fp16")
      return fail("--calibrate looks for activations beyond fp16's range: it "
                  "needs --precision=fp16 (bf16 and tf32 have f32's range)");
    if (!shapeBucketSpecs.empty())
      return fail("--calibrate and --shape-bucket cannot be combined yet: a "
                  "bucket's code would not see the calibration");
    std::string error;
    FailureOr<std::vector<tc_compile::CalibrationSample>> samples =
        tc_compile::findCalibrationSamples(calibrateDir, error);
    if (failed(samples))
      return fail(error);
    calibrationSamples = std::move(*samples);
  }
  {
    std::string error;
    if (failed(tc::host::checkCpuName(cpuName, error)))
      return fail(error);
  }
  SmallVector<tc::cpu::ShapeBucket> buckets;
  for (const std::string &spec : shapeBucketSpecs) {
    std::string error;
    FailureOr<tc::cpu::ShapeBucket> bucket = tc::cpu::parseShapeBucket(spec, error);
    if (failed(bucket))
      return fail("--shape-bucket=" + spec + ": " + error);
    buckets.push_back(std::move(*bucket));
  }
  if (!buckets.empty() && (!gpuTargets.empty() || emulation))
    return fail("--shape-bucket: shape buckets are compiled for the CPU "
                "target only; drop the GPU --target or the buckets");
  if (!buckets.empty() && emit != Emit::So && emit != Emit::Llvm)
    return fail("--shape-bucket applies to compiled code (--emit=so or "
                "--emit=llvm)");
  std::string output;
  if (!checkOnly) {
    output = checkedOutputPath();
    if (output.empty())
      return 1;
  }

  // The compile cache: a hit is model.so without compiling.
  StageTimer timer;
  std::optional<tc::cache::CompileCache> cache;
  std::optional<tc::cache::RemoteCache> remote;
  std::string cacheKey;
  if (!checkOnly && emit == Emit::So && !noCache && dumpDir.empty()) {
    FailureOr<tc::cache::CompileCache> opened = openCache();
    if (failed(opened))
      return 1;
    cache.emplace(std::move(*opened));
    remote = openRemoteCache();
    if (remote)
      cache->setRemote(&*remote);
    // A model or --bind file that cannot be read is the importer's to
    // report, in its words; the compile then stops there.
    std::string error;
    FailureOr<std::string> key = computeCacheKey(error);
    if (failed(key)) {
      cache.reset();
    } else {
      cacheKey = *key;
      switch (cache->fetch(cacheKey, output)) {
      case tc::cache::CompileCache::Hit::Local:
        timer.report("cache hit");
        return 0;
      case tc::cache::CompileCache::Hit::Remote:
        timer.report("remote cache hit");
        return 0;
      case tc::cache::CompileCache::Hit::None:
        break;
      }
      timer.report("cache lookup (a miss)");
    }
  }

  // The MLIR half of the compile runs in a scope of its own: it ends with
  // the model translated to LLVM IR, and the context, with everything it
  // uniqued, is freed before LLVM's code generation, where the compile's
  // memory peaks.
  tc::host::SharedLibraryOptions libraryOptions;
  tc::host::TranslatedLibraryPtr translated;
  std::vector<std::string> filesRead;
  std::string error;
  {
    MLIRContext context;
    // The compile report: remarks (the precision policy's ops kept in f32,
    // each naming its ONNX node) go to stderr; everything else to the
    // default handlers.
    ScopedDiagnosticHandler remarks(&context, [](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Remark)
        return failure();
      llvm::errs() << "tc-compile: remark: " << diag.str() << "\n";
      return success();
    });
    DialectRegistry registry;
    tc::registerAllTcToolDialects(registry);
    tc::host::registerSharedLibraryTranslations(registry);
    context.appendDialectRegistry(registry);

    tc::onnx::ImportOptions options;
    for (const std::string &entry : bind) {
      auto [name, file] = llvm::StringRef(entry).split('=');
      if (name.empty() || file.empty())
        return fail("--bind expects NAME=FILE, got '" + entry + "'");
      options.boundInputs[name.str()] = file.str();
    }
    if (!dumpDir.empty())
      if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir))
        return fail("cannot create --dump-ir directory '" + dumpDir +
                    "': " + ec.message());
    auto dumpPath = [&](StringRef name) {
      llvm::SmallString<256> path(dumpDir);
      llvm::sys::path::append(path, name);
      return path.str().str();
    };

    tc::onnx::ImportResult result =
        tc::onnx::importOnnxFile(context, inputPath, options);
    if (!result.succeeded()) {
      result.printErrors(llvm::errs(), inputPath);
      return 1;
    }
    timer.report("import");
    for (const std::string &file : result.filesRead)
      if (!checkOnly && sameFile(output, file))
        return fail("the output '" + output +
                    "' is an external-data file of the model ('" + file +
                    "'); choose another -o");
    ModuleOp module = *result.module;
    if (failed(checkBucketDimensions(module, buckets)))
      return 1;
    if (checkOnly) {
      size_t ops = 0;
      module->walk([&](Operation *) { ++ops; });
      llvm::outs() << inputPath << ": ok, the whole model is supported (" << ops
                   << " ops after import)\n";
      return 0;
    }
    if (!dumpDir.empty() &&
        failed(writeModule(module, dumpPath("00-import.mlir"), true)))
      return 1;

    if (failed(runGraphPasses(context, module, calibrationSamples, argv[0])))
      return 1;
    // Weights the graph passes replaced (folded, re-laid out) are dead: free
    // them before code generation doubles what is alive.
    tc::host::releaseUnreferencedResources(&context, module);
    timer.report("graph passes");
    if (!dumpDir.empty() &&
        failed(writeModule(module, dumpPath("01-tc.mlir"), true)))
      return 1;
    if (emit == Emit::Tc)
      return failed(writeModule(module, output, false));

    if (emit == Emit::GpuKernels)
      return compileGpuKernels(context, module, gpuTargets, dumpDir, timer);

    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main)
      return fail("the imported module has no @main");
    if (failed(checkSignature(main)))
      return 1;
    StringRef modelName = llvm::sys::path::stem(inputPath);
    // What the artifact needs: the runtime refuses it on a CPU without the
    // features it names, and tc-run --print-signature shows them.
    {
      std::string error;
      std::vector<std::string> gpuNames;
      for (const tc::gpu::GpuTarget &gpuTarget : gpuTargets)
        gpuNames.push_back(gpuTarget.name());
      FailureOr<tc::SignatureAttr> signature =
          artifactSignature(main, modelName, cpuName, error, gpuNames, mode);
      if (failed(signature))
        return fail(error);
      module->setAttr(mlir::tc::kSignatureAttr, *signature);
    }

    // GPU targets: kernels per target, then the shared host code, linked into
    // the same library as the CPU code.
    OwningOpRef<ModuleOp> gpuHost;
    if (!gpuTargets.empty()) {
      gpuHost = module.clone();
      auto onImage = [&](const tc::gpu::GpuTarget &gpuTarget,
                         FailureOr<tc::gpu::GpuImage> &image,
                         const std::string &error,
                         SmallVectorImpl<Attribute> &images) {
        if (failed(image)) {
          fail(gpuTarget.name() + ": " + error);
          return false;
        }
        // The driver JIT-compiles PTX for GPUs newer than the cubin's.
        Builder builder(&context);
        auto entry = [&](StringRef format, StringRef data) {
          images.push_back(builder.getDictionaryAttr(
              {builder.getNamedAttr("target",
                                    builder.getStringAttr(gpuTarget.name())),
               builder.getNamedAttr("format", builder.getStringAttr(format)),
               builder.getNamedAttr("data", builder.getStringAttr(data))}));
        };
        entry(image->format, image->binary);
        if (image->format == "cubin" && !image->assembly.empty())
          entry("ptx", image->assembly);
        return true;
      };
      if (failed(lowerGpuCode(
              context, *gpuHost, gpuTargets, [] { return success(); },
              onImage)))
        return 1;
      timer.report("gpu code");
    }

    PassManager lowering(&context);
    StageTimer::timePasses(lowering);
    tc::cpu::CpuPipelineOptions pipelineOptions;
    pipelineOptions.maxWorkgroups = maxWorkgroups;
    pipelineOptions.winograd = winograd;
    pipelineOptions.channelsLast = channelsLast;
    // The GPU host code shares the imported weights; without it, `module` is
    // the context's only module.
    pipelineOptions.releaseReplacedWeights = !gpuHost;
    // With shape buckets, the entry point comes once they are merged.
    pipelineOptions.emitEntry = buckets.empty();
    pipelineOptions.configTable = tuningTable;
    // Removed when the compile ends: a table that lives only for it.
    llvm::SmallString<128> scratchTable;
    llvm::scope_exit removeScratch([&] {
      if (!scratchTable.empty())
        llvm::sys::fs::remove_directories(scratchTable);
    });
    if (autotune) {
      tc_compile::AutotuneOptions tuning;
      tuning.pipeline = pipelineOptions;
      tuning.cpu = cpuName;
      std::string cacheDirectory;
      if (cache)
        cacheDirectory = cacheDir.empty()
                             ? tc::cache::CompileCache::defaultDirectory()
                             : cacheDir.getValue();
      else if (tuningTable.empty() &&
               llvm::sys::fs::createUniqueDirectory("tc-tuning", scratchTable))
        return fail("--mode=max-autotune: cannot create a temporary directory");
      tuning.table = tuningTablePath(cacheDirectory, scratchTable);
      FailureOr<std::string> tcRun = findTcRun(argv[0], "--mode=max-autotune");
      if (failed(tcRun))
        return 1;
      tuning.tcRun = *tcRun;
      tuning.inputs = autotuneInputFiles;
      tuning.budgetSeconds = autotuneBudget;
      tuning.signature = [](func::FuncOp main, std::string &error) {
        return artifactSignature(main, "autotune", cpuName, error);
      };
      tc_compile::AutotuneSummary summary;
      std::string error;
      if (failed(
              tc_compile::autotuneCpuKernels(module, tuning, summary, error)))
        return fail(error);
      llvm::errs() << "tc-compile: max-autotune: " << summary.kernels
                   << " tunable kernels (" << summary.keys << " distinct), "
                   << summary.keysFromTable << " already in the tuning table";
      if (summary.trials > 0)
        llvm::errs() << "; " << summary.trials << " candidate compiles, "
                     << summary.changed << " changed, tuned kernels "
                     << llvm::format("%.3f", summary.heuristicMs) << " -> "
                     << llvm::format("%.3f", summary.tunedMs) << " ms per run";
      llvm::errs() << "; " << llvm::format("%.1f", summary.seconds) << " s"
                   << (summary.budgetExhausted
                           ? " (the budget ended the trials)"
                           : "")
                   << "\n";
      for (const std::string &change : summary.changes)
        llvm::errs() << "tc-compile: max-autotune:   " << change << "\n";
      if (!gpuTargets.empty())
        llvm::errs() << "tc-compile: note: max-autotune tunes the CPU code "
                        "here; the GPU kernels carry up to "
                     << gpuCandidates
                     << " alternative configurations each, timed on the GPU "
                        "at the model's first run there (or by tc-tune)\n";
      pipelineOptions.configTable = tuning.table;
      timer.report("autotune");
    }
    SmallVector<Type> genericInputs(main.getArgumentTypes());
    if (emulation) {
      tc::gpu::GpuPipelineOptions gpuOptions;
      gpuOptions.emulateInReverse = emulateInReverse;
      if (emulatedMatrixCores != "none")
        gpuOptions.emulatedMatrixTarget = emulatedMatrixCores;
      gpuOptions.candidates = gpuCandidates;
      gpuOptions.candidate = gpuCandidate;
      tc::gpu::buildGpuEmulationPipeline(lowering, gpuOptions);
    } else
      tc::cpu::buildCpuPipeline(lowering, pipelineOptions);
    if (!dumpDir.empty()) {
      context.disableMultithreading();
      OpPrintingFlags flags;
      flags.elideLargeElementsAttrs(16).elideLargeResourceString(64);
      lowering.enableIRPrintingToFileTree(
          [](Pass *, Operation *) { return false; },
          [](Pass *, Operation *) { return true; },
          /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/true,
          /*printAfterOnlyOnFailure=*/false, dumpPath("passes"), flags);
    }
    if (failed(lowering.run(module)))
      return fail("code generation failed (see the diagnostics above)");
    timer.report("code generation");
    if (!buckets.empty() &&
        failed(compileShapeBuckets(context, module, buckets, options,
                                   genericInputs, pipelineOptions, timer)))
      return 1;
    if (emit == Emit::Llvm)
      return failed(writeModule(module, output, false));

    libraryOptions.cpu = cpuName;
    libraryOptions.onStage = [&](StringRef stage) { timer.report(stage); };
    // `module` and `gpuHost` are all the modules of this context.
    libraryOptions.consumeModules = true;
    if (gpuHost)
      libraryOptions.linkWith.push_back(*gpuHost);
    if (!dumpDir.empty())
      libraryOptions.llvmIrPath = dumpPath("99-model.ll");
    translated =
        tc::host::translateSharedLibrary(module, libraryOptions, error);
    if (!translated)
      return fail(error);
    filesRead = result.filesRead;
    libraryOptions.linkWith.clear();
  }
  if (failed(tc::host::emitTranslatedLibrary(std::move(translated), output,
                                             libraryOptions, error)))
    return fail(error);
  if (cache) {
    cache->store(cacheKey, filesRead, output);
    timer.report("cache store");
  }
  return 0;
}
