//===- EmitEntry.cpp - the --tc-cpu-emit-entry pass -----------------------===//
//
// Runs last, on the LLVM dialect, and gives the module the ABI of
// include/tc-runtime/module_abi.h:
//   - `tc_module_abi_version` and `tc_module_metadata_v1` (the text of the
//     module's `tc.signature`, set by tc-compile),
//   - `tc_module_run_v1`, which turns the caller's data pointers and extents
//     into memref descriptors for @main (now internal) and returns the
//     result descriptors' buffers,
//   - for each `tc_cpu.dispatch` (one per kernel): a
//     trampoline that unpacks the captured values from one struct and runs
//     workgroups [begin, end) of the kernel's workgroup function, and a call
//     of the environment's `parallel_for`,
//   - `tc_module_kernels_v1`, the table of those trampolines with the ONNX
//     nodes each kernel computes, which the runtime's profile reports.
// A module with shape buckets merged in (ShapeBuckets.h) has one such run
// function per entry, internal, and a `tc_module_run_v1` that compares the
// input extents with each bucket's and calls the first that matches, else
// the generic @main's.
// The ranks and element sizes of inputs and outputs come from the
// signature, the one description of them that the runtime also reads.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Host/ModuleAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUEMITENTRYPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Folds every extractvalue in `fn` that reads a field an insertvalue chain
/// set back to the inserted value, then erases the chains left unused. The
/// memref lowering rebuilds a descriptor from a function's arguments and
/// extracts the fields it needs: after this, the arguments of the fields no
/// kernel reads (on static shapes, all but the aligned pointers and some
/// offsets) have no use.
void foldDescriptorFields(LLVM::LLVMFuncOp fn) {
  SmallVector<LLVM::InsertValueOp> inserts;
  fn.walk([&](Operation *op) {
    if (auto insert = dyn_cast<LLVM::InsertValueOp>(op)) {
      inserts.push_back(insert);
      return;
    }
    auto extract = dyn_cast<LLVM::ExtractValueOp>(op);
    if (!extract)
      return;
    ArrayRef<int64_t> position = extract.getPosition();
    Value container = extract.getContainer();
    while (auto insert = container.getDefiningOp<LLVM::InsertValueOp>()) {
      ArrayRef<int64_t> inserted = insert.getPosition();
      if (inserted == position) {
        extract.replaceAllUsesWith(insert.getValue());
        return;
      }
      // A field inside the inserted value, or one containing it: left as is.
      size_t common = std::min(inserted.size(), position.size());
      if (inserted.take_front(common) == position.take_front(common))
        return;
      container = insert.getContainer();
    }
  });
  fn.walk([](LLVM::ExtractValueOp extract) {
    if (extract->use_empty())
      extract.erase();
  });
  for (LLVM::InsertValueOp insert : llvm::reverse(inserts)) {
    if (!insert->use_empty())
      continue;
    Operation *base = insert.getContainer().getDefiningOp();
    insert.erase();
    if (base && isa<LLVM::PoisonOp, LLVM::UndefOp>(base) && base->use_empty())
      base->erase();
  }
}

