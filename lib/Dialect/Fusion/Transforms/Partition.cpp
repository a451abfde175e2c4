//===- Partition.cpp - the --fusion-partition pass ------------------------===//
//
// Greedy, last op first: a group grows backwards through producers that
// nothing outside the group uses, so no value is computed twice and every
// group has one root whose results leave it. The rules of what may join
// (see Passes.td) keep each group tileable as one loop nest: the tile of the
// root determines a tile of every member.
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Fusion/IR/FusionOps.h"
#include "tc/Dialect/Fusion/Transforms/Passes.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::fusion {
#define GEN_PASS_DEF_FUSIONPARTITIONPASS
#include "tc/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

namespace {

/// The kind an op anchors, if it is an anchor.
std::optional<GroupKind> anchorKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<GroupKind>>(op)
      .Case<tc::MatmulOp, tc::BatchMatmulOp>(
          [](auto) { return GroupKind::matmul; })
      // Attention is two contractions around a softmax. Its query, key and
      // value are read whole by every output tile, as a matmul's operands
      // are, so it must not take elementwise prologues the way a (row-wise)
      // softmax anchor does; like a matmul it takes an elementwise epilogue.
      .Case<tc::AttentionOp>([](auto) { return GroupKind::matmul; })
      .Case<tc::ConvOp, tc::ConvTransposeOp>([](auto) { return GroupKind::conv; })
      .Case<tc::MaxPoolOp, tc::AvgPoolOp>([](auto) { return GroupKind::pooling; })
      .Case<tc::ReduceSumOp, tc::ReduceMeanOp, tc::ReduceMaxOp,
            tc::ReduceMinOp, tc::ReduceProdOp, tc::ArgMaxOp, tc::ArgMinOp,
            tc::CumSumOp, tc::TopKOp>([](auto) { return GroupKind::reduction; })
      .Case<tc::SoftmaxOp, tc::LogSoftmaxOp>(
          [](auto) { return GroupKind::softmax; })
      .Case<tc::LayerNormOp>([](auto) { return GroupKind::normalization; })
      .Case<tc::GatherOp, tc::GatherElementsOp, tc::GatherNDOp,
            tc::ScatterElementsOp, tc::ScatterNDOp, tc::ResizeOp,
            tc::DynamicResizeOp,
            tc::GridSampleOp, tc::RoiAlignOp>(
          [](auto) { return GroupKind::gather; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Ops that compute each output element from the same position of their
/// (broadcast) operands.
bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<tc::AddOp, tc::SubOp, tc::MulOp, tc::DivOp, tc::MaxOp, tc::MinOp,
             tc::ModOp, tc::PreluOp, tc::AndOp, tc::OrOp, tc::XorOp,
             tc::ShiftLeftOp, tc::ShiftRightOp, tc::PowOp, tc::CompareOp,
             tc::SelectOp, tc::ClampOp, tc::CastOp, tc::BatchNormOp,
             tc::BroadcastOp>(op);
}

/// A slice with positive steps reads a strided window in place.
bool isStridedView(Operation *op) {
  auto slice = dyn_cast<tc::SliceOp>(op);
  return slice && llvm::all_of(slice.getSteps(), [](int64_t s) { return s > 0; });
}

/// Members that may read an elementwise producer inside the same tile.
bool readsRowWise(Operation *op) {
  if (isElementwise(op))
    return true;
  std::optional<GroupKind> kind = anchorKind(op);
  return kind && (*kind == GroupKind::reduction || *kind == GroupKind::softmax ||
                  *kind == GroupKind::normalization);
}

struct Group {
  llvm::SetVector<Operation *> members;
  GroupKind kind = GroupKind::elementwise;
  bool hasAnchor = false;
  Operation *anchor = nullptr;
  std::string reason;
};

struct FusionPartitionPass
    : fusion::impl::FusionPartitionPassBase<FusionPartitionPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &block = func.getBody().front();
    DenseSet<Operation *> placed;
    SmallVector<Group> groups;
    for (Operation &op : llvm::reverse(block)) {
      if (placed.contains(&op) || !isa<tc::TcDialect>(op.getDialect()) ||
          isa<tc::ConstantOp, tc::ShapeOfOp>(op))
        continue;
      groups.push_back(grow(&op, placed));
    }
    IRRewriter rewriter(&getContext());
    unsigned counter = 0;
    // Groups were found last to first; build them first to last so names
    // follow program order.
    for (Group &group : llvm::reverse(groups))
      build(rewriter, group, counter++);
  }

