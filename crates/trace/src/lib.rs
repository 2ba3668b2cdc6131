//! gradscope's trace: what the engine reports as it runs, and the pure views
//! over it.
//!
//! The engine emits [`Event`]s; every view (the graph at event `i`, its
//! layout, the memory timeline) is a plain function of a slice of events, so
//! live display, stepping and scrubbing back in time are one code path, shared
//! by the page and the CLI.

mod blocks;
pub mod compare;
pub mod event;
pub mod float;
pub mod follow;
pub mod format;
pub mod graph;
pub mod group;
pub mod layout;
pub mod log;
pub mod memory;
pub mod memory_chart;
pub mod memory_zoom;
pub mod origin;
pub mod perfetto;
pub mod playback;
pub mod protocol;
pub mod reply_json;
pub mod saved;
pub mod snapshot;
pub mod step;
pub mod svg;
pub mod training_charts;
pub mod viewport;

pub use event::{
    Category, Event, EventKind, Name, NodeId, RaisedInput, SavedInfo, StorageId, TensorId,
};
pub use graph::{FAILED_NODE, GraphNode, GraphState, ModulePath, ModuleScope, NodeStatus};
pub use layout::{GraphLayout, LaidEdge, LaidFrame, LaidGroup, LaidNode};
pub use log::{EventList, EventLog};
pub use protocol::{Reply, Request};
pub use snapshot::{GraphAt, NodePhase, NodeView};
