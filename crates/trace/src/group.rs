//! Nodes grouped by the `nn.Module` call that created them, so a large
//! graph draws as a few labelled boxes (`fc1 (Linear)`, 12 nodes) that open
//! one at a time. A pure function of the graph and of which groups are
//! open, like every view.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::event::NodeId;
use crate::graph::{GraphState, ModulePath, ModuleScope};

/// Graphs with more nodes than this start with their modules collapsed;
/// smaller ones start open.
pub const COLLAPSE_ABOVE: usize = 150;

/// A group's identity: the module calls of its scope, outermost first (a
/// prefix of its nodes' [`crate::GraphNode::modules`]).
pub type GroupKey = ModulePath;

/// Which groups are open: the learner's choices, and otherwise a default.
///
/// ```
/// use gradscope_trace::graph::ModuleScope;
/// use gradscope_trace::group::Expansion;
/// let net = ModuleScope { name: "".into(), class: "Net".into() };
/// let fc1 = ModuleScope { name: "fc1".into(), class: "Linear".into() };
/// let big = Expansion::for_size(500);
/// // The outermost module stays open; the ones inside it start collapsed.
/// assert!(big.is_open(&[net.clone()]) && !big.is_open(&[net.clone(), fc1.clone()]));
/// assert!(Expansion::for_size(20).is_open(&[net, fc1]));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expansion {
    /// Groups the learner opened (`true`) or closed (`false`).
    pub chosen: BTreeMap<GroupKey, bool>,
    /// Whether groups nobody chose for start collapsed.
    pub collapse_by_default: bool,
}

impl Expansion {
    /// Nothing chosen; collapsed by default when the graph has more than
    /// [`COLLAPSE_ABOVE`] nodes.
    pub fn for_size(nodes: usize) -> Self {
        Self {
            chosen: BTreeMap::new(),
            collapse_by_default: nodes > COLLAPSE_ABOVE,
        }
    }

    /// Whether the group `key` shows its nodes. The outermost modules are
    /// open by default even in large graphs: closed, the whole model would
    /// be one box.
    pub fn is_open(&self, key: &[ModuleScope]) -> bool {
        match self.chosen.get(key) {
            Some(&open) => open,
            None => !self.collapse_by_default || key.len() <= 1,
        }
    }

    /// With the group `key` switched from open to closed or back.
    pub fn toggled(&self, key: &GroupKey) -> Self {
        let mut next = self.clone();
        next.chosen.insert(key.clone(), !self.is_open(key));
        next
    }
}

/// What the layout places: a node, or a collapsed group as one box.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A node drawn by itself.
    Node(NodeId),
    /// A collapsed group.
    Group {
        /// The group.
        key: GroupKey,
        /// The nodes it holds, nested groups' included, in id order.
        members: Vec<NodeId>,
    },
}

impl Item {
    /// The module path the item sits in (for a group, its own key).
    pub fn path<'a>(&'a self, graph: &'a GraphState) -> &'a [ModuleScope] {
        match self {
            Item::Node(id) => graph.nodes.get(id).map_or(&[], |n| &n.modules[..]),
            Item::Group { key, .. } => key,
        }
    }
}

/// An open group: a frame drawn around what it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenGroup {
    /// The group.
    pub key: GroupKey,
    /// How many nodes it holds, nested groups' included.
    pub nodes: usize,
    /// Indices into [`Grouped::items`] of what it holds, at any depth.
    pub items: Vec<usize>,
}

/// A graph seen through its module groups.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grouped {
    /// Nodes and collapsed groups, in order of their first node's id.
    pub items: Vec<Item>,
    /// `next_functions` edges between items, in order: one per input
    /// between two nodes, one per pair where a collapsed group is an end;
    /// none inside a collapsed group.
    pub edges: Vec<(usize, usize)>,
    /// Open groups, by key.
    pub open: Vec<OpenGroup>,
}

