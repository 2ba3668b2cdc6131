//! Saving a view as a file: the browser downloads what the page made (the
//! memory timeline's CSV, the trace's Perfetto JSON, a view's SVG, or that
//! SVG drawn as a PNG).
//!
//! All of it through `Reflect`, so the page's `web-sys` needs no Blob,
//! canvas or serializer bindings. The site's Content-Security-Policy
//! (`img-src 'self' data:`) lets an `<img>` load the SVG as a `data:` URL
//! for the PNG; a canvas that drew such an image stays readable (Chromium
//! taints it only for `<foreignObject>`, which the views do not use); and
//! downloads through a link are not governed by the policy.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Downloads `text` as the file `name` of type `mime`: through a Blob URL
/// (a trace's JSON runs to megabytes, more than a `data:` URL should
/// carry), else through a `data:` URL.
pub fn download(name: &str, mime: &str, text: &str) {
    if blob_url(mime, text)
        .and_then(|url| {
            let clicked = click_link(&url, name);
            revoke_later(&url);
            clicked
        })
        .is_err()
    {
        let encoded = String::from(js_sys::encode_uri_component(text));
        let _ = click_link(&format!("data:{mime};charset=utf-8,{encoded}"), name);
    }
}

/// Downloads `svg` (a standalone SVG, see [`standalone_svg`]) drawn on a
/// canvas at `scale` times its `width` by `height`, on white, as the PNG
/// file `name`. The image loads asynchronously; the download follows.
pub fn download_png(name: &str, svg: &str, (width, height): (f64, f64), scale: f64) {
    let _ = try_download_png(name, svg, (width, height), scale);
}

/// The scale a PNG of a `width` by `height` view is drawn at: twice, for
/// sharp text, unless that passes [`MAX_PNG_SIDE`] pixels on a side
/// (Chromium refuses canvases much larger), then as large as fits.
pub fn png_scale((width, height): (f64, f64)) -> f64 {
    let side = width.max(height).max(1.0);
    (MAX_PNG_SIDE / side).min(2.0)
}

/// The longest side a PNG export is drawn at, in pixels.
pub const MAX_PNG_SIDE: f64 = 8192.0;

/// The CSS properties a standalone SVG keeps from the page's stylesheet:
/// what the views' classes set (colours, strokes, fonts, placement of
/// text).
const STYLED: [&str; 14] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "visibility",
];

/// The view's `<svg>` as a file that renders alone: each element's
/// styles as the page computes them written into its `style` attribute,
/// elements the page hides left out, sized `width` by `height` with a
/// white background. Elements matching `untransform` (a CSS selector, the
/// pan and zoom group) lose their transform, so the file shows the whole
/// view at its own scale. Classes in `unclass` are taken off the page's
/// element while the styles are read (the graph's `overview`, which hides
/// text when zoomed out).
pub fn standalone_svg(
    svg: &web_sys::Element,
    (width, height): (f64, f64),
    untransform: &str,
    unclass: &[&str],
) -> Result<String, JsValue> {
    let window: JsValue = web_sys::window()
        .ok_or_else(|| JsValue::from_str("no window"))?
        .into();
    let classes = js_sys::Reflect::get(svg, &"classList".into())?;
    let removed: Vec<&str> = unclass
        .iter()
        .copied()
        .filter(|c| call(&classes, "contains", &[(*c).into()]).is_ok_and(|v| v.is_truthy()))
        .collect();
    for class in &removed {
        call(&classes, "remove", &[(*class).into()])?;
    }
    let copy = copy_with_styles(&window, svg);
    for class in &removed {
        call(&classes, "add", &[(*class).into()])?;
    }
    let copy: web_sys::Element = copy?.dyn_into()?;
    for attribute in [
        "class",
        "style",
        "data-scale",
        "role",
        "aria-label",
        "data-testid",
    ] {
        copy.remove_attribute(attribute)?;
    }
    copy.set_attribute("xmlns", "http://www.w3.org/2000/svg")?;
    copy.set_attribute("width", &format!("{}", width.ceil()))?;
    copy.set_attribute("height", &format!("{}", height.ceil()))?;
    copy.set_attribute(
        "viewBox",
        &format!("0 0 {} {}", width.ceil(), height.ceil()),
    )?;
    let moved = call(&copy, "querySelectorAll", &[untransform.into()])?;
    for element in array(&moved) {
        let element: web_sys::Element = element.dyn_into()?;
        element.remove_attribute("transform")?;
    }
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let background = document.create_element_ns(Some("http://www.w3.org/2000/svg"), "rect")?;
    background.set_attribute("width", "100%")?;
    background.set_attribute("height", "100%")?;
    background.set_attribute("fill", "#ffffff")?;
    copy.prepend_with_node_1(&background)?;
    let serializer = construct("XMLSerializer", &[])?;
    let text = call(&serializer, "serializeToString", &[copy.into()])?;
    text.as_string()
        .ok_or_else(|| JsValue::from_str("not serialised"))
}

