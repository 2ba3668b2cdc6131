"""`_signal` for the sandbox, which receives no signals: handlers are
recorded and returned as CPython's are (so `unittest`'s Ctrl-C handling and
programs that install a SIGINT handler run), but none is ever called;
`alarm` and `pause` cannot work and say so. Numbers are Linux's."""

SIG_DFL = 0
SIG_IGN = 1
NSIG = 65

SIGHUP = 1
SIGINT = 2
SIGQUIT = 3
SIGILL = 4
SIGTRAP = 5
SIGABRT = 6
SIGIOT = 6
SIGBUS = 7
SIGFPE = 8
SIGKILL = 9
SIGUSR1 = 10
SIGSEGV = 11
SIGUSR2 = 12
SIGPIPE = 13
SIGALRM = 14
SIGTERM = 15
SIGSTKFLT = 16
SIGCHLD = 17
SIGCLD = 17
SIGCONT = 18
SIGSTOP = 19
SIGTSTP = 20
SIGTTIN = 21
SIGTTOU = 22
SIGURG = 23
SIGXCPU = 24
SIGXFSZ = 25
SIGVTALRM = 26
SIGPROF = 27
SIGWINCH = 28
SIGIO = 29
SIGPOLL = 29
SIGPWR = 30
SIGSYS = 31
SIGRTMIN = 34
SIGRTMAX = 64


def default_int_handler(signalnum, frame, /):
    raise KeyboardInterrupt


_handlers = {n: SIG_DFL for n in range(1, NSIG)}
_handlers[SIGINT] = default_int_handler


def _check(signalnum):
    if not isinstance(signalnum, int):
        raise TypeError(f"'{type(signalnum).__name__}' object cannot be interpreted as an integer")
    if not 1 <= signalnum < NSIG:
        raise ValueError("signal number out of range")


def signal(signalnum, handler, /):
    _check(signalnum)
    if handler not in (SIG_DFL, SIG_IGN) and not callable(handler):
        raise TypeError(
            "signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object"
        )
    if signalnum in (SIGKILL, SIGSTOP):
        raise OSError(22, "Invalid argument")
    previous = _handlers[signalnum]
    _handlers[signalnum] = handler
    return previous


def getsignal(signalnum, /):
    _check(signalnum)
    return _handlers[signalnum]


def raise_signal(signalnum, /):
    _check(signalnum)
    handler = _handlers[signalnum]
    if callable(handler):
        handler(signalnum, None)


def strsignal(signalnum, /):
    _check(signalnum)
    return None


def valid_signals():
    return set(range(1, NSIG))


def set_wakeup_fd(fd, /, *, warn_on_full_buffer=True):
    return -1


def siginterrupt(signalnum, flag, /):
    _check(signalnum)


def _no_signals(name):
    def refuse(*args, **kwargs):
        raise OSError(
            f"gradscope runs programs in a sandbox without processes or network: "
            f"signal.{name} cannot work here, no signal ever arrives"
        )

    refuse.__name__ = name
    return refuse


alarm = _no_signals("alarm")
pause = _no_signals("pause")
setitimer = _no_signals("setitimer")
