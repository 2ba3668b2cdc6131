//! Trace emission: the engine reports what it does to an optional subscriber.
//!
//! With no subscriber, [`emit`] costs one thread-local flag test and never
//! builds the event: callers pass a closure.

use std::cell::{Cell, RefCell};

use gradscope_trace::{Event, EventKind};
use web_time::Instant;

thread_local! {
    static LINE: Cell<Option<u32>> = const { Cell::new(None) };
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static SINK: RefCell<Option<Recorder>> = const { RefCell::new(None) };
    /// How many [`SameTime`] guards are alive, and the time their events
    /// share once the first of them has read the clock.
    static HELD: Cell<(u32, Option<u64>)> = const { Cell::new((0, None)) };
    static CLOCK: Cell<Clock> = const { Cell::new(instant_us) };
    static ORIGIN: Instant = Instant::now();
}

/// A monotonic clock: microseconds since some fixed moment.
pub type Clock = fn() -> u64;

/// The default [`Clock`]: `web_time::Instant`, which is `std`'s natively
/// and `performance.now()` in a browser.
fn instant_us() -> u64 {
    ORIGIN.with(|origin| origin.elapsed().as_micros() as u64)
}

/// Makes recordings on this thread read `clock` for their events' times.
/// The worker reads `performance.now()` itself: through `web_time` each
/// read also went through `Duration` arithmetic (`Instant::now` and
/// `elapsed` were 12 of the 40 ms the clock took in a profile of the chain
/// benchmark in the worker).
pub fn set_clock(clock: Clock) {
    CLOCK.with(|c| c.set(clock));
}

struct Recorder {
    /// The clock's reading when the recording began.
    start_us: u64,
    events: Vec<Event>,
    next_seq: u64,
    stream: Option<Stream>,
}

/// Receives a recording's events in batches while it runs.
pub type BatchSink = Box<dyn FnMut(Vec<Event>)>;

/// Where a streaming recording sends its batches, and when.
struct Stream {
    sink: BatchSink,
    max_len: usize,
    every_us: u64,
    last_us: u64,
}

impl Recorder {
    fn new(stream: Option<Stream>) -> Self {
        // A held time belongs to the recording it was read for.
        HELD.with(|held| held.set((held.get().0, None)));
        Self {
            start_us: CLOCK.with(Cell::get)(),
            events: vec![],
            next_seq: 0,
            stream,
        }
    }

    /// Microseconds since the recording began.
    fn now_us(&self) -> u64 {
        CLOCK.with(Cell::get)().saturating_sub(self.start_us)
    }

    /// The events gathered since the last batch, with the stream to send
    /// them to, when a batch is due.
    fn due(&mut self, now_us: u64, force: bool) -> Option<(Vec<Event>, Stream)> {
        let stream = self.stream.as_ref()?;
        let due = !self.events.is_empty()
            && (force
                || self.events.len() >= stream.max_len
                || now_us.saturating_sub(stream.last_us) >= stream.every_us);
        if !due {
            return None;
        }
        let mut stream = self.stream.take()?;
        stream.last_us = now_us;
        Some((std::mem::take(&mut self.events), stream))
    }
}

/// Hands a due batch to its sink outside the recorder's borrow, so the sink
/// may itself cause events, then puts the stream back.
fn send(due: Option<(Vec<Event>, Stream)>) {
    if let Some((batch, mut stream)) = due {
        (stream.sink)(batch);
        SINK.with(|sink| {
            if let Some(rec) = sink.borrow_mut().as_mut() {
                rec.stream.get_or_insert(stream);
            }
        });
    }
}