/// A deep copy of `svg` whose elements carry their computed styles, those
/// the page does not display left out.
fn copy_with_styles(window: &JsValue, svg: &web_sys::Element) -> Result<JsValue, JsValue> {
    let copy = call(svg, "cloneNode", &[true.into()])?;
    let originals = array(&call(svg, "querySelectorAll", &["*".into()])?);
    let copies = array(&call(&copy, "querySelectorAll", &["*".into()])?);
    let mut hidden = Vec::new();
    for (original, copied) in originals.iter().zip(copies.iter()) {
        let style = call(window, "getComputedStyle", std::slice::from_ref(original))?;
        let value = |property: &str| {
            call(&style, "getPropertyValue", &[property.into()])
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        if value("display") == "none" {
            hidden.push(copied.clone());
            continue;
        }
        let inline: String = STYLED
            .iter()
            .filter_map(|property| {
                let v = value(property);
                (!v.is_empty()).then(|| format!("{property}:{v};"))
            })
            .collect();
        call(copied, "setAttribute", &["style".into(), inline.into()])?;
    }
    for element in hidden {
        call(&element, "remove", &[])?;
    }
    Ok(copy)
}

fn try_download_png(
    name: &str,
    svg: &str,
    (width, height): (f64, f64),
    scale: f64,
) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let image = document.create_element("img")?;
    let canvas = document.create_element("canvas")?;
    let (w, h) = ((width * scale).ceil(), (height * scale).ceil());
    js_sys::Reflect::set(&canvas, &"width".into(), &w.into())?;
    js_sys::Reflect::set(&canvas, &"height".into(), &h.into())?;
    let name = name.to_string();
    let drawn = image.clone();
    let onload = Closure::once_into_js(move || {
        let draw = || -> Result<(), JsValue> {
            let context = call(&canvas, "getContext", &["2d".into()])?;
            js_sys::Reflect::set(&context, &"fillStyle".into(), &"#fff".into())?;
            call(
                &context,
                "fillRect",
                &[0.into(), 0.into(), w.into(), h.into()],
            )?;
            call(
                &context,
                "drawImage",
                &[drawn.into(), 0.into(), 0.into(), w.into(), h.into()],
            )?;
            let url = call(&canvas, "toDataURL", &["image/png".into()])?
                .as_string()
                .ok_or_else(|| JsValue::from_str("no PNG"))?;
            click_link(&url, &name)
        };
        if let Err(err) = draw() {
            web_sys::console::warn_2(&"gradscope: PNG export failed".into(), &err);
        }
    });
    js_sys::Reflect::set(&image, &"onload".into(), &onload)?;
    let encoded = String::from(js_sys::encode_uri_component(svg));
    image.set_attribute(
        "src",
        &format!("data:image/svg+xml;charset=utf-8,{encoded}"),
    )?;
    Ok(())
}

/// A Blob URL of `text` as `mime`.
fn blob_url(mime: &str, text: &str) -> Result<String, JsValue> {
    let parts = js_sys::Array::of1(&text.into());
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"type".into(), &mime.into())?;
    let blob = construct("Blob", &[parts.into(), options.into()])?;
    let url_class = js_sys::Reflect::get(&js_sys::global(), &"URL".into())?;
    call(&url_class, "createObjectURL", &[blob])?
        .as_string()
        .ok_or_else(|| JsValue::from_str("no Blob URL"))
}

/// Lets the Blob at `url` go once the download has begun (a later task).
fn revoke_later(url: &str) {
    let url = url.to_string();
    let revoke = Closure::once_into_js(move || {
        if let Ok(class) = js_sys::Reflect::get(&js_sys::global(), &"URL".into()) {
            let _ = call(&class, "revokeObjectURL", &[url.into()]);
        }
    });
    if let Some(window) = web_sys::window() {
        let _ = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    }
}

/// Clicks a hidden link to `href` that downloads it as `name`.
fn click_link(href: &str, name: &str) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let link = document.create_element("a")?;
    link.set_attribute("href", href)?;
    link.set_attribute("download", name)?;
    link.set_attribute("hidden", "")?;
    let body = document
        .body()
        .ok_or_else(|| JsValue::from_str("no body"))?;
    body.append_child(&link)?;
    call(&link, "click", &[])?;
    link.remove();
    Ok(())
}

/// `this.method(...args)`.
fn call(this: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let function: js_sys::Function = js_sys::Reflect::get(this, &method.into())?.dyn_into()?;
    function.apply(this, &args.iter().collect::<js_sys::Array>())
}

/// `new Class(...args)` for a global `Class`.
fn construct(class: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let class: js_sys::Function =
        js_sys::Reflect::get(&js_sys::global(), &class.into())?.dyn_into()?;
    js_sys::Reflect::construct(&class, &args.iter().collect::<js_sys::Array>())
}

/// The items of a `NodeList` (or any array-like).
fn array(list: &JsValue) -> Vec<JsValue> {
    js_sys::Array::from(list).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_scale_is_twice_unless_too_large() {
        assert_eq!(png_scale((600.0, 400.0)), 2.0);
        assert_eq!(png_scale((16384.0, 300.0)), 0.5);
        assert_eq!(png_scale((0.0, 0.0)), 2.0);
        // The longest side never passes the limit.
        assert!(png_scale((5000.0, 9000.0)) * 9000.0 <= MAX_PNG_SIDE);
    }
}
