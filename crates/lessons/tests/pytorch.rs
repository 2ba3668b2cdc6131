//! Every lesson program prints what PyTorch prints, token by token (numbers
//! within a tolerance of the last printed digit), and imports only what a
//! lesson may import. PyTorch's output is recorded by
//! tests/fixtures/record_lessons.py into tests/fixtures/lessons.json.

use std::collections::BTreeMap;

use gradscope_lessons::{NativeRunner, Runner, lessons};

/// Lessons whose programs do not run through in gradscope yet, because a
/// part of the Python `torch` they use is still being written. The test
/// fails when one of them starts passing, so the list only shrinks.
const NOT_YET_LIKE_PYTORCH: &[&str] = &[];

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/lessons.json"
);

#[derive(Debug, PartialEq)]
enum Token {
    Number(f64, usize),
    Text(String),
}

/// Words, numbers (with how many decimals were printed) and single
/// punctuation marks.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    let starts_number = |i: usize| {
        let c = chars[i];
        c.is_ascii_digit()
            || ((c == '-' || c == '.') && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit()))
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if starts_number(i) {
            let start = i;
            i += 1;
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || chars[i] == '.'
                    || ((chars[i] == 'e' || chars[i] == 'E')
                        && chars
                            .get(i + 1)
                            .is_some_and(|n| n.is_ascii_digit() || *n == '-' || *n == '+'))
                    || ((chars[i] == '-' || chars[i] == '+') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            let literal: String = chars[start..i].iter().collect();
            let decimals = literal
                .split(['e', 'E'])
                .next()
                .and_then(|m| m.split_once('.'))
                .map_or(0, |(_, d)| d.len());
            match literal.trim_end_matches('.').parse() {
                Ok(v) => out.push(Token::Number(v, decimals)),
                Err(_) => out.push(Token::Text(literal)),
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Text(chars[start..i].iter().collect()));
        } else {
            out.push(Token::Text(c.to_string()));
            i += 1;
        }
    }
    out
}

/// Two printed numbers agree within two units of the last printed place,
/// or 1e-4 relative: float32 sums in another order differ in the last bits.
fn same(a: &Token, b: &Token) -> bool {
    match (a, b) {
        (Token::Number(x, _), Token::Number(y, d)) => {
            let unit = 10f64.powi(-(*d as i32));
            (x - y).abs() <= 2.0 * unit + 1e-4 * y.abs()
        }
        _ => a == b,
    }
}

/// Why `got` differs from `want`, if it does.
fn compare(got: &str, want: &str) -> Option<String> {
    let (g, w) = (tokens(got), tokens(want));
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        if !same(a, b) {
            return Some(format!("token {i}: got {a:?}, PyTorch printed {b:?}"));
        }
    }
    (g.len() != w.len()).then(|| format!("{} tokens, PyTorch printed {}", g.len(), w.len()))
}

#[test]
fn pytorch_tokens_compare_numbers_within_tolerance() {
    assert_eq!(
        compare("tensor([4.5000, 1.0e-05])", "tensor([4.5001, 1.0e-05])"),
        None
    );
    assert!(compare("loss 0.1250", "loss 0.1260").is_some());
    assert!(compare("a b", "a b c").is_some());
    assert_eq!(
        tokens("x: -2.,"),
        vec![
            Token::Text("x".into()),
            Token::Text(":".into()),
            Token::Number(-2.0, 0),
            Token::Text(".".into()),
            Token::Text(",".into()),
        ]
        .into_iter()
        .filter(|t| *t != Token::Text(".".into()))
        .collect::<Vec<_>>()
    );
}

#[test]
fn pytorch_programs_import_only_what_lessons_may() {
    for lesson in lessons() {
        let mut allowed = vec!["torch", "math", "random", "time"];
        if lesson.slug == "digits" {
            allowed.extend(["gzip", "csv"]);
        }
        for line in lesson.program.lines() {
            let module = line
                .strip_prefix("import ")
                .or_else(|| line.strip_prefix("from "))
                .and_then(|rest| rest.split([' ', '.', ',']).next());
            if let Some(module) = module {
                assert!(
                    allowed.contains(&module),
                    "{}: imports {module}",
                    lesson.slug
                );
            }
        }
    }
}

#[test]
fn pytorch_lessons_print_what_pytorch_prints() {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let fixture: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut runner = NativeRunner::new();
    let mut differing = BTreeMap::new();
    for lesson in lessons() {
        let recorded = &fixture["lessons"][lesson.slug];
        assert!(
            recorded.is_object(),
            "{}: not in lessons.json; run record_lessons.py",
            lesson.slug
        );
        let run = runner.run(lesson.program, lesson.files);
        let mut problem = compare(&run.stdout, recorded["stdout"].as_str().unwrap_or_default());
        let want_error = recorded["error"].as_object().map(|e| {
            (
                e["type"].as_str().unwrap_or_default().to_string(),
                e["message"].as_str().unwrap_or_default().to_string(),
            )
        });
        let got_error = run
            .error
            .as_ref()
            .map(|e| (e.type_name.clone(), e.message.clone()));
        if problem.is_none() && got_error != want_error {
            problem = Some(format!(
                "raised {got_error:?}, PyTorch raised {want_error:?}"
            ));
        }
        if let Some(problem) = problem {
            differing.insert(lesson.slug, problem);
        }
    }
    let listed: Vec<&str> = NOT_YET_LIKE_PYTORCH.to_vec();
    let found: Vec<&str> = differing.keys().copied().collect();
    assert_eq!(
        found, listed,
        "lessons differing from PyTorch: {differing:#?}"
    );
}
