//! Our `matplotlib.pyplot` against real matplotlib: each program of
//! `tests/fixtures/matplotlib.json` (recorded by
//! `tests/fixtures/record_matplotlib.py`) runs in the runtime followed by
//! the recorder's DUMP code, which prints every figure's size, each axes'
//! position, limits, scales, tick positions, tick labels, offset texts,
//! titles, artist counts and legend box; the lines must equal what real
//! matplotlib printed. Numbers match to 1e-9 relative, except axes
//! positions and legend boxes, which depend on text extents (ours sum
//! DejaVu Sans advance widths; matplotlib measures hinted glyphs) and match
//! to 0.02 of the axes. Then: tensors as data (and PyTorch's error for one
//! that requires grad; contours of a `torch.meshgrid` loss surface),
//! `show()` handing figures to the host and printing
//! nothing, `savefig` writing a PNG of matplotlib's size, and tqdm's bar.
//!
//! `cargo test -p gradscope-python --test matplotlib [NAME...]`.

use std::cell::RefCell;
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use gradscope_python::Runtime;

/// Positions and legend boxes, in fractions of the figure or the axes.
const LAYOUT_TOLERANCE: f64 = 0.02;
/// Everything else: limits and ticks come from the same arithmetic.
const RELATIVE: f64 = 1e-9;

/// A check beside the recorded programs.
type Check = fn() -> Result<(), String>;

struct Case {
    name: String,
    source: String,
    lines: Vec<String>,
    warnings: Vec<String>,
}

fn fixture() -> Result<(String, Vec<Case>), String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/matplotlib.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let dump = json["dump"].as_str().ok_or("no dump")?.to_string();
    let cases = json["cases"].as_object().ok_or("no cases")?;
    let mut out = vec![];
    for (name, case) in cases {
        out.push(Case {
            name: name.clone(),
            source: case["source"].as_str().ok_or("no source")?.to_string(),
            lines: case["lines"]
                .as_array()
                .ok_or("no lines")?
                .iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect(),
            warnings: case["warnings"]
                .as_array()
                .ok_or("no warnings")?
                .iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect(),
        });
    }
    Ok((dump, out))
}

/// Compares one printed line with the recorded one; returns the largest
/// layout deviation seen, or why they differ.
fn compare_line(got: &str, want: &str, relative: f64) -> Result<f64, String> {
    let g: Vec<&str> = got.split_whitespace().collect();
    let w: Vec<&str> = want.split_whitespace().collect();
    if g.len() != w.len() {
        return Err(format!("got  {got}\n    want {want}"));
    }
    let layout = matches!(w.first(), Some(&"legend") | Some(&"position"));
    let mut worst: f64 = 0.0;
    // The first two tokens are the kind and the figure.axes tag.
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        if a == b {
            continue;
        }
        let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>()) else {
            return Err(format!("got  {got}\n    want {want}"));
        };
        let ok = if layout && i >= 2 {
            worst = worst.max((x - y).abs());
            (x - y).abs() <= LAYOUT_TOLERANCE
        } else {
            (x - y).abs() <= relative * y.abs().max(1e-300) || (x - y).abs() < 1e-12
        };
        if !ok {
            return Err(format!("got  {got}\n    want {want}"));
        }
    }
    Ok(worst)
}

/// The warnings in what a run wrote to stderr, as `Category: message`
/// (CPython writes `file:line: Category: message`, then the source line).
fn warnings_of(stderr: &str) -> Result<Vec<String>, String> {
    let mut out = vec![];
    for line in stderr.lines() {
        let parts: Vec<&str> = line.splitn(3, ": ").collect();
        if parts.len() == 3 && parts[1].ends_with("Warning") {
            out.push(format!("{}: {}", parts[1], parts[2]));
        } else if !line.starts_with("  ") {
            return Err(format!("unexpected stderr line {line:?}"));
        }
    }
    Ok(out)
}

fn check_program(
    name: &str,
    program: &str,
    want: &[String],
    warned: &[String],
    relative: f64,
) -> Result<f64, String> {
    let mut rt = Runtime::new();
    let out = rt.run(program);
    if let Some(err) = &out.error {
        return Err(format!("{name} raised:\n{}", err.traceback));
    }
    let got_warnings = warnings_of(&out.stderr).map_err(|e| format!("{name}: {e}"))?;
    if got_warnings != warned {
        return Err(format!("{name} warned {got_warnings:?}, want {warned:?}"));
    }
    let got: Vec<&str> = out.stdout.lines().collect();
    let mut worst: f64 = 0.0;
    let mut problems = vec![];
    for (g, w) in got.iter().zip(want) {
        match compare_line(g, w, relative) {
            Ok(d) => worst = worst.max(d),
            Err(e) => problems.push(e),
        }
    }
    if got.len() != want.len() {
        problems.push(format!(
            "{} lines printed, {} recorded",
            got.len(),
            want.len()
        ));
    }
    if problems.is_empty() {
        Ok(worst)
    } else {
        Err(format!("{name}:\n    {}", problems.join("\n    ")))
    }
}

