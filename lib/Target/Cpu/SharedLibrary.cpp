//===- SharedLibrary.cpp - LLVM dialect module to model.so ----------------===//
//
// The object is produced in-process by LLVM's TargetMachine; the link runs
// ld.lld (Debian's lld-22) as a child process, because the lld library is
// not part of the LLVM packages we build against. The .so gets DT_NEEDED
// entries for libm and libc and carries compiler-rt's builtins (f16/bf16
// conversions), so it loads into any process.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/SharedLibrary.h"
#include "tc/Target/Cpu/ModelSupport.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

namespace mlir::tc::cpu {

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

} // namespace

LogicalResult emitSharedLibrary(ModuleOp module, StringRef outputPath,
                                const SharedLibraryOptions &options,
                                std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options, error);
  if (!machine)
    return failure();

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tc_model");
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return failure();
  }
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(machine->getTargetTriple());
  for (ModuleOp other : options.linkWith) {
    std::unique_ptr<llvm::Module> part =
        translateModuleToLLVMIR(other, llvmContext, "tc_model_part");
    if (!part) {
      error = "translation to LLVM IR failed";
      return failure();
    }
    part->setDataLayout(llvmModule->getDataLayout());
    part->setTargetTriple(llvmModule->getTargetTriple());
    if (llvm::Linker::linkModules(*llvmModule, std::move(part))) {
      error = "linking the GPU host code into the model failed";
      return failure();
    }
  }
  if (failed(linkModelSupport(*llvmModule, error)))
    return failure();
  auto optimize = makeOptimizingTransformer(3, 0, machine.get());
  if (llvm::Error err = optimize(llvmModule.get())) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(err));
    return failure();
  }
  if (!options.llvmIrPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(options.llvmIrPath, ec);
    if (!ec)
      llvmModule->print(os, nullptr);
  }

  // The object goes to a temporary file next to the output.
  llvm::SmallString<256> objectPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "tc-model", "o", objectPath)) {
    error = "cannot create a temporary object file: " + ec.message();
    return failure();
  }
  llvm::FileRemover removeObject(objectPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(objectPath, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write " + objectPath.str().str() + ": " + ec.message();
      return failure();
    }
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                     llvm::CodeGenFileType::ObjectFile)) {
      error = "the LLVM target cannot emit object files";
      return failure();
    }
    codegen.run(*llvmModule);
  }

  std::string linker = findLinker();
  if (linker.empty()) {
    error = "ld.lld (lld-22) not found; install Debian's lld-22";
    return failure();
  }
  SmallVector<std::string> args = {linker, "-shared", "--gc-sections",
                                   "-z", "noexecstack", "-z", "now",
                                   "-o", outputPath.str(), objectPath.str().str()};
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
  std::string message;
  llvm::SmallString<256> logPath;
  (void)llvm::sys::fs::createTemporaryFile("tc-link", "log", logPath);
  llvm::FileRemover removeLog(logPath);
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  int rc = llvm::sys::ExecuteAndWait(linker, argRefs, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &message);
  if (rc != 0) {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    error = "linking " + outputPath.str() + " with " + linker + " failed" +
            (message.empty() ? "" : ": " + message) +
            (log ? "\n" + (*log)->getBuffer().str() : "");
    return failure();
  }
  return success();
}

} // namespace mlir::tc::cpu
