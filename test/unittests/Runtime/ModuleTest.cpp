//===- ModuleTest.cpp - loading model.so files and querying signatures
//-----===//

#include "TestUtil.h"

#include "tc-runtime/module_seal.h"
#include "tc-runtime/module_weights.h"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tc::test;

namespace {

Error loadError(const std::string &path) {
  auto runtime = makeRuntime(1);
  tc_module *module = nullptr;
  Error error = take(tc_module_load(runtime.get(), path.c_str(), &module));
  EXPECT_EQ(module, nullptr);
  return error;
}

TEST(ModuleLoadTest, MissingFileNamesPathAndReason) {
  std::string path = std::string(TC_FAKE_MODULE_DIR) + "/does_not_exist.so";
  Error error = loadError(path);
  EXPECT_EQ(error.code, TC_STATUS_NOT_FOUND);
  TC_EXPECT_CONTAINS(error.message, "'" + path + "'");
  TC_EXPECT_CONTAINS(error.message, "No such file or directory");
}

TEST(ModuleLoadTest, NotASharedLibrary) {
  char path[] = "/tmp/tc-runtime-test-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "hello\n", 6), 6);
  close(fd);
  Error error = loadError(path);
  unlink(path);
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, std::string("cannot load '") + path +
                                        "' as a shared library: ");
}

TEST(ModuleLoadTest, SharedLibraryWithoutTheAbiIsNotAModule) {
  Error error = loadError(fakeModule("no_symbols"));
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "is not a tc module");
  TC_EXPECT_CONTAINS(error.message, "tc_module_abi_version");
}

TEST(ModuleLoadTest, MissingRunFunction) {
  Error error = loadError(fakeModule("no_run"));
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "'tc_module_run_v1'");
}

TEST(ModuleLoadTest, OtherAbiVersion) {
  Error error = loadError(fakeModule("version2"));
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "ABI version 2");
  TC_EXPECT_CONTAINS(error.message, "supports version 1");
}

TEST(ModuleLoadTest, MalformedMetadataNamesTheLine) {
  Error error = loadError(fakeModule("malformed"));
  EXPECT_EQ(error.code, TC_STATUS_MALFORMED);
  TC_EXPECT_CONTAINS(error.message, "line 4 'input b f32 2 4'");
  TC_EXPECT_CONTAINS(error.message, "rank is 2 but 1 dims follow");
}

TEST(ModuleLoadTest, CpuFeaturesThisCpuLacksAreIncompatible) {
  // 'avx99' is no feature this runtime knows: refused like a missing one.
  Error error = loadError(fakeModule("future_cpu"));
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "compiled for CPU 'future-cpu'");
  TC_EXPECT_CONTAINS(error.message, "this CPU lacks: avx99;");
  EXPECT_EQ(error.message.find("cmov,"), std::string::npos);
}

TEST(ModuleQueryTest, CompilerAndCpuRecords) {
  auto runtime = makeRuntime(1);
  auto module = loadModule(runtime.get(), "cpu_record");
  ASSERT_TRUE(module);
  EXPECT_STREQ(tc_module_compiler(module.get()), "tc 9.9.9 llvm 22.0.0");
  EXPECT_STREQ(tc_module_cpu_name(module.get()), "x86-64");
  ASSERT_EQ(tc_module_num_cpu_features(module.get()), 1u);
  EXPECT_STREQ(tc_module_cpu_feature(module.get(), 0), "cmov");
  EXPECT_EQ(tc_module_cpu_feature(module.get(), 1), nullptr);
  ASSERT_EQ(tc_module_num_shape_buckets(module.get()), 2u);
  EXPECT_STREQ(tc_module_shape_bucket(module.get(), 0), "batch=1,seq len=128");
  EXPECT_STREQ(tc_module_shape_bucket(module.get(), 1), "batch=8");
  EXPECT_EQ(tc_module_shape_bucket(module.get(), 2), nullptr);
  EXPECT_STREQ(tc_module_mode(module.get()), "max-autotune");
  // A module without the records says so with empty strings.
  auto add = loadModule(runtime.get(), "add");
  ASSERT_TRUE(add);
  EXPECT_STREQ(tc_module_compiler(add.get()), "");
  EXPECT_STREQ(tc_module_cpu_name(add.get()), "");
  EXPECT_EQ(tc_module_num_cpu_features(add.get()), 0u);
  EXPECT_EQ(tc_module_num_shape_buckets(add.get()), 0u);
  EXPECT_STREQ(tc_module_mode(add.get()), "default");
}

