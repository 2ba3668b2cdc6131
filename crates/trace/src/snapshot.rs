//! The graph as the page draws it after a prefix of the trace: each node's
//! phase (alive, holding saved tensors, running in backward, freed) and each
//! leaf's `.grad`.

use std::collections::{BTreeMap, BTreeSet};

use crate::event::{Event, EventKind, NodeId, StorageId, TensorId};
use crate::graph::{GraphNode, GraphState, NodeStatus};

/// What a node is doing at one point of the trace, as the graph view colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodePhase {
    /// In the graph, holding nothing for backward (`AccumulateGrad`, or an op
    /// that saves nothing, such as `AddBackward0`).
    Alive,
    /// In the graph and keeping saved tensors alive.
    Holding,
    /// The node whose backward ran last, while backward is still going.
    Running,
    /// Its backward ran and its saved tensors were released.
    Freed,
}

impl NodePhase {
    /// The name the page uses as a CSS class and in its legend.
    pub fn label(self) -> &'static str {
        match self {
            NodePhase::Alive => "alive",
            NodePhase::Holding => "holding saved",
            NodePhase::Running => "running",
            NodePhase::Freed => "freed",
        }
    }

    /// Every phase, in legend order.
    pub const ALL: [NodePhase; 4] = [
        NodePhase::Alive,
        NodePhase::Holding,
        NodePhase::Running,
        NodePhase::Freed,
    ];
}

/// A node with what the view shows about it at this point of the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView<'a> {
    /// The node.
    pub node: &'a GraphNode,
    /// What it is doing.
    pub phase: NodePhase,
    /// Bytes its saved tensors keep alive now, each storage once (0 once
    /// released, or when checkpointed and not yet recomputed).
    pub saved_bytes: u64,
    /// Whether its backward has run at least once.
    pub ran: bool,
    /// For `AccumulateGrad`: how many gradients the leaf's `.grad` has
    /// received (0: `.grad` is None). `None` for other nodes.
    pub grad_accumulations: Option<u32>,
}

impl crate::follow::Fold for GraphAt {
    fn apply(&mut self, _index: usize, event: &Event) {
        GraphAt::apply(self, event);
    }
}

/// The graph after the first `n` events, with backward's progress.
///
/// ```
/// use gradscope_trace::{Event, EventKind, GraphAt, NodePhase};
/// let ev = |seq, kind| Event { seq, time_us: 0, line: None, kind };
/// let trace = [
///     ev(0, EventKind::NodeCreated {
///         node: 1, name: "AccumulateGrad".into(), sequence_nr: u64::MAX,
///         next: vec![], saved: vec![], leaf: Some(7),
///     }),
///     ev(1, EventKind::BackwardBegan { root: 1, retain_graph: false }),
///     ev(2, EventKind::NodeExecuted { node: 1 }),
///     ev(3, EventKind::GradAccumulated { tensor: 7, accumulated: false }),
/// ];
/// let graph = GraphAt::of(&trace);
/// let node = graph.view(1).unwrap();
/// assert_eq!(node.phase, NodePhase::Running);
/// assert_eq!(node.grad_accumulations, Some(1));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphAt {
    /// The nodes and their statuses.
    pub graph: GraphState,
    /// The node that ran last while a backward is in progress.
    running: Option<NodeId>,
    /// Nodes whose backward has run at least once (retained graphs run again).
    ran: BTreeSet<NodeId>,
    /// Gradients received by each leaf.
    grads: BTreeMap<TensorId, u32>,
    /// How many events were applied.
    applied: usize,
    /// Nodes not freed: not yet released, or a leaf's `AccumulateGrad`.
    live: BTreeSet<NodeId>,
    /// Freed nodes by the pass that freed them, oldest first: those one
    /// `backward()` released, or a run of releases outside any backward.
    passes: Vec<Vec<NodeId>>,
    /// Whether the last pass still takes releases.
    pass_open: bool,
    /// How deep in nested backward calls the trace is.
    backward_depth: usize,
}

