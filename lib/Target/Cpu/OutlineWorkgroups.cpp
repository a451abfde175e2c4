//===- OutlineWorkgroups.cpp - the --tc-cpu-outline-workgroups pass -------===//
//
// Each top-level scf.forall of @main (on buffers, after bufferization) is a
// kernel: its body becomes `@main_wg<N>(captures..., %workgroup: index)` and
// the loop becomes `tc_cpu.dispatch @main_wg<N>[%count] %env
// captures(...)` (a forall over several loops numbers its workgroups
// row-major over their trip counts). Constants and small globals are re-materialized in
// the outlined function instead of being passed; weights (globals of more
// than kRematerializedGlobalBytes) are passed like any buffer, so that the
// kernels of a model's repeated layers (BERT's twelve) are one function,
// kept once: workgroup functions that print alike are merged, which spares
// every later pass, LLVM's optimizer and code generation most of their
// work. --tc-cpu-emit-entry lowers the dispatch once everything is LLVM,
// when the captured memrefs have become plain pointers and integers that
// can be packed into one argument struct.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Host/ModuleAbi.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUOUTLINEWORKGROUPSPASS
#include "tc/Target/Cpu/Passes.h.inc"
} // namespace mlir::tc::cpu

namespace mlir::tc::cpu {
namespace {

/// Globals up to this size are re-materialized in the workgroup function,
/// where the optimizer may fold loads from them (scalars, small tables);
/// larger ones are weights, passed so that kernels differing only in their
/// weights are one function.
constexpr uint64_t kRematerializedGlobalBytes = 256;

/// Values cheaper to recreate in the workgroup function than to pass:
/// constants and small globals.
bool isRematerializable(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumOperands() != 0 || def->getNumRegions() != 0)
    return false;
  if (def->hasTrait<OpTrait::ConstantLike>())
    return true;
  auto global = dyn_cast<memref::GetGlobalOp>(def);
  if (!global)
    return false;
  MemRefType type = global.getType();
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return true;
  uint64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
  return bits / 8 <= kRematerializedGlobalBytes;
}

/// The ONNX nodes a kernel computes, from the locations the importer gives
/// each op (`NameLoc(node, NameLoc(op_type))`, fused as passes merge ops):
/// the op types joined by '+' and the node names one per line, each in the
/// order of first appearance. The profile of the runtime reports them.
struct KernelOrigin {
  std::string ops, nodes;
};
KernelOrigin originOf(Operation *kernel) {
  llvm::SetVector<StringAttr> ops, nodes;
  // A forall's own location is its root op's, which its body has too.
  auto visit = [&](Operation *op) {
    op->getLoc()->walk([&](Location loc) {
      auto node = dyn_cast<NameLoc>(loc);
      auto type = node ? dyn_cast<NameLoc>(node.getChildLoc()) : NameLoc();
      if (type && isa<UnknownLoc>(type.getChildLoc())) {
        nodes.insert(node.getName());
        ops.insert(type.getName());
      }
      return WalkResult::advance();
    });
  };
  if (auto loop = dyn_cast<scf::ForallOp>(kernel))
    loop.getRegion().walk(visit);
  else
    kernel->walk(visit);
  KernelOrigin origin;
  for (StringAttr op : ops)
    origin.ops += (origin.ops.empty() ? "" : "+") + op.str();
  for (StringAttr node : nodes)
    origin.nodes += (origin.nodes.empty() ? "" : "\n") + node.str();
  return origin;
}

/// The text of `fn` under a fixed name, without locations: equal texts
/// are equal functions.
std::string bodyKey(func::FuncOp fn) {
  std::string key;
  llvm::raw_string_ostream os(key);
  StringAttr name = fn.getSymNameAttr();
  fn.setSymName("workgroup");
  fn->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope().assumeVerified());
  fn.setSymNameAttr(name);
  return key;
}

/// A forall dimension's trip count: ceildiv(ub - lb, step).
Value tripCount(OpBuilder &builder, Location loc, Value upper, Value lower,
                Value step) {
  Value span = arith::SubIOp::create(builder, loc, upper, lower);
  return arith::CeilDivSIOp::create(builder, loc, span, step);
}

