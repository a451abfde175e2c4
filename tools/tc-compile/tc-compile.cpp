//===- tc-compile.cpp - compile an ONNX model -----------------------------===//
//
// tc-compile model.onnx --check        import and verify; list what is
//                                      unsupported, all at once
// tc-compile model.onnx --emit=tc -o model.mlir
//                                      the graph-level IR after shape
//                                      inference and canonicalization
//
// Generating model.so (--emit=so, the default) arrives with the CPU code
// generation; until then it is refused with a message saying so.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "tc/Frontend/Onnx/Importer.h"
#include "tc/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

namespace {
cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model.onnx>"),
                               cl::Required);
cl::opt<std::string> outputPath("o", cl::desc("output file"),
                                cl::value_desc("path"), cl::init("-"));
cl::opt<bool> checkOnly("check",
                        cl::desc("import and verify the model, report every "
                                 "unsupported piece, write nothing"));
enum class Emit { Tc, So };
cl::opt<Emit> emit("emit", cl::desc("what to produce"), cl::init(Emit::So),
                   cl::values(clEnumValN(Emit::Tc, "tc",
                                         "graph-level tc IR (MLIR text)"),
                              clEnumValN(Emit::So, "so",
                                         "a shared library (model.so)")));
cl::opt<bool> timing("timing", cl::desc("print how long each stage took"));
cl::list<std::string> bind(
    "bind",
    cl::desc("replace graph input NAME by the TensorProto in FILE "
             "(NAME=FILE): specializes shape parameters given as inputs"),
    cl::value_desc("name=file.pb"));
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "tc model compiler\n");

  MLIRContext context;
  DialectRegistry registry;
  tc::registerTcDialects(registry);
  context.appendDialectRegistry(registry);

  tc::onnx::ImportOptions options;
  for (const std::string &entry : bind) {
    auto [name, file] = llvm::StringRef(entry).split('=');
    if (name.empty() || file.empty()) {
      llvm::errs() << "tc-compile: error: --bind expects NAME=FILE, got '"
                   << entry << "'\n";
      return 1;
    }
    options.boundInputs[name.str()] = file.str();
  }

  auto start = std::chrono::steady_clock::now();
  tc::onnx::ImportResult result =
      tc::onnx::importOnnxFile(context, inputPath, options);
  double importSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!result.succeeded()) {
    result.printErrors(llvm::errs(), inputPath);
    return 1;
  }
  if (timing)
    llvm::errs() << "import: " << llvm::format("%.3f", importSeconds)
                 << " s\n";
  if (checkOnly) {
    size_t ops = 0;
    result.module->walk([&](Operation *) { ++ops; });
    llvm::outs() << inputPath << ": ok, the whole model is supported ("
                 << ops << " ops after import)\n";
    return 0;
  }
  if (emit == Emit::So) {
    llvm::errs() << "tc-compile: error: generating a shared library is not "
                    "available in this build yet; use --check, or --emit=tc "
                    "for the graph-level IR\n";
    return 1;
  }

  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(tc::createTcInferShapesPass());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*result.module)))
    return 1;
  std::string error;
  auto output = openOutputFile(outputPath, &error);
  if (!output) {
    llvm::errs() << "tc-compile: error: " << error << "\n";
    return 1;
  }
  result.module->print(output->os());
  output->keep();
  return 0;
}
