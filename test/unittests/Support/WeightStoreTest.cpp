//===- WeightStoreTest.cpp - File-backed compile-time weight blobs --------===//

#include "tc/Support/WeightStore.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define TC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TC_ASAN 1
#endif
#endif

using namespace mlir;

namespace {

/// The /proc/self/maps line of the mapping holding `address`, or "".
std::string mappingOf(const void *address) {
  auto at = reinterpret_cast<uintptr_t>(address);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range;
    fields >> range;
    size_t dash = range.find('-');
    uintptr_t begin = std::stoull(range.substr(0, dash), nullptr, 16);
    uintptr_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (begin <= at && at < end)
      return line;
  }
  return "";
}

/// The process's anonymous resident memory in bytes (RssAnon).
int64_t anonymousBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("RssAnon:", 0) == 0)
      return std::stoll(line.substr(8)) * 1024;
  return -1;
}

TEST(WeightStoreTest, LargeBlobsAreFileBackedNotAnonymous) {
  constexpr size_t kSize = size_t(64) << 20;
  [[maybe_unused]] int64_t before = anonymousBytes();
  AsmResourceBlob blob = tc::makeWeightBlob(
      kSize, alignof(float),
      [](MutableArrayRef<char> bytes) { std::fill(bytes.begin(), bytes.end(), 7); });
  ArrayRef<char> data = blob.getData();
  ASSERT_EQ(data.size(), kSize);
  EXPECT_FALSE(blob.isMutable());
  // The blob is a read-only shared mapping of the (deleted) scratch file;
  // the buffer `fill` wrote is gone, so nothing anonymous remains.
  std::string mapping = mappingOf(data.data());
  EXPECT_NE(mapping.find(" r--s "), std::string::npos) << mapping;
  EXPECT_NE(mapping.find("(deleted)"), std::string::npos) << mapping;
#ifndef TC_ASAN
  // (AddressSanitizer keeps freed buffers in its quarantine.)
  EXPECT_LT(anonymousBytes() - before, int64_t(8) << 20);
#endif
  EXPECT_EQ(data[kSize - 1], 7);

  const void *address = data.data();
  blob = AsmResourceBlob();
  // Released: the range is unmapped.
  EXPECT_EQ(mappingOf(address), "");
}

TEST(WeightStoreTest, CopiesKeepTheBytesAndSmallBlobsStayOnTheHeap) {
  std::vector<char> large(tc::kMinFileBacked + 3);
  std::iota(large.begin(), large.end(), 0);
  AsmResourceBlob copy = tc::copyWeightBlob(large, /*alignment=*/4);
  ASSERT_EQ(copy.getData().size(), large.size());
  EXPECT_TRUE(std::equal(large.begin(), large.end(), copy.getData().begin()));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.getData().data()) % 4, 0u);
  EXPECT_NE(mappingOf(copy.getData().data()).find("(deleted)"),
            std::string::npos);

  std::vector<char> small(100, 3);
  AsmResourceBlob heap = tc::copyWeightBlob(small, /*alignment=*/4);
  EXPECT_EQ(mappingOf(heap.getData().data()).find("(deleted)"),
            std::string::npos);
  EXPECT_TRUE(std::equal(small.begin(), small.end(), heap.getData().begin()));
}

TEST(WeightStoreTest, ManyBlobsTakeDisjointRanges) {
  std::vector<AsmResourceBlob> blobs;
  for (int i = 0; i < 16; ++i) {
    blobs.push_back(tc::makeWeightBlob(
        tc::kMinFileBacked * (i + 1), 4, [&](MutableArrayRef<char> bytes) {
          std::fill(bytes.begin(), bytes.end(), static_cast<char>(i));
        }));
  }
  for (int i = 0; i < 16; ++i) {
    ArrayRef<char> data = blobs[i].getData();
    EXPECT_TRUE(std::all_of(data.begin(), data.end(),
                            [&](char c) { return c == static_cast<char>(i); }))
        << "blob " << i;
  }
}

} // namespace
