#!/usr/bin/env python3
"""The host's single-core fp32 FMA peak, the ceiling of any fp32 kernel.

Compiles (clang-22, -O2 -march=native) a loop of 16 independent vector FMA
chains, as wide as the host's widest vectors (AVX-512, else AVX2), runs it
--runs times on one core and prints GFLOP/s for each run and the best.
cpu-performance figures divided by this say how close to the hardware a
kernel is: a model whose fp32 FLOPs at this rate already take more than a
target time cannot meet it in fp32, whatever the compiler does.

  python3 benchmarks/fma_peak.py [--runs 3]
"""
import argparse
import os
import subprocess
import tempfile

SOURCE = r"""
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
static float sum(vec v) { return _mm512_reduce_add_ps(v); }
#else
typedef __m256 vec;
#define LANES 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
static float sum(vec v) { float f[8]; _mm256_storeu_ps(f, v); return f[0]; }
#endif
int main(void) {
  vec acc[16], b = SET1(0.9999f), c = SET1(1e-4f);
  for (int i = 0; i < 16; i++) acc[i] = SET1((float)i);
  long steps = 20000000;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long s = 0; s < steps; s++)
    for (int i = 0; i < 16; i++) acc[i] = FMA(acc[i], b, c);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  float total = 0;
  for (int i = 0; i < 16; i++) total += sum(acc[i]);
  printf("%.1f %d %g\n", steps * 16.0 * LANES * 2 / seconds / 1e9, LANES, total);
  return 0;
}
"""


def measure_peak(runs=3, report=None):
    """The best of `runs` measurements of one core's fp32 FMA rate, GFLOP/s;
    `report(rate, lanes)` sees each."""
    with tempfile.TemporaryDirectory() as tmp:
        source, binary = os.path.join(tmp, "fma.c"), os.path.join(tmp, "fma")
        with open(source, "w") as f:
            f.write(SOURCE)
        subprocess.run(["clang-22", "-O2", "-march=native", source, "-o", binary], check=True)
        rates = []
        for _ in range(runs):
            out = subprocess.run(["taskset", "-c", "0", binary], capture_output=True,
                                 text=True, check=True).stdout.split()
            rates.append(float(out[0]))
            if report:
                report(out[0], out[1])
    return max(rates)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    peak = measure_peak(args.runs, lambda rate, lanes: print(
        f"run: {rate} GFLOP/s ({lanes} fp32 lanes per FMA)"))
    print(f"fp32 FMA peak, one core: {peak:.1f} GFLOP/s")


if __name__ == "__main__":
    main()
