# hash() of str, bytes and tuples as CPython gives it with PYTHONHASHSEED=0
# (what recorded outputs assume), and pickle's default protocol: a program
# that splits data by hash(pickle.dumps(example)) % 4 (minGPT's sort demo)
# must draw the same split.
import pickle

for value in [b"", b"abc", "", "abc", "h\u00e9llo", "\u65e5\u672c", "a\U0001f600b", "x" * 100,
              (), ("a", 1), (1, 2, 3), ("a", (b"b", 2.5)), 7, -1, 2.5, True]:
    print(repr(value), hash(value))

print(pickle.DEFAULT_PROTOCOL, pickle.dumps([0, 1]))
split = ["test" if hash(pickle.dumps([i, i * 2 % 3])) % 4 == 0 else "train" for i in range(12)]
print(split)


class Name(str):
    pass


print(hash(Name("abc")) == hash("abc"))
