//===- InitAllPasses.h - register tc's passes and the upstream ones -------===//

#ifndef TC_INITALLPASSES_H
#define TC_INITALLPASSES_H

namespace mlir::tc {

/// Registers every tc and fusion pass.
void registerTcPasses();

/// Registers the GPU back ends (NVIDIA, AMD) that --target and the GPU
/// passes' target options name. The tools call it before parsing options;
/// registerAllTcToolPasses and registerAllTcToolDialects call it too.
void registerAllGpuBackends();

/// Registers tc's passes plus every upstream pass, for tc-opt.
void registerAllTcToolPasses();

} // namespace mlir::tc

#endif // TC_INITALLPASSES_H
