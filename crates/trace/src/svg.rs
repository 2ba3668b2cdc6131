//! Numbers as the views write them into SVG: to a tenth of a pixel.
//!
//! A view's update writes thousands of coordinates (a long run's memory
//! bands and marks, a graph's boxes), and Rust's float formatting, exact
//! (`{v:.1}`) or shortest (`v.to_string()`), cost the page more than the
//! rest of its view code (issue 7: a third of a memory chart's update, and
//! in a profile of a training run 40% of all the views' rendering). A
//! tenth of a pixel is finer than anything drawn, and writing it is
//! integer formatting.

use std::fmt::Write;

/// Appends `v` with one decimal, as `{v:.1}` writes it but for ties (a
/// hundredth's difference) and the sign of values that round to zero.
pub fn push_tenths(out: &mut String, v: f64) {
    if !v.is_finite() || v.abs() >= 1e15 {
        let _ = write!(out, "{v:.1}");
        return;
    }
    let tenths = to_tenths(v);
    if tenths < 0 {
        out.push('-');
    }
    let tenths = tenths.unsigned_abs();
    // itoa, not `write!`: core::fmt's machinery was 60% of a long run's
    // memory chart (callgrind, 109k events), for numbers it need not pad.
    out.push_str(itoa::Buffer::new().format(tenths / 10));
    out.push('.');
    out.push(char::from(b'0' + (tenths % 10) as u8));
}

/// A path of horizontal and vertical strokes only (a step chart's edge),
/// written as `H`/`V` commands, each only where the pen moves by a tenth of
/// a pixel or more. The memory chart's bands are such edges, thousands of
/// steps long, most of them level: written as `L x,y` corners they were
/// 143 KB of path text a frame for a 1,000-step run, which the page handed
/// to the browser whole on every update.
#[derive(Debug)]
pub struct StepPath {
    d: String,
    /// The pen, in tenths, as written.
    x: i64,
    y: i64,
    /// Where a level stretch has taken the pen since: written only before
    /// the next vertical stroke (or at the end), so a run of level steps is
    /// one `H`.
    across: Option<f64>,
}

/// `v` in tenths, as [`push_tenths`] rounds it.
fn to_tenths(v: f64) -> i64 {
    (v * 10.0).round() as i64
}

impl StepPath {
    /// A path that starts (`M`) at `(x, y)`.
    pub fn start(x: f64, y: f64) -> Self {
        let mut d = String::from("M");
        push_tenths(&mut d, x);
        d.push(',');
        push_tenths(&mut d, y);
        StepPath {
            d,
            x: to_tenths(x),
            y: to_tenths(y),
            across: None,
        }
    }

    /// Across to `x`, then up or down to `y`.
    pub fn to(&mut self, x: f64, y: f64) {
        self.across = Some(x);
        let ty = to_tenths(y);
        if ty != self.y {
            self.flush_across();
            self.d.push('V');
            push_tenths(&mut self.d, y);
            self.y = ty;
        }
    }

    fn flush_across(&mut self) {
        if let Some(x) = self.across.take() {
            let tx = to_tenths(x);
            if tx != self.x {
                self.d.push('H');
                push_tenths(&mut self.d, x);
                self.x = tx;
            }
        }
    }

    /// The path, closed (`Z`) or left open.
    pub fn finish(mut self, close: bool) -> String {
        self.flush_across();
        if close {
            self.d.push('Z');
        }
        self.d
    }
}

/// Appends a closed rectangle from `(x0, y0)` to `(x1, y1)` as one subpath,
/// `Mx0,y0Hx1Vy1Hx0Z`: many rectangles of one style go in one `<path>`,
/// one element for the browser to place instead of one each.
pub fn push_rect(out: &mut String, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) {
    push_command(out, 'M', &[(x0, y0)]);
    out.push('H');
    push_tenths(out, x1);
    out.push('V');
    push_tenths(out, y1);
    out.push('H');
    push_tenths(out, x0);
    out.push('Z');
}

/// `v` with one decimal (see [`push_tenths`]), for an attribute.
pub fn tenths(v: f64) -> String {
    let mut out = String::with_capacity(8);
    push_tenths(&mut out, v);
    out
}

/// Appends a path command with its points, as `M1.0,2.0` or
/// `C1.0,2.0 3.0,4.0 5.0,6.0`.
pub fn push_command(out: &mut String, command: char, points: &[(f64, f64)]) {
    out.push(command);
    for (k, &(x, y)) in points.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        push_tenths(out, x);
        out.push(',');
        push_tenths(out, y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_tenths_as_the_formatter_writes_them() {
        for v in [
            0.0,
            1.0,
            50.0,
            2.04,
            99.96,
            123.456,
            0.05001,
            -3.17,
            -0.26,
            1e9 + 0.3,
        ] {
            assert_eq!(tenths(v), format!("{v:.1}"), "{v}");
        }
        assert_eq!(tenths(f64::NAN), "NaN");
        assert_eq!(tenths(f64::INFINITY), "inf");
        assert_eq!(
            tenths(-0.04),
            "0.0",
            "no sign on a value that rounds to zero"
        );
        let mut path = String::from("M");
        push_tenths(&mut path, 1.25);
        push_tenths(&mut path, -7.0);
        assert_eq!(path, "M1.3-7.0");
        push_command(&mut path, 'C', &[(1.0, 2.0), (3.0, 4.04)]);
        assert_eq!(path, "M1.3-7.0C1.0,2.0 3.0,4.0");
    }

    #[test]
    fn step_paths_move_only_where_the_pen_moves() {
        let mut path = StepPath::start(0.0, 50.0);
        path.to(0.0, 50.0); // nowhere
        path.to(10.0, 50.0); // level: across only
        path.to(10.0, 20.0); // up only
        path.to(20.04, 20.03); // less than a tenth either way: nowhere
        path.to(30.0, 25.0);
        assert_eq!(path.finish(true), "M0.0,50.0H10.0V20.0H30.0V25.0Z");
        assert_eq!(StepPath::start(1.0, 2.0).finish(false), "M1.0,2.0");
    }
}
