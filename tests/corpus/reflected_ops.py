import torch

x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
a = 2 - x
b = 1 / x
c = 2 ** x
d = x ** 2
e = 3 * x + 1
print(a, b, c, d, e, sep="\n")
(a + b + c + d + e).sum().backward()
print(x.grad)
print(-x, abs(-x), +x)
i = torch.tensor([1, 2])
print(10 - i, 10 / i, i ** 2, 2 ** i)
