//===- SharedLibrary.cpp - LLVM dialect module to model.so ----------------===//
//
// The object is produced in-process by LLVM's TargetMachine; the link runs
// ld.lld (Debian's lld-22) as a child process, because the lld library is
// not part of the LLVM packages we build against. The .so gets DT_NEEDED
// entries for libm and libc and carries compiler-rt's builtins (f16/bf16
// conversions), so it loads into any process.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Host/SharedLibrary.h"
#include "tc/Support/WeightStore.h"
#include "tc/Target/Host/ConstantsObject.h"
#include "tc/Target/Host/GroupedTranslation.h"
#include "tc/Target/Host/ModelSupport.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Transforms/Utils/SplitModule.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Signals.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/TargetParser/Host.h"

#include "tc-runtime/cpu_features.h"
#include "tc-runtime/module_seal.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace mlir::tc::host {

std::string findLinker() {
  for (const char *candidate :
       {"/usr/lib/llvm-22/bin/ld.lld", "/usr/bin/ld.lld-22"})
    if (llvm::sys::fs::can_execute(candidate))
      return candidate;
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return "";
}

void registerSharedLibraryTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

namespace {

std::string findFirst(ArrayRef<const char *> candidates) {
  for (const char *candidate : candidates)
    if (llvm::sys::fs::exists(candidate))
      return candidate;
  return "";
}

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const SharedLibraryOptions &options, std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  if (failed(checkCpuName(options.cpu, error)))
    return nullptr;
  std::string cpu = options.cpu;
  std::string features;
  if (cpu == "host") {
    cpu = llvm::sys::getHostCPUName().str();
    for (auto &feature : llvm::sys::getHostCPUFeatures())
      features += (feature.second ? "+" : "-") + feature.first().str() + ",";
  }
  features += options.features;
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    error = "cannot create an LLVM target machine for CPU '" + cpu + "'";
  return machine;
}

/// A temporary file that exists only as an open descriptor
/// (openScratchFile); child processes reach it as /proc/self/fd/N (the
/// descriptor is inherited).
struct ScratchFile {
  int fd = -1;
  static FailureOr<ScratchFile> create(StringRef suffix, std::string &error) {
    ScratchFile file;
    // Never named, so a compile killed at any moment leaves nothing.
    file.fd = openScratchFile(suffix, error);
    if (file.fd < 0)
      return failure();
    // lld opens it through /proc/self/fd; keep it across exec.
    int flags = ::fcntl(file.fd, F_GETFD);
    if (flags >= 0)
      ::fcntl(file.fd, F_SETFD, flags & ~FD_CLOEXEC);
    return file;
  }
  ScratchFile() = default;
  ScratchFile(ScratchFile &&other) : fd(other.fd) { other.fd = -1; }
  ScratchFile &operator=(ScratchFile &&other) {
    std::swap(fd, other.fd);
    return *this;
  }
  ~ScratchFile() {
    if (fd >= 0)
      ::close(fd);
  }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd); }
};

/// Appends the seal to the open file `fd` (its whole contents) and syncs it.
LogicalResult sealFile(int fd, StringRef name, std::string &error) {
  auto fail = [&](StringRef what) {
    error = "cannot seal " + name.str() + ": " + what.str() + ": " +
            std::strerror(errno);
    return failure();
  };
  struct stat info;
  if (::fstat(fd, &info) != 0)
    return fail("fstat");
  // Chunks are whole seal blocks, so the checksum streams.
  std::vector<unsigned char> buffer(size_t(1) << 20);
  tc_seal_state state;
  tc_seal_init(&state);
  uint64_t size = static_cast<uint64_t>(info.st_size);
  for (uint64_t at = 0; at < size;) {
    size_t want = static_cast<size_t>(
        std::min<uint64_t>(buffer.size(), size - at));
    size_t got = 0;
    while (got < want) {
      ssize_t n = ::pread(fd, buffer.data() + got, want - got,
                          static_cast<off_t>(at + got));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return fail("read");
      got += static_cast<size_t>(n);
    }
    tc_seal_update(&state, buffer.data(), want);
    at += want;
  }
  unsigned char trailer[TC_SEAL_TRAILER_SIZE];
  tc_seal_write_trailer(trailer, size, tc_seal_finish(&state));
  if (::pwrite(fd, trailer, sizeof(trailer), static_cast<off_t>(size)) !=
      static_cast<ssize_t>(sizeof(trailer)))
    return fail("write");
  if (::fsync(fd) != 0)
    return fail("fsync");
  return success();
}

