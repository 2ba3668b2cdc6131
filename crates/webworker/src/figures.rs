//! Figures in the page's console: each figure a program shows
//! (`plt.show()`) goes to the page in the program's stdout, at the point
//! it was shown, as a terminal's inline image: iTerm2's escape
//! `ESC ] 1337 ; File = ARGS : BASE64 BEL`, which the page's console
//! (`gradscope_ui::console`) draws as an image where a terminal would.
//!
//! The figure rides in the output stream rather than in a message of its
//! own so that it keeps its place among the printed lines through every
//! stage that orders them (the worker's posts, the page's frame batching,
//! the console's lines) with no second ordering to keep in step.
//!
//! Arguments: `inline=1`; `name=` the figure's label (its titles, from
//! the SVG's `<title>`), base64; `size=` the SVG's bytes; and one of ours,
//! `shown=`, the wall-clock time of `show()` in milliseconds since the
//! epoch, with which the page's end-to-end test measures how long a figure
//! took to appear.

/// Sends each figure the program shows to `post`, as the stdout text that
/// draws it, after a [`FigureShown`](gradscope_trace::EventKind::FigureShown)
/// event on `show()`'s line: the page's console shows the figure only
/// where the trace is shown past that event (`post` flushes the trace
/// first, so the event reaches the page before the figure).
pub(crate) fn set_sink(mut post: impl FnMut(String) + 'static) {
    let mut shown_so_far = 0;
    gradscope_python::set_figure_sink(Some(Box::new(move |svg: &str| {
        shown_so_far += 1;
        let number = shown_so_far;
        gradscope_core::trace::emit(|| gradscope_trace::EventKind::FigureShown { number });
        let shown = web_time::SystemTime::now()
            .duration_since(web_time::SystemTime::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        post(escape(svg, shown));
    })));
}

/// Stops sending figures (the warm-up and the lessons' checks show none).
pub(crate) fn clear_sink() {
    gradscope_python::set_figure_sink(None);
}

/// The escape that draws `svg` inline, shown at `shown` (ms since the epoch).
fn escape(svg: &str, shown: f64) -> String {
    let label = label(svg);
    format!(
        "\x1b]1337;File=inline=1;name={};size={};shown={shown:.1}:{}\x07",
        base64(label.as_bytes()),
        svg.len(),
        base64(svg.as_bytes())
    )
}

/// The text of the SVG's `<title>`, its entities decoded, or "Figure".
fn label(svg: &str) -> String {
    let title = svg
        .split_once("<title>")
        .and_then(|(_, rest)| rest.split_once("</title>"))
        .map(|(title, _)| title);
    match title {
        Some(title) if !title.is_empty() => title
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
        _ => "Figure".to_string(),
    }
}

/// Standard base64 (RFC 4648, with padding), as iTerm2's escape carries
/// its name and its file: the `base64` crate, which RustPython already
/// links into the worker.
fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_base64_is_rfc_4648() {
        // RFC 4648's test vectors.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn figures_escape_names_the_figure_by_its_title() {
        let svg = "<svg><title>loss &amp; accuracy</title></svg>\n";
        let text = escape(svg, 12.5);
        assert_eq!(
            text,
            format!(
                "\x1b]1337;File=inline=1;name={};size={};shown=12.5:{}\x07",
                base64(b"loss & accuracy"),
                svg.len(),
                base64(svg.as_bytes())
            )
        );
        assert_eq!(label("<svg></svg>"), "Figure");
    }
}