impl Grouped {
    /// Groups `graph`'s nodes: each goes into the outermost closed group
    /// of its module path, or stands alone when every group on its path is
    /// open.
    ///
    /// ```
    /// use gradscope_trace::{Event, EventKind, GraphState};
    /// use gradscope_trace::group::{Expansion, Grouped, Item};
    /// let kinds = [
    ///     EventKind::ModuleEntered { name: "".into(), class: "Net".into() },
    ///     EventKind::ModuleEntered { name: "fc1".into(), class: "Linear".into() },
    ///     EventKind::NodeCreated { node: 1, name: "AccumulateGrad".into(), sequence_nr: 9,
    ///         next: vec![], saved: vec![], leaf: Some(1) },
    ///     EventKind::NodeCreated { node: 2, name: "AddmmBackward0".into(), sequence_nr: 0,
    ///         next: vec![Some(1)], saved: vec![], leaf: None },
    ///     EventKind::ModuleExited,
    ///     EventKind::NodeCreated { node: 3, name: "ReluBackward0".into(), sequence_nr: 1,
    ///         next: vec![Some(2)], saved: vec![], leaf: None },
    /// ];
    /// let events: Vec<Event> = kinds.into_iter().enumerate()
    ///     .map(|(i, kind)| Event { seq: i as u64, time_us: 0, line: None, kind }).collect();
    /// let graph = GraphState::at(&events);
    /// let grouped = Grouped::of(&graph, &Expansion::for_size(1000));
    /// assert!(matches!(&grouped.items[0], Item::Group { members, .. } if members == &[1, 2]));
    /// assert_eq!(grouped.items[1], Item::Node(3));
    /// assert_eq!(grouped.edges, [(1, 0)]);
    /// ```
    pub fn of(graph: &GraphState, expansion: &Expansion) -> Self {
        let mut items: Vec<Item> = Vec::new();
        let mut item_of: BTreeMap<NodeId, usize> = BTreeMap::new();
        // Looked up once or twice per node: hashed, as comparing paths
        // string by string in a tree cost most of the grouping's time;
        // nothing is read back in hash order (open groups are sorted).
        let mut group_item: HashMap<&[ModuleScope], usize> = HashMap::new();
        let mut open_index: HashMap<&[ModuleScope], usize> = HashMap::new();
        let mut open: Vec<OpenGroup> = Vec::new();
        for (&id, node) in &graph.nodes {
            let path = &node.modules[..];
            let closed = (1..=path.len()).find(|&depth| !expansion.is_open(&path[..depth]));
            let index = match closed {
                Some(depth) => {
                    let key = &path[..depth];
                    let index = *group_item.entry(key).or_insert_with(|| {
                        items.push(Item::Group {
                            key: key.into(),
                            members: vec![],
                        });
                        items.len() - 1
                    });
                    if let Some(Item::Group { members, .. }) = items.get_mut(index) {
                        members.push(id);
                    }
                    index
                }
                None => {
                    items.push(Item::Node(id));
                    items.len() - 1
                }
            };
            item_of.insert(id, index);
            for depth in 1..=closed.map_or(path.len(), |d| d - 1) {
                let key = &path[..depth];
                let at = *open_index.entry(key).or_insert_with(|| {
                    open.push(OpenGroup {
                        key: key.into(),
                        nodes: 0,
                        items: vec![],
                    });
                    open.len() - 1
                });
                let group = &mut open[at];
                group.nodes += 1;
                // A node item is new; a group item may have been seen.
                if group.items.last() != Some(&index)
                    && (closed.is_none() || !group.items.contains(&index))
                {
                    group.items.push(index);
                }
            }
        }
        open.sort_by(|a, b| a.key.cmp(&b.key));
        // Edges between two nodes stay one per input, as `next_functions`
        // lists them (`y * y` points twice at `y`'s node); those to or from
        // a collapsed group are merged.
        let mut edges = Vec::new();
        let mut merged = BTreeSet::new();
        for (id, node) in &graph.nodes {
            let Some(&from) = item_of.get(id) else {
                continue;
            };
            for to in node.next.iter().flatten() {
                let Some(&to) = item_of.get(to).filter(|&&to| to != from) else {
                    continue;
                };
                let grouped = |i: usize| matches!(items.get(i), Some(Item::Group { .. }));
                if !(grouped(from) || grouped(to)) || merged.insert((from, to)) {
                    edges.push((from, to));
                }
            }
        }
        edges.sort_unstable();
        Self { items, edges, open }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Event, EventKind};

    fn entered(name: &str, class: &str) -> EventKind {
        EventKind::ModuleEntered {
            name: name.into(),
            class: class.into(),
        }
    }

