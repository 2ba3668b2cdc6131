//! Figures in the console: an image a program's output draws inline, as
//! iTerm2's escape `ESC ] 1337 ; File = ARGS : BASE64 BEL` does in a
//! terminal. The worker writes each figure `plt.show()` shows this way into
//! the program's stdout (`gradscope_webworker`'s `figures`), so a figure
//! keeps its place among the printed lines.

use std::rc::Rc;

/// How the escape starts.
pub const START: &str = "\x1b]1337;File=";

/// How it ends (BEL).
pub const END: char = '\x07';

/// One figure, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What a screen reader says for it: the figure's titles.
    pub label: String,
    /// The image as a `data:` address (`image/svg+xml` for a figure).
    pub src: Rc<str>,
    /// The file name Save gives it (`figure-1.svg`).
    pub file_name: String,
    /// When the program showed it (ms since the epoch), if the escape says.
    pub shown_ms: Option<f64>,
    /// Which of the run's figures it is, from 1: the `number` of the
    /// trace's `FigureShown` event for it.
    pub number: u64,
}

impl Figure {
    /// The figure an escape's body (between [`START`] and [`END`]) draws,
    /// the `number`th of its run; `None` when it is not an inline image
    /// this console can show.
    pub fn parse(body: &str, number: u64) -> Option<Self> {
        let (args, data) = body.split_once(':')?;
        if data.is_empty() || !data.bytes().all(is_base64) {
            return None;
        }
        let mut inline = false;
        let mut label = None;
        let mut shown_ms = None;
        for arg in args.split(';') {
            match arg.split_once('=') {
                Some(("inline", value)) => inline = value == "1",
                Some(("name", value)) => {
                    label = base64_decode(value).and_then(|b| String::from_utf8(b).ok());
                }
                Some(("shown", value)) => shown_ms = value.parse().ok(),
                _ => {}
            }
        }
        if !inline {
            return None;
        }
        let (mime, extension) = kind(data);
        Some(Figure {
            label: label.unwrap_or_else(|| format!("Figure {number}")),
            src: format!("data:{mime};base64,{data}").into(),
            file_name: format!("figure-{number}.{extension}"),
            shown_ms,
            number,
        })
    }

    /// The bytes it holds on to.
    pub fn bytes(&self) -> usize {
        self.src.len() + self.label.len()
    }
}

/// The image's type and file extension, from its first bytes: PNG, JPEG
/// and GIF by their signatures, else SVG (what `plt.show()` draws).
fn kind(data: &str) -> (&'static str, &'static str) {
    if data.starts_with("iVBORw0KGgo") {
        ("image/png", "png")
    } else if data.starts_with("/9j/") {
        ("image/jpeg", "jpg")
    } else if data.starts_with("R0lGOD") {
        ("image/gif", "gif")
    } else {
        ("image/svg+xml", "svg")
    }
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// Standard base64 (RFC 4648), padding optional; `None` if damaged.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A lone sixth of a byte cannot end base64.
    (bits < 6).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_base64_decodes_rfc_4648() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
            ("foob", "Zm9vYg"),
        ] {
            assert_eq!(base64_decode(coded).as_deref(), Some(plain.as_bytes()));
        }
        assert_eq!(base64_decode("Zm9v!"), None);
        assert_eq!(base64_decode("Z"), None);
    }

    #[test]
    fn figure_parses_the_workers_escape() {
        // What the worker writes for an SVG titled "loss" ("PHN2Zz4=" is
        // "<svg>"; "bG9zcw==" is "loss").
        let figure =
            Figure::parse("inline=1;name=bG9zcw==;size=5;shown=1700.5:PHN2Zz4=", 2).unwrap();
        assert_eq!(figure.label, "loss");
        assert_eq!(&*figure.src, "data:image/svg+xml;base64,PHN2Zz4=");
        assert_eq!(figure.file_name, "figure-2.svg");
        assert_eq!(figure.shown_ms, Some(1700.5));
        assert_eq!(figure.number, 2);
        // Unnamed, and a PNG.
        let png = Figure::parse("inline=1:iVBORw0KGgoAAAA=", 1).unwrap();
        assert_eq!(
            (png.label.as_str(), png.file_name.as_str()),
            ("Figure 1", "figure-1.png")
        );
        // Not inline (iTerm2 would download it), no data, or not base64.
        assert_eq!(Figure::parse("inline=0:PHN2Zz4=", 1), None);
        assert_eq!(Figure::parse("inline=1:", 1), None);
        assert_eq!(Figure::parse("inline=1:<svg onload=x>", 1), None);
        assert_eq!(Figure::parse("inline=1", 1), None);
    }
}
