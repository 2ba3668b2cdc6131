//! The autograd graph as it stands after a prefix of the trace.

use std::collections::BTreeMap;

use crate::event::{Event, EventKind, NodeId, SavedInfo, TensorId};

/// Where a node is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeStatus {
    /// Built by forward, not yet run by backward.
    Pending,
    /// Its backward ran; saved tensors still held (`retain_graph=True`).
    Executed,
    /// Its backward ran and its saved tensors were released.
    Released,
}

/// One node of the graph as the views draw it.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphNode {
    /// The node.
    pub id: NodeId,
    /// PyTorch's class name.
    pub name: String,
    /// Its sequence number.
    pub sequence_nr: u64,
    /// `next_functions`.
    pub next: Vec<Option<NodeId>>,
    /// What it saves for backward; held while `status` is not `Released`.
    pub saved: Vec<SavedInfo>,
    /// For `AccumulateGrad`, the leaf.
    pub leaf: Option<TensorId>,
    /// Where it is in its life.
    pub status: NodeStatus,
}

/// The graph after the first `n` events of a trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphState {
    /// Nodes by id, in creation order (ids increase with creation).
    pub nodes: BTreeMap<NodeId, GraphNode>,
}

impl GraphState {
    /// The graph after `events` have happened, in order.
    ///
    /// ```
    /// use gradscope_trace::{Event, EventKind, GraphState};
    /// let events = [Event {
    ///     seq: 0,
    ///     time_us: 0,
    ///     line: None,
    ///     kind: EventKind::NodeCreated {
    ///         node: 1,
    ///         name: "AccumulateGrad".into(),
    ///         sequence_nr: u64::MAX,
    ///         next: vec![],
    ///         saved: vec![],
    ///         leaf: Some(7),
    ///     },
    /// }];
    /// assert_eq!(GraphState::at(&events).nodes.len(), 1);
    /// ```
    pub fn at(events: &[Event]) -> Self {
        let mut state = Self::default();
        for event in events {
            state.apply(event);
        }
        state
    }

    /// Advances the graph by one event.
    pub fn apply(&mut self, event: &Event) {
        match &event.kind {
            EventKind::NodeCreated {
                node,
                name,
                sequence_nr,
                next,
                saved,
                leaf,
            } => {
                self.nodes.insert(
                    *node,
                    GraphNode {
                        id: *node,
                        name: name.clone(),
                        sequence_nr: *sequence_nr,
                        next: next.clone(),
                        saved: saved.clone(),
                        leaf: *leaf,
                        status: NodeStatus::Pending,
                    },
                );
            }
            EventKind::NodeExecuted { node } => {
                if let Some(n) = self.nodes.get_mut(node) {
                    n.status = NodeStatus::Executed;
                }
            }
            EventKind::SavedReleased { node } => {
                if let Some(n) = self.nodes.get_mut(node) {
                    n.status = NodeStatus::Released;
                }
            }
            _ => {}
        }
    }

    /// Node names in PyTorch's backward order (highest sequence number first).
    pub fn names_in_backward_order(&self) -> Vec<&str> {
        let mut nodes: Vec<&GraphNode> = self.nodes.values().collect();
        nodes.sort_by(|a, b| b.sequence_nr.cmp(&a.sequence_nr).then(a.id.cmp(&b.id)));
        nodes.into_iter().map(|n| n.name.as_str()).collect()
    }
}
