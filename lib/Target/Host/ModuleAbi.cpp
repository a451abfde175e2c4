//===- ModuleAbi.cpp - the model.so entry points shared by all targets ----===//
//
// The parts of include/tc-runtime/module_abi.h every entry point needs: the
// version and metadata globals, and a run function that turns the caller's
// data pointers and extents into memref descriptors for @main and returns
// the result descriptors' buffers (host pointers for tc_module_run_v1,
// device pointers for tc_module_gpu_run_v2).
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Host/ModuleAbi.h"

#include "tc-runtime/module_abi.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/xxhash.h"

namespace mlir::tc::host {

FailureOr<SignatureAttr> moduleSignature(ModuleOp module, StringRef what) {
  auto signature = module->getAttrOfType<SignatureAttr>(kSignatureAttr);
  if (!signature)
    return module.emitError(what)
           << " expects the module's tc.signature (set by tc-compile)";
  return signature;
}

void signatureSlots(SignatureAttr signature,
                    SmallVectorImpl<TensorSlot> &inputs,
                    SmallVectorImpl<TensorSlot> &outputs) {
  auto slot = [](SlotAttr attr) {
    RankedTensorType type = attr.getType();
    // Narrow types take a byte per element (module_abi.h).
    int64_t bits = type.getElementType().getIntOrFloatBitWidth();
    return TensorSlot{type.getRank(), std::max<int64_t>(1, bits / 8)};
  };
  for (SlotAttr attr : signature.getInputSlots())
    inputs.push_back(slot(attr));
  for (SlotAttr attr : signature.getOutputSlots())
    outputs.push_back(slot(attr));
}

/// An exported constant char array `symbol` holding `bytes` (which carry
/// their own terminating NULs), at the end of the module.
static void emitBytesGlobal(ModuleOp module, OpBuilder &b, StringRef symbol,
                            StringRef bytes) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(),
                                            static_cast<unsigned>(bytes.size()));
  LLVM::GlobalOp::create(b, module.getLoc(), arrayType, /*isConstant=*/true,
                         LLVM::Linkage::External, symbol,
                         b.getStringAttr(bytes));
}

/// The check-message table: each message NUL-terminated, then an empty one.
static void emitCheckMessages(ModuleOp module, OpBuilder &b,
                              ArrayAttr messages, StringRef symbol) {
  std::string text;
  for (Attribute message : messages) {
    StringRef value = cast<StringAttr>(message).getValue();
    // An empty message would end the list early.
    text += value.empty() ? std::string("a run-time check failed")
                          : value.str();
    text.push_back('\0');
  }
  text.push_back('\0');
  emitBytesGlobal(module, b, symbol, text);
}

LLVM::GlobalOp constantBytes(OpBuilder &b, Location loc, StringRef name,
                             StringRef bytes, bool terminate) {
  std::string data = bytes.str();
  if (terminate)
    data.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  auto global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                       LLVM::Linkage::Internal, name,
                                       b.getStringAttr(data));
  global.setAlignment(64);
  return global;
}

void constantTable(OpBuilder &b, Location loc, StringRef name,
                   Type elementType, size_t count,
                   function_ref<SmallVector<Value>(OpBuilder &)> fill) {
  auto type = LLVM::LLVMArrayType::get(elementType, std::max<size_t>(1, count));
  auto global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                       LLVM::Linkage::External, name,
                                       Attribute());
  OpBuilder::InsertionGuard guard(b);
  Block *init = b.createBlock(&global.getInitializerRegion());
  b.setInsertionPointToStart(init);
  Value table = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, element] : llvm::enumerate(fill(b)))
    table = LLVM::InsertValueOp::create(b, loc, table, element,
                                        ArrayRef<int64_t>{int64_t(i)});
  LLVM::ReturnOp::create(b, loc, table);
}

Value structValue(OpBuilder &b, Location loc, Type type, ValueRange fields) {
  Value value = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, field] : llvm::enumerate(fields))
    value = LLVM::InsertValueOp::create(b, loc, value, field,
                                        ArrayRef<int64_t>{int64_t(i)});
  return value;
}