/// void <name>(ptr args, i64 begin, i64 end): unpacks the captures from
/// `args` and runs workgroups [begin, end) of `workgroupFn`. The captures
/// of `packed` are the `live` ones of `captureTypes`; the others are
/// arguments `workgroupFn` does not use, passed as poison.
LLVM::LLVMFuncOp emitTrampoline(OpBuilder &b, ModuleOp module,
                                LLVM::LLVMFuncOp workgroupFn, StringRef name,
                                ArrayRef<Type> captureTypes,
                                ArrayRef<unsigned> live,
                                LLVM::LLVMStructType packed) {
  MLIRContext *ctx = module.getContext();
  Location loc = workgroupFn.getLoc();
  host::Emitter e = host::Emitter::at(b, loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto trampoline = LLVM::LLVMFuncOp::create(
      b, loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                  {e.ptr, e.i64, e.i64}),
      LLVM::Linkage::Internal);
  Block *entry = trampoline.addEntryBlock(b);
  Block *header = trampoline.addBlock();
  header->addArgument(e.i64, loc);
  Block *body = trampoline.addBlock();
  Block *exit = trampoline.addBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> captures(captureTypes.size());
  for (auto [field, capture] : llvm::enumerate(live)) {
    Value address = LLVM::GEPOp::create(
        b, loc, e.ptr, packed, entry->getArgument(0),
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(field)});
    captures[capture] = e.load(captureTypes[capture], address);
  }
  DenseMap<Type, Value> poison;
  for (auto [capture, type] : llvm::zip(captures, captureTypes)) {
    if (capture)
      continue;
    Value &value = poison[type];
    if (!value)
      value = LLVM::PoisonOp::create(b, loc, type);
    capture = value;
  }
  LLVM::BrOp::create(b, loc, ValueRange{entry->getArgument(1)}, header);
  b.setInsertionPointToStart(header);
  Value index = header->getArgument(0);
  Value more = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, index,
                                    entry->getArgument(2));
  LLVM::CondBrOp::create(b, loc, more, body, exit);
  b.setInsertionPointToStart(body);
  SmallVector<Value> args(captures);
  args.push_back(index);
  LLVM::CallOp::create(b, loc, workgroupFn, args);
  Value next = LLVM::AddOp::create(b, loc, index, e.constI64(1));
  LLVM::BrOp::create(b, loc, ValueRange{next}, header);
  b.setInsertionPointToStart(exit);
  LLVM::ReturnOp::create(b, loc, ValueRange{});

  return trampoline;
}

/// A kernel of the table `tc_module_kernels_v1`.
struct Kernel {
  LLVM::LLVMFuncOp trampoline;
  std::string name, ops, nodes;
};

/// Lowers one `tc_cpu.dispatch` (its operands converted to LLVM types);
/// returns its kernel, or failure when it does not name an LLVM workgroup
/// function.
FailureOr<Kernel> emitDispatch(ModuleOp module, SymbolTable &symbols,
                               DenseSet<Operation *> &folded,
                               tc_cpu::DispatchOp call) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = call.getLoc();
  host::Emitter e = host::Emitter::at(b, loc);
  auto workgroupFn = symbols.lookup<LLVM::LLVMFuncOp>(call.getWorkgroup());
  if (!workgroupFn || !call.getCount().getType().isInteger(64))
    return call.emitError("expected a dispatch of an llvm.func workgroup "
                          "function with LLVM operands "
                          "(--tc-cpu-convert-dispatches-to-llvm)");
  Kernel kernel;
  kernel.name = call.getKernel().str();
  kernel.ops = call.getOps().str();
  kernel.nodes = call.getNodes().str();
  // Only the captures the workgroup function reads are packed: a static
  // memref's sizes and strides are constants in the kernel, and packing
  // them made the run function (every kernel's stores) the largest
  // function of a model, the one LLVM's code generation needs the most
  // memory for.
  if (folded.insert(workgroupFn.getOperation()).second)
    foldDescriptorFields(workgroupFn);
  ValueRange captureValues = call.getCaptures();
  SmallVector<Type> captureTypes, liveTypes;
  SmallVector<unsigned> live;
  for (auto [i, operand] : llvm::enumerate(captureValues)) {
    captureTypes.push_back(operand.getType());
    // Poison for an unused argument, unless it is noundef (then passing
    // poison would be undefined behaviour).
    if (i < workgroupFn.getNumArguments() &&
        workgroupFn.getArgument(i).use_empty() &&
        !workgroupFn.getArgAttr(i, LLVM::LLVMDialect::getNoUndefAttrName()))
      continue;
    live.push_back(i);
    liveTypes.push_back(operand.getType());
  }
  auto packed = LLVM::LLVMStructType::getLiteral(ctx, liveTypes);

  // Trampoline: void tramp(ptr args, i64 begin, i64 end), one per kernel
  // (a profile tells kernels apart by it), even where kernels share their
  // workgroup function.
  kernel.trampoline =
      emitTrampoline(b, module, workgroupFn, kernel.name + "_trampoline",
                     captureTypes, live, packed);
  symbols.insert(kernel.trampoline);
  // The kernel's key and configuration (--tc-cpu-configure-kernels) stay
  // on its trampoline, where max-autotune reads them.
  for (StringRef name : {fusion::FusionDialect::kKernelKeyAttr,
                         fusion::FusionDialect::kConfigAttr})
    if (Attribute attr = call->getAttr(name))
      kernel.trampoline->setAttr(name, attr);

  // The call site: pack the captures, call env->parallel_for.
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  b.setInsertionPointToStart(&caller.getBody().front());
  Value storage = LLVM::AllocaOp::create(b, loc, e.ptr, packed, e.constI64(1));
  b.setInsertionPoint(call);
  for (auto [field, capture] : llvm::enumerate(live)) {
    Value address = LLVM::GEPOp::create(
        b, loc, e.ptr, packed, storage,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(field)});
    LLVM::StoreOp::create(b, loc, captureValues[capture], address);
  }
  Value env = call.getEnv();
  Value count = call.getCount();
  auto envType = LLVM::LLVMStructType::getLiteral(ctx, {e.ptr, e.ptr});
  Value runtime = e.load(e.ptr, LLVM::GEPOp::create(b, loc, e.ptr, envType, env,
                                                    ArrayRef<LLVM::GEPArg>{0, 0}));
  Value parallelFor = e.load(
      e.ptr, LLVM::GEPOp::create(b, loc, e.ptr, envType, env,
                                 ArrayRef<LLVM::GEPArg>{0, 1}));
  Value fnAddress = LLVM::AddressOfOp::create(b, loc, kernel.trampoline);
  auto parallelForType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx), {e.ptr, e.ptr, e.ptr, e.i64});
  LLVM::CallOp::create(b, loc, parallelForType,
                       ValueRange{parallelFor, runtime, fnAddress, storage, count});
  call.erase();
  return kernel;
}

