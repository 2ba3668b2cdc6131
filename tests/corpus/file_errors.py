# Reading files: binary and text opens, and the errors CPython raises.
import gzip
import io

with open("digits.csv.gz", "rb") as f:
    head = f.read(2)
print(head, type(head).__name__)
raw = open("digits.csv.gz", "rb").read()
text = gzip.decompress(raw).decode()
print(text.splitlines()[0][:20])
with gzip.open("digits.csv.gz") as f:
    print(f.read(10))
buf = io.StringIO("a,b\n1,2\n")
import csv
print(list(csv.reader(buf)))
try:
    open("missing.csv")
except FileNotFoundError as e:
    print(type(e).__name__, e.errno, e)
open("nope.txt", "r")
