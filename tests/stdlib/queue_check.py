import queue
q = queue.Queue()
for i in range(3):
    q.put(i * i)
print(q.qsize(), q.get(), q.get(), q.empty())
p = queue.PriorityQueue()
for item in [(3, "c"), (1, "a"), (2, "b")]:
    p.put(item)
print([p.get() for _ in range(3)])
l = queue.LifoQueue()
l.put("x"); l.put("y")
print(l.get(), l.get())
try:
    q.get_nowait(); q.get_nowait()
except queue.Empty:
    print("empty")
s = queue.SimpleQueue()
s.put(5)
print(s.get(), s.empty())
