//! Devices as Python names them: `"webgpu"`, `torch.device("cpu")`, `0`.

use gradscope_core::Device;
use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};

use crate::errors::IntoPy;

/// A device given as a string, a `torch.device`, or an index (PyTorch's
/// accelerator number: 0 is the GPU). Naming the GPU opens it, so a
/// machine without one fails here, saying why.
pub(crate) fn parse_device(v: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Device> {
    let device = match v.try_to_value::<i64>(vm) {
        Ok(0) => Device::WebGpu,
        Ok(i) => {
            return Err(vm.new_runtime_error(format!(
                "Invalid device index {i}: gradscope has one GPU, webgpu:0"
            )));
        }
        Err(_) => gradscope_core::device::parse(v.str(vm)?.as_ref()).py(vm)?,
    };
    if device == Device::WebGpu {
        gradscope_core::device::gpu().py(vm)?;
    }
    Ok(device)
}
