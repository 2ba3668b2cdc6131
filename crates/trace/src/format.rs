//! Tensors printed as PyTorch prints them (`tensor([[4.5000, 4.5000], ...])`),
//! for the page, the CLI and the Python runtime alike.

/// PyTorch's `str(t)` for a float tensor of `shape` holding `values`
/// row-major, for the cases without scientific notation or summarisation.
///
/// ```
/// use gradscope_trace::format::tensor_str;
/// assert_eq!(tensor_str(&[27.0], &[]), "tensor(27.)");
/// ```
pub fn tensor_str(values: &[f64], shape: &[usize]) -> String {
    let integral = values.iter().all(|v| v.fract() == 0.0);
    let cells: Vec<String> = values
        .iter()
        .map(|v| {
            if integral {
                format!("{v:.0}.")
            } else {
                format!("{v:.4}")
            }
        })
        .collect();
    let width = cells.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::from("tensor(");
    write_dim(&mut out, &cells, shape, width, 0);
    out.push(')');
    out
}

fn write_dim(out: &mut String, cells: &[String], shape: &[usize], width: usize, depth: usize) {
    let Some((&len, inner)) = shape.split_first() else {
        if let Some(cell) = cells.first() {
            out.push_str(cell);
        }
        return;
    };
    let step: usize = inner.iter().product();
    out.push('[');
    for i in 0..len {
        if i > 0 {
            if inner.is_empty() {
                out.push_str(", ");
            } else {
                out.push(',');
                out.push_str(&"\n".repeat(inner.len()));
                out.push_str(&" ".repeat("tensor(".len() + depth + 1));
            }
        }
        let part = cells.get(i * step..(i + 1) * step).unwrap_or(&[]);
        if inner.is_empty() {
            if let Some(cell) = part.first() {
                out.push_str(&format!("{cell:>width$}"));
            }
        } else {
            write_dim(out, part, inner, width, depth + 1);
        }
    }
    out.push(']');
}
