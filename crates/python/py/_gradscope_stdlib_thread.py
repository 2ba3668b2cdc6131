"""Fixes `_thread` for a build without threads. Its `_thread` is
RustPython's dummy, whose threads run to their end inside `start()`; but
it gives every thread the main thread's ident, so a finished thread
unregistered the main one and `threading.current_thread()` became a
`_DummyThread`. `_patch` gives each such thread an ident of its own while
it runs."""

import _thread

_dummy_start_new_thread = _thread.start_new_thread
_running = [_thread._get_main_thread_ident()]
_last_ident = 0


def _new_ident():
    global _last_ident
    _last_ident += 1
    return _last_ident


def get_ident():
    return _running[-1]


def get_native_id():
    return _running[-1]


def start_joinable_thread(function, handle=None, daemon=True):
    if handle is None:
        handle = _thread._ThreadHandle()
    handle._ident = _new_ident()
    _running.append(handle._ident)
    try:
        function()
    except SystemExit:
        pass
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        _running.pop()
    handle._set_done()
    return handle


def start_new_thread(function, args, kwargs={}):
    ident = _new_ident()
    _running.append(ident)
    try:
        _dummy_start_new_thread(function, args, kwargs)
    finally:
        _running.pop()
    return ident


def _patch():
    for function in (get_ident, get_native_id, start_joinable_thread, start_new_thread):
        setattr(_thread, function.__name__, function)
    _thread.start_new = start_new_thread