/// The weights of a library: written out in their region's layout to a
/// scratch file, to be appended once the library is linked.
struct Weights {
  ScratchFile file;
  ConstantsLayout layout;
};

/// Appends `weights` (appendConstants), if any, and the seal to the linked
/// library open as `fd`.
LogicalResult finishLibrary(int fd, StringRef name, const Weights *weights,
                            std::string &error) {
  if (weights &&
      failed(appendConstants(fd, weights->file.fd, weights->layout, error))) {
    error = "cannot write " + name.str() + ": " + error;
    return failure();
  }
  return sealFile(fd, name, error);
}

/// Links `objectPaths` into a sealed shared library at `outputPath`, with
/// `weights` appended for the runtime to map. lld
/// writes the library to its stdout (-o -), which is an unnamed file in the
/// output's directory (O_TMPFILE): the file gets the seal and a name only
/// when complete, and is renamed over the output, so a kill at any moment
/// leaves the previous file whole and, but for the instant between naming
/// and renaming, nothing else. Where the file system has no O_TMPFILE, lld
/// writes a named temporary beside the output instead (removed on SIGINT
/// and SIGTERM, left by SIGKILL).
LogicalResult linkSharedLibrary(ArrayRef<std::string> objectPaths,
                                const Weights *weights, StringRef outputPath,
                                const std::function<void(StringRef)> &stageDone,
                                std::string &error) {
  std::string linker = findLinker();
  if (linker.empty()) {
    error = "ld.lld (lld-22) not found; install Debian's lld-22";
    return failure();
  }
  llvm::SmallString<256> directory(outputPath);
  llvm::sys::path::remove_filename(directory);
  if (directory.empty())
    directory = ".";
  llvm::SmallString<256> temporary(directory);
  llvm::sys::path::append(temporary, "." +
                                         llvm::sys::path::filename(outputPath) +
                                         ".tmp-%%%%%%");
  int unnamed = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0777);
  llvm::scope_exit closeUnnamed([&] {
    if (unnamed >= 0)
      ::close(unnamed);
  });
  auto cannotCreate = [&](std::error_code ec) {
    error = "cannot create a temporary file in '" + directory.str().str() +
            "' for " + outputPath.str() + ": " + ec.message();
    return failure();
  };
  if (unnamed >= 0) {
    llvm::sys::fs::createUniquePath(temporary, temporary,
                                    /*MakeAbsolute=*/false);
  } else {
    int placeholder = -1;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(
            temporary, placeholder, temporary))
      return cannotCreate(ec);
    ::close(placeholder);
    llvm::sys::RemoveFileOnSignal(temporary);
  }
  // Removed on every failure below.
  llvm::FileRemover removeTemporary(temporary);
  llvm::scope_exit forgetTemporary(
      [&] { llvm::sys::DontRemoveFileOnSignal(temporary); });

  std::string output =
      unnamed >= 0 ? std::string("-") : temporary.str().str();
  SmallVector<std::string> args = {linker, "-shared", "--gc-sections",
                                   "-z", "noexecstack", "-z", "now",
                                   "-o", output};
  args.append(objectPaths.begin(), objectPaths.end());
  std::string builtins = findFirst(
      {"/usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.builtins-x86_64.a",
       "/usr/lib/llvm-22/lib/clang/22/lib/x86_64-pc-linux-gnu/"
       "libclang_rt.builtins.a"});
  if (!builtins.empty())
    args.push_back(builtins);
  int systemLibraries = 0;
  for (const char *library : {"libm.so.6", "libc.so.6"}) {
    std::string path = findFirst(
        {(std::string("/lib/x86_64-linux-gnu/") + library).c_str(),
         (std::string("/usr/lib/x86_64-linux-gnu/") + library).c_str()});
    if (!path.empty()) {
      args.push_back(path);
      ++systemLibraries;
    }
  }
  // With libc and libm on the line, anything still undefined (a runtime
  // helper that a lowering left behind, say) fails here, naming the symbol,
  // rather than when the library is loaded.
  if (systemLibraries == 2)
    args.append({"-z", "defs"});
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  FailureOr<ScratchFile> log = ScratchFile::create("log", error);
  if (failed(log))
    return failure();
  std::string logPath = log->path();
  std::string libraryPath =
      unnamed >= 0 ? "/proc/self/fd/" + std::to_string(unnamed) : logPath;
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(libraryPath),
                                          StringRef(logPath)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(linker, argRefs, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &message);
  if (rc != 0) {
    auto text = llvm::MemoryBuffer::getFile(logPath);
    error = "linking " + outputPath.str() + " with " + linker + " failed" +
            (message.empty() ? "" : ": " + message) +
            (text ? "\n" + (*text)->getBuffer().str() : "");
    return failure();
  }
  stageDone("link");
  if (unnamed >= 0) {
    if (failed(finishLibrary(unnamed, outputPath, weights, error)))
      return failure();
    llvm::sys::RemoveFileOnSignal(temporary);
    std::string self = "/proc/self/fd/" + std::to_string(unnamed);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temporary.c_str(),
                 AT_SYMLINK_FOLLOW) != 0) {
      error = "cannot write " + outputPath.str() + ": " + std::strerror(errno);
      return failure();
    }
  } else {
    int fd = ::open(temporary.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      error = "cannot write " + outputPath.str() + ": " + std::strerror(errno);
      return failure();
    }
    LogicalResult finished = finishLibrary(fd, outputPath, weights, error);
    ::close(fd);
    if (failed(finished))
      return failure();
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, outputPath)) {
    error = "cannot write " + outputPath.str() + ": " + ec.message();
    return failure();
  }
  removeTemporary.releaseFile();
  // The rename is durable once the directory is synced.
  int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd >= 0) {
    (void)::fsync(dirFd);
    ::close(dirFd);
  }
  return success();
}

} // namespace

