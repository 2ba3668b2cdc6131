import datetime
from datetime import date, datetime as dt, timedelta, timezone
d = date(2024, 2, 28)
print(d + timedelta(days=2), d.isoformat(), d.weekday(), d.strftime("%A %d %B %Y"))
t = dt(2024, 3, 1, 14, 30, 5, 123456)
print(t, t.isoformat(timespec="milliseconds"), t.strftime("%H:%M:%S"))
print(dt.fromisoformat("2023-12-31T23:59:59") + timedelta(seconds=1))
print(t - dt(2024, 1, 1), (t - dt(2024, 1, 1)).total_seconds())
print(dt(2024, 1, 1, tzinfo=timezone.utc).isoformat(), timedelta(hours=36))
print(dt.strptime("07/04/2021 09:15", "%m/%d/%Y %H:%M"))
