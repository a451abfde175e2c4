"""PyTorch's fused inference kernels as ordinary ops, for export.

In eval mode with grad off, nn.TransformerEncoderLayer and
nn.MultiheadAttention take a "fast path": one fused kernel
(torch._transformer_encoder_layer_fwd, torch._native_multi_head_attention)
that Dynamo records as it is and that has no ONNX operator. Before a Dynamo
graph is exported, the backend points each such call at the function here
that computes the same thing with ordinary ops, which is what the modules'
slow path does.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def _additive_mask(mask, mask_type, batch, length, keys, dtype):
    """The fused kernels' mask as a float mask added to the scores:
    mask_type 0 is [length, keys], 1 a key padding mask [batch, keys], 2
    [batch, heads, length, keys]; a boolean True masks the position out."""
    if mask is None:
        return None
    if mask_type == 1:
        mask = mask.view(batch, 1, 1, keys)
    elif mask_type == 0:
        mask = mask.view(1, 1, length, keys)
    if mask.dtype == torch.bool:
        return torch.zeros(mask.shape, dtype=dtype, device=mask.device).masked_fill(
            mask, float("-inf"))
    return mask.to(dtype)


def _attention(query, key, value, embed_dim, heads, qkv_weight, qkv_bias,
               proj_weight, proj_bias, mask, mask_type):
    """Multi-head attention of batch-first inputs; (output, weights per head)."""
    batch, length, _ = query.shape
    keys = key.shape[1]
    width = embed_dim // heads
    wq, wk, wv = qkv_weight.chunk(3)
    bq, bk, bv = qkv_bias.chunk(3)
    q = F.linear(query, wq, bq).view(batch, length, heads, width).transpose(1, 2)
    k = F.linear(key, wk, bk).view(batch, keys, heads, width).transpose(1, 2)
    v = F.linear(value, wv, bv).view(batch, keys, heads, width).transpose(1, 2)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(width)
    additive = _additive_mask(mask, mask_type, batch, length, keys, scores.dtype)
    if additive is not None:
        scores = scores + additive
    weights = torch.softmax(scores, dim=-1)
    out = torch.matmul(weights, v).transpose(1, 2).reshape(batch, length, embed_dim)
    return F.linear(out, proj_weight, proj_bias), weights


def native_multi_head_attention(query, key, value, embed_dim, num_head, qkv_weight,
                                qkv_bias, proj_weight, proj_bias, mask=None,
                                need_weights=True, average_attn_weights=True,
                                mask_type=None):
    out, weights = _attention(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias,
                              proj_weight, proj_bias, mask, mask_type)
    if not need_weights:
        return out, None
    return out, weights.mean(dim=1) if average_attn_weights else weights


def transformer_encoder_layer(src, embed_dim, num_heads, qkv_weight, qkv_bias,
                              proj_weight, proj_bias, use_gelu, norm_first, eps,
                              norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2,
                              ffn_weight_1, ffn_bias_1, ffn_weight_2, ffn_bias_2,
                              mask=None, mask_type=None):
    def self_attention(x):
        return _attention(x, x, x, embed_dim, num_heads, qkv_weight, qkv_bias,
                          proj_weight, proj_bias, mask, mask_type)[0]

    def feed_forward(x):
        hidden = F.linear(x, ffn_weight_1, ffn_bias_1)
        hidden = F.gelu(hidden) if use_gelu else F.relu(hidden)
        return F.linear(hidden, ffn_weight_2, ffn_bias_2)

    def norm(x, weight, bias):
        return F.layer_norm(x, (embed_dim,), weight, bias, eps)

    x = src
    if norm_first:
        x = x + self_attention(norm(x, norm_weight_1, norm_bias_1))
        return x + feed_forward(norm(x, norm_weight_2, norm_bias_2))
    x = norm(x + self_attention(x), norm_weight_1, norm_bias_1)
    return norm(x + feed_forward(x), norm_weight_2, norm_bias_2)


# The fused kernel -> its replacement, as FX call targets.
REPLACEMENTS = {
    torch._transformer_encoder_layer_fwd: transformer_encoder_layer,
    torch._native_multi_head_attention: native_multi_head_attention,
}


def replace_fused_kernels(graph) -> None:
    """Points the calls of `graph` (a torch.fx.Graph) at REPLACEMENTS."""
    for node in graph.nodes:
        if node.op == "call_function" and node.target in REPLACEMENTS:
            node.target = REPLACEMENTS[node.target]
