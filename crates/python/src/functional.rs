//! The engine's neural-network ops as `_gradscope` functions, for
//! `torch.nn.functional` (`py/torch/nn/functional.py`) to call. Arguments
//! arrive positional and normalised (pairs as two ints, defaults filled in):
//! PyTorch's own argument parsing lives in the Python wrappers, as PyTorch's
//! `functional.py` does it over `torch._C._nn`.

use gradscope_core::ops::nn::Reduction;
use gradscope_core::ops::nn_conv::Conv2dOptions;
use gradscope_core::ops::nn_loss::NllLossOptions;
use gradscope_core::ops::nn_norm::BatchNormOptions;
use gradscope_core::ops::nn_pool::Pool2dOptions;
use gradscope_core::ops::unary::GeluApproximate;
use gradscope_core::{Error, Tensor};
use gradscope_trace::EventKind;
use rustpython_vm::builtins::PyModule;
use rustpython_vm::{AsObject, Py, PyRef, PyResult, VirtualMachine};

use crate::errors::IntoPy;
use crate::limits::note_line;
use crate::tensor::{PyTensor, wrap_result};

type T = PyRef<PyTensor>;
type Opt = Option<PyRef<PyTensor>>;

fn opt(t: &Opt) -> Option<Tensor> {
    t.as_ref().map(|t| t.tensor().clone())
}

fn pair(v: &[i64], what: &str, vm: &VirtualMachine) -> PyResult<[i64; 2]> {
    match v {
        [a] => Ok([*a, *a]),
        [a, b] => Ok([*a, *b]),
        _ => Err(vm.new_value_error(format!("{what} must be an int or a pair of ints"))),
    }
}

/// `stride=None` (or `[]`, PyTorch's default) is the kernel size.
fn stride_of(v: &[i64], vm: &VirtualMachine) -> PyResult<Option<[i64; 2]>> {
    if v.is_empty() {
        return Ok(None);
    }
    pair(v, "stride", vm).map(Some)
}

fn reduction(name: &str, vm: &VirtualMachine) -> PyResult<Reduction> {
    Reduction::parse(name).py(vm)
}

