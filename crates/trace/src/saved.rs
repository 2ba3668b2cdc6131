//! A node's saved tensors as its details list them: which share a storage
//! with another saved tensor, of the same node or of other nodes, so the
//! bytes they keep are counted once and the learner sees why.

use crate::event::{NodeId, StorageId};
use crate::graph::{GraphState, NodeStatus};

/// One saved tensor of a node, with the storage it shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedDetail {
    /// PyTorch's name for it (`self`, `other`, `result`).
    pub name: String,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its storage's bytes.
    pub bytes: u64,
    /// Its dtype (`float32`); empty for a trace that did not record it.
    pub dtype: String,
    /// Its strides in elements, `stride()`.
    pub strides: Vec<i64>,
    /// Its offset into the storage in elements, `storage_offset()`.
    pub offset: u64,
    /// Its storage's version when saved, `_version`.
    pub version: u64,
    /// The storage.
    pub storage: StorageId,
    /// Kept now: the node has not released it and it is not deferred.
    pub held: bool,
    /// An earlier saved tensor of this node on the same storage (`y * y`
    /// saves `y` as `self` and `other`): its bytes are counted there.
    pub same_as: Option<String>,
    /// Other nodes holding the same storage now, as `MulBackward0 (y)
    /// other`, in node order.
    pub shared_with: Vec<String>,
}

impl SavedDetail {
    /// The bytes this entry adds to its node's saved total: none when an
    /// earlier entry of the node holds the same storage, or when not held.
    pub fn counted_bytes(&self) -> u64 {
        if self.held && self.same_as.is_none() {
            self.bytes
        } else {
            0
        }
    }

    /// `self (4, 3) float32 48 B, stride (3, 1), version 0, same storage
    /// as other (counted once), shared with AddBackward0 (y) self`; the
    /// offset only when not 0; dtype, stride and version only when the
    /// trace recorded them.
    pub fn describe(&self, bytes_label: impl Fn(u64) -> String) -> String {
        let list = |items: Vec<String>| items.join(", ");
        let shape = list(self.shape.iter().map(usize::to_string).collect());
        let mut out = if self.dtype.is_empty() {
            format!("{} ({shape}) {}", self.name, bytes_label(self.bytes))
        } else {
            let strides = list(self.strides.iter().map(i64::to_string).collect());
            let mut out = format!(
                "{} ({shape}) {} {}, stride ({strides})",
                self.name,
                self.dtype,
                bytes_label(self.bytes)
            );
            if self.offset != 0 {
                out.push_str(&format!(", offset {}", self.offset));
            }
            out.push_str(&format!(", version {}", self.version));
            out
        };
        if !self.held {
            out.push_str(", released");
        }
        if let Some(first) = &self.same_as {
            out.push_str(&format!(", same storage as {first} (counted once)"));
        }
        if !self.shared_with.is_empty() {
            out.push_str(&format!(", shared with {}", self.shared_with.join(", ")));
        }
        out
    }
}

