//! One node of the graph (its box, name and what it holds), and the boxes
//! and frames of `nn.Module` groups.

use gradscope_trace::group::GroupKey;
use gradscope_trace::layout::{FRAME_HEADER, LaidFrame, NODE_HEIGHT, NODE_WIDTH};
use gradscope_trace::memory_chart::bytes_label;
use gradscope_trace::svg::tenths;
use gradscope_trace::{NodePhase, NodeView};
use yew::prelude::*;

use super::graph_panel::phase_class;

/// A node box's size and the middle of its texts, as attributes: fixed
/// strings, so a redrawn box compares them without writing them again.
const BOX_WIDTH: &str = "150";
const BOX_HEIGHT: &str = "36";
const BOX_CENTRE: &str = "75";

/// About how many characters of 10 px monospace fit on a box's second
/// line, between its 6-unit margins.
const LINE_CHARS: usize = 23;

/// `label` in at most `room` characters: whole, or its tail after `…`,
/// cut at the first dot that leaves a tail that fits (`…fc1.weight`),
/// else at a character.
fn shorten(label: &str, room: usize) -> String {
    let n = label.chars().count();
    if n <= room {
        return label.to_string();
    }
    let at_dot = label
        .char_indices()
        .filter(|&(_, c)| c == '.')
        .map(|(i, _)| &label[i + 1..])
        .find(|tail| !tail.is_empty() && tail.chars().count() < room);
    match at_dot {
        Some(tail) => format!("…{tail}"),
        None => {
            let kept: String = label.chars().skip(n + 1 - room).collect();
            format!("…{kept}")
        }
    }
}

/// What the box shows of a node, owned so it can be a prop.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDetails {
    pub name: String,
    /// The program's name for what the node made (`y`), or the statement
    /// that raised for a failed operation.
    pub label: Option<String>,
    /// The exception at a failed operation or where backward stopped.
    pub error: Option<String>,
    pub phase: NodePhase,
    pub saved_bytes: u64,
    /// `name shape dtype bytes` of each saved tensor.
    pub saved: Vec<String>,
    pub ran: bool,
    pub grad_accumulations: Option<u32>,
}

impl NodeDetails {
    pub fn of(view: &NodeView<'_>) -> Self {
        Self {
            name: view.node.name.clone(),
            label: view.node.label.clone(),
            error: view.node.error.clone(),
            phase: view.phase,
            saved_bytes: view.saved_bytes,
            saved: view
                .node
                .saved
                .iter()
                .map(|s| {
                    let dtype = if s.dtype.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", s.dtype)
                    };
                    format!("{} {:?}{dtype} {}", s.name, s.shape, bytes_label(s.bytes))
                })
                .collect(),
            ran: view.ran,
            grad_accumulations: view.grad_accumulations,
        }
    }

    /// The state on the box's second line (the program's name for the
    /// node's tensor sits at its left, see [`NodeDetails::second_line`]).
    fn status(&self) -> String {
        if self.error.is_some() {
            "raised here".to_string()
        } else {
            self.state()
        }
    }

    /// The state in fewer characters, for a box whose name would not fit
    /// beside [`NodeDetails::status`]: `.grad ×3` for `.grad summed ×3`,
    /// `freed` for `ran, saved freed`, the bytes alone for `saved 2 KiB`.
    /// The box's tooltip, its description and the details line keep the
    /// whole status.
    fn short_status(&self) -> String {
        if self.error.is_some() {
            return self.status();
        }
        match (self.phase, self.grad_accumulations) {
            (_, Some(n)) if n > 1 => format!(".grad ×{n}"),
            (NodePhase::Holding | NodePhase::Running, None) => bytes_label(self.saved_bytes),
            (NodePhase::Freed, None) => "freed".into(),
            _ => self.state(),
        }
    }

    /// The box's second line: the program's name at its left, the state at
    /// its right, in [`LINE_CHARS`] characters. A name that does not fit
    /// beside the whole state gets the short state first
    /// (`model.fc1.weight` keeps its room beside `.grad ×3`), and then
    /// loses its head at a dot (`…fc1.weight`), or, with no dot that
    /// fits, characters (`…activations`).
    fn second_line(&self) -> (Option<String>, String) {
        let status = self.status();
        let Some(label) = &self.label else {
            return (None, status);
        };
        // A space between name and state, except before `.grad`: the name
        // of a leaf reads on into its gradient (`w.grad set`).
        let width = |s: &str| s.chars().count() + usize::from(!s.starts_with('.'));
        if label.chars().count() + width(&status) <= LINE_CHARS {
            return (Some(label.clone()), status);
        }
        let status = self.short_status();
        let room = LINE_CHARS.saturating_sub(width(&status)).max(4);
        (Some(shorten(label, room)), status)
    }

    /// The box's tooltip: its whole name and state, however the box
    /// shortened them; the error at a failed operation.
    fn tooltip(&self) -> Option<String> {
        match (&self.error, &self.label) {
            (Some(error), _) => Some(error.clone()),
            (None, Some(label)) => Some(format!("{label}: {}", self.status())),
            (None, None) => None,
        }
    }

    fn state(&self) -> String {
        match (self.phase, self.grad_accumulations) {
            (_, Some(0)) => ".grad None".into(),
            (_, Some(1)) => ".grad set".into(),
            (_, Some(n)) => format!(".grad summed ×{n}"),
            (NodePhase::Holding | NodePhase::Running, None) => {
                format!("saved {}", bytes_label(self.saved_bytes))
            }
            (NodePhase::Freed, None) if self.saved.is_empty() => "ran, freed".into(),
            (NodePhase::Freed, None) => "ran, saved freed".into(),
            (NodePhase::Alive, None) if self.ran => "ran".into(),
            (NodePhase::Alive, None) => "saves nothing".into(),
        }
    }

    /// A sentence for the details line and for assistive technology.
    pub fn describe(&self) -> String {
        let saved = if self.saved.is_empty() {
            "saves nothing".to_string()
        } else {
            format!("saved: {}", self.saved.join(", "))
        };
        let error = self
            .error
            .as_ref()
            .map(|e| format!("; {}", e.replace('\n', "; ")))
            .unwrap_or_default();
        format!(
            "{}: {}; {}; {}{}{error}",
            self.name,
            self.phase.label(),
            self.status(),
            saved,
            self.label
                .as_ref()
                .map(|l| format!("; the program calls it {l}"))
                .unwrap_or_default(),
        )
    }
}