  Group grow(Operation *root, DenseSet<Operation *> &placed) {
    Group group;
    group.members.insert(root);
    placed.insert(root);
    if (isa<tc::ReshapeOp>(root) || isStridedView(root)) {
      group.kind = GroupKind::view;
      group.reason = root->getName().stripDialect().str() +
                     " is a view of its input: no kernel";
      return group;
    }
    if (std::optional<GroupKind> kind = anchorKind(root)) {
      group.kind = *kind;
      group.hasAnchor = true;
      group.anchor = root;
    } else if (!isElementwise(root)) {
      group.kind = GroupKind::opaque;
      group.reason = root->getName().stripDialect().str() +
                     ": data movement, a kernel of its own";
      return group;
    }
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = 0; i < group.members.size(); ++i) {
        Operation *member = group.members[i];
        for (Value operand : member->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          if (!producer || placed.contains(producer) ||
              producer->getBlock() != root->getBlock() ||
              !isa<tc::TcDialect>(producer->getDialect()) ||
              isa<tc::ConstantOp, tc::ShapeOfOp, tc::ReshapeOp>(producer) ||
              isStridedView(producer))
            continue;
          auto users = producer->getUsers();
          if (!llvm::all_of(users, [&](Operation *user) {
                return group.members.contains(user);
              }))
            continue;
          std::optional<GroupKind> kind = anchorKind(producer);
          if (isElementwise(producer) && llvm::all_of(users, readsRowWise)) {
            group.members.insert(producer);
          } else if (kind && !group.hasAnchor && *kind != GroupKind::gather &&
                     llvm::all_of(users, isElementwise)) {
            group.members.insert(producer);
            group.kind = *kind;
            group.hasAnchor = true;
            group.anchor = producer;
          } else {
            continue;
          }
          placed.insert(producer);
          changed = true;
        }
      }
    }
    // Why: the anchor, and which elementwise ops came with it.
    size_t others = group.members.size() - (group.hasAnchor ? 1 : 0);
    if (!group.hasAnchor) {
      group.reason = others == 1 ? "a single elementwise op"
                                 : "elementwise chain of " +
                                       std::to_string(others) + " ops";
      return group;
    }
    size_t before = 0, after = 0;
    for (Operation *op : group.members)
      if (op != group.anchor)
        ++(op->isBeforeInBlock(group.anchor) ? before : after);
    group.reason = group.anchor->getName().stripDialect().str() + " anchor";
    if (before)
      group.reason += " with an elementwise prologue of " +
                      std::to_string(before) + " op" + (before > 1 ? "s" : "");
    if (after)
      group.reason += std::string(before ? " and" : " with") +
                      " an elementwise epilogue of " + std::to_string(after) +
                      " op" + (after > 1 ? "s" : "");
    return group;
  }

  void build(IRRewriter &rewriter, Group &group, unsigned index) {
    // Members in program order; the last one is the root.
    SmallVector<Operation *> members(group.members.begin(), group.members.end());
    llvm::sort(members, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    DenseSet<Operation *> inGroup(members.begin(), members.end());
    llvm::SetVector<Value> inputs;
    SmallVector<Value> results;
    for (Operation *op : members) {
      for (Value operand : op->getOperands())
        if (!operand.getDefiningOp() || !inGroup.contains(operand.getDefiningOp()))
          inputs.insert(operand);
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !inGroup.contains(user);
            }))
          results.push_back(result);
    }
    Operation *root = members.back();
    rewriter.setInsertionPoint(root);
    std::string name = "g" + std::to_string(index) + "_" +
                       stringifyGroupKind(group.kind).str();
    std::string reason = group.reason;
    SmallVector<Type> resultTypes;
    for (Value result : results)
      resultTypes.push_back(result.getType());
    auto groupOp = GroupOp::create(rewriter, root->getLoc(), resultTypes,
                                   inputs.getArrayRef(), name, group.kind,
                                   reason);
    Block &body = groupOp.getBodyBlock();
    for (auto [input, arg] : llvm::zip(inputs, body.getArguments()))
      for (Operation *op : members)
        op->replaceUsesOfWith(input, arg);
    for (Operation *op : members)
      op->moveBefore(&body, body.end());
    rewriter.setInsertionPointToEnd(&body);
    YieldOp::create(rewriter, root->getLoc(), results);
    for (auto [result, replacement] : llvm::zip(results, groupOp.getResults()))
      result.replaceUsesWithIf(replacement, [&](OpOperand &use) {
        return use.getOwner()->getParentOp() != groupOp;
      });
  }
};

} // namespace