/// Reports one event if someone is recording on this thread.
#[inline]
pub fn emit(kind: impl FnOnce() -> EventKind) {
    if is_recording() {
        let due = SINK.with(|sink| {
            let mut sink = sink.borrow_mut();
            let rec = sink.as_mut()?;
            let seq = rec.next_seq;
            rec.next_seq += 1;
            let time_us = match HELD.get() {
                (0, _) => rec.now_us(),
                (_, Some(held)) => held,
                (depth, None) => {
                    let now = rec.now_us();
                    HELD.set((depth, Some(now)));
                    now
                }
            };
            let line = LINE.with(Cell::get);
            rec.events.push(Event {
                seq,
                time_us,
                line,
                kind: kind(),
            });
            rec.due(time_us, false)
        });
        send(due);
    }
}

/// Makes the events emitted while the returned guard lives share one
/// clock read, taken at the first of them: what one op or one backward
/// node causes happens within microseconds, and reading the clock per
/// event cost more than recording it (in the browser `performance.now()`
/// took about 240 ns a call, and gives 100 µs steps anyway). Each event
/// then carries the time its op began, never a later one; events outside
/// every guard read the clock themselves.
///
/// Hold it only around engine code that runs no Python (an op's forward,
/// a backward node's bookkeeping), where no time passes unseen between
/// events: an event after a long pause would carry the time before it.
/// Guards nest, and share the outermost one's time.
#[must_use = "events share a time only while the guard lives"]
pub fn same_time() -> SameTime {
    let active = is_recording();
    if active {
        HELD.with(|held| {
            let (depth, time) = held.get();
            held.set((depth + 1, time));
        });
    }
    SameTime { active }
}

/// While alive, events share one clock read: see [`same_time`].
#[derive(Debug)]
pub struct SameTime {
    active: bool,
}

impl Drop for SameTime {
    fn drop(&mut self) {
        if self.active {
            HELD.with(|held| match held.get() {
                (0 | 1, _) => held.set((0, None)),
                (depth, time) => held.set((depth - 1, time)),
            });
        }
    }
}

/// Whether someone is recording on this thread: the one branch every
/// emission point pays when no one is.
#[inline]
pub fn is_recording() -> bool {
    ACTIVE.try_with(Cell::get).unwrap_or(false)
}

/// Sets the program line the Python runtime is running, which every event
/// and node created from now on carries (`None` outside a program).
pub fn set_current_line(line: Option<u32>) {
    LINE.with(|l| l.set(line));
}

/// The program line set by [`set_current_line`].
pub fn current_line() -> Option<u32> {
    LINE.with(Cell::get)
}

/// Starts recording events on this thread, dropping any earlier recording.
pub fn start_recording() {
    SINK.with(|sink| *sink.borrow_mut() = Some(Recorder::new(None)));
    ACTIVE.with(|a| a.set(true));
}

/// Starts recording events on this thread and sends them to `sink` as they
/// come: in batches of at most `max_len` events, or of whatever gathered
/// once `every` has passed since the last batch (checked as events arrive),
/// so a page can draw a long program live. [`flush`] sends what waits;
/// [`stop_recording`] returns what was not sent.
pub fn start_streaming(sink: BatchSink, max_len: usize, every: std::time::Duration) {
    let stream = Stream {
        sink,
        max_len: max_len.max(1),
        every_us: u64::try_from(every.as_micros()).unwrap_or(u64::MAX),
        last_us: 0,
    };
    SINK.with(|s| *s.borrow_mut() = Some(Recorder::new(Some(stream))));
    ACTIVE.with(|a| a.set(true));
}

/// Sends the events gathered so far to the streaming sink (a no-op when
/// not streaming), so what follows (printed text) arrives after them.
pub fn flush() {
    let due = SINK.with(|sink| {
        let mut sink = sink.borrow_mut();
        let rec = sink.as_mut()?;
        let now = rec.now_us();
        rec.due(now, true)
    });
    send(due);
}

/// Stops recording and returns what was recorded (empty if nothing was).
pub fn stop_recording() -> Vec<Event> {
    ACTIVE.with(|a| a.set(false));
    SINK.with(|sink| {
        sink.borrow_mut()
            .take()
            .map(|r| r.events)
            .unwrap_or_default()
    })
}