/// Props of [`GraphNodeBox`]. The node's id is not one: a training loop
/// draws a graph of the same shape each step with new ids, and a box that
/// shows the same thing in the same place is not drawn again.
#[derive(Properties, PartialEq)]
pub struct Props {
    /// Where the box is in the view (see `graph_panel::slots`).
    pub slot: u64,
    pub x: f64,
    pub y: f64,
    /// What the box shows; `None`: a spare box, hidden until its slot is
    /// drawn again (see `graph_panel::boxes`).
    pub view: Option<NodeDetails>,
    /// Called with `slot`, which the panel maps to the node drawn there
    /// now; the same callback for every node.
    pub onselect: Callback<u64>,
}

/// A rounded box in the phase's colours, focusable, selected by click or Enter.
/// A spare box keeps its elements and what it showed last, hidden: making
/// it spare, or drawing a node in it again, changes an attribute or two
/// instead of removing and making its elements.
#[function_component]
pub fn GraphNodeBox(props: &Props) -> Html {
    let last = use_mut_ref(|| None::<(f64, f64, NodeDetails)>);
    if let Some(view) = &props.view {
        *last.borrow_mut() = Some((props.x, props.y, view.clone()));
    }
    let last = last.borrow().clone();
    // A box made ahead (see `BoxPool::reserve`) has drawn nothing yet: it
    // is drawn spare with the same elements, its texts empty, so drawing a
    // node in it later only sets attributes and text.
    let spare = props.view.is_none() || last.is_none();
    let (x, y, view) = match &last {
        Some((x, y, view)) => (*x, *y, Some(view)),
        None => (0.0, 0.0, None),
    };
    let slot = props.slot;
    let onclick = props.onselect.reform(move |_: MouseEvent| slot);
    let select = props.onselect.clone();
    let onkeydown = move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            select.emit(slot);
        }
    };
    let class = match view {
        Some(view) if !spare => classes!(
            "node",
            phase_class(view.phase),
            view.error.is_some().then_some("failed")
        ),
        _ => classes!("spare"),
    };
    let failed = view.is_some_and(|v| v.error.is_some()) && !spare;
    let (label, status) = view
        .map(NodeDetails::second_line)
        .unwrap_or((None, String::new()));
    // Placed by one transform, its parts at fixed places inside it: when a
    // node joins the layout and the others shift, each box changes one
    // attribute, not the six coordinates of its rectangle and texts.
    html! {
        <g {class} display={spare.then_some("none")} aria-hidden={spare.then_some("true")}
           transform={format!("translate({},{})", tenths(x), tenths(y))}
           data-node={view.map(|v| v.name.clone())} data-phase={view.map(|v| phase_class(v.phase))}
           tabindex={view.map(|_| "0")} role={view.map(|_| "button")}
           aria-label={view.map(NodeDetails::describe)} {onclick} {onkeydown}>
            <rect width={BOX_WIDTH} height={BOX_HEIGHT} rx="6"
                  style={failed.then_some("stroke:#c62828;stroke-width:2.5;fill:#fde0e0")} />
            if let Some(tooltip) = view.and_then(NodeDetails::tooltip).filter(|_| !spare) {
                <title>{ tooltip }</title>
            }
            <text x={BOX_CENTRE} y="15" class="name">{ view.map(|v| v.name.clone()).unwrap_or_default() }</text>
            if let Some(label) = label {
                <text x="6" y="29" class="label"
                      style="text-anchor:start;font-size:10px;font-style:italic;fill:#1a4d8f">{ label }</text>
                <text x="144" y="29" class="status" style="text-anchor:end">{ status.clone() }</text>
            } else {
                <text x={BOX_CENTRE} y="29" class="status">{ status.clone() }</text>
            }
        </g>
    }
}

