//===- LoweringToLLVM.cpp - host code to the LLVM dialect -----------------===//

#include "tc/Target/Host/LoweringToLLVM.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tc::host {

void buildLoweringToLLVM(OpPassManager &pm,
                         function_ref<void(OpPassManager &)> beforeReconcile) {
  // Integer powers become loops in helper functions; the math LLVM has as
  // intrinsics becomes those, the rest calls of libm.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // A row reduction's vector.reduction becomes a tree of vector adds
  // (reassociated), not a serial chain of scalar adds.
  ConvertVectorToLLVMPassOptions toLLVM;
  toLLVM.reassociateFPReductions = true;
  // The 16x16 transposes of --tc-cpu-vectorize-transposes as shuffles of
  // whole registers, not 256 element moves.
  toLLVM.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle16x16;
  pm.addPass(createConvertVectorToLLVMPass(toLLVM));
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Within each function: the pass manager runs them on the functions in
  // parallel.
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createArithToLLVMConversionPass());
  functions.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  if (beforeReconcile)
    beforeReconcile(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
}

} // namespace mlir::tc::host