TEST(ModuleLoadTest, UnknownModeNamesTheLine) {
  Error error = loadError(fakeModule("bad_mode"));
  EXPECT_EQ(error.code, TC_STATUS_MALFORMED);
  TC_EXPECT_CONTAINS(error.message, "'mode fastest'");
  TC_EXPECT_CONTAINS(
      error.message,
      "expected one 'mode default|reduce-overhead|max-autotune'");
}

TEST(ModuleLoadTest, MalformedBucketRecordNamesTheLine) {
  Error error = loadError(fakeModule("bad_bucket"));
  EXPECT_EQ(error.code, TC_STATUS_MALFORMED);
  TC_EXPECT_CONTAINS(error.message, "'bucket batch'");
  TC_EXPECT_CONTAINS(error.message, "expected 'bucket <escaped-name>=<extent>...'");
}

TEST(ModuleLoadTest, RelativePathIsNotSearched) {
  // "fake_add.so" must mean ./fake_add.so, not a library-path search.
  char *cwd = getcwd(nullptr, 0);
  ASSERT_EQ(chdir(TC_FAKE_MODULE_DIR), 0);
  auto runtime = makeRuntime(1);
  tc_module *module = nullptr;
  std::string error =
      describe(tc_module_load(runtime.get(), "fake_add.so", &module));
  ASSERT_EQ(chdir(cwd), 0);
  free(cwd);
  EXPECT_EQ(error, "");
  tc_module_release(module);
}

TEST(ModuleQueryTest, AddSignature) {
  auto runtime = makeRuntime(1);
  auto module = loadModule(runtime.get(), "add");
  ASSERT_TRUE(module);
  EXPECT_STREQ(tc_module_name(module.get()), "add");
  EXPECT_EQ(tc_module_path(module.get()), fakeModule("add"));
  ASSERT_EQ(tc_module_num_inputs(module.get()), 2u);
  ASSERT_EQ(tc_module_num_outputs(module.get()), 1u);
  ASSERT_EQ(tc_module_num_targets(module.get()), 1u);
  EXPECT_STREQ(tc_module_target(module.get(), 0), "cpu x86-64");
  EXPECT_EQ(tc_module_target(module.get(), 1), nullptr);

  tc_arg_info a;
  TC_ASSERT_OK(tc_module_input_info(module.get(), 0, &a));
  EXPECT_STREQ(a.name, "a");
  EXPECT_EQ(a.dtype, TC_DTYPE_F32);
  ASSERT_EQ(a.rank, 2);
  EXPECT_EQ(a.dims[0], -1);
  EXPECT_EQ(a.dims[1], 4);
  EXPECT_STREQ(a.dim_symbols[0], "batch");
  EXPECT_STREQ(a.dim_symbols[1], "");

  tc_arg_info out;
  TC_ASSERT_OK(tc_module_output_info(module.get(), 0, &out));
  EXPECT_STREQ(out.name, "out");
  EXPECT_STREQ(out.dim_symbols[0], "batch");

  Error error = take(tc_module_input_info(module.get(), 2, &a));
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(error.message, "input index 2 is out of range");
}

TEST(ModuleQueryTest, EscapedNamesAnonymousDimsAndScalars) {
  auto runtime = makeRuntime(1);
  auto module = loadModule(runtime.get(), "misc");
  ASSERT_TRUE(module);
  EXPECT_STREQ(tc_module_name(module.get()), "misc model");
  ASSERT_EQ(tc_module_num_targets(module.get()), 2u);
  EXPECT_STREQ(tc_module_target(module.get(), 1), "cpu generic");

  tc_arg_info code, xy, flag, empty;
  TC_ASSERT_OK(tc_module_input_info(module.get(), 0, &code));
  EXPECT_EQ(code.rank, 0);
  EXPECT_EQ(code.dtype, TC_DTYPE_I32);
  TC_ASSERT_OK(tc_module_input_info(module.get(), 1, &xy));
  EXPECT_STREQ(xy.name, "x y");
  EXPECT_EQ(xy.dtype, TC_DTYPE_F64);
  EXPECT_EQ(xy.dims[1], -1);
  EXPECT_STREQ(xy.dim_symbols[0], "n");
  EXPECT_STREQ(xy.dim_symbols[1], ""); // anonymous
  TC_ASSERT_OK(tc_module_input_info(module.get(), 2, &flag));
  EXPECT_EQ(flag.dtype, TC_DTYPE_BOOL);
  TC_ASSERT_OK(tc_module_output_info(module.get(), 1, &empty));
  EXPECT_EQ(empty.dims[0], 0);

  size_t index = 99;
  TC_ASSERT_OK(tc_module_find_input(module.get(), "x y", &index));
  EXPECT_EQ(index, 1u);
  TC_ASSERT_OK(tc_module_find_output(module.get(), "empty", &index));
  EXPECT_EQ(index, 1u);
  Error error = take(tc_module_find_input(module.get(), "z", &index));
  EXPECT_EQ(error.code, TC_STATUS_NOT_FOUND);
  TC_EXPECT_CONTAINS(error.message, "no input named 'z'");
  TC_EXPECT_CONTAINS(error.message, "'code', 'x y', 'flag'");
}

