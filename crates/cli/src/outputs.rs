//! What `gradscope run` writes beside the program's output: the trace as
//! JSON lines and as Chrome trace events, the graph as DOT or SVG, and the
//! memory timeline as CSV. All are plain functions of the trace, the same
//! views the page draws.

use std::fmt::Write as _;

use gradscope_trace::layout::{NODE_HEIGHT, NODE_WIDTH};
use gradscope_trace::{
    Event, EventKind, FAILED_NODE, GraphLayout, GraphNode, GraphState, NodeId, NodeStatus,
    SavedInfo,
};
use serde_json::Value;

/// One JSON object per line, one line per event.
pub fn jsonl(events: &[Event]) -> Result<String, serde_json::Error> {
    let mut out = String::new();
    for event in events {
        out.push_str(&serde_json::to_string(event)?);
        out.push('\n');
    }
    Ok(out)
}

/// Chrome's trace event format (what Perfetto and chrome://tracing open):
/// the trace crate's writer, which the page's trace export uses too.
pub fn chrome_trace(events: &[Event]) -> Value {
    gradscope_trace::perfetto::chrome_trace(events)
}

/// The memory timeline as CSV, one row per change of a device's bytes,
/// with the line and name of the storage each row concerns: the trace
/// crate's, which the page's export writes too.
pub fn memory_csv(events: &[Event]) -> String {
    gradscope_trace::origin::memory_csv(events)
}

/// The graph worth drawing: the one the last `backward()` ran, as it stood
/// when that backward began (complete, saved tensors still held), as
/// torchviz draws an output's graph. Without a backward, every node.
/// A training loop's earlier steps are left out: they are the same graph.
pub fn graph_to_draw(events: &[Event]) -> GraphState {
    let last = GraphState::at(events);
    // A program that failed in forward: the failed operation and what it
    // was computed from.
    if last.nodes.contains_key(&FAILED_NODE) {
        return reached_from(last, FAILED_NODE);
    }
    let mut graph = backward_graph(events);
    // Names and a failure come after the backward began: the labels the
    // program gave later, and where a failed backward stopped.
    for (id, node) in &mut graph.nodes {
        if let Some(at_end) = last.nodes.get(id) {
            node.label.clone_from(&at_end.label);
            node.error.clone_from(&at_end.error);
        }
    }
    graph
}

/// `graph` with only the nodes `root` reaches, walked with an explicit stack.
fn reached_from(mut graph: GraphState, root: NodeId) -> GraphState {
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
    graph
}

/// The graph the last backward ran, as it stood when that backward began.
fn backward_graph(events: &[Event]) -> GraphState {
    let last_backward = events
        .iter()
        .rposition(|e| matches!(e.kind, EventKind::BackwardBegan { .. }));
    let Some(index) = last_backward else {
        return GraphState::at(events);
    };
    let EventKind::BackwardBegan { root, .. } = events[index].kind else {
        return GraphState::at(events);
    };
    let mut graph = reached_from(GraphState::at(&events[..index]), root);
    // A leaf's AccumulateGrad outlives each step's graph; what earlier
    // backwards did to it is not part of this picture.
    for node in graph.nodes.values_mut() {
        if node.leaf.is_some() {
            node.status = NodeStatus::Pending;
        }
    }
    graph
}

