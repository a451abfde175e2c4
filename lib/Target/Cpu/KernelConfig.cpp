//===- KernelConfig.cpp - CPU kernel configurations -----------------------===//

#include "tc/Target/Cpu/KernelConfig.h"

#include "tc/Target/Cpu/RegisterTiling.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

namespace mlir::tc::cpu {

fusion::KernelConfigAttr RegisterTileConfig::toAttr(MLIRContext *ctx) const {
  return fusion::KernelConfigAttr::get(ctx, kRegisterTileStrategy,
                                       {rows, lanes}, workgroups, /*stages=*/0);
}

std::optional<RegisterTileConfig> registerTileConfig(Operation *op) {
  auto attr = op->getAttrOfType<fusion::KernelConfigAttr>(
      fusion::FusionDialect::kConfigAttr);
  if (!attr || attr.getStrategy() != kRegisterTileStrategy ||
      attr.getTile().size() != 2)
    return std::nullopt;
  return RegisterTileConfig{attr.getTile()[0], attr.getTile()[1],
                            attr.getWorkgroups()};
}

RegisterTileConfig defaultRegisterTileConfig(int64_t maxWorkgroups) {
  return {kRegisterRows, kRegisterLanes, maxWorkgroups};
}

SmallVector<RegisterTileConfig> registerTileCandidates(linalg::LinalgOp op,
                                                       int64_t maxWorkgroups) {
  RegisterTileConfig heuristic = defaultRegisterTileConfig(maxWorkgroups);
  SmallVector<RegisterTileConfig> candidates{heuristic};
  std::optional<RegisterTileDims> dims = registerTileDims(op);
  if (!dims)
    return candidates;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // Rows: fewer accumulators (a strided window reads its image rows
  // farther apart; 4 rows won 20 % on ResNet's 7x7 stem), or more (12 x 32
  // lanes still fit AVX-512's 32 registers). Resolved as the tiling
  // resolves them, so that two candidates never build the same tile.
  SmallVector<int64_t> tiles;
  auto effective = [&](int64_t rows) {
    if (!dims->rows)
      return int64_t(1);
    return registerRows(ranges[*dims->rows], rows);
  };
  tiles.push_back(effective(heuristic.rows));
  for (int64_t rows : {4, 12, 6}) {
    int64_t e = effective(rows);
    if (llvm::is_contained(tiles, e))
      continue;
    tiles.push_back(e);
    candidates.push_back({rows, heuristic.lanes, maxWorkgroups});
  }
  // Fewer, larger workgroups: less scheduling and fewer halo rows read
  // twice, at the cost of balance.
  if (maxWorkgroups >= 8)
    candidates.push_back({heuristic.rows, heuristic.lanes, maxWorkgroups / 4});
  return candidates;
}

std::string kernelKey(linalg::LinalgOp op, StringRef target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName();
  for (Value operand : op->getOperands())
    os << ';' << operand.getType();
  for (AffineMap map : op.getIndexingMapsArray())
    os << ';' << map;
  for (utils::IteratorType iterator : op.getIteratorTypesArray())
    os << ';' << utils::stringifyIteratorType(iterator);
  for (Operation &inner : op->getRegion(0).front()) {
    os << ';' << inner.getName();
    for (Type type : inner.getResultTypes())
      os << ',' << type;
  }
  return target.str() + "-" +
         llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true,
                         /*Width=*/16);
}

std::string describe(const RegisterTileConfig &config) {
  return "rows=" + std::to_string(config.rows) +
         " lanes=" + std::to_string(config.lanes) +
         " workgroups=" + std::to_string(config.workgroups);
}

} // namespace mlir::tc::cpu
