//===- WeightStore.h - File-backed storage for compile-time weights -------===//
//
// A compile holds every weight of the model at least once (as imported) and
// the CPU target derives more (panel-packed matmul weights, blocked and
// Winograd-transformed filters), together about twice the model. Kept on the
// heap, they were most of a compile's private memory. Weight blobs of at
// least kMinFileBacked bytes therefore live in one unnamed scratch file,
// written with pwrite and mapped read-only: the page cache holds them, which
// the kernel can write back and reclaim under memory pressure instead of
// failing the compile, and a blob's pages and disk blocks are returned when
// the blob is released. Writing through pwrite rather than a writable
// mapping avoids a page fault per 4 KiB written (a third of a second on
// BERT-base), and a full disk is a failed write (the blob then goes to the
// heap), never SIGBUS.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_WEIGHTSTORE_H
#define TC_SUPPORT_WEIGHTSTORE_H

#include "mlir/IR/AsmState.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tc {

/// Blobs smaller than this stay on the heap: a page per bias vector would
/// waste more than it saves.
constexpr size_t kMinFileBacked = size_t(64) << 10;

/// A read-only blob of `size` bytes aligned to `alignment` (at most a
/// page), whose bytes `fill` writes: file-backed when large enough and the
/// scratch file is available, else on the heap. `fill` writes into a heap
/// buffer that is written to the file and freed, so only one weight at a
/// time is ever anonymous memory.
AsmResourceBlob makeWeightBlob(size_t size, size_t alignment,
                               function_ref<void(MutableArrayRef<char>)> fill);

/// A read-only blob holding a copy of `data` (see makeWeightBlob).
AsmResourceBlob copyWeightBlob(ArrayRef<char> data, size_t alignment);

/// An unnamed temporary file in TMPDIR that exists only as an open
/// descriptor: O_TMPFILE, or where the file system has none, a file
/// unlinked right after it is created, so that a process killed at any
/// moment leaves nothing behind; close-on-exec. Returns -1 and sets
/// `error` on failure.
/// `suffix` names the file while it exists without O_TMPFILE.
int openScratchFile(StringRef suffix, std::string &error);

} // namespace mlir::tc

#endif // TC_SUPPORT_WEIGHTSTORE_H
