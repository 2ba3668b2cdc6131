//! The worker's replies as they wait for the main thread. The worker posts
//! trace events as JSON in messages of up to thousands of events; parsing
//! a whole one in its message handler, and several in one frame, took tens
//! of milliseconds of the main thread at a time. So messages wait here
//! unparsed, and each animation frame parses events one by one until its
//! time budget is spent, carrying the rest of a message to the next frame.

use std::collections::VecDeque;

use gradscope_trace::{Event, Reply};

/// How an events message starts, as serde_json writes [`Reply::Events`].
const EVENTS_PREFIX: &str = r#"{"type":"events","events":["#;

/// How the warm-up run's trace starts ([`Reply::Rehearsal`]): parsed a
/// frame's budget at a time too.
const REHEARSAL_PREFIX: &str = r#"{"type":"rehearsal","events":["#;

/// How often (in events) the clock is read while parsing.
const CLOCK_EVERY: usize = 32;

/// A long message's text, handed over a piece at a time as it is parsed
/// (a message of thousands of events is copied into Rust's memory in
/// pieces, so no frame pays for a whole one).
pub trait Chunks {
    /// The next piece of the text, or `None` at its end.
    fn next_chunk(&mut self) -> Option<String>;
}

/// Where a piece of UTF-8 text that may run from `at` to `end` (of `len`
/// bytes in all) must end so that it splits no character: `end`, backed
/// off over continuation bytes (`byte` reads the text's byte at an index).
pub fn utf8_piece_end(byte: impl Fn(u32) -> u8, at: u32, end: u32, len: u32) -> u32 {
    let mut end = end.min(len);
    while end < len && end > at && byte(end) & 0xC0 == 0x80 {
        end -= 1;
    }
    end
}

/// One message not yet handed over.
enum Pending {
    /// Parsed already (a small message).
    Reply(Reply),
    /// An events message, parsed from byte `at` of `text` on (inside its
    /// array); `more` gives the rest of its text, if any is left to copy;
    /// `rehearsal`: the warm-up run's, not a program's.
    Events {
        text: String,
        at: usize,
        more: Option<Box<dyn Chunks>>,
        rehearsal: bool,
    },
    /// Any other message, parsed when its turn comes.
    Text(String),
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pending::Reply(reply) => write!(f, "Reply({reply:?})"),
            Pending::Events { at, text, .. } => write!(f, "Events(at {at} of {})", text.len()),
            Pending::Text(text) => write!(f, "Text({} bytes)", text.len()),
        }
    }
}

/// Replies in arrival order, parsed as time allows.
#[derive(Debug, Default)]
pub struct Inbox {
    queue: VecDeque<Pending>,
    /// Whether the warm-up run's trace is still wanted: a run started
    /// before it came makes it worthless, and its parsing would delay the
    /// run's events.
    rehearsal_wanted: bool,
}

impl Inbox {
    /// Queues a parsed reply.
    pub fn push_reply(&mut self, reply: Reply) {
        self.queue.push_back(Pending::Reply(reply));
    }

    /// Queues a message's text, to be parsed by [`Inbox::take`].
    #[cfg(test)]
    pub fn push_text(&mut self, text: String) {
        self.push_chunks(text, None);
    }

    /// Queues a long message given as its first piece and the rest to
    /// come: an events message is copied piece by piece as it is parsed.
    pub fn push_chunks(&mut self, first: String, mut more: Option<Box<dyn Chunks>>) {
        for (prefix, rehearsal) in [(EVENTS_PREFIX, false), (REHEARSAL_PREFIX, true)] {
            if first.starts_with(prefix) {
                if rehearsal && !self.rehearsal_wanted {
                    return;
                }
                self.queue.push_back(Pending::Events {
                    at: prefix.len(),
                    text: first,
                    more,
                    rehearsal,
                });
                return;
            }
        }
        let mut text = first;
        while let Some(chunk) = more.as_mut().and_then(|m| m.next_chunk()) {
            text.push_str(&chunk);
        }
        self.queue.push_back(Pending::Text(text));
    }

