//===- EmitEntry.cpp - the --tc-cpu-emit-entry pass -----------------------===//
//
// Runs last, on the LLVM dialect, and gives the module the ABI of
// include/tc-runtime/module_abi.h:
//   - `tc_module_abi_version` and `tc_module_metadata_v1` (from the
//     `tc.module_metadata` module attribute written by tc-compile),
//   - `tc_module_run_v1`, which turns the caller's data pointers and extents
//     into memref descriptors for @main (now internal) and returns the
//     result descriptors' buffers,
//   - for each `@__tc_dispatch_wg<N>` placeholder call: a trampoline that
//     unpacks the captured values from one struct and runs workgroups
//     [begin, end), and a call of the environment's `parallel_for`.
// The ranks and element sizes of inputs and outputs come from the metadata,
// which is the one description of the signature the runtime also reads.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUEMITENTRYPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

struct TensorSlot {
  int64_t rank;
  int64_t elementBytes;
};

int64_t elementBytes(StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"f64", "i64", "u64"}, 8)
      .Cases({"f32", "i32", "u32"}, 4)
      .Cases({"f16", "bf16", "i16", "u16"}, 2)
      .Default(1);
}

/// Reads the input and output records of the metadata text.
LogicalResult parseSlots(StringRef metadata, SmallVectorImpl<TensorSlot> &inputs,
                         SmallVectorImpl<TensorSlot> &outputs) {
  SmallVector<StringRef> lines;
  metadata.split(lines, '\n', -1, false);
  for (StringRef line : lines) {
    SmallVector<StringRef> fields;
    line.split(fields, ' ');
    if (fields.empty() || (fields[0] != "input" && fields[0] != "output"))
      continue;
    int64_t rank;
    if (fields.size() < 4 || fields[3].getAsInteger(10, rank))
      return failure();
    TensorSlot slot{rank, elementBytes(fields[2])};
    (fields[0] == "input" ? inputs : outputs).push_back(slot);
  }
  return success();
}

struct Emitter {
  OpBuilder &b;
  Location loc;
  Type ptr, i64, i32;

  Value constI64(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  }
  /// Element `index` of an array of `elementType` at `base`.
  Value element(Type elementType, Value base, int64_t index) {
    return LLVM::GEPOp::create(b, loc, ptr, elementType, base,
                               ArrayRef<LLVM::GEPArg>{index});
  }
  Value load(Type type, Value address) {
    return LLVM::LoadOp::create(b, loc, type, address);
  }
};

void emitGlobals(ModuleOp module, OpBuilder &b, StringRef metadata) {
  Location loc = module.getLoc();
  b.setInsertionPointToEnd(module.getBody());
  LLVM::GlobalOp::create(b, loc, b.getI32Type(), /*isConstant=*/true,
                         LLVM::Linkage::External, "tc_module_abi_version",
                         b.getI32IntegerAttr(1));
  std::string text = metadata.str();
  text.push_back('\0');
  auto arrayType =
      LLVM::LLVMArrayType::get(b.getI8Type(), static_cast<unsigned>(text.size()));
  LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                         LLVM::Linkage::External, "tc_module_metadata_v1",
                         b.getStringAttr(text));
}

LogicalResult emitRunFunction(ModuleOp module, LLVM::LLVMFuncOp main,
                              ArrayRef<TensorSlot> inputs,
                              ArrayRef<TensorSlot> outputs) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = main.getLoc();
  Emitter e{b, loc, LLVM::LLVMPointerType::get(ctx), b.getI64Type(),
            b.getI32Type()};
  b.setInsertionPointToEnd(module.getBody());
  auto type = LLVM::LLVMFunctionType::get(
      e.i32, {e.ptr, e.ptr, e.ptr, e.ptr, e.ptr, e.ptr});
  auto run = LLVM::LLVMFuncOp::create(b, loc, "tc_module_run_v1", type);
  Block *entry = run.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value env = entry->getArgument(0), inputData = entry->getArgument(1),
        inputDims = entry->getArgument(2), allocations = entry->getArgument(3),
        outputData = entry->getArgument(4), outputDims = entry->getArgument(5);

  SmallVector<Value> args = {env};
  int64_t dimOffset = 0;
  for (auto [i, slot] : llvm::enumerate(inputs)) {
    Value data = e.load(e.ptr, e.element(e.ptr, inputData, i));
    SmallVector<Value> sizes, strides(slot.rank);
    for (int64_t d = 0; d < slot.rank; ++d)
      sizes.push_back(e.load(e.i64, e.element(e.i64, inputDims, dimOffset + d)));
    dimOffset += slot.rank;
    Value stride = e.constI64(1);
    for (int64_t d = slot.rank - 1; d >= 0; --d) {
      strides[d] = stride;
      stride = LLVM::MulOp::create(b, loc, stride, sizes[d]);
    }
    args.append({data, data, e.constI64(0)});
    args.append(sizes);
    args.append(strides);
  }
  if (args.size() != main.getNumArguments())
    return main.emitError("@main takes ")
           << main.getNumArguments() << " values but the metadata describes "
           << args.size() << " (environment and input descriptors)";
  auto call = LLVM::CallOp::create(b, loc, main, args);

  dimOffset = 0;
  for (auto [k, slot] : llvm::enumerate(outputs)) {
    Value descriptor = call.getResult();
    if (outputs.size() > 1)
      descriptor = LLVM::ExtractValueOp::create(b, loc, descriptor,
                                                ArrayRef<int64_t>{int64_t(k)});
    Value allocated = LLVM::ExtractValueOp::create(b, loc, descriptor, 0);
    Value aligned = LLVM::ExtractValueOp::create(b, loc, descriptor, 1);
    Value offset = LLVM::ExtractValueOp::create(b, loc, descriptor, 2);
    LLVM::StoreOp::create(b, loc, allocated, e.element(e.ptr, allocations, k));
    Value bytes = LLVM::MulOp::create(b, loc, offset, e.constI64(slot.elementBytes));
    Value data = LLVM::GEPOp::create(b, loc, e.ptr, b.getI8Type(), aligned,
                                     ArrayRef<LLVM::GEPArg>{bytes});
    LLVM::StoreOp::create(b, loc, data, e.element(e.ptr, outputData, k));
    for (int64_t d = 0; d < slot.rank; ++d) {
      Value size = LLVM::ExtractValueOp::create(b, loc, descriptor,
                                                ArrayRef<int64_t>{3, d});
      LLVM::StoreOp::create(b, loc, size,
                            e.element(e.i64, outputDims, dimOffset + d));
    }
    dimOffset += slot.rank;
  }
  LLVM::ReturnOp::create(b, loc, ValueRange{LLVM::ConstantOp::create(
                                     b, loc, e.i32, b.getI32IntegerAttr(0))});
  return success();
}

