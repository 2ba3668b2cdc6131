//! The device choice: CPU, or WebGPU with the adapter's name, or why not.

use gradscope_trace::protocol::{Device, WebGpu};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`DeviceMenu`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub device: Device,
    /// `None` while the worker probes.
    pub webgpu: Option<WebGpu>,
    pub on_change: Callback<Device>,
}

/// A labelled select; WebGPU is disabled, with the reason beside it, when
/// this browser cannot use it.
#[function_component]
pub fn DeviceMenu(props: &Props) -> Html {
    let (webgpu_label, available, note) = match &props.webgpu {
        None => ("WebGPU (looking for an adapter…)".to_string(), false, None),
        Some(WebGpu::Available { adapter, .. }) => (format!("WebGPU · {adapter}"), true, None),
        Some(WebGpu::Unavailable { reason }) => (
            "WebGPU (unavailable)".to_string(),
            false,
            Some(format!(
                "WebGPU is not available here: {reason}. Programs run on the CPU."
            )),
        ),
    };
    let on_change = props.on_change.clone();
    let onchange = move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        if let Some(device) = Device::from_name(&value) {
            on_change.emit(device);
        }
    };
    // A saved WebGPU choice falls back to the CPU where WebGPU is missing.
    let effective = if available { props.device } else { Device::Cpu };
    html! {
        <div class="device-menu">
            <label for="device">{ "Device" }</label>
            <select id="device" data-testid="device" {onchange}>
                <option value="cpu" selected={effective == Device::Cpu}>{ "CPU" }</option>
                <option value="webgpu" disabled={!available}
                        selected={effective == Device::WebGpu}>{ webgpu_label }</option>
            </select>
            if let Some(note) = note {
                <span class="device-note" data-testid="webgpu-unavailable" title={note.clone()}>{ note }</span>
            }
        </div>
    }
}
