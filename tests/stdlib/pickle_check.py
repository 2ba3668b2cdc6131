import pickle
from collections import OrderedDict

class Checkpoint:
    def __init__(self, step, state):
        self.step = step
        self.state = state

data = {"step": 3, "losses": [0.5, 0.25], "names": ("a", "b"), "od": OrderedDict(x=1), "bytes": b"\x00\x01"}
for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
    assert pickle.loads(pickle.dumps(data, protocol=protocol)) == data
blob = pickle.dumps(data, protocol=2)
print(len(blob), blob[:12])
ck = pickle.loads(pickle.dumps(Checkpoint(7, {"w": [1.0, 2.0]})))
print(type(ck).__name__, ck.step, ck.state)
print(pickle.loads(b"\x80\x04\x95\x0b\x00\x00\x00\x00\x00\x00\x00]\x94(K\x01K\x02K\x03e."))
