import decimal
from decimal import Decimal, getcontext, localcontext, ROUND_HALF_UP
print(Decimal("0.1") + Decimal("0.2"), Decimal(1) / Decimal(7))
with localcontext() as ctx:
    ctx.prec = 5
    print(Decimal(2).sqrt(), Decimal(1) / Decimal(3))
print(Decimal("2.675").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), Decimal("1.30").normalize())
print(Decimal(0.1), Decimal("1e3") * 2, getcontext().prec)
print(Decimal("3.14159").as_tuple())
try:
    Decimal(1) / Decimal(0)
except decimal.DivisionByZero as e:
    print(type(e).__name__)
