//! The autograd graph as it stands after a prefix of the trace.

use std::collections::BTreeMap;
use std::sync::Arc;

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

/// One `nn.Module` call, as a [`EventKind::ModuleEntered`] event names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleScope {
    /// Its qualified name relative to the outermost module called (`""`
    /// for that one, `fc1`, `layers.0`).
    pub name: String,
    /// Its class name (`Linear`).
    pub class: String,
}

impl ModuleScope {
    /// What a group box says: `fc1 (Linear)`, or the class alone for the
    /// outermost module (`Net`).
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            self.class.clone()
        } else {
            format!("{} ({})", self.name, self.class)
        }
    }
}

/// The module calls active at some point, outermost first; shared by every
/// node created under them.
pub type ModulePath = Arc<[ModuleScope]>;

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
    /// The module calls active when it was created, outermost first
    /// (empty outside any `nn.Module`).
    pub modules: ModulePath,
}

/// The graph after the first `n` events of a trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphState {
    /// Nodes by id, in creation order (ids increase with creation).
    pub nodes: BTreeMap<NodeId, GraphNode>,
    /// The module calls active after the events applied so far.
    pub modules: ModulePath,
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
                        modules: self.modules.clone(),
                    },
                );
            }
            EventKind::ModuleEntered { name, class } => {
                let mut path = self.modules.to_vec();
                path.push(ModuleScope {
                    name: name.clone(),
                    class: class.clone(),
                });
                self.modules = path.into();
            }
            // An exit without its entry (a recording begun inside a module
            // call) leaves the path empty rather than failing.
            EventKind::ModuleExited => {
                let depth = self.modules.len().saturating_sub(1);
                self.modules = self.modules[..depth].into();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn events(kinds: Vec<EventKind>) -> Vec<Event> {
        Event::numbered(kinds)
    }

    fn created(node: NodeId) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: "AddBackward0".into(),
            sequence_nr: node,
            next: vec![],
            saved: vec![],
            leaf: None,
        }
    }

    fn entered(name: &str, class: &str) -> EventKind {
        EventKind::ModuleEntered {
            name: name.into(),
            class: class.into(),
        }
    }

    fn path(graph: &GraphState, node: NodeId) -> Vec<String> {
        graph.nodes[&node]
            .modules
            .iter()
            .map(ModuleScope::label)
            .collect()
    }

    #[test]
    fn graph_node_module_is_the_innermost_scope() {
        let graph = GraphState::at(&events(vec![
            created(1),
            entered("", "Net"),
            entered("fc1", "Linear"),
            created(2),
            EventKind::ModuleExited,
            created(3),
            entered("act", "ReLU"),
            created(4),
            EventKind::ModuleExited,
            // The same module called again: the same scope.
            entered("act", "ReLU"),
            created(5),
            EventKind::ModuleExited,
            EventKind::ModuleExited,
            created(6),
        ]));
        assert!(path(&graph, 1).is_empty());
        assert_eq!(path(&graph, 2), ["Net", "fc1 (Linear)"]);
        assert_eq!(path(&graph, 3), ["Net"]);
        assert_eq!(path(&graph, 4), ["Net", "act (ReLU)"]);
        assert_eq!(graph.nodes[&4].modules, graph.nodes[&5].modules);
        assert!(path(&graph, 6).is_empty());
        assert!(graph.modules.is_empty());
    }

    #[test]
    fn graph_module_exit_without_entry_is_ignored() {
        let graph = GraphState::at(&events(vec![
            EventKind::ModuleExited,
            entered("", "Linear"),
            created(1),
        ]));
        assert_eq!(path(&graph, 1), ["Linear"]);
    }
}
