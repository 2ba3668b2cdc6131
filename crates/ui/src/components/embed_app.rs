//! The embeddable widget (`embed.html`): the playground's views for one
//! lesson or one program, in a frame on someone else's page. It keeps
//! nothing in `localStorage`, so two widgets, and the playground, never
//! overwrite each other's code.

use std::rc::Rc;

use gradscope_trace::protocol::{Device, WebGpu};
use yew::prelude::*;

use super::charts_panel::ChartsPanel;
use super::console_panel::ConsolePanel;
use super::device_menu::DeviceMenu;
use super::editor::Editor;
use super::graph_panel::GraphPanel;
use super::lesson_panel::LessonPanel;
use super::memory_panel::MemoryPanel;
use super::share_bar::{OpenInPage, PinnedNote};
use super::transport::Transport;
use crate::embed::{Checked, Config, Program};
use crate::frame::FontWarmup;
use crate::share::PinnedProgram;
use crate::state::{Action, Engine, Pair, Run, State};
use crate::views::use_views;
use crate::worker::use_engine;

/// Props of [`EmbedApp`].
#[derive(Properties, PartialEq)]
pub struct Props {
    /// The settings `embed.js` handed over, or why they could not be read.
    pub config: Rc<Result<Config, String>>,
}

/// The widget, or the reason it cannot be shown.
#[function_component]
pub fn EmbedApp(props: &Props) -> Html {
    match props.config.as_ref().clone().and_then(|c| c.check()) {
        Ok(checked) => html! { <Widget config={Rc::new(checked)} /> },
        Err(message) => html! { <EmbedError {message} /> },
    }
}

/// Props of [`EmbedError`].
#[derive(Properties, PartialEq)]
pub struct ErrorProps {
    pub message: String,
}