void constantCount(OpBuilder &b, Location loc, StringRef name, uint32_t value) {
  LLVM::GlobalOp::create(b, loc, b.getI32Type(), /*isConstant=*/true,
                         LLVM::Linkage::External, name,
                         b.getI32IntegerAttr(static_cast<int32_t>(value)));
}

void emitAbiGlobals(ModuleOp module, OpBuilder &b, SignatureAttr signature) {
  b.setInsertionPointToEnd(module.getBody());
  LLVM::GlobalOp::create(b, module.getLoc(), b.getI32Type(),
                         /*isConstant=*/true, LLVM::Linkage::External,
                         "tc_module_abi_version", b.getI32IntegerAttr(1));
  std::string text = moduleMetadataText(signature);
  text.push_back('\0');
  emitBytesGlobal(module, b, "tc_module_metadata_v1", text);
}

LLVM::LLVMFunctionType runFunctionType(MLIRContext *ctx) {
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  return LLVM::LLVMFunctionType::get(IntegerType::get(ctx, 32),
                                     {ptr, ptr, ptr, ptr, ptr, ptr});
}

FailureOr<LLVM::LLVMFuncOp>
emitEntryCall(ModuleOp module, LLVM::LLVMFuncOp main,
              ArrayRef<TensorSlot> inputs, ArrayRef<TensorSlot> outputs,
              StringRef name, const EntryChecks &checks,
              bool releaseOutputsOnError, LLVM::Linkage linkage) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = main.getLoc();
  Emitter e = Emitter::at(b, loc);
  b.setInsertionPointToEnd(module.getBody());
  auto run = LLVM::LLVMFuncOp::create(b, loc, name, runFunctionType(ctx),
                                      linkage);
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
    return main.emitError("@")
           << main.getName() << " takes " << main.getNumArguments()
           << " values but the metadata describes " << args.size()
           << " (environment and input descriptors)";
  auto call = LLVM::CallOp::create(b, loc, main, args);
  // With run-time checks (--tc-cpu-lower-checks), @main's last result is
  // the failed check's index plus one, or 0.
  size_t numResults = outputs.size() + (checks.returnsCheck ? 1 : 0);

  dimOffset = 0;
  for (auto [k, slot] : llvm::enumerate(outputs)) {
    Value descriptor = call.getResult();
    if (numResults > 1)
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
  Value ok = LLVM::ConstantOp::create(b, loc, e.i32, b.getI32IntegerAttr(0));
  if (!checks.returnsCheck) {
    LLVM::ReturnOp::create(b, loc, ValueRange{ok});
    return run;
  }
  Value failed = call.getResult();
  if (numResults > 1)
    failed = LLVM::ExtractValueOp::create(
        b, loc, failed, ArrayRef<int64_t>{int64_t(outputs.size())});
  Block *failBlock = run.addBlock();
  Block *okBlock = run.addBlock();
  Value isOk = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, failed, ok);
  LLVM::CondBrOp::create(b, loc, isOk, okBlock, failBlock);
  b.setInsertionPointToStart(okBlock);
  LLVM::ReturnOp::create(b, loc, ValueRange{ok});

  // The caller owns the outputs only on success: release each distinct
  // allocation (two outputs may share one) and clear the slots.
  b.setInsertionPointToStart(failBlock);
  if (releaseOutputsOnError) {
    auto freeFn = module.lookupSymbol<LLVM::LLVMFuncOp>("free");
    if (!freeFn) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(module.getBody());
      freeFn = LLVM::LLVMFuncOp::create(
          b, loc, "free",
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {e.ptr}));
    }
    Value null = LLVM::ZeroOp::create(b, loc, e.ptr);
    SmallVector<Value> released;
    for (size_t k = 0; k < outputs.size(); ++k) {
      Value slotAddress = e.element(e.ptr, allocations, k);
      Value allocation = e.load(e.ptr, slotAddress);
      Value distinct = allocation;
      for (Value earlier : released) {
        Value same = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                          allocation, earlier);
        distinct = LLVM::SelectOp::create(b, loc, same, null, distinct);
      }
      LLVM::CallOp::create(b, loc, freeFn, ValueRange{distinct});
      LLVM::StoreOp::create(b, loc, null, slotAddress);
      released.push_back(allocation);
    }
  }
  Value base = LLVM::ConstantOp::create(
      b, loc, e.i32,
      b.getI32IntegerAttr(TC_RUN_CHECK_FAILED - 1 + checks.offset));
  LLVM::ReturnOp::create(b, loc,
                         ValueRange{LLVM::AddOp::create(b, loc, failed, base)});
  return run;
}

