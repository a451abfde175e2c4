//===- PrepareHost.cpp - --tc-gpu-prepare-host ----------------------------===//
//
// The host side of a GPU target: what is left of @main once its kernels are
// outlined (shapes, allocations, launches) is lowered like CPU code, with
// each launch a call into the runtime. This pass makes each launch a
// tc_gpu.launch and each constant a tc_gpu.device_constant, ops that
// --tc-gpu-lower-host-ops lowers into those calls within the host code's
// LLVM lowering, where their memrefs are expanded the way the kernels'
// parameters are (allocated pointer, aligned pointer, offset, sizes,
// strides). A tunable kernel's tc_gpu.tuned_choice gets the environment
// and its site, and the module describes its sites for the runtime's tuner
// (tc_module_gpu_sites_v2).
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Tc/IR/TcAttributes.h"
#include "tc/Dialect/TcGpu/IR/TcGpuOps.h"
#include "tc/Target/Gpu/Passes.h"

#include "tc/Target/Host/ModuleAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tc::gpu {
#define GEN_PASS_DEF_GPUPREPAREHOSTPASS
#include "tc/Target/Gpu/Passes.h.inc"
} // namespace mlir::tc::gpu

namespace mlir::tc::gpu {
namespace {

/// A tunable kernel of the host code: its key, its alternatives'
/// configurations (one per line), the kernel each alternative launches and
/// those the heuristic alternative may launch.
struct Site {
  std::string key, candidates;
  SmallVector<int32_t> kernels, heuristicKernels;
};

/// Gives each tc_gpu.tuned_choice of `main` the environment and its site
/// number, and collects the sites; failure (with an error) when an
/// alternative does not launch exactly one kernel.
FailureOr<SmallVector<Site>> numberSites(func::FuncOp main, Value env) {
  SmallVector<tc_gpu::TunedChoiceOp> choices;
  main.walk([&](tc_gpu::TunedChoiceOp choice) { choices.push_back(choice); });
  SmallVector<Site> sites;
  for (auto [number, choice] : llvm::enumerate(choices)) {
    choice.getEnvMutable().assign(env);
    choice.setSite(static_cast<uint32_t>(number));
    Site site;
    site.key = choice.getKey().str();
    for (Attribute candidate : choice.getCandidates()) {
      llvm::raw_string_ostream os(site.candidates);
      os << (site.kernels.empty() && site.candidates.empty() ? "" : "\n")
         << candidate;
      site.kernels.push_back(-1);
    }
    for (Operation *user : choice->getUsers()) {
      auto tuned = dyn_cast<scf::IndexSwitchOp>(user);
      if (!tuned)
        continue;
      for (auto [i, region] : llvm::enumerate(tuned.getCaseRegions())) {
        SmallVector<tc_gpu::LaunchOp> launches;
        region.walk(
            [&](tc_gpu::LaunchOp launch) { launches.push_back(launch); });
        if (launches.size() != 1 || i >= site.kernels.size())
          return choice.emitError("expected one kernel launch per "
                                  "alternative of a tunable kernel");
        site.kernels[i] = static_cast<int32_t>(launches.front().getKernel());
      }
      tuned.getDefaultRegion().walk([&](tc_gpu::LaunchOp launch) {
        site.heuristicKernels.push_back(
            static_cast<int32_t>(launch.getKernel()));
      });
    }
    if (llvm::is_contained(site.kernels, -1) || site.heuristicKernels.empty())
      return choice.emitError("a tunable kernel's alternative has no launch");
    sites.push_back(std::move(site));
  }
  // A runtime times a site by its kernels' launches: no kernel may be
  // launched by two sites (or twice in one).
  llvm::DenseSet<int32_t> seen;
  for (auto [site, choice] : llvm::zip(sites, choices))
    for (int32_t kernel :
         llvm::concat<int32_t>(site.kernels, site.heuristicKernels))
      if (!seen.insert(kernel).second)
        return choice.emitError("a kernel of a tunable kernel is launched by "
                                "more than one alternative or site");
  return sites;
}

/// `tc_module_gpu_site_count_v1` and `tc_module_gpu_sites_v2`
/// (include/tc-runtime/module_abi.h).
void emitSites(ModuleOp module, ArrayRef<Site> sites) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  host::Emitter e = host::Emitter::at(b, loc);
  struct Globals {
    LLVM::GlobalOp key, candidates, kernels, heuristicKernels;
  };
  auto indexArray = [&](const Twine &name, ArrayRef<int32_t> indices) {
    auto type = LLVM::LLVMArrayType::get(e.i32, indices.size());
    return LLVM::GlobalOp::create(
        b, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, name.str(),
        DenseIntElementsAttr::get(
            RankedTensorType::get({int64_t(indices.size())}, e.i32), indices));
  };
  SmallVector<Globals> globals;
  for (auto [i, site] : llvm::enumerate(sites)) {
    std::string suffix = std::to_string(i);
    globals.push_back(
        {host::constantBytes(b, loc, "__tc_gpu_site_key_" + suffix, site.key,
                             true),
         host::constantBytes(b, loc, "__tc_gpu_site_candidates_" + suffix,
                             site.candidates, true),
         indexArray("__tc_gpu_site_kernels_" + suffix, site.kernels),
         indexArray("__tc_gpu_site_heuristic_kernels_" + suffix,
                    site.heuristicKernels)});
  }
  host::constantCount(b, loc, "tc_module_gpu_site_count_v1", sites.size());
  auto siteType = LLVM::LLVMStructType::getLiteral(
      ctx, {e.ptr, e.ptr, e.i32, e.ptr, e.i32, e.ptr});
  auto count = [&](OpBuilder &ib, size_t n) -> Value {
    return LLVM::ConstantOp::create(ib, loc, ib.getI32Type(),
                                    ib.getI32IntegerAttr(int32_t(n)));
  };
  host::constantTable(
      b, loc, "tc_module_gpu_sites_v2", siteType, sites.size(),
      [&](OpBuilder &ib) {
        SmallVector<Value> values;
        for (auto [site, g] : llvm::zip(sites, globals)) {
          Value fields[] = {
              LLVM::AddressOfOp::create(ib, loc, g.key),
              LLVM::AddressOfOp::create(ib, loc, g.candidates),
              count(ib, site.kernels.size()),
              LLVM::AddressOfOp::create(ib, loc, g.kernels),
              count(ib, site.heuristicKernels.size()),
              LLVM::AddressOfOp::create(ib, loc, g.heuristicKernels)};
          values.push_back(host::structValue(ib, loc, siteType, fields));
        }
        return values;
      });
}

struct GpuPrepareHostPass
    : impl::GpuPrepareHostPassBase<GpuPrepareHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal()) {
      module.emitError("expected a func.func @main with a body");
      return signalPassFailure();
    }
    // The kernel table: names in the order of the (single) kernel module.
    SmallVector<Attribute> names;
    llvm::StringMap<unsigned> indexOf;
    for (auto kernels : module.getOps<mlir::gpu::GPUModuleOp>())
      for (auto func : kernels.getOps<mlir::gpu::GPUFuncOp>()) {
        StringRef name = SymbolTable::getSymbolName(func).getValue();
        indexOf[name] = names.size();
        names.push_back(StringAttr::get(ctx, name));
      }
    module->setAttr(kGpuKernelsAttr, ArrayAttr::get(ctx, names));

    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    if (failed(main.insertArgument(0, ptrType, {}, main.getLoc()))) {
      main.emitError("cannot add the environment argument");
      return signalPassFailure();
    }
    Value env = main.getArgument(0);
    OpBuilder b(ctx);
    // Constants (weights) live in the module's read-only data on the host;
    // kernels read their device copies, which the runtime uploads once:
    // each memref.get_global goes through a tc_gpu.device_constant, one
    // index per global.
    llvm::StringMap<unsigned> constantIndex;
    SmallVector<memref::GetGlobalOp> globals;
    main.walk([&](memref::GetGlobalOp op) { globals.push_back(op); });
    for (memref::GetGlobalOp global : globals) {
      auto type = cast<MemRefType>(global.getType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
        global.emitError("GPU targets need constants of static shape");
        return signalPassFailure();
      }
      unsigned index = constantIndex
                           .try_emplace(global.getName(), constantIndex.size())
                           .first->second;
      b.setInsertionPointAfter(global);
      int64_t bytes = type.getNumElements() *
                      ((type.getElementTypeBitWidth() + 7) / 8);
      Value size = arith::ConstantIndexOp::create(b, global.getLoc(), bytes);
      auto device = tc_gpu::DeviceConstantOp::create(b, global.getLoc(), index,
                                                     env, size, global);
      global.getResult().replaceAllUsesExcept(device, device);
    }
    auto launch = [&](mlir::gpu::LaunchFuncOp launch,
                      OpBuilder &b) -> LogicalResult {
      if (launch->getParentOfType<func::FuncOp>() != main)
        return launch.emitError(
            "kernel launches outside @main are not supported");
      if (launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
          launch.getAsyncToken())
        return launch.emitError("clusters, dynamic shared memory and async "
                                "launches are not supported");
      auto found = indexOf.find(launch.getKernelName().getValue());
      if (found == indexOf.end())
        return launch.emitError("launches a kernel outside the kernel module");
      mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      tc_gpu::LaunchOp::create(b, launch.getLoc(), found->second, env, grid.x,
                               grid.y, grid.z, block.x, block.y, block.z,
                               launch.getKernelOperands());
      return success();
    };
    if (failed(replaceLaunches(module, launch)))
      return signalPassFailure();
    FailureOr<SmallVector<Site>> sites = numberSites(main, env);
    if (failed(sites))
      return signalPassFailure();
    emitSites(module, *sites);
  }
};

} // namespace

LogicalResult replaceLaunches(
    ModuleOp module,
    function_ref<LogicalResult(mlir::gpu::LaunchFuncOp, OpBuilder &)> replace) {
  SmallVector<mlir::gpu::LaunchFuncOp> launches;
  module.walk([&](mlir::gpu::LaunchFuncOp op) { launches.push_back(op); });
  for (mlir::gpu::LaunchFuncOp launch : launches) {
    OpBuilder b(launch);
    if (failed(replace(launch, b)))
      return failure();
    launch.erase();
  }
  for (auto kernels :
       llvm::make_early_inc_range(module.getOps<mlir::gpu::GPUModuleOp>()))
    kernels.erase();
  module->removeAttr("gpu.container_module");
  return success();
}

} // namespace mlir::tc::gpu