/// `tc_module_kernel_count_v1` and `tc_module_kernels_v1` (module_abi.h).
void emitKernelTable(ModuleOp module, ArrayRef<Kernel> kernels) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  host::Emitter e = host::Emitter::at(b, loc);
  struct Strings {
    LLVM::GlobalOp name, ops, nodes;
  };
  SmallVector<Strings> strings;
  for (const Kernel &kernel : kernels) {
    std::string prefix = "__tc_kernel_" + kernel.name;
    strings.push_back(
        {host::constantBytes(b, loc, prefix + "_name", kernel.name, true),
         host::constantBytes(b, loc, prefix + "_ops", kernel.ops, true),
         host::constantBytes(b, loc, prefix + "_nodes", kernel.nodes, true)});
  }
  host::constantCount(b, loc, "tc_module_kernel_count_v1", kernels.size());
  auto entryType =
      LLVM::LLVMStructType::getLiteral(ctx, {e.ptr, e.ptr, e.ptr, e.ptr});
  host::constantTable(
      b, loc, "tc_module_kernels_v1", entryType, kernels.size(),
      [&](OpBuilder &ib) {
        SmallVector<Value> entries;
        for (auto [kernel, text] : llvm::zip(kernels, strings)) {
          Value fields[] = {
              LLVM::AddressOfOp::create(ib, loc, kernel.trampoline),
              LLVM::AddressOfOp::create(ib, loc, text.name),
              LLVM::AddressOfOp::create(ib, loc, text.ops),
              LLVM::AddressOfOp::create(ib, loc, text.nodes)};
          entries.push_back(host::structValue(ib, loc, entryType, fields));
        }
        return entries;
      });
}

/// The checks an entry function reports (kCheckOffsetAttr; mergeShapeBucket
/// sets it on every entry that has checks).
host::EntryChecks entryChecks(LLVM::LLVMFuncOp fn) {
  host::EntryChecks checks;
  if (auto offset = fn->getAttrOfType<IntegerAttr>(kCheckOffsetAttr)) {
    checks.returnsCheck = true;
    checks.offset = offset.getInt();
  }
  return checks;
}

