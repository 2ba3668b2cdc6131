import string
print(string.ascii_letters, string.digits, string.punctuation)
t = string.Template("$who trains $what for ${n} epochs")
print(t.substitute(who="Ann", what="a CNN", n=5))
print(t.safe_substitute(who="Bob"))
print(string.capwords("hello   world of torch"))
print(string.Formatter().format("{0:>6}|{name:^7}|", 3.5, name="x"))
