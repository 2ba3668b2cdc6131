//! Where each graph node is drawn: a layered layout with the output on top and
//! the leaves at the bottom, as torchviz draws PyTorch graphs.

use std::collections::BTreeMap;

use crate::event::NodeId;
use crate::graph::{GraphNode, GraphState, ModuleScope};
use crate::group::{Expansion, GroupKey, Grouped, Item};

/// Width of a node's box, in layout units (SVG user units on the page).
pub const NODE_WIDTH: f64 = 150.0;
/// Height of a node's box.
pub const NODE_HEIGHT: f64 = 36.0;
/// Space between boxes side by side.
pub(crate) const H_GAP: f64 = 24.0;
const V_GAP: f64 = 44.0;
const MARGIN: f64 = 8.0;

/// A node placed on the canvas; `x`, `y` are its box's top-left corner.
#[derive(Clone, Debug, PartialEq)]
pub struct LaidNode {
    /// The node as the graph state holds it.
    pub node: GraphNode,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
}

/// An edge from a node to one of its `next_functions`, as a line between box edges.
#[derive(Clone, Debug, PartialEq)]
pub struct LaidEdge {
    /// The node whose backward produces the gradient.
    pub from: NodeId,
    /// The node that receives it.
    pub to: NodeId,
    /// Start point (bottom middle of `from`).
    pub x1: f64,
    /// Start point.
    pub y1: f64,
    /// End point (top middle of `to`).
    pub x2: f64,
    /// End point.
    pub y2: f64,
}

/// A collapsed module group placed as one box of a node's size.
#[derive(Clone, Debug, PartialEq)]
pub struct LaidGroup {
    /// The group.
    pub key: GroupKey,
    /// What its box says: `fc1 (Linear)`.
    pub label: String,
    /// The nodes it holds, in id order.
    pub members: Vec<NodeId>,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
}

/// An open module group: a frame around what it holds, its label in a
/// header band along its top.
#[derive(Clone, Debug, PartialEq)]
pub struct LaidFrame {
    /// The group.
    pub key: GroupKey,
    /// What its header says: `fc1 (Linear)`.
    pub label: String,
    /// How many nodes it holds.
    pub nodes: usize,
    /// Left edge.
    pub x: f64,
    /// Top edge (of the header).
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height, header included.
    pub height: f64,
}

/// Padding between a frame and what it holds.
pub const FRAME_PAD: f64 = 6.0;
/// Height of a frame's header band, where its label goes.
pub const FRAME_HEADER: f64 = 16.0;

/// A whole graph placed on a canvas of `width` by `height`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphLayout {
    /// Nodes drawn by themselves, layer by layer, left to right.
    pub nodes: Vec<LaidNode>,
    /// Collapsed groups, each one box.
    pub groups: Vec<LaidGroup>,
    /// Open groups, outermost first (so inner ones draw on top).
    pub frames: Vec<LaidFrame>,
    /// Edges, in node order then input order: one per input between two
    /// nodes, one per pair of boxes where a collapsed group is an end (it
    /// names the group's first node).
    pub edges: Vec<LaidEdge>,
    /// Canvas width.
    pub width: f64,
    /// Canvas height.
    pub height: f64,
}

impl GraphLayout {
    /// Lays out `graph`: each node one layer below the deepest node that
    /// points to it, so every edge points downwards. Module groups are not
    /// drawn (see [`GraphLayout::grouped`]).
    pub fn of(graph: &GraphState) -> Self {
        let items: Vec<Item> = graph.nodes.keys().map(|&id| Item::Node(id)).collect();
        let index: BTreeMap<NodeId, usize> = graph
            .nodes
            .keys()
            .enumerate()
            .map(|(i, &id)| (id, i))
            .collect();
        let index = &index;
        let edges = graph
            .nodes
            .values()
            .flat_map(|node| {
                let from = index.get(&node.id).copied();
                node.next
                    .iter()
                    .flatten()
                    .filter_map(move |to| Some((from?, *index.get(to)?)))
            })
            .collect();
        let grouped = Grouped {
            items,
            edges,
            open: vec![],
        };
        Self::place(graph, &grouped, false)
    }

