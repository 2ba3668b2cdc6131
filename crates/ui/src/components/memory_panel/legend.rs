//! Under the chart: the bytes of each category at the cursor, the GPU
//! allocator's reserve there when it has one, and, on the page (not in
//! the widget), the memory budget of the next run.

use gradscope_trace::Category;
use gradscope_trace::memory_chart::bytes_label;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::layers::category_class;
use crate::storage::{MAX_BUDGET_MIB, parse_budget};

/// What the legend reads at the cursor.
pub struct AtCursor {
    /// Bytes by category, in `Category::ALL` order.
    pub bytes: [u64; 5],
    /// The caching allocator's reserve, when the chart draws one.
    pub reserved: Option<u64>,
}

/// The legend; `on_budget` (the page's) adds the budget control, set to
/// `budget_mib`.
pub fn legend(
    at: AtCursor,
    budget_mib: Option<u32>,
    on_budget: Option<Callback<Option<u32>>>,
) -> Html {
    let categories = Category::ALL.iter().map(|&c| html! {
        <li class={category_class(c)}>
            <span class="swatch" aria-hidden="true" />{ format!("{} {}", c.label(), bytes_label(at.bytes[c as usize])) }
        </li>
    });
    let reserved = at.reserved.map(|bytes| html! {
        <li class="reserved" data-testid="memory-reserved-legend"
            title="Bytes the GPU's caching allocator holds from the device (torch.webgpu.memory_reserved()); the stack under it is allocated to tensors.">
            <span class="swatch" aria-hidden="true" />{ format!("reserved {}", bytes_label(bytes)) }
        </li>
    });
    let control = on_budget.map(|on_budget| {
        let onchange = move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let mib = parse_budget(&input.value());
            // Show the value as capped, or empty for the default.
            input.set_value(&mib.map(|m| m.to_string()).unwrap_or_default());
            on_budget.emit(mib);
        };
        html! {
            <li class="budget-control"
                title="Tensor memory the next run may hold; past it an allocation raises torch.OutOfMemoryError. Empty: 1 GiB, the most.">
                <label for="memory-budget">{ "budget" }</label>
                <input type="number" id="memory-budget" data-testid="budget-input" min="1"
                       max={MAX_BUDGET_MIB.to_string()} step="1" placeholder={MAX_BUDGET_MIB.to_string()}
                       value={budget_mib.map(|m| m.to_string()).unwrap_or_default()}
                       aria-describedby="memory-budget-unit" {onchange} />
                <span id="memory-budget-unit">{ "MiB on each device, for the next run" }</span>
            </li>
        }
    });
    html! {
        <ul class="legend" data-testid="memory-legend">
            { for categories }{ for reserved }{ for control }
        </ul>
    }
}
