//! Comparisons: a lesson's figures that compare settings, as the numbers a
//! small chart draws. The figures travel to the page as the text rows the
//! learner reads (`peak 190.0 KiB (saved 72.0 KiB)`); a chart reads its
//! numbers back out of those same rows, so what it draws is what the rows
//! say, measured once.

/// How a comparison is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// One bar per figure: the figure's `number`th number.
    Bars {
        /// Which number of the figure's text (from 0, in reading order).
        number: usize,
    },
    /// One line per figure through all of its numbers, in order (a value
    /// per step).
    Lines,
}

/// What a comparison's numbers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bytes (the figures say `72.0 KiB`).
    Bytes,
    /// Plain numbers (norms, losses, counts).
    Plain,
}

/// A small chart of some of a lesson's figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// What it shows (`eval pass peak`).
    pub title: &'static str,
    /// Bars or lines.
    pub kind: ChartKind,
    /// What its numbers are.
    pub unit: Unit,
}

/// A comparison's numbers: a row per figure, its label and its values.
pub type ChartRows = Vec<(String, Vec<f64>)>;

impl Comparison {
    /// The rows this comparison draws from a lesson's figures, as
    /// (label, value text); figures without the numbers it needs are left
    /// out.
    ///
    /// ```
    /// use gradscope_lessons::{ChartKind, Comparison, Unit};
    /// let peaks = Comparison { title: "peak", kind: ChartKind::Bars { number: 1 }, unit: Unit::Bytes };
    /// let figures = [("b64 grad".to_string(), "peak 190.0 KiB (saved 72.0 KiB)".to_string())];
    /// assert_eq!(peaks.rows(&figures), vec![("b64 grad".to_string(), vec![73728.0])]);
    /// ```
    pub fn rows(&self, figures: &[(String, String)]) -> ChartRows {
        figures
            .iter()
            .filter_map(|(label, value)| {
                let numbers = numbers_in(value);
                let values = match self.kind {
                    ChartKind::Bars { number } => vec![*numbers.get(number)?],
                    ChartKind::Lines if numbers.is_empty() => return None,
                    ChartKind::Lines => numbers,
                };
                Some((label.clone(), values))
            })
            .collect()
    }
}

/// Bytes as the figures write them (`1.5 KiB`), exact below a KiB.
///
/// ```
/// assert_eq!(gradscope_lessons::format_bytes(73728), "72.0 KiB");
/// ```
pub fn format_bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.2} MiB", n as f64 / 1_048_576.0),
    }
}

/// The numbers in a figure's text, in order, each with its unit applied
/// (`72.0 KiB` is 73728): a number is a run of digits (with a point and an
/// exponent) not glued to a word before it (`b64` is a label, not 64).
pub fn numbers_in(text: &str) -> Vec<f64> {
    let chars: Vec<char> = text.chars().collect();
    let mut numbers = vec![];
    let mut i = 0;
    while i < chars.len() {
        let starts = |j: usize| chars.get(j).is_some_and(char::is_ascii_digit);
        let glued = i > 0
            && chars
                .get(i - 1)
                .is_some_and(|c| c.is_alphanumeric() || *c == '.');
        let sign = chars[i] == '-' && starts(i + 1);
        if (starts(i) || sign) && !glued {
            let begin = i;
            i += 1;
            while i < chars.len() {
                let c = chars[i];
                let exponent = (c == 'e' || c == 'E')
                    && (starts(i + 1)
                        || (matches!(chars.get(i + 1), Some('-' | '+')) && starts(i + 2)));
                if c.is_ascii_digit() || (c == '.' && starts(i + 1)) {
                    i += 1;
                } else if exponent {
                    i += 2;
                } else {
                    break;
                }
            }
            let literal: String = chars[begin..i].iter().collect();
            if let Ok(n) = literal.parse::<f64>() {
                let rest: String = chars[i..].iter().collect();
                let scale = match rest.trim_start().split(|c: char| !c.is_alphabetic()).next() {
                    Some("KiB") => 1024.0,
                    Some("MiB") => 1_048_576.0,
                    _ => 1.0,
                };
                numbers.push(n * scale);
            }
        } else {
            i += 1;
        }
    }
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_figures_with_units_and_labels() {
        assert_eq!(
            numbers_in("peak 1.50 MiB (saved 512 B)"),
            vec![1.5 * 1_048_576.0, 512.0]
        );
        assert_eq!(numbers_in("0.123 0.246 -1e-3"), vec![0.123, 0.246, -0.001]);
        assert_eq!(
            numbers_in("activation peak 2.0 KiB (57%; saved 1.0 KiB), recomputed 12 ops"),
            vec![2048.0, 57.0, 1024.0, 12.0]
        );
        assert!(numbers_in("b64 nan").is_empty());
    }

    #[test]
    fn comparison_lines_take_every_number_and_skip_empty_rows() {
        let lines = Comparison {
            title: "norm",
            kind: ChartKind::Lines,
            unit: Unit::Plain,
        };
        let figures = [
            ("with".to_string(), "1.000 2.500".to_string()),
            ("none".to_string(), "could not be measured".to_string()),
        ];
        assert_eq!(
            lines.rows(&figures),
            vec![("with".to_string(), vec![1.0, 2.5])]
        );
    }
}
