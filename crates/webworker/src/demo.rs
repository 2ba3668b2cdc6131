//! The walking skeleton's computation: autograd on the CPU with its trace,
//! then its elementwise forward on the GPU, checked against the CPU.

use gradscope_core::{BinaryOp, Layout, Tensor, trace};
use gradscope_trace::Reply;
use gradscope_wgpu::GpuDevice;

use crate::post;

/// `x = ones(2, 2)`; `y = x + 2`; `z = y * y * 3`; `out = z.mean()`; backward.
fn skeleton() -> gradscope_core::Result<(Tensor, Tensor, Tensor)> {
    let x = Tensor::ones(&[2, 2]).requires_grad_(true);
    let y = x.add(&Tensor::scalar(2.0))?;
    let z = y.mul(&y)?.mul(&Tensor::scalar(3.0))?;
    let out = z.mean()?;
    out.backward()?;
    Ok((x, z, out))
}

/// Runs the demo and posts its events and results.
pub(crate) async fn run() {
    let (result, events) = trace::record(skeleton);
    post(&Reply::Events { events });
    let z = match result {
        Ok((x, z, out)) => {
            let (x_grad, x_grad_shape) = match x.grad() {
                Some(g) => (g.to_vec::<f64>(), g.shape().to_vec()),
                None => (vec![], vec![]),
            };
            match out.item() {
                Ok(out) => post(&Reply::CpuResult {
                    out,
                    x_grad,
                    x_grad_shape,
                }),
                Err(err) => return post_error(&err),
            }
            z.to_vec::<f32>()
        }
        Err(err) => return post_error(&err),
    };
    let reply = match gpu_forward(&z).await {
        Ok(reply) => reply,
        Err(err) => Reply::GpuUnavailable {
            reason: err.to_string(),
        },
    };
    post(&reply);
}

fn post_error(err: &gradscope_core::Error) {
    post(&Reply::Error {
        kind: err.python_type().into(),
        message: err.to_string(),
    });
}

/// `z = (x + 2) * (x + 2) * 3` by `shaders/binary.wgsl`, with the scalars
/// broadcast through stride-0 layouts, compared with the CPU's `z`.
async fn gpu_forward(cpu_z: &[f32]) -> gradscope_core::Result<Reply> {
    let device = GpuDevice::new().await?;
    let shape = [2, 2];
    let dense = Layout::contiguous(&shape);
    let scalar = |v: f32| -> gradscope_core::Result<_> {
        Ok((
            device.upload(&[v])?,
            Layout::contiguous(&[]).broadcast_to(&shape)?,
        ))
    };
    let x = device.upload(&[1.0; 4])?;
    let (two, two_layout) = scalar(2.0)?;
    let (three, three_layout) = scalar(3.0)?;
    let y = device.binary(BinaryOp::Add, &x, &dense, &two, &two_layout)?;
    let yy = device.binary(BinaryOp::Mul, &y, &dense, &y, &dense)?;
    let z = device.binary(BinaryOp::Mul, &yy, &dense, &three, &three_layout)?;
    let z = device.read(&z).await?;
    let max_abs_diff = z
        .iter()
        .zip(cpu_z)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    Ok(Reply::GpuResult {
        adapter: device.adapter_name().to_string(),
        backend: device.backend_name().to_string(),
        z,
        max_abs_diff,
    })
}
