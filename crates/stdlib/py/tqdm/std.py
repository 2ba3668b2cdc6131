"""tqdm's progress bar as tqdm 4.70 draws it on a stream that is not a
terminal: a line redrawn in place with `\\r`, a 10-cell bar of Unicode
eighths, refreshed at most every `mininterval` seconds with tqdm's dynamic
`miniters`, and left on its own line when the bar closes.

Written for the runtime rather than shipped from PyPI: tqdm's own package
imports `threading` (its monitor thread), `re`, `inspect`, `platform`,
`datetime` and `unicodedata`, none of which the frozen library carries,
and the monitor thread cannot run in a page. What programs use is here:
`tqdm(iterable)`, `trange`, `total=`, `desc=`, `leave=`, `unit=`,
`unit_scale=`, `ncols=`, `ascii=`, `disable=`, `position=`, `postfix=`,
`bar_format=`, `initial=`, `update`, `close`, `set_description`,
`set_postfix`, `write`, `reset`, `refresh`, and the context manager."""

import atexit
import sys
import time as _time_module
from collections import OrderedDict
from numbers import Number
import warnings

__all__ = ["tqdm", "trange", "TqdmWarning", "TqdmKeyError", "TqdmTypeError",
           "TqdmExperimentalWarning", "TqdmDeprecationWarning"]


class TqdmTypeError(TypeError):
    pass


class TqdmKeyError(KeyError):
    pass


class TqdmWarning(Warning):
    def __init__(self, msg, fp_write=None, *a, **k):
        if fp_write is not None:
            fp_write("\n" + self.__class__.__name__ + ": " + str(msg).rstrip() + "\n")
        else:
            super().__init__(msg, *a, **k)


class TqdmExperimentalWarning(TqdmWarning, FutureWarning):
    pass


class TqdmDeprecationWarning(TqdmWarning, DeprecationWarning):
    pass


def _disp_len(s):
    """Display width: the length without ANSI colour codes."""
    out = 0
    i = 0
    while i < len(s):
        if s[i] == "\x1b":
            j = s.find("m", i)
            if j >= 0:
                i = j + 1
                continue
        out += 1
        i += 1
    return out


def _is_ascii(s):
    if isinstance(s, str):
        return all(ord(c) < 128 for c in s)
    return False


def _supports_unicode(fp):
    encoding = getattr(fp, "encoding", None)
    if not encoding:
        return False
    return encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf16", "utf32")


class _FormatReplace:
    """Stands in for `{bar}` to measure the rest of the line."""

    def __init__(self, replace=""):
        self.replace = replace
        self.format_called = 0

    def __format__(self, _):
        self.format_called += 1
        return self.replace


class Bar:
    """The bar itself: `frac` of `default_len` cells in `charset`."""

    ASCII = " 123456789#"
    UTF = " " + "".join(map(chr, range(0x258F, 0x2587, -1)))
    BLANK = "  "
    COLOUR_RESET = "\x1b[0m"
    COLOUR_RGB = "\x1b[38;2;%d;%d;%dm"
    COLOURS = {"BLACK": "\x1b[30m", "RED": "\x1b[31m", "GREEN": "\x1b[32m",
               "YELLOW": "\x1b[33m", "BLUE": "\x1b[34m", "MAGENTA": "\x1b[35m",
               "CYAN": "\x1b[36m", "WHITE": "\x1b[37m"}

    def __init__(self, frac, default_len=10, charset=UTF, colour=None):
        if not 0 <= frac <= 1:
            warnings.warn("clamping frac to range [0, 1]", TqdmWarning, stacklevel=2)
            frac = max(0, min(1, frac))
        self.frac = frac
        self.default_len = default_len
        self.charset = charset
        self.colour = None
        if colour:
            if colour.upper() in self.COLOURS:
                self.colour = self.COLOURS[colour.upper()]
            elif colour[0] == "#" and len(colour) == 7:
                self.colour = self.COLOUR_RGB % tuple(
                    int(i, 16) for i in (colour[1:3], colour[3:5], colour[5:7]))

    def __format__(self, format_spec):
        charset = self.charset
        n_bars = self.default_len
        if format_spec:
            kind = format_spec[-1].lower()
            sets = {"a": self.ASCII, "u": self.UTF, "b": self.BLANK}
            if kind in sets:
                charset = sets[kind]
                format_spec = format_spec[:-1]
            if format_spec:
                n_bars = int(format_spec)
                if n_bars < 0:
                    n_bars += self.default_len
        nsyms = len(charset) - 1
        bar_length, frac_bar_length = divmod(int(self.frac * n_bars * nsyms), nsyms)
        res = charset[-1] * bar_length
        if bar_length < n_bars:
            res = res + charset[frac_bar_length] + charset[0] * (n_bars - bar_length - 1)
        return self.colour + res + self.COLOUR_RESET if self.colour else res


