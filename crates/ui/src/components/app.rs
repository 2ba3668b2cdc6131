//! The page: editor and console on one side, graph and memory on the other,
//! the transport between, the device menu on top.

use gradscope_trace::protocol::{Device, EXAMPLE, WebGpu};
use yew::prelude::*;

use super::console_panel::ConsolePanel;
use super::device_menu::DeviceMenu;
use super::editor::Editor;
use super::graph_panel::GraphPanel;
use super::memory_panel::MemoryPanel;
use super::transport::Transport;
use crate::state::{Action, Engine, Run, State};
use crate::storage::{self, use_saved_settings};
use crate::worker::use_engine;

/// The whole page.
#[function_component]
pub fn App() -> Html {
    let state = use_reducer(|| {
        let (source, device) = storage::load();
        State::new(source, device)
    });
    let engine = use_engine(state.dispatcher());
    use_saved_settings(&state);

    let device = match (&state.device, &state.webgpu) {
        (Device::Webgpu, Some(WebGpu::Available { .. })) => Device::Webgpu,
        _ => Device::Cpu,
    };
    let on_run = {
        let (engine, source) = (engine.clone(), state.source.clone());
        Callback::from(move |()| engine.run(&source, device))
    };
    let on_stop = {
        let engine = engine.clone();
        Callback::from(move |()| engine.stop())
    };
    let dispatch = state.dispatcher().to_callback();
    let on_edit = dispatch.reform(|source| Action::Edited {
        source,
        external: false,
    });
    let on_reset = dispatch.reform(|()| Action::Edited {
        source: EXAMPLE.into(),
        external: true,
    });
    let running = state.run == Run::Running;
    let playback = &state.playback;
    let position = playback.position();
    let current_line = if playback.is_live() {
        None
    } else {
        playback.line()
    };
    let status = match (&state.engine, &state.run) {
        (Engine::Failed(message), _) => format!("engine failed: {message}"),
        (Engine::Loading, Run::Running) | (Engine::Loading, Run::Idle) => "loading engine".into(),
        (_, Run::Running) => "running".into(),
        (_, Run::Finished) => "finished".into(),
        (_, Run::Raised { kind, .. }) => format!("raised {kind}"),
        (_, Run::Stopped) => "stopped".into(),
        (Engine::Ready { startup_ms }, Run::Idle) => {
            format!("ready (Python started in {startup_ms:.0} ms)")
        }
    };
    html! {
        <>
            <header class="top">
                <h1>{ "gradscope" }</h1>
                <p class="tagline">{ "see what autograd really does" }</p>
                <DeviceMenu device={state.device} webgpu={state.webgpu.clone()}
                            on_change={dispatch.reform(Action::SetDevice)} />
                <span class="status" data-testid="status" role="status">{ status }</span>
            </header>
            <section class="panel editor" aria-label="Program">
                <Editor source={AttrValue::from(state.source.to_string())}
                        source_version={state.source_version} error_line={state.error_line()}
                        {current_line} on_change={on_edit} on_run={on_run.clone()} />
            </section>
            <Transport {running} can_run={!matches!(state.engine, Engine::Failed(_))}
                       {position} len={playback.log().len()} line={playback.line()}
                       {on_run} {on_stop} {on_reset}
                       on_step={dispatch.reform(|(by, forward)| Action::Step(by, forward))}
                       on_seek={dispatch.reform(Action::Seek)} />
            <GraphPanel graph={playback.graph().clone()} />
            <MemoryPanel log={playback.log().clone()} {position} axis={state.axis}
                         on_axis={dispatch.reform(Action::SetAxis)} />
            <ConsolePanel output={state.output.clone()} run={state.run.clone()} />
        </>
    }
}
