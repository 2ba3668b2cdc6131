//! `_gradscope` (also `torch._C`): the native module under the `torch`
//! package. Factories, autograd entry points, grad modes and memory
//! figures; the Python API around them lives in `py/torch/`.

pub(crate) use _gradscope::module_def;

#[rustpython_vm::pymodule]
mod _gradscope {
    use std::cell::RefCell;

    use gradscope_core::grad_mode::{self, GradModeGuard};
    use gradscope_core::{DType, Device, Tensor, ledger};
    use rustpython_vm::builtins::{PyListRef, PyModule, PyTypeRef};
    use rustpython_vm::function::{FuncArgs, OptionalArg};
    use rustpython_vm::{
        AsObject, Py, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine, pyclass,
    };

    use crate::convert;
    use crate::dtype::PyDType;
    use crate::errors::IntoPy;
    use crate::output::{OutputStream, Stream};
    use crate::state;
    use crate::tensor::{self, PyTensor, tensor_arg, wrap};

    pub(crate) fn module_exec(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
        __module_exec(vm, module);
        crate::methods::register(vm);
        crate::compile::register(vm)?;
        crate::functional::register(vm, module)?;
        crate::figures::register(vm, module)?;
        #[cfg(not(target_arch = "wasm32"))]
        crate::svg_png::register(vm, module)?;
        crate::function::register(vm, module)?;
        crate::rng::register(vm, module)?;
        crate::stdlib::register(vm, module)?;
        let set = |name: &str, value: PyObjectRef| {
            module
                .as_object()
                .set_attr(vm.ctx.intern_str(name), value, vm)
        };
        set("TensorBase", PyTensor::class(&vm.ctx).to_owned().into())?;
        set(
            "Node",
            crate::node::PyNode::class(&vm.ctx).to_owned().into(),
        )?;
        set("dtype", PyDType::class(&vm.ctx).to_owned().into())?;
        if let Some(state) = state::current() {
            for dtype in DType::ALL {
                set(dtype.name(), state.dtype(dtype))?;
            }
            set("OutOfMemoryError", state.oom_error.clone().into())?;
            set("ExecutionLimitExceeded", state.limit_error.clone().into())?;
        }
        let names = |table: &[&str]| -> PyObjectRef {
            vm.ctx
                .new_tuple(table.iter().map(|n| vm.ctx.new_str(*n).into()).collect())
                .into()
        };
        set("_FUNCTION_NAMES", names(&crate::methods::function_names()))?;
        Ok(())
    }

    /// Registers the Python classes the native code makes objects of.
    #[pyfunction]
    fn _register(tensor_class: PyTypeRef, size_class: PyObjectRef) {
        if let Some(state) = state::current() {
            *state.tensor_class.borrow_mut() = Some(tensor_class);
            *state.size_class.borrow_mut() = Some(size_class);
        }
    }

    /// The stream objects `sys.stdout` and `sys.stderr` are set to.
    #[pyfunction]
    fn _output_streams(vm: &VirtualMachine) -> (PyObjectRef, PyObjectRef) {
        (
            OutputStream::new(Stream::Stdout).into_ref(&vm.ctx).into(),
            OutputStream::new(Stream::Stderr).into_ref(&vm.ctx).into(),
        )
    }

    fn dtype_kw(args: &mut FuncArgs, vm: &VirtualMachine) -> PyResult<Option<DType>> {
        match args.kwargs.swap_remove("dtype") {
            Some(d) => PyDType::from_object(&d, vm),
            None => Ok(None),
        }
    }

    fn requires_grad_kw(args: &mut FuncArgs, vm: &VirtualMachine) -> PyResult<bool> {
        match args.kwargs.swap_remove("requires_grad") {
            Some(v) => v.try_to_bool(vm),
            None => Ok(false),
        }
    }

    /// The device a factory's `device=` names, as a scope that places the
    /// new tensor there; drops the keywords PyTorch accepts that mean
    /// nothing here.
    fn placement_kws(
        args: &mut FuncArgs,
        vm: &VirtualMachine,
    ) -> PyResult<Option<gradscope_core::device::Scope>> {
        let mut scope = None;
        for name in ["device", "layout", "pin_memory", "memory_format"] {
            if let Some(v) = args.kwargs.swap_remove(name)
                && !vm.is_none(&v)
                && name == "device"
            {
                scope = Some(gradscope_core::device::Scope::new(
                    crate::device::parse_device(&v, vm)?,
                ));
            }
        }
        Ok(scope)
    }

