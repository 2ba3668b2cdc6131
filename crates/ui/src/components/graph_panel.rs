//! The autograd graph as SVG, placed by `gradscope_trace::GraphLayout`, each
//! node drawn in its phase at the trace position shown, its nodes grouped by
//! `nn.Module` (large graphs start collapsed), in a view that pans and zooms
//! (wheel, drag, keys, buttons). One pass is drawn: the graph of the
//! position's training step, earlier passes summed up in a line (see
//! `GraphAt::one_pass`). The graph saves as SVG or PNG, the trace as
//! Perfetto JSON.

use std::collections::BTreeMap;
use std::rc::Rc;

use gradscope_trace::group::{COLLAPSE_ABOVE, Expansion, GroupKey};
use gradscope_trace::memory_chart::bytes_label;
use gradscope_trace::saved::{SavedDetail, saved_details};
use gradscope_trace::step::{next_pass, previous_pass};
use gradscope_trace::svg::push_command;
use gradscope_trace::viewport::{PAN_STEP, Viewport, ZOOM_STEP};
use gradscope_trace::{
    EventLog, FAILED_NODE, GraphAt, GraphLayout, LaidEdge, LaidFrame, NodeId, NodePhase, NodeView,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use super::export;
use super::graph_node::{GraphNodeBox, GroupBox, GroupDetails, GroupFrame, NodeDetails};
use super::graph_view::{ViewAction, use_view};
use crate::follow::use_follow;
use crate::graph_window::{BoxPool, NODE_BUDGET};
use crate::size::use_size;

/// The zoom below which the boxes' text is not drawn (see `style.css`,
/// `.overview`): the 12-pixel names are under 5 pixels there, not
/// readable, and the browser's style, layout and paint of a training
/// loop's hundred and fifty boxes' text were half of the browser's work
/// in a graph update's frame. Each box keeps its name and state for
/// assistive technology (`aria-label`); zooming in shows the text.
const OVERVIEW_BELOW: f64 = 0.4;

/// Props of [`GraphPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub log: EventLog,
    /// How many events the graph reflects.
    pub position: usize,
    /// Whether to make boxes ahead while the graph is empty (see
    /// `BoxPool::reserve`): the page's view, not the rehearsal's.
    #[prop_or_default]
    pub warm: bool,
    /// Moves the page to a position: given, the view steps from pass to
    /// pass (a training loop's steps).
    #[prop_or_default]
    pub on_seek: Option<Callback<usize>>,
}

/// How many boxes an idle moment makes ahead: about 8 ms of the page's
/// time on 2 cores.
const BOXES_PER_IDLE: usize = 25;

