// RUN: tc-opt %s --tc-gpu-lower-tuned-choices | FileCheck %s --check-prefix=HEURISTIC
// RUN: tc-opt %s --tc-gpu-lower-tuned-choices=candidate=1 | FileCheck %s --check-prefix=SECOND
// RUN: tc-opt %s --tc-gpu-lower-tuned-choices=candidate=2 | FileCheck %s --check-prefix=HEURISTIC

// The host code keeps the chosen branch of the switch on a tuned choice:
// the heuristic kernel's (the default) unless the build asks for an
// alternative the kernel has (two here).
// HEURISTIC-LABEL: func.func @host
// HEURISTIC-NOT: scf.index_switch
// HEURISTIC-NOT: tc_gpu.tuned_choice
// HEURISTIC: call @heuristic()
// HEURISTIC-NOT: call @
// SECOND-LABEL: func.func @host
// SECOND-NOT: scf.index_switch
// SECOND: call @second()
// SECOND-NOT: call @
func.func private @first()
func.func private @second()
func.func private @heuristic()
func.func @host() {
  %c = tc_gpu.tuned_choice "gpu-0123456789abcdef" [
      #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>,
      #fusion.kernel_config<strategy = "tiled-contraction", tile = [32, 32, 16], workgroups = 0, stages = 2>]
  scf.index_switch %c
  case 0 {
    func.call @first() : () -> ()
    scf.yield
  }
  case 1 {
    func.call @second() : () -> ()
    scf.yield
  }
  default {
    func.call @heuristic() : () -> ()
  }
  return
}