/// Adds the functions to `module` (called from the module's exec).
pub(crate) fn register(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
    let set = |name: &'static str, f: PyResult<rustpython_vm::PyObjectRef>| -> PyResult<()> {
        module.as_object().set_attr(vm.ctx.intern_str(name), f?, vm)
    };
    macro_rules! function {
        ($name:literal, $f:expr) => {
            set($name, Ok(vm.new_function($name, $f).into()))?
        };
    }
    function!("_linear", |x: T, w: T, b: Opt, vm: &VirtualMachine| {
        note_line(vm);
        wrap_result(x.tensor().linear(&w.tensor(), opt(&b).as_ref()), vm)
    });
    function!("_conv2d", |x: T,
                          w: T,
                          b: Opt,
                          stride: Vec<i64>,
                          padding: Vec<i64>,
                          dilation: Vec<i64>,
                          groups: i64,
                          vm: &VirtualMachine| {
        // The engine narrows these to `usize` after checking their signs.
        let all: Vec<i64> = [&stride[..], &padding, &dilation, &[groups]].concat();
        crate::sizes::check_view("conv2d", &all, vm)?;
        let options = Conv2dOptions {
            stride: pair(&stride, "stride", vm)?,
            padding: pair(&padding, "padding", vm)?,
            dilation: pair(&dilation, "dilation", vm)?,
            groups,
        };
        note_line(vm);
        wrap_result(
            x.tensor().conv2d(&w.tensor(), opt(&b).as_ref(), &options),
            vm,
        )
    });
    function!(
        "_max_pool2d",
        |x: T,
         kernel: Vec<i64>,
         stride: Vec<i64>,
         padding: Vec<i64>,
         dilation: Vec<i64>,
         ceil_mode: bool,
         vm: &VirtualMachine| {
            let mut options = Pool2dOptions::new(1);
            options.kernel = pair(&kernel, "kernel_size", vm)?;
            options.stride = stride_of(&stride, vm)?;
            options.padding = pair(&padding, "padding", vm)?;
            options.dilation = pair(&dilation, "dilation", vm)?;
            options.ceil_mode = ceil_mode;
            note_line(vm);
            wrap_result(x.tensor().max_pool2d(&options), vm)
        }
    );
    function!(
        "_avg_pool2d",
        |x: T,
         kernel: Vec<i64>,
         stride: Vec<i64>,
         padding: Vec<i64>,
         ceil_mode: bool,
         count_include_pad: bool,
         divisor_override: Option<i64>,
         vm: &VirtualMachine| {
            let mut options = Pool2dOptions::new(1);
            options.kernel = pair(&kernel, "kernel_size", vm)?;
            options.stride = stride_of(&stride, vm)?;
            options.padding = pair(&padding, "padding", vm)?;
            options.ceil_mode = ceil_mode;
            options.count_include_pad = count_include_pad;
            options.divisor_override = divisor_override;
            note_line(vm);
            wrap_result(x.tensor().avg_pool2d(&options), vm)
        }
    );
    function!(
        "_layer_norm",
        |x: T, shape: Vec<usize>, w: Opt, b: Opt, eps: f64, vm: &VirtualMachine| {
            note_line(vm);
            let (w, b) = (opt(&w), opt(&b));
            wrap_result(
                x.tensor().layer_norm(&shape, w.as_ref(), b.as_ref(), eps),
                vm,
            )
        }
    );
    function!(
        "_batch_norm",
        |x: T,
         running_mean: Opt,
         running_var: Opt,
         w: Opt,
         b: Opt,
         settings: (bool, f64, f64),
         vm: &VirtualMachine| {
            let (training, momentum, eps) = settings;
            let options = BatchNormOptions {
                running_mean: opt(&running_mean),
                running_var: opt(&running_var),
                weight: opt(&w),
                bias: opt(&b),
                training,
                momentum,
                eps,
            };
            note_line(vm);
            wrap_result(x.tensor().batch_norm(&options), vm)
        }
    );
    function!(
        "_embedding",
        |indices: T, weight: T, padding_idx: Option<i64>, vm: &VirtualMachine| {
            note_line(vm);
            wrap_result(
                Tensor::embedding(&indices.tensor(), &weight.tensor(), padding_idx),
                vm,
            )
        }
    );
    function!("_dropout", |x: T,
                           p: f64,
                           training: bool,
                           vm: &VirtualMachine| {
        note_line(vm);
        wrap_result(x.tensor().dropout(p, training), vm)
    });
    function!("_gelu", |x: T, approximate: String, vm: &VirtualMachine| {
        let approximate = match approximate.as_str() {
            "none" => GeluApproximate::None,
            "tanh" => GeluApproximate::Tanh,
            other => {
                return Err(vm.new_runtime_error(format!(
                    "approximate argument must be either none or tanh, but got {other}"
                )));
            }
        };
        note_line(vm);
        wrap_result(x.tensor().gelu(approximate), vm)
    });
    function!("_leaky_relu", |x: T, slope: f64, vm: &VirtualMachine| {
        note_line(vm);
        wrap_result(x.tensor().leaky_relu(slope), vm)
    });
    // `F.leaky_relu_` and `F.leaky_relu(inplace=True)`: `LeakyReluBackward1`.
    function!("_leaky_relu_", |x: T, slope: f64, vm: &VirtualMachine| {
        note_line(vm);
        x.tensor().leaky_relu_(slope).py(vm)?;
        Ok::<T, rustpython_vm::builtins::PyBaseExceptionRef>(x)
    });
    function!(
        "_softplus",
        |x: T, beta: f64, threshold: f64, vm: &VirtualMachine| {
            note_line(vm);
            wrap_result(x.tensor().softplus(beta, threshold), vm)
        }
    );
    function!(
        "_mse_loss",
        |x: T, target: T, r: String, vm: &VirtualMachine| {
            let r = reduction(&r, vm)?;
            note_line(vm);
            wrap_result(x.tensor().mse_loss(&target.tensor(), r), vm)
        }
    );
    function!(
        "_nll_loss",
        |x: T,
         target: T,
         weight: Opt,
         ignore_index: i64,
         r: String,
         label_smoothing: f64,
         cross_entropy: bool,
         vm: &VirtualMachine| {
            let options = NllLossOptions {
                weight: opt(&weight),
                ignore_index,
                reduction: reduction(&r, vm)?,
                label_smoothing,
            };
            note_line(vm);
            if cross_entropy {
                wrap_result(x.tensor().cross_entropy(&target.tensor(), &options), vm)
            } else {
                wrap_result(x.tensor().nll_loss(&target.tensor(), &options), vm)
            }
        }
    );
    function!(
        "_binary_cross_entropy",
        |x: T, target: T, weight: Opt, r: String, vm: &VirtualMachine| {
            let r = reduction(&r, vm)?;
            note_line(vm);
            let weight = opt(&weight);
            wrap_result(
                x.tensor()
                    .binary_cross_entropy(&target.tensor(), weight.as_ref(), r),
                vm,
            )
        }
    );
    function!(
        "_binary_cross_entropy_with_logits",
        |x: T, target: T, weight: Opt, pos_weight: Opt, r: String, vm: &VirtualMachine| {
            let r = reduction(&r, vm)?;
            note_line(vm);
            let (weight, pos_weight) = (opt(&weight), opt(&pos_weight));
            wrap_result(
                x.tensor().binary_cross_entropy_with_logits(
                    &target.tensor(),
                    weight.as_ref(),
                    pos_weight.as_ref(),
                    r,
                ),
                vm,
            )
        }
    );
    function!(
        "_uniform_",
        |t: T, low: f64, high: f64, vm: &VirtualMachine| {
            note_line(vm);
            fill_random(&t.tensor(), |shape, dtype| {
                gradscope_core::ops::random::uniform(shape, low, high, dtype)
            })
            .py(vm)?;
            Ok::<T, rustpython_vm::builtins::PyBaseExceptionRef>(t)
        }
    );
    function!("_normal_", |t: T,
                           mean: f64,
                           std: f64,
                           vm: &VirtualMachine| {
        note_line(vm);
        fill_random(&t.tensor(), |shape, dtype| {
            gradscope_core::ops::random::normal(shape, mean, std, dtype)
        })
        .py(vm)?;
        Ok::<T, rustpython_vm::builtins::PyBaseExceptionRef>(t)
    });
    function!(
        "_add_alpha",
        |x: T,
         other: rustpython_vm::PyObjectRef,
         alpha: rustpython_vm::PyObjectRef,
         subtract: bool,
         vm: &VirtualMachine| {
            let alpha = alpha.try_float(vm)?.to_f64();
            let other = crate::convert::operand(&other, vm)?
                .ok_or_else(|| crate::convert::expected("Tensor or Number", &other, vm))?;
            note_line(vm);
            let alpha = if alpha.fract() == 0.0 && !x.tensor().dtype().is_float() {
                gradscope_core::Scalar::Int(alpha as i64)
            } else {
                gradscope_core::Scalar::Float(alpha)
            };
            if subtract {
                wrap_result(x.tensor().sub_alpha(&other, alpha), vm)
            } else {
                wrap_result(x.tensor().add_alpha(&other, alpha), vm)
            }
        }
    );
    function!("_range_began", |name: String| {
        gradscope_core::trace::range_began(&name);
    });
    function!("_range_ended", |name: String| {
        gradscope_core::trace::range_ended(&name);
    });
    // `nn.Module.__call__` asks first, so a program nobody traces pays
    // one call per module, not the naming of its scope.
    function!("_is_recording", gradscope_core::trace::is_recording);
    function!("_module_entered", |name: String, class: String| {
        gradscope_core::trace::module_entered(&name, &class);
    });
    function!("_module_exited", || {
        gradscope_core::trace::module_exited();
    });
    // The events the core's native optimizers emit, for the Python ones
    // (`torch/optim/`), so lessons measure either the same way.
    function!("_emit_optimizer_step", |optimizer: String, updated: u64| {
        gradscope_core::trace::emit(|| EventKind::OptimizerStep { optimizer, updated });
    });
    function!("_emit_zero_grad", |set_to_none: bool| {
        gradscope_core::trace::emit(|| EventKind::ZeroGrad { set_to_none });
    });
    function!(
        "_emit_grad_clipped",
        |total_norm: f64, clipped_norm: f64, max_norm: f64| {
            gradscope_core::trace::emit(|| EventKind::GradClipped {
                total_norm,
                clipped_norm,
                max_norm,
            });
        }
    );
    // `x.relu_()` and friends: the out-of-place op written back in place,
    // with the node rebased as PyTorch's in-place ops are (`ReluBackward0`).
    function!(
        "_unary_inplace",
        |t: T, name: String, vm: &VirtualMachine| {
            let base = name.strip_suffix('_').unwrap_or(&name);
            let Some(&(_, op)) = crate::methods::unary().find(|(n, _)| *n == base) else {
                return Err(
                    vm.new_attribute_error(format!("'Tensor' object has no attribute '{name}'"))
                );
            };
            note_line(vm);
            t.tensor().apply_inplace(&name, op).py(vm)?;
            Ok(t)
        }
    );
    // An in-place op whose out-of-place form is Python (`clamp_`,
    // `masked_fill_`, `add_(alpha=)`): `f(x)` written back into `x`.
    function!(
        "_inplace_with",
        |t: T, name: String, f: rustpython_vm::PyObjectRef, vm: &VirtualMachine| {
            note_line(vm);
            t.tensor()
                .apply_inplace(&name, |x| {
                    let out = f
                        .call((crate::tensor::wrap(x.clone(), vm),), vm)
                        .map_err(crate::errors::stash)?;
                    crate::tensor::tensor_arg(&out, vm).map_err(crate::errors::stash)
                })
                .py(vm)?;
            Ok::<T, rustpython_vm::builtins::PyBaseExceptionRef>(t)
        }
    );
    function!(
        "_randperm",
        |n: i64, seed: Option<u64>, vm: &VirtualMachine| {
            note_line(vm);
            wrap_result(randperm(n, seed), vm)
        }
    );
    // `torch.empty((), dtype=torch.int64).random_().item()`: how PyTorch's
    // `RandomSampler` seeds the generator it shuffles with.
    function!("_random_int64", || {
        gradscope_core::ops::random::with_generator(|g| g.random64() % (1u64 << 63))
    });
    function!(
        "_set_memory_role",
        |t: T, role: String, vm: &VirtualMachine| {
            use gradscope_core::ledger::Category;
            let role = match role.as_str() {
                "parameter" => Some(Category::Parameter),
                "optimizer_state" => Some(Category::OptimizerState),
                "none" => None,
                other => return Err(vm.new_value_error(format!("unknown memory role '{other}'"))),
            };
            t.tensor().set_memory_role(role);
            Ok(())
        }
    );
    Ok(())
}