LogicalResult checkCpuName(StringRef cpu, std::string &error) {
  if (cpu == "host")
    return success();
  llvm::InitializeNativeTarget();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, cpu, ""));
  if (info && info->isCPUStringValid(cpu))
    return success();
  std::string known;
  if (info)
    for (const llvm::SubtargetSubTypeKV &entry :
         info->getAllProcessorDescriptions())
      if (StringRef(entry.Key).starts_with("x86-64"))
        known += (known.empty() ? "" : ", ") + std::string(entry.Key);
  error = "--cpu=" + cpu.str() + ": not a CPU of " + triple.str() +
          " (use 'host', or an LLVM CPU name" +
          (known.empty() ? std::string("") : ": " + known + ", znver4, ...") +
          "; `llc -mcpu=help` lists them)";
  return failure();
}

namespace {

/// Emits `module` as an object into a new scratch file.
FailureOr<ScratchFile> emitObject(llvm::Module &module,
                                  llvm::TargetMachine &machine,
                                  std::string &error) {
  FailureOr<ScratchFile> object = ScratchFile::create("o", error);
  if (failed(object))
    return failure();
  llvm::raw_fd_ostream os(object->fd, /*shouldClose=*/false);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile)) {
    error = "the LLVM target cannot emit object files";
    return failure();
  }
  codegen.run(module);
  os.flush();
  if (os.has_error()) {
    error = "cannot write the object file: " + os.error().message();
    os.clear_error();
    return failure();
  }
  return object;
}

/// The most iterations of a loop LLVM's -O3 unrolls fully. By default it
/// unrolls any loop of known trip count whose unrolled body stays under 300
/// instructions. tc's kernels arrive register-tiled and unrolled by its own
/// passes; the loops they keep rolled (rows of 32 to 58 columns, copies)
/// LLVM then unrolled, and the SLP vectorizer and code generation of those
/// bodies took twice the memory of any other function (MobileNetV2's
/// depthwise convolutions, the compile's peak), for no run time difference
/// measured (docs/compile-time.md). Loops of up to this many iterations
/// (convolution windows, short tails) still unroll.
constexpr const char *kFullUnrollMaxCount = "16";

