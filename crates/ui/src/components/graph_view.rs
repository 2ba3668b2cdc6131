//! The autograd graph as SVG, placed by `gradscope_trace::GraphLayout`.

use gradscope_trace::layout::{NODE_HEIGHT, NODE_WIDTH};
use gradscope_trace::{GraphLayout, NodeStatus};
use yew::prelude::*;

/// Props of [`GraphView`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub layout: GraphLayout,
    /// How many trace events the graph reflects.
    pub events: usize,
}

/// Boxes for nodes, arrows for `next_functions`, saved tensors under each name.
#[function_component]
pub fn GraphView(props: &Props) -> Html {
    let layout = &props.layout;
    let edges = layout.edges.iter().map(|e| {
        html! {
            <line x1={e.x1.to_string()} y1={e.y1.to_string()} x2={e.x2.to_string()}
                  y2={e.y2.to_string()} class="edge" marker-end="url(#arrow)" />
        }
    });
    let nodes = layout.nodes.iter().map(|n| {
        let status = match n.node.status {
            NodeStatus::Pending => "pending",
            NodeStatus::Executed => "executed",
            NodeStatus::Released => "released",
        };
        let names: Vec<&str> = n.node.saved.iter().map(|s| s.name.as_str()).collect();
        let saved = match (names.is_empty(), n.node.status) {
            (true, _) => String::new(),
            (false, NodeStatus::Released) => format!("freed: {}", names.join(", ")),
            (false, _) => format!("saved: {}", names.join(", ")),
        };
        let cx = n.x + NODE_WIDTH / 2.0;
        html! {
            <g class={classes!("node", status)} data-node={n.node.name.clone()}>
                <rect x={n.x.to_string()} y={n.y.to_string()} width={NODE_WIDTH.to_string()}
                      height={NODE_HEIGHT.to_string()} rx="6" />
                <text x={cx.to_string()} y={(n.y + 15.0).to_string()} class="name">
                    { n.node.name.clone() }
                </text>
                <text x={cx.to_string()} y={(n.y + 29.0).to_string()} class="saved">{ saved }</text>
            </g>
        }
    });
    html! {
        <section class="graph">
            <h2>{ format!("Autograd graph ({} trace events)", props.events) }</h2>
            <svg data-testid="graph" width={layout.width.to_string()} height={layout.height.to_string()}
                 viewBox={format!("0 0 {} {}", layout.width, layout.height)}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7"
                            markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" />
                    </marker>
                </defs>
                { for edges }
                { for nodes }
            </svg>
        </section>
    }
}
