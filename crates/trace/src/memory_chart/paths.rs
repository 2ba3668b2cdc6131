//! The stacked curve as SVG paths: each band, and a line of steps (the
//! total's outline, the reserve).

use super::MemoryChart;
use crate::memory::MemorySample;
use crate::svg::StepPath;

/// One step of the stacked curve: from `x` on, cumulative bytes `stack`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub(super) x: f64,
    pub(super) total: u64,
    pub(super) stack: [u64; 5],
    pub(super) reserved: u64,
}

impl MemoryChart {
    /// The stacked curve from zero at the left edge, thinned to the sample
    /// with the highest total in each half unit of width so peaks survive.
    /// Zoomed, it starts at the bytes held at the left edge and ends at
    /// the right.
    pub(super) fn steps(&self, samples: &[MemorySample]) -> Vec<Step> {
        let mut steps = vec![Step {
            x: 0.0,
            total: 0,
            stack: [0; 5],
            reserved: 0,
        }];
        for sample in samples {
            let mut stack = sample.bytes;
            for k in 1..5 {
                stack[k] += stack[k - 1];
            }
            let step = Step {
                x: self.sample_x(sample),
                total: stack[4],
                stack,
                reserved: sample.reserved,
            };
            // Before the stretch shown (or at its left edge, zoomed): the
            // bytes held where it begins.
            if step.x < 0.0 || (step.x == 0.0 && !self.zoom.is_whole()) {
                steps[0] = Step { x: 0.0, ..step };
                continue;
            }
            if step.x > self.width {
                break;
            }
            let last = steps.len() - 1;
            if samples.len() > 2 * self.width.max(1.0) as usize
                && (step.x * 2.0).floor() == (steps[last].x * 2.0).floor()
                && last > 0
            {
                let reserved = step.reserved.max(steps[last].reserved);
                if step.total >= steps[last].total {
                    steps[last] = Step {
                        x: steps[last].x,
                        ..step
                    };
                }
                steps[last].reserved = reserved;
            } else {
                steps.push(step);
            }
        }
        steps
    }

    /// The band of category `k`: its top edge left to right, then the top of
    /// the band below it right to left, as steps.
    pub(super) fn band_path(&self, steps: &[Step], k: usize) -> String {
        let top = |s: &Step| self.y(s.stack[k]);
        let bottom = |s: &Step| self.y(if k == 0 { 0 } else { s.stack[k - 1] });
        let mut d = StepPath::start(0.0, self.height);
        for step in steps {
            d.to(step.x, top(step));
        }
        if let Some(last) = steps.last() {
            d.to(self.width, top(last));
            d.to(self.width, bottom(last));
        }
        // Right to left, each step's bottom is reached at its own x, then
        // the pen drops (or rises) to the bottom of the step before it.
        for (i, step) in steps.iter().enumerate().rev() {
            let before = if i > 0 { &steps[i - 1] } else { step };
            d.to(step.x, bottom(before));
        }
        d.finish(true)
    }

    /// A value of the steps (the reserve, the total) as a line of steps
    /// from the left edge to the right.
    pub(super) fn line_path(&self, steps: &[Step], value: fn(&Step) -> u64) -> String {
        let mut d = StepPath::start(0.0, self.y(0));
        for step in steps {
            d.to(step.x, self.y(value(step)));
        }
        if let Some(last) = steps.last() {
            d.to(self.width, self.y(value(last)));
        }
        d.finish(false)
    }
}
