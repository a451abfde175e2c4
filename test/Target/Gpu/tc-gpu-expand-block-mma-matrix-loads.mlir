// RUN: tc-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tc-gpu-expand-block-mma{target=cuda:sm_90}))' | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-gpu-emulate-kernels | FileCheck %s --check-prefix=EMULATED

// Where tc_gpu.block_mma's fragments are not loaded as 8 x 8 matrices:
// rows of 36 bf16 (72 bytes) would start matrix rows off 16 bytes, so each
// lane loads its elements one by one.
// CHECK-LABEL: gpu.func @unaligned_rows
// CHECK-NOT: tc_gpu.subgroup_load_matrices
// CHECK: memref.load
// CHECK: tc_gpu.subgroup_mma
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @unaligned_rows(%out: memref<32x32xf32>)
        workgroup(%a : memref<16x36xbf16, #gpu.address_space<workgroup>>,
                  %b : memref<16x36xbf16, #gpu.address_space<workgroup>>,
                  %c : memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %p = tc_gpu.block_mma %a, %b, %zero {tile = array<i64: 32, 32, 16>}
          : memref<16x36xbf16, #gpu.address_space<workgroup>>, memref<16x36xbf16, #gpu.address_space<workgroup>>, vector<4xf32>
      tc_gpu.block_mma_store %p, %c {tile = array<i64: 32, 32, 16>, operand_type = bf16}
          : vector<4xf32>, memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// TF32 factors (f32, one per register) are not 16-bit: element loads.
// CHECK-LABEL: gpu.func @tf32
// CHECK-NOT: tc_gpu.subgroup_load_matrices
// CHECK: tc_gpu.subgroup_mma {{.*}}shape = array<i64: 16, 8, 8>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tf32(%out: memref<32x32xf32>)
        workgroup(%a : memref<16x36xf32, #gpu.address_space<workgroup>>,
                  %b : memref<16x36xf32, #gpu.address_space<workgroup>>,
                  %c : memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %p = tc_gpu.block_mma %a, %b, %zero {tile = array<i64: 32, 32, 16>}
          : memref<16x36xf32, #gpu.address_space<workgroup>>, memref<16x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      tc_gpu.block_mma_store %p, %c {tile = array<i64: 32, 32, 16>, operand_type = f32}
          : vector<4xf32>, memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// Tiles that keep K along their columns (lhs[m][k], rhs[n][k]: operands
// copied in vectors along K) give mma.sync's fragments by loads without
// .trans: A's four matrices at (0, 0), (8, 0), (0, 8), (8, 8) of its 16 x 16
// tile, B's two at (0, 0) and (0, 8) of its 8 x 16 one.
// CHECK-LABEL: gpu.func @k_inner
// CHECK: tc_gpu.subgroup_load_matrices %{{.*}}[%{{.*}}, %c0] {offsets = array<i64: 0, 0, 8, 0, 0, 8, 8, 8>} : memref<32x24xf16, #gpu.address_space<workgroup>> -> vector<8xf16>
// CHECK: tc_gpu.subgroup_load_matrices %{{.*}}[%{{.*}}, %c0{{(_[0-9]+)?}}] {offsets = array<i64: 0, 0, 0, 8>} : memref<32x24xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
// CHECK: tc_gpu.subgroup_mma
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k_inner(%out: memref<32x32xf32>)
        workgroup(%a : memref<32x24xf16, #gpu.address_space<workgroup>>,
                  %b : memref<32x24xf16, #gpu.address_space<workgroup>>,
                  %c : memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %p = tc_gpu.block_mma %a, %b, %zero {tile = array<i64: 32, 32, 16>, lhs_k_inner, rhs_k_inner}
          : memref<32x24xf16, #gpu.address_space<workgroup>>, memref<32x24xf16, #gpu.address_space<workgroup>>, vector<4xf32>
      tc_gpu.block_mma_store %p, %c {tile = array<i64: 32, 32, 16>, operand_type = f16}
          : vector<4xf32>, memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// Without .trans the emulation takes tile[row + r + l / 4][column + c +
// 2 (l % 4) + j]: here rows l / 4, columns 2 (l % 4) (+ 1), and the second
// matrix 8 rows further.
// EMULATED-LABEL: func.func private @__tc_emulated_load_rows
// EMULATED-NOT: tc_gpu.subgroup_load_matrices
// EMULATED: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// EMULATED: %[[QUAD:.*]] = arith.remui %[[LANE]], %c4
// EMULATED: %[[PAIR:.*]] = arith.muli %[[QUAD]], %c2
// EMULATED: %[[LINE:.*]] = arith.divui %[[LANE]], %c4
// EMULATED: %[[R0:.*]] = arith.addi %{{.*}}, %[[LINE]]
// EMULATED: %[[C0:.*]] = arith.addi %{{.*}}, %[[PAIR]]
// EMULATED: %[[E0:.*]] = memref.load %{{.*}}[%[[R0]], %[[C0]]] : memref<16x16xf16>
// EMULATED: %[[C1:.*]] = arith.addi %{{.*}}, %c1
// EMULATED: %[[E1:.*]] = memref.load %{{.*}}[%{{.*}}, %[[C1]]] : memref<16x16xf16>
// EMULATED: %[[R8:.*]] = arith.addi %{{.*}}, %c8
// EMULATED: memref.load %{{.*}}[%[[R8]], %{{.*}}] : memref<16x16xf16>
// EMULATED: memref.load
// EMULATED: vector.from_elements %[[E0]], %[[E1]], %{{.*}}, %{{.*}} : vector<4xf16>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @load_rows(%in: memref<16x16xf16>, %out: memref<32x4xf16>)
        workgroup(%t : memref<16x16xf16, #gpu.address_space<workgroup>>)
        kernel {
      %l = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      %lt = arith.cmpi ult, %l, %c16 : index
      scf.if %lt {
        scf.for %j = %c0 to %c16 step %c1 {
          %x = memref.load %in[%l, %j] : memref<16x16xf16>
          memref.store %x, %t[%l, %j] : memref<16x16xf16, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %v = tc_gpu.subgroup_load_matrices %t[%c0, %c0] {offsets = array<i64: 0, 0, 8, 0>}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
      vector.store %v, %out[%l, %c0] : memref<32x4xf16>, vector<4xf16>
      gpu.return
    }
  }
  func.func @main(%in: memref<16x16xf16>, %out: memref<32x4xf16>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@load_rows blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%in : memref<16x16xf16>, %out : memref<32x4xf16>)
    return
  }
}

// -----

// The emulation executes the load as defined: lane l = (linear thread id)
// mod 32 takes tile[row + r + 2 (l % 4) + j][column + c + l / 4], j = 0, 1,
// for each matrix's offsets (r, c): here rows 2 (l % 4) (+ 1), and columns
// l / 4 and 8 + l / 4.
// EMULATED-LABEL: func.func private @__tc_emulated_load
// EMULATED-NOT: tc_gpu.subgroup_load_matrices
// EMULATED: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// EMULATED: %[[QUAD:.*]] = arith.remui %[[LANE]], %c4
// EMULATED: %[[PAIR:.*]] = arith.muli %[[QUAD]], %c2
// EMULATED: %[[COLUMN:.*]] = arith.divui %[[LANE]], %c4
// EMULATED: %[[R0:.*]] = arith.addi %{{.*}}, %[[PAIR]]
// EMULATED: %[[C0:.*]] = arith.addi %{{.*}}, %[[COLUMN]]
// EMULATED: %[[E0:.*]] = memref.load %{{.*}}[%[[R0]], %[[C0]]] : memref<16x16xf16>
// EMULATED: %[[R1:.*]] = arith.addi %{{.*}}, %c1
// EMULATED: %[[E1:.*]] = memref.load %{{.*}}[%[[R1]], %{{.*}}] : memref<16x16xf16>
// EMULATED: %[[C8:.*]] = arith.addi %{{.*}}, %c8
// EMULATED: memref.load %{{.*}}[%{{.*}}, %[[C8]]] : memref<16x16xf16>
// EMULATED: memref.load
// EMULATED: vector.from_elements %[[E0]], %[[E1]], %{{.*}}, %{{.*}} : vector<4xf16>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @load(%in: memref<16x16xf16>, %out: memref<32x4xf16>)
        workgroup(%t : memref<16x16xf16, #gpu.address_space<workgroup>>)
        kernel {
      %l = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      %lt = arith.cmpi ult, %l, %c16 : index
      scf.if %lt {
        scf.for %j = %c0 to %c16 step %c1 {
          %x = memref.load %in[%l, %j] : memref<16x16xf16>
          memref.store %x, %t[%l, %j] : memref<16x16xf16, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %v = tc_gpu.subgroup_load_matrices %t[%c0, %c0] {offsets = array<i64: 0, 0, 0, 8>, transpose}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
      vector.store %v, %out[%l, %c0] : memref<32x4xf16>, vector<4xf16>
      gpu.return
    }
  }
  func.func @main(%in: memref<16x16xf16>, %out: memref<32x4xf16>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@load blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%in : memref<16x16xf16>, %out : memref<32x4xf16>)
    return
  }
}