/// A saved tensor's label as torchviz's `show_saved` prints it (name, then
/// shape), with its bytes, and its dtype, strides, offset and version on a
/// third line where the trace recorded them.
fn saved_label(saved: &SavedInfo) -> String {
    let list = |items: Vec<String>| items.join(", ");
    let dims = list(saved.shape.iter().map(usize::to_string).collect());
    let mut label = format!("{}\n({dims}) {} B", saved.name, saved.bytes);
    if !saved.dtype.is_empty() {
        let strides = list(saved.strides.iter().map(i64::to_string).collect());
        label.push_str(&format!("\n{} stride ({strides})", saved.dtype));
        if saved.offset != 0 {
            label.push_str(&format!(" offset {}", saved.offset));
        }
        label.push_str(&format!(" version {}", saved.version));
    }
    label
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
        let fill = fill_of(node);
        let status = match node.status {
            NodeStatus::Pending => "",
            NodeStatus::Executed => "\n(executed)",
            NodeStatus::Released => "\n(executed, freed)",
        };
        let label = node
            .label
            .as_ref()
            .map(|l| format!("\n{l}"))
            .unwrap_or_default();
        let error = node
            .error
            .as_ref()
            .map(|e| format!("\n{e}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  n{} [label=\"{}\", fillcolor=\"{fill}\"];",
            node.id,
            escape(&format!("{}{label}{status}{error}", node.name))
        );
        for (i, saved) in node.saved.iter().enumerate() {
            let fill = if holds_saved(node) && !saved.deferred {
                "orange"
            } else {
                "white"
            };
            let label = saved_label(saved);
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
    // The exception goes under the picture, where it covers no node,
    // wrapped to its width or 80 columns, the picture widened to fit (a
    // monospace character is about 6 px at size 10).
    let columns = ((layout.width / 6.0) as usize).max(80);
    let error_lines: Vec<String> = layout
        .nodes
        .iter()
        .filter_map(|l| l.node.error.as_ref())
        .flat_map(|e| e.lines())
        .flat_map(|line| wrap(line, columns))
        .collect();
    let height = layout.height + band * (4.0 + error_lines.len() as f64);
    let widest = error_lines.iter().map(|l| l.chars().count()).max();
    let width = layout
        .width
        .max(widest.map_or(0.0, |n| n as f64 * 6.2 + 8.0));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"10\">\n"
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
        let fill = fill_of(node);
        let stroke = if node.error.is_some() { "red" } else { "black" };
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{NODE_WIDTH}\" height=\"{NODE_HEIGHT}\" fill=\"{fill}\" stroke=\"{stroke}\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            laid.x,
            laid.y,
            laid.x + NODE_WIDTH / 2.0,
            laid.y + 12.0,
            xml(&node.name)
        );
        if let Some(label) = &node.label {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-style=\"italic\" fill=\"#1a4d8f\" class=\"label\">{}</text>",
                laid.x + NODE_WIDTH / 2.0,
                laid.y + 22.0,
                xml(label)
            );
        }
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
    for (i, line) in error_lines.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{}\" fill=\"red\" class=\"error\">{}</text>",
            layout.height + band * (i as f64 + 1.0),
            xml(line)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// `text` in lines of at most `columns` characters, broken at spaces.
fn wrap(text: &str, columns: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().map_or(0, |l| l.chars().count());
        if last > 0 && last + 1 + word.chars().count() > columns {
            lines.push(String::new());
        }
        if let Some(line) = lines.last_mut() {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// A node's fill: red for a failure, blue for a leaf's `AccumulateGrad`,
/// grey for the others, as torchviz colours them.
fn fill_of(node: &GraphNode) -> &'static str {
    if node.error.is_some() {
        "#f8d0d0"
    } else if node.leaf.is_some() {
        "lightblue"
    } else {
        "lightgrey"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::Category;

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
                    dtype: "float32".into(),
                    strides: vec![1, 2],
                    offset: 0,
                    version: 1,
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
            "seq,time_us,device,parameter,gradient,optimizer_state,saved_for_backward,other,total,reserved,line,name"
        );
        assert_eq!(lines[1], "0,0,cpu,0,0,0,0,16,16,0,,");
        assert_eq!(lines[2], "4,40,cpu,0,0,0,16,0,16,0,,");
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
                "6,60,webgpu,0,0,0,0,64,64,0,,",
                "7,70,webgpu,0,0,0,0,64,64,256,,"
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
        assert!(text.contains("self\\n(2, 2) 16 B\\nfloat32 stride (1, 2) version 1"));
        assert!(text.contains("fillcolor=orange"));
        let picture = svg(&events());
        assert!(picture.starts_with("<svg") && picture.contains("MulBackward0"));
        assert!(picture.contains("self (2, 2)"));
    }

    fn at(line: u32, kind: EventKind) -> Event {
        Event {
            seq: 0,
            time_us: 0,
            line: Some(line),
            kind,
        }
    }

    fn numbered(mut events: Vec<Event>) -> Vec<Event> {
        for (i, e) in events.iter_mut().enumerate() {
            e.seq = i as u64;
        }
        events
    }

    #[test]
    fn outputs_memory_csv_line_and_name_columns() {
        let list = numbered(vec![
            at(
                3,
                EventKind::StorageAllocated {
                    storage: 4,
                    bytes: 48,
                    device: "cpu".into(),
                    category: Category::Other,
                },
            ),
            at(
                4,
                EventKind::TensorNamed {
                    tensor: 1,
                    storage: 4,
                    node: None,
                    name: "parts[0], kept".into(),
                    parameter: None,
                },
            ),
            at(9, EventKind::StorageFreed { storage: 4 }),
        ]);
        let csv = memory_csv(&list);
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        // The free happened on line 9; the row names the allocation's line.
        assert_eq!(
            rows,
            [
                "0,0,cpu,0,0,0,0,48,48,0,3,\"parts[0], kept\"",
                "2,0,cpu,0,0,0,0,0,0,0,3,\"parts[0], kept\""
            ]
        );
    }

    #[test]
    fn outputs_graph_shows_names_and_the_failure() {
        let mut list = events();
        let n = list.len();
        list.extend(numbered(vec![
            at(
                2,
                EventKind::TensorNamed {
                    tensor: 5,
                    storage: 5,
                    node: Some(2),
                    name: "y".into(),
                    parameter: None,
                },
            ),
            at(
                3,
                EventKind::Raised {
                    type_name: "RuntimeError".into(),
                    message: "mm: mat1 and mat2 shapes cannot be multiplied (2x2 and 3x1)".into(),
                    source: "z = y @ w".into(),
                    inputs: vec![gradscope_trace::RaisedInput {
                        name: "y".into(),
                        tensor: 5,
                        node: Some(2),
                        shape: vec![2, 2],
                        dtype: "torch.float32".into(),
                    }],
                    backward: false,
                },
            ),
        ]));
        for (i, e) in list.iter_mut().enumerate().skip(n) {
            e.seq = i as u64;
        }
        let graph = graph_to_draw(&list);
        assert_eq!(
            graph.nodes.keys().copied().collect::<Vec<_>>(),
            [1, 2, FAILED_NODE]
        );
        let picture = svg(&list);
        assert!(picture.contains(">y</text>"));
        assert!(picture.contains(">z = y @ w</text>"));
        assert!(picture.contains("fill=\"#f8d0d0\" stroke=\"red\""));
        assert!(picture.contains(">y (2, 2)</text>"));
        assert!(picture.contains("RuntimeError: mm: mat1 and mat2 shapes"));
        let text = dot(&list);
        assert!(text.contains(&format!("n{FAILED_NODE} -> n2;")));
    }
}
