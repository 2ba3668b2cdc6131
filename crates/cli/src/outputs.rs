//! What `gradscope run` writes beside the program's output: the trace as
//! JSON lines and as Chrome trace events, the graph as DOT or SVG, and the
//! memory timeline as CSV. All are plain functions of the trace, the same
//! views the page draws.

use std::fmt::Write as _;

use gradscope_trace::layout::{NODE_HEIGHT, NODE_WIDTH};
use gradscope_trace::memory::{MemoryTracker, timeline};
use gradscope_trace::{Category, Event, EventKind, GraphLayout, GraphNode, GraphState, NodeStatus};
use serde_json::{Value, json};

/// One JSON object per line, one line per event.
pub fn jsonl(events: &[Event]) -> Result<String, serde_json::Error> {
    let mut out = String::new();
    for event in events {
        out.push_str(&serde_json::to_string(event)?);
        out.push('\n');
    }
    Ok(out)
}

/// The event's `type` tag, as serde writes it (`op_called`).
fn type_name(kind: &EventKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| "event".into())
}

/// Chrome's trace event format (what Perfetto and chrome://tracing open):
/// named ranges, backward passes, recomputations and grad modes as
/// nested spans, every other event as an instant with its fields, and
/// live bytes per category as a counter track.
pub fn chrome_trace(events: &[Event]) -> Value {
    let mut out = vec![json!({
        "name": "process_name", "ph": "M", "pid": 1, "tid": 1,
        "args": {"name": "gradscope"},
    })];
    let span = |name: &str, ph: &str, e: &Event| {
        json!({"name": name, "ph": ph, "ts": e.time_us, "pid": 1, "tid": 1,
               "args": {"seq": e.seq, "line": e.line}})
    };
    for event in events {
        let entry = match &event.kind {
            EventKind::RangeBegan { name } => span(name, "B", event),
            EventKind::RangeEnded { name } => span(name, "E", event),
            EventKind::BackwardBegan { .. } => span("backward", "B", event),
            EventKind::BackwardEnded => span("backward", "E", event),
            EventKind::RecomputeBegan { .. } => span("recompute", "B", event),
            EventKind::RecomputeEnded { .. } => span("recompute", "E", event),
            EventKind::GradModeEntered { mode } => span(mode, "B", event),
            EventKind::GradModeExited { mode } => span(mode, "E", event),
            kind => {
                let name = match kind {
                    EventKind::OpCalled { op, .. } => op.clone(),
                    EventKind::NodeCreated { name, .. } => name.clone(),
                    other => type_name(other),
                };
                json!({"name": name, "ph": "i", "s": "t", "ts": event.time_us,
                       "pid": 1, "tid": 1, "args": {"seq": event.seq, "line": event.line, "event": kind}})
            }
        };
        out.push(entry);
    }
    for sample in timeline(events) {
        let mut args = serde_json::Map::new();
        for (category, bytes) in Category::ALL.iter().zip(sample.bytes) {
            args.insert(category.label().into(), json!(bytes));
        }
        out.push(
            json!({"name": "memory (bytes)", "ph": "C", "ts": sample.time_us,
                        "pid": 1, "tid": 1, "args": args}),
        );
    }
    json!({"traceEvents": out, "displayTimeUnit": "ms"})
}

/// The memory timeline, one ledger per device as the page draws them:
/// after each event that changed a device's bytes or its reserve, that
/// device's bytes per category, their total, and the bytes its caching
/// allocator reserved (0 on the CPU).
pub fn memory_csv(events: &[Event]) -> String {
    let mut out = String::from("seq,time_us,device");
    for category in Category::ALL {
        out.push(',');
        out.push_str(&category.label().replace(' ', "_"));
    }
    out.push_str(",total,reserved\n");
    let mut tracker = MemoryTracker::default();
    for event in events {
        let Some((d, _)) = tracker.apply_device(event) else {
            continue;
        };
        let device = &tracker.devices()[d];
        let bytes = tracker.device_bytes(device);
        let _ = write!(out, "{},{},{device}", event.seq, event.time_us);
        for b in bytes {
            let _ = write!(out, ",{b}");
        }
        let total: u64 = bytes.iter().sum();
        let _ = writeln!(out, ",{total},{}", tracker.reserved(device));
    }
    out
}