    fn no_extra_kws(args: &FuncArgs, what: &str, vm: &VirtualMachine) -> PyResult<()> {
        match args.kwargs.keys().next() {
            Some(k) => {
                Err(vm.new_type_error(format!("{what}() got an unexpected keyword argument '{k}'")))
            }
            None => Ok(()),
        }
    }

    fn finish(t: Tensor, requires_grad: bool, vm: &VirtualMachine) -> PyResult {
        gradscope_core::device::check_device_error().py(vm)?;
        if t.device() == Device::WebGpu && t.dtype() == DType::Float64 {
            return Err(gradscope_core::Error::GpuFloat64).py(vm);
        }
        if requires_grad && !t.dtype().is_float() {
            return Err(vm.new_runtime_error(
                "Only Tensors of floating point and complex dtype can require gradients",
            ));
        }
        let object = wrap(t.requires_grad_(requires_grad), vm);
        if requires_grad {
            tensor::remember(&object, vm);
        }
        Ok(object)
    }

    /// `torch.tensor(data, *, dtype=None, device=None, requires_grad=False)`.
    #[pyfunction]
    fn tensor(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        crate::limits::note_line(vm);
        let dtype = dtype_kw(&mut args, vm)?;
        let requires_grad = requires_grad_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        let data = match (args.args.first(), args.kwargs.swap_remove("data")) {
            (Some(d), None) => d.clone(),
            (None, Some(d)) => d,
            _ => {
                return Err(
                    vm.new_type_error("tensor() missing 1 required positional arguments: \"data\"")
                );
            }
        };
        no_extra_kws(&args, "tensor", vm)?;
        finish(
            convert::tensor_from_data(&data, dtype, vm)?,
            requires_grad,
            vm,
        )
    }

    fn filled(mut args: FuncArgs, value: f64, what: &str, vm: &VirtualMachine) -> PyResult {
        crate::limits::note_line(vm);
        let dtype = dtype_kw(&mut args, vm)?.unwrap_or(DType::default_float());
        let requires_grad = requires_grad_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        if let Some(size) = args.kwargs.swap_remove("size") {
            args.args.push(size);
        }
        no_extra_kws(&args, what, vm)?;
        let shape = convert::shape_from_funcargs(&args, vm)?;
        gradscope_core::ledger::check_new_buffer(&shape, dtype).py(vm)?;
        finish(Tensor::full_dtype(&shape, value, dtype), requires_grad, vm)
    }

    /// `torch.ones(*size, dtype=None, requires_grad=False)`.
    #[pyfunction]
    fn ones(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        filled(args, 1.0, "ones", vm)
    }

    /// `torch.zeros(*size, dtype=None, requires_grad=False)`.
    #[pyfunction]
    fn zeros(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        filled(args, 0.0, "zeros", vm)
    }

    /// `torch.empty(*size)`: zeros, since uninitialised memory shows nothing useful.
    #[pyfunction]
    fn empty(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        filled(args, 0.0, "empty", vm)
    }

    /// `torch.full(size, fill_value, dtype=None, requires_grad=False)`; the
    /// dtype follows the fill value as in PyTorch.
    #[pyfunction]
    fn full(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        crate::limits::note_line(vm);
        let dtype = dtype_kw(&mut args, vm)?;
        let requires_grad = requires_grad_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        let mut positional = args.args.drain(..);
        let size = positional
            .next()
            .or_else(|| args.kwargs.swap_remove("size"));
        let fill = positional
            .next()
            .or_else(|| args.kwargs.swap_remove("fill_value"));
        drop(positional);
        let (Some(size), Some(fill)) = (size, fill) else {
            return Err(vm.new_type_error("full() missing required arguments: size, fill_value"));
        };
        no_extra_kws(&args, "full", vm)?;
        let shape = convert::shape_from_args(&[size], vm)?;
        let value =
            convert::scalar(&fill, vm)?.ok_or_else(|| convert::expected("Number", &fill, vm))?;
        let inferred = match value {
            convert::Scalar::Bool(_) => DType::Bool,
            convert::Scalar::Int(_) => DType::Int64,
            convert::Scalar::Float(_) => DType::default_float(),
        };
        let dtype = dtype.unwrap_or(inferred);
        // full's check names the C type (`uint8_t`), torch.tensor's the dtype.
        let integral = matches!(value, convert::Scalar::Int(_));
        dtype
            .check_fits(value.as_f64(), integral, DType::c_name)
            .py(vm)?;
        gradscope_core::ledger::check_new_buffer(&shape, dtype).py(vm)?;
        let numel = shape.iter().product();
        let t = convert::from_scalars(&vec![value; numel], &shape, dtype, vm)?;
        finish(t, requires_grad, vm)
    }

