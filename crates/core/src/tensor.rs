//! The tensor handle: cheap to clone, sharing storage, layout and autograd
//! state the way a PyTorch `Tensor` does.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gradscope_trace::TensorId;

use crate::autograd::{self, Node};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::{self, Op};
use crate::storage::Storage;
use crate::{BinaryOp, cpu};

thread_local! {
    static NEXT_ID: Cell<TensorId> = const { Cell::new(1) };
}

/// A tensor: a view (layout) of a storage, with PyTorch's autograd state.
/// Cloning the handle shares everything, as Python names do.
#[derive(Clone, Debug)]
pub struct Tensor(pub(crate) Rc<TensorImpl>);

#[derive(Debug)]
pub(crate) struct TensorImpl {
    pub(crate) id: TensorId,
    pub(crate) storage: Rc<Storage>,
    pub(crate) layout: Layout,
    pub(crate) requires_grad: Cell<bool>,
    pub(crate) grad: RefCell<Option<Tensor>>,
    pub(crate) grad_fn: RefCell<Option<Rc<Node>>>,
    grad_accumulator: RefCell<Weak<Node>>,
}

impl Tensor {
    pub(crate) fn from_parts(storage: Rc<Storage>, layout: Layout) -> Self {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        Tensor(Rc::new(TensorImpl {
            id,
            storage,
            layout,
            requires_grad: Cell::new(false),
            grad: RefCell::new(None),
            grad_fn: RefCell::new(None),
            grad_accumulator: RefCell::new(Weak::new()),
        }))
    }

    /// A contiguous tensor holding `data` with `shape`, PyTorch's
    /// `torch.tensor(data).reshape(shape)`.
    ///
    /// ```
    /// use gradscope_core::Tensor;
    /// let t = Tensor::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2])?;
    /// assert_eq!(t.shape(), &[2, 2]);
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn from_vec(data: Vec<f32>, shape: &[usize]) -> Result<Self> {
        let numel: usize = shape.iter().product();
        if numel != data.len() {
            return Err(Error::ShapeInvalid {
                shape: shape.to_vec(),
                numel: data.len(),
            });
        }
        Ok(Self::from_parts(
            Rc::new(Storage::new(data)),
            Layout::contiguous(shape),
        ))
    }

    /// A tensor of `shape` filled with `value`, PyTorch's `torch.full`.
    pub fn full(shape: &[usize], value: f32) -> Self {
        let numel = shape.iter().product();
        Self::from_parts(
            Rc::new(Storage::new(vec![value; numel])),
            Layout::contiguous(shape),
        )
    }

    /// PyTorch's `torch.ones(shape)`.
    pub fn ones(shape: &[usize]) -> Self {
        Self::full(shape, 1.0)
    }

    /// PyTorch's `torch.zeros(shape)`.
    pub fn zeros(shape: &[usize]) -> Self {
        Self::full(shape, 0.0)
    }

    /// A 0-dimensional tensor, as PyTorch wraps a Python number in `x + 2`.
    pub fn scalar(value: f32) -> Self {
        Self::full(&[], value)
    }

    /// This handle's id in the trace.
    pub fn id(&self) -> TensorId {
        self.0.id
    }

    /// PyTorch's `size()`.
    pub fn shape(&self) -> &[usize] {
        self.0.layout.shape()
    }

    /// The view's layout over its storage.
    pub fn layout(&self) -> &Layout {
        &self.0.layout
    }

    /// The storage this view reads.
    pub fn storage(&self) -> &Rc<Storage> {
        &self.0.storage
    }

    /// PyTorch's `numel()`.
    pub fn numel(&self) -> usize {
        self.0.layout.numel()
    }

    /// The elements in row-major order, PyTorch's `tolist()` flattened.
    pub fn to_vec(&self) -> Vec<f32> {
        cpu::gather(&self.0.storage.data(), &self.0.layout)
    }

    /// The one element's value, PyTorch's `item()`.
    pub fn item(&self) -> Result<f32> {
        match self.to_vec().as_slice() {
            [v] => Ok(*v),
            _ => Err(Error::ItemNotScalar {
                numel: self.numel(),
            }),
        }
    }

    /// PyTorch's `requires_grad`.
    pub fn requires_grad(&self) -> bool {
        self.0.requires_grad.get()
    }

