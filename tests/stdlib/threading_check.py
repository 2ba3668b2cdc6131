import threading
results = []
lock = threading.Lock()

def work(n):
    with lock:
        results.append(n * 10)

threads = [threading.Thread(target=work, args=(i,), name=f"worker-{i}") for i in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results), threads[0].name, threads[0].is_alive())
print(threading.current_thread().name, threading.main_thread() is threading.current_thread())
ev = threading.Event()
ev.set()
print(ev.is_set(), ev.wait(0.1))
local = threading.local()
local.x = 3
print(local.x, isinstance(threading.RLock(), object))
