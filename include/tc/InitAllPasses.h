//===- InitAllPasses.h - register tc's passes and the upstream ones -------===//

#ifndef TC_INITALLPASSES_H
#define TC_INITALLPASSES_H

namespace mlir::tc {

/// Registers every tc and fusion pass.
void registerTcPasses();

/// Registers tc's passes plus every upstream pass, for tc-opt.
void registerAllTcToolPasses();

} // namespace mlir::tc

#endif // TC_INITALLPASSES_H