    /// Lays out `graph` with its nodes grouped by `nn.Module`: a collapsed
    /// group is one box, with the edges into and out of it merged; an open
    /// one is a frame around its nodes, whose rows keep a group's members
    /// side by side.
    pub fn grouped(graph: &GraphState, expansion: &Expansion) -> Self {
        Self::place(graph, &Grouped::of(graph, expansion), true)
    }

    fn place(graph: &GraphState, grouped: &Grouped, by_module: bool) -> Self {
        let items = &grouped.items;
        let layers = layer_of_each_item(items.len(), &grouped.edges);
        let mut rows: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (item, &layer) in layers.iter().enumerate() {
            rows.entry(layer).or_default().push(item);
        }
        if by_module {
            for row in rows.values_mut() {
                row.sort_by(|&a, &b| {
                    items[a]
                        .path(graph)
                        .cmp(items[b].path(graph))
                        .then(a.cmp(&b))
                });
            }
        }
        let widest = rows.values().map(Vec::len).max().unwrap_or(0) as f64;
        let mut width = if rows.is_empty() {
            0.0
        } else {
            2.0 * MARGIN + widest * NODE_WIDTH + (widest - 1.0) * H_GAP
        };
        let layers_used = rows.len() as f64;
        let mut height = if rows.is_empty() {
            0.0
        } else {
            2.0 * MARGIN + layers_used * NODE_HEIGHT + (layers_used - 1.0) * V_GAP
        };
        let mut position = vec![(0.0, 0.0); items.len()];
        let mut order = Vec::with_capacity(items.len());
        // With open module groups, each takes columns of its own, so its
        // frame holds only its nodes; otherwise rows are centred.
        let columns = (by_module && !grouped.open.is_empty())
            .then(|| crate::blocks::columns(graph, grouped, &layers));
        if let Some(columns) = &columns {
            width = 2.0 * MARGIN + columns.iter().fold(0.0, |w: f64, x| w.max(x + NODE_WIDTH));
        }
        for (&layer, row) in &rows {
            let count = row.len() as f64;
            let row_width = count * NODE_WIDTH + (count - 1.0) * H_GAP;
            let left = (width - row_width) / 2.0;
            for (i, &item) in row.iter().enumerate() {
                let x = match &columns {
                    Some(columns) => MARGIN + columns[item],
                    None => left + i as f64 * (NODE_WIDTH + H_GAP),
                };
                let y = MARGIN + layer as f64 * (NODE_HEIGHT + V_GAP);
                position[item] = (x, y);
                order.push(item);
            }
        }
        let mut frames = frames_of(grouped, &position);
        // Frames reach above and left of the boxes: move everything so the
        // outermost stays on the canvas.
        let left = frames.iter().map(|f| f.x).fold(MARGIN, f64::min);
        let top = frames.iter().map(|f| f.y).fold(MARGIN, f64::min);
        let (dx, dy) = (MARGIN - left, MARGIN - top);
        for p in &mut position {
            *p = (p.0 + dx, p.1 + dy);
        }
        for f in &mut frames {
            f.x += dx;
            f.y += dy;
            width = width.max(f.x + f.width + MARGIN);
            height = height.max(f.y + f.height + MARGIN);
        }
        width += dx;
        height += dy;
        let mut nodes = Vec::new();
        let mut groups = Vec::new();
        for &item in &order {
            let (x, y) = position[item];
            match &items[item] {
                Item::Node(id) => {
                    if let Some(node) = graph.nodes.get(id) {
                        nodes.push(LaidNode {
                            node: node.clone(),
                            x,
                            y,
                        });
                    }
                }
                Item::Group { key, members } => groups.push(LaidGroup {
                    key: key.clone(),
                    label: key.last().map(ModuleScope::label).unwrap_or_default(),
                    members: members.clone(),
                    x,
                    y,
                }),
            }
        }
        let first = |item: &Item| match item {
            Item::Node(id) => *id,
            Item::Group { members, .. } => members.first().copied().unwrap_or_default(),
        };
        let edges = grouped
            .edges
            .iter()
            .map(|&(from, to)| {
                let ((x1, y1), (x2, y2)) = (position[from], position[to]);
                LaidEdge {
                    from: first(&items[from]),
                    to: first(&items[to]),
                    x1: x1 + NODE_WIDTH / 2.0,
                    y1: y1 + NODE_HEIGHT,
                    x2: x2 + NODE_WIDTH / 2.0,
                    y2,
                }
            })
            .collect();
        Self {
            nodes,
            groups,
            frames,
            edges,
            width,
            height,
        }
    }
}

