//! Gradient hooks: `register_hook` and `retain_grad`, run by the engine on
//! the gradient flowing into a tensor before it is used.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gradscope_trace::EventKind;

use super::{Node, NodeKind};
use crate::error::{Error, Result};
use crate::grad_mode::GradModeGuard;
use crate::tensor::{Tensor, TensorImpl};
use crate::trace;

/// A hook: sees the gradient, may replace it (PyTorch's `hook(grad) -> grad or None`).
pub type Hook = Rc<dyn Fn(&Tensor) -> Result<Option<Tensor>>>;

thread_local! {
    static NEXT_HOOK_ID: Cell<u64> = const { Cell::new(1) };
}

/// Hooks in registration order, each with the id its handle removes.
#[derive(Default)]
pub(crate) struct Hooks(RefCell<Vec<(u64, Hook)>>);

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hooks({})", self.0.borrow().len())
    }
}

impl Hooks {
    fn add(&self, hook: Hook) -> u64 {
        let id = NEXT_HOOK_ID.with(|n| n.replace(n.get() + 1));
        self.0.borrow_mut().push((id, hook));
        id
    }

    fn remove(&self, id: u64) {
        self.0.borrow_mut().retain(|(h, _)| *h != id);
    }

    fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }

    /// Runs every hook in order, each seeing the previous one's result.
    pub(crate) fn run(&self, mut grad: Tensor, node: &Node) -> Result<Tensor> {
        // Clone the list so a hook may register or remove hooks.
        let hooks: Vec<Hook> = self.0.borrow().iter().map(|(_, h)| h.clone()).collect();
        for hook in hooks {
            let id = node.id();
            trace::emit(|| EventKind::HookFired { node: id });
            if let Some(replaced) = hook(&grad)? {
                grad = replaced;
            }
        }
        Ok(grad)
    }
}

/// Removes a hook, PyTorch's `RemovableHandle.remove()`.
#[derive(Debug, Clone)]
pub struct HookHandle {
    id: u64,
    target: HookTarget,
}

#[derive(Debug, Clone)]
enum HookTarget {
    Leaf(Weak<TensorImpl>),
    Node(Weak<Node>),
}

impl HookHandle {
    /// Unregisters the hook; harmless if it is already gone.
    pub fn remove(&self) {
        match &self.target {
            HookTarget::Leaf(t) => {
                if let Some(t) = t.upgrade() {
                    t.hooks.remove(self.id);
                }
            }
            HookTarget::Node(n) => {
                if let Some(n) = n.upgrade() {
                    n.pre_hooks.remove(self.id);
                }
            }
        }
    }
}

impl Node {
    /// The gradient entering this node after its hooks: a leaf's hooks for
    /// `AccumulateGrad`, the output tensor's hooks otherwise.
    pub(crate) fn run_pre_hooks(&self, grad: Tensor) -> Result<Tensor> {
        let grad = match &self.kind {
            NodeKind::AccumulateGrad(leaf) if !leaf.0.hooks.is_empty() => {
                leaf.0.hooks.run(grad, self)?
            }
            _ => grad,
        };
        if self.pre_hooks.is_empty() {
            Ok(grad)
        } else {
            self.pre_hooks.run(grad, self)
        }
    }
}

impl Tensor {
    /// Registers `hook` to see (and maybe replace) this tensor's gradient
    /// each time one is computed, PyTorch's `register_hook`.
    pub fn register_hook(&self, hook: Hook) -> Result<HookHandle> {
        if !self.requires_grad() {
            return Err(Error::HookNoGrad);
        }
        Ok(match self.grad_fn() {
            Some(node) => HookHandle {
                id: node.pre_hooks.add(hook),
                target: HookTarget::Node(Rc::downgrade(&node)),
            },
            None => HookHandle {
                id: self.0.hooks.add(hook),
                target: HookTarget::Leaf(Rc::downgrade(&self.0)),
            },
        })
    }

    /// Keeps this non-leaf's gradient in `.grad` after backward, PyTorch's
    /// `retain_grad()`; a no-op on leaves, which always keep it.
    pub fn retain_grad(&self) -> Result<()> {
        if !self.requires_grad() {
            return Err(Error::RetainGradNoGrad);
        }
        if self.is_leaf() || self.0.retains_grad.get() {
            return Ok(());
        }
        self.0.retains_grad.set(true);
        // Weak: the node must not keep its own output alive.
        let this = Rc::downgrade(&self.0);
        self.register_hook(Rc::new(move |grad: &Tensor| {
            if let Some(t) = this.upgrade() {
                let t = Tensor(t);
                let new = match t.grad() {
                    Some(old) => old.add(grad)?,
                    None => grad.dense_detached(),
                };
                let _mode = GradModeGuard::internal(false);
                t.set_grad(Some(new));
            }
            Ok(None)
        }))?;
        Ok(())
    }

    /// PyTorch's `retains_grad`.
    pub fn retains_grad(&self) -> bool {
        self.0.retains_grad.get()
    }
}
