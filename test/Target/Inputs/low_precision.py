"""numpy references for --precision tests: rounding to TF32, bf16 and fp16
(kept as f32), a direct convolution in f64, and attention as the 16-bit
policy computes it. Imported by the .mlir.py model
scripts of test/Target/Cpu and test/Target/Gpu."""
import numpy as np


def bf16(a):
    """Rounds f32 values to bf16 (nearest even), kept as f32."""
    bits = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def tf32(a):
    """Rounds f32 values to TF32's 10 mantissa bits (nearest even), kept
    as f32."""
    bits = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0xFFF + ((bits >> 13) & 1)) >> 13 << 13
    return bits.astype(np.uint32).view(np.float32)


def f16(a):
    """Rounds f32 values to fp16 (nearest even), kept as f32."""
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


def conv(x, w, stride=1, pad=1, dilation=1, group=1):
    """NCHW convolution of `x` by `w` [F, C / group, KH, KW], in f64."""
    n, _, h, wd = x.shape
    f, cg, kh, kw = w.shape
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    y = np.zeros((n, f, oh, ow))
    fg = f // group
    for g in range(group):
        for i in range(kh):
            for j in range(kw):
                patch = x[:, g * cg:(g + 1) * cg,
                          i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                          j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
                y[:, g * fg:(g + 1) * fg] += np.einsum(
                    "nchw,fc->nfhw", patch, w[g * fg:(g + 1) * fg, :, i, j])
    return y


def attention(q, kt, v, mask, scale, r):
    """softmax(scale q kt + mask) v under a 16-bit policy rounding with
    `r`: Q, K, V and the mask rounded, the scores exact, the softmax in f32
    (here f64), the probabilities rounded before they multiply V, the
    result rounded once."""
    s = np.matmul(r(q).astype(np.float64), r(kt)) * scale + r(mask)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = r((e / e.sum(axis=-1, keepdims=True)).astype(np.float32))
    return r(np.matmul(p.astype(np.float64), r(v)).astype(np.float32))
