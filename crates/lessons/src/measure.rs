//! Measurements: what a lesson's claims compare, computed as a pure
//! function of one run's trace (and the exception it ended with, if any).

use gradscope_trace::memory::MemoryTracker;
use gradscope_trace::{Category, Event, EventKind, TensorId};

const SAVED: usize = Category::SavedForBackward as usize;

/// The exception a run ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaisedError {
    /// The exception type's name (`RuntimeError`).
    pub type_name: String,
    /// `str(exception)`.
    pub message: String,
    /// The program line it was raised from.
    pub line: Option<usize>,
}

/// A leaf's `.grad` right after a gradient was added into it.
#[derive(Clone, Debug, PartialEq)]
pub struct GradStats {
    /// The leaf.
    pub tensor: TensorId,
    /// Whether `.grad` already held a value (summed, not assigned).
    pub accumulated: bool,
    /// Its shape.
    pub shape: Vec<usize>,
    /// The 2-norm of the whole `.grad`.
    pub norm: f64,
    /// Its first elements (see `GRAD_VALUES_KEPT` in gradscope-trace).
    pub values: Vec<f64>,
}

/// A gradient `autograd.grad` returned.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedGrad {
    /// The input's position in `inputs`.
    pub input: usize,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its 2-norm.
    pub norm: f64,
    /// Its first elements.
    pub values: Vec<f64>,
}

/// One `backward()` or `autograd.grad` call.
#[derive(Clone, Debug, PartialEq)]
pub struct BackwardStats {
    /// The output's value when it had one element (the loss).
    pub root_value: Option<f64>,
    /// How many elements the output had.
    pub root_numel: u64,
    /// Whether saved tensors were kept for another backward.
    pub retain_graph: bool,
    /// Every `.grad` it wrote, in order; empty for `autograd.grad`.
    pub grads: Vec<GradStats>,
    /// What `autograd.grad` returned, by input; empty for `backward()`.
    pub captured: Vec<CapturedGrad>,
    /// Whether it finished (no error part-way).
    pub finished: bool,
}

impl BackwardStats {
    /// The joint 2-norm of the gradients it left in `.grad` (each leaf's
    /// last value), as `clip_grad_norm_` would compute it.
    pub fn grad_norm(&self) -> f64 {
        last_per_tensor(&self.grads)
            .iter()
            .map(|g| g.norm * g.norm)
            .sum::<f64>()
            .sqrt()
    }
}

/// One span of `torch.profiler.record_function(name)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// Its name.
    pub name: String,
    /// Live bytes per category when it began, in [`Category::ALL`] order.
    pub begin: [u64; 5],
    /// Live bytes per category when it ended (or when the trace ended).
    pub end: [u64; 5],
    /// The highest bytes of each category while it ran.
    pub peak: [u64; 5],
    /// The highest total while it ran.
    pub peak_total: u64,
    /// The highest saved-for-backward plus other bytes while it ran: the
    /// activations, with whatever holds them (checkpoint inputs, outputs),
    /// apart from parameters, gradients and optimizer state.
    pub peak_activation: u64,
    /// Differentiable ops called forward inside it.
    pub ops: usize,
    /// Of those, ops run again by checkpointing during backward.
    pub recomputed_ops: usize,
    /// Of those, ops run outside any backward pass: the forward work.
    pub forward_ops: usize,
    /// Of those, in-place ops (`mul_`), each a version bump.
    pub inplace_ops: usize,
    /// Graph nodes created inside it, by PyTorch name.
    pub nodes: Vec<String>,
    /// The backward calls that began inside it, in order.
    pub backwards: Vec<BackwardStats>,
    /// Values read with `item()` inside it.
    pub values_read: Vec<f64>,
    /// Whether its end was seen (an exception may cut it short).
    pub closed: bool,
}

impl Phase {
    fn new(name: &str, bytes: [u64; 5]) -> Self {
        Self {
            name: name.to_string(),
            begin: bytes,
            end: bytes,
            peak: bytes,
            peak_total: bytes.iter().sum(),
            peak_activation: activation(bytes),
            ops: 0,
            recomputed_ops: 0,
            forward_ops: 0,
            inplace_ops: 0,
            nodes: vec![],
            backwards: vec![],
            values_read: vec![],
            closed: false,
        }
    }

    /// The highest saved-for-backward bytes while it ran.
    pub fn saved_peak(&self) -> u64 {
        self.peak[SAVED]
    }

    /// Saved-for-backward bytes when it ended.
    pub fn saved_at_end(&self) -> u64 {
        self.end[SAVED]
    }

    /// Every `.grad` written inside it, each leaf's last value, by leaf in
    /// creation order.
    pub fn final_grads(&self) -> Vec<GradStats> {
        let all: Vec<GradStats> = self
            .backwards
            .iter()
            .flat_map(|b| b.grads.iter().cloned())
            .collect();
        last_per_tensor(&all)
    }
}

