//! Where open module groups go across the canvas: each is a block of
//! columns of its own over the rows its nodes span, packed beside its
//! siblings, so a group's frame holds its nodes and no others.
//!
//! Rows stay the layered layout's; only `x` is chosen here. Blocks are
//! packed innermost first: a group's children (its own nodes, collapsed
//! groups and open subgroups) each go at the leftmost place free in every
//! row they span, so blocks that share no row share columns and a chain of
//! modules stays narrow.

use std::collections::{BTreeMap, HashMap};

use crate::graph::{GraphState, ModuleScope};
use crate::group::{Grouped, Item};
use crate::layout::{FRAME_PAD, H_GAP, NODE_WIDTH};

/// A packed block: the rows it spans, its width and where each of its
/// items sits from its left edge.
struct Block {
    top: usize,
    bottom: usize,
    width: f64,
    /// (item, x from the block's left edge), in packing order.
    items: Vec<(usize, f64)>,
    /// The lowest item index inside, which orders siblings.
    rank: usize,
    /// Whether it is an open group's, drawn with a frame.
    framed: bool,
}

/// One child of a group before packing.
enum Child {
    Item(usize),
    Group(usize),
}

/// The left edge of each item, from 0, with each open group's items in
/// columns of their own.
pub(crate) fn columns(graph: &GraphState, grouped: &Grouped, layers: &[usize]) -> Vec<f64> {
    let open = &grouped.open;
    let root = open.len();
    let index: HashMap<&[ModuleScope], usize> = open
        .iter()
        .enumerate()
        .map(|(i, g)| (&g.key[..], i))
        .collect();
    // The open group a path's item sits directly in (`root` outside any).
    let owner = |path: &[ModuleScope]| index.get(path).copied().unwrap_or(root);
    let mut children: Vec<Vec<Child>> = (0..=root).map(|_| vec![]).collect();
    for (i, item) in grouped.items.iter().enumerate() {
        let parent = match item {
            Item::Node(id) => owner(graph.nodes.get(id).map_or(&[], |n| &n.modules[..])),
            Item::Group { key, .. } => owner(&key[..key.len().saturating_sub(1)]),
        };
        children[parent].push(Child::Item(i));
    }
    for (g, group) in open.iter().enumerate() {
        let parent = owner(&group.key[..group.key.len().saturating_sub(1)]);
        if parent != g {
            children[parent].push(Child::Group(g));
        }
    }
    // Innermost first, so a group's subgroups are packed before it.
    let mut order: Vec<usize> = (0..root).collect();
    order.sort_by_key(|&g| std::cmp::Reverse(open[g].key.len()));
    order.push(root);
    let mut packed: Vec<Option<Block>> = (0..=root).map(|_| None).collect();
    for g in order {
        let blocks: Vec<Block> = std::mem::take(&mut children[g])
            .into_iter()
            .filter_map(|child| match child {
                Child::Item(i) => Some(Block {
                    top: layers[i],
                    bottom: layers[i],
                    width: NODE_WIDTH,
                    items: vec![(i, 0.0)],
                    rank: i,
                    framed: false,
                }),
                Child::Group(inner) => packed[inner].take(),
            })
            .collect();
        let pad = if g == root { 0.0 } else { FRAME_PAD };
        packed[g] = pack(blocks, pad);
    }
    let mut x = vec![0.0; grouped.items.len()];
    if let Some(Some(block)) = packed.pop() {
        for (i, left) in block.items {
            x[i] = left;
        }
    }
    x
}

/// Space a block takes in one row: its left and right edges, whether it
/// is framed, and whether this row holds only its header (the gap above
/// its top row, where a frame's label goes).
#[derive(Clone, Copy)]
struct Taken {
    left: f64,
    right: f64,
    framed: bool,
    header: bool,
}

/// Packs `blocks` side by side, each at the leftmost place free over all
/// its rows, inside a frame padded by `pad` on each side.
fn pack(mut blocks: Vec<Block>, pad: f64) -> Option<Block> {
    blocks.sort_by_key(|b| (b.top, b.rank));
    let mut taken: BTreeMap<usize, Vec<Taken>> = BTreeMap::new();
    let mut out = Block {
        top: blocks.iter().map(|b| b.top).min()?,
        bottom: blocks.iter().map(|b| b.bottom).max()?,
        width: 0.0,
        items: vec![],
        rank: blocks.iter().map(|b| b.rank).min()?,
        framed: pad > 0.0,
    };
    for block in blocks {
        // Rows the block needs, and whether each is only for its header:
        // a frame's header and padding reach into the gaps above and
        // below, where they meet other frames but not plain boxes.
        let header = (block.framed && block.top > 0).then(|| (block.top - 1, true));
        let rows: Vec<(usize, bool)> = header
            .into_iter()
            .chain((block.top..=block.bottom).map(|row| (row, false)))
            .collect();
        let clashes = |t: &Taken, header_row: bool| {
            if header_row {
                t.framed
            } else {
                !t.header || block.framed
            }
        };
        // Each row's blocks are kept sorted by left edge, so one pass over
        // a row moves past everything in it that overlaps; passes repeat
        // over the rows until none moves the block (a row of k boxes costs
        // O(k) per box, not O(k²)).
        let mut x: f64 = 0.0;
        let mut moved = true;
        while moved {
            moved = false;
            for &(row, header_row) in &rows {
                for t in taken.get(&row).into_iter().flatten() {
                    if t.left >= x + block.width + H_GAP {
                        break;
                    }
                    if clashes(t, header_row) && x < t.right + H_GAP {
                        x = t.right + H_GAP;
                        moved = true;
                    }
                }
            }
        }
        for &(row, header) in &rows {
            let row = taken.entry(row).or_default();
            let at = row.partition_point(|t| t.left <= x);
            row.insert(
                at,
                Taken {
                    left: x,
                    right: x + block.width,
                    framed: block.framed,
                    header,
                },
            );
        }
        out.width = out.width.max(x + block.width);
        out.items
            .extend(block.items.into_iter().map(|(i, left)| (i, pad + x + left)));
    }
    out.width += 2.0 * pad;
    Some(out)
}
