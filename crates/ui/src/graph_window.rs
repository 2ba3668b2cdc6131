//! Which nodes the graph view draws. A training loop builds a new graph
//! each step and backward frees it; kept whole, a few hundred steps would
//! draw thousands of freed boxes, and the page would spend its frames on
//! them (the browser's layout of a 1,000-node SVG took over 200 ms a frame).
//! So the view draws every node that is still alive or holds saved tensors,
//! and of the freed ones only the most recent passes, up to a budget.
//!
//! The boxes themselves outlive a drawing: a box whose slot is not drawn
//! now stays, hidden, as a spare (see [`BoxPool`]), because making a box's
//! elements cost the page far more than showing it again. Each run starts
//! from an empty graph, and rebuilding a hundred boxes from nothing in the
//! next frames made those frames late (issue 7's frame-time figure).

use std::collections::BTreeSet;

use gradscope_trace::{GraphAt, GraphState};

/// The most boxes, drawn and spare, the view keeps; past it the spares
/// made first go.
pub const POOLED_BOXES: usize = 2 * NODE_BUDGET;

/// The view's boxes, each keyed for its life by a number of its own (the
/// page keeps a box's elements as long as its key), each drawing one slot
/// (see `graph_panel::slots`) or none: a spare, hidden. A slot drawn again
/// goes back to the box that drew it, so a training loop's next step
/// changes only what differs; a new slot takes a spare box, whatever slot
/// it drew before, so a graph of another shape costs attribute changes,
/// not new elements; and spares can be made ahead, while the page is idle
/// ([`BoxPool::reserve`]), so a fresh page's first run makes none.
#[derive(Debug, Default)]
pub struct BoxPool {
    /// Each box's key and the slot it drew last, in the order made: the
    /// order the page keeps them in, so a drawing that needs more boxes
    /// appends them and never moves the others (a keyed list that moved
    /// them made them anew).
    boxes: Vec<(u64, Option<u64>)>,
    next_key: u64,
}

impl BoxPool {
    /// Every box when the slots `drawn` are drawn, in the order above,
    /// each with the slot it draws now (`None`: spare). Spares past
    /// [`POOLED_BOXES`] (drawn boxes included) go, the first made first.
    pub fn boxes(&mut self, drawn: impl IntoIterator<Item = u64>) -> Vec<(u64, Option<u64>)> {
        let drawn: BTreeSet<u64> = drawn.into_iter().collect();
        let had: BTreeSet<u64> = self.boxes.iter().filter_map(|b| b.1).collect();
        let mut new_slots = drawn.difference(&had).copied();
        // Each box with the slot it draws now and the one it remembers.
        let mut next: Vec<(u64, Option<u64>, Option<u64>)> = self
            .boxes
            .iter()
            .map(|&(key, last)| match last {
                Some(slot) if drawn.contains(&slot) => (key, Some(slot), last),
                _ => match new_slots.next() {
                    Some(slot) => (key, Some(slot), Some(slot)),
                    None => (key, None, last),
                },
            })
            .collect();
        for slot in new_slots {
            next.push((self.next_key, Some(slot), Some(slot)));
            self.next_key += 1;
        }
        let mut excess = next.len().saturating_sub(POOLED_BOXES.max(drawn.len()));
        next.retain(|b| {
            let gone = excess > 0 && b.1.is_none();
            excess -= usize::from(gone);
            !gone
        });
        self.boxes = next.iter().map(|&(key, _, last)| (key, last)).collect();
        next.into_iter().map(|(key, now, _)| (key, now)).collect()
    }

    /// How many boxes there are, drawn and spare.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// Makes spare boxes until there are `count` (at most [`POOLED_BOXES`]).
    pub fn reserve(&mut self, count: usize) {
        while self.boxes.len() < count.min(POOLED_BOXES) {
            self.boxes.push((self.next_key, None));
            self.next_key += 1;
        }
    }
}

/// About how many nodes the view draws before it hides older freed passes.
pub const NODE_BUDGET: usize = 150;