/// The graph worth drawing: the one the last `backward()` ran, as it stood
/// when that backward began (complete, saved tensors still held), as
/// torchviz draws an output's graph. Without a backward, every node.
/// A training loop's earlier steps are left out: they are the same graph.
pub fn graph_to_draw(events: &[Event]) -> GraphState {
    let last_backward = events
        .iter()
        .rposition(|e| matches!(e.kind, EventKind::BackwardBegan { .. }));
    let Some(index) = last_backward else {
        return GraphState::at(events);
    };
    let EventKind::BackwardBegan { root, .. } = events[index].kind else {
        return GraphState::at(events);
    };
    let mut graph = GraphState::at(&events[..index]);
    // Keep what the root reaches, walking with an explicit stack.
    let mut reached = std::collections::BTreeSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if reached.insert(id)
            && let Some(node) = graph.nodes.get(&id)
        {
            stack.extend(node.next.iter().flatten());
        }
    }
    graph.nodes.retain(|id, _| reached.contains(id));
    // A leaf's AccumulateGrad outlives each step's graph; what earlier
    // backwards did to it is not part of this picture.
    for node in graph.nodes.values_mut() {
        if node.leaf.is_some() {
            node.status = NodeStatus::Pending;
        }
    }
    graph
}

/// A saved tensor's label as torchviz's `show_saved` prints it.
fn saved_label(name: &str, shape: &[usize], bytes: u64) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    format!("{name}\n({}) {bytes} B", dims.join(", "))
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Whether a node's saved tensors are still held.
fn holds_saved(node: &GraphNode) -> bool {
    node.status != NodeStatus::Released
}