/// What a collapsed module group's box shows: its nodes summed up.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupDetails {
    /// `fc1 (Linear)`.
    pub label: String,
    pub nodes: usize,
    /// The liveliest of its nodes' phases: running, then holding, then
    /// alive; freed only when every node is.
    pub phase: NodePhase,
    pub saved_bytes: u64,
}

impl GroupDetails {
    /// The summary of `views`, the group's nodes.
    pub fn of<'a>(label: String, views: impl IntoIterator<Item = NodeView<'a>>) -> Self {
        let (mut nodes, mut saved_bytes, mut phases) = (0, 0, [false; 4]);
        for view in views {
            nodes += 1;
            saved_bytes += view.saved_bytes;
            phases[NodePhase::ALL
                .iter()
                .position(|p| *p == view.phase)
                .unwrap_or(0)] = true;
        }
        let phase = match phases {
            [_, _, true, _] => NodePhase::Running,
            [_, true, _, _] => NodePhase::Holding,
            [true, _, _, _] => NodePhase::Alive,
            _ if nodes > 0 => NodePhase::Freed,
            _ => NodePhase::Alive,
        };
        Self {
            label,
            nodes,
            phase,
            saved_bytes,
        }
    }

    fn status(&self) -> String {
        match self.phase {
            NodePhase::Freed => format!("{} nodes · freed", self.nodes),
            _ if self.saved_bytes > 0 => {
                format!("{} nodes · {}", self.nodes, bytes_label(self.saved_bytes))
            }
            _ => format!("{} nodes", self.nodes),
        }
    }
}

/// Props of [`GroupBox`].
#[derive(Properties, PartialEq)]
pub struct GroupProps {
    pub group: GroupKey,
    pub x: f64,
    pub y: f64,
    pub view: GroupDetails,
    /// Called with the group and whether it is open now (here, never).
    pub ontoggle: Callback<(GroupKey, bool)>,
}

/// The inline colours of a phase (the page's stylesheet styles `.node`).
fn phase_style(phase: NodePhase) -> &'static str {
    match phase {
        NodePhase::Alive => "fill:#e3f0fa;stroke:var(--blue,#0072b2);stroke-width:2",
        NodePhase::Holding => "fill:#fcebc4;stroke:var(--orange,#e69f00);stroke-width:2.5",
        NodePhase::Running => "fill:#f8d3bf;stroke:var(--vermillion,#d55e00);stroke-width:3.5",
        NodePhase::Freed => {
            "fill:#f1f1f1;stroke:var(--grey,#999);stroke-width:2;stroke-dasharray:4 3"
        }
    }
}

const TEXT: &str = "ui-monospace, 'DejaVu Sans Mono', monospace";

/// Enter, space or a click calls `ontoggle` with (`group`, `open`).
fn toggle_handlers(
    ontoggle: &Callback<(GroupKey, bool)>,
    group: &GroupKey,
    open: bool,
) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let (toggle, key) = (ontoggle.clone(), group.clone());
    let onclick = Callback::from(move |_: MouseEvent| toggle.emit((key.clone(), open)));
    let (toggle, key) = (ontoggle.clone(), group.clone());
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            toggle.emit((key.clone(), open));
        }
    });
    (onclick, onkeydown)
}

