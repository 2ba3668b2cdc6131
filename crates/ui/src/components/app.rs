//! The page: program, result, device and graph.

use yew::prelude::*;

use super::device_panel::DevicePanel;
use super::graph_view::GraphView;
use super::result_panel::ResultPanel;
use crate::state::State;
use crate::worker::use_engine_worker;

const PROGRAM: &str = "\
import torch
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
print(out, x.grad)";

/// The whole page.
#[function_component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    use_engine_worker(state.clone());
    let status = if state.error.is_some() {
        "error"
    } else if state.cpu.is_some() {
        "done"
    } else if state.worker_ready {
        "running"
    } else {
        "loading engine"
    };
    html! {
        <>
            <header>
                <h1>{ "gradscope" }</h1>
                <p class="tagline">{ "see what autograd really does" }</p>
                <span class="status" data-testid="status">{ status }</span>
            </header>
            <section class="program">
                <h2>{ "Program" }</h2>
                <pre><code>{ PROGRAM }</code></pre>
            </section>
            <ResultPanel cpu={state.cpu.clone()} error={state.error.clone()} />
            <DevicePanel gpu={state.gpu.clone()} />
            <GraphView layout={state.layout.clone()} events={state.events.len()} />
        </>
    }
}
