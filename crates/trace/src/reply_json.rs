//! A [`Reply`]'s JSON, with the events a program emits by the thousand
//! written directly: byte for byte what `serde_json::to_vec` gives, at a
//! third of its time.
//!
//! The worker streams every event of a run to the page as JSON. On the
//! chain benchmark (`tests/bench/chain.py`: about ten events per tensor op,
//! 52 MB of JSON a run) serialising the batches took 38% of the worker's time
//! in Chromium. Over that run's 441,464 events natively, serde_json took
//! 190-240 ns an event and this 70 ns. The kinds written here are those of
//! every op, node and storage (allocated, freed, recategorised, op called,
//! node created, executed, saved released); every other kind, and every
//! other reply, goes through serde as before.
//!
//! Each kind written here is destructured whole, so a field added to it
//! fails to compile here; the tests hold the bytes to serde's for every one.

use crate::event::{Category, Event, EventKind, SavedInfo};
use crate::protocol::Reply;

/// Appends `reply`'s JSON to `out`: what `serde_json::to_writer` would
/// append.
///
/// ```
/// use gradscope_trace::{Event, EventKind, Reply};
/// let reply = Reply::Events {
///     events: Event::numbered([EventKind::StorageFreed { storage: 3 }]),
/// };
/// let mut out = Vec::new();
/// gradscope_trace::reply_json::write(&mut out, &reply)?;
/// assert_eq!(out, serde_json::to_vec(&reply)?);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn write(out: &mut Vec<u8>, reply: &Reply) -> serde_json::Result<()> {
    let (tag, events) = match reply {
        Reply::Events { events } => ("events", events),
        Reply::Rehearsal { events } => ("rehearsal", events),
        other => return serde_json::to_writer(out, other),
    };
    out.extend_from_slice(b"{\"type\":\"");
    out.extend_from_slice(tag.as_bytes());
    out.extend_from_slice(b"\",\"events\":[");
    for (i, event) in events.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_event(out, event)?;
    }
    out.extend_from_slice(b"]}");
    Ok(())
}

fn write_event(out: &mut Vec<u8>, event: &Event) -> serde_json::Result<()> {
    let Event {
        seq,
        time_us,
        line,
        kind,
    } = event;
    out.extend_from_slice(b"{\"seq\":");
    uint(out, *seq);
    out.extend_from_slice(b",\"time_us\":");
    uint(out, *time_us);
    if let Some(line) = line {
        out.extend_from_slice(b",\"line\":");
        uint(out, u64::from(*line));
    }
    out.extend_from_slice(b",\"kind\":");
    write_kind(out, kind)?;
    out.push(b'}');
    Ok(())
}

fn write_kind(out: &mut Vec<u8>, kind: &EventKind) -> serde_json::Result<()> {
    match kind {
        EventKind::StorageAllocated {
            storage,
            bytes,
            device,
            category,
        } => {
            out.extend_from_slice(b"{\"type\":\"storage_allocated\",\"storage\":");
            uint(out, *storage);
            out.extend_from_slice(b",\"bytes\":");
            uint(out, *bytes);
            out.extend_from_slice(b",\"device\":");
            string(out, device)?;
            out.extend_from_slice(b",\"category\":");
            category_name(out, *category);
        }
        EventKind::StorageRecategorised { storage, category } => {
            out.extend_from_slice(b"{\"type\":\"storage_recategorised\",\"storage\":");
            uint(out, *storage);
            out.extend_from_slice(b",\"category\":");
            category_name(out, *category);
        }
        EventKind::StorageFreed { storage } => {
            out.extend_from_slice(b"{\"type\":\"storage_freed\",\"storage\":");
            uint(out, *storage);
        }
        EventKind::OpCalled { op, shape } => {
            out.extend_from_slice(b"{\"type\":\"op_called\",\"op\":");
            string(out, op)?;
            out.extend_from_slice(b",\"shape\":");
            uints(out, shape.iter().map(|&d| d as u64));
        }
        EventKind::NodeCreated {
            node,
            name,
            sequence_nr,
            next,
            saved,
            leaf,
        } => {
            out.extend_from_slice(b"{\"type\":\"node_created\",\"node\":");
            uint(out, *node);
            out.extend_from_slice(b",\"name\":");
            string(out, name)?;
            out.extend_from_slice(b",\"sequence_nr\":");
            uint(out, *sequence_nr);
            out.extend_from_slice(b",\"next\":[");
            for (i, next) in next.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                optional_uint(out, *next);
            }
            out.extend_from_slice(b"],\"saved\":[");
            for (i, saved) in saved.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_saved(out, saved)?;
            }
            out.extend_from_slice(b"],\"leaf\":");
            optional_uint(out, *leaf);
        }
        EventKind::NodeExecuted { node } => {
            out.extend_from_slice(b"{\"type\":\"node_executed\",\"node\":");
            uint(out, *node);
        }
        EventKind::SavedReleased { node } => {
            out.extend_from_slice(b"{\"type\":\"saved_released\",\"node\":");
            uint(out, *node);
        }
        other => return serde_json::to_writer(out, other),
    }
    out.push(b'}');
    Ok(())
}