/// Saved-for-backward plus other bytes.
fn activation(bytes: [u64; 5]) -> u64 {
    bytes[SAVED] + bytes[Category::Other as usize]
}

/// Each tensor's last entry, ordered by tensor id (creation order).
fn last_per_tensor(grads: &[GradStats]) -> Vec<GradStats> {
    let mut last: std::collections::BTreeMap<TensorId, &GradStats> = Default::default();
    for g in grads {
        last.insert(g.tensor, g);
    }
    last.into_values().cloned().collect()
}

/// What the engine measured during one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measurements {
    /// The exception the run ended with.
    pub error: Option<RaisedError>,
    /// Every named span, in the order they began.
    pub phases: Vec<Phase>,
    /// Every backward call, in order.
    pub backwards: Vec<BackwardStats>,
    /// Differentiable ops called forward.
    pub ops: usize,
    /// Ops run again by checkpointing.
    pub recomputed_ops: usize,
    /// Ops run outside any backward pass.
    pub forward_ops: usize,
    /// Graph nodes created, by PyTorch name, in order.
    pub nodes: Vec<String>,
    /// Graph nodes created, with the program line each came from.
    pub node_lines: Vec<(String, Option<u32>)>,
    /// The highest bytes of each category over the run.
    pub peak: [u64; 5],
    /// Live bytes per category when the run ended.
    pub end: [u64; 5],
    /// `optimizer.step()` calls.
    pub optimizer_steps: usize,
    /// `zero_grad()` calls reported by the engine's optimizers.
    pub zero_grads: usize,
    /// `clip_grad_norm_` calls: (norm before, norm after, max_norm).
    pub clips: Vec<(f64, f64, f64)>,
    /// Values read with `item()`, in order.
    pub values_read: Vec<f64>,
    /// What the program printed: for what the engine keeps out of the
    /// trace, such as a tensor's `_version`. Filled in by
    /// [`Runs`](crate::Runs) from the run's record; empty from
    /// [`Measurements::of`].
    pub printed: String,
}

