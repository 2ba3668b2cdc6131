//! Saving a view as a file: the browser downloads text the page made (the
//! memory timeline's CSV) through a `data:` link, which the site's
//! Content-Security-Policy allows without a Blob URL.

use wasm_bindgen::{JsCast, JsValue};

/// Downloads `text` as the file `name` of type `mime`.
pub fn download(name: &str, mime: &str, text: &str) {
    let _ = try_download(name, mime, text);
}

fn try_download(name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let link = document.create_element("a")?;
    let encoded = String::from(js_sys::encode_uri_component(text));
    link.set_attribute("href", &format!("data:{mime};charset=utf-8,{encoded}"))?;
    link.set_attribute("download", name)?;
    link.set_attribute("hidden", "")?;
    let body = document
        .body()
        .ok_or_else(|| JsValue::from_str("no body"))?;
    body.append_child(&link)?;
    let click: js_sys::Function =
        js_sys::Reflect::get(&link, &JsValue::from_str("click"))?.dyn_into()?;
    click.call0(&link)?;
    link.remove();
    Ok(())
}
