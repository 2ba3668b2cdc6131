# The narrow integer dtypes (uint8, int8, int16, int32): factories, printing,
# promotion, wrapping casts and arithmetic, reductions, indexing, overflow
# errors, the NumPy bridge; the in-place views (unsqueeze_ and kin) and out=.
import torch
print(torch.iinfo(torch.int32).max, torch.iinfo(torch.uint8))
print(torch.tensor([1, 2], dtype=torch.int32).index_select(0, torch.tensor([1])))
x = torch.arange(6, dtype=torch.int16).reshape(2, 3)
print(x.t(), x.sum(1), x.float().mean(), x.max(dim=1))
print(torch.ones(2, dtype=torch.uint8).sum().dtype, torch.tensor([True, False]).to(torch.int8))
print(x.numpy() if False else x.tolist(), x.dtype.itemsize, x.is_floating_point(), torch.int16.is_signed)
print(torch.zeros(2, 3, dtype=torch.int8).shape, torch.full((2,), 7, dtype=torch.int16))
print(torch.randint(0, 10, (3,), dtype=torch.int32).dtype)
y = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
print(y @ y, torch.where(y > 2, y, 0), y.clamp(2, 3), y * 2.5, y // 2, y % 3, -y, abs(-y))
print(torch.cat([y, y]).dtype, torch.stack([y, y]).shape, y.view(4), y.unsqueeze(0).dtype)
print(y.to(torch.float64), y.long().dtype, y.type(torch.int16), y.type())
print(torch.ones(3).int(), torch.IntTensor([1, 2]), torch.ByteTensor([1, 2]))
print(torch.tensor(3, dtype=torch.int8), y.argmax(), y.unique() if hasattr(y, 'unique') else '')
print(torch.bincount(torch.tensor([1, 1, 3], dtype=torch.int32)))
print(torch.nn.functional.one_hot(torch.tensor([0, 2])).dtype)
print(y.cumsum(0), y.cumsum(0).dtype, y.prod(), y.eq(2), y.bool())
a = torch.ones((2, 3), dtype=torch.int16)
print(a)
b = torch.tensor([[0.9956, 1.4148, 5.8364],[11.2406, 11.2083, 11.6692]], dtype=torch.float64)
c = b.to(torch.int32)
print(c, c.dtype, c.element_size())
N = torch.zeros((3, 3), dtype=torch.int32)
N[1, 2] += 1
N[1, 2] += 1
print(N, N[1].sum(), N.float() / 2)
x = torch.tensor([300., -1., 1e10, 2.7])
print(x.to(torch.uint8), x.to(torch.int8), x.int(), x.short())
print(torch.tensor([200], dtype=torch.uint8) + 100, torch.tensor([1], dtype=torch.int8) * torch.tensor([1], dtype=torch.uint8))
print(torch.arange(5, dtype=torch.int32), torch.tensor([1,2], dtype=torch.int32) + torch.tensor([1, 2]))
print(torch.tensor([1,2],dtype=torch.int32)*1.5, (torch.tensor([1,2],dtype=torch.int16)+torch.tensor(5)).dtype)
print(torch.tensor([-1], dtype=torch.uint8), torch.int32, torch.uint8.is_signed)
try:
    torch.tensor([300], dtype=torch.uint8)
except RuntimeError as e:
    print(e)
y = torch.zeros(2, dtype=torch.int8)
try:
    y[0] = 200
except RuntimeError as e:
    print(e)
print(y.max(), -torch.tensor([1,2,3],dtype=torch.uint8))
print(torch.tensor([[1,2],[3,4]],dtype=torch.int32)@torch.tensor([[1,2],[3,4]],dtype=torch.int32))
print(torch.arange(3.)[torch.tensor([0, 2], dtype=torch.int32)])
print(torch.tensor([5],dtype=torch.int32)//2, torch.tensor([5],dtype=torch.int32)/2, torch.tensor([5],dtype=torch.int32)%3)
print(torch.cat([torch.ones(2, dtype=torch.int8), torch.ones(2, dtype=torch.int32)]))
print(torch.tensor([1,2,3], dtype=torch.int32).tolist(), torch.tensor([7], dtype=torch.int16).item())
x=torch.ones(2,3); v=x._version; r=x.unsqueeze_(0); print(x.shape, x._version, r is x, x.stride())
x.squeeze_(); print(x.shape, x._version); x.t_(); print(x.shape, x.stride(), x._version, x.is_contiguous()); x.transpose_(0,1); print(x.shape,x._version)
w=torch.ones(2,3,requires_grad=True)
try: w.unsqueeze_(0); print('leaf ok', w.shape, w.grad_fn)
except Exception as e: print(type(e).__name__, e)
a=torch.ones(2,3,requires_grad=True); y=a*2; print(y.grad_fn.name()); y.unsqueeze_(0); print(y.shape, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y._version)
y.sum().backward(); print(a.grad)
b=a*3; v=b.view(6)
v.unsqueeze_(0); print('view ok', v.shape, v.grad_fn.name())
c=a*3; c.t_(); print(c.grad_fn.name(), c.shape)
c=a*3; c.transpose_(0,1); print(c.grad_fn.name()); c.squeeze_(); print(c.grad_fn.name())
d=(a*1).unsqueeze(1); d.squeeze_(1); print(d.grad_fn.name(), d.shape); d.unsqueeze_(1); d.squeeze_((1,)); print(d.grad_fn.name(), d.shape)
z=torch.zeros(1,2,1); z.squeeze_(0); print(z.shape); z.squeeze_(-1); print(z.shape)
try: torch.ones(2,3,4).t_()
except Exception as e: print(type(e).__name__, e)
with torch.no_grad():
    w.unsqueeze_(0); print('nograd leaf', w.shape, w.requires_grad, w.is_leaf)
e=a*2; f=e*e; e.unsqueeze_(0)
try: f.sum().backward()
except Exception as ex: print(type(ex).__name__, str(ex)[:80])
import numpy as np
a = np.array([1, 2, 300], dtype=np.int32)
t = torch.from_numpy(a)
print(t, t.dtype)
u = torch.from_numpy(np.array([1, 255], dtype=np.uint8))
print(u, u.dtype)
print(torch.tensor(a), torch.as_tensor(np.array([1, 2], dtype=np.int16)).dtype)
n = torch.tensor([1, 2, 3], dtype=torch.int32).numpy()
print(n, n.dtype, repr(n))
print(torch.zeros(2, dtype=torch.uint8).numpy().dtype)
x = np.array([[1.5, 2.5]], dtype=np.float32)
print(torch.from_numpy(x).dtype)
c = torch.zeros(2, 2)
d = torch.matmul(torch.ones(2, 3), torch.ones(3, 2), out=c)
print(c, d is c)
e = torch.zeros(5)
torch.add(torch.ones(2), 1, out=e)
print(e)
try:
    torch.matmul(torch.ones(2, 2, requires_grad=True), torch.ones(2, 2), out=c)
except RuntimeError as err:
    print(err)
print(torch.result_type(torch.tensor([1], dtype=torch.int8), torch.tensor([1], dtype=torch.uint8)),
      torch.result_type(torch.tensor(1, dtype=torch.int32), 2), torch.result_type(torch.tensor([1], dtype=torch.int16), 2.5),
      torch.promote_types(torch.uint8, torch.int8), torch.can_cast(torch.int32, torch.int8))
for f in [lambda: torch.rand(2, dtype=torch.int32), lambda: torch.randn(2, dtype=torch.uint8), lambda: torch.ones(2, dtype=torch.int8).mean(),
          lambda: torch.tensor([1, 2], dtype=torch.int16) / torch.tensor([2, 2], dtype=torch.int16), lambda: torch.ones(2, dtype=torch.int32).exp(),
          lambda: torch.ones(2, dtype=torch.int32).sqrt(), lambda: torch.zeros(2, dtype=torch.uint8).fill_(-1), lambda: torch.ones(2, 2, dtype=torch.int32).softmax(0),
          lambda: torch.ones(2, dtype=torch.int32).requires_grad_(), lambda: torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1], dtype=torch.int32)),
          lambda: torch.arange(3.0)[torch.tensor([0, 1], dtype=torch.int8)], 
          lambda: (torch.ones(2, dtype=torch.bool) + torch.ones(2, dtype=torch.uint8)), lambda: torch.ones(2, dtype=torch.int32).pow(2),
          lambda: torch.ones(2, dtype=torch.int32) ** 0.5, lambda: torch.ones(2, dtype=torch.uint8) < 2, lambda: torch.tensor([200], dtype=torch.uint8).to(torch.int8),
          lambda: torch.ones(2, 2, dtype=torch.int32).argmax(1), lambda: torch.ones(2, dtype=torch.int32).float().dtype, lambda: torch.tensor([1.7, -1.7]).int()]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