/// The autograd tutorial's sine, plotted from tensors: the same figure as
/// the recorded list version (float32 values: limits to 1e-6).
const SINE_TENSORS: &str = "
import math
import torch
import matplotlib.pyplot as plt
a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
b = torch.sin(a)
plt.plot(a.detach(), b.detach())
plt.figure()
plt.plot(a.detach(), torch.cos(a).detach(), label='cos')
plt.plot(a.detach(), b.detach(), 'r--', label='sin')
plt.legend()
";

/// A loss surface's contours from `torch.meshgrid` and a descent path
/// that autograd computes: the same figure as the recorded list version.
const CONTOUR_TENSORS: &str = "
import torch
import matplotlib.pyplot as plt
ws = torch.linspace(-1, 1, 21, dtype=torch.float64)
X, Y = torch.meshgrid(ws, ws, indexing='xy')
plt.contour(X, Y, X ** 2 + 2 * Y ** 2)
w = torch.tensor([0.9, 0.8], dtype=torch.float64, requires_grad=True)
path1, path2 = [], []
for _ in range(10):
    path1.append(w[0].item())
    path2.append(w[1].item())
    loss = w[0] ** 2 + 2 * w[1] ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
plt.plot(path1, path2, 'ro-')
plt.title('Gradient descent on x^2 + 2y^2')
";

fn check_errors() -> Result<(), String> {
    let mut rt = Runtime::new();
    let cases = [
        (
            "import torch\nimport matplotlib.pyplot as plt\nplt.plot(torch.ones(3, requires_grad=True))\n",
            "RuntimeError",
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
        ),
        (
            "import matplotlib.pyplot as plt\nplt.plot([1, 2], [1, 2, 3])\n",
            "ValueError",
            "x and y must have same first dimension, but have shapes (2,) and (3,)",
        ),
        (
            "import matplotlib.pyplot as plt\nplt.plot([1, 2], 'q')\n",
            "ValueError",
            "'q' is not a valid format string (unrecognized character 'q')",
        ),
        (
            "import matplotlib.pyplot as plt\nplt.contour([1, 2, 3])\n",
            "TypeError",
            "Input z must be 2D, not 1D",
        ),
        (
            "import matplotlib.pyplot as plt\nplt.contour([1, 2], [1, 2], [[1, 2, 3], [1, 2, 3]])\n",
            "TypeError",
            "Length of x (2) must match number of columns in z (3)",
        ),
        (
            "import matplotlib.pyplot as plt\nplt.contourf([[1, 2], [3, 4]], levels=[1])\n",
            "ValueError",
            "Filled contours require at least 2 levels.",
        ),
        (
            "import matplotlib.pyplot as plt\nplt.pie([1, -1])\n",
            "ValueError",
            "Wedge sizes 'x' must be non negative values",
        ),
    ];
    for (program, kind, message) in cases {
        let out = rt.run(program);
        let err = out
            .error
            .ok_or_else(|| format!("no error from:\n{program}"))?;
        if err.type_name != kind || err.message != message {
            return Err(format!(
                "{program}: got {}: {}, want {kind}: {message}",
                err.type_name, err.message
            ));
        }
    }
    Ok(())
}

fn unhex(text: &str) -> Result<Vec<u8>, String> {
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

/// The width and height in a PNG's IHDR, after checking its signature.
fn png_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        let head = &bytes[..bytes.len().min(16)];
        return Err(format!("not a PNG: starts {head:?}"));
    }
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Ok((word(16), word(20)))
}

