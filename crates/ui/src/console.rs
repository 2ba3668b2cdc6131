//! What the console keeps of a run's output: its pieces joined into
//! lines, and only the newest of them past a limit.
//!
//! Python writes `print(x)` as two pieces (`x`, then `"\n"`); kept as they
//! came, a loop that prints each step made two elements a line, and a
//! console without a limit grew until the page ran out of memory (`while
//! True: print(i)` prints hundreds of thousands of lines before Stop). So
//! a piece that continues an unfinished line of the same stream joins it,
//! and past [`MAX_LINES`] lines or [`MAX_BYTES`] bytes the oldest go, with
//! a note of how many. Each line keeps the number it was given, which the
//! view uses as its key: a new line adds one element and dropping the
//! oldest removes one, where an unkeyed list rewrote every line's text.
//!
//! It is a terminal in two more ways. A carriage return (`\r`) takes the
//! line back to its start and what follows overwrites it, so a `tqdm` bar
//! or `print(..., end="\r")` redraws one line in place. And a figure the
//! program shows arrives in its output as an inline image (see `figure`),
//! drawn as a line of its own where it was shown.
//!
//! Figures are part of the trace too: the worker puts a `FigureShown`
//! event in it where `show()` ran, and [`FigureMarks`] finds them, so a
//! learner who steps or scrubs back before a `show()` sees the console as
//! it was then: without that figure, nor anything printed after it
//! ([`Console::lines_before_figure`]). Printed text leaves no event, so the
//! lines printed between two figures all show from the first on.

use std::collections::VecDeque;
use std::rc::Rc;

use gradscope_trace::{EventKind, EventLog};

use crate::figure::{self, Figure};

/// The most lines the console keeps.
pub const MAX_LINES: usize = 2000;

/// The most bytes of text the console keeps (and the most of one line).
pub const MAX_BYTES: usize = 256 * 1024;

/// The most bytes of figures the console keeps (a figure is tens of KB).
pub const MAX_FIGURE_BYTES: usize = 32 << 20;

/// Where a line came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// What the program printed.
    Stdout,
    /// What the program wrote to `sys.stderr`.
    Stderr,
    /// A note from the engine, a line of its own.
    Notice,
}

/// One line (or the unfinished end of one).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its number in the run's output, from 0: the view's key.
    pub number: u64,
    pub stream: Stream,
    /// Its text, with its `\n` once finished.
    pub text: Rc<str>,
    /// Bytes left out of it: a line past [`MAX_BYTES`] keeps its start.
    pub cut: usize,
    /// Where the next text overwrites it, in characters, after a `\r`
    /// (`None`: at its end).
    cursor: Option<usize>,
    /// The figure it shows (its text is then empty).
    pub figure: Option<Rc<Figure>>,
}

/// The output kept, newest last.
#[derive(Clone, Debug, Default)]
pub struct Console {
    lines: VecDeque<Line>,
    /// Lines dropped from the front.
    dropped: u64,
    bytes: usize,
    /// Bytes of the figures kept.
    figure_bytes: usize,
    /// Figures shown in the run so far.
    figures: u64,
    /// Bumped on every change: what the view compares.
    version: u64,
}

impl PartialEq for Console {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && self.dropped == other.dropped
    }
}

impl Console {
    /// The lines kept, oldest first.
    pub fn lines(&self) -> impl ExactSizeIterator<Item = &Line> {
        self.lines.iter()
    }

