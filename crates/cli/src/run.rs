//! `gradscope run FILE.py`: runs a PyTorch program on gradscope's engine
//! and prints exactly what it prints, as it prints it. An uncaught
//! exception's traceback goes to stderr and the exit code is 1, as with
//! `python FILE.py`; `sys.exit(n)` exits with `n`. As with `python`, the
//! arguments after the program are its own (`sys.argv[1:]`), its folder is
//! first on `sys.path` so it imports its sibling modules, and it runs until
//! it ends unless `--time-limit` says otherwise.

use std::process::ExitCode;

use crate::args::{self, Long, Parsed, Short, Value};

/// How to call it.
pub const USAGE: &str = "\
gradscope run: run a PyTorch program on gradscope's engine

Usage:
  gradscope run [options] [outputs] FILE.py [ARGS...]
  gradscope run [options] [outputs] - [ARGS...]     read the program from stdin

ARGS, everything after the program, are the program's: sys.argv is [FILE.py, ARGS...].
The program's folder is first on sys.path, and its files (the folder's tree, up to
10,000 files and 256 MiB) are there to import and to open, read-only, by their paths
from here, as `python FILE.py` run from here sees them. What it writes (open(p, 'w'),
torch.save, os.makedirs) stays in memory: nothing touches the disk.

  --device DEVICE        where tensors go unless the program says otherwise, as after
                         torch.set_default_device(DEVICE): cpu (default) or webgpu (the
                         GPU through Vulkan natively; float32 only, as on PyTorch's MPS)
  --time-limit SECONDS   stop the program after this long (default, or 0: no limit,
                         as with python)
  --memory-limit BYTES   budget for tensor memory; past it, torch.OutOfMemoryError
                         (default 4 GiB; 0: no limit, and a failed allocation aborts)
  --kernel-stats         afterwards, on stderr: GPU kernels run, ops computed on the
                         host copy instead (by op), downloads and uploads
  --file PATH            let the program open PATH (read-only) by that relative name;
                         repeat for more files
  --figures DIR          write each figure the program shows (plt.show()) as
                         DIR/figure-N.svg; without it, show() shows nothing
  --save-files DIR       after the program ends, write the files it wrote (savefig's
                         PNG and SVG files, text, CSV) into DIR, at the paths it gave
                         them (`.` for where python would have put them); torch.save's
                         files are records only the run itself can load: not written

Outputs, written after the program ends (also when it raised):
  --trace OUT.jsonl          the engine's events, one JSON object per line
  --chrome-trace OUT.json    Chrome trace event format (open it in Perfetto)
  --graph OUT.dot|OUT.svg    the graph the last backward() ran, as it stood when that
                             backward began (else the whole graph), saved tensors
                             marked as torchviz's show_saved does (DOT or SVG)
  --memory OUT.csv           live bytes per memory category after each change, a row per
                             device (with the GPU caching allocator's reserved bytes)

Exit status: the program's (0, 1 after an uncaught exception, or sys.exit's),
2 for a usage error or an output that could not be written, 3 when the
device asked for cannot be opened.";

/// Parsed command line.
#[derive(Debug, PartialEq)]
struct Options {
    file: String,
    args: Vec<String>,
    device: String,
    time_limit: Option<f64>,
    memory_limit: Option<u64>,
    files: Vec<String>,
    /// Where the figures the program shows (`plt.show()`) go, as
    /// `DIR/figure-1.svg`, `DIR/figure-2.svg`, ...
    figures: Option<String>,
    /// Where the files the program wrote go when it ends.
    save_files: Option<String>,
    outputs: Outputs,
    kernel_stats: bool,
}

/// Where to write the views of the trace; recording happens only when one
/// is asked for.
#[derive(Debug, Default, PartialEq)]
struct Outputs {
    trace: Option<String>,
    chrome_trace: Option<String>,
    graph: Option<String>,
    memory: Option<String>,
}

impl Outputs {
    fn any(&self) -> bool {
        self.trace.is_some()
            || self.chrome_trace.is_some()
            || self.graph.is_some()
            || self.memory.is_some()
    }
}

/// The tensor memory a program may hold unless `--memory-limit` says
/// otherwise: an allocation the system refuses aborts the process, so a
/// runaway `torch.ones(10**6, 10**6)` gets PyTorch's out-of-memory error.
const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// Parses the options before the program; the program's path ends them,
/// and everything after it is the program's own.
fn parse(args: &[String]) -> Result<Parsed<Options>, String> {
    let mut file = None;
    let mut device = "cpu".to_string();
    let mut kernel_stats = false;
    let mut time_limit = None;
    let mut memory_limit = Some(DEFAULT_MEMORY_LIMIT);
    let mut outputs = Outputs::default();
    let mut files = vec![];
    let mut figures = None;
    let mut save_files = None;
    let mut parser = args::parser(args);
    while let Some(arg) = args::next(&mut parser)? {
        match arg {
            Long("time-limit") => {
                let v = args::value(&mut parser, "--time-limit needs a number of seconds")?;
                let secs: f64 = v.parse().map_err(|_| format!("bad --time-limit '{v}'"))?;
                time_limit = (secs > 0.0).then_some(secs);
            }
            Long("memory-limit") => {
                let v = args::value(&mut parser, "--memory-limit needs a number of bytes")?;
                let bytes: u64 = v.parse().map_err(|_| format!("bad --memory-limit '{v}'"))?;
                memory_limit = (bytes > 0).then_some(bytes);
            }
            Long("file") => files.push(args::value(&mut parser, "--file needs a path")?),
            Long("device") => device = args::value(&mut parser, "--device needs cpu or webgpu")?,
            Long("kernel-stats") => kernel_stats = true,
            Long("figures") => {
                figures = Some(args::value(&mut parser, "--figures needs a folder")?)
            }
            Long("save-files") => {
                save_files = Some(args::value(&mut parser, "--save-files needs a folder")?)
            }
            Long(flag @ ("trace" | "chrome-trace" | "graph" | "memory")) => {
                let (flag, slot) = match flag {
                    "trace" => ("--trace", &mut outputs.trace),
                    "chrome-trace" => ("--chrome-trace", &mut outputs.chrome_trace),
                    "graph" => ("--graph", &mut outputs.graph),
                    _ => ("--memory", &mut outputs.memory),
                };
                *slot = Some(args::value(
                    &mut parser,
                    &format!("{flag} needs a file name"),
                )?);
            }
            Short('h') | Long("help") => return Ok(Parsed::Help),
            // The program (`-` for stdin), and after it the program's own
            // arguments.
            Value(program) => {
                file = Some(program.to_string_lossy().into_owned());
                break;
            }
            other => {
                let other = args::shown(&other);
                return Err(format!("unknown option '{other}'\n\n{USAGE}"));
            }
        }
    }
    let program_args = args::rest(&mut parser)?;
    let file = file.ok_or_else(|| format!("no program given\n\n{USAGE}"))?;
    if let Some(graph) = &outputs.graph
        && !(graph.ends_with(".dot") || graph.ends_with(".svg"))
    {
        return Err(format!("--graph writes .dot or .svg, not '{graph}'"));
    }
    Ok(Parsed::Run(Options {
        file,
        args: program_args,
        device,
        time_limit,
        memory_limit,
        files,
        figures,
        save_files,
        outputs,
        kernel_stats,
    }))
}

/// Runs `gradscope run ARGS...` and returns the process's exit code.
pub fn main(args: &[String]) -> ExitCode {
    let options = match parse(args) {
        Ok(Parsed::Run(o)) => o,
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("gradscope: {message}");
            return ExitCode::from(2);
        }
    };
    if let Err(message) = crate::gpu::use_device(&options.device) {
        eprintln!("gradscope: device {}: {message}", options.device);
        return ExitCode::from(3);
    }
    let source = if options.file == "-" {
        let mut text = String::new();
        match std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
            Ok(_) => text,
            Err(err) => {
                eprintln!("gradscope: reading stdin: {err}");
                return ExitCode::from(2);
            }
        }
    } else {
        match std::fs::read_to_string(&options.file) {
            Ok(text) => text,
            Err(err) => {
                eprintln!("gradscope: can't open file '{}': {err}", options.file);
                return ExitCode::from(2);
            }
        }
    };
    if let Some(dir) = &options.figures
        && let Err(message) = write_figures_to(dir)
    {
        eprintln!("gradscope: {message}");
        return ExitCode::from(2);
    }
    execute(&options, &source)
}