/// savefig to a .png writes a PNG of matplotlib's pixel size (figsize *
/// dpi, from the fixture's recorded figure lines: 640x480 for the sine
/// program, 800x400 for the loss curve's figsize=(8, 4), half at dpi=50,
/// and truncated at dpi=72 as Agg truncates), with the figure drawn in it; format="png" and a binary file
/// object do the same; an .svg name still gets the SVG document.
fn check_savefig_png(cases: &[Case]) -> Result<(), String> {
    // Programs write to the runtime's file system in memory; each
    // program below prints what it wrote, in hex.
    let mut rt = Runtime::new();
    for name in ["sine", "loss_curve"] {
        let case = cases
            .iter()
            .find(|c| c.name == name)
            .ok_or_else(|| format!("no {name} in the fixture"))?;
        // The recorded size of the figure the program draws last (gcf()).
        let figures: Vec<Vec<f64>> = case
            .lines
            .iter()
            .filter_map(|l| l.strip_prefix("figure "))
            .map(|l| l.split(' ').filter_map(|x| x.parse().ok()).collect())
            .collect();
        let last = figures.last().ok_or("no figure line")?;
        let (w_in, h_in, dpi) = (last[1], last[2], last[3]);
        for (save_dpi, args) in [(dpi, ""), (50.0, ", dpi=50"), (72.0, ", dpi=72")] {
            let program = format!(
                "{}\nimport matplotlib.pyplot as plt\nplt.savefig('out/{name}.png'{args})\n\
                 print(open('out/{name}.png', 'rb').read().hex())\n",
                case.source
            );
            let out = rt.run(&format!(
                "import os\nos.makedirs('out', exist_ok=True)\n{program}"
            ));
            if let Some(err) = out.error {
                return Err(format!("{name}: {}", err.traceback));
            }
            let bytes = unhex(out.stdout.lines().last().unwrap_or(""))?;
            let size = png_size(&bytes)?;
            // Agg truncates: 6.4 in at 72 dpi is 460 pixels.
            let want = ((w_in * save_dpi) as u32, (h_in * save_dpi) as u32);
            if size != want {
                return Err(format!(
                    "{name}{args}: PNG is {size:?}, matplotlib's {want:?}"
                ));
            }
            let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).map_err(|e| e.to_string())?;
            let pixels = pixmap.pixels();
            let white = pixels
                .iter()
                .filter(|p| {
                    p.red() == 255 && p.green() == 255 && p.blue() == 255 && p.alpha() == 255
                })
                .count();
            let opaque = pixels.iter().all(|p| p.alpha() == 255);
            // The white figure, with axes, ticks, text and lines on it:
            // mostly white, and a few percent drawn.
            let drawn = pixels.len() - white;
            if !opaque || white < pixels.len() / 2 || drawn < pixels.len() / 100 {
                return Err(format!(
                    "{name}{args}: {drawn} of {} pixels drawn, opaque {opaque}",
                    pixels.len()
                ));
            }
        }
    }
    let out = rt.run(
        "import io\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\n\
         plt.savefig('format.bin', format='png')\nplt.savefig('figure.svg')\n\
         buf = io.BytesIO()\nplt.savefig(buf, format='png')\nprint(buf.getvalue()[:4])\n\
         print(open('figure.svg').read()[:5])\nprint(open('format.bin', 'rb').read().hex())\n\
         import _gradscope\nprint(_gradscope._svg_to_png(plt.gcf().to_svg(), 72.0).hex())\n",
    );
    if let Some(err) = out.error {
        return Err(err.traceback);
    }
    let lines: Vec<&str> = out.stdout.lines().collect();
    if lines.len() != 4 || lines[0] != "b'\\x89PNG'" || lines[1] != "<?xml" {
        return Err(format!(
            "savefig(BytesIO / .svg) printed {:?}",
            &lines[..lines.len().min(2)]
        ));
    }
    let size = png_size(&unhex(lines[2])?)?;
    if size != (640, 480) {
        return Err(format!("format='png': {size:?}"));
    }
    // Without a size, the host function truncates the document's inches
    // times dpi as Agg does.
    let size = png_size(&unhex(lines[3])?)?;
    if size != (460, 345) {
        return Err(format!("_svg_to_png(svg, 72): {size:?}"));
    }
    Ok(())
}

fn check_show() -> Result<(), String> {
    let shown = Rc::new(RefCell::new(Vec::<String>::new()));
    let keep = shown.clone();
    gradscope_python::set_figure_sink(Some(Box::new(move |svg: &str| {
        keep.borrow_mut().push(svg.to_string())
    })));
    let mut rt = Runtime::new();
    let out = rt.run(
        "import matplotlib.pyplot as plt\n\
         plt.plot([1, 2, 3], label='a')\nplt.legend()\n\
         fig, axs = plt.subplots(2, 2)\naxs[1, 1].imshow([[0, 1], [2, 3]], cmap='gray')\n\
         plt.show()\nprint(plt.get_fignums())\n",
    );
    gradscope_python::set_figure_sink(None);
    if let Some(err) = out.error {
        return Err(err.traceback);
    }
    let shown = shown.borrow();
    if out.stdout != "[]\n" || !out.stderr.is_empty() {
        return Err(format!("show() printed {:?} {:?}", out.stdout, out.stderr));
    }
    if shown.len() != 2
        || !shown
            .iter()
            .all(|s| s.contains("<svg") && s.ends_with("</svg>\n"))
    {
        return Err(format!("show() handed over {} figures", shown.len()));
    }
    if !shown[0].contains("#1f77b4") || !shown[1].contains("data:image/png;base64,") {
        return Err("the figures lack the first cycle colour or the image".to_string());
    }
    Ok(())
}

