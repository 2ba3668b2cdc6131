//! Per-op tolerances shared by the native kernel tests (through `common`)
//! and `binary.rs`, which also runs in the browser, where `common` (the
//! native device helpers) is not built.

/// The absolute tolerance of the binary kernel `op` against the CPU: WGSL's
/// `fma` need not be fused (lavapipe rounds `1 - y * y` twice where the CPU
/// rounds once), so `tanh_backward` may differ by a few ulps of `grad`
/// where `y * y` is near 1 and the relative error is large.
pub fn binary_atol(op: gradscope_core::BinaryOp) -> f32 {
    if op == gradscope_core::BinaryOp::TanhBackward {
        1e-5
    } else {
        0.0
    }
}