    /// How many lines were dropped to keep within the limits.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.dropped == 0
    }

    /// Forgets everything (a new run).
    pub fn clear(&mut self) {
        let version = self.version + 1;
        *self = Self {
            version,
            ..Self::default()
        };
    }

    /// How many of the kept lines, oldest first, the program wrote before
    /// it showed figure `shown + 1`: the console as it was once `shown`
    /// figures had been shown (all of it for `None`).
    pub fn lines_before_figure(&self, shown: Option<u64>) -> usize {
        let Some(shown) = shown else {
            return self.lines.len();
        };
        self.lines
            .iter()
            .position(|l| l.figure.as_ref().is_some_and(|f| f.number > shown))
            .unwrap_or(self.lines.len())
    }

    /// Adds a piece of `stream`'s output, as written: its inline images
    /// become figures, the rest text.
    pub fn write(&mut self, stream: Stream, text: &str) {
        self.version += 1;
        let mut rest = text;
        while let Some(at) = rest.find(figure::START) {
            let body_at = at + figure::START.len();
            let Some(len) = rest[body_at..].find(figure::END) else {
                break;
            };
            let body = &rest[body_at..body_at + len];
            let after = body_at + len + figure::END.len_utf8();
            match Figure::parse(body, self.figures + 1) {
                Some(figure) => {
                    self.write_text(stream, &rest[..at]);
                    self.push_figure(stream, figure);
                }
                None => self.write_text(stream, &rest[..after]),
            }
            rest = &rest[after..];
        }
        self.write_text(stream, rest);
        self.trim();
    }

    /// A figure, a line of its own: the line it interrupts goes on after it.
    fn push_figure(&mut self, stream: Stream, figure: Figure) {
        self.figures += 1;
        self.figure_bytes += figure.bytes();
        self.lines.push_back(Line {
            number: self.dropped + self.lines.len() as u64,
            stream,
            text: "".into(),
            cut: 0,
            cursor: None,
            figure: Some(Rc::new(figure)),
        });
    }

    fn write_text(&mut self, stream: Stream, text: &str) {
        for piece in text.split_inclusive('\n') {
            let (body, newline) = match piece.strip_suffix('\n') {
                Some(body) => (body, true),
                None => (piece, false),
            };
            let open = self.lines.back().is_some_and(|l| {
                l.stream == stream
                    && stream != Stream::Notice
                    && l.figure.is_none()
                    && !l.text.ends_with('\n')
            });
            if !open {
                self.lines.push_back(Line {
                    number: self.dropped + self.lines.len() as u64,
                    stream,
                    text: "".into(),
                    cut: 0,
                    cursor: None,
                    figure: None,
                });
            }
            let Some(line) = self.lines.back_mut() else {
                return;
            };
            self.bytes -= line.text.len();
            for (i, part) in body.split('\r').enumerate() {
                if i > 0 {
                    line.cursor = Some(0);
                }
                put(line, part);
            }
            if newline {
                line.text = [&*line.text, "\n"].concat().into();
                line.cursor = None;
            }
            self.bytes += line.text.len();
        }
    }

    /// Drops the oldest lines past the limits.
    fn trim(&mut self) {
        while self.lines.len() > MAX_LINES
            || (self.bytes > MAX_BYTES && self.lines.len() > 1)
            || (self.figure_bytes > MAX_FIGURE_BYTES && self.lines.len() > 1)
        {
            let Some(line) = self.lines.pop_front() else {
                break;
            };
            self.bytes -= line.text.len();
            if let Some(figure) = &line.figure {
                self.figure_bytes -= figure.bytes();
            }
            self.dropped += 1;
        }
    }

    /// Adds a note from the engine, a line of its own.
    pub fn notice(&mut self, text: &str) {
        self.write(Stream::Notice, &format!("{text}\n"));
    }
}

/// The note a console parked before the end of its run shows in place of
/// what comes later: `lines` lines left out, and whether how the run ended
/// (its traceback, "stopped") is left out too; `None` when nothing is.
pub fn later_note(lines: usize, ending: bool) -> Option<String> {
    let what = match (lines, ending) {
        (0, false) => return None,
        (0, true) => "how the run ended".to_string(),
        (1, _) => "1 more line".to_string(),
        (n, _) => format!("{n} more lines"),
    };
    let and = if ending && lines > 0 {
        " and how the run ended"
    } else {
        ""
    };
    Some(format!(
        "… {what}{and} later in the run: step forward to see them\n"
    ))
}

