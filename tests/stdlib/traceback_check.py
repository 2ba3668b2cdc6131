import traceback

def inner():
    raise ValueError("bad value")

try:
    inner()
except ValueError as e:
    print(traceback.format_exception_only(type(e), e))
    frames = traceback.extract_tb(e.__traceback__)
    print([f.name for f in frames], [f.lineno for f in frames])
    lines = traceback.format_exception(e)
    print(lines[0], lines[-1], end="")
print(traceback.format_list([("f.py", 3, "go", "x = 1")]))
