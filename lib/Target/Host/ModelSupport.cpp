//===- ModelSupport.cpp - helpers linked into model libraries on demand ---===//
//
// Some operations are calls, not loop code: tc.image_decode calls the image
// codecs of ModelSupport/ImageDecoder.c. That file is compiled to bitcode
// when tc is built and embedded here, so tc-compile needs no files beside
// it; a model that declares one of its functions gets the bitcode linked
// in (only the functions it needs), and other models get nothing.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Host/ModelSupport.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

// The bitcode's content hash: makes ccache, which does not follow #embed,
// see a new bitcode (cmake/WriteContentStamp.cmake).
#include <ImageDecoderStamp.h>

namespace mlir::tc::host {
namespace {

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
const unsigned char kImageDecoderBitcode[] = {
#embed <ImageDecoder.bc>
};
static_assert(sizeof(kImageDecoderBitcode) > 1024, "ImageDecoder.bc is missing");
#pragma clang diagnostic pop

struct SupportLibrary {
  const char *name;
  llvm::StringRef bitcode;
  /// A function whose declaration in a model asks for this library.
  const char *entry;
};

const SupportLibrary kLibraries[] = {
    {"ImageDecoder",
     llvm::StringRef(reinterpret_cast<const char *>(kImageDecoderBitcode),
                     sizeof(kImageDecoderBitcode)),
     "tc_image_decode_v1"},
};

} // namespace

LogicalResult linkModelSupport(llvm::Module &module, std::string &error) {
  for (const SupportLibrary &library : kLibraries) {
    llvm::Function *entry = module.getFunction(library.entry);
    if (!entry || !entry->isDeclaration())
      continue;
    auto buffer = llvm::MemoryBuffer::getMemBuffer(library.bitcode,
                                                   library.name, false);
    llvm::Expected<std::unique_ptr<llvm::Module>> helper =
        llvm::parseBitcodeFile(buffer->getMemBufferRef(), module.getContext());
    if (!helper) {
      error = std::string("cannot read the embedded ") + library.name +
              " bitcode: " + llvm::toString(helper.takeError());
      return failure();
    }
    (*helper)->setDataLayout(module.getDataLayout());
    (*helper)->setTargetTriple(module.getTargetTriple());
    if (llvm::Linker::linkModules(module, std::move(*helper),
                                  llvm::Linker::Flags::LinkOnlyNeeded)) {
      error = std::string("linking the ") + library.name +
              " helpers into the model failed";
      return failure();
    }
  }
  return success();
}

} // namespace mlir::tc::host