fn check_tqdm() -> Result<(), String> {
    let mut rt = Runtime::new();
    let out = rt.run(
        "from tqdm import tqdm, trange\nfrom tqdm.auto import tqdm as auto_tqdm\n\
         for i in tqdm(range(10)):\n    pass\n\
         for i in trange(3, desc='epoch'):\n    pass\n\
         with auto_tqdm(total=4, unit='B', unit_scale=True) as t:\n    t.update(4)\n",
    );
    if let Some(err) = out.error {
        return Err(err.traceback);
    }
    // Times and rates are masked: the bars are compared as tqdm draws them.
    let masked: String = out
        .stderr
        .split('\r')
        .map(|part| {
            let mut s = String::new();
            let mut skipping = false;
            for c in part.chars() {
                if c == '[' {
                    skipping = true;
                    s.push_str("[T]");
                } else if c == ']' {
                    skipping = false;
                } else if !skipping {
                    s.push(c);
                }
            }
            s
        })
        .collect::<Vec<_>>()
        .join("\r");
    let want = "\r  0%|          | 0/10 [T]\r100%|██████████| 10/10 [T]\n\
                \repoch:   0%|          | 0/3 [T]\repoch: 100%|██████████| 3/3 [T]\n\
                \r  0%|          | 0.00/4.00 [T]\r100%|██████████| 4.00/4.00 [T]\n";
    if masked != want || !out.stdout.is_empty() {
        return Err(format!("tqdm wrote {:?}, want {want:?}", out.stderr));
    }
    // A bar never closed draws its end as the program ends, as CPython's
    // finalizers make it at exit; again in the next program of the runtime.
    for _ in 0..2 {
        let out = rt.run("from tqdm import tqdm\np = tqdm(total=2)\np.update(2)\nprint('end')\n");
        let last = out.stderr.rsplit('\r').next().unwrap_or("");
        if out.stdout != "end\n"
            || !last.starts_with("100%|██████████| 2/2 [")
            || !last.ends_with("]\n")
        {
            return Err(format!("an open bar at the end wrote {:?}", out.stderr));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let (dump, cases) = match fixture() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("matplotlib fixture: {e}");
            return ExitCode::FAILURE;
        }
    };
    if cases.is_empty() {
        eprintln!("matplotlib fixture has no programs");
        return ExitCode::FAILURE;
    }
    let mut failures = 0;
    let mut report = |name: &str, result: Result<String, String>| match result {
        Ok(note) => println!("ok   {name}{note}"),
        Err(e) => {
            failures += 1;
            println!("FAIL {e}");
        }
    };
    for case in &cases {
        if !wanted(&case.name) {
            continue;
        }
        let program = format!("{}\n{dump}", case.source);
        let result = check_program(&case.name, &program, &case.lines, &case.warnings, RELATIVE)
            .map(|w| format!(" (layout within {w:.4})"));
        report(&case.name, result);
        if case.name == "sine" {
            let program = format!("{SINE_TENSORS}\n{dump}");
            let result = check_program("sine_tensors", &program, &case.lines, &[], 1e-6)
                .map(|w| format!(" (layout within {w:.4})"));
            report("sine_tensors", result);
        }
        if case.name == "contour_descent" {
            let program = format!("{CONTOUR_TENSORS}\n{dump}");
            let result = check_program("contour_tensors", &program, &case.lines, &[], 1e-6)
                .map(|w| format!(" (layout within {w:.4})"));
            report("contour_tensors", result);
        }
    }
    let extra: [(&str, Check); 3] = [
        ("errors", check_errors),
        ("show", check_show),
        ("tqdm", check_tqdm),
    ];
    for (name, check) in extra {
        if wanted(name) {
            report(name, check().map(|()| String::new()));
        }
    }
    if wanted("savefig_png") {
        report(
            "savefig_png",
            check_savefig_png(&cases).map(|()| String::new()),
        );
    }
    if failures > 0 {
        println!("{failures} failed");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
