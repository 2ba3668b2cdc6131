import re
print(re.findall(r"\d+", "a1b22c333"))
print(re.sub(r"(\w+)@(\w+)\.com", r"\2:\1", "joe@site.com, ann@mail.com"))
m = re.match(r"(?P<key>\w+)=(?P<value>[^;]*)", "lr=0.01;momentum=0.9")
print(m.groupdict(), m.span())
pattern = re.compile(r"^epoch (\d+): loss ([\d.]+)$", re.MULTILINE)
log = "epoch 1: loss 0.93\nepoch 2: loss 0.51\nnoise\nepoch 3: loss 0.20"
print([(int(e), float(l)) for e, l in pattern.findall(log)])
print(re.split(r"[,;]\s*", "a, b;c,  d"))
print(re.fullmatch(r"[a-z]+", "abc1"), bool(re.search(r"(?i)LOSS", log)))