impl Measurements {
    /// Measures a run from its trace and its ending.
    ///
    /// ```
    /// use gradscope_lessons::Measurements;
    /// use gradscope_trace::{Event, EventKind};
    /// let events = vec![Event { seq: 0, time_us: 0, line: None, kind: EventKind::BackwardEnded }];
    /// assert_eq!(Measurements::of(&events, None).ops, 0);
    /// ```
    pub fn of(events: &[Event], error: Option<RaisedError>) -> Self {
        let mut m = Measurements {
            error,
            ..Measurements::default()
        };
        let mut memory = MemoryTracker::default();
        // Indices into `m.phases` of the spans still open, innermost last.
        let mut open: Vec<usize> = vec![];
        let mut recomputing = 0usize;
        let mut pending_root: Option<(u64, Option<f64>)> = None;
        // Index into `m.backwards` of the backward running, and the
        // phases it began in.
        let mut running: Option<(usize, Vec<usize>)> = None;
        let mut last_accumulated = false;
        // Backward formulas are gradscope ops too; these are not forward work.
        let mut in_backward = 0usize;
        for event in events {
            if memory.apply(event) {
                let bytes = memory.bytes();
                for (peak, now) in m.peak.iter_mut().zip(bytes) {
                    *peak = (*peak).max(now);
                }
                for &i in &open {
                    if let Some(p) = m.phases.get_mut(i) {
                        for (peak, now) in p.peak.iter_mut().zip(bytes) {
                            *peak = (*peak).max(now);
                        }
                        p.peak_total = p.peak_total.max(bytes.iter().sum());
                        p.peak_activation = p.peak_activation.max(activation(bytes));
                    }
                }
            }
            match &event.kind {
                EventKind::RangeBegan { name } => {
                    m.phases.push(Phase::new(name, memory.bytes()));
                    open.push(m.phases.len() - 1);
                }
                EventKind::RangeEnded { .. } => {
                    if let Some(p) = open.pop().and_then(|i| m.phases.get_mut(i)) {
                        p.end = memory.bytes();
                        p.closed = true;
                    }
                }
                EventKind::OpCalled { op, .. } => {
                    m.ops += 1;
                    let inplace = op.ends_with('_');
                    let forward = in_backward == 0;
                    m.forward_ops += usize::from(forward);
                    if recomputing > 0 {
                        m.recomputed_ops += 1;
                    }
                    for p in among(&mut m.phases, &open) {
                        p.ops += 1;
                        p.inplace_ops += usize::from(inplace);
                        p.forward_ops += usize::from(forward);
                        if recomputing > 0 {
                            p.recomputed_ops += 1;
                        }
                    }
                }
                EventKind::RecomputeBegan { .. } => recomputing += 1,
                EventKind::RecomputeEnded { .. } => recomputing = recomputing.saturating_sub(1),
                EventKind::NodeCreated { name, .. } => {
                    m.nodes.push(name.to_string());
                    m.node_lines.push((name.to_string(), event.line));
                    for p in among(&mut m.phases, &open) {
                        p.nodes.push(name.to_string());
                    }
                }
                EventKind::BackwardRoot { numel, value } => pending_root = Some((*numel, *value)),
                EventKind::BackwardBegan { retain_graph, .. } => {
                    in_backward += 1;
                    let (root_numel, root_value) = pending_root.take().unwrap_or((0, None));
                    m.backwards.push(BackwardStats {
                        root_value,
                        root_numel,
                        retain_graph: *retain_graph,
                        grads: vec![],
                        captured: vec![],
                        finished: false,
                    });
                    running = Some((m.backwards.len() - 1, open.clone()));
                }
                EventKind::GradAccumulated { accumulated, .. } => last_accumulated = *accumulated,
                EventKind::GradValue {
                    tensor,
                    shape,
                    norm,
                    values,
                } => {
                    // The engine emits GradAccumulated just before this.
                    let accumulated = last_accumulated;
                    if let Some((i, _)) = &running
                        && let Some(b) = m.backwards.get_mut(*i)
                    {
                        b.grads.push(GradStats {
                            tensor: *tensor,
                            accumulated,
                            shape: shape.clone(),
                            norm: *norm,
                            values: values.clone(),
                        });
                    }
                }
                EventKind::GradCaptured {
                    input,
                    shape,
                    norm,
                    values,
                } => {
                    if let Some((i, _)) = &running
                        && let Some(b) = m.backwards.get_mut(*i)
                    {
                        b.captured.push(CapturedGrad {
                            input: *input as usize,
                            shape: shape.clone(),
                            norm: *norm,
                            values: values.clone(),
                        });
                    }
                }
                EventKind::BackwardEnded => {
                    in_backward = in_backward.saturating_sub(1);
                    if let Some((i, phases)) = running.take()
                        && let Some(b) = m.backwards.get_mut(i)
                    {
                        b.finished = true;
                        for p in among(&mut m.phases, &phases) {
                            p.backwards.push(b.clone());
                        }
                    }
                }
                EventKind::OptimizerStep { .. } => m.optimizer_steps += 1,
                EventKind::ZeroGrad { .. } => m.zero_grads += 1,
                EventKind::GradClipped {
                    total_norm,
                    clipped_norm,
                    max_norm,
                } => m.clips.push((*total_norm, *clipped_norm, *max_norm)),
                EventKind::ValueRead { value } => {
                    m.values_read.push(*value);
                    for p in among(&mut m.phases, &open) {
                        p.values_read.push(*value);
                    }
                }
                _ => {}
            }
        }
        // A backward cut short by an error still counts in its phases.
        if let Some((i, phases)) = running
            && let Some(b) = m.backwards.get(i)
        {
            for p in among(&mut m.phases, &phases) {
                p.backwards.push(b.clone());
            }
        }
        for p in among(&mut m.phases, &open) {
            p.end = memory.bytes();
        }
        m.end = memory.bytes();
        m
    }

    /// The first span named `name`.
    pub fn phase(&self, name: &str) -> Result<&Phase, crate::LessonError> {
        self.phases
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| crate::LessonError::NoPhase(name.into()))
    }

    /// Every span named `name`, in order.
    pub fn phases_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Phase> + 'a {
        self.phases.iter().filter(move |p| p.name == name)
    }

    /// The highest saved-for-backward bytes over the run.
    pub fn saved_peak(&self) -> u64 {
        self.peak[SAVED]
    }

    /// Live bytes in all categories when the run ended.
    pub fn end_total(&self) -> u64 {
        self.end.iter().sum()
    }

    /// The value printed after `label` on the last line that starts with
    /// it (`out._version: 1` gives `1` for `out._version:`).
    pub fn printed_after(&self, label: &str) -> Option<&str> {
        self.printed
            .lines()
            .rev()
            .find_map(|line| line.strip_prefix(label))
            .map(str::trim)
    }

    /// `Ok(())` when the run finished, else its exception as
    /// [`crate::LessonError::RunFailed`], for claims that need a full run.
    pub fn finished(&self) -> Result<(), crate::LessonError> {
        match &self.error {
            None => Ok(()),
            Some(e) => Err(crate::LessonError::RunFailed {
                type_name: e.type_name.clone(),
                message: e.message.clone(),
            }),
        }
    }
}

/// The phases whose indices are in `open`.
fn among<'a>(phases: &'a mut [Phase], open: &'a [usize]) -> impl Iterator<Item = &'a mut Phase> {
    phases
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| open.contains(i))
        .map(|(_, p)| p)
}
