import pprint
data = {"model": {"layers": [{"type": "Linear", "in": 784, "out": 128}, {"type": "ReLU"}, {"type": "Linear", "in": 128, "out": 10}]},
        "optimizer": ("SGD", {"lr": 0.01, "momentum": 0.9}), "tags": ["mnist", "mlp", "baseline"]}
pprint.pprint(data)
pprint.pprint(data, width=120, compact=True)
print(pprint.pformat(list(range(30)), width=40))
print(pprint.pformat({"b": 1, "a": 2}, sort_dicts=False), pprint.isreadable([1, 2]))