impl GraphAt {
    /// The graph after `events`, in order.
    pub fn of<'a>(events: impl IntoIterator<Item = &'a Event>) -> Self {
        let mut state = Self::default();
        for event in events {
            state.apply(event);
        }
        state
    }

    /// Advances by one event.
    pub fn apply(&mut self, event: &Event) {
        self.track_passes(event);
        self.graph.apply(event);
        self.applied += 1;
        if matches!(event.kind, EventKind::Raised { .. })
            && self.graph.nodes.contains_key(&crate::graph::FAILED_NODE)
        {
            self.live.insert(crate::graph::FAILED_NODE);
        }
        match &event.kind {
            EventKind::BackwardBegan { .. } => self.running = None,
            EventKind::NodeExecuted { node } => {
                self.running = Some(*node);
                self.ran.insert(*node);
            }
            EventKind::BackwardEnded => self.running = None,
            EventKind::GradAccumulated { tensor, .. } => {
                *self.grads.entry(*tensor).or_insert(0) += 1;
            }
            _ => {}
        }
    }

    /// Groups freed nodes into the passes that freed them (before `event`
    /// is applied to the graph, so a node's first release is seen).
    fn track_passes(&mut self, event: &Event) {
        match &event.kind {
            EventKind::NodeCreated { node, .. } => {
                self.live.insert(*node);
                self.pass_open &= self.backward_depth > 0;
            }
            EventKind::BackwardBegan { .. } => {
                self.backward_depth += 1;
                if self.backward_depth == 1 {
                    self.pass_open = false;
                }
            }
            EventKind::BackwardEnded => {
                self.backward_depth = self.backward_depth.saturating_sub(1);
                if self.backward_depth == 0 {
                    self.pass_open = false;
                }
            }
            EventKind::SavedReleased { node } => {
                let first = self
                    .graph
                    .nodes
                    .get(node)
                    .is_some_and(|n| n.status != NodeStatus::Released && n.leaf.is_none());
                if first {
                    self.live.remove(node);
                    match self.passes.last_mut() {
                        Some(pass) if self.pass_open => pass.push(*node),
                        _ => self.passes.push(vec![*node]),
                    }
                    self.pass_open = true;
                }
            }
            // Outside a backward, releases in a row are one pass.
            _ if self.backward_depth == 0 => self.pass_open = false,
            _ => {}
        }
    }

    /// Nodes not freed (not yet released, or leaves' `AccumulateGrad`), in
    /// id order.
    pub fn live(&self) -> &BTreeSet<NodeId> {
        &self.live
    }

    /// Freed nodes grouped by the pass that freed them, oldest pass first:
    /// the nodes one `backward()` released (or a run of releases outside
    /// any backward), in release order.
    pub fn freed_passes(&self) -> &[Vec<NodeId>] {
        &self.passes
    }

    /// How many events this graph reflects.
    pub fn applied(&self) -> usize {
        self.applied
    }

    /// The node running in backward now, if any.
    pub fn running(&self) -> Option<NodeId> {
        self.running
    }

    /// How many nodes are in each phase, in [`NodePhase::ALL`] order.
    pub fn phase_counts(&self) -> [usize; 4] {
        let mut counts = [0; 4];
        for id in self.graph.nodes.keys() {
            if let Some(view) = self.view(*id) {
                counts[view.phase as usize] += 1;
            }
        }
        counts
    }

    /// Bytes held by every node's saved tensors now, each storage counted
    /// once however many nodes save it (as the memory ledger counts it).
    pub fn saved_bytes(&self) -> u64 {
        let held: BTreeMap<StorageId, u64> = self
            .graph
            .nodes
            .values()
            .filter(|n| n.status != NodeStatus::Released)
            .flat_map(|n| n.saved.iter().filter(|s| !s.deferred))
            .map(|s| (s.storage, s.bytes))
            .collect();
        held.values().sum()
    }

    /// What the view shows of node `id`.
    pub fn view(&self, id: NodeId) -> Option<NodeView<'_>> {
        let node = self.graph.nodes.get(&id)?;
        let saved_bytes = match node.status {
            NodeStatus::Released => 0,
            NodeStatus::Pending | NodeStatus::Executed => {
                // `y * y` saves `y` twice: one storage.
                let held: BTreeMap<StorageId, u64> = node
                    .saved
                    .iter()
                    .filter(|s| !s.deferred)
                    .map(|s| (s.storage, s.bytes))
                    .collect();
                held.values().sum()
            }
        };
        let phase = if self.running == Some(id) {
            NodePhase::Running
        } else if node.status == NodeStatus::Released {
            NodePhase::Freed
        } else if saved_bytes > 0 {
            NodePhase::Holding
        } else {
            NodePhase::Alive
        };
        let grad_accumulations = node
            .leaf
            .map(|leaf| self.grads.get(&leaf).copied().unwrap_or(0));
        Some(NodeView {
            node,
            phase,
            saved_bytes,
            ran: self.ran.contains(&id),
            grad_accumulations,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::SavedInfo;

    fn ev(seq: u64, kind: EventKind) -> Event {
        Event {
            seq,
            time_us: seq,
            line: None,
            kind,
        }
    }

    fn created(node: NodeId, name: &str, next: Vec<Option<NodeId>>, saved: u64) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: name.into(),
            sequence_nr: node,
            next,
            saved: if saved > 0 {
                vec![SavedInfo {
                    name: "self".into(),
                    shape: vec![2, 2],
                    storage: node * 100,
                    bytes: saved,
                    deferred: false,
                }]
            } else {
                vec![]
            },
            leaf: (name == "AccumulateGrad").then_some(node * 10),
        }
    }

    /// x (leaf 1) -> y = x + 2 (node 2) -> z = y * y (node 3, saves 32 bytes).
    fn forward_then_backward(retain_graph: bool) -> Vec<Event> {
        let mut events = vec![
            ev(0, created(1, "AccumulateGrad", vec![], 0)),
            ev(1, created(2, "AddBackward0", vec![Some(1), None], 0)),
            ev(2, created(3, "MulBackward0", vec![Some(2), Some(2)], 32)),
            ev(
                3,
                EventKind::BackwardBegan {
                    root: 3,
                    retain_graph,
                },
            ),
            ev(4, EventKind::NodeExecuted { node: 3 }),
        ];
        if !retain_graph {
            events.push(ev(5, EventKind::SavedReleased { node: 3 }));
        }
        let n = events.len() as u64;
        events.extend([
            ev(n, EventKind::NodeExecuted { node: 2 }),
            ev(n + 1, EventKind::NodeExecuted { node: 1 }),
            ev(
                n + 2,
                EventKind::GradAccumulated {
                    tensor: 10,
                    accumulated: false,
                },
            ),
            ev(n + 3, EventKind::BackwardEnded),
        ]);
        events
    }

    fn phases(graph: &GraphAt) -> Vec<NodePhase> {
        graph
            .graph
            .nodes
            .keys()
            .filter_map(|id| graph.view(*id))
            .map(|v| v.phase)
            .collect()
    }

    #[test]
    fn snapshot_forward_holds_saved_bytes() {
        let events = forward_then_backward(false);
        let graph = GraphAt::of(&events[..3]);
        use NodePhase::*;
        assert_eq!(phases(&graph), [Alive, Alive, Holding]);
        assert_eq!(graph.saved_bytes(), 32);
        assert_eq!(graph.view(1).and_then(|v| v.grad_accumulations), Some(0));
        assert_eq!(graph.view(3).and_then(|v| v.grad_accumulations), None);
    }

    #[test]
    fn snapshot_backward_runs_and_frees() {
        let events = forward_then_backward(false);
        use NodePhase::*;
        // After MulBackward0 ran, before its release: running, still holding.
        let graph = GraphAt::of(&events[..5]);
        assert_eq!(phases(&graph), [Alive, Alive, Running]);
        assert_eq!(graph.view(3).map(|v| v.saved_bytes), Some(32));
        let graph = GraphAt::of(&events[..6]);
        assert_eq!(graph.saved_bytes(), 0);
        let graph = GraphAt::of(&events[..7]);
        assert_eq!(phases(&graph), [Alive, Running, Freed]);
        let graph = GraphAt::of(&events);
        assert_eq!(phases(&graph), [Alive, Alive, Freed]);
        assert_eq!(graph.running(), None);
        assert_eq!(graph.view(1).and_then(|v| v.grad_accumulations), Some(1));
        assert!(graph.view(2).is_some_and(|v| v.ran));
        assert_eq!(graph.phase_counts(), [2, 0, 0, 1]);
    }

    #[test]
    fn snapshot_retain_graph_keeps_saved() {
        let events = forward_then_backward(true);
        let graph = GraphAt::of(&events);
        use NodePhase::*;
        assert_eq!(phases(&graph), [Alive, Alive, Holding]);
        assert_eq!(graph.saved_bytes(), 32);
        assert!(graph.view(3).is_some_and(|v| v.ran));
    }

    #[test]
    fn snapshot_counts_each_saved_storage_once() {
        let saved = |name: &str, storage| SavedInfo {
            name: name.into(),
            shape: vec![2, 2],
            storage,
            bytes: 16,
            deferred: false,
        };
        let node = |node, saved| EventKind::NodeCreated {
            node,
            name: "MulBackward0".into(),
            sequence_nr: node,
            next: vec![],
            saved,
            leaf: None,
        };
        // y * y saves y twice; a second node saves y again and z.
        let graph = GraphAt::of(&[
            ev(0, node(1, vec![saved("self", 7), saved("other", 7)])),
            ev(1, node(2, vec![saved("self", 7), saved("other", 8)])),
        ]);
        assert_eq!(graph.view(1).map(|v| v.saved_bytes), Some(16));
        assert_eq!(graph.view(2).map(|v| v.saved_bytes), Some(32));
        assert_eq!(graph.saved_bytes(), 32);
    }

    #[test]
    fn snapshot_deferred_saved_counts_nothing() {
        let mut kind = created(4, "MulBackward0", vec![], 64);
        if let EventKind::NodeCreated { saved, .. } = &mut kind {
            saved[0].deferred = true;
        }
        let graph = GraphAt::of(&[ev(0, kind)]);
        assert_eq!(
            graph.view(4).map(|v| (v.phase, v.saved_bytes)),
            Some((NodePhase::Alive, 0))
        );
    }

    #[test]
    fn snapshot_incremental_equals_from_scratch() {
        let events = forward_then_backward(false);
        let mut live = GraphAt::default();
        for (i, event) in events.iter().enumerate() {
            live.apply(event);
            assert_eq!(live, GraphAt::of(&events[..=i]));
            assert_eq!(live.applied(), i + 1);
        }
    }
}
