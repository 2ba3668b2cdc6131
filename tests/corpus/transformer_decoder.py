# nn.Transformer, TransformerDecoderLayer and TransformerDecoder as
# sequence-to-sequence tutorials build them: PyTorch's initialisation (the
# same seed gives the same weights), structure, outputs with causal and
# padding masks, and gradients.
import warnings

import torch
import torch.nn as nn

warnings.simplefilter("ignore")
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=16,
                       dropout=0.0)
print(model)
print(sum(p.numel() for p in model.parameters()), [n for n, _ in model.named_parameters()][:8])
print(model.decoder.layers[1].multihead_attn.in_proj_weight[0].detach().round(decimals=4))
src = torch.randn(5, 2, 8)
tgt = torch.randn(4, 2, 8)
mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)
out = model(src, tgt, tgt_mask=mask)
print(out.shape, out.grad_fn.name())
print(out[:, 0].detach().round(decimals=4))
out.pow(2).mean().backward()
print(model.encoder.layers[0].linear1.weight.grad.abs().sum().round(decimals=4),
      model.decoder.layers[0].self_attn.in_proj_weight.grad.abs().sum().round(decimals=4))

torch.manual_seed(1)
layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True,
                                   norm_first=True)
decoder = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(8))
memory = torch.randn(2, 5, 8)
x = torch.randn(2, 3, 8, requires_grad=True)
pad = torch.tensor([[False, False, True, True, True], [False, False, False, False, True]])
y = decoder(x, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3), memory_key_padding_mask=pad)
print(y.shape, y[0].detach().round(decimals=4))
(y * torch.arange(48.0).reshape(2, 3, 8) / 48).sum().backward()
print(x.grad[1].round(decimals=3) + 0.0)
print(layer)
try:
    model(src, torch.randn(4, 3, 8))
except RuntimeError as e:
    print(e)