/// Sends each figure the program shows to a new file in `dir`.
fn write_figures_to(dir: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|err| format!("--figures '{dir}': {err}"))?;
    let dir = std::path::PathBuf::from(dir);
    let mut count = 0;
    gradscope_python::set_figure_sink(Some(Box::new(move |svg: &str| {
        count += 1;
        let path = dir.join(format!("figure-{count}.svg"));
        if let Err(err) = std::fs::write(&path, svg) {
            eprintln!("gradscope: writing '{}': {err}", path.display());
        }
    })));
    Ok(())
}

fn execute(options: &Options, source: &str) -> ExitCode {
    use std::io::Write;

    use gradscope_python::{Limits, Runtime, Stream};

    let limits = Limits {
        time: options.time_limit.map(std::time::Duration::from_secs_f64),
        memory: options.memory_limit,
        ..Limits::default()
    };
    let mut runtime = Runtime::with_limits(limits);
    let file_name = if options.file == "-" {
        "<stdin>".to_string()
    } else {
        program_name(&options.file)
    };
    if options.file != "-" {
        let folder = std::path::Path::new(&file_name)
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        let found = program_folder_files(&folder, FOLDER_MAX_FILES, FOLDER_MAX_BYTES);
        if let Some(message) = &found.skipped {
            eprintln!("gradscope: {message}");
        }
        for (name, bytes) in found.files {
            runtime.add_file(&name, bytes);
        }
    }
    // The runtime's files are read-only copies: the program opens each by
    // the relative name it was given here, as it would from this directory.
    for path in &options.files {
        match std::fs::read(path) {
            Ok(bytes) => runtime.add_file(path, bytes),
            Err(err) => {
                eprintln!("gradscope: can't read --file '{path}': {err}");
                return ExitCode::from(2);
            }
        }
    }
    runtime.set_file_name(file_name);
    runtime.set_args(options.args.clone());
    // Print as the program prints, not at the end: training loops are long.
    runtime.set_output_sink(Some(Box::new(|stream, text| {
        let _ = match stream {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
            Stream::Stderr => std::io::stderr().lock().write_all(text.as_bytes()),
        };
    })));
    let out = if options.outputs.any() {
        let (out, events) = gradscope_core::trace::record(|| runtime.run(source));
        if let Err(err) = write_outputs(&options.outputs, &events) {
            eprintln!("gradscope: {err}");
            return ExitCode::from(2);
        }
        out
    } else {
        runtime.run(source)
    };
    if options.kernel_stats {
        eprintln!("{}", kernel_stats_line());
    }
    if let Some(dir) = &options.save_files
        && let Err(message) = save_files(&runtime, std::path::Path::new(dir))
    {
        eprintln!("gradscope: --save-files '{dir}': {message}");
        return ExitCode::from(2);
    }
    ExitCode::from(u8::try_from(out.exit_code).unwrap_or(1))
}