/// The graph to draw, and how many freed nodes of earlier passes it leaves
/// out.
///
/// Freed nodes are grouped into passes: the nodes one `backward()` freed
/// (leaves' `AccumulateGrad` nodes, shared by every step, are never freed).
/// The newest passes are kept while the total stays within
/// [`NODE_BUDGET`], and always the newest one, however large, so one big
/// graph is never cut. The passes are kept by the graph as it follows the
/// trace, so this costs the nodes drawn, not every node ever made.
pub fn window(graph: &GraphAt) -> (GraphState, usize) {
    let all = &graph.graph.nodes;
    if all.len() <= NODE_BUDGET {
        return (graph.graph.clone(), 0);
    }
    let mut shown = GraphState::default();
    let mut keep = |id| {
        if let Some(node) = all.get(id) {
            shown.nodes.insert(*id, node.clone());
        }
    };
    graph.live().iter().for_each(&mut keep);
    let mut room = NODE_BUDGET.saturating_sub(graph.live().len());
    let mut drawn = 0;
    for (k, pass) in graph.freed_passes().iter().rev().enumerate() {
        // Once one pass does not fit, older ones are hidden too, so the
        // view never shows an old pass without the ones after it.
        if k > 0 && pass.len() > room {
            break;
        }
        room = room.saturating_sub(pass.len());
        drawn += pass.len();
        pass.iter().for_each(&mut keep);
    }
    let freed: usize = graph.freed_passes().iter().map(Vec::len).sum();
    (shown, freed - drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::{Event, EventKind, NodeId};

    /// The slots drawn, box by box (`-` for a spare), and the keys.
    fn shape(boxes: &[(u64, Option<u64>)]) -> (Vec<u64>, String) {
        let keys = boxes.iter().map(|b| b.0).collect();
        let slots = boxes
            .iter()
            .map(|b| b.1.map_or("-".to_string(), |s| s.to_string()))
            .collect::<Vec<_>>()
            .join(" ");
        (keys, slots)
    }

    #[test]
    fn pool_gives_a_slot_back_its_box_and_new_slots_spare_ones() {
        let mut pool = BoxPool::default();
        assert_eq!(
            shape(&pool.boxes([3, 1, 2])),
            (vec![0, 1, 2], "1 2 3".into())
        );
        // A new run starts empty: every box is spare, then drawn again by
        // the slot it drew.
        assert_eq!(shape(&pool.boxes([])), (vec![0, 1, 2], "- - -".into()));
        assert_eq!(shape(&pool.boxes([3, 1])), (vec![0, 1, 2], "1 - 3".into()));
        // New slots take spare boxes first, then new boxes at the end.
        assert_eq!(
            shape(&pool.boxes([1, 7, 8, 9])),
            (vec![0, 1, 2, 3], "1 7 8 9".into())
        );
        // A box remembers the slot it took: 7 comes back to box 1.
        pool.boxes([1]);
        assert_eq!(
            shape(&pool.boxes([7, 1])),
            (vec![0, 1, 2, 3], "1 7 - -".into())
        );
    }

    #[test]
    fn pool_keeps_at_most_its_size_spares_made_first_going_first() {
        let mut pool = BoxPool::default();
        let many: Vec<u64> = (10..10 + POOLED_BOXES as u64).collect();
        let boxes = pool.boxes(many.clone());
        assert_eq!(boxes.len(), POOLED_BOXES);
        // One more slot than there are boxes: one more box, then a spare
        // goes at the next drawing.
        let mut more = many.clone();
        more.push(5000);
        assert_eq!(pool.boxes(more).len(), POOLED_BOXES + 1);
        let boxes = pool.boxes([7]);
        assert_eq!(boxes.len(), POOLED_BOXES);
        // 7 takes the first spare, box 0; box 1, the first spare after
        // it, goes.
        assert_eq!(boxes[..2], [(0, Some(7)), (2, None)]);
        assert_eq!(boxes.iter().filter(|b| b.1.is_some()).count(), 1);
    }

    #[test]
    fn pool_reserves_spares_that_new_slots_take() {
        let mut pool = BoxPool::default();
        pool.reserve(4);
        assert_eq!(pool.len(), 4);
        assert_eq!(shape(&pool.boxes([])), (vec![0, 1, 2, 3], "- - - -".into()));
        // Drawn in boxes made ahead: none made now.
        assert_eq!(
            shape(&pool.boxes([5, 6])),
            (vec![0, 1, 2, 3], "5 6 - -".into())
        );
        pool.reserve(2);
        assert_eq!(pool.len(), 4);
        pool.reserve(usize::MAX);
        assert_eq!(pool.len(), POOLED_BOXES);
    }

    fn created(node: NodeId, next: &[NodeId], leaf: bool) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: if leaf {
                "AccumulateGrad"
            } else {
                "MulBackward0"
            }
            .into(),
            sequence_nr: node,
            next: next.iter().map(|&n| Some(n)).collect(),
            saved: vec![],
            leaf: leaf.then_some(node),
        }
    }

    fn trace(kinds: Vec<EventKind>) -> GraphAt {
        let events: Vec<Event> = kinds
            .into_iter()
            .enumerate()
            .map(|(i, kind)| Event {
                seq: i as u64,
                time_us: i as u64,
                line: None,
                kind,
            })
            .collect();
        GraphAt::of(&events)
    }

    /// Two leaves (ids 1, 2), then `steps` passes of a 3-node chain ending
    /// at both leaves; backward frees all but the last `alive` passes.
    fn training(steps: u64, alive: u64) -> GraphAt {
        let mut kinds = vec![created(1, &[], true), created(2, &[], true)];
        for s in 0..steps {
            let base = 10 + 3 * s;
            kinds.push(created(base, &[1, 2], false));
            kinds.push(created(base + 1, &[base], false));
            kinds.push(created(base + 2, &[base + 1], false));
            if s + alive < steps {
                kinds.push(EventKind::BackwardBegan {
                    root: base + 2,
                    retain_graph: false,
                });
                for node in (base..base + 3).rev() {
                    kinds.push(EventKind::NodeExecuted { node });
                    kinds.push(EventKind::SavedReleased { node });
                }
                kinds.push(EventKind::BackwardEnded);
            }
        }
        trace(kinds)
    }

    #[test]
    fn window_keeps_small_graphs_whole() {
        let graph = training(40, 1);
        assert!(graph.graph.nodes.len() <= NODE_BUDGET);
        assert_eq!(window(&graph), (graph.graph.clone(), 0));
    }

    #[test]
    fn window_hides_the_oldest_freed_passes() {
        let graph = training(300, 1);
        let (shown, hidden) = window(&graph);
        assert_eq!(shown.nodes.len() + hidden, graph.graph.nodes.len());
        assert!(shown.nodes.len() <= NODE_BUDGET, "{}", shown.nodes.len());
        // Whole passes only: 3 nodes each; the leaves and the live pass stay.
        assert_eq!(hidden % 3, 0);
        assert!(shown.nodes.contains_key(&1) && shown.nodes.contains_key(&2));
        let newest = 10 + 3 * 299;
        assert!((newest..newest + 3).all(|id| shown.nodes.contains_key(&id)));
        // What is kept is the newest passes: every hidden id is older.
        let oldest_shown = shown.nodes.keys().filter(|&&id| id >= 10).min().copied();
        let hidden_ids: Vec<NodeId> = graph
            .graph
            .nodes
            .keys()
            .filter(|id| !shown.nodes.contains_key(id))
            .copied()
            .collect();
        assert_eq!(hidden_ids.len(), hidden);
        assert!(hidden_ids.iter().all(|&id| Some(id) < oldest_shown));
    }

    #[test]
    fn window_never_hides_live_nodes() {
        // 200 passes still alive (nothing ran backward): all drawn.
        let graph = training(200, 200);
        let (shown, hidden) = window(&graph);
        assert_eq!(hidden, 0);
        assert_eq!(shown.nodes.len(), graph.graph.nodes.len());
    }

    #[test]
    fn window_keeps_the_newest_pass_however_large() {
        // One freed chain of 400 nodes: one pass, kept whole.
        let mut kinds: Vec<EventKind> = (1..=400)
            .map(|id| created(id, &if id > 1 { vec![id - 1] } else { vec![] }, false))
            .collect();
        kinds.push(EventKind::BackwardBegan {
            root: 400,
            retain_graph: false,
        });
        kinds.extend(
            (1..=400)
                .rev()
                .map(|node| EventKind::SavedReleased { node }),
        );
        kinds.push(EventKind::BackwardEnded);
        let graph = trace(kinds);
        let (shown, hidden) = window(&graph);
        assert_eq!((shown.nodes.len(), hidden), (400, 0));
    }

    #[test]
    fn window_groups_releases_outside_backward() {
        // Passes freed outside backward (a graph dropped unused): each run
        // of releases is one pass.
        let mut kinds: Vec<EventKind> = (1..=200).map(|id| created(id, &[], false)).collect();
        kinds.extend((1..=100).map(|node| EventKind::SavedReleased { node }));
        kinds.push(created(201, &[], false));
        kinds.extend((101..=200).map(|node| EventKind::SavedReleased { node }));
        let graph = trace(kinds);
        assert_eq!(graph.freed_passes().len(), 2);
        let (shown, hidden) = window(&graph);
        assert_eq!((shown.nodes.len(), hidden), (101, 100));
    }
}
