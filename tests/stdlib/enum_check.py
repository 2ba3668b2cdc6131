import enum
from enum import Enum, IntEnum, Flag, auto

class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3

class Mode(IntEnum):
    TRAIN = auto()
    EVAL = auto()

class Perm(Flag):
    R = 4
    W = 2
    X = 1

print(Color.RED, repr(Color.GREEN), Color(3), Color["BLUE"].value)
print(list(Color), len(Color))
print(Mode.EVAL, Mode.EVAL + 1, Mode.TRAIN < Mode.EVAL)
print(Perm.R | Perm.W, Perm.W in (Perm.R | Perm.W), (Perm.R | Perm.X).value)
try:
    Color(7)
except ValueError as e:
    print(e)