/// [`graph_to_draw`] as Graphviz DOT, drawn as torchviz does: backward
/// nodes grey, leaves' AccumulateGrad blue, saved tensors orange boxes
/// joined by dotted edges (white once released or deferred).
pub fn dot(events: &[Event]) -> String {
    let graph = graph_to_draw(events);
    let mut out = String::from(
        "digraph gradscope {\n  graph [rankdir=TB];\n  node [shape=box, style=filled, fontname=monospace, fontsize=10];\n",
    );
    for node in graph.nodes.values() {
        let fill = if node.leaf.is_some() {
            "lightblue"
        } else {
            "lightgrey"
        };
        let status = match node.status {
            NodeStatus::Pending => "",
            NodeStatus::Executed => "\n(executed)",
            NodeStatus::Released => "\n(executed, freed)",
        };
        let _ = writeln!(
            out,
            "  n{} [label=\"{}\", fillcolor={fill}];",
            node.id,
            escape(&format!("{}{status}", node.name))
        );
        for (i, saved) in node.saved.iter().enumerate() {
            let fill = if holds_saved(node) && !saved.deferred {
                "orange"
            } else {
                "white"
            };
            let label = saved_label(&saved.name, &saved.shape, saved.bytes);
            let _ = writeln!(
                out,
                "  s{}_{i} [label=\"{}\", fillcolor={fill}];\n  s{}_{i} -> n{} [style=dotted, dir=none];",
                node.id,
                escape(&label),
                node.id,
                node.id
            );
        }
    }
    for node in graph.nodes.values() {
        for target in node.next.iter().flatten() {
            let _ = writeln!(out, "  n{} -> n{target};", node.id);
        }
    }
    out.push_str("}\n");
    out
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// [`graph_to_draw`] as SVG, placed by the trace crate's layout (the
/// page's), with each node's saved tensors listed under its name in an
/// orange band while held.
pub fn svg(events: &[Event]) -> String {
    let layout = GraphLayout::of(&graph_to_draw(events));
    let band = 14.0;
    let height = layout.height + band * 4.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\" font-family=\"monospace\" font-size=\"10\">\n",
        w = layout.width
    );
    out.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>\n");
    for edge in &layout.edges {
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\" marker-end=\"url(#arrow)\"/>",
            edge.x1, edge.y1, edge.x2, edge.y2
        );
    }
    for laid in &layout.nodes {
        let node = &laid.node;
        let fill = if node.leaf.is_some() {
            "lightblue"
        } else {
            "lightgrey"
        };
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{NODE_WIDTH}\" height=\"{NODE_HEIGHT}\" fill=\"{fill}\" stroke=\"black\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            laid.x,
            laid.y,
            laid.x + NODE_WIDTH / 2.0,
            laid.y + 14.0,
            xml(&node.name)
        );
        let held: Vec<String> = node
            .saved
            .iter()
            .filter(|s| holds_saved(node) && !s.deferred)
            .map(|s| {
                let dims: Vec<String> = s.shape.iter().map(usize::to_string).collect();
                format!("{} ({})", s.name, dims.join(", "))
            })
            .collect();
        if !held.is_empty() {
            let _ = writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{NODE_WIDTH}\" height=\"{band}\" fill=\"orange\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                laid.x,
                laid.y + NODE_HEIGHT - band,
                laid.x + NODE_WIDTH / 2.0,
                laid.y + NODE_HEIGHT - 3.0,
                xml(&held.join(", "))
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::SavedInfo;

    fn events() -> Vec<Event> {
        let kinds = vec![
            EventKind::StorageAllocated {
                storage: 1,
                bytes: 16,
                device: "cpu".into(),
                category: Category::Other,
            },
            EventKind::RangeBegan {
                name: "forward".into(),
            },
            EventKind::NodeCreated {
                node: 1,
                name: "AccumulateGrad".into(),
                sequence_nr: u64::MAX,
                next: vec![],
                saved: vec![],
                leaf: Some(1),
            },
            EventKind::NodeCreated {
                node: 2,
                name: "MulBackward0".into(),
                sequence_nr: 0,
                next: vec![Some(1), None],
                saved: vec![SavedInfo {
                    name: "self".into(),
                    shape: vec![2, 2],
                    storage: 1,
                    bytes: 16,
                    deferred: false,
                }],
                leaf: None,
            },
            EventKind::StorageRecategorised {
                storage: 1,
                category: Category::SavedForBackward,
            },
            EventKind::RangeEnded {
                name: "forward".into(),
            },
        ];
        kinds
            .into_iter()
            .enumerate()
            .map(|(i, kind)| Event {
                seq: i as u64,
                time_us: 10 * i as u64,
                line: None,
                kind,
            })
            .collect()
    }

    #[test]
    fn outputs_jsonl_one_event_per_line() {
        let text = jsonl(&events()).unwrap();
        assert_eq!(text.lines().count(), 6);
        let back: Event = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        assert_eq!(back, events()[1]);
    }

    #[test]
    fn outputs_chrome_trace_spans_and_counters() {
        let trace = chrome_trace(&events());
        let list = trace["traceEvents"].as_array().unwrap();
        let phases: Vec<&str> = list.iter().filter_map(|e| e["ph"].as_str()).collect();
        assert!(phases.contains(&"B") && phases.contains(&"E") && phases.contains(&"C"));
        assert!(
            list.iter()
                .any(|e| e["name"] == "MulBackward0" && e["ph"] == "i")
        );
    }

    #[test]
    fn outputs_memory_csv_by_category() {
        let csv = memory_csv(&events());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "seq,time_us,device,parameter,gradient,optimizer_state,saved_for_backward,other,total,reserved"
        );
        assert_eq!(lines[1], "0,0,cpu,0,0,0,0,16,16,0");
        assert_eq!(lines[2], "4,40,cpu,0,0,0,16,0,16,0");
        // A GPU's rows are its own ledger, with its reserve.
        let mut list = events();
        list.push(Event {
            seq: 6,
            time_us: 60,
            line: None,
            kind: EventKind::StorageAllocated {
                storage: 9,
                bytes: 64,
                device: "webgpu:0".into(),
                category: Category::Other,
            },
        });
        list.push(Event {
            seq: 7,
            time_us: 70,
            line: None,
            kind: EventKind::DeviceReserved {
                device: "webgpu:0".into(),
                bytes: 256,
            },
        });
        let csv = memory_csv(&list);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[3..],
            [
                "6,60,webgpu,0,0,0,0,64,64,0",
                "7,70,webgpu,0,0,0,0,64,64,256"
            ]
        );
    }

    #[test]
    fn outputs_graph_is_the_last_backward_s() {
        let mut list = events();
        let mut push = |kind| {
            let seq = list.len() as u64;
            list.push(Event {
                seq,
                time_us: seq,
                line: None,
                kind,
            })
        };
        // A second, unrelated graph; the backward runs from node 2.
        push(EventKind::NodeCreated {
            node: 3,
            name: "ExpBackward0".into(),
            sequence_nr: 1,
            next: vec![None],
            saved: vec![],
            leaf: None,
        });
        push(EventKind::BackwardBegan {
            root: 2,
            retain_graph: false,
        });
        push(EventKind::SavedReleased { node: 2 });
        let graph = graph_to_draw(&list);
        assert_eq!(graph.nodes.keys().copied().collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(graph.nodes[&2].status, NodeStatus::Pending);
        assert_eq!(graph_to_draw(&events()).nodes.len(), 2);
    }

    #[test]
    fn outputs_graph_marks_saved_tensors() {
        let text = dot(&events());
        assert!(text.contains("n2 -> n1;"));
        assert!(text.contains("self\\n(2, 2) 16 B"));
        assert!(text.contains("fillcolor=orange"));
        let picture = svg(&events());
        assert!(picture.starts_with("<svg") && picture.contains("MulBackward0"));
        assert!(picture.contains("self (2, 2)"));
    }
}
