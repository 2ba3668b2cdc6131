//! Which nodes the graph view draws. A training loop builds a new graph
//! each step and backward frees it; kept whole, a few hundred steps would
//! draw thousands of freed boxes, and the page would spend its frames on
//! them (the browser's layout of a 1,000-node SVG took over 200 ms a frame).
//! So the view draws every node that is still alive or holds saved tensors,
//! and of the freed ones only the most recent passes, up to a budget.

use std::collections::{BTreeMap, BTreeSet};

use gradscope_trace::{GraphState, NodeId, NodeStatus};

/// About how many nodes the view draws before it hides older freed passes.
pub const NODE_BUDGET: usize = 150;

/// The graph to draw, and how many freed nodes of earlier passes it leaves
/// out.
///
/// Freed nodes are grouped into passes: nodes connected to each other
/// (leaves' `AccumulateGrad` nodes, shared by every step, do not connect
/// passes). The newest passes (by their newest node) are kept while the
/// total stays within [`NODE_BUDGET`], and always the newest one, however
/// large, so one big graph is never cut.
pub fn window(graph: &GraphState) -> (GraphState, usize) {
    if graph.nodes.len() <= NODE_BUDGET {
        return (graph.clone(), 0);
    }
    let freed = |id: &NodeId| {
        graph
            .nodes
            .get(id)
            .is_some_and(|n| n.status == NodeStatus::Released && n.leaf.is_none())
    };
    // Union-find over freed nodes, joined along edges between freed nodes.
    let mut parent: BTreeMap<NodeId, NodeId> = graph
        .nodes
        .keys()
        .filter(|id| freed(id))
        .map(|&id| (id, id))
        .collect();
    fn root(parent: &mut BTreeMap<NodeId, NodeId>, mut id: NodeId) -> NodeId {
        while let Some(&p) = parent.get(&id) {
            if p == id {
                break;
            }
            // Halve the path as we go.
            let grand = parent.get(&p).copied().unwrap_or(p);
            parent.insert(id, grand);
            id = grand;
        }
        id
    }
    for node in graph.nodes.values().filter(|n| freed(&n.id)) {
        for &next in node.next.iter().flatten() {
            if freed(&next) {
                let (a, b) = (root(&mut parent, node.id), root(&mut parent, next));
                if a != b {
                    parent.insert(a.min(b), a.max(b));
                }
            }
        }
    }
    // Passes: their nodes, keyed by their newest node.
    let mut passes: BTreeMap<NodeId, Vec<NodeId>> = BTreeMap::new();
    let ids: Vec<NodeId> = parent.keys().copied().collect();
    let mut newest: BTreeMap<NodeId, NodeId> = BTreeMap::new();
    for &id in &ids {
        let r = root(&mut parent, id);
        let entry = newest.entry(r).or_insert(id);
        *entry = (*entry).max(id);
        passes.entry(r).or_default().push(id);
    }
    let mut by_newest: Vec<(NodeId, Vec<NodeId>)> = passes
        .into_iter()
        .map(|(r, nodes)| (newest.get(&r).copied().unwrap_or(r), nodes))
        .collect();
    by_newest.sort_by_key(|p| std::cmp::Reverse(p.0));
    let mut room = NODE_BUDGET.saturating_sub(graph.nodes.len() - ids.len());
    let mut hidden: BTreeSet<NodeId> = BTreeSet::new();
    for (k, (_, nodes)) in by_newest.into_iter().enumerate() {
        if k == 0 || nodes.len() <= room {
            room = room.saturating_sub(nodes.len());
        } else {
            // Once one pass does not fit, older ones are hidden too, so the
            // view never shows an old pass without the ones after it.
            room = 0;
            hidden.extend(nodes);
        }
    }
    let mut shown = GraphState::default();
    for (id, node) in &graph.nodes {
        if !hidden.contains(id) {
            shown.nodes.insert(*id, node.clone());
        }
    }
    (shown, hidden.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::GraphNode;

    fn node(id: NodeId, next: &[NodeId], status: NodeStatus, leaf: bool) -> GraphNode {
        GraphNode {
            id,
            name: if leaf {
                "AccumulateGrad"
            } else {
                "MulBackward0"
            }
            .into(),
            sequence_nr: id,
            next: next.iter().map(|&n| Some(n)).collect(),
            saved: vec![],
            leaf: leaf.then_some(id),
            status,
        }
    }

    /// Two leaves (ids 1, 2), then `steps` passes of a 3-node chain ending
    /// at both leaves; the last `alive` passes not yet run by backward.
    fn training(steps: u64, alive: u64) -> GraphState {
        let mut graph = GraphState::default();
        for leaf in [1, 2] {
            graph
                .nodes
                .insert(leaf, node(leaf, &[], NodeStatus::Released, true));
        }
        for s in 0..steps {
            let base = 10 + 3 * s;
            let status = if s + alive >= steps {
                NodeStatus::Pending
            } else {
                NodeStatus::Released
            };
            graph.nodes.insert(base, node(base, &[1, 2], status, false));
            graph
                .nodes
                .insert(base + 1, node(base + 1, &[base], status, false));
            graph
                .nodes
                .insert(base + 2, node(base + 2, &[base + 1], status, false));
        }
        graph
    }

    #[test]
    fn window_keeps_small_graphs_whole() {
        let graph = training(40, 1);
        assert!(graph.nodes.len() <= NODE_BUDGET);
        assert_eq!(window(&graph), (graph.clone(), 0));
    }

    #[test]
    fn window_hides_the_oldest_freed_passes() {
        let graph = training(300, 1);
        let (shown, hidden) = window(&graph);
        assert_eq!(shown.nodes.len() + hidden, graph.nodes.len());
        assert!(shown.nodes.len() <= NODE_BUDGET, "{}", shown.nodes.len());
        // Whole passes only: 3 nodes each; the leaves and the live pass stay.
        assert_eq!(hidden % 3, 0);
        assert!(shown.nodes.contains_key(&1) && shown.nodes.contains_key(&2));
        let newest = 10 + 3 * 299;
        assert!((newest..newest + 3).all(|id| shown.nodes.contains_key(&id)));
        // What is kept is the newest passes: every hidden id is older.
        let oldest_shown = shown.nodes.keys().filter(|&&id| id >= 10).min().copied();
        let hidden_ids: Vec<NodeId> = graph
            .nodes
            .keys()
            .filter(|id| !shown.nodes.contains_key(id))
            .copied()
            .collect();
        assert!(hidden_ids.iter().all(|&id| Some(id) < oldest_shown));
    }

    #[test]
    fn window_never_hides_live_nodes() {
        // 200 passes still alive (nothing ran backward): all drawn.
        let graph = training(200, 200);
        let (shown, hidden) = window(&graph);
        assert_eq!(hidden, 0);
        assert_eq!(shown.nodes.len(), graph.nodes.len());
    }

    #[test]
    fn window_keeps_the_newest_pass_however_large() {
        // One freed chain of 400 nodes: one pass, kept whole.
        let mut graph = GraphState::default();
        for id in 1..=400 {
            let next: Vec<NodeId> = if id > 1 { vec![id - 1] } else { vec![] };
            graph
                .nodes
                .insert(id, node(id, &next, NodeStatus::Released, false));
        }
        let (shown, hidden) = window(&graph);
        assert_eq!((shown.nodes.len(), hidden), (400, 0));
    }
}