/// Where in the trace a run showed its figures: the index of each
/// `FigureShown` event, read once per event as the log grows (a scrub
/// then costs a binary search, not a walk of a long trace).
#[derive(Clone, Debug, Default)]
pub struct FigureMarks {
    /// The log read so far.
    log: EventLog,
    /// `at[k]`: the index of the event of the run's figure `k + 1`.
    at: Vec<usize>,
}

impl FigureMarks {
    /// Reads the events `log` added since the last call, or all of it
    /// when it is another run's.
    pub fn follow(&mut self, log: &EventLog) {
        if !log.extends(&self.log) {
            *self = Self::default();
        }
        let start = self.log.len();
        let found = log
            .iter_from(start)
            .enumerate()
            .filter(|(_, e)| matches!(e.kind, EventKind::FigureShown { .. }))
            .map(|(i, _)| start + i);
        self.at.extend(found);
        self.log = log.clone();
    }

    /// How many figures the program had shown in the first `position`
    /// events.
    pub fn shown_by(&self, position: usize) -> u64 {
        self.at.partition_point(|&i| i < position) as u64
    }
}

/// Writes `part` (no `\n`, no `\r`) into an unfinished line at its
/// cursor, as a terminal does: at the end it appends; after a `\r` it
/// overwrites the characters there, and writes past them if longer.
fn put(line: &mut Line, part: &str) {
    if part.is_empty() {
        return;
    }
    match line.cursor {
        // Past the limit already: counted, not copied again.
        None if line.cut > 0 => line.cut += part.len(),
        None => {
            let (text, cut) = capped(&[&*line.text, part].concat());
            line.cut += cut;
            line.text = text;
        }
        Some(column) => {
            let start = byte_at(&line.text, column);
            let end = byte_at(&line.text[start..], part.chars().count()) + start;
            let written = [&line.text[..start], part, &line.text[end..]].concat();
            let at_end = end == line.text.len();
            let (text, cut) = capped(&written);
            line.cut += cut;
            line.text = text;
            line.cursor = (!at_end).then(|| column + part.chars().count());
        }
    }
}

/// The byte where the `column`th character of `text` starts (its length
/// past its end).
fn byte_at(text: &str, column: usize) -> usize {
    text.char_indices()
        .nth(column)
        .map_or(text.len(), |(i, _)| i)
}