class EMA:
    """Exponential moving average with tqdm's bias correction."""

    def __init__(self, smoothing=0.3):
        self.alpha = smoothing
        self.last = 0
        self.calls = 0

    def __call__(self, x=None):
        beta = 1 - self.alpha
        if x is not None:
            self.last = self.alpha * x + beta * self.last
            self.calls += 1
        return self.last / (1 - beta ** self.calls) if self.calls else self.last


class tqdm:
    """A progress bar over `iterable` (or counted by `update`), as tqdm's."""

    monitor_interval = 0
    _instances = []

    @staticmethod
    def format_sizeof(num, suffix="", divisor=1000):
        for unit in ["", "k", "M", "G", "T", "P", "E", "Z"]:
            if abs(num) < 999.5:
                if abs(num) < 99.95:
                    if abs(num) < 9.995:
                        return f"{num:1.2f}{unit}{suffix}"
                    return f"{num:2.1f}{unit}{suffix}"
                return f"{num:3.0f}{unit}{suffix}"
            num /= divisor
        return f"{num:3.1f}Y{suffix}"

    @staticmethod
    def format_interval(t):
        sign = "-" if t < 0 else ""
        mins, s = divmod(abs(int(t)), 60)
        h, m = divmod(mins, 60)
        return f"{sign}{h:d}:{m:02d}:{s:02d}" if h else f"{sign}{m:02d}:{s:02d}"

    @staticmethod
    def format_num(n):
        f = f"{n:.3g}".replace("e+0", "e+").replace("e-0", "e-")
        n = str(n)
        return f if len(f) < len(n) else n

    @staticmethod
    def status_printer(file):
        fp = file
        last_len = [0]

        def fp_write(s):
            fp.write(str(s))
            flush = getattr(fp, "flush", None)
            if flush is not None:
                flush()

        def print_status(s):
            len_s = _disp_len(s)
            fp_write("\r" + s + (" " * max(last_len[0] - len_s, 0)))
            last_len[0] = len_s

        return print_status

    @staticmethod
    def format_meter(n, total, elapsed, ncols=None, prefix="", ascii=False, unit="it",
                     unit_scale=False, rate=None, bar_format=None, postfix=None,
                     unit_divisor=1000, initial=0, colour=None, **extra_kwargs):
        if total and (n >= (total + 0.5) or total == float("inf")):
            total = None
        if unit_scale and unit_scale not in (True, 1):
            if total:
                total *= unit_scale
            n *= unit_scale
            if rate:
                rate *= unit_scale
            unit_scale = False

        elapsed_str = tqdm.format_interval(elapsed)
        if rate is None and elapsed:
            rate = (n - initial) / elapsed
        inv_rate = 1 / rate if rate else None
        format_sizeof = tqdm.format_sizeof
        rate_noinv_fmt = ((format_sizeof(rate) if unit_scale else f"{rate:5.2f}")
                          if rate else "?") + unit + "/s"
        rate_inv_fmt = ((format_sizeof(inv_rate) if unit_scale else f"{inv_rate:5.2f}")
                        if inv_rate else "?") + "s/" + unit
        rate_fmt = rate_inv_fmt if inv_rate and inv_rate > 1 else rate_noinv_fmt

        if unit_scale:
            n_fmt = format_sizeof(n, divisor=unit_divisor)
            total_fmt = format_sizeof(total, divisor=unit_divisor) if total is not None else "?"
        else:
            n_fmt = str(n)
            total_fmt = str(total) if total is not None else "?"

        try:
            postfix = ", " + postfix if postfix else ""
        except TypeError:
            pass

        remaining = (total - n) / rate if rate and total else 0
        remaining_str = tqdm.format_interval(remaining) if rate else "?"

        if prefix:
            l_bar = prefix if prefix[-2:] == ": " else prefix + ": "
        else:
            l_bar = ""
        r_bar = f"| {n_fmt}/{total_fmt} [{elapsed_str}<{remaining_str}, {rate_fmt}{postfix}]"

        format_dict = {
            "n": n, "n_fmt": n_fmt, "total": total, "total_fmt": total_fmt,
            "elapsed": elapsed_str, "elapsed_s": elapsed,
            "ncols": ncols, "desc": prefix or "", "unit": unit,
            "rate": inv_rate if inv_rate and inv_rate > 1 else rate,
            "rate_fmt": rate_fmt, "rate_noinv": rate,
            "rate_noinv_fmt": rate_noinv_fmt, "rate_inv": inv_rate,
            "rate_inv_fmt": rate_inv_fmt,
            "postfix": postfix, "unit_divisor": unit_divisor,
            "colour": colour,
            "remaining": remaining_str, "remaining_s": remaining,
            "l_bar": l_bar, "r_bar": r_bar,
            **extra_kwargs}

        charset = Bar.ASCII if ascii is True else ascii or Bar.UTF
        if total:
            frac = n / total
            percentage = frac * 100
            l_bar += f"{percentage:3.0f}%|"
            if ncols == 0:
                return l_bar[:-1] + r_bar[1:]
            format_dict.update(l_bar=l_bar)
            if bar_format:
                format_dict.update(percentage=percentage)
                if not prefix:
                    bar_format = bar_format.replace("{desc}: ", "")
            else:
                bar_format = "{l_bar}{bar}{r_bar}"
            full_bar = _FormatReplace()
            nobar = bar_format.format(bar=full_bar, **format_dict)
            if not full_bar.format_called:
                return nobar[:ncols] if ncols else nobar
            full_bar = Bar(frac, max(1, ncols - _disp_len(nobar)) if ncols else 10,
                           charset=charset, colour=colour)
            res = bar_format.format(bar=full_bar, **format_dict)
            return res[:ncols] if ncols else res
        if bar_format:
            l_bar += "|"
            format_dict.update(l_bar=l_bar, percentage=0)
            full_bar = _FormatReplace()
            nobar = bar_format.format(bar=full_bar, **format_dict)
            if not full_bar.format_called:
                return nobar[:ncols] if ncols else nobar
            full_bar = Bar(0, max(1, ncols - _disp_len(nobar)) if ncols else 10,
                           charset=Bar.BLANK, colour=colour)
            res = bar_format.format(bar=full_bar, **format_dict)
            return res[:ncols] if ncols else res
        res = (f'{(prefix + ": ") if prefix else ""}'
               f"{n_fmt}{unit} [{elapsed_str}, {rate_fmt}{postfix}]")
        return res[:ncols] if ncols else res

    @classmethod
    def _get_free_pos(cls, instance=None):
        positions = {abs(inst.pos) for inst in cls._instances
                     if inst is not instance and hasattr(inst, "pos")}
        return min(set(range(len(positions) + 1)).difference(positions))

    @classmethod
    def _decr_instances(cls, instance):
        if instance in cls._instances:
            cls._instances.remove(instance)
            for inst in cls._instances:
                if hasattr(inst, "pos") and inst.pos > abs(instance.pos):
                    inst.clear(nolock=True)
                    inst.pos -= 1

    @classmethod
    def write(cls, s, file=None, end="\n", nolock=False):
        """Prints `s` above the open bars, as `print` would, and redraws them."""
        fp = file if file is not None else sys.stdout
        cleared = []
        for inst in list(cls._instances):
            if hasattr(inst, "start_t") and (inst.fp == fp or all(
                    f in (sys.stdout, sys.stderr) for f in (fp, inst.fp))):
                inst.clear(nolock=True)
                cleared.append(inst)
        fp.write(s)
        fp.write(end)
        for inst in cleared:
            inst.refresh(nolock=True)

    @classmethod
    def get_lock(cls):
        return _NoLock()

    @classmethod
    def set_lock(cls, lock):
        pass

    def __init__(self, iterable=None, desc=None, total=None, leave=True, file=None,
                 ncols=None, mininterval=0.1, maxinterval=10.0, miniters=None,
                 ascii=None, disable=False, unit="it", unit_scale=False,
                 dynamic_ncols=False, smoothing=0.3, bar_format=None, initial=0,
                 position=None, postfix=None, unit_divisor=1000, write_bytes=False,
                 lock_args=None, nrows=None, colour=None, delay=0.0, gui=False,
                 **kwargs):
        if file is None:
            file = sys.stderr
        if disable is None:
            isatty = getattr(file, "isatty", None)
            disable = not (isatty is not None and isatty())
        if total is None and iterable is not None:
            try:
                total = len(iterable)
            except (TypeError, AttributeError):
                total = None
        if total == float("inf"):
            total = None

        if disable:
            self.iterable = iterable
            self.disable = disable
            self.pos = 0
            self.n = initial
            self.total = total
            self.leave = leave
            return
        if kwargs:
            self.disable = True
            raise TqdmKeyError("Unknown argument(s): " + str(kwargs))

        if miniters is None:
            miniters = 0
            dynamic_miniters = True
        else:
            dynamic_miniters = False
        if mininterval is None:
            mininterval = 0
        if maxinterval is None:
            maxinterval = 0
        if ascii is None:
            ascii = not _supports_unicode(file)
        if smoothing is None:
            smoothing = 0

        self.iterable = iterable
        self.desc = desc or ""
        self.total = total
        self.leave = leave
        self.fp = file
        # The playground's streams are not terminals: no width to fill, as
        # tqdm finds when it cannot ask the terminal (a 10-cell bar).
        self.ncols = ncols
        self.nrows = nrows
        self.mininterval = mininterval
        self.maxinterval = maxinterval
        self.miniters = miniters
        self.dynamic_miniters = dynamic_miniters
        self.ascii = ascii
        self.disable = disable
        self.unit = unit
        self.unit_scale = unit_scale
        self.unit_divisor = unit_divisor
        self.initial = initial
        self.lock_args = lock_args
        self.delay = delay
        self.gui = gui
        self.dynamic_ncols = False
        self.smoothing = smoothing
        self._ema_dn = EMA(smoothing)
        self._ema_dt = EMA(smoothing)
        self._ema_miniters = EMA(smoothing)
        self.bar_format = bar_format
        self.postfix = None
        self.colour = colour
        self._time = _time_module.time
        if postfix:
            try:
                self.set_postfix(refresh=False, **postfix)
            except TypeError:
                self.postfix = postfix
        self.last_print_n = initial
        self.n = initial
        self.pos = self._get_free_pos(self) if position is None else -position
        type(self)._instances.append(self)
        if not _exit_hook[0]:
            atexit.register(_close_open_bars)
            _exit_hook[0] = True
        self.sp = self.status_printer(self.fp)
        if delay <= 0:
            self.refresh(lock_args=self.lock_args)
        self.last_print_t = self._time()
        self.start_t = self.last_print_t

    def __bool__(self):
        if self.total is not None:
            return self.total > 0
        if self.iterable is None:
            raise TypeError("bool() undefined when iterable == total == None")
        return bool(self.iterable)

    def __len__(self):
        if self.iterable is None:
            return self.total
        if hasattr(self.iterable, "shape"):
            return self.iterable.shape[0]
        if hasattr(self.iterable, "__len__"):
            return len(self.iterable)
        return getattr(self, "total", None)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - a finalizer must not raise
            pass

    def __str__(self):
        return self.format_meter(**self.format_dict)

    def __repr__(self):
        return self.format_meter(**self.format_dict)

    def __hash__(self):
        return id(self)

    def __iter__(self):
        iterable = self.iterable
        if self.disable:
            yield from iterable
            return
        mininterval = self.mininterval
        last_print_t = self.last_print_t
        last_print_n = self.last_print_n
        min_start_t = self.start_t + self.delay
        n = self.n
        time = self._time
        try:
            for obj in iterable:
                yield obj
                n += 1
                if n - last_print_n >= self.miniters:
                    cur_t = time()
                    dt = cur_t - last_print_t
                    if dt >= mininterval and cur_t >= min_start_t:
                        self.update(n - last_print_n)
                        last_print_n = self.last_print_n
                        last_print_t = self.last_print_t
        finally:
            self.n = n
            self.close()

    def update(self, n=1):
        """Adds `n` to the count, redrawing when `mininterval` has passed."""
        if self.disable:
            return None
        if n < 0:
            self.last_print_n += n
        self.n += n
        if self.n - self.last_print_n >= self.miniters:
            cur_t = self._time()
            dt = cur_t - self.last_print_t
            if dt >= self.mininterval and cur_t >= self.start_t + self.delay:
                cur_t = self._time()
                dn = self.n - self.last_print_n
                if self.smoothing and dt and dn:
                    self._ema_dn(dn)
                    self._ema_dt(dt)
                self.refresh(lock_args=self.lock_args)
                if self.dynamic_miniters:
                    if self.maxinterval and dt >= self.maxinterval:
                        self.miniters = dn * (self.mininterval or self.maxinterval) / dt
                    elif self.smoothing:
                        self.miniters = self._ema_miniters(
                            dn * (self.mininterval / dt if self.mininterval and dt else 1))
                    else:
                        self.miniters = max(self.miniters, dn)
                self.last_print_n = self.n
                self.last_print_t = cur_t
                return True
        return None

    def close(self):
        """Draws the bar a last time and ends its line (or erases it, `leave=False`)."""
        if getattr(self, "disable", True):
            return
        self.disable = True
        pos = abs(self.pos)
        self._decr_instances(self)
        if not hasattr(self, "last_print_t"):
            return
        if self.last_print_t < self.start_t + self.delay:
            return
        if getattr(self, "sp", None) is None:
            return
        leave = pos == 0 if self.leave is None else self.leave
        if leave:
            self._ema_dt = lambda: None
            self.display(pos=0)
            self.fp.write("\n")
        else:
            if self.display(msg="", pos=pos) and not pos:
                self.fp.write("\r")

    def clear(self, nolock=False):
        if self.disable:
            return
        pos = abs(self.pos)
        if pos < (self.nrows or 20):
            self.moveto(pos)
            self.sp("")
            self.fp.write("\r")
            self.moveto(-pos)

    def refresh(self, nolock=False, lock_args=None):
        if self.disable:
            return None
        self.display()
        return True

    def unpause(self):
        if self.disable:
            return
        cur_t = self._time()
        self.start_t += cur_t - self.last_print_t
        self.last_print_t = cur_t

    def reset(self, total=None):
        self.n = 0
        if total is not None:
            self.total = None if total == float("inf") else total
        if self.disable:
            return
        self.last_print_n = 0
        self.last_print_t = self.start_t = self._time()
        self._ema_dn = EMA(self.smoothing)
        self._ema_dt = EMA(self.smoothing)
        self._ema_miniters = EMA(self.smoothing)
        self.refresh()

    def set_description(self, desc=None, refresh=True):
        self.desc = desc + ": " if desc else ""
        if refresh:
            self.refresh()

    def set_description_str(self, desc=None, refresh=True):
        self.desc = desc or ""
        if refresh:
            self.refresh()

    def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
        postfix = OrderedDict([] if ordered_dict is None else ordered_dict)
        for key in sorted(kwargs.keys()):
            postfix[key] = kwargs[key]
        for key in postfix.keys():
            if isinstance(postfix[key], Number):
                postfix[key] = self.format_num(postfix[key])
            elif not isinstance(postfix[key], str):
                postfix[key] = str(postfix[key])
        self.postfix = ", ".join(key + "=" + postfix[key].strip() for key in postfix.keys())
        if refresh:
            self.refresh()

    def set_postfix_str(self, s="", refresh=True):
        self.postfix = str(s)
        if refresh:
            self.refresh()

    def moveto(self, n):
        self.fp.write("\n" * n + "\x1b[A" * -n)

    @property
    def format_dict(self):
        return {
            "n": self.n, "total": self.total,
            "elapsed": self._time() - self.start_t if hasattr(self, "start_t") else 0,
            "ncols": self.ncols, "nrows": self.nrows, "prefix": self.desc,
            "ascii": self.ascii, "unit": self.unit, "unit_scale": self.unit_scale,
            "rate": self._ema_dn() / self._ema_dt() if self._ema_dt() else None,
            "bar_format": self.bar_format, "postfix": self.postfix,
            "unit_divisor": self.unit_divisor, "initial": self.initial,
            "colour": self.colour}

    def display(self, msg=None, pos=None):
        if pos is None:
            pos = abs(self.pos)
        nrows = self.nrows or 20
        if pos >= nrows - 1:
            if pos >= nrows:
                return False
            if msg or msg is None:
                msg = " ... (more hidden) ..."
        if pos:
            self.moveto(pos)
        self.sp(self.__str__() if msg is None else msg)
        if pos:
            self.moveto(-pos)
        return True


class _NoLock:
    def acquire(self, *args, **kwargs):
        return True

    def release(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _close_open_bars():
    """At the program's end, bars never closed draw their last state, as
    CPython's finalizers make them do at interpreter exit."""
    _exit_hook[0] = False
    for bar in list(reversed(tqdm._instances)):
        try:
            bar.close()
        except Exception:  # noqa: BLE001 - exit handlers must not raise
            pass


# Whether `_close_open_bars` is registered for the program running now: the
# runtime runs (and forgets) the atexit handlers as each program ends, while
# this module stays imported for the next program.
_exit_hook = [False]


def trange(*args, **kwargs):
    """`tqdm(range(*args), **kwargs)`."""
    return tqdm(range(*args), **kwargs)