/// A collapsed module group: one box, drawn as a stack, that opens on
/// click or Enter.
#[function_component]
pub fn GroupBox(props: &GroupProps) -> Html {
    let GroupProps { x, y, view, .. } = props;
    let (onclick, onkeydown) = toggle_handlers(&props.ontoggle, &props.group, false);
    let cx = x + NODE_WIDTH / 2.0;
    let label = format!(
        "module {}: {}, collapsed; Enter shows its nodes",
        view.label,
        view.status()
    );
    html! {
        <g class={classes!("group", phase_class(view.phase))} data-group={view.label.clone()}
           data-nodes={view.nodes.to_string()} data-open="false" tabindex="0" role="button"
           aria-expanded="false" aria-label={label} {onclick} {onkeydown}>
            <title>{ view.label.clone() }</title>
            <rect x={tenths(x + 4.0)} y={tenths(y - 4.0)} width={tenths(NODE_WIDTH)}
                  height={tenths(NODE_HEIGHT)} rx="6" style={phase_style(view.phase)} />
            <rect x={tenths(*x)} y={tenths(*y)} width={tenths(NODE_WIDTH)}
                  height={tenths(NODE_HEIGHT)} rx="6" style={phase_style(view.phase)} />
            <text x={tenths(cx)} y={tenths(y + 15.0)} text-anchor="middle" font-family={TEXT}
                  font-size="12" font-weight="600">{ format!("▸ {}", view.label) }</text>
            <text x={tenths(cx)} y={tenths(y + 29.0)} text-anchor="middle" font-family={TEXT}
                  font-size="10" fill="#555">{ view.status() }</text>
        </g>
    }
}

/// Props of [`GroupFrame`].
#[derive(Properties, PartialEq)]
pub struct FrameProps {
    pub frame: LaidFrame,
    pub ontoggle: Callback<(GroupKey, bool)>,
}

