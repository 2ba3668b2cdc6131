//! The page: editor and console on one side, graph, memory and charts on
//! the other, the transport between, the device menu and Share on top.

use gradscope_trace::protocol::{Device, EXAMPLE, WebGpu};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use super::charts_panel::ChartsPanel;
use super::console_panel::ConsolePanel;
use super::device_menu::DeviceMenu;
use super::editor::Editor;
use super::file_tabs::{FileTabs, read_dropped};
use super::graph_panel::GraphPanel;
use super::lesson_claims::LessonClaims;
use super::lesson_menu::LessonMenu;
use super::lesson_panel::LessonPanel;
use super::memory_panel::MemoryPanel;
use super::share_bar::{PinnedNote, ShareBar, ShareButton};
use super::transport::Transport;
use crate::frame::FontWarmup;
use crate::share::{PinnedProgram, Shared};
use crate::state::{Action, Engine, Pair, Run, State};
use crate::storage::{self, use_saved_progress, use_saved_settings};
use crate::views::use_views;
use crate::worker::use_engine;

/// The whole page.
#[function_component]
pub fn App() -> Html {
    let state = use_reducer(|| {
        let saved = storage::load();
        let mut state = State::new(saved.source, saved.device);
        state.budget_mib = saved.budget_mib;
        state.files = crate::files::load().into();
        state.lessons_passed = storage::load_passed().into();
        let reduce = |state: State, action| {
            std::rc::Rc::unwrap_or_clone(yew::Reducible::reduce(std::rc::Rc::new(state), action))
        };
        // `?lesson=SLUG` opens a lesson: links from course pages and the README.
        if let Some(slug) = storage::lesson_in_address() {
            state = reduce(state, Action::OpenLesson(Some(slug)));
        }
        // A share link (`#v1=`) shows its code and settings, not run.
        if let Some(link) = storage::link_in_address() {
            state = reduce(state, Action::OpenLink(link));
        }
        state
    });
    let engine = use_engine(state.dispatcher());
    use_saved_settings(&state);
    use_saved_progress(&state.lessons_passed);
    // The extra files are kept as the code is (not a share link's, unrun).
    use_effect_with(
        (state.files.clone(), state.keep_saved),
        |(files, keep_saved)| {
            if !*keep_saved {
                crate::files::save(files);
            }
        },
    );
    // The file the editor shows (`None`: the program).
    let active = use_state(|| None::<AttrValue>);
    {
        // The views warm up on the worker's warm-up trace, unseen, while
        // the learner reads (see `rehearsal`); the widget does not.
        let engine = engine.clone();
        use_effect_with((), move |()| engine.rehearse());
    }

    let device = match (&state.device, &state.webgpu) {
        (Device::WebGpu, Some(WebGpu::Available { .. })) => Device::WebGpu,
        _ => Device::Cpu,
    };
    let lesson = state.lesson.and_then(gradscope_lessons::find);
    let budget = state.budget_mib.map(|mib| u64::from(mib) << 20);
    // Callbacks are remade only when what they capture changes: a new one
    // each render made the editor's and the lesson's props differ every
    // frame of a run, and they re-rendered with nothing new to show.
    let deps = (
        state.source.clone(),
        device,
        budget,
        lesson.map(|l| l.slug),
        state.files.clone(),
    );
    let usable = |asked: Device| match (asked, &state.webgpu) {
        (Device::WebGpu, Some(WebGpu::Available { .. })) => Device::WebGpu,
        _ => Device::Cpu,
    };
    // A share link's pinned program runs first (see the effect below).
    let pair_waiting = match &state.pair {
        Pair::Opened(p) => Some((p.clone(), usable(p.device))),
        _ => None,
    };
    let on_run = {
        let (engine, dispatch) = (engine.clone(), state.dispatcher());
        let state_device = state.device;
        use_callback(
            (deps.clone(), pair_waiting),
            move |(), ((source, device, budget, _, files), pair)| {
                if let Some((pinned, pinned_device)) = pair {
                    dispatch.dispatch(Action::RunPair);
                    crate::pin::ran((**pinned).clone());
                    let budget = pinned.budget_mib.map(|mib| u64::from(mib) << 20);
                    engine.run(&pinned.code, &pinned.files, *pinned_device, budget);
                    return;
                }
                crate::pin::ran(PinnedProgram {
                    code: source.to_string(),
                    device: state_device,
                    budget_mib: budget.map(|b| (b >> 20) as u32),
                    files: files.to_vec(),
                });
                engine.run(source, files, *device, *budget);
                if let Some(lesson) = lesson {
                    engine.check_lesson(lesson.slug, *device);
                }
            },
        )
    };
    // The pinned program's run ended: pin it, and run the code beside it.
    {
        let (engine, dispatch) = (engine.clone(), state.dispatcher());
        let ended = state.pair.ended(&state.run).is_some();
        let log = state.playback.log().clone();
        let (source, files, budget_mib) =
            (state.source.clone(), state.files.clone(), state.budget_mib);
        let state_device = state.device;
        use_effect_with(ended, move |ended| {
            if *ended {
                crate::pin::pin(&log);
                crate::pin::ran(PinnedProgram {
                    code: source.to_string(),
                    device: state_device,
                    budget_mib,
                    files: files.to_vec(),
                });
                engine.run(
                    &source,
                    &files,
                    device,
                    budget_mib.map(|mib| u64::from(mib) << 20),
                );
                if let Some(lesson) = lesson {
                    engine.check_lesson(lesson.slug, device);
                }
                dispatch.dispatch(Action::PairPinned);
            }
        });
    }
    let on_control = {
        let (engine, dispatch) = (engine.clone(), state.dispatcher());
        let state_device = state.device;
        use_callback(
            deps,
            move |(name, value), (source, device, budget, _, files)| {
                let Some(lesson) = lesson else { return };
                // A line the learner deleted leaves the control inert.
                if let Ok(next) = lesson.set_controls_in(source, &[(name, value)]) {
                    crate::pin::ran(PinnedProgram {
                        code: next.clone(),
                        device: state_device,
                        budget_mib: budget.map(|b| (b >> 20) as u32),
                        files: files.to_vec(),
                    });
                    engine.run(&next, files, *device, *budget);
                    engine.check_lesson(lesson.slug, *device);
                    dispatch.dispatch(Action::Edited {
                        source: next,
                        external: true,
                    });
                }
            },
        )
    };
    let on_lesson = {
        let dispatch = state.dispatcher();
        use_callback((), move |slug: Option<&'static str>, ()| {
            storage::set_lesson_in_address(slug);
            dispatch.dispatch(Action::OpenLesson(slug));
        })
    };
    let on_show_claim = {
        let dispatch = state.dispatcher();
        use_callback((), move |index, ()| {
            dispatch.dispatch(Action::ShowClaim(index))
        })
    };
    let on_share = {
        let dispatch = state.dispatcher();
        let shared = Shared {
            code: state.source.to_string(),
            device: state.device,
            lesson: state.lesson.map(str::to_string),
            budget_mib: state.budget_mib,
            files: state.files.to_vec(),
            pinned: None,
        };
        // The link's own pinned program while it waits to run, else the
        // pinned run's program, read when Share is pressed.
        let waiting = state.pair.program().cloned();
        Callback::from(move |()| {
            let pinned = waiting
                .clone()
                .or_else(|| crate::pin::pinned().and_then(|p| p.program))
                .map(|p| Box::new((*p).clone()));
            let shared = Shared {
                pinned,
                ..shared.clone()
            };
            dispatch.dispatch(Action::Shared(storage::share(&shared)))
        })
    };
    let on_stop = {
        let engine = engine.clone();
        Callback::from(move |()| engine.stop())
    };
    let dispatch = state.dispatcher().to_callback();
    let on_edit = {
        let dispatch = state.dispatcher();
        use_callback((), move |source, ()| {
            dispatch.dispatch(Action::Edited {
                source,
                external: false,
            })
        })
    };
    let on_reset = dispatch.reform(move |()| Action::Edited {
        source: lesson.map_or(EXAMPLE, |l| l.program).into(),
        external: true,
    });
    // The memory panel's callbacks are made once: a new callback each
    // render made its props differ every frame, and it re-rendered (its
    // chart's elements rebuilt and compared) though its trace had not moved.
    let on_axis = {
        let dispatch = state.dispatcher();
        use_callback((), move |axis, ()| dispatch.dispatch(Action::SetAxis(axis)))
    };
    // The graph's pass buttons (previous or next step's backward), made
    // once for the same reason.
    let on_graph_seek = {
        let dispatch = state.dispatcher();
        use_callback((), move |position, ()| {
            dispatch.dispatch(Action::Seek(position))
        })
    };
    let on_budget = {
        let dispatch = state.dispatcher();
        use_callback((), move |mib, ()| dispatch.dispatch(Action::SetBudget(mib)))
    };
    let running = state.run == Run::Running;
    // Replay's timer: a statement every interval while it plays.
    {
        let dispatch = state.dispatcher();
        use_effect_with(state.replay, move |replay| {
            let timer = (replay.playing)
                .then(web_sys::window)
                .flatten()
                .and_then(|window| {
                    let tick =
                        Closure::<dyn FnMut()>::new(move || dispatch.dispatch(Action::ReplayTick));
                    let ms = i32::try_from(replay.interval_ms()).unwrap_or(i32::MAX);
                    window
                        .set_interval_with_callback_and_timeout_and_arguments_0(
                            tick.as_ref().unchecked_ref(),
                            ms,
                        )
                        .ok()
                        .map(|id| (window, id, tick))
                });
            move || {
                if let Some((window, id, _tick)) = timer {
                    window.clear_interval_with_handle(id);
                }
            }
        });
    }
    let playback = &state.playback;
    let position = playback.position();
    // The graph, memory and charts views: paced, in turn, in idle periods.
    let (views, catching_up) = use_views(playback, running, 3);
    let [graph_view, memory_view, charts_view] = <[_; 3]>::try_from(views).unwrap_or_default();
    let current_line = if playback.is_live() {
        None
    } else {
        playback.line()
    };
    let status = state.status_line(catching_up);
    let on_files = state.dispatcher().to_callback().reform(Action::Files);
    let on_select = {
        let active = active.clone();
        Callback::from(move |name| active.set(name))
    };
    // The open tab's file, if it still exists (a removed one shows the program).
    let open_file = active
        .as_deref()
        .and_then(|name| state.files.iter().find(|f| f.name == name).cloned());
    let on_file_edit = {
        let (on_files, name) = (on_files.clone(), open_file.as_ref().map(|f| f.name.clone()));
        Callback::from(move |text: String| {
            if let Some(name) = name.clone() {
                on_files.emit(crate::files::Change::Edit { name, text });
            }
        })
    };
    // Files dropped on the editor join the program's (a file of the same
    // name is replaced), and the last one opens.
    let on_drop = {
        let (on_files, active) = (on_files.clone(), active.clone());
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            let (on_files, active) = (on_files.clone(), active.clone());
            read_dropped(
                &event,
                Callback::from(move |file: crate::files::ProgramFile| {
                    let name = file.name.clone();
                    on_files.emit(crate::files::Change::Put(file));
                    active.set(Some(name.into()));
                }),
            );
        })
    };
    html! {
        <>
            <header class="top">
                <h1>{ "gradscope" }</h1>
                <p class="tagline">{ "see what autograd really does" }</p>
                <LessonMenu lesson={state.lesson} on_change={on_lesson.clone()} />
                <DeviceMenu device={state.device} webgpu={state.webgpu.clone()}
                            on_change={dispatch.reform(Action::SetDevice)} />
                <span class="status" data-testid="status" role="status">{ status }</span>
                <ShareButton {on_share} />
                <ShareBar link={state.link.clone()} pair={state.pair.program().is_some()} on_dismiss={dispatch.reform(|()| Action::DismissLink)} />
            </header>
            if let Some(lesson) = lesson {
                <LessonPanel slug={lesson.slug} source={AttrValue::from(state.source.to_string())}
                             {on_control} passed={state.lessons_passed.clone()} on_open={Some(on_lesson.clone())} />
            }
            <section class="panel editor" aria-label="Program" data-testid="editor-panel"
                     ondragover={|e: DragEvent| e.prevent_default()}
                     ondrop={on_drop}>
                if let Some(pinned) = state.pair.program() {
                    <PinnedNote code={AttrValue::from(pinned.code.clone())}
                                running={matches!(state.pair, Pair::Running(_))}
                                on_drop={dispatch.reform(|()| Action::DropPair)} />
                }
                <FileTabs files={state.files.clone()} active={(*active).clone()}
                          on_select={on_select} on_change={on_files.clone()} />
                <div class="editor-main" hidden={open_file.is_some()}>
                    <Editor source={AttrValue::from(state.source.to_string())}
                            source_version={state.source_version} error_line={state.error_line()}
                            {current_line} on_change={on_edit} on_run={on_run.clone()} />
                </div>
                if let Some(file) = open_file {
                    <div class="editor-main" key={file.name.clone()}>
                        <Editor key={file.name.clone()} source={AttrValue::from(file.text.clone())}
                                source_version={0} error_line={None::<u32>} current_line={None::<u32>}
                                on_change={on_file_edit} on_run={on_run.clone()} />
                    </div>
                }
            </section>
            <Transport {running} can_run={!matches!(state.engine, Engine::Failed(_))}
                       {position} len={playback.log().len()} line={playback.line()}
                       {on_run} {on_stop} {on_reset}
                       on_step={dispatch.reform(|(by, forward)| Action::Step(by, forward))}
                       on_seek={dispatch.reform(Action::Seek)} replay={state.replay}
                       on_replay={Some((dispatch.reform(Action::Replay), dispatch.reform(Action::SetSpeed)))}
                       on_pass={Some(dispatch.reform(Action::StepPass))} />
            if let Some(lesson) = lesson {
                <LessonClaims slug={lesson.slug} claims={state.claims.clone()} shown={state.claim_shown}
                              on_show={on_show_claim} />
            }
            <GraphPanel log={graph_view.0} position={graph_view.1} on_seek={Some(on_graph_seek)}
                        warm={matches!(state.engine, Engine::Ready { .. }) && !running} />
            <MemoryPanel log={memory_view.0} position={memory_view.1} axis={state.axis}
                         {on_axis} budget_mib={state.budget_mib} on_budget={Some(on_budget)} />
            <ChartsPanel log={charts_view.0} position={charts_view.1} />
            <ConsolePanel output={state.output.clone()} run={state.run.clone()}
                          log={playback.log().clone()} position={(!playback.is_live()).then_some(position)} />
            if matches!(state.engine, Engine::Ready { .. }) {
                <FontWarmup />
            }
        </>
    }
}