    /// Says whether the warm-up run's trace is wanted; when it no longer
    /// is, what of it waits is dropped unparsed, as is what comes later.
    pub fn want_rehearsal(&mut self, wanted: bool) {
        self.rehearsal_wanted = wanted;
        if !wanted {
            self.queue.retain(|p| {
                !matches!(
                    p,
                    Pending::Events {
                        rehearsal: true,
                        ..
                    }
                )
            });
        }
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Forgets everything queued (the worker was terminated).
    pub fn clear(&mut self) {
        self.queue.clear();
    }

    /// The replies that can be parsed before `out_of_time` says stop (it
    /// is asked every few events; at least one event or message is always
    /// taken), in order; events of consecutive messages of one kind (a
    /// program's, or the warm-up's) join one reply.
    pub fn take(&mut self, mut out_of_time: impl FnMut() -> bool) -> Vec<Reply> {
        let mut replies: Vec<Reply> = Vec::new();
        let mut events = Gathered::default();
        let mut taken = 0usize;
        while let Some(pending) = self.queue.pop_front() {
            match pending {
                Pending::Reply(reply) => {
                    events.flush(&mut replies);
                    replies.push(reply);
                    taken += 1;
                }
                Pending::Text(text) => {
                    events.flush(&mut replies);
                    replies.push(parse(&text));
                    taken += 1;
                }
                Pending::Events {
                    mut text,
                    mut at,
                    mut more,
                    rehearsal,
                } => {
                    events.kind(rehearsal, &mut replies);
                    let mut done = false;
                    loop {
                        let parsed = next_event(&text, at);
                        // The text so far ends inside an event: copy more.
                        let short = match &parsed {
                            Err(err) => err.is_eof(),
                            Ok(None) => text[at..]
                                .trim_start()
                                .trim_start_matches(',')
                                .trim_start()
                                .is_empty(),
                            Ok(Some(_)) => false,
                        };
                        if short && let Some(chunk) = more.as_mut().and_then(|m| m.next_chunk()) {
                            text.drain(..at);
                            at = 0;
                            text.push_str(&chunk);
                            continue;
                        }
                        match parsed {
                            Ok(Some((event, next))) => {
                                events.events.push(event);
                                at = next;
                                taken += 1;
                            }
                            Ok(None) => {
                                done = true;
                                break;
                            }
                            Err(err) => {
                                events.flush(&mut replies);
                                replies.push(unreadable(&err));
                                done = true;
                                break;
                            }
                        }
                        if taken.is_multiple_of(CLOCK_EVERY) && out_of_time() {
                            break;
                        }
                    }
                    if !done {
                        self.queue.push_front(Pending::Events {
                            text,
                            at,
                            more,
                            rehearsal,
                        });
                        break;
                    }
                }
            }
            if taken > 0 && taken.is_multiple_of(CLOCK_EVERY) && out_of_time() {
                break;
            }
        }
        events.flush(&mut replies);
        replies
    }
}

/// Events parsed and not yet made a reply, all of one kind.
#[derive(Default)]
struct Gathered {
    events: Vec<Event>,
    rehearsal: bool,
}

impl Gathered {
    /// Events of the kind `rehearsal` come next: those of the other kind
    /// become their reply first.
    fn kind(&mut self, rehearsal: bool, replies: &mut Vec<Reply>) {
        if self.rehearsal != rehearsal {
            self.flush(replies);
            self.rehearsal = rehearsal;
        }
    }

