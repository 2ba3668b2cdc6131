//! The one argument parser every subcommand uses: `lexopt` splits the
//! command line into options and values, and each command matches them
//! against its own flags and prints its own usage text and messages.

pub(crate) use lexopt::Arg::{Long, Short, Value};
pub(crate) use lexopt::{Arg, Parser};

/// What a command line asks for: a run with these options, or the usage.
#[derive(Debug, PartialEq)]
pub(crate) enum Parsed<T> {
    /// Run with the options parsed.
    Run(T),
    /// `-h` or `--help`: print the usage and exit 0.
    Help,
}

/// A parser over a subcommand's arguments (those after its name).
pub(crate) fn parser(args: &[String]) -> Parser {
    Parser::from_args(args.iter())
}

/// The next option or value; an option given a value it does not take
/// (`--json=1`) is an error.
pub(crate) fn next(parser: &mut Parser) -> Result<Option<Arg<'_>>, String> {
    parser.next().map_err(|err| err.to_string())
}

/// The option's value, or `missing` as the error when the command line
/// ends first. The next argument is the value even when it starts with
/// `-`, as before (`--time-limit -1` is a bad number, not a missing one).
pub(crate) fn value(parser: &mut Parser, missing: &str) -> Result<String, String> {
    let value = parser.value().map_err(|_| missing.to_string())?;
    value
        .into_string()
        .map_err(|raw| format!("{missing}, not {raw:?} (not UTF-8)"))
}

/// An option as the user typed it (`-x`, `--frobnicate`), or a value.
pub(crate) fn shown(arg: &Arg<'_>) -> String {
    match arg {
        Short(c) => format!("-{c}"),
        Long(name) => format!("--{name}"),
        Value(value) => value.to_string_lossy().into_owned(),
    }
}

/// Everything left on the command line, unparsed: a program's own
/// arguments after its path.
pub(crate) fn rest(parser: &mut Parser) -> Result<Vec<String>, String> {
    let raw = parser.raw_args().map_err(|err| err.to_string())?;
    Ok(raw.map(|arg| arg.to_string_lossy().into_owned()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn args_split_options_values_and_the_rest() {
        let list = args(&["-v", "--only", "-x", "prog.py", "--a", "b"]);
        let mut p = parser(&list);
        assert!(matches!(next(&mut p), Ok(Some(Short('v')))));
        assert!(matches!(next(&mut p), Ok(Some(Long("only")))));
        // A value may start with '-'.
        assert_eq!(value(&mut p, "--only needs a name"), Ok("-x".into()));
        let program = next(&mut p).ok().flatten().map(|a| shown(&a));
        assert_eq!(program.as_deref(), Some("prog.py"));
        assert_eq!(rest(&mut p), Ok(args(&["--a", "b"])));
        let end = args(&["--only"]);
        let mut p = parser(&end);
        let _ = next(&mut p);
        assert_eq!(
            value(&mut p, "--only needs a name"),
            Err("--only needs a name".into())
        );
        assert_eq!(shown(&Long("frobnicate")), "--frobnicate");
        assert_eq!(shown(&Short('q')), "-q");
    }
}
