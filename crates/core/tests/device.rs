//! The device layer with a stand-in GPU whose "device memory" is host
//! vectors: storages keep their two copies coherent, ops route to the
//! backend's kernels or fall back to the host, devices never mix silently,
//! memory is counted on the right ledger, and training on the device gives
//! the CPU's numbers. The real GPU backend runs the same programs in
//! crates/wgpu's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use std::any::Any;
use std::rc::Rc;

use gradscope_core::backend::Kernel;
use gradscope_core::ledger::{self, Category};
use gradscope_core::{
    BinaryOp, Device, DeviceBackend, DeviceBuffer, Error, Layout, Tensor, device,
};

#[derive(Debug)]
struct HostBuffer(Vec<f32>);

impl DeviceBuffer for HostBuffer {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A GPU with only the binary and copy kernels, so the other ops take the
/// host fallback.
#[derive(Debug)]
struct StandIn;

fn values(b: &dyn DeviceBuffer) -> &[f32] {
    &b.as_any().downcast_ref::<HostBuffer>().unwrap().0
}

fn gather(b: &dyn DeviceBuffer, l: &Layout) -> Vec<f32> {
    l.indices().map(|i| values(b)[i]).collect()
}

impl DeviceBackend for StandIn {
    fn adapter_name(&self) -> String {
        "stand-in".into()
    }
    fn upload(&self, data: &[f32]) -> gradscope_core::Result<Box<dyn DeviceBuffer>> {
        Ok(Box::new(HostBuffer(data.to_vec())))
    }
    fn download(&self, b: &dyn DeviceBuffer) -> gradscope_core::Result<Vec<f32>> {
        Ok(values(b).to_vec())
    }
    fn copy(&self, x: &dyn DeviceBuffer, l: &Layout) -> Kernel {
        Ok(Some(Box::new(HostBuffer(gather(x, l)))))
    }
    fn binary(
        &self,
        op: BinaryOp,
        a: &dyn DeviceBuffer,
        al: &Layout,
        b: &dyn DeviceBuffer,
        bl: &Layout,
    ) -> Kernel {
        let out = gather(a, al)
            .into_iter()
            .zip(gather(b, bl))
            .map(|(x, y)| op.apply(x, y))
            .collect();
        Ok(Some(Box::new(HostBuffer(out))))
    }
}

fn gpu() {
    device::set_gpu(Rc::new(StandIn));
}

#[test]
fn device_strings_parse_as_torch_device_does() {
    assert_eq!(Device::parse("cpu").unwrap(), Device::Cpu);
    assert_eq!(Device::parse("webgpu").unwrap(), Device::WebGpu);
    assert_eq!(Device::parse("webgpu:0").unwrap(), Device::WebGpu);
    assert_eq!(Device::parse("gpu").unwrap(), Device::WebGpu);
    assert_eq!(Device::WebGpu.to_string(), "webgpu:0");
    assert_eq!(
        device::parse("cuda").unwrap_err().to_string(),
        "Torch not compiled with CUDA enabled"
    );
    assert_eq!(
        device::parse("tpu").unwrap_err().to_string(),
        "Expected one of cpu, webgpu, gpu device type at start of device string: tpu"
    );
    assert!(Device::parse("webgpu:1").is_err());
}

#[test]
fn without_a_gpu_moving_there_says_why() {
    device::set_gpu_unavailable("no adapter");
    let err = Tensor::ones(&[2]).to_device(Device::WebGpu).unwrap_err();
    assert_eq!(err.to_string(), "WebGPU is not available: no adapter");
}

#[test]
fn an_opener_that_finds_no_gpu_gives_its_reason_once() {
    device::set_gpu_unavailable("not yet opened");
    device::set_gpu_opener(Box::new(|| {
        Err(gradscope_core::Error::DeviceUnavailable {
            reason: "this browser lacks JSPI".into(),
        })
    }));
    let err = Tensor::ones(&[2]).to_device(Device::WebGpu).unwrap_err();
    assert_eq!(
        err.to_string(),
        "WebGPU is not available: this browser lacks JSPI"
    );
    // The failure is remembered: asking again gives the same reason.
    let again = device::gpu().map(|_| ()).unwrap_err();
    assert_eq!(again.to_string(), err.to_string());
}

#[test]
fn values_round_trip_and_views_read_through_the_device() {
    gpu();
    let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let g = x.to_device(Device::WebGpu).unwrap();
    assert_eq!(g.device(), Device::WebGpu);
    let t = g.t().unwrap();
    assert_eq!(t.to_vec::<f32>(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    let back = t.contiguous().unwrap().to_device(Device::Cpu).unwrap();
    assert_eq!(back.device(), Device::Cpu);
    assert_eq!(back.to_vec::<f32>(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
}

#[test]
fn kernels_run_where_they_exist_and_the_host_computes_the_rest() {
    gpu();
    let x = Tensor::from_vec(vec![1.0f32, -2.0, 3.0], &[3])
        .unwrap()
        .to_device(Device::WebGpu)
        .unwrap();
    let before = device::kernel_stats();
    let y = x.mul(&x).unwrap().add(&Tensor::scalar(1.0)).unwrap();
    let after = device::kernel_stats();
    assert_eq!(after.kernels - before.kernels, 2, "mul and add are kernels");
    assert_eq!(after.host_fallbacks, before.host_fallbacks);
    let z = y.exp().unwrap();
    assert_eq!(
        device::kernel_stats().host_fallbacks - after.host_fallbacks,
        1
    );
    assert_eq!(
        z.device(),
        Device::WebGpu,
        "a fallback's result stays on the device"
    );
    let expected: Vec<f32> = [2.0f32, 5.0, 10.0].iter().map(|v| v.exp()).collect();
    assert_eq!(z.to_vec::<f32>(), expected);
}

#[test]
fn devices_never_mix_except_for_cpu_numbers() {
    gpu();
    let g = Tensor::ones(&[2]).to_device(Device::WebGpu).unwrap();
    let c = Tensor::ones(&[2]);
    let err = g.add(&c).unwrap_err();
    assert!(matches!(err, Error::DeviceMismatch { .. }));
    assert_eq!(
        err.to_string(),
        "Expected all tensors to be on the same device, but found at least two devices, webgpu:0 and cpu!"
    );
    assert!(g.gt(&c).is_err());
    let scaled = g.mul(&Tensor::scalar(3.0)).unwrap();
    assert_eq!(scaled.device(), Device::WebGpu);
    assert_eq!(scaled.to_vec::<f32>(), vec![3.0, 3.0]);
    assert_eq!(g.gt(&Tensor::scalar(0.5)).unwrap().device(), Device::WebGpu);
}

#[test]
fn float64_stays_off_the_gpu() {
    gpu();
    let x = Tensor::ones(&[2])
        .to_dtype(gradscope_core::DType::Float64)
        .unwrap();
    assert!(matches!(
        x.to_device(Device::WebGpu),
        Err(Error::GpuFloat64)
    ));
    let g = Tensor::ones(&[2]).to_device(Device::WebGpu).unwrap();
    let err = g.to_dtype(gradscope_core::DType::Float64).unwrap_err();
    assert!(matches!(err, Error::GpuFloat64), "{err}");
}

#[test]
fn memory_is_counted_on_the_device_it_lives_on() {
    gpu();
    let cpu_before = ledger::stats_on(Device::Cpu).total;
    let gpu_before = ledger::stats_on(Device::WebGpu).total;
    let g = Tensor::ones(&[256]).to_device(Device::WebGpu).unwrap();
    assert_eq!(ledger::stats_on(Device::WebGpu).total - gpu_before, 1024);
    assert_eq!(ledger::stats_on(Device::Cpu).total, cpu_before);
    drop(g);
    assert_eq!(ledger::stats_on(Device::WebGpu).total, gpu_before);
    assert_eq!(ledger::stats_on(Device::WebGpu).current(Category::Other), 0);
}

#[test]
fn gradients_flow_back_across_devices() {
    gpu();
    let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2])
        .unwrap()
        .requires_grad_(true);
    let g = x.to_device(Device::WebGpu).unwrap();
    assert_eq!(g.grad_fn().unwrap().name(), "ToCopyBackward0");
    let loss = g.mul(&g).unwrap().sum().unwrap();
    loss.backward().unwrap();
    let grad = x.grad().unwrap();
    assert_eq!(grad.device(), Device::Cpu);
    assert_eq!(grad.to_vec::<f32>(), vec![2.0, 4.0]);
}

/// A few SGD steps of a small MLP, on `device`: the losses.
fn train(device: Device) -> Vec<f32> {
    gradscope_core::ops::random::manual_seed(0);
    let on = |t: Tensor| t.to_device(device).unwrap().requires_grad_(true);
    let w1 = on(Tensor::randn(&[4, 8], gradscope_core::DType::Float32).unwrap());
    let b1 = on(Tensor::zeros(&[8]));
    let w2 = on(Tensor::randn(&[8, 1], gradscope_core::DType::Float32).unwrap());
    let x = Tensor::randn(&[16, 4], gradscope_core::DType::Float32)
        .unwrap()
        .to_device(device)
        .unwrap();
    let y = x.sum_dim(&[1], true).unwrap();
    let mut losses = vec![];
    for _ in 0..5 {
        let h = x.matmul(&w1).unwrap().add(&b1).unwrap().relu().unwrap();
        let out = h.matmul(&w2).unwrap();
        let loss = out
            .sub(&y)
            .unwrap()
            .pow_scalar(gradscope_core::Scalar::Int(2))
            .unwrap()
            .mean()
            .unwrap();
        losses.push(loss.item().unwrap() as f32);
        loss.backward().unwrap();
        for p in [&w1, &b1, &w2] {
            let grad = p.grad().unwrap();
            let _off = gradscope_core::grad_mode::GradModeGuard::no_grad();
            p.sub_(&grad.mul(&Tensor::scalar(0.05)).unwrap()).unwrap();
            p.set_grad(None);
        }
    }
    losses
}

#[test]
fn training_on_the_device_gives_the_cpu_losses() {
    gpu();
    let cpu = train(Device::Cpu);
    let gpu = train(Device::WebGpu);
    assert!(cpu[4] < cpu[0], "the loss falls: {cpu:?}");
    for (c, g) in cpu.iter().zip(&gpu) {
        assert!(
            (c - g).abs() <= 1e-5 * c.abs().max(1.0),
            "{cpu:?} vs {gpu:?}"
        );
    }
}

#[test]
fn an_op_given_no_optional_tensor_runs_on_either_device() {
    use gradscope_core::ops::nn_conv::Conv2dOptions;
    gpu();
    // The placeholder for the missing bias is first made while the GPU is
    // the default device, and must serve CPU ops afterwards too.
    device::set_default_device(Device::WebGpu);
    let x = Tensor::ones(&[1, 2, 4, 4]).requires_grad_(true);
    let w = Tensor::ones(&[2, 1, 2, 2]).requires_grad_(true);
    let options = Conv2dOptions {
        groups: 2,
        ..Default::default()
    };
    let y = x.conv2d(&w, None, &options).unwrap();
    assert_eq!(y.device(), Device::WebGpu);
    device::set_default_device(Device::Cpu);
    let on_cpu = Tensor::ones(&[1, 2, 4, 4]).conv2d(&Tensor::ones(&[2, 1, 2, 2]), None, &options);
    assert_eq!(on_cpu.unwrap().to_vec::<f32>(), vec![4.0; 18]);
    // GPU tensors with the CPU as default device.
    let gx = Tensor::ones(&[1, 2, 4, 4])
        .to_device(Device::WebGpu)
        .unwrap();
    let gw = Tensor::ones(&[2, 1, 2, 2])
        .to_device(Device::WebGpu)
        .unwrap();
    let gy = gx.conv2d(&gw, None, &options).unwrap();
    assert_eq!(gy.device(), Device::WebGpu);
}

#[test]
fn ops_with_a_number_and_alpha_run_as_kernels() {
    // The stand-in's binary kernel computes what the CPU computes, so the
    // values agree exactly; `x ** 0.5` needs the unary kernel it lacks.
    use gradscope_core::ops::arith::Scalar;
    gpu();
    let host = Tensor::from_vec(vec![0.5f32, -1.25, 2.0, 4.0], &[4]).unwrap();
    let other = Tensor::from_vec(vec![3.0f32, 1.0, -2.0, 0.25], &[4]).unwrap();
    let run = |x: &Tensor, y: &Tensor| -> Vec<Tensor> {
        vec![
            x.pow_scalar(Scalar::Int(2)).unwrap(),
            x.pow_scalar(Scalar::Int(3)).unwrap(),
            x.pow_scalar(Scalar::Int(-1)).unwrap(),
            x.pow_scalar(Scalar::Int(-2)).unwrap(),
            x.rsub(&Tensor::scalar(1.0)).unwrap(),
            x.add_alpha(y, Scalar::Float(-0.1)).unwrap(),
            x.sub_alpha(y, Scalar::Int(3)).unwrap(),
        ]
    };
    let want = run(&host, &other);
    let (x, y) = (
        host.to_device(Device::WebGpu).unwrap(),
        other.to_device(Device::WebGpu).unwrap(),
    );
    let before = device::kernel_stats();
    let got = run(&x, &y);
    let after = device::kernel_stats();
    assert_eq!(
        after.host_fallbacks,
        before.host_fallbacks,
        "{:?}",
        device::host_fallbacks_by_op()
    );
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.device(), Device::WebGpu);
        assert_eq!(g.to_vec::<f32>(), w.to_vec::<f32>());
    }
}