/// A model with shape buckets (--shape-bucket): one run function per entry
/// (@main, the generic code, and each bucket's), and tc_module_run_v1
/// calling the first bucket whose extents the inputs have, else @main's.
LogicalResult emitBucketDispatch(ModuleOp module, LLVM::LLVMFuncOp main,
                                 ArrayRef<LLVM::LLVMFuncOp> buckets,
                                 ArrayRef<host::TensorSlot> inputs,
                                 ArrayRef<host::TensorSlot> outputs) {
  MLIRContext *ctx = module.getContext();
  auto emit = [&](LLVM::LLVMFuncOp fn, StringRef name) {
    return host::emitEntryCall(
        module, fn, inputs, outputs, name, entryChecks(fn),
        /*releaseOutputsOnError=*/true, LLVM::Linkage::Internal);
  };
  FailureOr<LLVM::LLVMFuncOp> generic = emit(main, "__tc_run_generic");
  if (failed(generic))
    return failure();
  SmallVector<LLVM::LLVMFuncOp> runs;
  for (auto [i, bucket] : llvm::enumerate(buckets)) {
    FailureOr<LLVM::LLVMFuncOp> run =
        emit(bucket, ("__tc_run_bucket" + llvm::Twine(i)).str());
    if (failed(run))
      return failure();
    runs.push_back(*run);
  }
  host::emitCheckMessages(module, "tc_module_check_messages_v1");

  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = main.getLoc();
  host::Emitter e = host::Emitter::at(b, loc);
  auto dispatch = LLVM::LLVMFuncOp::create(b, loc, "tc_module_run_v1",
                                           host::runFunctionType(ctx));
  Block *block = dispatch.addEntryBlock(b);
  ValueRange args = dispatch.getArguments();
  Value inputDims = args[2];
  for (auto [bucket, run] : llvm::zip(buckets, runs)) {
    b.setInsertionPointToEnd(block);
    ArrayRef<int64_t> guard =
        cast<DenseI64ArrayAttr>(bucket->getAttr(kBucketGuardAttr)).asArrayRef();
    Value match = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
    for (size_t k = 0; k + 1 < guard.size(); k += 2) {
      Value extent = e.load(e.i64, e.element(e.i64, inputDims, guard[k]));
      Value equal = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                         extent, e.constI64(guard[k + 1]));
      match = LLVM::AndOp::create(b, loc, match, equal);
    }
    Block *taken = dispatch.addBlock();
    Block *next = dispatch.addBlock();
    LLVM::CondBrOp::create(b, loc, match, taken, next);
    b.setInsertionPointToStart(taken);
    auto call = LLVM::CallOp::create(b, loc, run, args);
    LLVM::ReturnOp::create(b, loc, call.getResults());
    block = next;
  }
  b.setInsertionPointToEnd(block);
  auto call = LLVM::CallOp::create(b, loc, *generic, args);
  LLVM::ReturnOp::create(b, loc, call.getResults());
  for (LLVM::LLVMFuncOp fn : buckets)
    fn->removeAttr(kBucketGuardAttr);
  return success();
}

struct CpuEmitEntryPass : impl::CpuEmitEntryPassBase<CpuEmitEntryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<LLVM::LLVMFuncOp>("main");
    FailureOr<SignatureAttr> signature =
        host::moduleSignature(module, "--tc-cpu-emit-entry");
    if (!main) {
      module.emitError("expected an llvm.func @main");
      return signalPassFailure();
    }
    if (failed(signature))
      return signalPassFailure();
    SmallVector<host::TensorSlot> inputs, outputs;
    host::signatureSlots(*signature, inputs, outputs);
    SmallVector<tc_cpu::DispatchOp> dispatches;
    module.walk([&](tc_cpu::DispatchOp call) { dispatches.push_back(call); });
    // One symbol table for all lookups: ModuleOp::lookupSymbol scans.
    SymbolTable symbols(module);
    SmallVector<Kernel> kernels;
    DenseSet<Operation *> folded;
    for (tc_cpu::DispatchOp call : dispatches) {
      FailureOr<Kernel> kernel = emitDispatch(module, symbols, folded, call);
      if (failed(kernel))
        return signalPassFailure();
      kernels.push_back(std::move(*kernel));
    }
    // Everything but the ABI symbols is internal to the module.
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (!fn.isExternal())
        fn.setLinkage(LLVM::Linkage::Internal);
    host::shareConstants(module);
    OpBuilder b(&getContext());
    host::emitAbiGlobals(module, b, *signature);
    emitKernelTable(module, kernels);
    SmallVector<LLVM::LLVMFuncOp> buckets;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr(kBucketGuardAttr))
        buckets.push_back(fn);
    if (buckets.empty()) {
      if (failed(host::emitRunFunction(module, main, inputs, outputs,
                                       "tc_module_run_v1",
                                       "tc_module_check_messages_v1",
                                       /*releaseOutputsOnError=*/true)))
        return signalPassFailure();
    } else if (failed(emitBucketDispatch(module, main, buckets, inputs, outputs))) {
      return signalPassFailure();
    }
    module->removeAttr(kSignatureAttr);
  }
};

} // namespace
} // namespace mlir::tc::cpu
