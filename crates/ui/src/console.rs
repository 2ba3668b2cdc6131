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

use std::collections::VecDeque;
use std::rc::Rc;

/// The most lines the console keeps.
pub const MAX_LINES: usize = 2000;

/// The most bytes of text the console keeps (and the most of one line).
pub const MAX_BYTES: usize = 256 * 1024;

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
}

/// The output kept, newest last.
#[derive(Clone, Debug, Default)]
pub struct Console {
    lines: VecDeque<Line>,
    /// Lines dropped from the front.
    dropped: u64,
    bytes: usize,
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

    /// Adds a piece of `stream`'s output, as written.
    pub fn write(&mut self, stream: Stream, text: &str) {
        self.version += 1;
        for piece in text.split_inclusive('\n') {
            let open = self.lines.back_mut().filter(|l| {
                l.stream == stream && stream != Stream::Notice && !l.text.ends_with('\n')
            });
            match open {
                // Past the limit already: counted, not copied again; its
                // end still finishes it.
                Some(line) if line.cut > 0 => {
                    let body = piece.strip_suffix('\n');
                    line.cut += body.unwrap_or(piece).len();
                    if body.is_some() {
                        line.text = [&*line.text, "\n"].concat().into();
                        self.bytes += 1;
                    }
                }
                Some(line) => {
                    self.bytes -= line.text.len();
                    let joined = [&*line.text, piece].concat();
                    let (text, cut) = capped(&joined);
                    line.cut += cut;
                    line.text = text;
                    self.bytes += line.text.len();
                }
                None => {
                    let (text, cut) = capped(piece);
                    self.bytes += text.len();
                    self.lines.push_back(Line {
                        number: self.dropped + self.lines.len() as u64,
                        stream,
                        text,
                        cut,
                    });
                }
            }
        }
        while self.lines.len() > MAX_LINES || (self.bytes > MAX_BYTES && self.lines.len() > 1) {
            let Some(line) = self.lines.pop_front() else {
                break;
            };
            self.bytes -= line.text.len();
            self.dropped += 1;
        }
    }

    /// Adds a note from the engine, a line of its own.
    pub fn notice(&mut self, text: &str) {
        self.write(Stream::Notice, &format!("{text}\n"));
    }
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
}
