from fractions import Fraction
a = Fraction(3, 4)
b = Fraction("1/6")
print(a + b, a * b, a / b, a ** 2, -a)
print(Fraction(0.1), Fraction(0.1).limit_denominator(100), Fraction("2.25"))
print(float(a), a.numerator, a.denominator, a < b, round(Fraction(7, 3), 2))
print(sum(Fraction(1, n) for n in range(1, 6)))