    fn number(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
        match convert::scalar(obj, vm)? {
            Some(convert::Scalar::Float(f)) => Ok(f),
            Some(convert::Scalar::Int(i)) => Ok(i as f64),
            Some(convert::Scalar::Bool(b)) => Ok(f64::from(u8::from(b))),
            None => Err(convert::expected("Number", obj, vm)),
        }
    }

    fn is_float_number(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<bool> {
        Ok(matches!(
            convert::scalar(obj, vm)?,
            Some(convert::Scalar::Float(_))
        ))
    }

    /// `torch.arange(end)`, `arange(start, end, step=1)`: int64 unless a
    /// bound is a float, as in PyTorch.
    #[pyfunction]
    fn arange(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        crate::limits::note_line(vm);
        let dtype = dtype_kw(&mut args, vm)?;
        let requires_grad = requires_grad_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        let mut bounds: Vec<PyObjectRef> = args.args.clone();
        for name in ["start", "end", "step"] {
            if let Some(v) = args.kwargs.swap_remove(name) {
                bounds.push(v);
            }
        }
        let (start, end, step) = match &bounds[..] {
            [end] => (
                vm.ctx.new_int(0).into(),
                end.clone(),
                vm.ctx.new_int(1).into(),
            ),
            [start, end] => (start.clone(), end.clone(), vm.ctx.new_int(1).into()),
            [start, end, step] => (start.clone(), end.clone(), step.clone()),
            _ => return Err(vm.new_type_error("arange() takes 1 to 3 positional arguments")),
        };
        let any_float = is_float_number(&start, vm)?
            || is_float_number(&end, vm)?
            || is_float_number(&step, vm)?;
        let dtype = dtype.unwrap_or(if any_float {
            DType::default_float()
        } else {
            DType::Int64
        });
        let t = Tensor::arange(
            number(&start, vm)?,
            number(&end, vm)?,
            number(&step, vm)?,
            dtype,
        )
        .py(vm)?;
        finish(t, requires_grad, vm)
    }

    /// `torch.linspace(start, end, steps)`.
    #[pyfunction]
    fn linspace(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        crate::limits::note_line(vm);
        let dtype = dtype_kw(&mut args, vm)?.unwrap_or(DType::default_float());
        let requires_grad = requires_grad_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        let start = crate::methods::take_arg(&mut args, 0, "start");
        let end = crate::methods::take_arg(&mut args, 1, "end");
        let steps = crate::methods::take_arg(&mut args, 2, "steps");
        let (Some(start), Some(end), Some(steps)) = (start, end, steps) else {
            return Err(
                vm.new_type_error("linspace() missing required arguments: start, end, steps")
            );
        };
        let steps = number(&steps, vm)? as i64;
        crate::sizes::check_storage(&[steps], vm)?;
        let t = Tensor::linspace(number(&start, vm)?, number(&end, vm)?, steps, dtype).py(vm)?;
        finish(t, requires_grad, vm)
    }

    /// `torch.eye(n, m=None)`.
    #[pyfunction]
    fn eye(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        let dtype = dtype_kw(&mut args, vm)?.unwrap_or(DType::default_float());
        let requires_grad = requires_grad_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        let n = crate::methods::take_arg(&mut args, 0, "n")
            .ok_or_else(|| vm.new_type_error("eye() missing required argument 'n'"))?;
        let m = crate::methods::take_arg(&mut args, 1, "m").filter(|m| !vm.is_none(m));
        let m = m.map(|m| number(&m, vm).map(|v| v as i64)).transpose()?;
        let n = number(&n, vm)? as i64;
        crate::sizes::check_storage(&[n, m.unwrap_or(n)], vm)?;
        let t = Tensor::eye(n, m, dtype).py(vm)?;
        finish(t, requires_grad, vm)
    }

    fn random_factory(
        mut args: FuncArgs,
        vm: &VirtualMachine,
        make: fn(&[i64], DType) -> gradscope_core::Result<Tensor>,
    ) -> PyResult {
        crate::limits::note_line(vm);
        let dtype = dtype_kw(&mut args, vm)?.unwrap_or(DType::default_float());
        let requires_grad = requires_grad_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        args.kwargs.swap_remove("generator");
        if let Some(size) = args.kwargs.swap_remove("size") {
            args.args.push(size);
        }
        let shape: Vec<i64> = convert::shape_from_funcargs(&args, vm)?
            .iter()
            .map(|&d| d as i64)
            .collect();
        finish(make(&shape, dtype).py(vm)?, requires_grad, vm)
    }

    /// `torch.rand(*size)`: uniform on [0, 1), from the seeded generator.
    #[pyfunction]
    fn rand(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        random_factory(args, vm, Tensor::rand)
    }

    /// `torch.randn(*size)`: standard normal, from the seeded generator.
    #[pyfunction]
    fn randn(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        random_factory(args, vm, Tensor::randn)
    }

    /// `torch.randint(low=0, high, size)`.
    #[pyfunction]
    fn randint(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        crate::limits::note_line(vm);
        let _ = dtype_kw(&mut args, vm)?;
        let _on = placement_kws(&mut args, vm)?;
        args.kwargs.swap_remove("generator");
        let size = args.kwargs.swap_remove("size").or_else(|| args.args.pop());
        let size =
            size.ok_or_else(|| vm.new_type_error("randint() missing required argument 'size'"))?;
        let (low, high) = match (
            &args.args[..],
            args.kwargs.swap_remove("low"),
            args.kwargs.swap_remove("high"),
        ) {
            ([high], None, None) => (0, number(high, vm)? as i64),
            ([], None, Some(high)) => (0, number(&high, vm)? as i64),
            ([low, high], None, None) => (number(low, vm)? as i64, number(high, vm)? as i64),
            ([], Some(low), Some(high)) => (number(&low, vm)? as i64, number(&high, vm)? as i64),
            _ => {
                return Err(
                    vm.new_type_error("randint() expects (high, size) or (low, high, size)")
                );
            }
        };
        let shape: Vec<i64> = convert::shape_from_args(&[size], vm)?
            .iter()
            .map(|&d| d as i64)
            .collect();
        Ok(wrap(Tensor::randint(low, high, &shape).py(vm)?, vm))
    }

    /// `torch.set_default_dtype(d)` for a `torch.dtype`: the engine's
    /// default floating dtype until the program sets another or ends.
    #[pyfunction]
    fn _set_default_dtype(dtype: PyRef<PyDType>, vm: &VirtualMachine) -> PyResult<()> {
        DType::set_default_float(dtype.dtype).py(vm)
    }

    /// `torch.get_default_dtype()`.
    #[pyfunction]
    fn _default_dtype(vm: &VirtualMachine) -> PyObjectRef {
        PyDType::new_object(DType::default_float(), vm)
    }

    /// `torch.manual_seed(seed)`; returns nothing useful (PyTorch returns a Generator).
    #[pyfunction]
    fn manual_seed(seed: i64) {
        gradscope_core::ops::random::manual_seed(seed as u64);
    }

    #[pyfunction]
    fn initial_seed() -> u64 {
        gradscope_core::ops::random::initial_seed()
    }

    fn tensor_list(seq: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<Tensor>> {
        let items: Vec<PyObjectRef> = seq.try_to_value(vm)?;
        items.iter().map(|o| tensor_arg(o, vm)).collect()
    }

    /// `torch.cat(tensors, dim=0)`.
    #[pyfunction]
    fn cat(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        let seq = crate::methods::take_arg(&mut args, 0, "tensors")
            .ok_or_else(|| vm.new_type_error("cat() missing required argument 'tensors'"))?;
        let dim = crate::methods::take_arg(&mut args, 1, "dim")
            .map_or(Ok(0.0), |d| number(&d, vm))? as i64;
        let list = tensor_list(&seq, vm)?;
        let refs: Vec<&Tensor> = list.iter().collect();
        crate::limits::note_line(vm);
        tensor::wrap_result(Tensor::cat(&refs, dim), vm)
    }

    /// `torch.stack(tensors, dim=0)`.
    #[pyfunction]
    fn stack(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        let seq = crate::methods::take_arg(&mut args, 0, "tensors")
            .ok_or_else(|| vm.new_type_error("stack() missing required argument 'tensors'"))?;
        let dim = crate::methods::take_arg(&mut args, 1, "dim")
            .map_or(Ok(0.0), |d| number(&d, vm))? as i64;
        let list = tensor_list(&seq, vm)?;
        let refs: Vec<&Tensor> = list.iter().collect();
        crate::limits::note_line(vm);
        tensor::wrap_result(Tensor::stack(&refs, dim), vm)
    }

    /// `torch.where(condition, input, other)`.
    #[pyfunction(name = "where")]
    fn where_(
        condition: PyObjectRef,
        input: PyObjectRef,
        other: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult {
        let condition = tensor_arg(&condition, vm)?;
        let input = crate::convert::operand(&input, vm)?
            .ok_or_else(|| convert::expected("Tensor or Number", &input, vm))?;
        let other = crate::convert::operand(&other, vm)?
            .ok_or_else(|| convert::expected("Tensor or Number", &other, vm))?;
        crate::limits::note_line(vm);
        tensor::wrap_result(input.where_cond(&condition, &other), vm)
    }

    /// `torch.autograd.grad` with its arguments already normalised to lists
    /// by `torch/autograd/__init__.py`.
    #[pyfunction]
    fn _autograd_grad(
        outputs: PyListRef,
        inputs: PyListRef,
        grad_outputs: Option<PyListRef>,
        retain_graph: Option<bool>,
        create_graph: bool,
        allow_unused: bool,
        vm: &VirtualMachine,
    ) -> PyResult {
        crate::limits::note_line(vm);
        let tensors = |list: &PyListRef| -> PyResult<Vec<Tensor>> {
            list.borrow_vec()
                .iter()
                .map(|o| tensor_arg(o, vm))
                .collect()
        };
        let outputs = tensors(&outputs)?;
        let inputs = tensors(&inputs)?;
        let grad_outputs = grad_outputs
            .map(|list| {
                list.borrow_vec()
                    .iter()
                    .map(|o| {
                        if vm.is_none(o) {
                            Ok(None)
                        } else {
                            tensor_arg(o, vm).map(Some)
                        }
                    })
                    .collect::<PyResult<Vec<_>>>()
            })
            .transpose()?;
        let grads = gradscope_core::autograd::grad(
            &outputs,
            &inputs,
            grad_outputs.as_deref(),
            retain_graph,
            create_graph,
            allow_unused,
        )
        .py(vm)?;
        let items = grads
            .into_iter()
            .map(|g| g.map_or_else(|| vm.ctx.none(), |g| wrap(g, vm)))
            .collect();
        Ok(vm.ctx.new_tuple(items).into())
    }

    #[pyfunction]
    fn is_grad_enabled() -> bool {
        grad_mode::is_grad_enabled()
    }

    #[pyfunction]
    fn is_inference_mode_enabled() -> bool {
        grad_mode::is_inference_mode_enabled()
    }

    /// Sets grad mode with no scope, as calling `torch.set_grad_enabled(mode)`
    /// as a function does. The engine only offers scoped guards, so this one
    /// is kept for ever.
    #[pyfunction]
    fn _set_grad_enabled(mode: bool) {
        if grad_mode::is_grad_enabled() != mode {
            std::mem::forget(GradModeGuard::set(mode));
        }
    }

    #[pyfunction]
    fn set_detect_anomaly(mode: bool) {
        grad_mode::set_detect_anomaly(mode);
    }

    #[pyfunction]
    fn is_anomaly_enabled() -> bool {
        grad_mode::is_anomaly_enabled()
    }

    /// A grad-mode scope: entered when made, left by `exit()`.
    #[pyattr]
    #[pyclass(name = "GradModeScope")]
    #[derive(Debug, PyPayload)]
    struct GradModeScope {
        guard: RefCell<Option<GradModeGuard>>,
    }

    #[pyclass]
    impl GradModeScope {
        #[pymethod]
        fn exit(zelf: &Py<Self>) {
            zelf.guard.borrow_mut().take();
        }
    }

    /// Enters `torch.set_grad_enabled(mode)` until the scope's `exit()`.
    #[pyfunction]
    fn _grad_mode_scope(mode: bool) -> GradModeScope {
        GradModeScope {
            guard: RefCell::new(Some(GradModeGuard::set(mode))),
        }
    }

    /// Enters `torch.inference_mode(mode)` until the scope's `exit()`.
    #[pyfunction]
    fn _inference_mode_scope(mode: bool) -> GradModeScope {
        GradModeScope {
            guard: RefCell::new(Some(GradModeGuard::inference_mode(mode))),
        }
    }

    /// The ledger a memory function reports: the device named, else the CPU's.
    fn ledger_device(device: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult<Device> {
        match device.into_option() {
            Some(d) if !vm.is_none(&d) => gradscope_core::device::parse(d.str(vm)?.as_ref()).py(vm),
            _ => Ok(Device::Cpu),
        }
    }

    #[pyfunction]
    fn memory_allocated(device: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult<u64> {
        Ok(ledger::stats_on(ledger_device(device, vm)?).total)
    }

    #[pyfunction]
    fn max_memory_allocated(
        device: OptionalArg<PyObjectRef>,
        vm: &VirtualMachine,
    ) -> PyResult<u64> {
        Ok(ledger::stats_on(ledger_device(device, vm)?).total_peak)
    }

    #[pyfunction]
    fn reset_peak_memory_stats(
        device: OptionalArg<PyObjectRef>,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        ledger::reset_peak_memory_stats_on(ledger_device(device, vm)?);
        Ok(())
    }

    #[pyfunction]
    fn memory_summary(device: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult<String> {
        Ok(ledger::memory_summary_on(ledger_device(device, vm)?))
    }

    /// Bytes the GPU backend holds from the device, cached blocks included.
    #[pyfunction]
    fn _gpu_reserved() -> u64 {
        gradscope_core::device::gpu().map_or(0, |g| g.reserved_bytes())
    }

    /// Gives the GPU's cached blocks back, through the core so the trace
    /// hears the reserve shrink (`DeviceReserved`).
    #[pyfunction]
    fn _gpu_empty_cache() {
        gradscope_core::device::empty_cache();
    }

    /// Whether the GPU can be used (opening it on first ask).
    #[pyfunction]
    fn _gpu_available() -> bool {
        gradscope_core::device::gpu_available()
    }

    /// The GPU adapter's name, or why there is none.
    #[pyfunction]
    fn _gpu_name(vm: &VirtualMachine) -> PyResult<String> {
        gradscope_core::device::gpu()
            .py(vm)
            .map(|g| g.adapter_name())
    }

    /// `torch.set_default_device`: where factories put new tensors.
    #[pyfunction]
    fn _set_default_device(device: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let device = if vm.is_none(&device) {
            Device::Cpu
        } else {
            crate::device::parse_device(&device, vm)?
        };
        gradscope_core::device::set_default_device(device);
        Ok(())
    }

    /// The engine's default device (`"cpu"` or `"webgpu"`), which the CLI's
    /// `--device` and the page set without going through Python.
    #[pyfunction]
    fn _get_default_device() -> &'static str {
        gradscope_core::device::default_device().type_name()
    }

    /// Sets (or with `None` clears) the memory budget, in bytes.
    #[pyfunction]
    fn set_memory_budget(bytes: Option<u64>) {
        ledger::set_memory_budget(bytes);
    }

    thread_local! {
        static CLOCK_START: web_time::Instant = web_time::Instant::now();
    }

    /// `time.perf_counter()` where RustPython's reads a clock wasm32 lacks.
    #[pyfunction]
    fn _perf_counter() -> f64 {
        CLOCK_START.with(|start| start.elapsed().as_secs_f64())
    }

    #[pyfunction]
    fn _perf_counter_ns() -> u64 {
        CLOCK_START.with(|start| start.elapsed().as_nanos() as u64)
    }

    /// `time.time()` from the host's wall clock (JavaScript's in a browser).
    #[pyfunction]
    fn _time() -> f64 {
        web_time::SystemTime::now()
            .duration_since(web_time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    }

    #[pyfunction]
    fn _time_ns() -> u64 {
        web_time::SystemTime::now()
            .duration_since(web_time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }

    /// `time.sleep(seconds)` in a Web Worker, which cannot block: waits by
    /// watching the clock.
    #[pyfunction]
    fn _sleep(seconds: f64, vm: &VirtualMachine) -> PyResult<()> {
        if seconds.is_nan() || seconds < 0.0 {
            return Err(vm.new_value_error("sleep length must be non-negative"));
        }
        let start = web_time::Instant::now();
        while start.elapsed().as_secs_f64() < seconds {
            std::hint::spin_loop();
        }
        Ok(())
    }

    /// The bytes of a file added with `Runtime::add_file`, or `None`.
    #[pyfunction]
    fn _read_file(name: String, vm: &VirtualMachine) -> Option<PyObjectRef> {
        let state = state::current()?;
        let files = state.files.borrow();
        let bytes = files.get(name.strip_prefix("./").unwrap_or(&name))?;
        Some(vm.ctx.new_bytes(bytes.to_vec()).into())
    }

    /// The names of the files programs can read.
    #[pyfunction]
    fn _file_names(vm: &VirtualMachine) -> PyObjectRef {
        let names = state::current().map_or_else(Vec::new, |s| {
            s.files
                .borrow()
                .keys()
                .map(|k| vm.ctx.new_str(k.as_str()).into())
                .collect()
        });
        vm.ctx.new_list(names).into()
    }

    /// Raises what allocating a tensor of `shape` with `like`'s dtype
    /// would (a size overflow, out of memory) without allocating; for
    /// composites such as `repeat`, whose pieces would fail differently.
    #[pyfunction]
    fn _check_new_buffer(like: PyObjectRef, shape: Vec<i64>, vm: &VirtualMachine) -> PyResult<()> {
        let dtype = tensor_arg(&like, vm)?.dtype();
        let shape = crate::sizes::check_storage(&shape, vm)?;
        ledger::check_new_buffer(&shape, dtype).py(vm)
    }

    /// `hash()` of a `str` or `bytes` as CPython 3.11 with
    /// `PYTHONHASHSEED=0` gives it (`crate::cpython_hash`); `None` for
    /// other objects, which keep RustPython's hash.
    #[pyfunction]
    fn _cpython_hash(obj: PyObjectRef) -> Option<i64> {
        use rustpython_vm::builtins::{PyBytes, PyStr};
        if let Some(text) = obj.downcast_ref::<PyStr>() {
            // A string with lone surrogates keeps RustPython's hash.
            return text.to_str().map(crate::cpython_hash::str);
        }
        obj.downcast_ref::<PyBytes>()
            .map(|data| crate::cpython_hash::bytes(data.as_bytes()))
    }

    #[pyfunction]
    fn _is_tensor(obj: PyObjectRef) -> bool {
        obj.downcast_ref::<PyTensor>().is_some()
    }

    /// The sums of the rows of a (rows, n) float64 tensor in NumPy's pairwise
    /// order, as a list of floats, for `numpy`'s `sum`: one call where the
    /// same order built from engine ops took a dozen (and 0.8 ms for 2000
    /// elements in a debug build). A list, not a tensor: `numpy` keeps its
    /// arrays on the CPU whatever the default device is.
    #[pyfunction]
    fn _numpy_pairwise_sum(t: PyObjectRef, vm: &VirtualMachine) -> PyResult {
        let t = tensor_arg(&t, vm)?;
        let &[rows, n] = t.shape() else {
            return Err(vm.new_value_error("expected a 2-d tensor"));
        };
        if t.dtype() != DType::Float64 {
            return Err(vm.new_type_error("expected a float64 tensor"));
        }
        let values = t.to_vec::<f64>();
        let sums: Vec<PyObjectRef> = if n == 0 {
            vec![vm.ctx.new_float(0.0).into(); rows]
        } else {
            values
                .chunks_exact(n)
                .map(|row| vm.ctx.new_float(pairwise_sum(row)).into())
                .collect()
        };
        Ok(vm.ctx.new_list(sums).into())
    }

    /// NumPy's `pairwise_sum_DOUBLE` (numpy/_core/src/umath/loops_utils.h.src):
    /// under 8 values in order; up to 128 in eight lanes, the lanes added as a
    /// tree and the rest after; more split in halves at a multiple of 8.
    fn pairwise_sum(a: &[f64]) -> f64 {
        let n = a.len();
        if n < 8 {
            return a.iter().fold(0.0, |acc, &v| acc + v);
        }
        if n <= 128 {
            let whole = n - n % 8;
            let (head, tail) = a.split_at(whole);
            let mut r = [0.0f64; 8];
            r.copy_from_slice(&head[..8]);
            for block in head[8..].chunks_exact(8) {
                for (lane, &v) in r.iter_mut().zip(block) {
                    *lane += v;
                }
            }
            let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            return tail.iter().fold(res, |acc, &v| acc + v);
        }
        let mut half = n / 2;
        half -= half % 8;
        let (lo, hi) = a.split_at(half);
        pairwise_sum(lo) + pairwise_sum(hi)
    }
}