/// What the view draws at one position, computed once per position.
struct Drawn {
    /// Each node with the slot that keys its box (see [`slots`]).
    nodes: Vec<(u64, NodeId, f64, f64, NodeDetails)>,
    /// Each collapsed group, keyed by its place in the layout's order (as
    /// nodes are, see [`slots`]): a training loop's next step keeps its box.
    groups: Vec<(GroupKey, f64, f64, GroupDetails)>,
    frames: Vec<LaidFrame>,
    edges: Edges,
    size: (f64, f64),
    title: String,
    counts: [usize; 4],
    /// The earlier passes summed up (`199 earlier graphs built and freed,
    /// identical in shape`), when there were any.
    passes: Option<String>,
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
    // The node drawn in each slot now, for the boxes' clicks.
    let drawn_in = use_mut_ref(BTreeMap::<u64, NodeId>::new);
    *drawn_in.borrow_mut() = drawn.nodes.iter().map(|n| (n.0, n.1)).collect();
    let on_select = {
        let (selected, drawn_in) = (selected.clone(), drawn_in.clone());
        use_callback((), move |slot: u64, ()| {
            if let Some(&id) = drawn_in.borrow().get(&slot) {
                selected.set(Some(id));
            }
        })
    };
    let container = use_node_ref();
    let svg = use_node_ref();
    let view_size = use_size(container.clone());
    // An empty graph (a new run's start) keeps the last graph's fit: a new
    // transform is a layout of every box in the view, in the frame after
    // Ctrl+Enter, which already lays out every view's clearing.
    let fitted = use_mut_ref(|| drawn.size);
    if !drawn.nodes.is_empty() || !drawn.groups.is_empty() {
        *fitted.borrow_mut() = drawn.size;
    }
    let fit = Viewport::fit(*fitted.borrow(), view_size);
    let (viewport, dispatch) = use_view(container.clone(), fit);
    let centre = (view_size.0 / 2.0, view_size.1 / 2.0);
    let button = |label: &'static str, text: &'static str, action: ViewAction| {
        let dispatch = dispatch.clone();
        html! {
            <button type="button" aria-label={label} title={label}
                    onclick={move |_| dispatch.emit(action)}>{ text }</button>
        }
    };
    // Every box, drawn or spare, in the order the pool keeps (see `BoxPool`).
    let pool = use_mut_ref(BoxPool::default);
    let boxes = pool.borrow_mut().boxes(drawn.nodes.iter().map(|n| n.0));
    let by_slot: BTreeMap<u64, &(u64, NodeId, f64, f64, NodeDetails)> =
        drawn.nodes.iter().map(|n| (n.0, n)).collect();
    let nodes = boxes.into_iter().map(|(key, slot)| match slot.and_then(|s| by_slot.get(&s)) {
        Some((slot, _, x, y, details)) => html! {
            <GraphNodeBox {key} slot={*slot} x={*x} y={*y} view={Some(details.clone())}
                          onselect={on_select.clone()} />
        },
        None => html! {
            <GraphNodeBox {key} slot={u64::MAX} x={0.0} y={0.0} view={None} onselect={on_select.clone()} />
        },
    });
    // While the page waits for a program, boxes are made ahead, a few per
    // idle moment, so a run's graph is drawn in boxes that exist: a fresh
    // page's first lesson run made a hundred and more in one frame, 15 to
    // 19 ms of the main thread's time (Chromium on 2 cores), the whole of
    // a frame (issue 7).
    let warm_up = use_force_update();
    {
        let wanted = props.warm && drawn.nodes.is_empty() && pool.borrow().len() < NODE_BUDGET;
        let pool = pool.clone();
        use_effect(move || {
            let idle = wanted.then(web_sys::window).flatten().and_then(|window| {
                let made = Closure::once_into_js(move || {
                    let more = pool.borrow().len() + BOXES_PER_IDLE;
                    pool.borrow_mut().reserve(more.min(NODE_BUDGET));
                    warm_up.force_update();
                });
                let id = window.request_idle_callback(made.unchecked_ref()).ok()?;
                Some((window, id))
            });
            move || {
                if let Some((window, id)) = idle {
                    window.cancel_idle_callback(id);
                }
            }
        });
    }
    let groups = drawn
        .groups
        .iter()
        .enumerate()
        .map(|(i, (key, x, y, details))| {
            html! { <GroupBox key={i} group={key.clone()} x={*x} y={*y}
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
        Some(node_details(follow.get(), &view))
    });
    // The exception on the graph: at the failed operation, or where a
    // failed backward stopped.
    let error = {
        let follow = follow.borrow();
        let graph = &follow.get().graph;
        graph
            .nodes
            .get(&FAILED_NODE)
            .filter(|n| n.error.is_some())
            .or_else(|| graph.nodes.values().find(|n| n.error.is_some()))
            .map(|n| {
                let at = match &n.label {
                    Some(label) if n.id == FAILED_NODE => format!("`{label}` raised"),
                    Some(label) => format!("backward stopped at {} ({label})", n.name),
                    None => format!("backward stopped at {}", n.name),
                };
                format!(
                    "{at}: {}",
                    n.error.clone().unwrap_or_default().replace('\n', " — ")
                )
            })
    };
    html! {
        <section class="panel graph" aria-label="Autograd graph">
            <div class="panel-head">
                <h2 data-testid="graph-title">{ drawn.title.clone() }</h2>
                <div class="toggles">
                    <GraphExport log={props.log.clone()} svg={svg.clone()} size={drawn.size} />
                    <div class="toggle zoom" role="group" aria-label="graph zoom">
                        { button("zoom out", "−", ViewAction::Zoom { factor: 1.0 / ZOOM_STEP, at: centre, fit }) }
                        { button("zoom in", "+", ViewAction::Zoom { factor: ZOOM_STEP, at: centre, fit }) }
                        { button("fit the graph to the view", "fit", ViewAction::Fit) }
                    </div>
                </div>
            </div>
            // The passes' line shares the legend's row where it fits: the
            // widget's graph view has little height to give.
            <div class="graph-legend-row">
                <ul class="legend">{ for legend }</ul>
                if let Some(summary) = drawn.passes.clone() {
                    <PassLine {summary} log={props.log.clone()} position={props.position}
                              on_seek={props.on_seek.clone()} />
                }
            </div>
            <div class="graph-view" ref={container} tabindex="0" data-testid="graph-view" role="group"
                 aria-label="autograd graph view: drag or arrow keys pan, wheel or + and - zoom, 0 fits; Enter on a module group opens or collapses it"
                 onkeydown={key_handler(dispatch.clone(), centre, fit)}>
                if drawn.nodes.is_empty() {
                    <p class="empty">{ "Run the program to see autograd build its graph." }</p>
                }
                <svg ref={svg} data-testid="graph" role="img" aria-label="autograd graph"
                     data-scale={format!("{:.4}", viewport.scale)}
                     class={(viewport.scale < OVERVIEW_BELOW).then_some("overview")}>
                    // Each keyed list in an element of its own: yew puts a
                    // `for`'s items among their siblings, and a list with an
                    // unkeyed sibling (the edges) is matched by position, so
                    // every box was made anew whenever their number changed.
                    <g class="content" transform={viewport.transform()}>
                        <g class="frames">{ for frames }</g>
                        <GraphEdges edges={drawn.edges.clone()} />
                        <g class="groups">{ for groups }</g>
                        <g class="nodes">{ for nodes }</g>
                    </g>
                </svg>
            </div>
            if let Some(text) = error {
                <p class="graph-error" data-testid="graph-error" role="alert"
                   style="color:#c62828;margin:0.3rem 0 0;font:12px ui-monospace, 'DejaVu Sans Mono', monospace">{ text }</p>
            }
            if let Some(text) = details {
                // A fixed height, scrolling: details of another length
                // must not resize the graph view (and move its fit).
                <p class="node-details" data-testid="node-details"
                   style="height:2.6em;overflow-y:auto">{ text }</p>
            }
        </section>
    }
}

/// The selected node's details: its box's sentence, then each saved
/// tensor with the storage it shares, counted once.
fn node_details(graph: &GraphAt, view: &NodeView<'_>) -> String {
    let details = NodeDetails::of(view);
    let saved = saved_details(&graph.graph, view.node.id);
    if saved.is_empty() {
        return details.describe();
    }
    let counted: u64 = saved.iter().map(SavedDetail::counted_bytes).sum();
    let listed: Vec<String> = saved.iter().map(|s| s.describe(bytes_label)).collect();
    format!(
        "{}; storage: {} counted once: {}",
        details.describe(),
        bytes_label(counted),
        listed.join("; ")
    )
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

/// The graph at one position as the view draws it: the pass at that
/// position (see `GraphAt::one_pass`), grouped by module, placed, with what
/// each box says.
fn drawn(graph: &GraphAt, chosen: &BTreeMap<GroupKey, bool>) -> Drawn {
    let pass = graph.one_pass();
    let (shown, hidden) = (&pass.graph, pass.earlier_nodes);
    let expansion = Expansion {
        chosen: chosen.clone(),
        collapse_by_default: shown.nodes.len() > COLLAPSE_ABOVE,
    };
    let layout = GraphLayout::grouped(shown, &expansion);
    let nodes = slots(&layout)
        .zip(&layout.nodes)
        .filter_map(|(slot, laid)| {
            let view = graph.view(laid.node.id)?;
            Some((slot, laid.node.id, laid.x, laid.y, NodeDetails::of(&view)))
        })
        .collect();
    let groups: Vec<_> = layout
        .groups
        .iter()
        .map(|g| {
            let views = g.members.iter().filter_map(|&id| graph.view(id));
            let details = GroupDetails::of(g.label.clone(), views);
            (g.key.clone(), g.x, g.y, details)
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
        edges: Edges::of(&layout.edges),
        size: (layout.width, layout.height),
        title,
        counts: phase_counts(graph, shown),
        passes: pass.summary(),
    }
}

/// How many of the drawn nodes are in each phase, in `NodePhase::ALL`
/// order: the legend counts what the view shows, not earlier passes.
fn phase_counts(graph: &GraphAt, shown: &gradscope_trace::GraphState) -> [usize; 4] {
    let mut counts = [0; 4];
    for view in shown.nodes.keys().filter_map(|&id| graph.view(id)) {
        counts[view.phase as usize] += 1;
    }
    counts
}

/// Props of [`PassLine`].
#[derive(Properties, PartialEq)]
pub struct PassProps {
    pub summary: String,
    pub log: EventLog,
    pub position: usize,
    pub on_seek: Option<Callback<usize>>,
}

/// The earlier passes summed up, and (where the page lets the view move
/// it) buttons that step to the previous or next pass's backward.
#[function_component]
fn PassLine(props: &PassProps) -> Html {
    let step = |label: &'static str, text: &'static str, forward: bool| {
        let on_seek = props.on_seek.clone()?;
        let (log, position) = (props.log.clone(), props.position);
        let onclick = move |_: MouseEvent| {
            on_seek.emit(if forward {
                next_pass(&log, position)
            } else {
                previous_pass(&log, position)
            })
        };
        let testid = if forward {
            "next-pass"
        } else {
            "previous-pass"
        };
        Some(html! {
            <button type="button" aria-label={label} title={label} data-testid={testid} {onclick}>{ text }</button>
        })
    };
    html! {
        <p class="graph-passes" data-testid="graph-passes">
            { step("step to the previous pass's backward", "◀ pass", false) }
            <span>{ props.summary.clone() }</span>
            { step("step to the next pass's backward", "pass ▶", true) }
        </p>
    }
}

/// Props of [`GraphExport`].
#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub log: EventLog,
    /// The view's `<svg>`.
    pub svg: NodeRef,
    /// The graph's size in layout units (the whole graph, not the view).
    pub size: (f64, f64),
}

/// Buttons that save the graph as SVG or PNG and the trace as Perfetto
/// JSON (buttons, so Tab and Enter reach them).
#[function_component]
fn GraphExport(props: &ExportProps) -> Html {
    let standalone = {
        let (svg, size) = (props.svg.clone(), props.size);
        move || {
            let element = svg.cast::<web_sys::Element>()?;
            export::standalone_svg(&element, size, "g.content", &["overview"]).ok()
        }
    };
    let save_svg = {
        let standalone = standalone.clone();
        move |_: MouseEvent| {
            if let Some(text) = standalone() {
                export::download("graph.svg", "image/svg+xml", &text);
            }
        }
    };
    let save_png = {
        let size = props.size;
        move |_: MouseEvent| {
            if let Some(text) = standalone() {
                export::download_png("graph.png", &text, size, export::png_scale(size));
            }
        }
    };
    let save_trace = {
        let log = props.log.clone();
        move |_: MouseEvent| {
            let events: Vec<gradscope_trace::Event> = log.iter().cloned().collect();
            let json = gradscope_trace::perfetto::chrome_trace_json(&events);
            export::download("gradscope-trace.json", "application/json", &json);
        }
    };
    html! {
        <div class="toggle export" role="group" aria-label="save the graph or the trace">
            <button type="button" data-testid="export-graph-svg" onclick={save_svg}
                    title="save the graph as SVG (the whole graph, as drawn now)">{ "SVG" }</button>
            <button type="button" data-testid="export-graph-png" onclick={save_png}
                    title="save the graph as PNG (the whole graph, as drawn now)">{ "PNG" }</button>
            <button type="button" data-testid="export-trace-json" onclick={save_trace}
                    title="save the whole trace as Perfetto JSON (open it at ui.perfetto.dev), as gradscope run --chrome-trace writes it">{ "trace" }</button>
        </div>
    }
}

/// The key of each laid-out node's box: its row (by `y`) and its place in
/// the row. A training loop builds a graph of the same shape every step,
/// with new node ids; keyed by slot, the page keeps its boxes and only
/// changes what differs (a phase, a line of text) instead of removing a
/// pass's boxes and making the next one's (the browser's element creation
/// and layout were most of a graph update's time).
fn slots(layout: &GraphLayout) -> impl Iterator<Item = u64> + '_ {
    let mut row = 0u64;
    let mut column = 0u64;
    let mut last_y = None;
    layout.nodes.iter().map(move |laid| {
        match last_y {
            Some(y) if y == laid.y => column += 1,
            Some(_) => {
                row += 1;
                column = 0;
            }
            None => {}
        }
        last_y = Some(laid.y);
        (row << 32) | column
    })
}

/// The edges as the view draws them: their end points only (which nodes
/// they join does not show), so the same shape of graph with new node ids
/// is not drawn again. Compared by pointer first.
#[derive(Clone, Debug)]
pub struct Edges(Rc<Vec<[f64; 4]>>);

impl Edges {
    fn of(edges: &[LaidEdge]) -> Self {
        Self(Rc::new(
            edges.iter().map(|e| [e.x1, e.y1, e.x2, e.y2]).collect(),
        ))
    }
}

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

/// Length of an arrowhead along its edge, and half its width, in layout
/// units (the size the former SVG marker drew at the edges' stroke width).
const ARROW_LENGTH: f64 = 9.1;
const ARROW_HALF_WIDTH: f64 = 4.55;

/// The arrows: one curve each from a node to one of its `next_functions`,
/// all in one path, and their heads in another. One element per edge (each
/// with a marker) made a graph update add or change hundreds of elements.
#[function_component]
pub fn GraphEdges(props: &EdgesProps) -> Html {
    let (curves, heads) = edge_paths(&props.edges.0);
    html! {
        <g class="edges" data-edges={props.edges.0.len().to_string()}>
            <path class="edge" d={curves} />
            <path class="arrowheads" d={heads} stroke="none" />
        </g>
    }
}

/// The `d` of the curves and of the arrowheads of `edges` (x1, y1, x2, y2):
/// each curve leaves its start downwards and enters its end downwards; each
/// head is a triangle with its tip at the end, along the curve's last
/// tangent.
fn edge_paths(edges: &[[f64; 4]]) -> (String, String) {
    let mut curves = String::with_capacity(edges.len() * 48);
    let mut heads = String::with_capacity(edges.len() * 40);
    for &[x1, y1, x2, y2] in edges {
        let mid = (y1 + y2) / 2.0;
        push_command(&mut curves, 'M', &[(x1, y1)]);
        curves.push(' ');
        push_command(&mut curves, 'C', &[(x1, mid), (x2, mid), (x2, y2)]);
        // The curve's direction at its end: from its last control point,
        // or (a flat edge) from its start.
        let (mut dx, mut dy) = (0.0, y2 - mid);
        if dy == 0.0 {
            (dx, dy) = (x2 - x1, y2 - y1);
        }
        let length = dx.hypot(dy);
        let (ux, uy) = if length > 0.0 {
            (dx / length, dy / length)
        } else {
            (0.0, 1.0)
        };
        let (bx, by) = (x2 - ux * ARROW_LENGTH, y2 - uy * ARROW_LENGTH);
        let (px, py) = (-uy * ARROW_HALF_WIDTH, ux * ARROW_HALF_WIDTH);
        push_command(&mut heads, 'M', &[(bx + px, by + py)]);
        heads.push(' ');
        push_command(&mut heads, 'L', &[(x2, y2)]);
        heads.push(' ');
        push_command(&mut heads, 'L', &[(bx - px, by - py)]);
        heads.push('z');
    }
    (curves, heads)
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

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::{Event, EventKind, GraphState};

    #[test]
    fn edges_draw_as_one_path_with_heads_at_their_ends() {
        let (curves, heads) = edge_paths(&[[10.0, 20.0, 50.0, 100.0], [0.0, 0.0, 0.0, 40.0]]);
        assert_eq!(
            curves,
            "M10.0,20.0 C10.0,60.0 50.0,60.0 50.0,100.0M0.0,0.0 C0.0,20.0 0.0,20.0 0.0,40.0"
        );
        // Each head points down its edge's last tangent: tip at the end,
        // base ARROW_LENGTH above it.
        assert_eq!(
            heads,
            "M45.5,90.9 L50.0,100.0 L54.6,90.9zM-4.6,30.9 L0.0,40.0 L4.6,30.9z"
        );
        // A flat edge's head points along the edge.
        let (_, flat) = edge_paths(&[[0.0, 5.02, 100.0, 5.02]]);
        assert_eq!(flat, "M90.9,9.6 L100.0,5.0 L90.9,0.5z");
    }

    fn created(node: NodeId, next: &[NodeId]) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: "MulBackward0".into(),
            sequence_nr: node,
            next: next.iter().map(|&n| Some(n)).collect(),
            saved: vec![],
            leaf: None,
        }
    }

    fn laid(kinds: Vec<EventKind>) -> GraphLayout {
        GraphLayout::of(&GraphState::at(&Event::numbered(kinds)))
    }

    #[test]
    fn slots_are_row_and_column_so_a_same_shaped_graph_keeps_its_keys() {
        // 3 -> {1, 2}: one row of one node over a row of two.
        let first = laid(vec![created(1, &[]), created(2, &[]), created(3, &[1, 2])]);
        let keys: Vec<u64> = slots(&first).collect();
        assert_eq!(keys, vec![0, 1 << 32, (1 << 32) | 1]);
        // The next step's graph: new ids, the same shape, the same keys.
        let next = laid(vec![created(7, &[]), created(8, &[]), created(9, &[7, 8])]);
        assert_eq!(slots(&next).collect::<Vec<_>>(), keys);
        assert_eq!(Edges::of(&first.edges), Edges::of(&next.edges));
    }
}
