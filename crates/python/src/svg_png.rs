//! `_gradscope._svg_to_png(svg, dpi)`: the PNG bytes of a figure's SVG
//! document, drawn by resvg at matplotlib's pixel size (the SVG's size in
//! points times `dpi / 72`, so figsize * dpi). pyplot's `savefig` calls it
//! for a `.png` name; the function is registered by the native runtime only
//! (the page's worker has no rasterizer, and savefig writes the SVG there).
//!
//! Text: the figures name "DejaVu Sans", as matplotlib; resvg gets the
//! DejaVu Sans files from the usual font directories (read once, no scan of
//! every system font). Without them the text is left out of the image (the
//! rest draws).

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};
use rustpython_vm::builtins::{PyModule, PyStrRef};
use rustpython_vm::{AsObject, Py, PyObjectRef, PyResult, VirtualMachine};

/// Where DejaVu lives on Debian/Ubuntu and the other usual layouts.
const FONT_DIRS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
];

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        // fontdb's directory loader needs its `fs` feature (and with it
        // memmap and system scanning); reading the few files here is enough.
        for dir in FONT_DIRS {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let font = path.extension().is_some_and(|e| {
                    e.eq_ignore_ascii_case("ttf") || e.eq_ignore_ascii_case("otf")
                });
                let dejavu = path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("DejaVuSans"));
                if font
                    && dejavu
                    && let Ok(data) = std::fs::read(&path)
                {
                    db.load_font_data(data);
                }
            }
        }
        db.set_sans_serif_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// The PNG encoding of `svg` rendered at `dpi` pixels per inch (the SVG's
/// width and height are in points, 72 to the inch). Errors are messages
/// for a `ValueError`.
pub fn svg_to_png(svg: &str, dpi: f64) -> Result<Vec<u8>, String> {
    if !(dpi.is_finite() && dpi > 0.0) {
        return Err(format!("dpi must be positive, got {dpi}"));
    }
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".into(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    // usvg reads `width="460.8pt"` as 96 px to the inch; the figure's
    // inches are points / 72, so the image is figsize * dpi pixels,
    // rounded as Agg rounds (640x480 at 6.4x4.8 in and 100 dpi).
    let size = tree.size();
    let inches = |px: f32| px as f64 / 96.0;
    let w = (inches(size.width()) * dpi).round().max(1.0) as u32;
    let h = (inches(size.height()) * dpi).round().max(1.0) as u32;
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| format!("cannot make a {w}x{h} image"))?;
    let transform =
        tiny_skia::Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// Registers `_svg_to_png` on `_gradscope`.
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    let f = vm.new_function(
        "_svg_to_png",
        |svg: PyStrRef, dpi: f64, vm: &VirtualMachine| -> PyResult<PyObjectRef> {
            let text = svg.to_string_lossy();
            let png = svg_to_png(&text, dpi).map_err(|e| vm.new_value_error(e))?;
            Ok(vm.ctx.new_bytes(png).into())
        },
    );
    module
        .as_object()
        .set_attr(vm.ctx.intern_str("_svg_to_png"), f, vm)
}
