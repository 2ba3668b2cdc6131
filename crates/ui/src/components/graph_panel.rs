//! The autograd graph as SVG, placed by `gradscope_trace::GraphLayout`, each
//! node drawn in its phase at the trace position shown, its nodes grouped by
//! `nn.Module` (large graphs start collapsed), in a view that pans and zooms
//! (wheel, drag, keys, buttons).

use std::collections::BTreeMap;
use std::rc::Rc;

use gradscope_trace::chart::bytes_label;
use gradscope_trace::group::{COLLAPSE_ABOVE, Expansion, GroupKey};
use gradscope_trace::viewport::{PAN_STEP, Viewport, ZOOM_STEP};
use gradscope_trace::{EventLog, GraphAt, GraphLayout, LaidEdge, LaidFrame, NodeId, NodePhase};
use yew::prelude::*;

use super::graph_node::{GraphNodeBox, GroupBox, GroupDetails, GroupFrame, NodeDetails};
use super::graph_view::{ViewAction, use_view};
use crate::follow::use_follow;
use crate::graph_window::window;
use crate::size::use_size;

/// Props of [`GraphPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub log: EventLog,
    /// How many events the graph reflects.
    pub position: usize,
}

/// What the view draws at one position, computed once per position.
struct Drawn {
    nodes: Vec<(NodeId, f64, f64, NodeDetails)>,
    /// Each collapsed group with its first node, which keys its box.
    groups: Vec<(GroupKey, NodeId, f64, f64, GroupDetails)>,
    frames: Vec<LaidFrame>,
    edges: Edges,
    size: (f64, f64),
    title: String,
    counts: [usize; 4],
}

/// Boxes for nodes, arrows for `next_functions`, a legend, zoom controls,
/// and the details of the node last clicked.
#[function_component]
pub fn GraphPanel(props: &Props) -> Html {
    let follow = use_follow::<GraphAt>(&props.log, props.position);
    let choices = use_reducer_eq(Choices::default);
    let drawn = {
        let follow = follow.clone();
        let deps = (props.log.clone(), props.position, choices.0.clone());
        use_memo(deps, move |(_, _, chosen)| {
            let follow = follow.borrow();
            drawn(follow.get(), chosen)
        })
    };
    let on_toggle = {
        let dispatch = choices.dispatcher();
        use_callback((), move |choice: (GroupKey, bool), ()| {
            dispatch.dispatch(choice)
        })
    };
    let selected = use_state(|| None::<NodeId>);
    let on_select = {
        let selected = selected.clone();
        use_callback((), move |id: NodeId, ()| selected.set(Some(id)))
    };
    let container = use_node_ref();
    let view_size = use_size(container.clone());
    let fit = Viewport::fit(drawn.size, view_size);
    let (viewport, dispatch) = use_view(container.clone(), fit);
    let centre = (view_size.0 / 2.0, view_size.1 / 2.0);
    let button = |label: &'static str, text: &'static str, action: ViewAction| {
        let dispatch = dispatch.clone();
        html! {
            <button type="button" aria-label={label} title={label}
                    onclick={move |_| dispatch.emit(action)}>{ text }</button>
        }
    };
    let nodes = drawn.nodes.iter().map(|(id, x, y, details)| {
        html! { <GraphNodeBox key={*id} id={*id} x={*x} y={*y} view={details.clone()}
        onselect={on_select.clone()} /> }
    });
    let groups = drawn.groups.iter().map(|(key, first, x, y, details)| {
        html! { <GroupBox key={*first} group={key.clone()} x={*x} y={*y}
        view={details.clone()} ontoggle={on_toggle.clone()} /> }
    });
    let frames = drawn.frames.iter().enumerate().map(|(i, frame)| {
        html! { <GroupFrame key={i} frame={frame.clone()}
        ontoggle={on_toggle.clone()} /> }
    });
    let legend = NodePhase::ALL
        .iter()
        .zip(drawn.counts)
        .map(|(phase, count)| {
            html! {
                <li class={classes!("phase", phase_class(*phase))}>
                    <span class="swatch" aria-hidden="true" />{ format!("{} {count}", phase.label()) }
                </li>
            }
        });
    let details = (*selected).and_then(|id| {
        let follow = follow.borrow();
        let view = follow.get().view(id)?;
        Some(NodeDetails::of(&view).describe())
    });
    html! {
        <section class="panel graph" aria-label="Autograd graph">
            <div class="panel-head">
                <h2 data-testid="graph-title">{ drawn.title.clone() }</h2>
                <div class="toggle zoom" role="group" aria-label="graph zoom">
                    { button("zoom out", "−", ViewAction::Zoom { factor: 1.0 / ZOOM_STEP, at: centre, fit }) }
                    { button("zoom in", "+", ViewAction::Zoom { factor: ZOOM_STEP, at: centre, fit }) }
                    { button("fit the graph to the view", "fit", ViewAction::Fit) }
                </div>
            </div>
            <ul class="legend">{ for legend }</ul>
            <div class="graph-view" ref={container} tabindex="0" data-testid="graph-view" role="group"
                 aria-label="autograd graph view: drag or arrow keys pan, wheel or + and - zoom, 0 fits; Enter on a module group opens or collapses it"
                 onkeydown={key_handler(dispatch.clone(), centre, fit)}>
                if drawn.nodes.is_empty() {
                    <p class="empty">{ "Run the program to see autograd build its graph." }</p>
                }
                <svg data-testid="graph" role="img" aria-label="autograd graph"
                     data-scale={format!("{:.4}", viewport.scale)}>
                    <defs>
                        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7"
                                markerHeight="7" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" />
                        </marker>
                    </defs>
                    <g class="content" transform={viewport.transform()}>
                        { for frames }
                        <GraphEdges edges={drawn.edges.clone()} />
                        { for groups }
                        { for nodes }
                    </g>
                </svg>
            </div>
            if let Some(text) = details {
                <p class="node-details" data-testid="node-details">{ text }</p>
            }
        </section>
    }
}

