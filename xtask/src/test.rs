//! `cargo xtask test`: every check CI runs, as stages with a summary.

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::server::{Log, Origin, StaticServer};
use crate::setup::{self, CHROMEDRIVER};
use crate::util::{self, Ctx};
use crate::web;

/// The crates that only build for wasm32.
const WASM_ONLY: &[&str] = &["gradscope-ui", "gradscope-webworker"];
/// How long the browser end-to-end script may run.
const E2E_LIMIT: Duration = Duration::from_secs(600);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ok,
    Failed,
    /// Not run because a stage it needs failed.
    Skipped(&'static str),
}

#[derive(Debug)]
struct Stage {
    name: &'static str,
    outcome: Outcome,
    time: Duration,
}

fn exclude_wasm_only(cmd: &mut Command) {
    for package in WASM_ONLY {
        cmd.args(["--exclude", package]);
    }
}

/// Runs all stages; `Ok(false)` when any failed. The last line printed is
/// `N passed, N failed`, which CI parsers read.
pub fn run(ctx: &Ctx) -> Result<bool> {
    let total = Instant::now();
    let mut stages: Vec<Stage> = Vec::new();
    let count = 13;
    let mut stage = |name: &'static str, body: &mut dyn FnMut() -> Result<()>| -> Outcome {
        let n = stages.len() + 1;
        println!("\n==> [{n}/{count}] {name}");
        let start = Instant::now();
        let outcome = match body() {
            Ok(()) => Outcome::Ok,
            Err(err) => {
                println!("==> {name}: FAILED: {err:#}");
                Outcome::Failed
            }
        };
        stages.push(Stage {
            name,
            outcome,
            time: start.elapsed(),
        });
        outcome
    };
    let cargo = |cmd: &mut Command| -> Result<()> {
        println!("{}", util::display(cmd));
        util::run(cmd)
    };

    stage("fmt", &mut || {
        cargo(&mut ctx.cargo(["fmt", "--all", "--check"]))
    });

    stage("clippy (native)", &mut || {
        let mut cmd = ctx.cargo(["clippy", "--workspace"]);
        exclude_wasm_only(&mut cmd);
        cmd.args(["--all-targets", "--", "-D", "warnings"]);
        cargo(&mut cmd)
    });

    stage("clippy (wasm)", &mut || {
        let mut cmd = ctx.cargo(["clippy", "--target", "wasm32-unknown-unknown"]);
        for package in [
            "gradscope-ui",
            "gradscope-webworker",
            "gradscope-core",
            "gradscope-wgpu",
        ] {
            cmd.args(["-p", package]);
        }
        cmd.args(["--all-targets", "--", "-D", "warnings"]);
        cargo(&mut cmd)
    });

    stage("docs", &mut || {
        let mut cmd = ctx.cargo(["doc", "--workspace"]);
        exclude_wasm_only(&mut cmd);
        cmd.arg("--no-deps").env("RUSTDOCFLAGS", "-D warnings");
        cargo(&mut cmd)
    });

    // Pin the Vulkan loader to lavapipe so a real GPU, if any, does not
    // change results; a GPU test that finds no adapter fails here.
    let on_lavapipe = |mut cmd: Command| -> Result<()> {
        cmd.env("WGPU_BACKEND", "vulkan")
            .env("GRADSCOPE_REQUIRE_GPU", "1");
        match setup::lavapipe_icd() {
            Some(icd) => {
                cmd.env("VK_DRIVER_FILES", &icd)
                    .env("VK_ICD_FILENAMES", &icd);
            }
            None => bail!("lavapipe's Vulkan ICD is missing: run `cargo xtask setup`"),
        }
        cargo(&mut cmd)
    };

    stage("native tests (the GPU's on lavapipe)", &mut || {
        // The GPU backend's own tests run here, in the workspace's build:
        // `cargo test -p gradscope-wgpu` alone resolved features for that
        // package, differently (dev-dependencies' proc macros turn on more
        // of syn's features), and rebuilt most of the tree: 130 s of CI.
        let mut cmd = ctx.cargo(["test", "--workspace"]);
        exclude_wasm_only(&mut cmd);
        on_lavapipe(cmd)?;
        // The page's pure modules (layout, charts, settings) test natively;
        // its components need a browser and run in e2e.
        cargo(&mut ctx.cargo(["test", "-p", "gradscope-ui", "--lib"]))
    });

    // The `gradscope` binary the native tests built (the CLI's integration
    // tests need it). `cargo run -p gradscope-cli` would resolve features
    // for that one package, differently from the workspace's test build
    // (dev-dependencies' proc macros turn on more of syn's features), and
    // rebuild RustPython and everything above it: 170 s of a cold CI.
    let gradscope = |args: &[&str]| -> Result<Command> {
        let bin = ctx.target_dir.join("debug").join("gradscope");
        if !bin.is_file() {
            bail!(
                "{} is missing: the native tests did not build it",
                bin.display()
            );
        }
        let mut cmd = ctx.cmd(bin);
        cmd.args(args);
        Ok(cmd)
    };

    // build-web (release wasm, wasm-bindgen, wasm-opt: the longest stage,
    // and CPU-bound on both cores only while rustc compiles) runs in a child
    // process from here on, beside the stages that run one program at a
    // time on one core (the corpora, lessons and gradcheck) and the wasm
    // tests; its output goes to a log printed at its stage. It builds into
    // other profile directories than the debug build those stages use, so
    // neither waits on the other's cargo lock.
    let mut web_build = BackgroundBuild::start(ctx);

    stage("public corpus (cpu)", &mut || {
        // Programs others wrote (tests/public), each run by the `gradscope`
        // binary from its folder and held to real PyTorch's recorded
        // output; failures must be the listed ones. `--workspace`: the
        // native tests' build, so this links nothing new.
        let mut cmd = ctx.cargo(["test", "--workspace"]);
        exclude_wasm_only(&mut cmd);
        cmd.args(["--test", "public"]);
        cargo(&mut cmd)
    });

    stage("lessons (cpu)", &mut || {
        // Every claim of every lesson, checked against what the engine
        // measures, as a learner's page would show it (issue 8).
        cargo(&mut gradscope(&["lessons", "--check"])?)
    });

    stage("corpus (webgpu on lavapipe)", &mut || {
        // Whole-program parity: every corpus program with the GPU as its
        // default device, against PyTorch's recorded output (`--workspace`
        // for the same build as the native tests, as above).
        let mut cmd = ctx.cargo(["test", "--workspace"]);
        exclude_wasm_only(&mut cmd);
        cmd.args(["--test", "corpus", "--", "--device", "webgpu"]);
        on_lavapipe(cmd)
    });

    // `gradscope ARGS --device webgpu` on lavapipe.
    let gradscope_on_gpu = |args: &[&str]| {
        let mut cmd = gradscope(args)?;
        cmd.args(["--device", "webgpu"]);
        on_lavapipe(cmd)
    };

    stage("gradcheck (webgpu on lavapipe)", &mut || {
        // Every gradcheck row's backward in float32 on the GPU against the
        // CPU's float64 backward (issue 5, issue 8's `gradcheck --device`).
        gradscope_on_gpu(&["gradcheck"])
    });

    stage("lessons (webgpu on lavapipe)", &mut || {
        gradscope_on_gpu(&["lessons", "--check"])
    });

    stage("wasm tests (headless Chromium)", &mut || {
        let mut cmd = ctx.cargo(["test", "--target", "wasm32-unknown-unknown"]);
        cmd.args(["-p", "gradscope-core", "-p", "gradscope-wgpu"])
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env("WASM_BINDGEN_TEST_TIMEOUT", "180");
        cargo(&mut cmd)
    });

    let built = stage("build-web", &mut || match web_build.take() {
        Some(build) => build.finish(ctx),
        None => web::build(ctx).map(|_| ()),
    });

    if built == Outcome::Ok {
        stage("e2e", &mut || e2e(ctx));
    } else {
        println!("\n==> [{count}/{count}] e2e: not run, build-web failed");
        stages.push(Stage {
            name: "e2e",
            outcome: Outcome::Skipped("build-web failed"),
            time: Duration::ZERO,
        });
    }

    println!("\n==> summary");
    for s in &stages {
        let secs = s.time.as_secs_f64();
        match s.outcome {
            Outcome::Ok => println!("{}: ok ({secs:.1}s)", s.name),
            Outcome::Failed => println!("{}: FAILED ({secs:.1}s)", s.name),
            Outcome::Skipped(why) => println!("{}: FAILED (not run: {why})", s.name),
        }
    }
    let passed = stages.iter().filter(|s| s.outcome == Outcome::Ok).count();
    let failed = stages.len() - passed;
    println!("total: {:.1}s", total.elapsed().as_secs_f64());
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// `cargo xtask build-web` running in a child process, its output in a log.
struct BackgroundBuild {
    child: Child,
    log: std::path::PathBuf,
}