struct CpuOutlineWorkgroupsPass
    : impl::CpuOutlineWorkgroupsPassBase<CpuOutlineWorkgroupsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder builder(ctx);
    Type ptrType = LLVM::LLVMPointerType::get(ctx);

    // The runtime environment arrives as @main's first argument.
    Block &entry = main.getBody().front();
    if (failed(main.insertArgument(0, ptrType, {}, main.getLoc()))) {
      signalPassFailure();
      return;
    }
    Value env = entry.getArgument(0);

    // The kernels in program order: each top-level forall, and each linalg
    // op outside one (a kernel too small to split, --tc-cpu-distribute's
    // min-work), which becomes a one-workgroup kernel. Left in @main, those
    // made it one large function: EfficientNet-B0's squeeze-excitation
    // blocks gave it 26000 LLVM instructions, the largest single piece of
    // LLVM's code generation (time and memory) that no thread could share.
    SmallVector<Operation *> kernelOps;
    main.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<scf::ForallOp>(op) || isa<linalg::LinalgOp>(op)) {
        kernelOps.push_back(op);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    unsigned counter = 0;
    llvm::StringMap<func::FuncOp> kernels;
    for (Operation *kernelOp : kernelOps) {
      auto loop = dyn_cast<scf::ForallOp>(kernelOp);
      if (loop && !loop.getOutputs().empty()) {
        loop.emitError("expected a forall on buffers");
        return signalPassFailure();
      }
      std::string site = std::to_string(counter++);
      std::string name = "main_wg" + site;
      Location loc = kernelOp->getLoc();
      KernelOrigin origin = originOf(kernelOp);

      // What the kernel reads from @main: a forall's body's values from
      // above; a linalg op's operands and its body's values from above.
      llvm::SetVector<Value> used;
      if (!loop)
        used.insert(kernelOp->operand_begin(), kernelOp->operand_end());
      getUsedValuesDefinedAbove(kernelOp->getRegions(), used);
      SmallVector<Value> captures;
      for (Value value : used)
        if (!isRematerializable(value))
          captures.push_back(value);
      SmallVector<Type> argTypes;
      for (Value value : captures)
        argTypes.push_back(value.getType());
      argTypes.push_back(builder.getIndexType());

      // The workgroup function.
      builder.setInsertionPoint(main);
      auto fn = func::FuncOp::create(builder, loc, name,
                                     builder.getFunctionType(argTypes, {}));
      fn.setPrivate();
      Block *body = fn.addEntryBlock();
      builder.setInsertionPointToStart(body);
      IRMapping mapping;
      for (auto [value, arg] : llvm::zip(captures, body->getArguments()))
        mapping.map(value, arg);
      for (Value value : used)
        if (isRematerializable(value))
          mapping.map(value, builder.clone(*value.getDefiningOp())->getResult(0));
      auto materialize = [&](OpFoldResult ofr) -> Value {
        if (auto value = dyn_cast<Value>(ofr))
          return mapping.lookupOrDefault(value);
        return arith::ConstantIndexOp::create(
            builder, loc, cast<IntegerAttr>(cast<Attribute>(ofr)).getInt());
      };
      if (loop) {
        // Each induction variable i runs over [lb_i, ub_i) with a step;
        // the workgroup number w, row-major over the loops' trip counts,
        // gives each its position p_i and the value lb_i + p_i * step_i.
        Value workgroup = body->getArguments().back();
        for (int64_t i = loop.getRank() - 1; i >= 0; --i) {
          Value lower = materialize(loop.getMixedLowerBound()[i]);
          Value step = materialize(loop.getMixedStep()[i]);
          Value position = workgroup;
          if (i > 0) {
            Value trips = tripCount(builder, loc,
                                    materialize(loop.getMixedUpperBound()[i]),
                                    lower, step);
            position = arith::RemUIOp::create(builder, loc, workgroup, trips);
            workgroup = arith::DivUIOp::create(builder, loc, workgroup, trips);
          }
          Value iv = arith::AddIOp::create(
              builder, loc, lower,
              arith::MulIOp::create(builder, loc, position, step));
          mapping.map(loop.getInductionVars()[i], iv);
        }
        for (Operation &op : loop.getBody()->without_terminator())
          builder.clone(op, mapping);
      } else {
        builder.clone(*kernelOp, mapping);
      }
      func::ReturnOp::create(builder, loc);
      // The same kernel as an earlier one: dispatch that instead.
      auto [known, isNew] = kernels.try_emplace(bodyKey(fn), fn);
      if (!isNew) {
        fn.erase();
        name = known->second.getSymName().str();
      }

      // The dispatch placeholder and its call with the workgroup count:
      // the product of the trip counts for a forall, 1 for a linalg op.
      builder.setInsertionPoint(kernelOp);
      auto valueOf = [&](OpFoldResult ofr) -> Value {
        if (auto value = dyn_cast<Value>(ofr))
          return value;
        return arith::ConstantIndexOp::create(
            builder, loc, cast<IntegerAttr>(cast<Attribute>(ofr)).getInt());
      };
      Value count;
      if (loop) {
        for (int64_t i = 0; i < loop.getRank(); ++i) {
          Value trips =
              tripCount(builder, loc, valueOf(loop.getMixedUpperBound()[i]),
                        valueOf(loop.getMixedLowerBound()[i]),
                        valueOf(loop.getMixedStep()[i]));
          count =
              count ? arith::MulIOp::create(builder, loc, count, trips) : trips;
        }
      } else {
        count = arith::ConstantIndexOp::create(builder, loc, 1);
      }
      // One dispatch per kernel, even when kernels are merged: each is a
      // kernel of the profile, with the nodes it came from.
      auto dispatch = tc_cpu::DispatchOp::create(
          builder, loc, FlatSymbolRefAttr::get(ctx, name),
          builder.getStringAttr("k" + site), builder.getStringAttr(origin.ops),
          builder.getStringAttr(origin.nodes), env, count, captures);
      // A configured kernel's key and configuration, for max-autotune to
      // attribute the kernel's time in a profile.
      kernelOp->walk([&](Operation *op) {
        auto key = op->getAttr(fusion::FusionDialect::kKernelKeyAttr);
        if (!key)
          return WalkResult::advance();
        dispatch->setAttr(fusion::FusionDialect::kKernelKeyAttr, key);
        if (Attribute config = op->getAttr(fusion::FusionDialect::kConfigAttr))
          dispatch->setAttr(fusion::FusionDialect::kConfigAttr, config);
        return WalkResult::interrupt();
      });
      kernelOp->erase();
    }
  }
};

} // namespace
} // namespace mlir::tc::cpu
