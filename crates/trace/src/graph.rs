//! The autograd graph as it stands after a prefix of the trace.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::event::{Event, EventKind, NodeId, RaisedInput, SavedInfo, TensorId};

/// The id the graph gives the operation that raised: above every node the
/// engine numbers, so it sorts and lays out last.
pub const FAILED_NODE: NodeId = NodeId::MAX;

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
    /// The program's name for the tensor it made (`y`, `loss`), or for
    /// `AccumulateGrad` its leaf's (`x`, `model.fc1.weight`): the first
    /// name a statement gave it.
    pub label: Option<String>,
    /// Set on the operation that raised ([`FAILED_NODE`], its inputs as
    /// `next`) and on the node where a failed backward stopped: the
    /// exception, `RuntimeError: ...`.
    pub error: Option<String>,
}

/// The graph after the first `n` events of a trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphState {
    /// Nodes by id, in creation order (ids increase with creation).
    pub nodes: BTreeMap<NodeId, GraphNode>,
    /// The module calls active after the events applied so far.
    pub modules: ModulePath,
    /// Names given to tensors so far, for the `AccumulateGrad` nodes of
    /// leaves named before their node exists.
    names: BTreeMap<TensorId, String>,
    /// Each leaf's latest `AccumulateGrad` node.
    leaf_nodes: BTreeMap<TensorId, NodeId>,
    /// The backward in progress: its root and the node that ran last.
    backward: Option<(NodeId, Option<NodeId>)>,
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
                if let Some(leaf) = leaf {
                    self.leaf_nodes.insert(*leaf, *node);
                }
                self.nodes.insert(
                    *node,
                    GraphNode {
                        id: *node,
                        name: name.to_string(),
                        sequence_nr: *sequence_nr,
                        next: next.clone(),
                        saved: saved.clone(),
                        leaf: *leaf,
                        status: NodeStatus::Pending,
                        modules: self.modules.clone(),
                        label: leaf.and_then(|l| self.names.get(&l).cloned()),
                        error: None,
                    },
                );
            }
            EventKind::TensorNamed {
                tensor, node, name, ..
            } => {
                self.names.entry(*tensor).or_insert_with(|| name.clone());
                let target = node.or_else(|| self.leaf_nodes.get(tensor).copied());
                if let Some(n) = target.and_then(|t| self.nodes.get_mut(&t)) {
                    n.label.get_or_insert_with(|| name.clone());
                }
            }
            EventKind::BackwardBegan { root, .. } => self.backward = Some((*root, None)),
            EventKind::BackwardEnded => self.backward = None,
            EventKind::Raised {
                type_name,
                message,
                source,
                inputs,
                backward,
            } => self.raised(type_name, message, source, inputs, *backward),
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
                if let Some((_, last)) = &mut self.backward {
                    *last = Some(*node);
                }
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

    /// Marks where the program failed: inside a backward, the node it
    /// stopped at (the last that ran, else the root); otherwise a new
    /// node for the statement that raised, linked to the nodes of the
    /// tensors it reads.
    fn raised(
        &mut self,
        type_name: &str,
        message: &str,
        source: &str,
        inputs: &[RaisedInput],
        backward: bool,
    ) {
        let error = format!("{type_name}: {message}");
        let node_of = |input: &RaisedInput| {
            input
                .node
                .or_else(|| self.leaf_nodes.get(&input.tensor).copied())
        };
        let stopped = match self.backward.take() {
            Some((root, last)) => Some(last.unwrap_or(root)),
            // Refused before it began (a second backward): at its root.
            None if backward => inputs.first().and_then(node_of),
            None => None,
        };
        if let Some(stopped) = stopped {
            if let Some(n) = self.nodes.get_mut(&stopped) {
                n.error = Some(error);
            }
            return;
        }
        let next = inputs
            .iter()
            .map(node_of)
            .filter(|n| n.is_some_and(|n| self.nodes.contains_key(&n)))
            .collect();
        let shapes: Vec<String> = inputs
            .iter()
            .map(|i| {
                let dims: Vec<String> = i.shape.iter().map(usize::to_string).collect();
                format!("{} ({})", i.name, dims.join(", "))
            })
            .collect();
        let error = if shapes.is_empty() {
            error
        } else {
            format!("{}\n{error}", shapes.join(" · "))
        };
        self.nodes.insert(
            FAILED_NODE,
            GraphNode {
                id: FAILED_NODE,
                name: type_name.to_string(),
                sequence_nr: u64::MAX,
                next,
                saved: vec![],
                leaf: None,
                status: NodeStatus::Pending,
                modules: self.modules.clone(),
                label: Some(source.to_string()),
                error: Some(error),
            },
        );
    }

    /// The name a view prints under the node's own: its label, else for
    /// `AccumulateGrad` nothing.
    pub fn label_of(&self, node: NodeId) -> Option<&str> {
        self.nodes.get(&node)?.label.as_deref()
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

    fn named(tensor: TensorId, node: Option<NodeId>, name: &str) -> EventKind {
        EventKind::TensorNamed {
            tensor,
            storage: tensor,
            node,
            name: name.into(),
            parameter: None,
        }
    }

    fn accumulate(node: NodeId, leaf: TensorId) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: "AccumulateGrad".into(),
            sequence_nr: u64::MAX,
            next: vec![],
            saved: vec![],
            leaf: Some(leaf),
        }
    }

    #[test]
    fn graph_names_label_nodes_and_leaves() {
        let graph = GraphState::at(&events(vec![
            // x is named before its AccumulateGrad exists, w after.
            named(10, None, "x"),
            accumulate(1, 10),
            accumulate(2, 20),
            named(20, None, "model.fc1.weight"),
            created(3),
            named(30, Some(3), "y"),
            // A second name for the same tensor keeps the first.
            named(30, Some(3), "out"),
            created(4),
        ]));
        let labels: Vec<Option<&str>> = (1..=4).map(|n| graph.label_of(n)).collect();
        assert_eq!(
            labels,
            [Some("x"), Some("model.fc1.weight"), Some("y"), None]
        );
    }

    fn raised(inputs: Vec<RaisedInput>) -> EventKind {
        EventKind::Raised {
            type_name: "RuntimeError".into(),
            message: "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)".into(),
            source: "z = x @ w".into(),
            inputs,
            backward: false,
        }
    }

    fn input(name: &str, tensor: TensorId, node: Option<NodeId>, shape: Vec<usize>) -> RaisedInput {
        RaisedInput {
            name: name.into(),
            tensor,
            node,
            shape,
            dtype: "float32".into(),
        }
    }

    #[test]
    fn graph_raised_op_is_a_failed_node_linked_to_its_inputs() {
        let graph = GraphState::at(&events(vec![
            accumulate(1, 10),
            created(2),
            raised(vec![
                input("x", 10, None, vec![3, 4]),
                input("w", 20, Some(2), vec![5, 2]),
                // A tensor that needs no gradient has no node to link.
                input("b", 30, None, vec![2]),
            ]),
        ]));
        let failed = &graph.nodes[&FAILED_NODE];
        assert_eq!(failed.next, [Some(1), Some(2)]);
        assert_eq!(failed.label.as_deref(), Some("z = x @ w"));
        assert_eq!(
            failed.error.as_deref(),
            Some(
                "x (3, 4) · w (5, 2) · b (2)\nRuntimeError: mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)"
            )
        );
        assert_eq!(failed.name, "RuntimeError");
    }

    #[test]
    fn graph_backward_error_marks_where_backward_stopped() {
        let stop = |executed: Vec<NodeId>| {
            let mut kinds = vec![
                created(1),
                created(2),
                EventKind::BackwardBegan {
                    root: 2,
                    retain_graph: false,
                },
            ];
            kinds.extend(
                executed
                    .into_iter()
                    .map(|node| EventKind::NodeExecuted { node }),
            );
            kinds.push(raised(vec![]));
            let graph = GraphState::at(&events(kinds));
            assert!(!graph.nodes.contains_key(&FAILED_NODE));
            graph
                .nodes
                .values()
                .filter(|n| n.error.is_some())
                .map(|n| n.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(stop(vec![]), [2]);
        assert_eq!(stop(vec![2]), [2]);
        assert_eq!(stop(vec![2, 1]), [1]);
    }
}