    /// Marks a leaf as needing a gradient, PyTorch's `requires_grad_()`;
    /// returns the same handle so it chains as in Python.
    pub fn requires_grad_(self, requires_grad: bool) -> Self {
        self.0.requires_grad.set(requires_grad);
        self
    }

    /// PyTorch's `is_leaf`: not produced by a recorded op.
    pub fn is_leaf(&self) -> bool {
        self.0.grad_fn.borrow().is_none()
    }

    /// PyTorch's `grad`: what backward accumulated into this leaf.
    pub fn grad(&self) -> Option<Tensor> {
        self.0.grad.borrow().clone()
    }

    /// Replaces `.grad`, as assigning `t.grad = ...` does in PyTorch.
    pub fn set_grad(&self, grad: Option<Tensor>) {
        *self.0.grad.borrow_mut() = grad;
    }

    /// PyTorch's `grad_fn`: the node that produced this tensor, if recorded.
    pub fn grad_fn(&self) -> Option<Rc<Node>> {
        self.0.grad_fn.borrow().clone()
    }

    /// The leaf's `AccumulateGrad` node, created on first use and shared
    /// while any graph holds it, as PyTorch's `grad_accumulator`.
    pub(crate) fn grad_accumulator(&self) -> Rc<Node> {
        if let Some(node) = self.0.grad_accumulator.borrow().upgrade() {
            return node;
        }
        let node = Node::accumulate_grad(self.clone());
        *self.0.grad_accumulator.borrow_mut() = Rc::downgrade(&node);
        node
    }

    /// The same data without autograd history, PyTorch's `detach()`.
    pub fn detach(&self) -> Tensor {
        Self::from_parts(self.0.storage.clone(), self.0.layout.clone())
    }

    fn binary(&self, op: Op, other: &Tensor) -> Result<Tensor> {
        ops::apply(op, &[self, other])
    }

    /// `self + other` with broadcasting, PyTorch's `add`.
    pub fn add(&self, other: &Tensor) -> Result<Tensor> {
        self.binary(Op::Binary(BinaryOp::Add), other)
    }

    /// `self - other`, PyTorch's `sub`.
    pub fn sub(&self, other: &Tensor) -> Result<Tensor> {
        self.binary(Op::Binary(BinaryOp::Sub), other)
    }

    /// `self * other`, PyTorch's `mul`.
    pub fn mul(&self, other: &Tensor) -> Result<Tensor> {
        self.binary(Op::Binary(BinaryOp::Mul), other)
    }

    /// `self / other`, PyTorch's `div`.
    pub fn div(&self, other: &Tensor) -> Result<Tensor> {
        self.binary(Op::Binary(BinaryOp::Div), other)
    }

    /// `-self`, PyTorch's `neg`.
    pub fn neg(&self) -> Result<Tensor> {
        ops::apply(Op::Neg, &[self])
    }

    /// Sum of all elements, PyTorch's `sum()`.
    pub fn sum(&self) -> Result<Tensor> {
        ops::apply(Op::Sum, &[self])
    }

    /// Mean of all elements, PyTorch's `mean()`.
    pub fn mean(&self) -> Result<Tensor> {
        ops::apply(Op::Mean, &[self])
    }

    /// A stride-0 view repeating size-1 dimensions, PyTorch's `expand`.
    pub fn expand(&self, shape: &[usize]) -> Result<Tensor> {
        ops::apply(Op::Expand(shape.to_vec()), &[self])
    }

    /// Sums broadcast dimensions away so the result has `shape`, PyTorch's
    /// `sum_to_size`: the reverse of [`Tensor::expand`].
    pub fn sum_to_size(&self, shape: &[usize]) -> Result<Tensor> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        ops::apply(Op::SumToSize(shape.to_vec()), &[self])
    }

    /// Computes the gradient of this scalar with respect to every leaf that
    /// needs one, PyTorch's `backward()`.
    pub fn backward(&self) -> Result<()> {
        self.backward_with(None, None, false)
    }

    /// PyTorch's `backward(gradient, retain_graph, create_graph)`;
    /// `retain_graph` defaults to `create_graph`, as in PyTorch.
    pub fn backward_with(
        &self,
        gradient: Option<&Tensor>,
        retain_graph: Option<bool>,
        create_graph: bool,
    ) -> Result<()> {
        autograd::backward(
            self,
            gradient,
            retain_graph.unwrap_or(create_graph),
            create_graph,
        )
    }
}
