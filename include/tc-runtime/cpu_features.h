/*===- cpu_features.h - CPU features a model.so records and checks -------===*
 *
 * tc-compile records in a model's metadata which of these features the code
 * was compiled to use (the `cpu` record, tc-runtime/module_abi.h), and
 * tc_module_load refuses the model, naming the missing ones, on a CPU that
 * lacks any: a clear INCOMPATIBLE error instead of SIGILL in the middle of
 * a run. The names are LLVM's x86 feature names, which are also what
 * __builtin_cpu_supports takes; other architectures record none.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TC_RUNTIME_CPU_FEATURES_H
#define TC_RUNTIME_CPU_FEATURES_H

/* X(name) for each feature, oldest first. */
#define TC_X86_CPU_FEATURES(X)                                                 \
  X("cmov") X("cx16") X("sahf") X("popcnt") X("sse3") X("ssse3")               \
  X("sse4.1") X("sse4.2") X("xsave") X("aes") X("pclmul") X("avx")             \
  X("f16c") X("fma") X("avx2") X("bmi") X("bmi2") X("lzcnt") X("movbe")        \
  X("adx") X("sha") X("vaes") X("vpclmulqdq") X("gfni") X("avx512f")           \
  X("avx512cd") X("avx512dq") X("avx512bw") X("avx512vl") X("avx512ifma")      \
  X("avx512vbmi") X("avx512vbmi2") X("avx512bitalg") X("avx512vpopcntdq")      \
  X("avx512vnni") X("avx512bf16") X("avx512fp16") X("avxvnni") X("avxifma")    \
  X("avxvnniint8") X("avxneconvert") X("avxvnniint16") X("amx-tile")          \
  X("amx-bf16") X("amx-int8") X("amx-fp16")

#endif /* TC_RUNTIME_CPU_FEATURES_H */
