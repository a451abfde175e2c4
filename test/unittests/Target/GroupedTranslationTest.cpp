//===- GroupedTranslationTest.cpp - translateInGroups against a whole one
//--===//
//
// A grouped translation must give the module a whole translation gives:
// the same symbols with the same linkage and the same bodies. The module
// here has what makes grouping hard: a private constant and an internal
// function used from other groups, a global whose initializer takes a
// function's address, and an external declaration.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Host/GroupedTranslation.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

const char *kModule = R"mlir(
module {
  llvm.mlir.global private constant @message("hello\00") {addr_space = 0 : i32}
  llvm.mlir.global internal @counter(0 : i64) : i64
  llvm.func @puts(!llvm.ptr) -> i32
  llvm.func internal @helper(%x: i64) -> i64 {
    %c = llvm.mlir.addressof @counter : !llvm.ptr
    %v = llvm.load %c : !llvm.ptr -> i64
    %s = llvm.add %v, %x : i64
    llvm.store %s, %c : i64, !llvm.ptr
    llvm.return %s : i64
  }
  llvm.func internal @first(%x: i64) -> i64 {
    %m = llvm.mlir.addressof @message : !llvm.ptr
    %r = llvm.call @puts(%m) : (!llvm.ptr) -> i32
    %y = llvm.call @helper(%x) : (i64) -> i64
    llvm.return %y : i64
  }
  llvm.func internal @second(%x: i64) -> i64 {
    %m = llvm.mlir.addressof @message : !llvm.ptr
    %r = llvm.call @puts(%m) : (!llvm.ptr) -> i32
    %y = llvm.call @first(%x) : (i64) -> i64
    %z = llvm.call @helper(%y) : (i64) -> i64
    llvm.return %z : i64
  }
  llvm.func @entry(%x: i64) -> i64 {
    %y = llvm.call @second(%x) : (i64) -> i64
    llvm.return %y : i64
  }
  llvm.mlir.global external constant @table() {addr_space = 0 : i32} : !llvm.array<2 x ptr> {
    %0 = llvm.mlir.undef : !llvm.array<2 x ptr>
    %1 = llvm.mlir.addressof @first : !llvm.ptr
    %2 = llvm.insertvalue %1, %0[0] : !llvm.array<2 x ptr>
    %3 = llvm.mlir.addressof @entry : !llvm.ptr
    %4 = llvm.insertvalue %3, %2[1] : !llvm.array<2 x ptr>
    llvm.return %4 : !llvm.array<2 x ptr>
  }
}
)mlir";

std::string print(const llvm::GlobalValue &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

TEST(GroupedTranslation, MatchesWholeTranslation) {
  DialectRegistry registry;
  registry.insert<LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> whole = parseSourceString<ModuleOp>(kModule, &context);
  OwningOpRef<ModuleOp> grouped =
      parseSourceString<ModuleOp>(kModule, &context);
  ASSERT_TRUE(whole && grouped);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> expected =
      translateModuleToLLVMIR(*whole, llvmContext, "m");
  ASSERT_TRUE(expected);
  // One function per group: every call and address crosses groups.
  std::unique_ptr<llvm::Module> actual = tc::host::translateInGroups(
      *grouped, llvmContext, "m", expected->getDataLayout(),
      expected->getTargetTriple(), /*groups=*/4);
  ASSERT_TRUE(actual);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  EXPECT_FALSE(llvm::verifyModule(*actual, &os)) << problems;

  size_t count = 0;
  for (const llvm::GlobalValue &value : actual->global_values()) {
    ++count;
    const llvm::GlobalValue *reference =
        expected->getNamedValue(value.getName());
    ASSERT_TRUE(reference) << "unexpected symbol " << value.getName().str();
    EXPECT_EQ(reference->getLinkage(), value.getLinkage())
        << value.getName().str();
    EXPECT_EQ(print(*reference), print(value)) << value.getName().str();
  }
  EXPECT_EQ(count, expected->global_size() + expected->size());
  // The functions' MLIR went as they were translated.
  EXPECT_TRUE(
      grouped->getOps<LLVM::LLVMFuncOp>().empty() ||
      llvm::all_of(grouped->getOps<LLVM::LLVMFuncOp>(),
                   [](LLVM::LLVMFuncOp fn) { return fn.isExternal(); }));
}

} // namespace
