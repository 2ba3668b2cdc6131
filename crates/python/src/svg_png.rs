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
use rustpython_vm::function::OptionalArg;
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

/// The PNG encoding of `svg` drawn at `dpi` pixels per inch (the SVG's
/// width and height are in points, 72 to the inch), `size` pixels wide and
/// high. Without `size`, the image is the document's size in inches times
/// `dpi`, truncated as Agg truncates (640x480 at 6.4x4.8 in and 100 dpi,
/// 460x345 at 72 dpi). Errors are messages for a `ValueError`.
pub fn svg_to_png(svg: &str, dpi: f64, size: Option<(u32, u32)>) -> Result<Vec<u8>, String> {
    if !(dpi.is_finite() && dpi > 0.0) {
        return Err(format!("dpi must be positive, got {dpi}"));
    }
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".into(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    // usvg reads `width="460.8pt"` as CSS pixels, 96 to the inch, parsed
    // as f32: the small slack keeps 639.99998 from truncating to 639.
    let scale = dpi / 96.0;
    let (w, h) = size.unwrap_or_else(|| {
        let px = |v: f32| (v as f64 * scale + 1e-3).floor().max(1.0) as u32;
        (px(tree.size().width()), px(tree.size().height()))
    });
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| format!("cannot make a {w}x{h} image"))?;
    let transform = tiny_skia::Transform::from_scale(scale as f32, scale as f32);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// Registers `_svg_to_png(svg, dpi, width=None, height=None)` on
/// `_gradscope`: savefig passes matplotlib's pixel size, int(figsize * dpi).
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    let f = vm.new_function(
        "_svg_to_png",
        |svg: PyStrRef,
         dpi: f64,
         width: OptionalArg<u32>,
         height: OptionalArg<u32>,
         vm: &VirtualMachine|
         -> PyResult<PyObjectRef> {
            let size = match (width.into_option(), height.into_option()) {
                (Some(w), Some(h)) if w > 0 && h > 0 => Some((w, h)),
                (None, None) => None,
                _ => return Err(vm.new_value_error("width and height must both be positive")),
            };
            let text = svg.to_string_lossy();
            let png = svg_to_png(&text, dpi, size).map_err(|e| vm.new_value_error(e))?;
            Ok(vm.ctx.new_bytes(png).into())
        },
    );
    module
        .as_object()
        .set_attr(vm.ctx.intern_str("_svg_to_png"), f, vm)
}
