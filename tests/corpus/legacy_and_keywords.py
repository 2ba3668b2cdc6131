# Legacy typed constructors, Tensor.type, keyword forms of common functions
# and the *_like factories with dtype/device/requires_grad, as tutorials
# written for older PyTorch use them.
import torch

print(torch.LongTensor([1, 2]), torch.LongTensor(2, 3).shape, torch.FloatTensor(2).shape)
print(torch.DoubleTensor([1, 2]), torch.BoolTensor([1, 0]), torch.FloatTensor([[1, 2]]))
print(torch.FloatTensor((2, 3)), torch.FloatTensor().shape, torch.LongTensor([1.5, 2.7]))
print(torch.LongTensor(3).zero_())
print(torch.Tensor(2, 3).shape, torch.Tensor([1, 2]), torch.Tensor())
x = torch.zeros(2)
print(isinstance(x, torch.FloatTensor), isinstance(x, torch.LongTensor), isinstance(x.long(), torch.LongTensor))
print(isinstance(x, torch.Tensor), issubclass(torch.FloatTensor, torch.Tensor))
print(torch.FloatTensor, torch.FloatTensor.dtype, torch.LongTensor.dtype)
print(x.type(), x.long().type(), x.double().type(), x.bool().type())
print(x.type(torch.LongTensor), x.type("torch.DoubleTensor"), x.type(torch.int64))
print(torch.FloatTensor(torch.tensor([1.0, 2.0])))
for bad in (lambda: torch.FloatTensor(torch.tensor([1, 2])),
            lambda: torch.FloatTensor("a"),
            lambda: x.type("torch.Nothing")):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(6.0).reshape(3, 2)
print(torch.matmul(input=a, other=b))
print(torch.mm(input=a, mat2=b))
print(a.matmul(other=b))
print(torch.mul(input=a, other=2), torch.add(a, other=a, alpha=2))
print(torch.pow(a, exponent=2), a.pow(exponent=2))
print(torch.dot(torch.ones(3), tensor=torch.ones(3)), torch.mv(a, vec=torch.ones(3)))
print(torch.sum(input=a, dim=0), torch.softmax(input=a, dim=1))
print(torch.exp(input=a).shape, torch.eq(a, other=a).all())
try:
    torch.matmul(a, b, other=b)
except TypeError as e:
    print("TypeError")

torch.manual_seed(0)
d = torch.zeros(2, 3, dtype=torch.float64)
print(torch.rand_like(d), torch.rand_like(d, dtype=torch.float32))
print(torch.randn_like(d, dtype=torch.float32, requires_grad=True))
print(torch.zeros_like(d, requires_grad=True), torch.ones_like(input=d))
print(torch.full_like(d, 7, dtype=torch.int64), torch.empty_like(d, dtype=torch.float32).shape)
print(torch.randint_like(d, 10), torch.randint_like(d, 3, 10, dtype=torch.long))
print(torch.zeros_like(d, device="cpu").device, torch.ones_like(d, dtype=torch.bool))
try:
    torch.rand_like(torch.zeros(2, dtype=torch.long))
except Exception as e:
    print(type(e).__name__, e)
