//! Lesson 10: backward from non-scalars, vector-Jacobian products,
//! `autograd.grad`, and second derivatives.

use super::{all_close, raised};
use crate::runner::{off, on};
use crate::{
    ChartKind, Claim, Comparison, Control, ControlKind, Figure, Lesson, LessonError, Moment, Runs,
    Unit, Verdict,
};

pub(crate) const LESSON: Lesson = Lesson {
    number: 10,
    slug: "beyond-scalar",
    title: "Beyond a scalar loss",
    program: include_str!("../../programs/beyond-scalar.py"),
    text: "\
Backward computes a vector-Jacobian product: the gradient flowing in, times \
the Jacobian of each node. For a scalar loss the flowing-in gradient is \
just 1, so PyTorch supplies it. For a vector output there is no obvious \
choice, and `y.backward()` refuses (turn on SCALAR_ONLY_ERROR to see the \
message). Pass `gradient=v` and you get J^T v; the program builds the \
same vector row by row, one backward per output element scaled by v[i], \
and the two agree.

`torch.autograd.grad` returns the gradient instead of adding it to `.grad`: \
in the graph view the AccumulateGrad node does not run, and `x.grad` stays \
None.

With `create_graph=True` backward records its own operations, so the \
gradient has a graph of its own and can be differentiated again: the \
second derivative of x^3 is 6x. Watch the graph view grow backward nodes \
of backward nodes. Without CREATE_GRAPH the first gradient is a plain \
tensor and the chain stops there.",
    controls: &[
        Control {
            name: "CREATE_GRAPH",
            label: "create_graph=True",
            kind: ControlKind::Bool,
        },
        Control {
            name: "SCALAR_ONLY_ERROR",
            label: "call backward() on a vector",
            kind: ControlKind::Bool,
        },
    ],
    claims: &[
        Claim {
            text: "backward() on a vector raises 'grad can be implicitly created only for scalar outputs'",
            #[cfg(feature = "checks")]
            check: scalar_only,
            at: Moment::Raised,
            shown_with: &[("SCALAR_ONLY_ERROR", "True")],
        },
        Claim {
            text: "backward(gradient=v) equals J^T v built row by row",
            #[cfg(feature = "checks")]
            check: vjp,
            at: Moment::Backward("vjp"),
            shown_with: &[],
        },
        Claim {
            text: "autograd.grad runs backward without writing any .grad",
            #[cfg(feature = "checks")]
            check: autograd_grad,
            at: Moment::Backward("autograd.grad"),
            shown_with: &[],
        },
        Claim {
            text: "with create_graph, the second derivative of x^3 is 6x",
            #[cfg(feature = "checks")]
            check: second,
            at: Moment::Backward("second derivative"),
            shown_with: &[],
        },
    ],
    #[cfg(feature = "checks")]
    figures,
    comparisons: &[Comparison {
        title: "graph nodes of the second derivative",
        kind: ChartKind::Bars { number: 0 },
        unit: Unit::Plain,
    }],
    files: &[],
};

fn scalar_only(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.with(&[on("SCALAR_ONLY_ERROR")])?;
    let (ok, measured) = raised(
        &m,
        "RuntimeError",
        "grad can be implicitly created only for scalar outputs",
    );
    Ok(Verdict::new(ok, measured))
}

fn vjp(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let whole = super::first_grad(m.phase("vjp")?)?;
    let rows = super::first_grad(m.phase("row by row")?)?;
    Ok(Verdict::new(
        all_close(&whole, &rows, 1e-6),
        format!("J^T v {whole:?}, row by row {rows:?}"),
    ))
}

fn autograd_grad(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[])?;
    let p = m.phase("autograd.grad")?;
    let writes: usize = p.backwards.iter().map(|b| b.grads.len()).sum();
    Ok(Verdict::new(
        !p.backwards.is_empty() && writes == 0,
        format!(
            "{} backward pass(es), {writes} writes to .grad",
            p.backwards.len()
        ),
    ))
}

fn second(runs: &mut Runs<'_>) -> Result<Verdict, LessonError> {
    let m = runs.finished(&[on("CREATE_GRAPH")])?;
    let p = m.phase("second derivative")?;
    let writes: Vec<&Vec<f64>> = p
        .backwards
        .iter()
        .flat_map(|b| b.grads.iter().map(|g| &g.values))
        .collect();
    let [first, both] = writes.as_slice() else {
        return Err(LessonError::NotMeasured("two writes to t.grad".into()));
    };
    // first = 3x^2 (x > 0 here), so x = sqrt(first / 3); the second
    // backward adds d/dx (3x^2) = 6x on top.
    let second: Vec<f64> = both.iter().zip(first.iter()).map(|(b, f)| b - f).collect();
    let six_x: Vec<f64> = first.iter().map(|f| 6.0 * (f / 3.0).sqrt()).collect();
    Ok(Verdict::new(
        all_close(&second, &six_x, 1e-5),
        format!("first derivative {first:?}, second {second:?}"),
    ))
}

fn figures(runs: &mut Runs<'_>) -> Result<Vec<Figure>, LessonError> {
    let with = runs
        .finished(&[on("CREATE_GRAPH")])?
        .phase("second derivative")?
        .nodes
        .len();
    let without = runs.finished(&[off("CREATE_GRAPH")])?;
    let without = without.phase("second derivative")?.nodes.len();
    Ok(vec![
        Figure::new("nodes, create_graph", with.to_string()),
        Figure::new("nodes, without", without.to_string()),
    ])
}