TEST(ModuleQueryTest, LoadingTwiceGivesIndependentModules) {
  auto runtime = makeRuntime(1);
  auto first = loadModule(runtime.get(), "add");
  auto second = loadModule(runtime.get(), "add");
  first.reset(); // dlclose of one must not unmap the other
  EXPECT_STREQ(tc_module_name(second.get()), "add");
}

// ---- Damaged, replaced and unusual files (docs: runtime.h, module_seal.h).

std::string readBytes(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  EXPECT_NE(file, nullptr) << path;
  std::string bytes;
  if (!file)
    return bytes;
  char buffer[65536];
  for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), file)) > 0;)
    bytes.append(buffer, n);
  std::fclose(file);
  return bytes;
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr) << path;
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), file), bytes.size());
  ASSERT_EQ(std::fclose(file), 0);
}

/// A fresh directory for one test's files, removed with them.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    char name[] = "/tmp/tc-module-test-XXXXXX";
    path = mkdtemp(name) ? name : "";
    EXPECT_FALSE(path.empty());
  }
  ~ScratchDir() { (void)std::system(("rm -rf '" + path + "'").c_str()); }
  std::string file(const std::string &name) const { return path + "/" + name; }
};

TEST(ModuleDamageTest, TruncatedFilesAreRefusedWithoutLoading) {
  ScratchDir dir;
  std::string bytes = readBytes(fakeModule("add"));
  ASSERT_GT(bytes.size(), 1000u);
  for (int percent = 10; percent <= 90; percent += 10) {
    std::string path = dir.file("cut" + std::to_string(percent) + ".so");
    writeBytes(path, bytes.substr(0, bytes.size() * percent / 100));
    Error error = loadError(path);
    EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE) << percent << "%";
    TC_EXPECT_CONTAINS(error.message, "'" + path + "'");
  }
  // Cut just before the seal: the ELF is whole, the seal is gone.
  std::string path = dir.file("unsealed.so");
  writeBytes(path, bytes.substr(0, bytes.size() - TC_SEAL_TRAILER_SIZE));
  Error error = loadError(path);
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "no tc-compile seal");
}

TEST(ModuleDamageTest, ZeroedTailsAndFlippedBytesAreRefused) {
  ScratchDir dir;
  std::string bytes = readBytes(fakeModule("add"));
  size_t sealed = bytes.size() - TC_SEAL_TRAILER_SIZE;
  // The tail zeroed from 50% (the seal with it), and one flipped byte at
  // several places, the seal kept: the checksum catches what the ELF checks
  // cannot.
  std::string zeroed = bytes;
  std::fill(zeroed.begin() + zeroed.size() / 2, zeroed.end(), '\0');
  writeBytes(dir.file("zeroed.so"), zeroed);
  Error error = loadError(dir.file("zeroed.so"));
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  for (size_t at : {sealed / 7, sealed / 3, sealed / 2, sealed - 1}) {
    std::string flipped = bytes;
    flipped[at] ^= 0x10;
    std::string path = dir.file("flipped" + std::to_string(at) + ".so");
    writeBytes(path, flipped);
    Error flip = loadError(path);
    EXPECT_EQ(flip.code, TC_STATUS_INCOMPATIBLE) << "byte " << at;
    TC_EXPECT_CONTAINS(flip.message, "do not match the checksum");
  }
}

TEST(ModuleDamageTest, ForeignSharedLibraryWithoutSealIsRefused) {
  // A real shared library from the system: valid ELF, no seal.
  Error error = loadError("/lib/x86_64-linux-gnu/libm.so.6");
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "no tc-compile seal");
}