/// What is wrong with the widget's settings, where the widget would be.
#[function_component]
pub fn EmbedError(props: &ErrorProps) -> Html {
    html! {
        <div class="embed-error" role="alert" data-testid="widget-error">
            <strong>{ "This gradscope widget cannot start: " }</strong>{ props.message.clone() }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct WidgetProps {
    config: Rc<Checked>,
}

#[function_component]
fn Widget(props: &WidgetProps) -> Html {
    let config = props.config.clone();
    let state = use_reducer({
        let config = config.clone();
        move || {
            let mut state = State::new(config.source.clone(), config.device);
            if let Program::Lesson(lesson) = config.program {
                state.lesson = Some(lesson.slug);
            }
            // A pinned pair from the host: Run runs the pinned program
            // first, as a share link's pair does.
            if let Some((pinned, _)) = &config.pinned {
                state.pair = Pair::Opened(Rc::new(pinned.clone()));
            }
            state
        }
    });
    let engine = use_engine(state.dispatcher());
    let webgpu = matches!(state.webgpu, Some(WebGpu::Available { .. }));
    let usable = move |asked: Device| match asked {
        Device::WebGpu if webgpu => Device::WebGpu,
        _ => Device::Cpu,
    };
    let device = usable(state.device);
    let lesson = match config.program {
        Program::Lesson(lesson) => Some(lesson),
        Program::Inline => None,
    };
    // Claims are checked only where the lesson's panel shows them.
    let check_claims = config.show.lesson;
    // The program as it runs now, noted for the pin (see `pin::ran`).
    let current = PinnedProgram {
        code: state.source.to_string(),
        device: state.device,
        budget_mib: None,
        files: config.files.clone(),
    };
    let run_current = {
        let (engine, current) = (engine.clone(), current.clone());
        Callback::from(move |()| {
            crate::pin::ran(current.clone());
            engine.run(&current.code, &current.files, device, None);
            if let (Some(lesson), true) = (lesson, check_claims) {
                engine.check_lesson(lesson.slug, device);
            }
        })
    };
    let on_run = {
        let (engine, dispatch, run_current) =
            (engine.clone(), state.dispatcher(), run_current.clone());
        let waiting = match &state.pair {
            Pair::Opened(p) => Some(p.clone()),
            _ => None,
        };
        Callback::from(move |()| match &waiting {
            Some(pinned) => {
                dispatch.dispatch(Action::RunPair);
                crate::pin::ran((**pinned).clone());
                engine.run(&pinned.code, &pinned.files, usable(pinned.device), None);
            }
            None => run_current.emit(()),
        })
    };
    // The pinned program's run ended: pin it, and run the code beside it.
    {
        let (dispatch, log) = (state.dispatcher(), state.playback.log().clone());
        let ended = state.pair.ended(&state.run).is_some();
        use_effect_with(ended, move |ended| {
            if *ended {
                crate::pin::pin(&log);
                run_current.emit(());
                dispatch.dispatch(Action::PairPinned);
            }
        });
    }
    // A run asked for before the app loaded (Run in the first view, or the
    // host's autorun of a lesson) starts once the engine is ready and, when
    // WebGPU may be used, once the worker has probed for an adapter.
    let pending = use_mut_ref(|| config.run_at_once);
    {
        let ready = matches!(state.engine, Engine::Ready { .. });
        let probed = state.webgpu.is_some() || !config.wants_gpu;
        let (pending, on_run) = (pending.clone(), on_run.clone());
        use_effect_with((ready, probed), move |&(ready, probed)| {
            if ready && probed && pending.replace(false) {
                on_run.emit(());
            }
        });
    }
    let on_control = {
        let (engine, source, dispatch) = (engine.clone(), state.source.clone(), state.dispatcher());
        let state_device = state.device;
        Callback::from(move |(name, value)| {
            let Some(lesson) = lesson else { return };
            if let Ok(next) = lesson.set_controls_in(&source, &[(name, value)]) {
                crate::pin::ran(PinnedProgram {
                    code: next.clone(),
                    device: state_device,
                    budget_mib: None,
                    files: Vec::new(),
                });
                engine.run(&next, &[], device, None);
                if check_claims {
                    engine.check_lesson(lesson.slug, device);
                }
                dispatch.dispatch(Action::Edited {
                    source: next,
                    external: true,
                });
            }
        })
    };
    let on_stop = {
        let engine = engine.clone();
        Callback::from(move |()| engine.stop())
    };
    let dispatch = state.dispatcher().to_callback();
    // Made once: a new callback each render made the graph panel's props
    // differ every frame of a run, and it re-rendered with nothing new.
    let on_graph_seek = {
        let dispatch = state.dispatcher();
        use_callback((), move |position, ()| {
            dispatch.dispatch(Action::Seek(position))
        })
    };
    let on_edit = dispatch.reform(|source| Action::Edited {
        source,
        external: false,
    });
    let original = config.source.clone();
    let on_reset = dispatch.reform(move |()| Action::Edited {
        source: original.clone(),
        external: true,
    });
    let show = config.show;
    let playback = &state.playback;
    let position = playback.position();
    let running = state.run == Run::Running;
    // The graph and the memory timeline take the trace as the page's do
    // (see `views`): paced, in turn, in idle periods.
    // The charts take a turn only where they are shown.
    let (views, catching_up) = use_views(playback, running, 2 + usize::from(show.charts));
    let mut views = views.into_iter();
    let (graph_view, memory_view) = (
        views.next().unwrap_or_default(),
        views.next().unwrap_or_default(),
    );
    let charts_view = views.next().unwrap_or_default();
    let status = state.status_line(catching_up);
    let current_line = if playback.is_live() {
        None
    } else {
        playback.line()
    };
    let title = match lesson {
        Some(l) => format!("Lesson {} · {}", l.number, l.title),
        None => "gradscope".to_string(),
    };
    let pinned_note = config
        .pinned
        .as_ref()
        .filter(|_| state.pair.program().is_some())
        .map(|(_, shown)| {
            html! {
                <PinnedNote code={AttrValue::from(shown.clone())} from="the widget"
                            running={matches!(state.pair, Pair::Running(_))}
                            on_drop={dispatch.reform(|()| Action::DropPair)} />
            }
        });
    html! {
        <>
            <header class="top">
                <h1 class="title" data-testid="title">{ title }</h1>
                <OpenInPage config={config.clone()} source={state.source.clone()} device={state.device}
                            waiting={state.pair.program().cloned()} />
                <DeviceMenu device={state.device} webgpu={state.webgpu.clone()}
                            on_change={dispatch.reform(Action::SetDevice)} />
                <span class="status" data-testid="status" role="status">{ status }</span>
            </header>
            if show.lesson || show.code || show.console {
                <div class="left">
                    if let (Some(lesson), true) = (lesson, show.lesson) {
                        <LessonPanel slug={lesson.slug} source={AttrValue::from(state.source.to_string())}
                                     claims={state.claims.clone()} {on_control} />
                    }
                    if show.code {
                        <section class="panel editor" aria-label="Program">
                            { for pinned_note.clone() }
                            // As the page's: choosing a live tensor in the
                            // memory view puts the cursor in this editor.
                            <div class="editor-main">
                                <Editor source={AttrValue::from(state.source.to_string())}
                                        source_version={state.source_version} error_line={state.error_line()}
                                        {current_line} on_change={on_edit} on_run={on_run.clone()} />
                            </div>
                        </section>
                    }
                    if show.console {
                        <ConsolePanel output={state.output.clone()} run={state.run.clone()}
                                      log={playback.log().clone()} position={(!playback.is_live()).then_some(position)} />
                    }
                </div>
            }
            if show.graph || show.memory || show.charts {
                <div class="right">
                    if !show.code {
                        { for pinned_note.clone() }
                    }
                    if show.graph {
                        <GraphPanel log={graph_view.0} position={graph_view.1}
                                    on_seek={Some(on_graph_seek)} />
                    }
                    if show.memory {
                        <MemoryPanel log={memory_view.0} position={memory_view.1} axis={state.axis}
                                     on_axis={dispatch.reform(Action::SetAxis)} />
                    }
                    if show.charts {
                        <ChartsPanel log={charts_view.0} position={charts_view.1} />
                    }
                </div>
            }
            <Transport {running}
                       can_run={!matches!(state.engine, Engine::Failed(_))}
                       {position} len={playback.log().len()} line={playback.line()}
                       {on_run} {on_stop} {on_reset}
                       on_step={dispatch.reform(|(by, forward)| Action::Step(by, forward))}
                       on_seek={dispatch.reform(Action::Seek)}
                       on_pass={Some(dispatch.reform(Action::StepPass))} />
            if matches!(state.engine, Engine::Ready { .. }) {
                <FontWarmup />
            }
        </>
    }
}
