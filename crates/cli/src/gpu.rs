//! The GPU for `--device webgpu` and for programs that ask for `webgpu`:
//! natively, wgpu on Vulkan (Mesa lavapipe in tests).

use std::rc::Rc;

use gradscope_core::DeviceBackend;

/// Lets the engine open the GPU the first time anything asks for it, so
/// CPU-only runs never start a Vulkan instance.
pub fn register() {
    gradscope_core::device::set_gpu_opener(Box::new(|| {
        let gpu = pollster::block_on(gradscope_wgpu::GpuDevice::new())?;
        Ok(Rc::new(gpu) as Rc<dyn DeviceBackend>)
    }));
}

/// Makes `name` (`cpu`, `webgpu`, `gpu`) the device programs put tensors
/// on, as `torch.set_default_device` would; the GPU is opened now, so a
/// machine without one fails before the program starts, saying why.
pub fn use_device(name: &str) -> Result<gradscope_core::Device, String> {
    let device = gradscope_core::device::parse(name).map_err(|e| e.to_string())?;
    if device == gradscope_core::Device::WebGpu {
        let gpu = gradscope_core::device::gpu().map_err(|e| e.to_string())?;
        eprintln!("gradscope: webgpu device: {}", gpu.adapter_name());
    }
    gradscope_core::device::set_default_device(device);
    Ok(device)
}
