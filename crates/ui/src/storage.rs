//! The learner's code and settings in `localStorage`, so a reload loses nothing.

use gradscope_trace::protocol::{Device, EXAMPLE};
use yew::prelude::*;

use crate::state::State;

const SOURCE_KEY: &str = "gradscope.source";
const DEVICE_KEY: &str = "gradscope.device";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved code (or the example) and device (or the CPU).
pub fn load() -> (String, Device) {
    let store = storage();
    let get = |key| store.as_ref().and_then(|s| s.get_item(key).ok().flatten());
    let source = get(SOURCE_KEY).unwrap_or_else(|| EXAMPLE.to_string());
    let device = get(DEVICE_KEY)
        .as_deref()
        .and_then(Device::from_name)
        .unwrap_or_default();
    (source, device)
}

/// Saves the code and device whenever either changes.
#[hook]
pub fn use_saved_settings(state: &UseReducerHandle<State>) {
    use_effect_with((state.source.clone(), state.device), |(source, device)| {
        if let Some(store) = storage() {
            // A full or disabled storage only costs the next reload its code.
            let _ = store.set_item(SOURCE_KEY, source);
            let _ = store.set_item(DEVICE_KEY, device.name());
        }
    });
}

/// The value of `name` in the page's address (`?name=value`), if given.
pub fn address_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
        .map(str::to_string)
}

/// The lesson named by `?lesson=SLUG` in the page's address, if it exists.
pub fn lesson_in_address() -> Option<&'static str> {
    gradscope_lessons::find(&address_param("lesson")?).map(|l| l.slug)
}

/// Puts the open lesson in the address (`?lesson=SLUG`), keeping the rest,
/// so a reload or a copied link opens it again.
pub fn set_lesson_in_address(slug: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let (Ok(path), Ok(search)) = (location.pathname(), location.search()) else {
        return;
    };
    let mut pairs: Vec<String> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("lesson="))
        .map(str::to_string)
        .collect();
    if let Some(slug) = slug {
        pairs.push(format!("lesson={slug}"));
    }
    let url = if pairs.is_empty() {
        path
    } else {
        format!("{path}?{}", pairs.join("&"))
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
