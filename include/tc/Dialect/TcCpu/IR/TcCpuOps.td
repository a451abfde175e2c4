//===- TcCpuOps.td - kernel dispatches of the CPU target ------------------===//

#ifndef TC_DIALECT_TCCPU_IR_TCCPUOPS_TD
#define TC_DIALECT_TCCPU_IR_TCCPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"

def TcCpu_Dialect : Dialect {
  let name = "tc_cpu";
  let cppNamespace = "::mlir::tc_cpu";
  let summary = "The host side of the CPU target: kernel dispatches";
  let description = [{
    `--tc-cpu-outline-workgroups` turns each kernel of @main (a top-level
    `scf.forall` on buffers, or a linalg op outside one) into a workgroup
    function and a `tc_cpu.dispatch` of it: what the runtime's thread pool
    runs, with the ONNX nodes the kernel computes for its profile.
    `--tc-cpu-convert-dispatches-to-llvm` converts the dispatch's operands
    with the rest of the LLVM lowering, and `--tc-cpu-emit-entry` lowers it
    into the runtime's `parallel_for` over a trampoline and lists it in the
    module's kernel table (include/tc-runtime/module_abi.h).
  }];
}

class TcCpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<TcCpu_Dialect, mnemonic, traits>;

def TcCpu_DispatchOp : TcCpu_Op<"dispatch",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Run a kernel's workgroups on the runtime's threads";
  let description = [{
    Runs workgroups 0 ... `count` - 1 of kernel `kernel` (its name in the
    module's kernel table and in a profile), each a call of `workgroup`
    with the captured values and the workgroup's number, through the
    environment `env` that the runtime passes to @main. `ops` and `nodes`
    are the ONNX op types (joined by '+') and node names (one per line)
    the kernel computes. A configured kernel also carries its
    `fusion.kernel_key` and `fusion.config`, which max-autotune reads.

    Before the LLVM lowering `count` is an index and the captures are the
    workgroup function's arguments but the last, which is the workgroup's
    number; after it, `count` is an i64 and each memref capture is its
    descriptor's fields (allocated and aligned pointers, offset, sizes,
    strides), as the LLVM calling convention passes them.

    ```mlir
    tc_cpu.dispatch @main_wg0[%count : index] %env
        captures(%a, %b : memref<64xf32>, memref<64xf32>)
        {kernel = "k0", ops = "Relu", nodes = "relu_1"}
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$workgroup, StrAttr:$kernel,
                       StrAttr:$ops, StrAttr:$nodes, LLVM_DefaultPointer:$env,
                       AnyTypeOf<[Index, I64]>:$count,
                       Variadic<AnyType>:$captures);
  let assemblyFormat = [{
    $workgroup `[` $count `:` type($count) `]` $env
    (`captures` `(` $captures^ `:` type($captures) `)`)? attr-dict
  }];
}

#endif // TC_DIALECT_TCCPU_IR_TCCPUOPS_TD
