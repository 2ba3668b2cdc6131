//! The graph view's boxes. Which nodes it draws is the trace crate's
//! `GraphAt::one_pass`: a training loop builds a new graph each step and
//! backward frees it; kept whole, a few hundred steps would draw thousands
//! of freed boxes (the browser's layout of a 1,000-node SVG took over
//! 200 ms a frame), so the view draws the pass at the position shown and
//! sums up the earlier ones in a line.
//!
//! The boxes themselves outlive a drawing: a box whose slot is not drawn
//! now stays, hidden, as a spare (see [`BoxPool`]), because making a box's
//! elements cost the page far more than showing it again. Each run starts
//! from an empty graph, and rebuilding a hundred boxes from nothing in the
//! next frames made those frames late (issue 7's frame-time figure).

use std::collections::BTreeSet;

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

/// About how many boxes a drawing takes (a training step's graph, or a
/// small program's): the boxes made ahead while the page idles, and half
/// the pool.
pub const NODE_BUDGET: usize = 150;

#[cfg(test)]
mod tests {
    use super::*;

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
}