/// Replaces one `@__tc_dispatch_wg<N>(env, count, captures...)` call.
void emitDispatch(ModuleOp module, LLVM::CallOp call) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = call.getLoc();
  Emitter e{b, loc, LLVM::LLVMPointerType::get(ctx), b.getI64Type(),
            b.getI32Type()};
  StringRef name = call.getCallee()->drop_front(strlen("__tc_dispatch_"));
  auto workgroupFn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  SmallVector<Type> captureTypes;
  for (Value operand : call.getArgOperands().drop_front(2))
    captureTypes.push_back(operand.getType());
  auto packed = LLVM::LLVMStructType::getLiteral(ctx, captureTypes);

  // Trampoline: void tramp(ptr args, i64 begin, i64 end).
  b.setInsertionPointToEnd(module.getBody());
  auto trampoline = LLVM::LLVMFuncOp::create(
      b, loc, (name + "_trampoline").str(),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                  {e.ptr, e.i64, e.i64}),
      LLVM::Linkage::Internal);
  Block *entry = trampoline.addEntryBlock(b);
  Block *header = trampoline.addBlock();
  header->addArgument(e.i64, loc);
  Block *body = trampoline.addBlock();
  Block *exit = trampoline.addBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> captures;
  for (auto [i, type] : llvm::enumerate(captureTypes)) {
    Value field = LLVM::GEPOp::create(
        b, loc, e.ptr, packed, entry->getArgument(0),
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    captures.push_back(e.load(type, field));
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

  // The call site: pack the captures, call env->parallel_for.
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  b.setInsertionPointToStart(&caller.getBody().front());
  Value storage = LLVM::AllocaOp::create(b, loc, e.ptr, packed, e.constI64(1));
  b.setInsertionPoint(call);
  for (auto [i, value] : llvm::enumerate(call.getArgOperands().drop_front(2))) {
    Value field = LLVM::GEPOp::create(
        b, loc, e.ptr, packed, storage,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(b, loc, value, field);
  }
  Value env = call.getArgOperands()[0];
  Value count = call.getArgOperands()[1];
  auto envType = LLVM::LLVMStructType::getLiteral(ctx, {e.ptr, e.ptr});
  Value runtime = e.load(e.ptr, LLVM::GEPOp::create(b, loc, e.ptr, envType, env,
                                                    ArrayRef<LLVM::GEPArg>{0, 0}));
  Value parallelFor = e.load(
      e.ptr, LLVM::GEPOp::create(b, loc, e.ptr, envType, env,
                                 ArrayRef<LLVM::GEPArg>{0, 1}));
  Value fnAddress = LLVM::AddressOfOp::create(b, loc, trampoline);
  auto parallelForType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx), {e.ptr, e.ptr, e.ptr, e.i64});
  LLVM::CallOp::create(b, loc, parallelForType,
                       ValueRange{parallelFor, runtime, fnAddress, storage, count});
  call.erase();
}

struct CpuEmitEntryPass : impl::CpuEmitEntryPassBase<CpuEmitEntryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<LLVM::LLVMFuncOp>("main");
    auto metadata = module->getAttrOfType<StringAttr>("tc.module_metadata");
    if (!main || !metadata) {
      module.emitError("expected an llvm.func @main and a tc.module_metadata "
                       "attribute (set by tc-compile)");
      return signalPassFailure();
    }
    SmallVector<TensorSlot> inputs, outputs;
    if (failed(parseSlots(metadata.getValue(), inputs, outputs))) {
      module.emitError("malformed tc.module_metadata");
      return signalPassFailure();
    }
    SmallVector<LLVM::CallOp> dispatches;
    module.walk([&](LLVM::CallOp call) {
      if (call.getCallee() &&
          call.getCallee()->starts_with("__tc_dispatch_"))
        dispatches.push_back(call);
    });
    for (LLVM::CallOp call : dispatches)
      emitDispatch(module, call);
    for (auto fn : llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>()))
      if (fn.getName().starts_with("__tc_dispatch_"))
        fn.erase();
    // Everything but the ABI symbols is internal to the module.
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (!fn.isExternal())
        fn.setLinkage(LLVM::Linkage::Internal);
    OpBuilder b(&getContext());
    emitGlobals(module, b, metadata.getValue());
    if (failed(emitRunFunction(module, main, inputs, outputs)))
      return signalPassFailure();
    module->removeAttr("tc.module_metadata");
  }
};

} // namespace
} // namespace mlir::tc::cpu