/// Writes what the program wrote into `dir`, each file at the path it gave
/// (the sandbox's paths are normalised: none climbs out with `..`).
fn save_files(runtime: &gradscope_python::Runtime, dir: &std::path::Path) -> Result<(), String> {
    for file in runtime.written_files() {
        let path = &file.path;
        let relative = std::path::Path::new(path);
        if !relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
        {
            return Err(format!("'{path}' is not a path below the program's folder"));
        }
        if file.only_this_run {
            eprintln!(
                "gradscope: --save-files: '{path}' not written: it holds torch.save's record of an \
                 object in this run's memory (gradscope does not pickle), which only this run can load"
            );
            continue;
        }
        let target = dir.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|err| format!("{}: {err}", parent.display()))?;
        }
        std::fs::write(&target, &file.bytes)
            .map_err(|err| format!("{}: {err}", target.display()))?;
    }
    Ok(())
}

/// The program's path as the sandbox names it: as given, or relative to
/// the working directory when it is an absolute path below it (the sandbox's
/// `/` is this directory, so the program's relative paths and its folder's
/// files agree, as for `python /abs/path/prog.py` run from its folder).
fn program_name(file: &str) -> String {
    let path = std::path::Path::new(file);
    if path.is_absolute()
        && let Ok(cwd) = std::env::current_dir()
        && let Ok(rest) = path.strip_prefix(&cwd)
    {
        return rest.to_string_lossy().into_owned();
    }
    file.to_string()
}

/// How many of the program folder's files the runtime gets at most, and
/// their bytes: past either, the rest are left out with a message (a
/// program in a home directory or `/tmp` must not read the whole tree).
const FOLDER_MAX_FILES: usize = 10_000;
const FOLDER_MAX_BYTES: u64 = 256 << 20;

