import torch

a = torch.tensor([2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = a * b
d = c + a
e = d.exp()
f = -e
print(f.grad_fn.name())
node = f.grad_fn
while node is not None:
    nexts = node.next_functions
    print(node.name(), [None if n is None else n.name() for n, _ in nexts])
    node = nexts[0][0] if nexts else None
acc = c.grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.variable is a, acc.variable.shape)
print(a.is_leaf, c.is_leaf, a.grad_fn, c.requires_grad)