    /// The events gathered, as one reply.
    fn flush(&mut self, replies: &mut Vec<Reply>) {
        if self.events.is_empty() {
            return;
        }
        let events = std::mem::take(&mut self.events);
        replies.push(if self.rehearsal {
            Reply::Rehearsal { events }
        } else {
            Reply::Events { events }
        });
    }
}

/// A whole message.
pub fn parse(text: &str) -> Reply {
    serde_json::from_str::<Reply>(text).unwrap_or_else(|err| unreadable(&err))
}

/// One unreadable message is a bug to report, not the end of the run.
fn unreadable(err: &serde_json::Error) -> Reply {
    Reply::Notice {
        text: format!("gradscope bug: the page could not read a message from the engine: {err}"),
    }
}

/// The event starting at byte `at` of an events array and where the next
/// one starts, or `None` at the array's end.
fn next_event(text: &str, at: usize) -> Result<Option<(Event, usize)>, serde_json::Error> {
    let rest = text.get(at..).unwrap_or_default();
    // A piece may have ended between an event and its comma.
    let trimmed = rest.trim_start();
    let trimmed = trimmed.strip_prefix(',').unwrap_or(trimmed).trim_start();
    let skipped = rest.len() - trimmed.len();
    if rest[skipped..].starts_with(']') {
        return Ok(None);
    }
    let mut stream = serde_json::Deserializer::from_str(&rest[skipped..]).into_iter::<Event>();
    let event = match stream.next() {
        Some(event) => event?,
        None => return Ok(None),
    };
    let mut next = at + skipped + stream.byte_offset();
    let after = text.get(next..).unwrap_or_default();
    let trimmed = after.trim_start();
    next += after.len() - trimmed.len();
    if trimmed.starts_with(',') {
        next += 1;
    }
    Ok(Some((event, next)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::EventKind;

    fn events(range: std::ops::Range<u64>) -> Vec<Event> {
        range
            .map(|seq| Event {
                seq,
                time_us: seq,
                line: Some(1),
                kind: EventKind::OpCalled {
                    op: "add".into(),
                    shape: vec![2, 3],
                },
            })
            .collect()
    }

    fn text(reply: &Reply) -> String {
        serde_json::to_string(reply).unwrap_or_default()
    }

    fn all_events(replies: &[Reply]) -> Vec<u64> {
        replies
            .iter()
            .flat_map(|r| match r {
                Reply::Events { events } => events.iter().map(|e| e.seq).collect(),
                _ => vec![],
            })
            .collect()
    }

    #[test]
    fn inbox_parses_in_order_and_joins_events() {
        let mut inbox = Inbox::default();
        inbox.push_text(text(&Reply::Events {
            events: events(0..3),
        }));
        inbox.push_text(text(&Reply::Events { events: vec![] }));
        inbox.push_text(text(&Reply::Events {
            events: events(3..5),
        }));
        inbox.push_reply(Reply::Stdout {
            text: "hi\n".into(),
        });
        inbox.push_text(text(&Reply::Events {
            events: events(5..6),
        }));
        inbox.push_text(text(&Reply::Finished));
        let replies = inbox.take(|| false);
        assert!(inbox.is_empty());
        assert_eq!(replies.len(), 4, "{replies:?}");
        assert_eq!(
            replies[0],
            Reply::Events {
                events: events(0..5)
            }
        );
        assert_eq!(
            replies[1],
            Reply::Stdout {
                text: "hi\n".into()
            }
        );
        assert_eq!(
            replies[2],
            Reply::Events {
                events: events(5..6)
            }
        );
        assert_eq!(replies[3], Reply::Finished);
    }

    #[test]
    fn inbox_keeps_the_rehearsal_apart_from_a_program_s_events() {
        // The warm-up's trace is parsed as events are, a budget at a time,
        // and never joins a program's events, even when the two touch.
        let mut inbox = Inbox::default();
        inbox.want_rehearsal(true);
        inbox.push_text(text(&Reply::Rehearsal {
            events: events(0..40),
        }));
        inbox.push_text(text(&Reply::Events {
            events: events(40..42),
        }));
        inbox.push_text(text(&Reply::Rehearsed));
        let first = inbox.take(|| true);
        assert_eq!(
            first,
            vec![Reply::Rehearsal {
                events: events(0..CLOCK_EVERY as u64)
            }],
            "one budget's worth"
        );
        let rest = inbox.take(|| false);
        assert_eq!(
            rest,
            vec![
                Reply::Rehearsal {
                    events: events(CLOCK_EVERY as u64..40)
                },
                Reply::Events {
                    events: events(40..42)
                },
                Reply::Rehearsed,
            ]
        );
    }

    #[test]
    fn inbox_drops_a_rehearsal_no_longer_wanted() {
        let mut inbox = Inbox::default();
        // Not asked for.
        inbox.push_text(text(&Reply::Rehearsal {
            events: events(0..40),
        }));
        assert!(inbox.is_empty());
        // Asked for, then a run started before it was parsed.
        inbox.want_rehearsal(true);
        inbox.push_text(text(&Reply::Rehearsal {
            events: events(0..40),
        }));
        inbox.push_text(text(&Reply::Events {
            events: events(0..2),
        }));
        inbox.want_rehearsal(false);
        assert_eq!(
            inbox.take(|| false),
            vec![Reply::Events {
                events: events(0..2)
            }]
        );
    }

    #[test]
    fn inbox_carries_a_message_over_frames() {
        let mut inbox = Inbox::default();
        inbox.push_text(text(&Reply::Events {
            events: events(0..100),
        }));
        inbox.push_text(text(&Reply::Finished));
        let mut seqs = vec![];
        let mut frames = 0;
        let mut finished = false;
        while !inbox.is_empty() {
            // Out of time at every clock reading: CLOCK_EVERY events a frame.
            let replies = inbox.take(|| true);
            finished |= replies.contains(&Reply::Finished);
            seqs.extend(all_events(&replies));
            frames += 1;
            assert!(frames < 100);
        }
        assert_eq!(seqs, (0..100).collect::<Vec<_>>());
        assert!(finished);
        assert_eq!(frames, 100usize.div_ceil(CLOCK_EVERY));
    }

    /// A text handed over in pieces of `size` bytes.
    struct Pieces(Vec<String>);

    impl Chunks for Pieces {
        fn next_chunk(&mut self) -> Option<String> {
            (!self.0.is_empty()).then(|| self.0.remove(0))
        }
    }

    /// UTF-8 bytes handed over as the worker's replies are: pieces of at
    /// most `size` bytes, each ended where [`utf8_piece_end`] says.
    fn byte_pieces(text: &str, size: u32) -> (String, Option<Box<dyn Chunks>>) {
        let bytes = text.as_bytes();
        let len = bytes.len() as u32;
        let mut all = Vec::new();
        let mut at = 0;
        while at < len {
            let end = utf8_piece_end(|i| bytes[i as usize], at, at + size, len);
            assert!(
                end > at,
                "a piece of {size} bytes holds at least one character"
            );
            all.push(String::from_utf8(bytes[at as usize..end as usize].to_vec()).unwrap());
            at = end;
        }
        let first = all.remove(0);
        (first, Some(Box::new(Pieces(all))))
    }

    #[test]
    fn inbox_reads_utf8_bytes_split_anywhere() {
        let printed = Reply::Stdout {
            text: "loss × 2 — café 😀 done\n".repeat(3),
        };
        let whole = text(&printed);
        // Pieces of 4 bytes or more hold any character (4 bytes at most).
        for size in 4..=13 {
            let mut inbox = Inbox::default();
            let (first, more) = byte_pieces(&whole, size);
            inbox.push_chunks(first, more);
            assert_eq!(
                inbox.take(|| false),
                vec![printed.clone()],
                "pieces of {size} bytes"
            );
        }
    }

    fn pieces(text: &str, size: usize) -> (String, Option<Box<dyn Chunks>>) {
        let chars: Vec<char> = text.chars().collect();
        let mut all: Vec<String> = chars.chunks(size).map(|c| c.iter().collect()).collect();
        let first = all.remove(0);
        (first, Some(Box::new(Pieces(all))))
    }

    #[test]
    fn inbox_parses_a_message_handed_over_in_pieces() {
        let events = events(0..50);
        let whole = text(&Reply::Events {
            events: events.clone(),
        });
        // Pieces that end anywhere: inside numbers, strings, between events.
        for size in [7, 30, 64, 101, whole.len()] {
            let mut inbox = Inbox::default();
            let (first, more) = pieces(&whole, size.max(EVENTS_PREFIX.len()));
            inbox.push_chunks(first, more);
            inbox.push_text(text(&Reply::Finished));
            let mut replies = vec![];
            while !inbox.is_empty() {
                replies.extend(inbox.take(|| true));
            }
            assert_eq!(
                all_events(&replies),
                (0..50).collect::<Vec<_>>(),
                "pieces of {size}"
            );
            assert_eq!(replies.last(), Some(&Reply::Finished));
            assert!(!replies.iter().any(|r| matches!(r, Reply::Notice { .. })));
        }
        // Another long message in pieces is read whole.
        let mut inbox = Inbox::default();
        let (first, more) = pieces(
            &text(&Reply::Stdout {
                text: "x".repeat(500),
            }),
            40,
        );
        inbox.push_chunks(first, more);
        assert_eq!(
            inbox.take(|| false),
            vec![Reply::Stdout {
                text: "x".repeat(500)
            }]
        );
    }

    #[test]
    fn inbox_reports_a_damaged_message_and_goes_on() {
        let mut inbox = Inbox::default();
        let good = text(&Reply::Events {
            events: events(0..2),
        });
        inbox.push_text(good.replace(r#""seq":1"#, r#""seq":"x""#));
        inbox.push_text("not json".into());
        inbox.push_text(text(&Reply::Finished));
        let replies = inbox.take(|| false);
        assert_eq!(all_events(&replies), vec![0]);
        let notices = replies
            .iter()
            .filter(|r| matches!(r, Reply::Notice { .. }))
            .count();
        assert_eq!(notices, 2, "{replies:?}");
        assert_eq!(replies.last(), Some(&Reply::Finished));
    }
}
