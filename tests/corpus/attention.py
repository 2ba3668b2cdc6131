# Self-attention: scaled_dot_product_attention and nn.MultiheadAttention.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
q = torch.randn(2, 3, 4)
k = torch.randn(2, 5, 4)
v = torch.randn(2, 5, 4)
print(F.scaled_dot_product_attention(q, k, v))
mask = torch.tensor([True, True, False, True, False])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask))

mha = nn.MultiheadAttention(8, 2)
print(mha)
print([name for name, _ in mha.named_parameters()])
print(mha.in_proj_weight[:2])
x = torch.randn(4, 3, 8)
out, weights = mha(x, x, x)
print(out.shape, weights.shape)
print(out[0])
print(weights[0])
pad = torch.tensor([[False, False, False, True], [False, True, True, True], [False] * 4])
out, weights = mha(x, x, x, key_padding_mask=pad)
print(weights[1])
bf = nn.MultiheadAttention(8, 4, batch_first=True)
y, w = bf(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1), average_attn_weights=False)
print(y.shape, w.shape)
y.sum().backward()
print(bf.in_proj_weight.grad.shape)
print(F.scaled_dot_product_attention(q[:, :3], k[:, :3], v[:, :3], is_causal=True)[0])
