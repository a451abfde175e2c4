//===- ModuleTest.cpp - loading model.so files and querying signatures
//-----===//

#include "TestUtil.h"

#include <cstdio>
#include <cstdlib>
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

} // namespace