/// The frame of each open group: around its items and the frames of the
/// open groups inside it, innermost first, returned outermost first.
fn frames_of(grouped: &Grouped, position: &[(f64, f64)]) -> Vec<LaidFrame> {
    let mut open: Vec<&crate::group::OpenGroup> = grouped.open.iter().collect();
    open.sort_by(|a, b| b.key.len().cmp(&a.key.len()).then(a.key.cmp(&b.key)));
    let mut frames: Vec<LaidFrame> = Vec::with_capacity(open.len());
    for group in open {
        let mut bounds: Option<(f64, f64, f64, f64)> = None;
        let mut grow = |x0: f64, y0: f64, x1: f64, y1: f64| {
            bounds = Some(match bounds {
                None => (x0, y0, x1, y1),
                Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
            });
        };
        for &item in &group.items {
            if let Some(&(x, y)) = position.get(item) {
                grow(x, y, x + NODE_WIDTH, y + NODE_HEIGHT);
            }
        }
        for inner in &frames {
            if inner.key.len() == group.key.len() + 1 && inner.key.starts_with(&group.key) {
                grow(
                    inner.x,
                    inner.y,
                    inner.x + inner.width,
                    inner.y + inner.height,
                );
            }
        }
        let Some((x0, y0, x1, y1)) = bounds else {
            continue;
        };
        frames.push(LaidFrame {
            key: group.key.clone(),
            label: group.key.last().map(ModuleScope::label).unwrap_or_default(),
            nodes: group.nodes,
            x: x0 - FRAME_PAD,
            y: y0 - FRAME_PAD - FRAME_HEADER,
            width: x1 - x0 + 2.0 * FRAME_PAD,
            height: y1 - y0 + 2.0 * FRAME_PAD + FRAME_HEADER,
        });
    }
    frames.reverse();
    frames
}

