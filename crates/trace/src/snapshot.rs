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
    /// How many closed passes (all but the last) had each shape (see
    /// [`pass_shape`]).
    closed_shapes: BTreeMap<u64, usize>,
    /// Whether an op's node was made since the last release: the last
    /// pass is then an earlier one, and the graph being built the current.
    built_since_release: bool,
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
            EventKind::NodeCreated { node, leaf, .. } => {
                self.live.insert(*node);
                self.pass_open &= self.backward_depth > 0;
                self.built_since_release |= leaf.is_none();
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
                        _ => {
                            // The last pass is closed for good: its shape
                            // counts among the closed ones.
                            if let Some(last) = self.passes.last() {
                                let shape = pass_shape(&self.graph, last);
                                *self.closed_shapes.entry(shape).or_insert(0) += 1;
                            }
                            self.passes.push(vec![*node]);
                        }
                    }
                    self.pass_open = true;
                    self.built_since_release = false;
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

    /// The graph of the pass at this point of the trace, as the one-step
    /// view draws it, and a summary of the passes before it.
    ///
    /// The current pass is every node not freed (the graph being built,
    /// or one kept by `retain_graph`), with the last freed pass while
    /// its backward runs or until the next op builds a new graph; and the
    /// `AccumulateGrad` nodes of the leaves those nodes reach. Every other
    /// freed pass is an earlier one: counted, its nodes not drawn.
    ///
    /// ```
    /// use gradscope_trace::{Event, EventKind, GraphAt};
    /// let node = |node| EventKind::NodeCreated {
    ///     node, name: "SumBackward0".into(), sequence_nr: node,
    ///     next: vec![], saved: vec![], leaf: None,
    /// };
    /// let backward = |node| [
    ///     EventKind::BackwardBegan { root: node, retain_graph: false },
    ///     EventKind::NodeExecuted { node },
    ///     EventKind::SavedReleased { node },
    ///     EventKind::BackwardEnded,
    /// ];
    /// let mut kinds = vec![node(1)];
    /// kinds.extend(backward(1));
    /// kinds.push(node(2));
    /// kinds.extend(backward(2));
    /// kinds.push(node(3));
    /// let pass = GraphAt::of(&Event::numbered(kinds)).one_pass();
    /// assert_eq!(pass.graph.nodes.keys().collect::<Vec<_>>(), [&3]);
    /// assert_eq!(pass.summary().as_deref(), Some("2 earlier graphs built and freed, identical in shape"));
    /// ```
    pub fn one_pass(&self) -> OnePass {
        let all = &self.graph.nodes;
        let last_is_current = self.pass_open || !self.built_since_release;
        let (earlier, current) = match self.passes.split_last() {
            Some((last, before)) if last_is_current => (before, Some(last)),
            _ => (&self.passes[..], None),
        };
        let mut graph = GraphState::default();
        let keep = |graph: &mut GraphState, id: &NodeId| {
            if let Some(node) = all.get(id) {
                graph.nodes.insert(*id, node.clone());
            }
        };
        let ops = self
            .live
            .iter()
            .filter(|id| all.get(id).is_some_and(|n| n.leaf.is_none()));
        for id in ops.chain(current.into_iter().flatten()) {
            keep(&mut graph, id);
        }
        // The leaves the drawn nodes reach (a leaf's node is shared by
        // every pass; those only earlier passes reached are not drawn).
        let reached: BTreeSet<NodeId> = graph
            .nodes
            .values()
            .flat_map(|n| n.next.iter().flatten().copied())
            .filter(|id| all.get(id).is_some_and(|n| n.leaf.is_some()))
            .collect();
        for id in &reached {
            keep(&mut graph, id);
        }
        // With no op drawn (leaves alone, before any op), the leaves live.
        if graph.nodes.is_empty() {
            for id in &self.live {
                keep(&mut graph, id);
            }
        }
        let mut shapes = self.closed_shapes.clone();
        // The last pass is not closed yet; when it is an earlier one its
        // shape counts too.
        if let (None, Some(last)) = (current, self.passes.last()) {
            *shapes.entry(pass_shape(&self.graph, last)).or_insert(0) += 1;
        }
        OnePass {
            graph,
            earlier: earlier.len(),
            earlier_nodes: earlier.iter().map(Vec::len).sum(),
            earlier_shapes: shapes.len(),
        }
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

/// The graph of one pass and what came before it (see
/// [`GraphAt::one_pass`]).
#[derive(Clone, Debug, PartialEq)]
pub struct OnePass {
    /// The nodes drawn: the current pass and the leaves it reaches.
    pub graph: GraphState,
    /// How many earlier passes were built and freed.
    pub earlier: usize,
    /// How many nodes those passes had, not drawn.
    pub earlier_nodes: usize,
    /// How many shapes those passes had (node names and edges, not ids): 1 when
    /// every one built the same graph, as a training loop's steps do.
    pub earlier_shapes: usize,
}

impl OnePass {
    /// `199 earlier graphs built and freed, identical in shape`; `None`
    /// when there was no earlier pass.
    pub fn summary(&self) -> Option<String> {
        let graphs = match self.earlier {
            0 => return None,
            1 => "1 earlier graph built and freed".to_string(),
            n => format!("{n} earlier graphs built and freed"),
        };
        Some(match (self.earlier, self.earlier_shapes) {
            (1, _) => graphs,
            (_, 1) => format!("{graphs}, identical in shape"),
            (_, shapes) => format!("{graphs}, in {shapes} shapes"),
        })
    }
}

/// A pass's shape, as a number equal for equal shapes: its nodes' names
/// in the order they were made, and each `next_functions` edge as the
/// place of the node it leads to in the pass, or as a leaf (numbered in
/// the order the pass first reaches it), or as a node outside the pass.
/// Ids, values and tensor sizes do not count: a training loop's steps
/// build one shape with new nodes each time.
fn pass_shape(graph: &GraphState, pass: &[NodeId]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut ids: Vec<NodeId> = pass.to_vec();
    ids.sort_unstable();
    let place: BTreeMap<NodeId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let mut leaves: BTreeMap<NodeId, usize> = BTreeMap::new();
    // SipHash with its fixed keys: the same number on every run.
    let mut hasher = std::hash::DefaultHasher::new();
    for id in &ids {
        let Some(node) = graph.nodes.get(id) else {
            continue;
        };
        node.name.hash(&mut hasher);
        node.next.len().hash(&mut hasher);
        for next in &node.next {
            let edge = match next {
                None => (0u8, 0usize),
                Some(n) => match place.get(n) {
                    Some(&i) => (1, i),
                    None if graph.nodes.get(n).is_some_and(|n| n.leaf.is_some()) => {
                        let count = leaves.len();
                        (2, *leaves.entry(*n).or_insert(count))
                    }
                    None => (3, 0),
                },
            };
            edge.hash(&mut hasher);
        }
    }
    hasher.finish()
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

    fn created(
        node: NodeId,
        name: &'static str,
        next: Vec<Option<NodeId>>,
        saved: u64,
    ) -> EventKind {
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
                    ..SavedInfo::default()
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
        let saved = |name: &'static str, storage| SavedInfo {
            name: name.into(),
            shape: vec![2, 2],
            storage,
            bytes: 16,
            deferred: false,
            ..SavedInfo::default()
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

    /// Leaves 1 and 2 (`AccumulateGrad`), then `steps` forward passes of a
    /// chain (`chain` nodes, the first reading both leaves), each run
    /// backward and freed; the events, and where each step's forward
    /// begins.
    fn training(steps: u64, chain: impl Fn(u64) -> u64) -> (Vec<Event>, Vec<usize>) {
        let leaf = |node| EventKind::NodeCreated {
            node,
            name: "AccumulateGrad".into(),
            sequence_nr: u64::MAX,
            next: vec![],
            saved: vec![],
            leaf: Some(node),
        };
        let mut kinds = vec![leaf(1), leaf(2)];
        let mut starts = vec![];
        let mut id = 10;
        for step in 0..steps {
            starts.push(kinds.len());
            let first = id;
            let length = chain(step);
            for k in 0..length {
                let next = if k == 0 {
                    vec![Some(1), Some(2)]
                } else {
                    vec![Some(id - 1)]
                };
                kinds.push(created(id, "MulBackward0", next, 8));
                id += 1;
            }
            kinds.push(EventKind::BackwardBegan {
                root: id - 1,
                retain_graph: false,
            });
            for node in (first..id).rev() {
                kinds.push(EventKind::NodeExecuted { node });
                kinds.push(EventKind::SavedReleased { node });
            }
            kinds.push(EventKind::BackwardEnded);
        }
        (Event::numbered(kinds), starts)
    }

    fn drawn(pass: &OnePass) -> Vec<NodeId> {
        pass.graph.nodes.keys().copied().collect()
    }

    #[test]
    fn one_pass_follows_a_training_loop_step_by_step() {
        let (events, starts) = training(20, |_| 3);
        // Step 0, two nodes built: no earlier pass, the leaves they reach.
        let pass = GraphAt::of(&events[..starts[0] + 2]).one_pass();
        assert_eq!(drawn(&pass), [1, 2, 10, 11]);
        assert_eq!(pass.summary(), None);
        // Step 0 run and freed: still drawn, freed, until step 1 builds.
        let pass = GraphAt::of(&events[..starts[1]]).one_pass();
        assert_eq!(drawn(&pass), [1, 2, 10, 11, 12]);
        assert_eq!((pass.earlier, pass.summary()), (0, None));
        // Step 1's first node: step 0 is an earlier graph.
        let pass = GraphAt::of(&events[..starts[1] + 1]).one_pass();
        assert_eq!(drawn(&pass), [1, 2, 13]);
        assert_eq!(
            pass.summary().as_deref(),
            Some("1 earlier graph built and freed")
        );
        // Halfway through step 5's backward: that pass, part freed.
        let graph = GraphAt::of(&events[..starts[5] + 7]);
        let pass = graph.one_pass();
        assert_eq!(drawn(&pass), [1, 2, 25, 26, 27]);
        assert_eq!(graph.view(27).map(|v| v.phase), Some(NodePhase::Freed));
        assert_eq!(graph.view(26).map(|v| v.phase), Some(NodePhase::Running));
        assert_eq!(graph.view(25).map(|v| v.phase), Some(NodePhase::Holding));
        // The end: the last step drawn, 19 before it summed up.
        let pass = GraphAt::of(&events).one_pass();
        assert_eq!(drawn(&pass), [1, 2, 67, 68, 69]);
        assert_eq!((pass.earlier, pass.earlier_nodes), (19, 57));
        assert_eq!(
            pass.summary().as_deref(),
            Some("19 earlier graphs built and freed, identical in shape")
        );
    }

    #[test]
    fn one_pass_counts_the_shapes_of_earlier_passes() {
        // Steps 3 and 4 build a longer chain: two shapes before the last.
        let (events, _) = training(6, |step| if step == 3 || step == 4 { 4 } else { 3 });
        let pass = GraphAt::of(&events).one_pass();
        assert_eq!(pass.earlier, 5);
        assert_eq!(
            pass.summary().as_deref(),
            Some("5 earlier graphs built and freed, in 2 shapes")
        );
        // Before step 5 builds, step 4 is the current one: 4 earlier,
        // still two shapes (step 3's among them).
        let (events, starts) = training(6, |step| if step == 3 || step == 4 { 4 } else { 3 });
        let pass = GraphAt::of(&events[..starts[5]]).one_pass();
        assert_eq!(
            (pass.earlier, pass.earlier_shapes, pass.graph.nodes.len()),
            (4, 2, 6)
        );
        let pass = GraphAt::of(&events[..starts[4]]).one_pass();
        assert_eq!((pass.earlier, pass.earlier_shapes), (3, 1));
    }

    #[test]
    fn one_pass_keeps_every_live_node() {
        // Nothing freed (no backward): the whole graph is the pass.
        let events = forward_then_backward(false);
        let pass = GraphAt::of(&events[..3]).one_pass();
        assert_eq!((drawn(&pass), pass.earlier), (vec![1, 2, 3], 0));
        // retain_graph=True frees nothing: drawn whole after backward.
        let events = forward_then_backward(true);
        let pass = GraphAt::of(&events).one_pass();
        assert_eq!((drawn(&pass), pass.earlier), (vec![1, 2, 3], 0));
        // A single backward: its graph, freed, stays drawn.
        let events = forward_then_backward(false);
        let pass = GraphAt::of(&events).one_pass();
        assert_eq!((drawn(&pass), pass.earlier), (vec![1, 2, 3], 0));
    }

    #[test]
    fn one_pass_incremental_equals_from_scratch() {
        let (events, _) = training(4, |step| 2 + step % 2);
        let mut live = GraphAt::default();
        for (i, event) in events.iter().enumerate() {
            live.apply(event);
            assert_eq!(live.one_pass(), GraphAt::of(&events[..=i]).one_pass());
        }
    }
}
