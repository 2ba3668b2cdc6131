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
    let tenths = (v * 10.0).round() as i64;
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
}
