//! Compute pipelines built on first use and kept for the device's lifetime,
//! keyed by WGSL entry point.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// How a kernel reads one binding: every binding is an `array<...>` in storage.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Access {
    Read,
    ReadWrite,
}

/// Everything needed to build one kernel's pipeline.
#[derive(Debug)]
pub(crate) struct KernelSpec {
    /// The WGSL entry point, `<family>_<op>`; also the cache key.
    pub entry_point: &'static str,
    /// `gradscope::<family>::<op>`, put on every object made for the kernel.
    pub label: &'static str,
    /// The whole WGSL source file holding the entry point.
    pub source: &'static str,
    /// Group 0's bindings, in binding order.
    pub bindings: &'static [Access],
}

/// A built kernel: its pipeline and the layout its bind groups follow.
#[derive(Clone, Debug)]
pub(crate) struct Kernel {
    pub pipeline: wgpu::ComputePipeline,
    pub bind_group_layout: wgpu::BindGroupLayout,
}

/// The pipelines built so far on one device.
#[derive(Debug, Default)]
pub(crate) struct PipelineCache {
    kernels: Mutex<HashMap<&'static str, Kernel>>,
}

impl PipelineCache {
    /// The kernel for `spec`, built on first request.
    /// A shader or pipeline that fails validation reaches the device's
    /// error handler, which the caller checks after encoding.
    pub(crate) fn get(&self, device: &wgpu::Device, spec: &KernelSpec) -> Kernel {
        let mut kernels = self.kernels.lock().unwrap_or_else(PoisonError::into_inner);
        kernels
            .entry(spec.entry_point)
            .or_insert_with(|| build(device, spec))
            .clone()
    }
}

/// What the strided kernels share (`strided_offset`), prepended to the
/// source of each that calls it: WGSL has no includes.
pub const STRIDED_PRELUDE: &str = include_str!("../../../shaders/strided.wgsl");

/// A shader file's source as the device compiles it: with the strided
/// prelude where the file calls into it.
pub fn shader_source(file: &str) -> Cow<'_, str> {
    if file.contains("strided_offset(") {
        Cow::Owned(format!("{STRIDED_PRELUDE}\n{file}"))
    } else {
        Cow::Borrowed(file)
    }
}

fn build(device: &wgpu::Device, spec: &KernelSpec) -> Kernel {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(spec.label),
        source: wgpu::ShaderSource::Wgsl(shader_source(spec.source)),
    });
    let entries: Vec<wgpu::BindGroupLayoutEntry> = spec
        .bindings
        .iter()
        .zip(0u32..)
        .map(|(access, binding)| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage {
                    read_only: matches!(access, Access::Read),
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(spec.label),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(spec.label),
        bind_group_layouts: &[Some(&bind_group_layout)],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(spec.label),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(spec.entry_point),
        compilation_options: Default::default(),
        cache: None,
    });
    Kernel {
        pipeline,
        bind_group_layout,
    }
}