/// Runs `f` with this thread's recording (if any) paused, so what `f`
/// causes is not in it: the Python runtime releasing the previous
/// program's globals as the next program starts.
pub fn unrecorded<T>(f: impl FnOnce() -> T) -> T {
    let was = ACTIVE.with(|a| a.replace(false));
    let value = f();
    ACTIVE.with(|a| a.set(was));
    value
}

/// Runs `f` while recording, and returns its result with the events it caused.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Vec<Event>) {
    start_recording();
    let value = f();
    (value, stop_recording())
}

/// Reports that a named range began, as `torch.profiler.record_function`
/// does: the lessons' phases.
pub fn range_began(name: &str) {
    emit(|| EventKind::RangeBegan { name: name.into() });
}

/// Reports that the innermost named range ended.
pub fn range_ended(name: &str) {
    emit(|| EventKind::RangeEnded { name: name.into() });
}

/// Reports that an `nn.Module` call began: `name` is its qualified name
/// relative to the outermost module being called (`""` for that one),
/// `class` its class name.
pub fn module_entered(name: &str, class: &str) {
    emit(|| EventKind::ModuleEntered {
        name: name.into(),
        class: class.into(),
    });
}

/// Reports that the innermost `nn.Module` call ended.
pub fn module_exited() {
    emit(|| EventKind::ModuleExited);
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::time::Duration;

    fn pause() {
        std::thread::sleep(Duration::from_millis(3));
    }

    fn times(events: &[Event]) -> Vec<u64> {
        events.iter().map(|e| e.time_us).collect()
    }

    #[test]
    fn same_time_events_share_the_first_read_and_others_read_the_clock() {
        start_recording();
        emit(|| EventKind::ModuleExited);
        {
            let _op = same_time();
            pause();
            emit(|| EventKind::ModuleExited);
            pause();
            {
                let _inner = same_time();
                emit(|| EventKind::ModuleExited);
            }
            pause();
            emit(|| EventKind::ModuleExited);
        }
        pause();
        emit(|| EventKind::ModuleExited);
        let t = times(&stop_recording());
        assert_eq!(t.len(), 5);
        // The guard's events carry the time of its first, read after the
        // first pause; the inner guard shares the outer one's.
        assert!(t[1] >= t[0] + 3000, "{t:?}");
        assert_eq!((t[2], t[3]), (t[1], t[1]), "{t:?}");
        // Outside it the clock is read again: three pauses since t[1].
        assert!(t[4] >= t[1] + 9000, "{t:?}");
    }

    #[test]
    fn events_read_the_clock_set_counted_from_the_recordings_start() {
        thread_local! {
            static NOW: Cell<u64> = const { Cell::new(0) };
        }
        fn now() -> u64 {
            NOW.with(Cell::get)
        }
        set_clock(now);
        NOW.with(|n| n.set(1_000));
        start_recording();
        NOW.with(|n| n.set(1_500));
        emit(|| EventKind::ModuleExited);
        NOW.with(|n| n.set(4_000));
        emit(|| EventKind::ModuleExited);
        let t = times(&stop_recording());
        set_clock(instant_us);
        assert_eq!(t, [500, 3_000]);
    }

    #[test]
    fn same_time_is_inert_when_not_recording_and_per_recording() {
        let idle = same_time();
        start_recording();
        pause();
        emit(|| EventKind::ModuleExited);
        pause();
        emit(|| EventKind::ModuleExited);
        drop(idle);
        let t = times(&stop_recording());
        assert!(
            t[1] >= t[0] + 3000,
            "a guard made before recording held: {t:?}"
        );

        start_recording();
        let held = same_time();
        emit(|| EventKind::ModuleExited);
        pause();
        // A new recording, while the guard lives, reads its own clock.
        start_recording();
        pause();
        emit(|| EventKind::ModuleExited);
        drop(held);
        let t = times(&stop_recording());
        assert!(
            t[0] >= 3000,
            "the first recording's time carried over: {t:?}"
        );
    }
}
