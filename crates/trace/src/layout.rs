//! Where each graph node is drawn: a layered layout with the output on top and
//! the leaves at the bottom, as torchviz draws PyTorch graphs.

use std::collections::BTreeMap;

use crate::event::NodeId;
use crate::graph::{GraphNode, GraphState};

/// Width of a node's box, in layout units (SVG user units on the page).
pub const NODE_WIDTH: f64 = 150.0;
/// Height of a node's box.
pub const NODE_HEIGHT: f64 = 36.0;
const H_GAP: f64 = 24.0;
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

/// A whole graph placed on a canvas of `width` by `height`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphLayout {
    /// Nodes, layer by layer, left to right.
    pub nodes: Vec<LaidNode>,
    /// Edges, in node order then input order.
    pub edges: Vec<LaidEdge>,
    /// Canvas width.
    pub width: f64,
    /// Canvas height.
    pub height: f64,
}

impl GraphLayout {
    /// Lays out `graph`: each node one layer below the deepest node that
    /// points to it, so every edge points downwards.
    pub fn of(graph: &GraphState) -> Self {
        let layers = layer_of_each_node(graph);
        let mut rows: BTreeMap<usize, Vec<NodeId>> = BTreeMap::new();
        for (&id, &layer) in &layers {
            rows.entry(layer).or_default().push(id);
        }
        let widest = rows.values().map(Vec::len).max().unwrap_or(0) as f64;
        let width = if rows.is_empty() {
            0.0
        } else {
            2.0 * MARGIN + widest * NODE_WIDTH + (widest - 1.0) * H_GAP
        };
        let mut position = BTreeMap::new();
        let mut nodes = Vec::with_capacity(layers.len());
        for (&layer, ids) in &rows {
            let count = ids.len() as f64;
            let row_width = count * NODE_WIDTH + (count - 1.0) * H_GAP;
            let left = (width - row_width) / 2.0;
            for (i, id) in ids.iter().enumerate() {
                let x = left + i as f64 * (NODE_WIDTH + H_GAP);
                let y = MARGIN + layer as f64 * (NODE_HEIGHT + V_GAP);
                position.insert(*id, (x, y));
                if let Some(node) = graph.nodes.get(id) {
                    nodes.push(LaidNode {
                        node: node.clone(),
                        x,
                        y,
                    });
                }
            }
        }
        let mut edges = Vec::new();
        for laid in &nodes {
            for to in laid.node.next.iter().flatten() {
                if let Some(&(tx, ty)) = position.get(to) {
                    edges.push(LaidEdge {
                        from: laid.node.id,
                        to: *to,
                        x1: laid.x + NODE_WIDTH / 2.0,
                        y1: laid.y + NODE_HEIGHT,
                        x2: tx + NODE_WIDTH / 2.0,
                        y2: ty,
                    });
                }
            }
        }
        let layers_used = rows.len() as f64;
        let height = if rows.is_empty() {
            0.0
        } else {
            2.0 * MARGIN + layers_used * NODE_HEIGHT + (layers_used - 1.0) * V_GAP
        };
        Self {
            nodes,
            edges,
            width,
            height,
        }
    }
}

/// Longest-path layering by Kahn's algorithm over `next` edges: an explicit
/// work list in id order, so deep graphs cannot overflow the stack and the
/// result never depends on hash order.
fn layer_of_each_node(graph: &GraphState) -> BTreeMap<NodeId, usize> {
    let mut parents: BTreeMap<NodeId, usize> = graph.nodes.keys().map(|&id| (id, 0)).collect();
    for node in graph.nodes.values() {
        for next in node.next.iter().flatten() {
            if let Some(count) = parents.get_mut(next) {
                *count += 1;
            }
        }
    }
    let mut layer: BTreeMap<NodeId, usize> = BTreeMap::new();
    let mut ready: Vec<NodeId> = parents
        .iter()
        .filter(|&(_, &count)| count == 0)
        .map(|(&id, _)| id)
        .rev()
        .collect();
    for &id in &ready {
        layer.insert(id, 0);
    }
    while let Some(id) = ready.pop() {
        let here = layer.get(&id).copied().unwrap_or(0);
        let Some(node) = graph.nodes.get(&id) else {
            continue;
        };
        for next in node.next.iter().flatten() {
            let Some(count) = parents.get_mut(next) else {
                continue;
            };
            let entry = layer.entry(*next).or_insert(0);
            *entry = (*entry).max(here + 1);
            *count -= 1;
            if *count == 0 {
                ready.push(*next);
            }
        }
    }
    layer
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
        }
    }

    fn graph(nodes: Vec<GraphNode>) -> GraphState {
        GraphState {
            nodes: nodes.into_iter().map(|n| (n.id, n)).collect(),
        }
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
}