/// Sets LLVM's -unroll-full-max-count to kFullUnrollMaxCount once per
/// process, unless the command line set it.
void limitFullUnrolling() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::cl::Option *option =
        llvm::cl::getRegisteredOptions().lookup("unroll-full-max-count");
    if (option && option->getNumOccurrences() == 0)
      option->addOccurrence(0, option->ArgStr, kFullUnrollMaxCount);
  });
}

/// Optimizes `module` at -O3 for `machine`'s CPU.
LogicalResult optimize(llvm::Module &module, llvm::TargetMachine &machine,
                       std::string &error) {
  limitFullUnrolling();
  auto transform = makeOptimizingTransformer(3, 0, &machine);
  if (llvm::Error err = transform(&module)) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(err));
    return failure();
  }
  return success();
}

/// Inlines every local function called from exactly one place (a kernel
/// into its trampoline, mostly) and drops it: what -O3's inliner would do
/// first anyway, done before the module is split so that no such pair ends
/// up in two partitions.
void inlineSingleCallers(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration() || !function.hasLocalLinkage() ||
        !function.hasOneUse())
      continue;
    auto *call = dyn_cast<llvm::CallBase>(function.user_back());
    if (call && call->getCalledFunction() == &function)
      function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes;
  passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  passes.addPass(llvm::GlobalDCEPass());
  passes.run(module, modules);
}

/// How many groups of functions a consumed module is translated in: each
/// group's MLIR is freed as its LLVM IR appears, so more groups lower the
/// translation's peak towards the larger of the two representations.
constexpr unsigned kTranslationGroups = 16;

/// How many code partitions emitObjects makes per thread.
constexpr unsigned kPartitionsPerThread = 4;

/// Optimized object code for `module` on `jobs` threads: single-caller
/// functions are inlined into their callers, then the module is split into
/// kPartitionsPerThread partitions per thread (functions spread by
/// llvm::SplitModule, locals promoted to hidden symbols so the partitions
/// link), each carried to a thread of the pool as bitcode, since an
/// LLVMContext belongs to one thread, and optimized and compiled there by
/// its own TargetMachine. The kernels call
/// nothing but intrinsics and the C library, so the optimizer loses little
/// by seeing one partition at a time. With one job, or for `--dump-ir`'s
/// LLVM IR file, the whole module is optimized and compiled as one. The
/// split module and its context (`ownedContext`: its uniqued constants,
/// types and metadata, and the heap pages they pin, 6 MB of MobileNetV2's
/// private memory during code generation) are freed before the threads
/// start.
FailureOr<std::vector<ScratchFile>>
emitObjects(std::unique_ptr<llvm::Module> &owned,
            std::unique_ptr<llvm::LLVMContext> &ownedContext,
            llvm::TargetMachine &machine,
            const SharedLibraryOptions &options, unsigned jobs,
            const std::function<void(StringRef)> &stageDone,
            std::string &error) {
  llvm::Module &module = *owned;
  std::vector<ScratchFile> objects;
  size_t functions = 0;
  for (llvm::Function &function : module)
    functions += !function.isDeclaration();
  if (jobs <= 1 || functions < 2 * jobs || !options.llvmIrPath.empty()) {
    if (failed(optimize(module, machine, error)))
      return failure();
    stageDone("LLVM optimization");
    if (!options.llvmIrPath.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream os(options.llvmIrPath, ec);
      if (!ec)
        module.print(os, nullptr);
    }
    FailureOr<ScratchFile> object = emitObject(module, machine, error);
    if (failed(object))
      return failure();
    objects.push_back(std::move(*object));
    stageDone("object code");
    return objects;
  }
  inlineSingleCallers(module);
  // A partition's optimizer would drop a linkonce constant it does not use
  // itself, though other partitions refer to it: each is the module's one
  // definition, so make it a plain hidden one.
  for (llvm::GlobalValue &value : module.global_values())
    if (!value.isDeclaration() && value.hasLinkOnceLinkage()) {
      value.setLinkage(llvm::GlobalValue::ExternalLinkage);
      value.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
  // SplitModule balances partitions by its own size estimate, which is
  // far from the time LLVM spends on them: with one partition per thread,
  // one thread ran alone for a third of MobileNetV2's code generation.
  // Smaller partitions, taken by the threads as they finish, even the load
  // out (docs/compile-time.md).
  unsigned count = std::min<size_t>(jobs * kPartitionsPerThread, functions);
  std::vector<llvm::SmallString<0>> partitions;
  llvm::SplitModule(
      module, count,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::SmallString<0> &bitcode = partitions.emplace_back();
        llvm::raw_svector_ostream os(bitcode);
        llvm::WriteBitcodeToFile(*part, os);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/false);
  owned.reset();
  ownedContext.reset();
  trimHeap();
  stageDone("split for threads");
  std::vector<FailureOr<ScratchFile>> results(partitions.size());
  std::vector<std::string> errors(partitions.size());
  {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(jobs));
    for (size_t i = 0; i < partitions.size(); ++i)
      pool.async([&, i] {
        results[i] = failure();
        {
          llvm::LLVMContext context;
          llvm::Expected<std::unique_ptr<llvm::Module>> part =
              llvm::parseBitcodeFile(
                  llvm::MemoryBufferRef(partitions[i].str(), "partition"),
                  context);
          if (!part) {
            errors[i] = "reading a code partition failed: " +
                        llvm::toString(part.takeError());
            return;
          }
          std::unique_ptr<llvm::TargetMachine> partMachine =
              createTargetMachine(options, errors[i]);
          if (partMachine &&
              succeeded(optimize(**part, *partMachine, errors[i])))
            results[i] = emitObject(**part, *partMachine, errors[i]);
        }
        // A partition's module, freed, stays in this thread's malloc arena
        // until trimmed; untrimmed, the arenas grew to the compile's peak.
        llvm::SmallString<0>().swap(partitions[i]);
        trimHeap();
      });
    pool.wait();
  }
  trimHeap();
  for (size_t i = 0; i < results.size(); ++i) {
    if (failed(results[i])) {
      error = errors[i];
      return failure();
    }
    objects.push_back(std::move(*results[i]));
  }
  stageDone("LLVM optimization and object code");
  return objects;
}

} // namespace