fn write_saved(out: &mut Vec<u8>, saved: &SavedInfo) -> serde_json::Result<()> {
    let SavedInfo {
        name,
        shape,
        storage,
        bytes,
        deferred,
        dtype,
        strides,
        offset,
        version,
    } = saved;
    out.extend_from_slice(b"{\"name\":");
    string(out, name)?;
    out.extend_from_slice(b",\"shape\":");
    uints(out, shape.iter().map(|&d| d as u64));
    out.extend_from_slice(b",\"storage\":");
    uint(out, *storage);
    out.extend_from_slice(b",\"bytes\":");
    uint(out, *bytes);
    let deferred: &[u8] = if *deferred {
        b",\"deferred\":true,\"dtype\":"
    } else {
        b",\"deferred\":false,\"dtype\":"
    };
    out.extend_from_slice(deferred);
    string(out, dtype)?;
    out.extend_from_slice(b",\"strides\":[");
    for (i, &stride) in strides.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(itoa::Buffer::new().format(stride).as_bytes());
    }
    out.extend_from_slice(b"],\"offset\":");
    uint(out, *offset);
    out.extend_from_slice(b",\"version\":");
    uint(out, *version);
    out.push(b'}');
    Ok(())
}

fn uint(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

fn optional_uint(out: &mut Vec<u8>, n: Option<u64>) {
    match n {
        Some(n) => uint(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

fn uints(out: &mut Vec<u8>, ns: impl Iterator<Item = u64>) {
    out.push(b'[');
    for (i, n) in ns.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        uint(out, n);
    }
    out.push(b']');
}

/// A JSON string: names (`mul`, `MulBackward0`, `cpu`, `float32`) need no
/// escaping and are copied; anything else goes through serde_json's escaper.
fn string(out: &mut Vec<u8>, s: &str) -> serde_json::Result<()> {
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
        Ok(())
    } else {
        serde_json::to_writer(out, s)
    }
}

/// A category as serde names it (snake case), quoted.
fn category_name(out: &mut Vec<u8>, category: Category) {
    let name: &[u8] = match category {
        Category::Parameter => b"\"parameter\"",
        Category::Gradient => b"\"gradient\"",
        Category::OptimizerState => b"\"optimizer_state\"",
        Category::SavedForBackward => b"\"saved_for_backward\"",
        Category::Other => b"\"other\"",
    };
    out.extend_from_slice(name);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_as_serde(reply: &Reply) {
        let mut out = b"kept".to_vec();
        write(&mut out, reply).unwrap();
        let mut want = b"kept".to_vec();
        want.extend(serde_json::to_vec(reply).unwrap());
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&want)
        );
        let back: Reply = serde_json::from_slice(&out[4..]).unwrap();
        assert_eq!(&back, reply);
    }

    fn saved(name: &'static str, deferred: bool) -> SavedInfo {
        SavedInfo {
            name: name.into(),
            shape: vec![2, 0, 3],
            storage: 7,
            bytes: if deferred { 0 } else { 24 },
            deferred,
            dtype: "float32".into(),
            strides: if deferred { vec![] } else { vec![3, -1, 1] },
            offset: 5,
            version: 2,
        }
    }

    /// Every kind written here, with the values where JSON differs: empty
    /// and full lists, `None`s, the largest numbers, strings to escape.
    fn written_kinds() -> Vec<EventKind> {
        let mut kinds: Vec<EventKind> = Category::ALL
            .into_iter()
            .flat_map(|category| {
                [
                    EventKind::StorageAllocated {
                        storage: u64::MAX,
                        bytes: 16,
                        device: "cpu".into(),
                        category,
                    },
                    EventKind::StorageRecategorised {
                        storage: 0,
                        category,
                    },
                ]
            })
            .collect();
        kinds.extend([
            EventKind::StorageAllocated {
                storage: 1,
                bytes: 0,
                device: "we\"b\\gpu\n\u{1}é".into(),
                category: Category::Other,
            },
            EventKind::StorageFreed { storage: 9 },
            EventKind::OpCalled {
                op: "mul".into(),
                shape: vec![],
            },
            EventKind::OpCalled {
                op: "add\t".into(),
                shape: vec![4, 1, usize::MAX],
            },
            EventKind::NodeCreated {
                node: 3,
                name: "AccumulateGrad".into(),
                sequence_nr: u64::MAX,
                next: vec![],
                saved: vec![],
                leaf: Some(1),
            },
            EventKind::NodeCreated {
                node: 4,
                name: "MulBackward0".into(),
                sequence_nr: 0,
                next: vec![Some(3), None],
                saved: vec![saved("other", false), saved("sel\"f", true)],
                leaf: None,
            },
            EventKind::NodeExecuted { node: 4 },
            EventKind::SavedReleased { node: 4 },
        ]);
        kinds
    }

    #[test]
    fn reply_json_matches_serde_for_written_kinds() {
        let kinds = written_kinds();
        for kind in &kinds {
            for line in [None, Some(0), Some(u32::MAX)] {
                let event = Event {
                    seq: u64::MAX,
                    time_us: 12,
                    line,
                    kind: kind.clone(),
                };
                same_as_serde(&Reply::Events {
                    events: vec![event],
                });
            }
        }
        same_as_serde(&Reply::Events {
            events: Event::numbered(kinds.clone()),
        });
        same_as_serde(&Reply::Rehearsal {
            events: Event::numbered(kinds),
        });
    }

    #[test]
    fn reply_json_matches_serde_for_other_kinds_and_replies() {
        let kinds = vec![
            EventKind::BackwardRoot {
                numel: 1,
                value: Some(f64::INFINITY),
            },
            EventKind::TensorNamed {
                tensor: 1,
                storage: 2,
                node: None,
                name: "x".into(),
                parameter: Some("fc1.weight".into()),
            },
            EventKind::ModuleExited,
        ];
        same_as_serde(&Reply::Events {
            events: Event::numbered(kinds),
        });
        same_as_serde(&Reply::Events { events: vec![] });
        same_as_serde(&Reply::Stdout {
            text: "chain: 1.5 us\n".into(),
        });
        same_as_serde(&Reply::Finished);
        same_as_serde(&Reply::Ready { startup_ms: 314.5 });
    }
}
