//! Property tests: random shapes (size-0 and size-1 dimensions included),
//! random views (transposed, stepped slices) and random broadcasts, each
//! kernel against gradscope-core's CPU result. Few cases: lavapipe on two
//! cores is slow.
#![cfg(not(target_arch = "wasm32"))]
// Helpers outside #[test] bodies fail the test as the bodies do.
#![allow(clippy::expect_used, clippy::panic)]

mod common;

use common::{
    assert_close, be, binary_atol, binary_rtol, cpu_binary, device, on_gpu, result, tensor,
};
use gradscope_core::backend::ScatterPart;
use gradscope_core::cpu::CpuBuffer;
use gradscope_core::cpu::reduce::{Fold, reduce as cpu_reduce_kernel};
use gradscope_core::ops::UnaryOp;
use gradscope_core::ops::unary::GeluApproximate;
use gradscope_core::{BinaryOp, Layout, ReduceKernel, Tensor};
use gradscope_wgpu::GpuDevice;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const CASES: u32 = 24;

/// A view of `shape`: optionally every other row of dimension 0 of a larger
/// storage, optionally with two dimensions swapped.
#[derive(Clone, Debug)]
struct View {
    shape: Vec<usize>,
    swap: Option<(usize, usize)>,
    stepped: bool,
    seed: u32,
}

impl View {
    fn tensor(&self) -> Tensor {
        let mut storage = self.shape.clone();
        if let Some((a, b)) = self.swap {
            storage.swap(a, b);
        }
        let stepped = self.stepped && !storage.is_empty();
        if stepped {
            storage[0] = 2 * storage[0] + 1;
        }
        let mut t = tensor(&storage, self.seed);
        if stepped {
            t = t.slice(0, Some(1), None, 2).expect("slice");
        }
        if let Some((a, b)) = self.swap {
            t = t.transpose(a as i64, b as i64).expect("transpose");
        }
        assert_eq!(t.shape(), &self.shape[..]);
        t
    }
}

fn view() -> impl Strategy<Value = View> {
    prop::collection::vec(prop_oneof![Just(0usize), Just(1), 2usize..6], 0..=4).prop_flat_map(
        |shape| {
            let rank = shape.len();
            let swap = if rank >= 2 {
                prop::option::of((0..rank, 0..rank).prop_filter("distinct", |(a, b)| a != b))
                    .boxed()
            } else {
                Just(None).boxed()
            };
            (Just(shape), swap, any::<bool>(), any::<u32>()).prop_map(
                |(shape, swap, stepped, seed)| View {
                    shape,
                    swap,
                    stepped,
                    seed,
                },
            )
        },
    )
}

fn run<T: std::fmt::Debug>(strategy: impl Strategy<Value = T>, check: impl Fn(&GpuDevice, T)) {
    let Some(dev) = device() else { return };
    let mut runner = TestRunner::new(Config::with_cases(CASES));
    runner
        .run(&strategy, |case| {
            check(&dev, case);
            Ok(())
        })
        .expect("property");
}

#[test]
fn binary_broadcasts_like_cpu() {
    // The other operand drops leading dimensions and squeezes some to 1.
    let strategy = (view(), 0usize..3, any::<u8>(), 0..BinaryOp::ALL.len());
    run(strategy, |dev, (v, drop, ones, op)| {
        let x = v.tensor();
        let rank = v.shape.len();
        let other: Vec<usize> = v.shape[drop.min(rank)..]
            .iter()
            .enumerate()
            .map(|(i, &d)| if ones & (1 << i) != 0 { 1 } else { d })
            .collect();
        let y = tensor(&other, v.seed ^ 0x55);
        let op = BinaryOp::ALL[op];
        let (xb, xl) = on_gpu(dev, &x);
        let (yb, yl) = on_gpu(dev, &y);
        let yl = yl.broadcast_to(&v.shape).expect("broadcast");
        let what = format!("{op:?} {v:?} with {other:?}");
        let got = result(dev, &what, be(dev).binary(op, &*xb, &xl, &*yb, &yl));
        let want = cpu_binary(op, &x, &y);
        assert_close(&what, &got, &want, binary_rtol(op), binary_atol(op));
    });
}

#[test]
fn unary_and_copy_walk_any_view() {
    let ops = [
        UnaryOp::Exp,
        UnaryOp::Tanh,
        UnaryOp::Gelu(GeluApproximate::None),
        UnaryOp::Sigmoid,
        UnaryOp::Round,
        UnaryOp::Relu,
    ];
    run((view(), 0..ops.len()), |dev, (v, op)| {
        let x = v.tensor();
        let (xb, xl) = on_gpu(dev, &x);
        let copied = result(dev, "copy", be(dev).copy(&*xb, &xl));
        assert_eq!(
            copied,
            x.contiguous().expect("cpu").to_vec::<f32>(),
            "{v:?}"
        );
        let op = ops[op];
        let what = format!("{op:?} {v:?}");
        let got = result(dev, &what, be(dev).unary(&op, &*xb, &xl));
        let want = match op {
            UnaryOp::Exp => x.exp(),
            UnaryOp::Tanh => x.tanh(),
            UnaryOp::Gelu(a) => x.gelu(a),
            UnaryOp::Sigmoid => x.sigmoid(),
            UnaryOp::Round => x.round(),
            _ => x.relu(),
        }
        .expect("cpu")
        .to_vec::<f32>();
        assert_close(&what, &got, &want, 2e-6, 5e-7);
    });
}