struct TranslatedLibrary {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::vector<ExternalConstant> constants;
  std::optional<Weights> weights;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

void TranslatedLibraryDeleter::operator()(TranslatedLibrary *library) const {
  delete library;
}

namespace {

std::function<void(StringRef)> stageReporter(const SharedLibraryOptions &options) {
  return [&options](StringRef stage) {
    if (options.onStage)
      options.onStage(stage);
  };
}

} // namespace

TranslatedLibraryPtr translateSharedLibrary(ModuleOp module,
                                            const SharedLibraryOptions &options,
                                            std::string &error) {
  std::function<void(StringRef)> stageDone = stageReporter(options);
  TranslatedLibraryPtr library(new TranslatedLibrary);
  library->machine = createTargetMachine(options, error);
  if (!library->machine)
    return nullptr;
  llvm::TargetMachine &machine = *library->machine;

  // The weights leave the IR before translation (ConstantsObject.h) and go
  // to a scratch file, in the layout they will have in the library; a
  // compile that owns the context then frees their blobs, so that neither
  // the translation nor LLVM's code generation, where the compile's memory
  // peaks, runs beside them.
  std::vector<ExternalConstant> &constants = library->constants;
  std::string triple = machine.getTargetTriple().str();
  SmallVector<ModuleOp> modules = {module};
  modules.append(options.linkWith.begin(), options.linkWith.end());
  if (supportsConstantsObject(triple))
    constants = externalizeConstants(modules);
  if (!constants.empty()) {
    FailureOr<ScratchFile> file = ScratchFile::create("weights", error);
    if (failed(file) || failed(writeConstants(file->fd, constants, error)))
      return nullptr;
    library->weights.emplace(
        Weights{std::move(*file), layoutConstants(constants)});
    for (ExternalConstant &c : constants)
      c.bytes = {};
    if (options.consumeModules)
      releaseUnreferencedResources(module.getContext(), modules);
    stageDone("weights written");
  }

  // A module the caller gives up is translated a group of functions at a
  // time, so that its MLIR and its LLVM IR are never both whole.
  library->context = std::make_unique<llvm::LLVMContext>();
  llvm::LLVMContext &llvmContext = *library->context;
  library->module = translateInGroups(
      module, llvmContext, "tc_model", machine.createDataLayout(),
      machine.getTargetTriple(),
      options.consumeModules ? kTranslationGroups : 1);
  llvm::Module *llvmModule = library->module.get();
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return nullptr;
  }
  for (ModuleOp other : options.linkWith) {
    std::unique_ptr<llvm::Module> part =
        translateModuleToLLVMIR(other, llvmContext, "tc_model_part");
    if (!part) {
      error = "translation to LLVM IR failed";
      return nullptr;
    }
    part->setDataLayout(llvmModule->getDataLayout());
    part->setTargetTriple(llvmModule->getTargetTriple());
    if (llvm::Linker::linkModules(*llvmModule, std::move(part))) {
      error = "linking the GPU host code into the model failed";
      return nullptr;
    }
  }
  if (failed(linkModelSupport(*llvmModule, error)))
    return nullptr;
  stageDone("translation to LLVM IR");

