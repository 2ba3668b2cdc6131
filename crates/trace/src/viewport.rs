//! Pan and zoom of the graph view: which part of the laid-out graph shows
//! in the view's box, as a scale and an offset, so the page only writes a
//! `transform` and a large graph stays one SVG the browser moves whole.

/// Where content (layout units) lands in the view (CSS pixels):
/// `view = content * scale + offset`.
///
/// ```
/// use gradscope_trace::viewport::Viewport;
/// // A 1000 by 200 graph in a 500 by 400 view: halved, centred.
/// let fit = Viewport::fit((1000.0, 200.0), (500.0, 400.0));
/// assert_eq!((fit.scale, fit.x), (0.5, 0.0));
/// // Zooming about a point keeps the content under it where it was.
/// let zoomed = fit.zoom_at(2.0, (100.0, 50.0));
/// assert_eq!(zoomed.content_at((100.0, 50.0)), fit.content_at((100.0, 50.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// View pixels per layout unit.
    pub scale: f64,
    /// Where the content's left edge is in the view.
    pub x: f64,
    /// Where the content's top edge is in the view.
    pub y: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Self {
            scale: 1.0,
            x: 0.0,
            y: 0.0,
        }
    }
}

/// The smallest scale: a few thousand nodes still fit a wide view.
pub const MIN_SCALE: f64 = 0.02;
/// The largest scale: a box's text four times its size.
pub const MAX_SCALE: f64 = 4.0;
/// How much one zoom step (a button, a key, a wheel notch) scales.
pub const ZOOM_STEP: f64 = 1.25;
/// How far one arrow key pans, in view pixels.
pub const PAN_STEP: f64 = 60.0;

impl Viewport {
    /// The whole content (`width`, `height`) in the view, centred
    /// horizontally and at the top, never enlarged past its own size.
    pub fn fit(content: (f64, f64), view: (f64, f64)) -> Self {
        let (cw, ch) = content;
        let (vw, vh) = view;
        if cw <= 0.0 || ch <= 0.0 || vw <= 0.0 || vh <= 0.0 {
            return Self::default();
        }
        let scale = (vw / cw).min(vh / ch).clamp(MIN_SCALE, 1.0);
        Self {
            scale,
            x: (vw - cw * scale) / 2.0,
            y: 0.0,
        }
    }

    /// Scaled by `factor` (clamped to [`MIN_SCALE`]..[`MAX_SCALE`]) about
    /// the view point `at`, which keeps showing the same content.
    pub fn zoom_at(self, factor: f64, at: (f64, f64)) -> Self {
        let scale = (self.scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        if !scale.is_finite() || scale == self.scale {
            return self;
        }
        let (cx, cy) = self.content_at(at);
        Self {
            scale,
            x: at.0 - cx * scale,
            y: at.1 - cy * scale,
        }
    }

    /// Moved by (`dx`, `dy`) view pixels.
    pub fn pan(self, dx: f64, dy: f64) -> Self {
        Self {
            x: self.x + dx,
            y: self.y + dy,
            ..self
        }
    }

    /// The content point shown at view point `at`.
    pub fn content_at(&self, at: (f64, f64)) -> (f64, f64) {
        ((at.0 - self.x) / self.scale, (at.1 - self.y) / self.scale)
    }

    /// The SVG `transform` that places the content.
    pub fn transform(&self) -> String {
        format!(
            "translate({:.2},{:.2}) scale({:.4})",
            self.x, self.y, self.scale
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viewport_fit_shrinks_never_enlarges() {
        let small = Viewport::fit((100.0, 50.0), (400.0, 300.0));
        assert_eq!((small.scale, small.x, small.y), (1.0, 150.0, 0.0));
        let tall = Viewport::fit((200.0, 1200.0), (400.0, 300.0));
        assert_eq!(tall.scale, 0.25);
        assert_eq!(tall.x, 175.0);
        assert_eq!(
            Viewport::fit((0.0, 0.0), (400.0, 300.0)),
            Viewport::default()
        );
    }

    #[test]
    fn viewport_zoom_keeps_the_point_and_clamps() {
        let v = Viewport {
            scale: 0.5,
            x: 10.0,
            y: -20.0,
        };
        let at = (123.0, 45.0);
        let z = v.zoom_at(ZOOM_STEP, at);
        let (a, b) = (v.content_at(at), z.content_at(at));
        assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9);
        assert_eq!(z.scale, 0.625);
        let max = (0..100).fold(v, |v, _| v.zoom_at(ZOOM_STEP, at));
        assert_eq!(max.scale, MAX_SCALE);
        let min = (0..100).fold(v, |v, _| v.zoom_at(1.0 / ZOOM_STEP, at));
        assert_eq!(min.scale, MIN_SCALE);
        // Zooming in and back out returns to the same view.
        let back = v.zoom_at(2.0, at).zoom_at(0.5, at);
        assert!((back.x - v.x).abs() < 1e-9 && (back.y - v.y).abs() < 1e-9);
    }

    #[test]
    fn viewport_pan_moves_the_content() {
        let v = Viewport::default().pan(30.0, -5.0);
        assert_eq!(v.content_at((30.0, -5.0)), (0.0, 0.0));
        assert_eq!(v.transform(), "translate(30.00,-5.00) scale(1.0000)");
    }
}
