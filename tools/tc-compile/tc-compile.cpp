//===- tc-compile.cpp - compile an ONNX model -----------------------------===//
//
// tc-compile model.onnx -o model.so     compile for the CPU (the default)
// tc-compile model.onnx --check         import and verify; list what is
//                                       unsupported, all at once
// tc-compile model.onnx --emit=tc       the graph-level IR after shape
//                                       inference and canonicalization
// tc-compile model.onnx --emit=llvm     the LLVM dialect the .so is made of
// --dump-ir=DIR writes the IR after every stage and pass into DIR.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "tc/Frontend/Onnx/Importer.h"
#include "tc/InitAllDialects.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Cpu/SharedLibrary.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

namespace {
cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model.onnx>"),
                               cl::Required);
cl::opt<std::string> outputPath(
    "o", cl::desc("output file (default: the model's name with .so, or "
                  "stdout for --emit=tc/llvm)"),
    cl::value_desc("path"));
cl::opt<bool> checkOnly("check",
                        cl::desc("import and verify the model, report every "
                                 "unsupported piece, write nothing"));
enum class Emit { Tc, Llvm, So };
cl::opt<Emit> emit(
    "emit", cl::desc("what to produce"), cl::init(Emit::So),
    cl::values(clEnumValN(Emit::Tc, "tc", "graph-level tc IR (MLIR text)"),
               clEnumValN(Emit::Llvm, "llvm",
                          "the LLVM dialect module (MLIR text)"),
               clEnumValN(Emit::So, "so", "a shared library (model.so)")));
cl::opt<std::string> target("target",
                            cl::desc("code generation target (only 'cpu' "
                                     "in this build)"),
                            cl::init("cpu"));
cl::opt<std::string> cpuName("cpu",
                             cl::desc("LLVM CPU to optimize for ('host', or "
                                      "e.g. x86-64-v3)"),
                             cl::init("host"));
cl::opt<int64_t> maxWorkgroups("max-workgroups",
                               cl::desc("largest number of workgroups a "
                                        "kernel is split into"),
                               cl::init(64));
cl::opt<std::string> dumpDir("dump-ir",
                             cl::desc("write the IR after every stage and "
                                      "pass into this directory"),
                             cl::value_desc("dir"));
cl::opt<bool> timing("timing", cl::desc("print how long each stage took"));
cl::list<std::string> bind(
    "bind",
    cl::desc("replace graph input NAME by the TensorProto in FILE "
             "(NAME=FILE): specializes shape parameters given as inputs"),
    cl::value_desc("name=file.pb"));

int fail(const llvm::Twine &message) {
  llvm::errs() << "tc-compile: error: " << message << "\n";
  return 1;
}

struct StageTimer {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  void report(StringRef stage) {
    auto now = std::chrono::steady_clock::now();
    if (timing)
      llvm::errs() << stage << ": "
                   << llvm::format("%.3f",
                                   std::chrono::duration<double>(now - start)
                                       .count())
                   << " s\n";
    start = now;
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

/// Every input and output must have an element type the runtime knows.
LogicalResult checkSignature(func::FuncOp main) {
  bool ok = true;
  auto check = [&](Type type, StringRef what, unsigned index) {
    Type element = cast<ShapedType>(type).getElementType();
    // The metadata can name exactly the types the ABI carries.
    if (tc::cpu::moduleDtypeName(element).empty()) {
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
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "tc model compiler\n");

  if (target != "cpu")
    return fail("unknown --target '" + target +
                "'; this build supports: cpu");
  if (maxWorkgroups < 1)
    return fail("--max-workgroups must be at least 1");

  MLIRContext context;
  DialectRegistry registry;
  tc::registerAllTcToolDialects(registry);
  tc::cpu::registerSharedLibraryTranslations(registry);
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

  StageTimer timer;
  tc::onnx::ImportResult result =
      tc::onnx::importOnnxFile(context, inputPath, options);
  if (!result.succeeded()) {
    result.printErrors(llvm::errs(), inputPath);
    return 1;
  }
  timer.report("import");
  ModuleOp module = *result.module;
  if (checkOnly) {
    size_t ops = 0;
    module->walk([&](Operation *) { ++ops; });
    llvm::outs() << inputPath << ": ok, the whole model is supported ("
                 << ops << " ops after import)\n";
    return 0;
  }
  if (!dumpDir.empty() &&
      failed(writeModule(module, dumpPath("00-import.mlir"), true)))
    return 1;

  PassManager graph(&context);
  graph.addNestedPass<func::FuncOp>(tc::createTcInferShapesPass());
  graph.addPass(createCanonicalizerPass());
  // Composite patterns match on folded constants and static shapes, so they
  // run after the clean-up; the second canonicalization composes the key
  // transposes attention fusion leaves and drops dead constants.
  graph.addNestedPass<func::FuncOp>(tc::createTcFuseGeluPass());
  graph.addNestedPass<func::FuncOp>(tc::createTcFuseLayerNormPass());
  graph.addNestedPass<func::FuncOp>(tc::createTcFuseAttentionPass());
  graph.addPass(createCanonicalizerPass());
  graph.addNestedPass<func::FuncOp>(tc::createTcFoldConstantsPass());
  if (failed(graph.run(module)))
    return 1;
  timer.report("graph passes");
  if (!dumpDir.empty() &&
      failed(writeModule(module, dumpPath("01-tc.mlir"), true)))
    return 1;
  if (emit == Emit::Tc)
    return failed(writeModule(module, outputPath.empty() ? std::string("-") : outputPath.getValue(),
                              false));

  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return fail("the imported module has no @main");
  if (failed(checkSignature(main)))
    return 1;
  StringRef modelName = llvm::sys::path::stem(inputPath);
  module->setAttr("tc.module_metadata",
                  StringAttr::get(&context,
                                  tc::cpu::buildModuleMetadata(main, modelName)));

  PassManager lowering(&context);
  tc::cpu::CpuPipelineOptions pipelineOptions;
  pipelineOptions.maxWorkgroups = maxWorkgroups;
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
  if (emit == Emit::Llvm)
    return failed(writeModule(module, outputPath.empty() ? std::string("-") : outputPath.getValue(),
                              false));

  std::string output = outputPath;
  if (output.empty()) {
    llvm::SmallString<256> path(inputPath);
    llvm::sys::path::replace_extension(path, "so");
    output = path.str().str();
  }
  tc::cpu::SharedLibraryOptions libraryOptions;
  libraryOptions.cpu = cpuName;
  if (!dumpDir.empty())
    libraryOptions.llvmIrPath = dumpPath("99-model.ll");
  std::string error;
  if (failed(tc::cpu::emitSharedLibrary(module, output, libraryOptions, error)))
    return fail(error);
  timer.report("object and link");
  return 0;
}