/// The files of a program's folder, each named by its path from the
/// working directory, and why some were left out.
#[derive(Debug, Default)]
struct FolderFiles {
    files: Vec<(String, Vec<u8>)>,
    skipped: Option<String>,
}

/// Reads the tree under `folder` (`""`: the working directory), in sorted
/// order, leaving out hidden entries (`.git`, `.venv`) and `__pycache__`,
/// and stopping past `max_files` files or `max_bytes`.
fn program_folder_files(folder: &std::path::Path, max_files: usize, max_bytes: u64) -> FolderFiles {
    let mut found = FolderFiles::default();
    let mut bytes = 0u64;
    let root = if folder.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        folder
    };
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        let mut subdirs = vec![];
        for entry in entries {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || name == "__pycache__" {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                subdirs.push(path);
                continue;
            }
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if found.files.len() >= max_files || bytes + size > max_bytes {
                found.skipped = Some(format!(
                    "the program's folder '{}' holds more than {} files or {} MiB: \
                     the program can open or import only the first {} files ({} bytes); \
                     give it the others with --file, or move it to a smaller folder",
                    root.display(),
                    max_files,
                    max_bytes >> 20,
                    found.files.len(),
                    bytes
                ));
                return found;
            }
            if let Ok(data) = std::fs::read(&path) {
                bytes += size;
                let relative = path.strip_prefix(".").unwrap_or(&path);
                found
                    .files
                    .push((relative.to_string_lossy().into_owned(), data));
            }
        }
        // Depth first, in name order.
        stack.extend(subdirs.into_iter().rev());
    }
    found
}

/// What ran where on the GPU during the run, for `--kernel-stats`: ops a
/// kernel computed, ops computed on the host copy (by op), and the copies
/// between host and device.
fn kernel_stats_line() -> String {
    use gradscope_core::device;
    let stats = device::kernel_stats();
    let mut fallbacks = device::host_fallbacks_by_op();
    fallbacks.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let by_op: Vec<String> = fallbacks
        .iter()
        .map(|(op, n)| format!("{op} {n}"))
        .collect();
    format!(
        "gradscope: kernel stats: {} kernels, {} host fallbacks{}, {} downloads, {} uploads",
        stats.kernels,
        stats.host_fallbacks,
        if by_op.is_empty() {
            String::new()
        } else {
            format!(" ({})", by_op.join(", "))
        },
        stats.downloads,
        stats.uploads,
    )
}

