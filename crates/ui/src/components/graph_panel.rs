//! The autograd graph as SVG, placed by `gradscope_trace::GraphLayout`, each
//! node drawn in its phase at the trace position shown.

use std::rc::Rc;

use gradscope_trace::chart::bytes_label;
use gradscope_trace::{GraphAt, GraphLayout, NodeId, NodePhase};
use yew::prelude::*;

use super::graph_node::{GraphNodeBox, NodeDetails};
use crate::graph_window::window;

/// A graph shared between renders: compared by pointer first, so a page
/// that passes the same one again skips comparing thousands of nodes.
#[derive(Clone, Debug)]
pub struct SharedGraph(pub Rc<GraphAt>);

impl PartialEq for SharedGraph {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

/// Props of [`GraphPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub graph: SharedGraph,
}

/// Boxes for nodes, arrows for `next_functions`, a legend, and the details
/// of the node last clicked.
#[function_component]
pub fn GraphPanel(props: &Props) -> Html {
    let graph = &*props.graph.0;
    let windowed = use_memo(graph.graph.clone(), |graph| {
        let (shown, hidden) = window(graph);
        (GraphLayout::of(&shown), hidden)
    });
    let (layout, hidden) = (&windowed.0, windowed.1);
    let selected = use_state(|| None::<NodeId>);
    let edges = layout.edges.iter().map(|e| {
        let mid = (e.y1 + e.y2) / 2.0;
        let d = format!(
            "M{:.1},{:.1} C{:.1},{mid:.1} {:.1},{mid:.1} {:.1},{:.1}",
            e.x1, e.y1, e.x1, e.x2, e.x2, e.y2
        );
        html! { <path class="edge" d={d} marker-end="url(#arrow)" /> }
    });
    let nodes = layout.nodes.iter().filter_map(|laid| {
        let view = graph.view(laid.node.id)?;
        let id = laid.node.id;
        let selected = selected.clone();
        let onselect = Callback::from(move |()| selected.set(Some(id)));
        Some(html! { <GraphNodeBox key={id} x={laid.x} y={laid.y} view={NodeDetails::of(&view)} {onselect} /> })
    });
    let counts = graph.phase_counts();
    let legend = NodePhase::ALL.iter().zip(counts).map(|(phase, count)| {
        html! {
            <li class={classes!("phase", phase_class(*phase))}>
                <span class="swatch" aria-hidden="true" />{ format!("{} {count}", phase.label()) }
            </li>
        }
    });
    let details = selected
        .and_then(|id| graph.view(id))
        .map(|view| NodeDetails::of(&view).describe());
    let mut title = format!(
        "Autograd graph · {} nodes · {} saved",
        graph.graph.nodes.len(),
        bytes_label(graph.saved_bytes())
    );
    if hidden > 0 {
        title += &format!(" · {hidden} freed by earlier passes not drawn");
    }
    html! {
        <section class="panel graph" aria-label="Autograd graph">
            <h2 data-testid="graph-title">{ title }</h2>
            <ul class="legend">{ for legend }</ul>
            <div class="graph-scroll">
                if layout.nodes.is_empty() {
                    <p class="empty">{ "Run the program to see autograd build its graph." }</p>
                }
                <svg data-testid="graph" role="img" aria-label="autograd graph"
                     viewBox={format!("0 0 {} {}", layout.width, layout.height)}
                     style={format!("max-width: {}px", layout.width)}>
                    <defs>
                        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7"
                                markerHeight="7" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" />
                        </marker>
                    </defs>
                    { for edges }
                    { for nodes }
                </svg>
            </div>
            if let Some(text) = details {
                <p class="node-details" data-testid="node-details">{ text }</p>
            }
        </section>
    }
}

/// The CSS class of a phase.
pub fn phase_class(phase: NodePhase) -> &'static str {
    match phase {
        NodePhase::Alive => "alive",
        NodePhase::Holding => "holding",
        NodePhase::Running => "running",
        NodePhase::Freed => "freed",
    }
}