/// The keys the view answers: + and - zoom about the centre, 0 fits,
/// arrows pan.
fn key_handler(
    dispatch: Callback<ViewAction>,
    centre: (f64, f64),
    fit: Viewport,
) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        let action = match e.key().as_str() {
            "+" | "=" => ViewAction::Zoom {
                factor: ZOOM_STEP,
                at: centre,
                fit,
            },
            "-" | "_" => ViewAction::Zoom {
                factor: 1.0 / ZOOM_STEP,
                at: centre,
                fit,
            },
            "0" => ViewAction::Fit,
            "ArrowLeft" => ViewAction::Pan(PAN_STEP, 0.0, fit),
            "ArrowRight" => ViewAction::Pan(-PAN_STEP, 0.0, fit),
            "ArrowUp" => ViewAction::Pan(0.0, PAN_STEP, fit),
            "ArrowDown" => ViewAction::Pan(0.0, -PAN_STEP, fit),
            _ => return,
        };
        e.prevent_default();
        dispatch.emit(action);
    })
}

/// Module groups the learner opened (`true`) or closed (`false`); the
/// others follow the graph's size (see `Expansion::for_size`).
#[derive(Clone, Debug, Default, PartialEq)]
struct Choices(BTreeMap<GroupKey, bool>);

impl Reducible for Choices {
    /// A group, and whether it is open now: it switches.
    type Action = (GroupKey, bool);

    fn reduce(self: Rc<Self>, (key, open): (GroupKey, bool)) -> Rc<Self> {
        let mut next = self.0.clone();
        next.insert(key, !open);
        Rc::new(Choices(next))
    }
}

/// The graph at one position as the view draws it: the nodes still worth
/// drawing (see `graph_window`), grouped by module, placed, with what each
/// box says.
fn drawn(graph: &GraphAt, chosen: &BTreeMap<GroupKey, bool>) -> Drawn {
    let (shown, hidden) = window(graph);
    let expansion = Expansion {
        chosen: chosen.clone(),
        collapse_by_default: shown.nodes.len() > COLLAPSE_ABOVE,
    };
    let layout = GraphLayout::grouped(&shown, &expansion);
    let nodes = layout
        .nodes
        .iter()
        .filter_map(|laid| {
            let view = graph.view(laid.node.id)?;
            Some((laid.node.id, laid.x, laid.y, NodeDetails::of(&view)))
        })
        .collect();
    let groups: Vec<_> = layout
        .groups
        .iter()
        .map(|g| {
            let views = g.members.iter().filter_map(|&id| graph.view(id));
            let details = GroupDetails::of(g.label.clone(), views);
            let first = g.members.first().copied().unwrap_or_default();
            (g.key.clone(), first, g.x, g.y, details)
        })
        .collect();
    let mut title = format!(
        "Autograd graph · {} nodes · {} saved",
        graph.graph.nodes.len(),
        bytes_label(graph.saved_bytes())
    );
    if !groups.is_empty() {
        title += &format!(" · {} modules collapsed", groups.len());
    }
    if hidden > 0 {
        title += &format!(" · {hidden} freed by earlier passes not drawn");
    }
    Drawn {
        nodes,
        groups,
        frames: layout.frames,
        edges: Edges(Rc::new(layout.edges)),
        size: (layout.width, layout.height),
        title,
        counts: graph.phase_counts(),
    }
}

/// The laid-out edges, compared by pointer first: the same edges skip
/// redrawing when only nodes' phases changed or the view moved.
#[derive(Clone, Debug)]
pub struct Edges(Rc<Vec<LaidEdge>>);

impl PartialEq for Edges {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

/// Props of [`GraphEdges`].
#[derive(Properties, PartialEq)]
pub struct EdgesProps {
    pub edges: Edges,
}

/// The arrows, one curve each from a node to one of its `next_functions`.
#[function_component]
pub fn GraphEdges(props: &EdgesProps) -> Html {
    let edges = props.edges.0.iter().map(|e| {
        let mid = (e.y1 + e.y2) / 2.0;
        let d = format!(
            "M{:.1},{:.1} C{:.1},{mid:.1} {:.1},{mid:.1} {:.1},{:.1}",
            e.x1, e.y1, e.x1, e.x2, e.x2, e.y2
        );
        html! { <path class="edge" d={d} marker-end="url(#arrow)" /> }
    });
    html! { <g class="edges">{ for edges }</g> }
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