TEST(ModuleDamageTest, DirectoriesAndFifosAreRefusedAtOnce) {
  ScratchDir dir;
  Error directory = loadError(dir.path);
  EXPECT_EQ(directory.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(directory.message, "is a directory");
  // Opening a FIFO for reading would block until a writer comes.
  std::string fifo = dir.file("model.so");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Error error = loadError(fifo);
  EXPECT_EQ(error.code, TC_STATUS_INVALID_ARGUMENT);
  TC_EXPECT_CONTAINS(error.message, "not a regular file");
}

/// Puts fake module `name` at `path` as tc-compile writes its output: a new
/// file renamed over the old one; then loads it.
Owned<tc_module> replaceAndLoad(tc_runtime *runtime, const std::string &path,
                                const std::string &name) {
  writeBytes(path + ".new", readBytes(fakeModule(name)));
  EXPECT_EQ(std::rename((path + ".new").c_str(), path.c_str()), 0);
  tc_module *module = nullptr;
  EXPECT_EQ(describe(tc_module_load(runtime, path.c_str(), &module)), "");
  return Owned<tc_module>(module);
}

TEST(ModuleReloadTest, ReplacedFileLoadsTheNewCode) {
  ScratchDir dir;
  std::string path = dir.file("model.so");
  auto runtime = makeRuntime(1);
  Owned<tc_module> old = replaceAndLoad(runtime.get(), path, "add");
  ASSERT_TRUE(old);
  EXPECT_STREQ(tc_module_name(old.get()), "add");
  // Recompiled while the old module is still loaded (load new, swap,
  // release old).
  Owned<tc_module> fresh = replaceAndLoad(runtime.get(), path, "echo");
  ASSERT_TRUE(fresh);
  EXPECT_STREQ(tc_module_name(fresh.get()), "echo");
  EXPECT_STREQ(tc_module_name(old.get()), "add");
  old.reset();
  // And again after the old one is gone.
  Owned<tc_module> last = replaceAndLoad(runtime.get(), path, "misc");
  ASSERT_TRUE(last);
  EXPECT_STREQ(tc_module_name(last.get()), "misc model");
  EXPECT_STREQ(tc_module_name(fresh.get()), "echo");
}

TEST(ModuleReloadTest, FileOverwrittenInPlaceWhileLoadedIsRefused) {
  ScratchDir dir;
  std::string path = dir.file("model.so");
  std::string bytes = readBytes(fakeModule("add"));
  writeBytes(path, bytes);
  auto runtime = makeRuntime(1);
  tc_module *loaded = nullptr;
  TC_ASSERT_OK(tc_module_load(runtime.get(), path.c_str(), &loaded));
  Owned<tc_module> module(loaded);
  // Same inode, other contents: bytes appended past the ELF (which the
  // loaded code does not map) and sealed again, written in place.
  std::string changed =
      bytes.substr(0, bytes.size() - TC_SEAL_TRAILER_SIZE) +
      std::string(64, '\x5a');
  unsigned char trailer[TC_SEAL_TRAILER_SIZE];
  tc_seal_write_trailer(trailer, changed.size(),
                        tc_seal_checksum(changed.data(), changed.size()));
  changed.append(reinterpret_cast<const char *>(trailer), sizeof(trailer));
  int fd = open(path.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(pwrite(fd, changed.data(), changed.size(), 0),
            static_cast<ssize_t>(changed.size()));
  close(fd);
  Error error = loadError(path);
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "overwritten in place");
  // Once the old module is released, the file loads.
  module.reset();
  tc_module *again = nullptr;
  TC_ASSERT_OK(tc_module_load(runtime.get(), path.c_str(), &again));
  tc_module_release(again);
}

TEST(ModuleReloadTest, SameFileLoadedTwiceSharesItsCode) {
  auto runtime = makeRuntime(1);
  auto first = loadModule(runtime.get(), "add");
  auto second = loadModule(runtime.get(), "add");
  ASSERT_TRUE(first && second);
  first.reset();
  // The second still runs after the first is released.
  auto device = makeDevice(runtime.get());
  auto a = makeTensor<float>(TC_DTYPE_F32, {1, 4}, {1, 2, 3, 4});
  auto b = makeTensor<float>(TC_DTYPE_F32, {4}, {10, 20, 30, 40});
  tc_tensor *inputs[] = {a.get(), b.get()};
  tc_tensor *output = nullptr;
  TC_ASSERT_OK(tc_module_run(second.get(), device.get(), inputs, 2, &output, 1));
  Owned<tc_tensor> result(output);
  EXPECT_EQ(static_cast<const float *>(tc_tensor_data(output))[3], 44.0f);
}

/// Fake module `name` with `weights` appended as tc-compile appends them
/// (tc-runtime/module_weights.h), the trailer recording `recorded` bytes,
/// and sealed again.
std::string withWeights(const std::string &name, const std::string &weights,
                        uint64_t recorded) {
  std::string bytes = readBytes(fakeModule(name));
  bytes.resize(bytes.size() - TC_SEAL_TRAILER_SIZE);
  bytes.resize((bytes.size() + TC_WEIGHTS_ALIGNMENT - 1) /
               TC_WEIGHTS_ALIGNMENT * TC_WEIGHTS_ALIGNMENT);
  uint64_t offset = bytes.size();
  bytes += weights;
  unsigned char trailer[TC_WEIGHTS_TRAILER_SIZE];
  tc_weights_write_trailer(trailer, offset, recorded);
  bytes.append(reinterpret_cast<char *>(trailer), sizeof(trailer));
  unsigned char seal[TC_SEAL_TRAILER_SIZE];
  tc_seal_write_trailer(seal, bytes.size(),
                        tc_seal_checksum(bytes.data(), bytes.size()));
  return bytes.append(reinterpret_cast<char *>(seal), sizeof(seal));
}

TEST(ModuleWeightsTest, AppendedWeightsAreMappedOverTheRegion) {
  ScratchDir dir;
  const float values[4] = {1.5f, -2.0f, 3.25f, 1e-3f};
  std::string weights(reinterpret_cast<const char *>(values), sizeof(values));
  std::string path = dir.file("model.so");
  writeBytes(path, withWeights("weights", weights, weights.size()));
  auto runtime = makeRuntime(1);
  tc_module *loaded = nullptr;
  TC_ASSERT_OK(tc_module_load(runtime.get(), path.c_str(), &loaded));
  Owned<tc_module> module(loaded);
  auto device = makeDevice(runtime.get());
  tc_tensor *output = nullptr;
  TC_ASSERT_OK(tc_module_run(module.get(), device.get(), nullptr, 0, &output, 1));
  Owned<tc_tensor> result(output);
  EXPECT_EQ(std::memcmp(tc_tensor_data(output), values, sizeof(values)), 0);
  // Mapped from the file, read-only, not copied: /proc/self/maps lists the
  // file at the weights' 64 KB-aligned offset.
  std::ifstream maps("/proc/self/maps");
  std::string line, mapping;
  char real[PATH_MAX];
  ASSERT_NE(realpath(path.c_str(), real), nullptr);
  while (std::getline(maps, line))
    if (line.size() > std::strlen(real) &&
        line.compare(line.size() - std::strlen(real), std::string::npos,
                     real) == 0 &&
        line.find(" r--p ") != std::string::npos)
      mapping += line + "\n";
  uint64_t offset = readBytes(path).size() - TC_SEAL_TRAILER_SIZE -
                    TC_WEIGHTS_TRAILER_SIZE - weights.size();
  char hex[32];
  std::snprintf(hex, sizeof(hex), " r--p %08llx ",
                static_cast<unsigned long long>(offset));
  TC_EXPECT_CONTAINS(mapping, hex);
}

TEST(ModuleWeightsTest, RegionAndTrailerMustComeTogether) {
  ScratchDir dir;
  // The region without the weights (the fake as built): refused, not run
  // on zeros.
  Error bare = loadError(fakeModule("weights"));
  EXPECT_EQ(bare.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(bare.message, "a weights region but no weights");
  // Weights but no region to map them over.
  std::string path = dir.file("add.so");
  writeBytes(path, withWeights("add", std::string(64, 'x'), 64));
  Error orphan = loadError(path);
  EXPECT_EQ(orphan.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(orphan.message, "weights but no weights region");
}

TEST(ModuleWeightsTest, WeightsLargerThanTheRegionOrOutsideTheFile) {
  ScratchDir dir;
  // More bytes than the 64 KB region holds.
  std::string big(TC_WEIGHTS_ALIGNMENT + 64, 'x');
  writeBytes(dir.file("big.so"), withWeights("weights", big, big.size()));
  Error error = loadError(dir.file("big.so"));
  EXPECT_EQ(error.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(error.message, "do not fit its weights region");
  // A trailer recording more bytes than the file has.
  writeBytes(dir.file("short.so"), withWeights("weights", "abcd", 1 << 20));
  Error outside = loadError(dir.file("short.so"));
  EXPECT_EQ(outside.code, TC_STATUS_INCOMPATIBLE);
  TC_EXPECT_CONTAINS(outside.message, "outside the file");
}

} // namespace