/// Writes each asked-for view of the trace.
fn write_outputs(outputs: &Outputs, events: &[gradscope_trace::Event]) -> Result<(), String> {
    use crate::outputs;
    let write = |path: &str, text: String| {
        std::fs::write(path, text).map_err(|err| format!("writing '{path}': {err}"))
    };
    if let Some(path) = &outputs.trace {
        write(path, outputs::jsonl(events).map_err(|err| err.to_string())?)?;
    }
    if let Some(path) = &outputs.chrome_trace {
        write(path, outputs::chrome_trace(events).to_string())?;
    }
    if let Some(path) = &outputs.graph {
        let text = if path.ends_with(".svg") {
            outputs::svg(events)
        } else {
            outputs::dot(events)
        };
        write(path, text)?;
    }
    if let Some(path) = &outputs.memory {
        write(path, outputs::memory_csv(events))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// The options of a command line that asks for a run.
    fn options(list: &[String]) -> Result<Options, String> {
        match parse(list)? {
            Parsed::Run(options) => Ok(options),
            Parsed::Help => Err("help".into()),
        }
    }

    #[test]
    fn run_takes_figures_before_the_program_only() {
        let parsed = options(&args(&[
            "--device",
            "cpu",
            "--figures",
            "out",
            "prog.py",
            "--figures",
            "x",
        ]));
        assert_eq!(
            parsed.map(|o| (o.figures, o.device, o.file, o.args)),
            // After the program, `--figures` is the program's own argument.
            Ok((
                Some("out".to_string()),
                "cpu".to_string(),
                "prog.py".to_string(),
                args(&["--figures", "x"])
            ))
        );
        assert!(options(&args(&["--figures"])).is_err());
    }

    #[test]
    fn run_help_is_the_usage_and_not_an_error() {
        assert_eq!(parse(&args(&["--help"])), Ok(Parsed::Help));
        assert_eq!(parse(&args(&["-h", "prog.py"])), Ok(Parsed::Help));
        // After the program, `-h` is the program's.
        assert_eq!(
            options(&args(&["prog.py", "-h"])).map(|o| o.args),
            Ok(args(&["-h"]))
        );
        assert!(
            options(&args(&["-q", "prog.py"]))
                .is_err_and(|e| e.starts_with("unknown option '-q'\n\ngradscope run:"))
        );
    }

    #[test]
    fn run_parses_limits() {
        assert_eq!(
            options(&args(&[
                "--time-limit",
                "0",
                "--memory-limit",
                "1024",
                "prog.py",
            ])),
            Ok(Options {
                file: "prog.py".into(),
                args: vec![],
                device: "cpu".into(),
                time_limit: None,
                memory_limit: Some(1024),
                files: vec![],
                figures: None,
                save_files: None,
                outputs: Outputs::default(),
                kernel_stats: false,
            })
        );
        assert_eq!(
            options(&args(&["--kernel-stats", "prog.py"])).map(|o| o.kernel_stats),
            Ok(true)
        );
        assert_eq!(
            options(&args(&["prog.py"])).map(|o| o.memory_limit),
            Ok(Some(DEFAULT_MEMORY_LIMIT))
        );
        assert_eq!(
            options(&args(&["--memory-limit", "0", "prog.py"])).map(|o| o.memory_limit),
            Ok(None)
        );
        let parsed = options(&args(&[
            "--trace", "t.jsonl", "--graph", "g.svg", "--memory", "m.csv", "a.py",
        ]));
        assert_eq!(
            parsed.map(|o| o.outputs),
            Ok(Outputs {
                trace: Some("t.jsonl".into()),
                chrome_trace: None,
                graph: Some("g.svg".into()),
                memory: Some("m.csv".into()),
            })
        );
        assert_eq!(
            options(&args(&["--file", "d.csv.gz", "--file", "e.txt", "a.py"])).map(|o| o.files),
            Ok(vec!["d.csv.gz".to_string(), "e.txt".to_string()])
        );
        assert!(options(&args(&["--graph", "g.png", "a.py"])).is_err());
        assert!(options(&args(&["--trace"])).is_err());
        assert!(options(&args(&[])).is_err());
        assert!(options(&args(&["--frobnicate", "a.py"])).is_err());
    }

    #[test]
    fn run_reads_the_program_folder_within_bounds() {
        let dir = std::env::temp_dir().join(format!("gradscope-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (name, text) in [
            ("a.py", "1"),
            ("sub/b.txt", "22"),
            (".git/c", "3"),
            ("__pycache__/d.pyc", "4"),
            ("z.txt", "55555"),
        ] {
            let path = dir.join(name);
            let _ = std::fs::create_dir_all(path.parent().unwrap_or(&dir));
            let _ = std::fs::write(path, text);
        }
        let names = |found: &FolderFiles| -> Vec<String> {
            found
                .files
                .iter()
                .map(|(n, _)| n.trim_start_matches(&*dir.to_string_lossy()).to_string())
                .collect()
        };
        let all = program_folder_files(&dir, 10, 1 << 20);
        assert_eq!(names(&all), ["/a.py", "/z.txt", "/sub/b.txt"]);
        assert_eq!(all.skipped, None);
        let some = program_folder_files(&dir, 10, 4);
        assert_eq!(names(&some), ["/a.py"]);
        assert!(
            some.skipped
                .as_deref()
                .is_some_and(|m| m.contains("only the first 1 files (1 bytes)")),
            "{:?}",
            some.skipped
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn run_has_no_time_limit_unless_asked() {
        assert_eq!(options(&args(&["prog.py"])).map(|o| o.time_limit), Ok(None));
        assert_eq!(
            options(&args(&["--time-limit", "2.5", "prog.py"])).map(|o| o.time_limit),
            Ok(Some(2.5))
        );
    }

    #[test]
    fn run_gives_the_arguments_after_the_program_to_it() {
        let parsed = options(&args(&[
            "--device", "cpu", "main.py", "--epochs", "1", "--device", "b.py", "-h",
        ]));
        assert_eq!(
            parsed.as_ref().map(|o| (o.file.as_str(), o.args.clone())),
            Ok((
                "main.py",
                args(&["--epochs", "1", "--device", "b.py", "-h"])
            ))
        );
        assert_eq!(parsed.map(|o| o.device), Ok("cpu".to_string()));
        assert_eq!(
            options(&args(&["-", "x"])).map(|o| (o.file, o.args)),
            Ok(("-".to_string(), args(&["x"])))
        );
    }
}
