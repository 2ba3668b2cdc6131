import struct
packed = struct.pack("<iHf?", -2, 513, 1.5, True)
print(packed, struct.calcsize("<iHf?"), struct.calcsize("iHf?"))
print(struct.unpack("<iHf?", packed))
print(struct.pack(">Q", 2**40).hex(), struct.unpack(">d", struct.pack(">d", 0.1)))
print(list(struct.iter_unpack("<2B", b"\x01\x02\x03\x04")))
s = struct.Struct("<3s2h")
print(s.size, s.unpack(s.pack(b"abc", 7, -7)))
try:
    struct.pack("<B", 256)
except struct.error as e:
    print(type(e).__name__)