/// Longest-path layering by Kahn's algorithm over the edges: an explicit
/// work list, so deep graphs cannot overflow the stack, and the result
/// never depends on hash order. Merged groups can form cycles (a module
/// called twice); when only cycles remain, the latest item left is placed
/// below what points to it so far, and its other in-edges point upwards.
fn layer_of_each_item(count: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut parents = vec![0usize; count];
    let mut children: Vec<Vec<usize>> = vec![vec![]; count];
    for &(from, to) in edges {
        if from < count && to < count {
            parents[to] += 1;
            children[from].push(to);
        }
    }
    let mut layer = vec![0usize; count];
    let mut placed = vec![false; count];
    let mut ready: Vec<usize> = (0..count).filter(|&i| parents[i] == 0).rev().collect();
    let mut unplaced = count;
    loop {
        while let Some(item) = ready.pop() {
            if placed[item] {
                continue;
            }
            placed[item] = true;
            for &child in &children[item] {
                if placed[child] {
                    continue;
                }
                layer[child] = layer[child].max(layer[item] + 1);
                parents[child] -= 1;
                if parents[child] == 0 {
                    ready.push(child);
                }
            }
        }
        while unplaced > 0 && placed[unplaced - 1] {
            unplaced -= 1;
        }
        if unplaced == 0 {
            return layer;
        }
        ready.push(unplaced - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::NodeStatus;

    fn node(id: NodeId, name: &str, next: Vec<Option<NodeId>>) -> GraphNode {
        GraphNode {
            id,
            name: name.into(),
            sequence_nr: id,
            next,
            saved: vec![],
            leaf: None,
            status: NodeStatus::Pending,
            modules: Default::default(),
            label: None,
            error: None,
        }
    }

    fn graph(nodes: Vec<GraphNode>) -> GraphState {
        let mut graph = GraphState::default();
        graph.nodes = nodes.into_iter().map(|n| (n.id, n)).collect();
        graph
    }

    #[test]
    fn layout_puts_each_node_below_all_its_parents() {
        // mean -> mul2 -> mul1 -> add -> acc, and mul1 -> add twice (y * y).
        let g = graph(vec![
            node(1, "AccumulateGrad", vec![]),
            node(2, "AddBackward0", vec![Some(1), None]),
            node(3, "MulBackward0", vec![Some(2), Some(2)]),
            node(4, "MulBackward0", vec![Some(3), None]),
            node(5, "MeanBackward0", vec![Some(4)]),
        ]);
        let laid = GraphLayout::of(&g);
        let y: BTreeMap<NodeId, f64> = laid.nodes.iter().map(|n| (n.node.id, n.y)).collect();
        assert!(y[&5] < y[&4] && y[&4] < y[&3] && y[&3] < y[&2] && y[&2] < y[&1]);
        assert_eq!(laid.edges.len(), 5);
        assert!(laid.edges.iter().all(|e| e.y2 > e.y1));
    }

    #[test]
    fn layout_deep_chain_without_recursion() {
        let n = 100_000;
        let nodes = (0..n).map(|i| node(i, "AddBackward0", vec![(i > 0).then(|| i - 1)]));
        let laid = GraphLayout::of(&graph(nodes.collect()));
        assert_eq!(laid.nodes.len(), n as usize);
    }

    #[test]
    fn layout_of_empty_graph() {
        let laid = GraphLayout::of(&GraphState::default());
        assert!(laid.nodes.is_empty());
        assert_eq!(laid.height, 0.0);
    }

    fn grouped_events(kinds: Vec<crate::event::EventKind>) -> GraphState {
        GraphState::at(&crate::event::Event::numbered(kinds))
    }

    /// `Sequential` of `blocks` (Linear, Tanh) pairs; each Linear makes an
    /// `AccumulateGrad` and an `AddmmBackward0`, each Tanh a `TanhBackward0`.
    fn sequential(blocks: u64) -> GraphState {
        use crate::event::EventKind;
        let entered = |name: String, class: &str| EventKind::ModuleEntered {
            name,
            class: class.into(),
        };
        let created = |node, next: Vec<Option<NodeId>>| EventKind::NodeCreated {
            node,
            name: "Op".into(),
            sequence_nr: node,
            next,
            saved: vec![],
            leaf: None,
        };
        let mut kinds = vec![entered(String::new(), "Sequential")];
        let mut last = None;
        for b in 0..blocks {
            let id = 1 + 3 * b;
            kinds.push(entered(format!("{}", 2 * b), "Linear"));
            kinds.push(created(id, vec![]));
            kinds.push(created(id + 1, vec![last, Some(id)]));
            kinds.push(EventKind::ModuleExited);
            kinds.push(entered(format!("{}", 2 * b + 1), "Tanh"));
            kinds.push(created(id + 2, vec![Some(id + 1)]));
            kinds.push(EventKind::ModuleExited);
            last = Some(id + 2);
        }
        kinds.push(EventKind::ModuleExited);
        grouped_events(kinds)
    }

    #[test]
    fn layout_grouped_collapses_each_module_to_one_box() {
        let g = sequential(100);
        assert_eq!(g.nodes.len(), 300);
        let laid = GraphLayout::grouped(&g, &Expansion::for_size(g.nodes.len()));
        assert!(laid.nodes.is_empty());
        assert_eq!(laid.groups.len(), 200);
        // The output on top, the first Linear at the bottom.
        assert_eq!(laid.groups[0].label, "199 (Tanh)");
        let bottom = &laid.groups[199];
        assert_eq!(
            (bottom.label.as_str(), &bottom.members[..]),
            ("0 (Linear)", &[1, 2][..])
        );
        // A chain of 200 boxes: 199 merged edges, each pointing down.
        assert_eq!(laid.edges.len(), 199);
        assert!(laid.edges.iter().all(|e| e.y2 > e.y1));
        // The outermost Sequential is open: one frame around every box.
        assert_eq!(laid.frames.len(), 1);
        let frame = &laid.frames[0];
        assert_eq!(frame.label, "Sequential");
        assert!(laid.groups.iter().all(|b| b.x >= frame.x
            && b.y >= frame.y + FRAME_HEADER
            && b.x + NODE_WIDTH <= frame.x + frame.width
            && b.y + NODE_HEIGHT <= frame.y + frame.height));
        assert!(frame.x >= 0.0 && frame.y >= 0.0);
        assert!(frame.x + frame.width <= laid.width && frame.y + frame.height <= laid.height);
    }

    #[test]
    fn layout_grouped_open_group_frames_its_nodes() {
        let g = sequential(3);
        let key = g.nodes[&4].modules.clone();
        let expansion = Expansion::for_size(1000).toggled(&key);
        let laid = GraphLayout::grouped(&g, &expansion);
        // Block 1's Linear is open: its two nodes drawn, framed, labelled.
        let ids: Vec<NodeId> = laid.nodes.iter().map(|n| n.node.id).collect();
        assert_eq!(ids, [5, 4]);
        assert_eq!(laid.groups.len(), 5);
        let frame = laid.frames.iter().find(|f| f.key == key).unwrap();
        assert_eq!((frame.label.as_str(), frame.nodes), ("2 (Linear)", 2));
        assert!(
            laid.nodes
                .iter()
                .all(|n| n.x > frame.x && n.y > frame.y + FRAME_HEADER)
        );
        // Outermost first, so the inner frame draws on top.
        assert_eq!(laid.frames[0].label, "Sequential");
        // The same as ungrouped where everything is open.
        let open = GraphLayout::grouped(&g, &Expansion::for_size(0));
        assert_eq!(open.nodes.len(), 9);
        assert_eq!(open.edges.len(), GraphLayout::of(&g).edges.len());
    }

    #[test]
    fn layout_grouped_keeps_an_edge_per_input_between_nodes() {
        // y * y: MulBackward0 points twice at the same node, as PyTorch's
        // next_functions does, grouped or not.
        let g = graph(vec![
            node(1, "AccumulateGrad", vec![]),
            node(2, "MulBackward0", vec![Some(1), Some(1)]),
        ]);
        assert_eq!(
            GraphLayout::grouped(&g, &Expansion::for_size(0))
                .edges
                .len(),
            2
        );
        assert_eq!(GraphLayout::of(&g).edges.len(), 2);
    }

    #[test]
    fn layout_places_every_item_of_a_cycle() {
        // Merged groups that point at each other still get a layer each.
        let layers = layer_of_each_item(3, &[(1, 0), (1, 2), (2, 1)]);
        assert_eq!(layers, [2, 1, 0]);
        let layers = layer_of_each_item(2, &[(0, 1), (1, 0)]);
        assert_eq!(layers, [1, 0]);
    }

    /// Whether two boxes (x, y, width, height) overlap.
    fn overlap(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
        a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
    }

    /// No frame covers a box that is not its group's, and frames of groups
    /// that do not nest do not overlap.
    fn assert_frames_hold_only_their_own(laid: &GraphLayout) {
        let boxes = laid
            .nodes
            .iter()
            .map(|n| (&n.node.modules[..], n.x, n.y))
            .chain(laid.groups.iter().map(|g| (&g.key[..], g.x, g.y)));
        for (path, x, y) in boxes {
            for f in &laid.frames {
                let inside = path.starts_with(&f.key);
                let hit = overlap(
                    (x, y, NODE_WIDTH, NODE_HEIGHT),
                    (f.x, f.y, f.width, f.height),
                );
                assert_eq!(inside, hit, "{} and a box of {path:?}", f.label);
            }
        }
        for a in &laid.frames {
            for b in &laid.frames {
                let nested = a.key.starts_with(&b.key) || b.key.starts_with(&a.key);
                let hit = overlap((a.x, a.y, a.width, a.height), (b.x, b.y, b.width, b.height));
                assert!(nested || !hit, "{} overlaps {}", a.label, b.label);
            }
        }
    }

    #[test]
    fn layout_grouped_frames_hold_only_their_nodes() {
        use crate::event::EventKind;
        // Net { layers: Sequential(Linear, ReLU, Linear), head: Linear },
        // then MSELoss: every group open.
        let entered = |name: &str, class: &str| EventKind::ModuleEntered {
            name: name.into(),
            class: class.into(),
        };
        let created = |node, next: &[NodeId]| EventKind::NodeCreated {
            node,
            name: "Op".into(),
            sequence_nr: node,
            next: next.iter().map(|&n| Some(n)).collect(),
            saved: vec![],
            leaf: None,
        };
        let linear = |name: &str, base: NodeId, input: Option<NodeId>| {
            let mut kinds = vec![
                entered(name, "Linear"),
                created(base, &[]),
                created(base + 1, &[]),
            ];
            kinds.push(created(base + 2, &[base]));
            let mut next = vec![base + 1];
            next.extend(input);
            next.push(base + 2);
            kinds.push(created(base + 3, &next));
            kinds.push(EventKind::ModuleExited);
            kinds
        };
        let mut kinds = vec![entered("", "Net"), entered("layers", "Sequential")];
        kinds.extend(linear("layers.0", 1, None));
        kinds.extend([
            entered("layers.1", "ReLU"),
            created(5, &[4]),
            EventKind::ModuleExited,
        ]);
        kinds.extend(linear("layers.2", 6, Some(5)));
        kinds.push(EventKind::ModuleExited);
        kinds.push(created(10, &[9]));
        kinds.extend(linear("head", 11, Some(10)));
        kinds.push(EventKind::ModuleExited);
        kinds.extend([
            entered("", "MSELoss"),
            created(15, &[14]),
            EventKind::ModuleExited,
        ]);
        let g = grouped_events(kinds);
        let open = GraphLayout::grouped(&g, &Expansion::for_size(0));
        assert_eq!((open.nodes.len(), open.frames.len()), (15, 7));
        assert_frames_hold_only_their_own(&open);
        assert!(open.edges.iter().all(|e| e.y2 > e.y1));
        // Closing layers.0 and head leaves the same guarantee.
        let mut expansion = Expansion::for_size(0);
        for id in [1, 11] {
            expansion = expansion.toggled(&g.nodes[&id].modules);
        }
        let some = GraphLayout::grouped(&g, &expansion);
        assert_eq!((some.groups.len(), some.frames.len()), (2, 5));
        assert_frames_hold_only_their_own(&some);
        // A long chain of open modules stays narrow: blocks that share no
        // row share columns.
        let chain = GraphLayout::grouped(&sequential(50), &Expansion::for_size(0));
        assert_frames_hold_only_their_own(&chain);
        assert!(chain.width < 6.0 * (NODE_WIDTH + H_GAP), "{}", chain.width);
    }
}
