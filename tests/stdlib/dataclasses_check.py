import dataclasses
from dataclasses import dataclass, field, asdict, replace

@dataclass
class Config:
    lr: float = 0.01
    epochs: int = 10
    layers: list = field(default_factory=lambda: [64, 32])

@dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int

c = Config(epochs=3)
print(c)
print(asdict(c), c == Config(epochs=3))
print(replace(c, lr=0.1))
print(sorted([Point(2, 1), Point(1, 5), Point(1, 2)]))
try:
    Point(1, 2).x = 5
except dataclasses.FrozenInstanceError as e:
    print(type(e).__name__, e)
print([f.name for f in dataclasses.fields(Config)])