    fn created(node: NodeId, next: &[NodeId]) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: format!("Op{node}").into(),
            sequence_nr: node,
            next: next.iter().map(|&n| Some(n)).collect(),
            saved: vec![],
            leaf: None,
        }
    }

    fn graph(kinds: Vec<EventKind>) -> GraphState {
        GraphState::at(&Event::numbered(kinds))
    }

    /// Net { layers: Sequential(Linear, ReLU, Linear) } then a loss outside
    /// any module: nodes 1-2 in layers.0, 3 in layers.1, 4-5 in layers.2,
    /// 6 in Net itself, 7 outside.
    fn net() -> GraphState {
        graph(vec![
            entered("", "Net"),
            entered("layers", "Sequential"),
            entered("layers.0", "Linear"),
            created(1, &[]),
            created(2, &[1]),
            EventKind::ModuleExited,
            entered("layers.1", "ReLU"),
            created(3, &[2]),
            EventKind::ModuleExited,
            entered("layers.2", "Linear"),
            created(4, &[]),
            created(5, &[3, 4]),
            EventKind::ModuleExited,
            EventKind::ModuleExited,
            created(6, &[5]),
            EventKind::ModuleExited,
            created(7, &[6]),
        ])
    }

    fn labels(grouped: &Grouped) -> Vec<String> {
        grouped
            .items
            .iter()
            .map(|item| match item {
                Item::Node(id) => id.to_string(),
                Item::Group { key, members } => {
                    let nodes = members.len();
                    format!(
                        "{} ×{nodes}",
                        key.last().map(ModuleScope::label).unwrap_or_default()
                    )
                }
            })
            .collect()
    }

    #[test]
    fn group_small_graph_stays_open() {
        let g = net();
        let grouped = Grouped::of(&g, &Expansion::for_size(g.nodes.len()));
        assert_eq!(labels(&grouped), ["1", "2", "3", "4", "5", "6", "7"]);
        assert_eq!(grouped.edges.len(), 6);
        let open: Vec<(String, usize)> = grouped
            .open
            .iter()
            .map(|o| {
                (
                    o.key.last().map(ModuleScope::label).unwrap_or_default(),
                    o.nodes,
                )
            })
            .collect();
        assert_eq!(
            open,
            [
                ("Net".to_string(), 6),
                ("layers (Sequential)".into(), 5),
                ("layers.0 (Linear)".into(), 2),
                ("layers.1 (ReLU)".into(), 1),
                ("layers.2 (Linear)".into(), 2),
            ]
        );
    }

    #[test]
    fn group_large_graph_collapses_below_the_outermost_module() {
        let grouped = Grouped::of(&net(), &Expansion::for_size(1000));
        assert_eq!(labels(&grouped), ["layers (Sequential) ×5", "6", "7"]);
        // 2->1, 3->2, 5->3, 5->4 fall inside; 6->5 and 7->6 remain.
        assert_eq!(grouped.edges, [(1, 0), (2, 1)]);
        assert_eq!(grouped.open.len(), 1);
        assert_eq!(grouped.open[0].items, [0, 1]);
    }

    #[test]
    fn group_opening_one_shows_its_children() {
        let g = net();
        let layers: GroupKey = g.nodes[&1].modules[..2].into();
        let expansion = Expansion::for_size(1000).toggled(&layers);
        let grouped = Grouped::of(&g, &expansion);
        assert_eq!(
            labels(&grouped),
            [
                "layers.0 (Linear) ×2",
                "layers.1 (ReLU) ×1",
                "layers.2 (Linear) ×2",
                "6",
                "7"
            ]
        );
        // Merged edges: one per pair of boxes, in order.
        assert_eq!(grouped.edges, [(1, 0), (2, 1), (3, 2), (4, 3)]);
        // And closing it again returns to one box.
        let closed = Grouped::of(&g, &expansion.toggled(&layers));
        assert_eq!(labels(&closed), ["layers (Sequential) ×5", "6", "7"]);
    }

    #[test]
    fn group_reused_module_is_one_group_with_merged_edges() {
        // act called twice: Linear -> act -> Linear -> act; its two calls
        // are one group, so the merged edges form a cycle.
        let g = graph(vec![
            entered("", "Net"),
            entered("fc1", "Linear"),
            created(1, &[]),
            EventKind::ModuleExited,
            entered("act", "Tanh"),
            created(2, &[1]),
            EventKind::ModuleExited,
            entered("fc2", "Linear"),
            created(3, &[2]),
            EventKind::ModuleExited,
            entered("act", "Tanh"),
            created(4, &[3]),
            EventKind::ModuleExited,
            EventKind::ModuleExited,
        ]);
        let grouped = Grouped::of(&g, &Expansion::for_size(1000));
        assert_eq!(
            labels(&grouped),
            ["fc1 (Linear) ×1", "act (Tanh) ×2", "fc2 (Linear) ×1"]
        );
        assert_eq!(grouped.edges, [(1, 0), (1, 2), (2, 1)]);
    }

    #[test]
    fn group_separate_models_are_separate_groups() {
        // A model and a loss module, both outermost (`""`), differ by class.
        let g = graph(vec![
            entered("", "Linear"),
            created(1, &[]),
            EventKind::ModuleExited,
            entered("", "MSELoss"),
            created(2, &[1]),
            EventKind::ModuleExited,
        ]);
        let grouped = Grouped::of(&g, &Expansion::for_size(1000));
        assert_eq!(grouped.open.len(), 2);
        let closed = Expansion {
            chosen: grouped
                .open
                .iter()
                .map(|o| (o.key.clone(), false))
                .collect(),
            collapse_by_default: true,
        };
        let grouped = Grouped::of(&g, &closed);
        assert_eq!(labels(&grouped), ["Linear ×1", "MSELoss ×1"]);
        assert_eq!(grouped.edges, [(1, 0)]);
    }
}