/// `text` kept to [`MAX_BYTES`] (cut at a character's start, its `\n`
/// kept), and how many bytes were cut.
fn capped(text: &str) -> (Rc<str>, usize) {
    if text.len() <= MAX_BYTES {
        return (text.into(), 0);
    }
    let end = (0..=MAX_BYTES)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let newline = if text.ends_with('\n') { "\n" } else { "" };
    let kept = [&text[..end], newline].concat();
    let cut = text.len() - end - newline.len();
    (kept.into(), cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(console: &Console) -> Vec<(u64, String)> {
        console
            .lines()
            .map(|l| (l.number, l.text.to_string()))
            .collect()
    }

    #[test]
    fn console_joins_a_print_into_one_line_per_line() {
        let mut console = Console::default();
        // print("a"); print("b\nc", end="") ; print(" d")
        for piece in ["a", "\n", "b\nc", " d", "\n"] {
            console.write(Stream::Stdout, piece);
        }
        assert_eq!(
            texts(&console),
            [(0, "a\n".into()), (1, "b\n".into()), (2, "c d\n".into())]
        );
    }

    #[test]
    fn console_keeps_streams_and_notices_apart() {
        let mut console = Console::default();
        console.write(Stream::Stdout, "out ");
        console.write(Stream::Stderr, "err");
        console.notice("stopped");
        console.write(Stream::Stderr, "!\n");
        let streams: Vec<Stream> = console.lines().map(|l| l.stream).collect();
        assert_eq!(
            streams,
            [
                Stream::Stdout,
                Stream::Stderr,
                Stream::Notice,
                Stream::Stderr
            ]
        );
        assert_eq!(texts(&console)[2].1, "stopped\n");
    }

    #[test]
    fn console_drops_the_oldest_lines_past_the_limit_and_counts_them() {
        let mut console = Console::default();
        for i in 0..MAX_LINES + 5 {
            console.write(Stream::Stdout, &format!("{i}\n"));
        }
        assert_eq!(console.lines().len(), MAX_LINES);
        assert_eq!(console.dropped(), 5);
        // The keys stay with their lines.
        assert_eq!(texts(&console)[0], (5, "5\n".into()));
        let last = console.lines().last().unwrap();
        assert_eq!(
            (last.number, &*last.text),
            ((MAX_LINES + 4) as u64, &*format!("{}\n", MAX_LINES + 4))
        );
    }

    #[test]
    fn console_keeps_within_its_bytes_and_cuts_a_line_past_them() {
        let mut console = Console::default();
        let long = "é".repeat(MAX_BYTES); // two bytes each
        console.write(Stream::Stdout, &format!("{long}\n"));
        let line = console.lines().next().unwrap();
        assert!(line.text.len() <= MAX_BYTES + 1 && line.text.ends_with("é\n"));
        assert_eq!(line.text.len() - 1 + line.cut, 2 * MAX_BYTES);
        // A second line of the same size pushes the first out.
        console.write(Stream::Stdout, "x".repeat(MAX_BYTES - 10).as_str());
        assert_eq!(console.dropped(), 1);
        assert_eq!(console.lines().len(), 1);
        // Cut as it grows too, and counted once cut.
        console.write(Stream::Stdout, &"y".repeat(100));
        assert_eq!(console.lines().next().unwrap().cut, 90);
        console.write(Stream::Stdout, "zz\n");
        let line = console.lines().next().unwrap();
        assert_eq!((line.cut, line.text.len()), (92, MAX_BYTES + 1));
        assert!(line.text.ends_with("y\n"));
    }

    #[test]
    fn console_compares_by_change() {
        let mut a = Console::default();
        let b = a.clone();
        assert_eq!(a, b);
        a.write(Stream::Stdout, "x");
        assert_ne!(a, b);
        a.clear();
        assert_ne!(a, b, "a cleared console is a change");
        assert!(a.is_empty());
    }

    #[test]
    fn console_carriage_return_redraws_the_line_in_place() {
        let mut console = Console::default();
        // tqdm's bar: "\r" then the bar, padded to the last one's length.
        console.write(Stream::Stderr, "\r  0%|          | 0/3");
        console.write(Stream::Stderr, "\r 33%|###       | 1/3");
        console.write(Stream::Stderr, "\r100%|##########| 3/3");
        console.write(Stream::Stderr, "\n");
        assert_eq!(texts(&console), [(0, "100%|##########| 3/3\n".into())]);
        // print(i, end="\r"): a shorter line overwrites the start only, as
        // in a terminal; the next print continues where the cursor is.
        console.write(Stream::Stdout, "step 100\r");
        console.write(Stream::Stdout, "step 9\r");
        assert_eq!(texts(&console)[1].1, "step 900");
        console.write(Stream::Stdout, "done\n");
        assert_eq!(texts(&console)[1].1, "done 900\n");
        // "\r\n" ends a line and keeps it.
        console.write(Stream::Stdout, "a\r\nb\n");
        assert_eq!(texts(&console)[2..], [(2, "a\n".into()), (3, "b\n".into())]);
        // Overwriting past the end, and with characters of several bytes.
        console.write(Stream::Stdout, "ééé\rab");
        console.write(Stream::Stdout, "cdef\n");
        assert_eq!(texts(&console)[4].1, "abcdef\n");
    }

    #[test]
    fn console_scrubbed_back_shows_what_came_before_a_later_figure() {
        use gradscope_trace::Event;
        let escape = "\x1b]1337;File=inline=1:PHN2Zz4=\x07";
        let mut console = Console::default();
        let mut log = EventLog::default();
        let op = || EventKind::OpCalled {
            op: "add".into(),
            shape: vec![],
        };
        let figure = |number| EventKind::FigureShown { number };
        // Events 0-1, figure 1 (event 2), a line, event 3, figure 2
        // (event 4), a line; the worker sends the events before the text.
        let events = Event::numbered([op(), op(), figure(1), op(), figure(2)]);
        log.push(events[..3].to_vec());
        console.write(Stream::Stdout, &format!("start\n{escape}one\n"));
        log.push(events[3..].to_vec());
        console.write(Stream::Stdout, &format!("{escape}two\n"));
        let mut marks = FigureMarks::default();
        marks.follow(&log);
        let shown = |position| {
            let n = console.lines_before_figure(Some(marks.shown_by(position)));
            console
                .lines()
                .take(n)
                .map(|l| match &l.figure {
                    Some(f) => format!("figure {}", f.number),
                    None => l.text.to_string(),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(shown(0), ["start\n"]);
        assert_eq!(shown(2), ["start\n"], "before figure 1's event");
        assert_eq!(shown(3), ["start\n", "figure 1", "one\n"]);
        assert_eq!(shown(4), ["start\n", "figure 1", "one\n"]);
        assert_eq!(shown(5).len(), 5);
        assert_eq!(console.lines_before_figure(None), 5, "live: all of it");
        // A log that grows is read on from where it was; another run's
        // from its start.
        let mut longer = log.clone();
        longer.push(Event::numbered([op()]));
        marks.follow(&longer);
        assert_eq!((marks.shown_by(6), marks.at.len()), (2, 2));
        let mut other = EventLog::default();
        other.push(Event::numbered([figure(1)]));
        marks.follow(&other);
        assert_eq!(
            (marks.shown_by(0), marks.shown_by(1), marks.at.len()),
            (0, 1, 1)
        );
    }

    #[test]
    fn console_later_note_says_what_is_left_out() {
        assert_eq!(later_note(0, false), None);
        let note = |lines, ending| later_note(lines, ending).unwrap();
        assert_eq!(
            note(1, false),
            "… 1 more line later in the run: step forward to see them\n"
        );
        assert!(note(3, true).starts_with("… 3 more lines and how the run ended later"));
        assert!(note(0, true).starts_with("… how the run ended later"));
    }

    #[test]
    fn console_draws_an_inline_image_as_a_figure_line() {
        let mut console = Console::default();
        let escape = "\x1b]1337;File=inline=1;name=bG9zcw==:PHN2Zz4=\x07";
        console.write(Stream::Stdout, &format!("before\nhalf{escape}line\n"));
        console.write(Stream::Stdout, "after\n");
        let lines: Vec<_> = console.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(&*lines[0].text, "before\n");
        assert_eq!(&*lines[1].text, "half");
        let figure = lines[2].figure.as_ref().unwrap();
        assert_eq!(figure.label, "loss");
        assert_eq!(figure.file_name, "figure-1.svg");
        assert_eq!(&*lines[3].text, "line\n");
        assert_eq!(&*lines[4].text, "after\n");
        // An escape that is not an inline image stays text; an unfinished
        // one too.
        console.write(
            Stream::Stdout,
            "\x1b]1337;File=inline=0:PHN2Zz4=\x07\x1b]1337;File=",
        );
        assert_eq!(console.lines().len(), 6);
        assert!(console.lines().last().unwrap().figure.is_none());
        // The second figure is numbered so.
        console.write(Stream::Stdout, &format!("\n{escape}"));
        let last = console.lines().last().unwrap();
        assert_eq!(last.figure.as_ref().unwrap().file_name, "figure-2.svg");
    }
}
