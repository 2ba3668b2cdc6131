import abc, ast, collections, copy, functools, glob, io, itertools, math, operator, os.path, random, time, timeit, typing, unicodedata

nested = {"a": [1, [2, 3]]}
deep = copy.deepcopy(nested)
deep["a"][1].append(4)
print(nested, deep, copy.copy(nested)["a"] is nested["a"])

@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), fib.cache_info(), functools.reduce(operator.mul, range(1, 6)), functools.partial(pow, 2)(10))

print(collections.Counter("mississippi").most_common(2), collections.namedtuple("P", "x y")(1, 2))
d = collections.deque([1, 2, 3]); d.rotate(1); print(d, collections.defaultdict(list)["k"])
print(math.isclose(math.pi, 3.14159, rel_tol=1e-5), math.comb(10, 3), math.gcd(12, 18))
print(os.path.join("data", "mnist", "train.pt"), os.path.splitext("model.ckpt.pt"), os.path.basename("/a/b/c.txt"))
print(isinstance(time.time(), float), time.strftime("%Y", time.gmtime(0)))
random.seed(0)
print(random.random(), random.randint(1, 100), random.choice("abc"))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.product("ab", repeat=2)))
print(glob.glob("*.no-such-extension"), glob.escape("a[b]"))
print(unicodedata.name("é"), unicodedata.normalize("NFD", "é").encode())
print(isinstance(timeit.timeit("sum(range(10))", number=5), float))
tree = ast.parse("x = 1 + 2")
print(type(tree.body[0]).__name__, ast.literal_eval("[1, {'a': (2, 3)}]"))
s = io.StringIO(); s.write("line1\nline2\n"); s.seek(0); print(s.readlines())
print(operator.itemgetter(1, 0)("ab"), operator.attrgetter("real")(3))
print(typing.get_type_hints(fib.__wrapped__), typing.List[int])

class Base(abc.ABC):
    @abc.abstractmethod
    def run(self): ...
class Impl(Base):
    def run(self):
        return "ran"
print(Impl().run(), Base.__abstractmethods__, isinstance(Impl(), Base))
