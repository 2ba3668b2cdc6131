//! What the program printed: `out` and `x.grad`, as PyTorch prints them.

use gradscope_trace::format::tensor_str;
use yew::prelude::*;

use crate::state::CpuResult;

/// Props of [`ResultPanel`].
#[derive(Properties, PartialEq)]
pub struct Props {
    pub cpu: Option<CpuResult>,
    pub error: Option<String>,
}

/// The CPU run's values, or the error that stopped it.
#[function_component]
pub fn ResultPanel(props: &Props) -> Html {
    let body = match (&props.cpu, &props.error) {
        (_, Some(error)) => html! { <pre class="error" data-testid="error">{ error }</pre> },
        (Some(cpu), None) => html! {
            <dl>
                <dt>{ "out" }</dt>
                <dd data-testid="out">{ format!("out = {}", tensor_str(&[cpu.out], &[])) }</dd>
                <dt>{ "x.grad" }</dt>
                <dd data-testid="x-grad">
                    <pre>{ format!("x.grad = {}", tensor_str(&cpu.x_grad, &cpu.x_grad_shape)) }</pre>
                </dd>
            </dl>
        },
        (None, None) => html! { <p>{ "running…" }</p> },
    };
    html! {
        <section class="result">
            <h2>{ "Result (CPU engine)" }</h2>
            { body }
        </section>
    }
}
