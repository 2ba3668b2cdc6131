import textwrap
text = "The quick brown fox jumps over the lazy dog while the gradients flow backwards through the graph."
print(textwrap.wrap(text, width=30))
print(textwrap.fill(text, width=40, initial_indent="* ", subsequent_indent="  "))
print(textwrap.shorten(text, width=40))
print(textwrap.dedent("""
    def f():
        return 1
""").strip())
print(textwrap.indent("a\nb\n\nc", "> "))