#[test]
fn reduce_folds_any_axes() {
    run((view(), any::<u8>(), 0usize..4), |dev, (v, mask, op)| {
        let x = v.tensor();
        let rank = v.shape.len();
        let dims: Vec<usize> = (0..rank).filter(|d| mask & (1 << d) != 0).collect();
        let op = ReduceKernel::ALL[op];
        let folded: usize = dims.iter().map(|&d| v.shape[d]).product();
        if folded == 0 && matches!(op, ReduceKernel::Max | ReduceKernel::Min) {
            // PyTorch refuses these before any kernel; the identity is tested elsewhere.
            return;
        }
        let (xb, xl) = on_gpu(dev, &x);
        let what = format!("{op:?} over {dims:?} of {v:?}");
        let got = result(dev, &what, be(dev).reduce(op, &*xb, &xl, &dims));
        let flags: Vec<bool> = (0..rank).map(|d| dims.contains(&d)).collect();
        let fold = [Fold::Sum, Fold::Max, Fold::Min, Fold::Prod][op.code() as usize];
        let want =
            match cpu_reduce_kernel(&x.storage().data(), x.layout(), &flags, fold).expect("cpu") {
                CpuBuffer::F32(v) => v,
                other => panic!("{}", other.dtype()),
            };
        // At most 5^4 elements of magnitude below 2.5 fold into one output.
        assert_close(&what, &got, &want, 1e-5, 2e-4);
    });
}

#[test]
fn matmul_any_strides() {
    let strategy = (
        0usize..3,
        0usize..10,
        0usize..10,
        0usize..10,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<u32>(),
    );
    run(strategy, |dev, (batch, m, k, n, ta, tb, shared, seed)| {
        let operand = |rows: usize, cols: usize, transposed: bool, s: u32| {
            let stored_batch = if shared { 1 } else { batch };
            let t = if transposed {
                tensor(&[stored_batch, cols, rows], s)
                    .transpose(1, 2)
                    .expect("transpose")
            } else {
                tensor(&[stored_batch, rows, cols], s)
            };
            t.expand(&[batch, rows, cols]).expect("expand")
        };
        let a = operand(m, k, ta, seed);
        let b = tensor(&[batch, k, n], seed ^ 1);
        let b = if tb { operand(k, n, true, seed ^ 2) } else { b };
        let (ab, al) = on_gpu(dev, &a);
        let (bb, bl) = on_gpu(dev, &b);
        let what = format!("[{batch},{m},{k}]{ta} @ [{batch},{k},{n}]{tb} shared {shared}");
        let got = result(dev, &what, be(dev).matmul(&*ab, &al, &*bb, &bl));
        let want = a.bmm(&b).expect("cpu").to_vec::<f32>();
        assert_close(&what, &got, &want, 1e-5, 6.25 * 10.0 * 4e-7);
    });
}

#[test]
fn scatter_writes_any_view_through_any_slice() {
    // A view's elements placed, through a stepped slice of one axis, into
    // zeros as large as the view with that axis stretched.
    run((view(), 0usize..4, 1usize..4), |dev, (v, axis, step)| {
        let x = v.tensor();
        let rank = v.shape.len();
        if rank == 0 {
            return;
        }
        let axis = axis % rank;
        let mut out_shape = v.shape.clone();
        out_shape[axis] = v.shape[axis] * step + 1;
        let target = Layout::contiguous(&out_shape).slice(axis, 1, v.shape[axis], step);
        let numel: usize = out_shape.iter().product();
        let (xb, xl) = on_gpu(dev, &x);
        let what = format!("{v:?} into axis {axis} step {step}");
        let part = ScatterPart {
            src: &*xb,
            layout: &xl,
            target: &target,
        };
        let got = result(dev, &what, be(dev).scatter(numel, &[part]));
        let mut want = vec![0.0f32; numel];
        for (at, value) in target
            .indices()
            .zip(x.contiguous().expect("dense").to_vec::<f32>())
        {
            want[at] = value;
        }
        assert_eq!(got, want, "{what}");
    });
}

#[test]
fn take_and_put_follow_any_positions() {
    // Positions with repeats into a view's storage, taken, then added back.
    let strategy = (view(), prop::collection::vec(any::<u16>(), 0..40));
    run(strategy, |dev, (v, picks)| {
        let x = v.tensor();
        let data = x
            .storage()
            .data()
            .gather_as(&Layout::contiguous(&[x.storage().len()]), x.dtype());
        let CpuBuffer::F32(data) = data else {
            panic!("float32 storage expected")
        };
        if data.is_empty() {
            return;
        }
        let positions: Vec<usize> = picks.iter().map(|&p| p as usize % data.len()).collect();
        let (xb, _) = on_gpu(dev, &x);
        let what = format!("{v:?} at {positions:?}");
        let got = result(dev, &what, be(dev).take(&*xb, &positions));
        let want: Vec<f32> = positions.iter().map(|&p| data[p]).collect();
        assert_eq!(got, want, "take {what}");
        // The taken values added back at their positions, repeats in order.
        let dense = Layout::contiguous(&[data.len()]);
        let reads: Vec<usize> = (0..positions.len()).collect();
        let taken = be(dev).upload(&want).expect("upload");
        let got = result(
            dev,
            &what,
            be(dev).put(&*xb, &dense, &*taken, &positions, &reads, true),
        );
        let mut want_put = data.clone();
        for (&p, &r) in positions.iter().zip(&reads) {
            want_put[p] += want[r];
        }
        assert_eq!(got, want_put, "put {what}");
    });
}
