import json
data = {"name": "model", "layers": [3, 4.5, None, True], "nested": {"b": 1, "a": "é"}}
text = json.dumps(data, indent=2, sort_keys=True)
print(text)
print(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
back = json.loads(text)
print(back == data, type(back["layers"][1]).__name__)
try:
    json.loads("{bad json}")
except json.JSONDecodeError as e:
    print(type(e).__name__, e.msg, e.pos)
