//! Which GPU ran the elementwise kernel, or why none did.

use gradscope_trace::format::tensor_str;
use yew::prelude::*;

use crate::state::Gpu;

/// Props of [`DevicePanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub gpu: Gpu,
}

/// The GPU slice: adapter name and the kernel's agreement with the CPU.
#[function_component]
pub fn DevicePanel(props: &Props) -> Html {
    let body = match &props.gpu {
        Gpu::Pending => html! { <p>{ "looking for a WebGPU adapter…" }</p> },
        Gpu::Ran {
            adapter,
            backend,
            z,
            max_abs_diff,
        } => html! {
            <>
                <p data-testid="gpu-adapter">
                    { format!("WebGPU adapter: {adapter} ({backend})") }
                </p>
                <p data-testid="gpu-result">
                    { format!(
                        "z = y * y * 3 by shaders/binary.wgsl: {} — max |GPU − CPU| = {max_abs_diff}",
                        tensor_str(&z.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), &[2, 2]).replace('\n', " ")
                    ) }
                </p>
            </>
        },
        Gpu::Unavailable { reason } => html! {
            <p class="notice" data-testid="gpu-unavailable">
                { format!("WebGPU is not available here ({reason}); everything runs on the CPU.") }
            </p>
        },
    };
    html! {
        <section class="device">
            <h2>{ "GPU" }</h2>
            { body }
        </section>
    }
}