impl BackgroundBuild {
    /// Starts the child; `None` (the build then runs in its stage, in this
    /// process) when it cannot be started.
    fn start(ctx: &Ctx) -> Option<BackgroundBuild> {
        let started = (|| -> Result<BackgroundBuild> {
            let log = ctx.target_dir.join("build-web.log");
            let out = fs::File::create(&log)?;
            let mut cmd = ctx.cmd(std::env::current_exe()?);
            cmd.arg("build-web")
                .stdin(Stdio::null())
                .stdout(out.try_clone()?)
                .stderr(out);
            let child = cmd.spawn()?;
            println!(
                "\n==> build-web started in the background (its log: {})",
                ctx.show(&log)
            );
            Ok(BackgroundBuild { child, log })
        })();
        match started {
            Ok(build) => Some(build),
            Err(err) => {
                println!(
                    "\n==> build-web could not start in the background ({err:#}); it runs in its stage"
                );
                None
            }
        }
    }

    /// Waits for the child, prints its log, and says whether it built.
    fn finish(mut self, ctx: &Ctx) -> Result<()> {
        let status = self.child.wait()?;
        let log = fs::read_to_string(&self.log).unwrap_or_default();
        print!("{log}");
        if !status.success() {
            bail!(
                "`cargo xtask build-web` failed ({status}); its log: {}",
                ctx.show(&self.log)
            );
        }
        Ok(())
    }
}