  if (options.consumeModules) {
    for (ModuleOp translated : modules)
      translated.getBody()->clear();
    releaseUnreferencedResources(module.getContext(), {});
    trimHeap();
  }
  return library;
}

LogicalResult emitTranslatedLibrary(TranslatedLibraryPtr library,
                                    StringRef outputPath,
                                    const SharedLibraryOptions &options,
                                    std::string &error) {
  std::function<void(StringRef)> stageDone = stageReporter(options);
  // The objects and the linker's log are temporary files that are unlinked
  // as soon as they exist: lld reads and writes them as open files through
  // /proc/self/fd, so nothing is left behind even when the compile is
  // killed.
  unsigned jobs = options.jobs ? options.jobs
                               : llvm::hardware_concurrency().compute_thread_count();
  FailureOr<std::vector<ScratchFile>> objects =
      emitObjects(library->module, library->context, *library->machine,
                  options, jobs, stageDone, error);
  if (failed(objects))
    return failure();
  std::vector<std::string> objectPaths;
  for (const ScratchFile &object : *objects)
    objectPaths.push_back(object.path());
  std::optional<ScratchFile> constantsObject;
  const std::vector<ExternalConstant> &constants = library->constants;
  if (!constants.empty()) {
    FailureOr<ScratchFile> file = ScratchFile::create("o", error);
    std::string triple = library->machine->getTargetTriple().str();
    if (failed(file) ||
        failed(writeConstantsObject(file->fd, triple, constants, error)))
      return failure();
    constantsObject.emplace(std::move(*file));
    objectPaths.push_back(constantsObject->path());
    stageDone("weights region");
  }
  const Weights *weights = library->weights ? &*library->weights : nullptr;
  if (failed(linkSharedLibrary(objectPaths, weights, outputPath, stageDone,
                               error)))
    return failure();
  stageDone(weights ? "weights appended and seal" : "seal");
  return success();
}

LogicalResult emitSharedLibrary(ModuleOp module, StringRef outputPath,
                                const SharedLibraryOptions &options,
                                std::string &error) {
  TranslatedLibraryPtr library = translateSharedLibrary(module, options, error);
  if (!library)
    return failure();
  return emitTranslatedLibrary(std::move(library), outputPath, options, error);
}

LogicalResult describeTargetCpu(const SharedLibraryOptions &options,
                                std::string &name,
                                std::vector<std::string> &features,
                                std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options, error);
  if (!machine)
    return failure();
  name = machine->getTargetCPU().str();
  features.clear();
  if (!machine->getTargetTriple().isX86())
    return success();
  const llvm::MCSubtargetInfo *info = machine->getMCSubtargetInfo();
#define TC_RECORD_FEATURE(feature)                                             \
  if (info->checkFeatures("+" feature))                                       \
    features.push_back(feature);
  TC_X86_CPU_FEATURES(TC_RECORD_FEATURE)
#undef TC_RECORD_FEATURE
  return success();
}

LogicalResult sealSharedLibrary(StringRef path, std::string &error) {
  int fd = ::open(path.str().c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot seal " + path.str() + ": " + std::strerror(errno);
    return failure();
  }
  LogicalResult sealed = sealFile(fd, path, error);
  ::close(fd);
  return sealed;
}

} // namespace mlir::tc::host
