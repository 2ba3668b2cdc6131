import inspect

def train(model, data, *, lr=0.01, epochs: int = 5, **kwargs) -> float:
    return 0.0

class Net:
    def forward(self, x):
        return x

sig = inspect.signature(train)
print(sig)
print(list(sig.parameters), sig.parameters["lr"].default, sig.parameters["epochs"].annotation)
print(sig.bind(1, 2, lr=0.1).arguments)
print(inspect.isfunction(train), inspect.isclass(Net), inspect.ismethod(Net().forward))
print([name for name, _ in inspect.getmembers(Net, inspect.isfunction)])
print(inspect.signature(Net.forward), inspect.getmro(bool))