/// How an e2e script may share the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timing {
    /// It holds a measured time to a bound (frame times, `show()` to the
    /// figure): it runs alone.
    Judged,
    /// It checks behaviour and at most prints a time: it runs beside
    /// another such script, in one of two lanes: these scripts mostly
    /// wait on the page's worker, one core's work each.
    Free,
}

/// The e2e scripts run against the served site after the playground's,
/// with what each checks and whether it times anything it judges. The
/// free ones are dealt to two lanes in this order, alternately by
/// expected length (numpy's 91 fixtures and engine's lessons on both
/// devices are the long ones, so they go to different lanes).
const PAGE_SCRIPTS: [(&str, &str, Timing); 10] = [
    (
        "tests/e2e/playground_controls.mjs",
        "the memory chart's marks, replay's speed, frame times while a loop trains",
        Timing::Judged,
    ),
    (
        "tests/e2e/figures.mjs",
        "figures, progress bars and extra files in the console and editor",
        Timing::Judged,
    ),
    (
        "tests/e2e/numpy.mjs",
        "every NumPy fixture in the page's worker, and NumPy fetched only when imported",
        Timing::Free,
    ),
    (
        "tests/e2e/engine.mjs",
        "the engine's worker alone: programs on the GPU (JSPI readback), every lesson's claims on both devices",
        Timing::Free,
    ),
    (
        "tests/e2e/views.mjs",
        "names on the graph, memory by line, node details, the graph at the error, exports",
        Timing::Free,
    ),
    (
        "tests/e2e/compare_runs.mjs",
        "a pinned run compared with the next (issue 27)",
        Timing::Free,
    ),
    (
        "tests/e2e/memory_layout.mjs",
        "the memory panel's labels clear of each other and its legend whole in a pinned comparison, at 1280x800, 1600x1000 and in the widget (issue 27)",
        Timing::Free,
    ),
    (
        "tests/e2e/share_pinned.mjs",
        "a share link carrying a pinned pair, stepping by pass, the charts' zoom",
        Timing::Free,
    ),
    (
        "tests/e2e/lessons.mjs",
        "every lesson's controls and claims in view, claims moving the views (issue 30)",
        Timing::Free,
    ),
    (
        "tests/e2e/widget_views.mjs",
        "the page's views in a widget on a course page: pinned pairs, passes, exports, names, the error",
        Timing::Free,
    ),
];