/// Overwrites `t` in place with fresh samples drawn in PyTorch's order
/// (one draw per element, row-major), as `uniform_`/`normal_` do on a
/// contiguous tensor; like PyTorch's, the write does not record a graph.
fn fill_random(
    t: &Tensor,
    sample: impl FnOnce(&[i64], gradscope_core::DType) -> gradscope_core::Result<Tensor>,
) -> gradscope_core::Result<()> {
    if !t.dtype().is_float() {
        return Err(Error::Backend(format!(
            "\"check_uniform_bounds\" not implemented for '{}'",
            t.dtype().name()
        )));
    }
    let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
    let values = sample(&shape, t.dtype())?;
    let _no_grad = gradscope_core::grad_mode::GradModeGuard::internal(false);
    t.copy_(&values)?;
    Ok(())
}

/// PyTorch's `randperm_cpu` for `n` below 2^32 / 20: a Fisher-Yates
/// shuffle of `0..n` drawing one 32-bit number per swap, so seeded
/// permutations (and `DataLoader(shuffle=True)` orders) are PyTorch's.
/// With `seed`, draws from a fresh generator seeded with it (PyTorch's
/// `torch.Generator().manual_seed(seed)`), leaving the global one as it was.
fn randperm(n: i64, seed: Option<u64>) -> gradscope_core::Result<Tensor> {
    use gradscope_core::ops::random::{Generator, get_rng_state, set_rng_state};
    if let Some(seed) = seed {
        let global = get_rng_state();
        set_rng_state(Generator::new(seed));
        let result = randperm(n, None);
        set_rng_state(global);
        return result;
    }
    if n < 0 {
        return Err(Error::Backend(format!("n must be non-negative, got{n}")));
    }
    let Some(len) = crate::sizes::narrow::<usize>(n) else {
        return Err(Error::Backend(format!(
            "Storage size calculation overflowed with sizes=[{n}]"
        )));
    };
    gradscope_core::ledger::check_new_buffer(&[len], gradscope_core::DType::Int64)?;
    let mut values: Vec<i64> = (0..n).collect();
    gradscope_core::ops::random::with_generator(|g| {
        for i in 0..len.saturating_sub(1) {
            let z = u64::from(g.random()) % (n as u64 - i as u64);
            values.swap(i, i + z as usize);
        }
    });
    Tensor::from_vec(values, &[len])
}
