//! The learner's code and settings in `localStorage`, so a reload loses
//! nothing; and the page's address: `?lesson=`, `?time_limit=`, and share
//! links in its fragment (`#v1=`, read and written by [`crate::share`]).

use gradscope_trace::protocol::{Device, EXAMPLE};
use yew::prelude::*;

use crate::share::Shared;
use crate::state::State;

const SOURCE_KEY: &str = "gradscope.source";
const DEVICE_KEY: &str = "gradscope.device";
const BUDGET_KEY: &str = "gradscope.budget_mib";
const PASSED_KEY: &str = "gradscope.lessons_passed";

/// The memory budget the page offers, in MiB: the worker's default (1 GiB)
/// is also its most, past which wasm32 could abort instead of raising.
pub const MAX_BUDGET_MIB: u32 = 1024;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// What the page saved: code, device and memory budget.
pub struct Saved {
    pub source: String,
    pub device: Device,
    pub budget_mib: Option<u32>,
}

/// The saved code (or the example), device (or the CPU) and budget (or none).
pub fn load() -> Saved {
    let store = storage();
    let get = |key| store.as_ref().and_then(|s| s.get_item(key).ok().flatten());
    Saved {
        source: get(SOURCE_KEY).unwrap_or_else(|| EXAMPLE.to_string()),
        device: get(DEVICE_KEY)
            .as_deref()
            .and_then(Device::from_name)
            .unwrap_or_default(),
        budget_mib: get(BUDGET_KEY).as_deref().and_then(parse_budget),
    }
}

/// A budget as typed or saved: whole MiB from 1 to [`MAX_BUDGET_MIB`]
/// (larger is capped), `None` for empty or not a number.
pub fn parse_budget(text: &str) -> Option<u32> {
    let mib: u64 = text.trim().parse().ok()?;
    Some(mib.clamp(1, u64::from(MAX_BUDGET_MIB)) as u32)
}

/// Saves the code, device and budget whenever one changes, except while
/// the code shown is a share link's that the reader has not edited or run:
/// opening a link must not overwrite the reader's own work. Once it is
/// theirs, the link leaves the address, so a reload shows what they saved.
#[hook]
pub fn use_saved_settings(state: &UseReducerHandle<State>) {
    use_effect_with(
        (
            state.source.clone(),
            state.device,
            state.budget_mib,
            state.keep_saved,
        ),
        |(source, device, budget, keep_saved)| {
            if *keep_saved {
                return;
            }
            if let Some(store) = storage() {
                // A full or disabled storage only costs the next reload its code.
                let _ = store.set_item(SOURCE_KEY, source);
                let _ = store.set_item(DEVICE_KEY, device.type_name());
                let _ = match budget {
                    Some(mib) => store.set_item(BUDGET_KEY, &mib.to_string()),
                    None => store.remove_item(BUDGET_KEY),
                };
            }
            clear_link_in_address();
        },
    );
}

/// The lessons the learner ran with every claim holding, as saved.
pub fn load_passed() -> Vec<&'static str> {
    storage()
        .and_then(|s| s.get_item(PASSED_KEY).ok().flatten())
        .map(|text| parse_passed(&text))
        .unwrap_or_default()
}

/// Saved lesson slugs (`a,b`) as the lessons they name, in the lessons'
/// order; a slug no lesson has any more is dropped.
pub fn parse_passed(text: &str) -> Vec<&'static str> {
    let saved: Vec<&str> = text.split(',').map(str::trim).collect();
    gradscope_lessons::lessons()
        .iter()
        .map(|l| l.slug)
        .filter(|slug| saved.contains(slug))
        .collect()
}

/// Saves the lessons passed whenever another one is.
#[hook]
pub fn use_saved_progress(passed: &std::rc::Rc<[&'static str]>) {
    use_effect_with(passed.clone(), |passed| {
        if let Some(store) = storage()
            && !passed.is_empty()
        {
            let _ = store.set_item(PASSED_KEY, &passed.join(","));
        }
    });
}

/// The share link in the page's address, if it holds one: its settings, or
/// why they cannot be read.
pub fn link_in_address() -> Option<Result<Shared, String>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    Some(Shared::from_fragment(&hash)?.map_err(|e| e.to_string()))
}

/// The page's address without its fragment.
fn address_without_fragment() -> Option<String> {
    let href = web_sys::window()?.location().href().ok()?;
    Some(href.split('#').next().unwrap_or_default().to_string())
}

/// Takes a share link out of the address (other fragments stay).
fn clear_link_in_address() {
    if let Some(Ok(hash)) = web_sys::window().map(|w| w.location().hash())
        && Shared::from_fragment(&hash).is_some()
    {
        replace_address(&address_without_fragment().unwrap_or_default());
    }
}

/// Makes a share link to `shared`, puts it in the address (so the address
/// bar holds it too) and copies it to the clipboard where the browser
/// allows; returns the link, or why it could not be made.
pub fn share(shared: &Shared) -> Result<String, String> {
    let base = address_without_fragment().ok_or("the page's address cannot be read")?;
    let url = format!(
        "{base}{}",
        shared.to_fragment(&base).map_err(|e| e.to_string())?
    );
    replace_address(&url);
    if let Some(window) = web_sys::window() {
        // Refused without a user gesture or permission: the bar shows the
        // link to copy by hand, so the promise's outcome is not needed.
        let _ = window.navigator().clipboard().write_text(&url);
    }
    Ok(url)
}

fn replace_address(url: &str) {
    if let Some(Ok(history)) = web_sys::window().map(|w| w.history()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_parses_lessons_passed_in_order() {
        assert_eq!(
            parse_passed("retain-graph, no such lesson,graph-lifecycle"),
            vec!["graph-lifecycle", "retain-graph"]
        );
        assert!(parse_passed("").is_empty());
    }

    #[test]
    fn storage_parses_budgets() {
        assert_eq!(parse_budget("64"), Some(64));
        assert_eq!(parse_budget(" 8 "), Some(8));
        assert_eq!(parse_budget("0"), Some(1));
        assert_eq!(parse_budget("5000"), Some(MAX_BUDGET_MIB));
        assert_eq!(parse_budget("99999999999999999999"), None);
        assert_eq!(parse_budget(""), None);
        assert_eq!(parse_budget("-3"), None);
        assert_eq!(parse_budget("1.5"), None);
    }
}
