//! One node of the graph: its box, name and what it holds.

use gradscope_trace::chart::bytes_label;
use gradscope_trace::layout::{NODE_HEIGHT, NODE_WIDTH};
use gradscope_trace::{NodeId, NodePhase, NodeView};
use yew::prelude::*;

use super::graph_panel::phase_class;

/// What the box shows of a node, owned so it can be a prop.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDetails {
    pub name: String,
    pub phase: NodePhase,
    pub saved_bytes: u64,
    /// `name shape bytes` of each saved tensor.
    pub saved: Vec<String>,
    pub ran: bool,
    pub grad_accumulations: Option<u32>,
}

impl NodeDetails {
    pub fn of(view: &NodeView<'_>) -> Self {
        Self {
            name: view.node.name.clone(),
            phase: view.phase,
            saved_bytes: view.saved_bytes,
            saved: view
                .node
                .saved
                .iter()
                .map(|s| format!("{} {:?} {}", s.name, s.shape, bytes_label(s.bytes)))
                .collect(),
            ran: view.ran,
            grad_accumulations: view.grad_accumulations,
        }
    }

    /// The short second line in the box.
    fn status(&self) -> String {
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
        format!(
            "{}: {}; {}; {}",
            self.name,
            self.phase.label(),
            self.status(),
            saved
        )
    }
}

/// Props of [`GraphNodeBox`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub id: NodeId,
    pub x: f64,
    pub y: f64,
    pub view: NodeDetails,
    /// Called with `id`; the same callback for every node, so a node whose
    /// box did not change is not drawn again.
    pub onselect: Callback<NodeId>,
}

/// A rounded box in the phase's colours, focusable, selected by click or Enter.
#[function_component]
pub fn GraphNodeBox(props: &Props) -> Html {
    let Props { id, x, y, view, .. } = props;
    let id = *id;
    let cx = x + NODE_WIDTH / 2.0;
    let onclick = props.onselect.reform(move |_: MouseEvent| id);
    let select = props.onselect.clone();
    let onkeydown = move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            select.emit(id);
        }
    };
    html! {
        <g class={classes!("node", phase_class(view.phase))} data-node={view.name.clone()}
           data-phase={phase_class(view.phase)} tabindex="0" role="button"
           aria-label={view.describe()} {onclick} {onkeydown}>
            <rect x={x.to_string()} y={y.to_string()} width={NODE_WIDTH.to_string()}
                  height={NODE_HEIGHT.to_string()} rx="6" />
            <text x={cx.to_string()} y={(y + 15.0).to_string()} class="name">{ view.name.clone() }</text>
            <text x={cx.to_string()} y={(y + 29.0).to_string()} class="status">{ view.status() }</text>
        </g>
    }
}
