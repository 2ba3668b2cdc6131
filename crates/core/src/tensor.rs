//! The tensor handle: cheap to clone, sharing storage, layout and autograd
//! state the way a PyTorch `Tensor` does.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gradscope_trace::TensorId;

use crate::autograd::{self, Node};
use crate::cpu::{CpuBuffer, Element};
use crate::dtype::{DType, Priority};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ledger::Category;
use crate::storage::Storage;

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
    wrapped_number: Cell<bool>,
    /// The memory role this handle gives its storage (`nn.Parameter`,
    /// optimizer state), released when the handle goes.
    role: Cell<Option<Category>>,
    /// Hooks on a leaf's gradient (a non-leaf's live on its `grad_fn`).
    pub(crate) hooks: crate::autograd::hooks::Hooks,
    pub(crate) retains_grad: Cell<bool>,
    /// Made in inference mode (PyTorch's `is_inference()`).
    inference: bool,
}

impl Drop for TensorImpl {
    fn drop(&mut self) {
        if let Some(role) = self.role.get() {
            self.storage.remove_role(role);
        }
        if let Some(grad) = self.grad.get_mut() {
            grad.storage().remove_role(Category::Gradient);
        }
    }
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
            wrapped_number: Cell::new(false),
            role: Cell::new(None),
            hooks: Default::default(),
            retains_grad: Cell::new(false),
            inference: crate::grad_mode::is_inference_mode_enabled(),
        }))
    }

    /// A contiguous tensor of `shape` over `buffer`, checking the length.
    pub fn from_buffer(buffer: CpuBuffer, shape: &[usize]) -> Result<Self> {
        let numel: usize = shape.iter().product();
        if numel != buffer.len() {
            return Err(Error::ShapeInvalid {
                shape: shape.to_vec(),
                numel: buffer.len(),
            });
        }
        Ok(Self::from_parts(
            Rc::new(Storage::new(buffer)),
            Layout::contiguous(shape),
        ))
    }

    /// A contiguous tensor holding `data` with `shape`, PyTorch's
    /// `torch.tensor(data).reshape(shape)`; the dtype follows `T`.
    ///
    /// ```
    /// use gradscope_core::{DType, Tensor};
    /// let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// assert_eq!((t.shape(), t.dtype()), (&[2, 2][..], DType::Float32));
    /// # Ok::<(), gradscope_core::Error>(())
    /// ```
    pub fn from_vec<T: Element>(data: Vec<T>, shape: &[usize]) -> Result<Self> {
        Self::from_buffer(T::into_buffer(data), shape)
    }

    /// A tensor of `shape` and `dtype` filled with `value`, PyTorch's `torch.full`.
    pub fn full_dtype(shape: &[usize], value: f64, dtype: DType) -> Self {
        let numel = shape.iter().product();
        let buffer = CpuBuffer::full(dtype, numel, value);
        Self::from_parts(Rc::new(Storage::new(buffer)), Layout::contiguous(shape))
    }

    /// A tensor of the default floating dtype ([`DType::default_float`]) of
    /// `shape` filled with `value`, PyTorch's `torch.full`.
    pub fn full(shape: &[usize], value: f64) -> Self {
        Self::full_dtype(shape, value, DType::default_float())
    }

    /// PyTorch's `torch.ones(shape)`.
    pub fn ones(shape: &[usize]) -> Self {
        Self::full(shape, 1.0)
    }

    /// PyTorch's `torch.zeros(shape)`.
    pub fn zeros(shape: &[usize]) -> Self {
        Self::full(shape, 0.0)
    }

    /// A Python float as PyTorch wraps it in `x + 2.0`: a 0-dim float64
    /// tensor that yields to the other operand's dtype in type promotion.
    /// Always on the CPU, as PyTorch's wrapped numbers are; ops on any
    /// device take them.
    pub fn scalar(value: f64) -> Self {
        let t = Self::from_parts(
            Rc::new(Storage::new_on(
                CpuBuffer::F64(vec![value]),
                crate::Device::Cpu,
            )),
            Layout::contiguous(&[]),
        );
        t.0.wrapped_number.set(true);
        t
    }

    /// A Python int wrapped as PyTorch does in `x * 3`.
    pub fn scalar_int(value: i64) -> Self {
        let t = Self::from_parts(
            Rc::new(Storage::new_on(
                CpuBuffer::I64(vec![value]),
                crate::Device::Cpu,
            )),
            Layout::contiguous(&[]),
        );
        t.0.wrapped_number.set(true);
        t
    }

    /// Whether this is a wrapped Python number (PyTorch's `is_wrapped_number`).
    pub fn is_wrapped_number(&self) -> bool {
        self.0.wrapped_number.get()
    }

    /// How this operand takes part in type promotion.
    pub fn promotion_priority(&self) -> Priority {
        match (self.is_wrapped_number(), self.shape().is_empty()) {
            (true, _) => Priority::Wrapped,
            (false, true) => Priority::ZeroDim,
            (false, false) => Priority::Dimensioned,
        }
    }

    /// PyTorch's `dtype`.
    pub fn dtype(&self) -> DType {
        self.0.storage.dtype()
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

    /// The device its storage lives on, PyTorch's `device`.
    pub fn device(&self) -> crate::Device {
        self.0.storage.device()
    }

    /// The storage this view reads.
    pub fn storage(&self) -> &Rc<Storage> {
        &self.0.storage
    }

    /// PyTorch's `numel()`.
    pub fn numel(&self) -> usize {
        self.0.layout.numel()
    }

    /// The elements in row-major order cast to `T`, PyTorch's `tolist()` flattened.
    pub fn to_vec<T: Element>(&self) -> Vec<T> {
        let buffer = self.0.storage.data().gather_as(&self.0.layout, T::DTYPE);
        T::slice(&buffer).map(<[T]>::to_vec).unwrap_or_default()
    }

    /// The one element's value, PyTorch's `item()`.
    pub fn item(&self) -> Result<f64> {
        if self.numel() != 1 {
            return Err(Error::ItemNotScalar {
                numel: self.numel(),
            });
        }
        let value = self.to_vec::<f64>().first().copied().unwrap_or_default();
        crate::trace::emit(|| gradscope_trace::EventKind::ValueRead { value });
        Ok(value)
    }

    /// PyTorch's `is_inference()`: made in inference mode.
    pub fn is_inference(&self) -> bool {
        self.0.inference
    }

    /// PyTorch's `_version`: the in-place writes its storage has seen. A
    /// tensor made in inference mode keeps no counter, as in PyTorch.
    pub fn version(&self) -> Result<u64> {
        if self.0.inference {
            return Err(Error::InferenceVersion);
        }
        Ok(self.0.storage.version())
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

    /// Replaces `.grad`, as assigning `t.grad = ...` does in PyTorch; the
    /// ledger moves the bytes in and out of the gradient category.
    pub fn set_grad(&self, grad: Option<Tensor>) {
        if let Some(new) = &grad {
            new.storage().add_role(Category::Gradient);
        }
        if let Some(old) = self.0.grad.replace(grad) {
            old.storage().remove_role(Category::Gradient);
        }
    }

    /// Counts this tensor's storage under `role` in the memory ledger while
    /// this handle lives (`None` clears it): `nn.Parameter` and optimizers
    /// mark their tensors so the memory view can tell them apart.
    pub fn set_memory_role(&self, role: Option<Category>) {
        let old = self.0.role.replace(role);
        if old == role {
            // Dropping and taking the role again would recategorise the
            // storage twice (two trace events, and a dip in between).
            return;
        }
        if let Some(old) = old {
            self.0.storage.remove_role(old);
        }
        if let Some(new) = role {
            self.0.storage.add_role(new);
        }
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

    /// This tensor's values without history, sharing storage when it is
    /// dense and copying otherwise (a stride-0 view must not become `.grad`).
    pub(crate) fn dense_detached(&self) -> Tensor {
        let layout = &self.0.layout;
        let whole = layout.offset() == 0 && layout.numel() == self.0.storage.len();
        if layout.is_contiguous() && whole {
            self.detach()
        } else {
            self.dense_copy()
        }
    }

    /// A contiguous copy of this tensor's values in a new storage, without history.
    pub(crate) fn dense_copy(&self) -> Tensor {
        if self.device() != crate::Device::Cpu {
            // On the GPU by the copy kernel (a transposed weight gradient
            // becoming `.grad`), not through the host; an error there
            // leaves it to the host path, which reports it.
            let _on = crate::device::Scope::new(self.device());
            let copy = |k: &dyn crate::kernels::Kernels| {
                let out = k.copy(crate::kernels::operand(self)).ok().flatten();
                Ok::<_, Error>(crate::kernels::shaped(out, self.shape()))
            };
            if let Ok(Some(copy)) = crate::kernels::run_or(|k| Ok(copy(k)?.map(Some)), || Ok(None))
            {
                return copy;
            }
        }
        let buffer = self
            .0
            .storage
            .data()
            .gather_as(&self.0.layout, self.dtype());
        Self::from_parts(
            Rc::new(Storage::new(buffer)),
            Layout::contiguous(self.shape()),
        )
    }

    /// The same data without autograd history, PyTorch's `detach()`.
    pub fn detach(&self) -> Tensor {
        Self::from_parts(self.0.storage.clone(), self.0.layout.clone())
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
