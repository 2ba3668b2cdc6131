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

/// The slots (see `graph_panel::slots`) that have a box, in the order their
/// boxes were made: the order the page keeps them in, so a drawing that
/// adds slots appends boxes and never moves the others (a keyed list that
/// moved them made them anew).
#[derive(Debug, Default)]
pub struct BoxPool {
    slots: Vec<u64>,
}

impl BoxPool {
    /// Every slot with a box when the slots `drawn` are drawn, in the
    /// order above, each with whether it is drawn: the drawn ones, and as
    /// many spares (slots that had a box and are not drawn now) as fit in
    /// [`POOLED_BOXES`] beside them.
    pub fn boxes(&mut self, drawn: impl IntoIterator<Item = u64>) -> Vec<(u64, bool)> {
        let drawn: BTreeSet<u64> = drawn.into_iter().collect();
        let kept: BTreeSet<u64> = self.slots.iter().copied().collect();
        let mut spares = kept.difference(&drawn).count();
        let mut boxes = Vec::with_capacity(self.slots.len() + drawn.len());
        for &slot in &self.slots {
            let shown = drawn.contains(&slot);
            if !shown && drawn.len() + spares > POOLED_BOXES {
                spares -= 1;
                continue;
            }
            boxes.push((slot, shown));
        }
        boxes.extend(drawn.difference(&kept).map(|&slot| (slot, true)));
        self.slots = boxes.iter().map(|&(slot, _)| slot).collect();
        boxes
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

    #[test]
    fn pool_keeps_undrawn_boxes_as_spares_in_the_order_made() {
        let mut pool = BoxPool::default();
        let shown = |boxes: Vec<(u64, bool)>| -> Vec<u64> {
            boxes.iter().filter(|b| b.1).map(|b| b.0).collect()
        };
        assert_eq!(pool.boxes([3, 1, 2]), vec![(1, true), (2, true), (3, true)]);
        // A new run starts empty: every box is spare, then drawn again.
        assert_eq!(pool.boxes([]), vec![(1, false), (2, false), (3, false)]);
        // New slots come after the boxes already made, whatever their number.
        assert_eq!(
            pool.boxes([0, 2, 4]),
            vec![(1, false), (2, true), (3, false), (0, true), (4, true)]
        );
        // However many were drawn once, at most POOLED_BOXES are kept, the
        // spares made first going first.
        let many: Vec<u64> = (10..10 + POOLED_BOXES as u64).collect();
        let boxes = pool.boxes(many.clone());
        assert_eq!(boxes.len(), POOLED_BOXES);
        assert_eq!(shown(boxes), many);
        let boxes = pool.boxes([7]);
        assert_eq!(boxes.len(), POOLED_BOXES);
        assert_eq!(boxes.last(), Some(&(7, true)));
        assert_eq!(boxes.first(), Some(&(11, false)));
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