/// Node `id`'s saved tensors with their sharing, in the node's order;
/// empty for a node not in `graph`.
///
/// ```
/// use gradscope_trace::{Event, EventKind, GraphState, SavedInfo};
/// use gradscope_trace::saved::saved_details;
/// let saved = |name: &'static str| SavedInfo { name: name.into(), shape: vec![2], storage: 7, bytes: 8, ..SavedInfo::default() };
/// let graph = GraphState::at(&Event::numbered([EventKind::NodeCreated {
///     node: 1, name: "MulBackward0".into(), sequence_nr: 0, next: vec![],
///     saved: vec![saved("self"), saved("other")], leaf: None,
/// }]));
/// let details = saved_details(&graph, 1);
/// assert_eq!(details[1].same_as.as_deref(), Some("self"));
/// assert_eq!(details.iter().map(|d| d.counted_bytes()).sum::<u64>(), 8);
/// ```
pub fn saved_details(graph: &GraphState, id: NodeId) -> Vec<SavedDetail> {
    let Some(node) = graph.nodes.get(&id) else {
        return vec![];
    };
    let held_by = |status: NodeStatus, deferred: bool| status != NodeStatus::Released && !deferred;
    let held = node.status != NodeStatus::Released;
    node.saved
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let same_as = node.saved[..i]
                .iter()
                .find(|earlier| earlier.storage == s.storage)
                .map(|earlier| earlier.name.to_string());
            let shared_with = graph
                .nodes
                .values()
                .filter(|other| other.id != id)
                .flat_map(|other| {
                    other
                        .saved
                        .iter()
                        .filter(move |o| {
                            o.storage == s.storage && held_by(other.status, o.deferred)
                        })
                        .map(move |o| match &other.label {
                            Some(label) => format!("{} ({label}) {}", other.name, o.name),
                            None => format!("{} {}", other.name, o.name),
                        })
                })
                .collect();
            SavedDetail {
                name: s.name.to_string(),
                shape: s.shape.clone(),
                bytes: s.bytes,
                dtype: s.dtype.to_string(),
                strides: s.strides.clone(),
                offset: s.offset,
                version: s.version,
                storage: s.storage,
                held: held && !s.deferred,
                same_as,
                shared_with,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Event, EventKind, SavedInfo};

    fn saved(name: &'static str, storage: StorageId) -> SavedInfo {
        SavedInfo {
            name: name.into(),
            shape: vec![4, 3],
            storage,
            bytes: 48,
            deferred: false,
            ..SavedInfo::default()
        }
    }

    fn node(node: NodeId, name: &'static str, saved: Vec<SavedInfo>) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: name.into(),
            sequence_nr: node,
            next: vec![],
            saved,
            leaf: None,
        }
    }

    #[test]
    fn saved_describe_dtype_stride_offset_version() {
        let narrowed = SavedInfo {
            dtype: "float64".into(),
            strides: vec![1, 4],
            offset: 2,
            version: 3,
            ..saved("self", 5)
        };
        let graph = GraphState::at(&Event::numbered([node(
            1,
            "MulBackward0",
            vec![
                narrowed,
                SavedInfo {
                    dtype: "int64".into(),
                    strides: vec![3, 1],
                    ..saved("other", 6)
                },
            ],
        )]));
        let words: Vec<String> = saved_details(&graph, 1)
            .iter()
            .map(|d| d.describe(|b| format!("{b} B")))
            .collect();
        assert_eq!(
            words,
            [
                "self (4, 3) float64 48 B, stride (1, 4), offset 2, version 3",
                "other (4, 3) int64 48 B, stride (3, 1), version 0",
            ]
        );
        // A trace written before these were recorded reads them as absent.
        let old: SavedInfo = serde_json::from_str(
            r#"{"name":"self","shape":[2],"storage":7,"bytes":8,"deferred":false}"#,
        )
        .unwrap();
        assert_eq!(
            old,
            SavedInfo {
                name: "self".into(),
                shape: vec![2],
                storage: 7,
                bytes: 8,
                ..SavedInfo::default()
            }
        );
    }

    #[test]
    fn saved_sharing_within_and_across_nodes() {
        // y * y saves y (storage 5) twice; h = y * v saves it again; an
        // exp of y saved it and released it, so no one shares with it now.
        let graph = GraphState::at(&Event::numbered([
            node(1, "MulBackward0", vec![saved("self", 5), saved("other", 5)]),
            node(2, "MulBackward0", vec![saved("self", 5), saved("other", 6)]),
            EventKind::TensorNamed {
                tensor: 20,
                storage: 9,
                node: Some(2),
                name: "h".into(),
                parameter: None,
            },
            node(3, "ExpBackward0", vec![saved("result", 5)]),
            EventKind::SavedReleased { node: 3 },
        ]));
        let details = saved_details(&graph, 1);
        let words: Vec<String> = details
            .iter()
            .map(|d| d.describe(|b| format!("{b} B")))
            .collect();
        assert_eq!(
            words,
            [
                "self (4, 3) 48 B, shared with MulBackward0 (h) self",
                "other (4, 3) 48 B, same storage as self (counted once), shared with MulBackward0 (h) self",
            ]
        );
        assert_eq!(
            details.iter().map(SavedDetail::counted_bytes).sum::<u64>(),
            48
        );
        let released = saved_details(&graph, 3);
        assert!(!released[0].held);
        assert_eq!(released[0].counted_bytes(), 0);
        assert_eq!(
            released[0].shared_with,
            [
                "MulBackward0 self",
                "MulBackward0 other",
                "MulBackward0 (h) self"
            ]
        );
        assert!(saved_details(&graph, 99).is_empty());
    }
}
