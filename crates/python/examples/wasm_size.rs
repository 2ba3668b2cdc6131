//! A throwaway wasm module to measure what the runtime adds to a `.wasm`
//! and how fast it starts and runs there:
//! `cargo build --release --target wasm32-unknown-unknown -p gradscope-python --example wasm_size`
//! (natively it is an empty library).

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::time::Duration;

    use gradscope_python::{Limits, Runtime};
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Runs `source` in a new runtime and returns what it printed (stdout,
    /// then stderr); `time_limit_ms` 0 runs it without a time budget (and
    /// so without the line tracer wasm32 needs to enforce one).
    #[wasm_bindgen]
    pub fn run_python(source: &str, time_limit_ms: f64) -> String {
        let time = (time_limit_ms > 0.0).then(|| Duration::from_secs_f64(time_limit_ms / 1000.0));
        let mut runtime = Runtime::with_limits(Limits {
            time,
            ..Limits::default()
        });
        let out = runtime.run(source);
        out.stdout + &out.stderr
    }
}
