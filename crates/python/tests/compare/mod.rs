//! How a program's output is held to what PyTorch printed, shared by the
//! corpus test (`tests/corpus.rs`) and the public corpus's harness
//! (`crates/cli/tests/public.rs`): token by token, numbers within a stated
//! tolerance (or not compared at all, for programs that print timings),
//! object addresses (`0x...`) ignored, and a warning raised inside PyTorch's
//! own files compared by its text, not by the file and line it names.

/// Numbers match when within this relative tolerance (float32 printing at
/// four decimals already rounds; this absorbs last-digit differences)...
pub const RELATIVE: f64 = 1e-4;
/// ...or this absolute one.
pub const ABSOLUTE: f64 = 1e-6;

/// How numbers are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)] // each test binary uses the part it needs
pub enum Numbers {
    /// Within [`RELATIVE`] or [`ABSOLUTE`].
    Tolerance,
    /// Any number matches any number: for programs that print timings or
    /// `id()`s (the public corpus's `masked` programs).
    Masked,
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Number(f64, &'a str),
    Address,
    Newline,
    Text(&'a str),
}

/// The tokens of `text`, each with the number of the line it is on.
fn tokens(text: &str) -> Vec<(Token<'_>, usize)> {
    let bytes = text.as_bytes();
    let mut out = vec![];
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c == b'\n' {
            out.push((Token::Newline, line));
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'0' && bytes.get(i + 1) == Some(&b'x') {
            i += 2;
            while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                i += 1;
            }
            out.push((Token::Address, line));
        } else if c.is_ascii_digit()
            || (c == b'-' || c == b'+' || c == b'.')
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
        {
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
                let mut j = i + 1;
                if j < bytes.len() && (bytes[j] == b'-' || bytes[j] == b'+') {
                    j += 1;
                }
                if j < bytes.len() && bytes[j].is_ascii_digit() {
                    i = j;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let s = &text[start..i];
            match s.parse::<f64>() {
                Ok(v) => out.push((Token::Number(v, s), line)),
                Err(_) => out.push((Token::Text(s), line)),
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((Token::Text(&text[start..i]), line));
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            i += len;
            out.push((Token::Text(&text[start..i]), line));
        }
    }
    out
}

fn same(a: &Token<'_>, b: &Token<'_>, numbers: Numbers) -> bool {
    match (a, b) {
        (Token::Number(..), Token::Number(..)) if numbers == Numbers::Masked => true,
        (Token::Number(x, _), Token::Number(y, _)) => {
            x == y || (x - y).abs() <= ABSOLUTE + RELATIVE * x.abs().max(y.abs())
        }
        _ => a == b,
    }
}

/// The line of `text` that `token` is on, for a report of where outputs
/// differ: `line N: "..."`, or `the end` past the last token.
fn show_line(text: &str, token: Option<&(Token<'_>, usize)>) -> String {
    match token {
        Some((_, line)) => format!(
            "line {line}: {:?}",
            text.lines().nth(line - 1).unwrap_or_default()
        ),
        None => "the end".to_string(),
    }
}

/// `None` when they match, numbers within the tolerance; else where they
/// first differ.
#[allow(dead_code)] // each test binary uses the part it needs
pub fn compare(expected: &str, actual: &str) -> Option<String> {
    compare_with(expected, actual, Numbers::Tolerance)
}

/// `None` when they match; else the first differing line of each.
pub fn compare_with(expected: &str, actual: &str, numbers: Numbers) -> Option<String> {
    let (e, a) = (tokens(expected), tokens(actual));
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if same(&x.0, &y.0, numbers) => continue,
            (x, y) => {
                return Some(format!(
                    "expected {}, got {}",
                    show_line(expected, x),
                    show_line(actual, y)
                ));
            }
        }
    }
    None
}

/// `None` when `actual` matches `expected` as [`compare_with`] does,
/// except that a number PyTorch's two recordings (`expected` and `other`,
/// the same program with two thread counts) print differently may be as
/// far from the nearer of them as they are from each other: a float32
/// training loop's last digits follow the order of summation in MKL's
/// kernels, which changes with the thread count and the CPU, so where
/// PyTorch does not agree with itself the test asks no more of us than
/// that. Text, and every number the two recordings agree on, is held as
/// [`compare_with`] holds it. `Some` also when the two recordings differ
/// in anything but numbers: then there is no spread to measure.
#[allow(dead_code)] // each test binary uses the part it needs
pub fn compare_within_spread(expected: &str, other: &str, actual: &str) -> Option<String> {
    let (e, o, a) = (tokens(expected), tokens(other), tokens(actual));
    let aligned = e.len() == o.len()
        && e.iter().zip(&o).all(|(x, y)| match (&x.0, &y.0) {
            (Token::Number(..), Token::Number(..)) => true,
            (x, y) => x == y,
        });
    if !aligned {
        return Some("the two recordings differ in more than numbers".to_string());
    }
    for i in 0..e.len().max(a.len()) {
        let fits = match (e.get(i), o.get(i), a.get(i)) {
            (Some(x), Some(y), Some(z)) => match (&x.0, &y.0, &z.0) {
                (Token::Number(p, _), Token::Number(q, _), Token::Number(v, _)) => {
                    same(&x.0, &z.0, Numbers::Tolerance)
                        || same(&y.0, &z.0, Numbers::Tolerance)
                        || (v - p).abs().min((v - q).abs()) <= (p - q).abs()
                }
                _ => same(&x.0, &z.0, Numbers::Tolerance),
            },
            _ => false,
        };
        if !fits {
            return Some(format!(
                "expected {} (or {}), got {}",
                show_line(expected, e.get(i)),
                show_line(other, o.get(i)),
                show_line(actual, a.get(i))
            ));
        }
    }
    None
}

/// `text` with each warning raised inside a file other than `program`
/// (PyTorch's own `.../site-packages/torch/...py`, or gradscope's torch)
/// reduced to its category and message: its file, line and the source line
/// printed under it are PyTorch's internals, not the program's. A warning
/// the program's own line raised keeps its file and line.
#[allow(dead_code)] // each test binary uses the part it needs
pub fn library_warnings_by_text(text: &str, program: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skip_source_line = false;
    for line in text.split_inclusive('\n') {
        if skip_source_line {
            skip_source_line = false;
            if line.starts_with("  ") {
                continue;
            }
        }
        match warning_location(line) {
            Some((file, message)) if file != program => {
                out.push_str(message);
                skip_source_line = true;
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// For `FILE:LINE: CategoryWarning: message`, the file and the text from
/// the category on.
fn warning_location(line: &str) -> Option<(&str, &str)> {
    let (head, _) = line.split_once("Warning: ")?;
    let (location, category) = head.rsplit_once(": ")?;
    let (file, line_number) = location.rsplit_once(':')?;
    // A file path, or a name in brackets as gradscope's frozen modules
    // have (`<gradscope torch.utils.data>`).
    let named = (file.ends_with(".py") && !file.contains(char::is_whitespace))
        || (file.starts_with('<') && file.ends_with('>'));
    if category.contains(char::is_whitespace) || !named || line_number.parse::<u32>().is_err() {
        return None;
    }
    Some((file, &line[location.len() + 2..]))
}

/// The comparison itself, checked before it judges anything.
pub fn self_check() {
    // Within the spread of two recordings: 3 differs from 1 by less than
    // 1 differs from 4; 9 does not; text must still match.
    assert_eq!(
        compare_within_spread("loss 1\n", "loss 4\n", "loss 3\n"),
        None
    );
    assert!(compare_within_spread("loss 1\n", "loss 4\n", "loss 9\n").is_some());
    assert!(compare_within_spread("loss 1\n", "loss 1\n", "loss 1.5\n").is_some());
    assert!(compare_within_spread("loss 1\n", "loss 4\n", "lost 3\n").is_some());
    assert!(compare_within_spread("a 1\n", "b 4\n", "a 3\n").is_some());

    let ok = |e: &str, a: &str| compare(e, a).is_none();
    assert!(ok("<A object at 0x7f00ab>\n", "<A object at 0x55aa>\n"));
    assert!(ok("tensor([0.5000, 1.0000])", "tensor([0.50001, 1.0])"));
    assert!(!ok("tensor([1., 2.])", "tensor([1., 3.])"));
    assert!(!ok("a\nb", "a b"));
    assert!(!ok("a", "a b"));
    assert!(compare_with("took 3.2 ms\n", "took 17.0 ms\n", Numbers::Masked).is_none());
    // A sign is part of its number: `%+f` of a value within the tolerance
    // of zero may print either.
    assert!(ok("mean +0.000000\n", "mean -0.000000\n"));
    assert!(compare_with("took 3.2 ms\n", "took ms\n", Numbers::Masked).is_some());
    assert_eq!(
        compare("a\nb 1\n", "a\nb 2\n").as_deref(),
        Some("expected line 2: \"b 1\", got line 2: \"b 2\"")
    );
    assert_eq!(
        library_warnings_by_text(
            ".../site-packages/torch/nn/modules/dropout.py:176: UserWarning: dropout2d: no\n  \
             return F.dropout2d(input)\nprog.py:3: UserWarning: mine\n  x = f()\nnext\n",
            "prog.py"
        ),
        "UserWarning: dropout2d: no\nprog.py:3: UserWarning: mine\n  x = f()\nnext\n"
    );
    assert_eq!(
        library_warnings_by_text(
            "<gradscope torch.utils.data>:232: UserWarning: pin\n",
            "p.py"
        ),
        "UserWarning: pin\n"
    );
}