void emitCheckMessages(ModuleOp module, StringRef symbol) {
  auto checks = module->getAttrOfType<ArrayAttr>(kCheckMessagesAttr);
  if (!checks)
    return;
  OpBuilder b(module.getContext());
  emitCheckMessages(module, b, checks, symbol);
  module->removeAttr(kCheckMessagesAttr);
}

LogicalResult emitRunFunction(ModuleOp module, LLVM::LLVMFuncOp main,
                              ArrayRef<TensorSlot> inputs,
                              ArrayRef<TensorSlot> outputs, StringRef name,
                              StringRef checkMessagesSymbol,
                              bool releaseOutputsOnError) {
  EntryChecks checks;
  checks.returnsCheck = module->hasAttr(kCheckMessagesAttr);
  if (failed(emitEntryCall(module, main, inputs, outputs, name, checks,
                           releaseOutputsOnError, LLVM::Linkage::External)))
    return failure();
  emitCheckMessages(module, checkMessagesSymbol);
  return success();
}

void shareConstants(ModuleOp module) {
  SmallVector<LLVM::GlobalOp> constants;
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getConstant() && global.getSymName().starts_with("__constant_") &&
        global.getValueAttr())
      constants.push_back(global);
  // One walk renames the uses of every constant (symbol uses are only
  // llvm.mlir.addressof here); a walk per constant was quadratic.
  llvm::DenseMap<StringAttr, StringAttr> renamed;
  llvm::StringMap<LLVM::GlobalOp> kept;
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getSymName().starts_with("__tc_constant_"))
      kept[global.getSymName()] = global;
  for (LLVM::GlobalOp global : constants) {
    // The key: a weight blob's resource name (unique in the context both
    // modules share) or an inline constant's bytes, and the type.
    std::string key;
    llvm::raw_string_ostream os(key);
    Attribute value = global.getValueAttr();
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
      os << "resource:" << resource.getRawHandle().getKey();
    else if (auto dense = dyn_cast<DenseElementsAttr>(value))
      os << "dense:" << llvm::xxh3_64bits(StringRef(dense.getRawData().data(), dense.getRawData().size())) << ":"
         << dense.isSplat();
    else
      continue;
    os << ":" << global.getGlobalType();
    std::string name = "__tc_constant_" + llvm::utohexstr(llvm::xxh3_64bits(key));
    auto shared = StringAttr::get(module.getContext(), name);
    renamed[global.getSymNameAttr()] = shared;
    if (kept.count(name)) {
      global.erase();
      continue;
    }
    kept[name] = global;
    global.setSymName(name);
    global.setLinkage(LLVM::Linkage::LinkonceODR);
    global.setVisibility_(LLVM::Visibility::Hidden);
  }
  renameGlobalUses(module, renamed);
}

void renameGlobalUses(ModuleOp module,
                      const llvm::DenseMap<StringAttr, StringAttr> &renamed) {
  if (renamed.empty())
    return;
  module.walk([&](LLVM::AddressOfOp address) {
    auto it = renamed.find(address.getGlobalNameAttr().getAttr());
    if (it != renamed.end())
      address.setGlobalName(it->second.getValue());
  });
}

} // namespace mlir::tc::host
