//! Where events, times and bytes fall in the chart's box, zoomed or not.

use super::{Axis, MemoryChart};
use crate::log::EventList;
use crate::memory::MemorySample;

impl MemoryChart {
    /// The horizontal position of the cursor at `position` events applied.
    pub fn cursor_x<L: EventList + ?Sized>(&self, events: &L, position: usize) -> f64 {
        match self.axis {
            Axis::Events => self.position_x(position),
            Axis::Time => {
                let time = position
                    .checked_sub(1)
                    .and_then(|i| events.event(i))
                    .map_or(0, |e| e.time_us);
                self.time_x(time)
            }
        }
    }

    pub(super) fn position_x(&self, position: usize) -> f64 {
        if self.events == 0 {
            return 0.0;
        }
        let f = position.min(self.events) as f64 / self.events as f64;
        self.zoom.view_at(f) * self.width
    }

    pub(super) fn time_x(&self, time_us: u64) -> f64 {
        if self.end_time_us == 0 {
            return 0.0;
        }
        let f = time_us.min(self.end_time_us) as f64 / self.end_time_us as f64;
        self.zoom.view_at(f) * self.width
    }

    /// Whether `x` is inside the box (a zoomed chart leaves out the rest).
    pub fn shows(&self, x: f64) -> bool {
        (0.0..=self.width).contains(&x)
    }

    /// Where an event's effect starts (after it on the event axis).
    pub(super) fn event_x(&self, index: usize, time_us: u64, after: bool) -> f64 {
        match self.axis {
            Axis::Events => self.position_x(index + usize::from(after)),
            Axis::Time => self.time_x(time_us),
        }
    }

    pub(super) fn sample_x(&self, sample: &MemorySample) -> f64 {
        self.event_x(sample.seq as usize, sample.time_us, true)
    }

    pub(super) fn y(&self, bytes: u64) -> f64 {
        if self.top_bytes == 0 {
            return self.height;
        }
        self.height - bytes as f64 / self.top_bytes as f64 * self.height
    }
}
