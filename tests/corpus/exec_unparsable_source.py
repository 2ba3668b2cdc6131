# exec, eval and compile of sources that do not parse, non-ASCII among
# them: a SyntaxError as in CPython (RustPython 0.6 panicked on these).
try:
    exec("\"\u00e9")
except SyntaxError as e:
    print("SyntaxError", e)
try:
    compile("\"\"\"\u00e9\u00e9", "f", "exec")
except SyntaxError as e:
    print("SyntaxError", e)
x = 5
exec("y = x + 1")
print(y, eval("x * 2"), eval("x", {"x": 7}), exec, eval.__name__, compile)
exec(compile("print('compiled', x)", "<s>", "exec"))
try:
    eval("'\u00e9")
except SyntaxError as e:
    print("SyntaxError", e)
try:
    exec(b'"\xc3\xa9')
except SyntaxError as e:
    print("SyntaxError", e)
def f():
    z = 3
    exec("print(z)")
f()