/// An open module group: a dashed frame around its nodes, its header a
/// button that collapses it.
#[function_component]
pub fn GroupFrame(props: &FrameProps) -> Html {
    let f = &props.frame;
    let (onclick, onkeydown) = toggle_handlers(&props.ontoggle, &f.key, true);
    let text = format!("▾ {} · {} nodes", f.label, f.nodes);
    // About 6.6 units a character at 11px monospace.
    let header = (text.chars().count() as f64 * 6.6 + 12.0).min(f.width);
    let label = format!(
        "module {}: {} nodes, open; Enter collapses it",
        f.label, f.nodes
    );
    html! {
        <g class="group-frame" data-group={f.label.clone()} data-open="true">
            <rect x={tenths(f.x)} y={tenths(f.y)} width={tenths(f.width)}
                  height={tenths(f.height)} rx="8" pointer-events="none"
                  style="fill:rgba(0,114,178,0.03);stroke:#6b8fa8;stroke-width:1;stroke-dasharray:5 3" />
            <g class="group-header" tabindex="0" role="button" aria-expanded="true"
               aria-label={label} {onclick} {onkeydown} style="cursor:pointer">
                <rect x={tenths(f.x)} y={tenths(f.y)} width={tenths(header)}
                      height={tenths(FRAME_HEADER)} rx="4" style="fill:#dde8f0;stroke:#6b8fa8;stroke-width:1" />
                <text x={tenths(f.x + 6.0)} y={tenths(f.y + 12.0)} font-family={TEXT}
                      font-size="11" fill="#234">{ text }</text>
            </g>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gradscope_trace::{Event, EventKind, GraphAt, NodeId, SavedInfo};

    fn graph(kinds: Vec<EventKind>) -> GraphAt {
        GraphAt::of(&Event::numbered(kinds))
    }

    fn created(node: NodeId, bytes: u64) -> EventKind {
        EventKind::NodeCreated {
            node,
            name: "MulBackward0".into(),
            sequence_nr: node,
            next: vec![],
            saved: (bytes > 0)
                .then(|| SavedInfo {
                    name: "self".into(),
                    shape: vec![2],
                    storage: node,
                    bytes,
                    deferred: false,
                    ..SavedInfo::default()
                })
                .into_iter()
                .collect(),
            leaf: None,
        }
    }

    fn summary(graph: &GraphAt) -> GroupDetails {
        let views = graph.graph.nodes.keys().filter_map(|&id| graph.view(id));
        GroupDetails::of("fc1 (Linear)".into(), views)
    }

    #[test]
    fn box_attributes_match_the_layout() {
        let number = |s: &str| s.parse::<f64>().unwrap();
        assert_eq!(number(BOX_WIDTH), NODE_WIDTH);
        assert_eq!(number(BOX_HEIGHT), NODE_HEIGHT);
        assert_eq!(number(BOX_CENTRE), NODE_WIDTH / 2.0);
    }

    fn details(label: &str, phase: NodePhase, grads: Option<u32>) -> NodeDetails {
        NodeDetails {
            name: "AccumulateGrad".into(),
            label: Some(label.into()),
            error: None,
            phase,
            saved_bytes: 0,
            saved: vec!["self [2] 8 B".into()],
            ran: true,
            grad_accumulations: grads,
        }
    }

    fn line(d: &NodeDetails) -> (String, String) {
        let (label, status) = d.second_line();
        (label.unwrap_or_default(), status)
    }

    #[test]
    fn a_name_that_fits_keeps_the_whole_status() {
        let loss = details("loss", NodePhase::Freed, None);
        assert_eq!(line(&loss), ("loss".into(), "ran, saved freed".into()));
        let leaf = details("model.0.weight", NodePhase::Alive, Some(1));
        assert_eq!(line(&leaf), ("model.0.weight".into(), ".grad set".into()));
        let long = details("model.fc1.weight", NodePhase::Alive, Some(1));
        assert_eq!(line(&long), ("…fc1.weight".into(), ".grad set".into()));
    }

    #[test]
    fn a_long_name_shortens_the_status_before_itself() {
        // A training loop's third step: `.grad summed ×3` and the
        // parameter's name are 30 characters; the box holds 23.
        let weight = details("model.0.weight", NodePhase::Alive, Some(3));
        assert_eq!(line(&weight), ("model.0.weight".into(), ".grad ×3".into()));
        let fc1 = details("model.fc1.weight", NodePhase::Alive, Some(3));
        assert_eq!(line(&fc1), ("…fc1.weight".into(), ".grad ×3".into()));
        let freed = details("hidden_activations_2", NodePhase::Freed, None);
        assert_eq!(line(&freed), ("…en_activations_2".into(), "freed".into()));
        for d in [weight, fc1, freed] {
            let (label, status) = line(&d);
            let space = usize::from(!status.starts_with('.'));
            assert!(label.chars().count() + space + status.chars().count() <= LINE_CHARS);
            // The tooltip and the description keep the whole of both.
            let whole = format!("{}: {}", d.label.clone().unwrap_or_default(), d.status());
            assert_eq!(d.tooltip(), Some(whole));
            assert!(d.describe().contains(&d.status()));
        }
    }

    #[test]
    fn shorten_cuts_at_the_first_dot_that_fits() {
        assert_eq!(shorten("model.encoder.layers.0.weight", 12), "…0.weight");
        assert_eq!(
            shorten("model.encoder.layers.0.weight", 20),
            "…layers.0.weight"
        );
        assert_eq!(shorten("a.b", 3), "a.b");
        assert_eq!(shorten("abcdefgh", 4), "…fgh");
    }

    #[test]
    fn group_details_take_the_liveliest_phase() {
        let mut kinds = vec![created(1, 0), created(2, 8)];
        let held = summary(&graph(kinds.clone()));
        assert_eq!(
            (held.nodes, held.phase, held.saved_bytes),
            (2, NodePhase::Holding, 8)
        );
        assert_eq!(held.status(), "2 nodes · 8 B");
        kinds.push(EventKind::BackwardBegan {
            root: 2,
            retain_graph: false,
        });
        kinds.push(EventKind::NodeExecuted { node: 2 });
        assert_eq!(summary(&graph(kinds.clone())).phase, NodePhase::Running);
        kinds.push(EventKind::SavedReleased { node: 2 });
        kinds.push(EventKind::NodeExecuted { node: 1 });
        kinds.push(EventKind::SavedReleased { node: 1 });
        kinds.push(EventKind::BackwardEnded);
        let freed = summary(&graph(kinds));
        assert_eq!(freed.phase, NodePhase::Freed);
        assert_eq!(freed.status(), "2 nodes · freed");
    }
}