/// Serves the site on a free port and runs the browser scripts against it:
/// the playground, the scripts that judge times one at a time, the others
/// in two lanes, then the embeddable widget (its demo article served from a
/// second port, another origin) and the interpreter's start-up, alone. All
/// run; any failing fails the stage.
fn e2e(ctx: &Ctx) -> Result<()> {
    let script = ctx.root.join("tests/e2e/playground.mjs");
    if !script.is_file() {
        bail!("tests/e2e/playground.mjs is missing: the end-to-end test is not written yet");
    }
    let out_dir = ctx.target_dir.join("e2e");
    fs::create_dir_all(&out_dir)?;
    let screenshot = out_dir.join("playground-1280x800.png");
    let site = web::site_dir(ctx);
    let server = StaticServer::start(&site, 0, Log::Errors)?;
    let mut cmd = ctx.cmd("node");
    cmd.arg("tests/e2e/playground.mjs")
        .env("GRADSCOPE_URL", server.url())
        .env("GRADSCOPE_SCREENSHOT", &screenshot);
    println!("{}", util::display(&cmd));
    let playground = util::run_with_timeout(&mut cmd, E2E_LIMIT);
    if screenshot.is_file() {
        println!("e2e: screenshot at {}", ctx.show(&screenshot));
    }
    let mut results = vec![playground];

    let script_cmd = |script: &str| {
        let mut cmd = ctx.cmd("node");
        cmd.arg(script)
            .env("GRADSCOPE_URL", server.url())
            .env("GRADSCOPE_SHOTS", &out_dir);
        cmd
    };
    for (script, what, _) in PAGE_SCRIPTS.iter().filter(|s| s.2 == Timing::Judged) {
        println!("\ne2e: {what}");
        let mut cmd = script_cmd(script);
        println!("{}", util::display(&cmd));
        results.push(util::run_with_timeout(&mut cmd, E2E_LIMIT));
    }

    // Two lanes, each its scripts in turn with their output kept in a log
    // and printed whole when the script ends, so the two never interleave.
    let free: Vec<_> = PAGE_SCRIPTS
        .iter()
        .filter(|s| s.2 == Timing::Free)
        .collect();
    let lanes: [Vec<_>; 2] = [
        free.iter().step_by(2).copied().collect(),
        free.iter().skip(1).step_by(2).copied().collect(),
    ];
    let printing = std::sync::Mutex::new(());
    std::thread::scope(|scope| {
        let handles: Vec<_> = lanes
            .iter()
            .map(|lane| {
                let (script_cmd, out_dir, printing) = (&script_cmd, &out_dir, &printing);
                scope.spawn(move || {
                    lane.iter()
                        .map(|(script, what, _)| {
                            let mut cmd = script_cmd(script);
                            let log = out_dir.join(format!(
                                "{}.log",
                                Path::new(script)
                                    .file_stem()
                                    .unwrap_or_default()
                                    .to_string_lossy()
                            ));
                            let started = Instant::now();
                            let result = util::run_logged_with_timeout(&mut cmd, &log, E2E_LIMIT);
                            let _turn = printing.lock();
                            println!(
                                "\ne2e: {what} ({:.1} s, in a lane)\n{}",
                                started.elapsed().as_secs_f64(),
                                util::display(&cmd)
                            );
                            print!("{}", fs::read_to_string(&log).unwrap_or_default());
                            result
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            match handle.join() {
                Ok(lane) => results.extend(lane),
                Err(_) => results.push(Err(anyhow::anyhow!("an e2e lane panicked"))),
            }
        }
    });

    let widget = widget_e2e(ctx, &site, &server.url(), &out_dir);
    let startup = startup_e2e(ctx, &server.url());
    drop(server);
    results.extend([widget, startup]);
    let failed: Vec<String> = results
        .into_iter()
        .filter_map(|result| result.err().map(|err| format!("{err:#}")))
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        bail!("{}", failed.join("; and "))
    }
}

/// The interpreter's start-up in fresh workers, for the figure
/// (printed, not judged: a timing is a benchmark, not a test), run alone.
fn startup_e2e(ctx: &Ctx, site_url: &str) -> Result<()> {
    let mut cmd = ctx.cmd("node");
    cmd.arg("tests/e2e/startup.mjs")
        .env("GRADSCOPE_URL", site_url);
    println!("{}", util::display(&cmd));
    util::run_with_timeout(&mut cmd, E2E_LIMIT)
}

/// The widget's e2e script: the demo article served from a second port
/// (another origin) with its loader fetched from `site_url`.
fn widget_e2e(ctx: &Ctx, site: &Path, site_url: &str, out_dir: &Path) -> Result<()> {
    let host_dir = out_dir.join("widget-host");
    web::write_demo_host(site, site_url, &host_dir)?;
    let host = StaticServer::start_as(&host_dir, 0, Log::Errors, Origin::Host)?;
    let mut cmd = ctx.cmd("node");
    cmd.arg("tests/e2e/widget.mjs")
        .env("GRADSCOPE_URL", site_url)
        .env("GRADSCOPE_HOST_URL", host.url())
        .env("GRADSCOPE_HOST_DIR", &host_dir)
        .env("GRADSCOPE_SHOTS", out_dir);
    println!("{}", util::display(&cmd));
    let result = util::run_with_timeout(&mut cmd, E2E_LIMIT);
    drop(host);
    result
}
