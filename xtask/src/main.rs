//! `cargo xtask`: setup, build-web, serve and test for gradscope.

mod server;
mod setup;
mod test;
mod util;
mod web;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};

use crate::setup::Level;
use crate::util::Ctx;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  setup             install what is missing: the wasm32 target, wasm-bindgen-cli
                    (the version in Cargo.lock), wasm-opt, and for tests Mesa
                    lavapipe, Chromium, chromedriver and the e2e npm packages
  build-web         release wasm + wasm-bindgen + wasm-opt, site in target/site
  serve [--port N] [--site DIR]
                    build-web, then serve the site on http://127.0.0.1:N/
                    (default 8080) until Ctrl-C; with --site, serve DIR (a
                    copy of target/site) as it is, without building
  test              fmt, clippy, docs, native, GPU (lavapipe) and wasm (headless
                    Chromium) tests, build-web and the browser e2e test

Every command runs setup first.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        // Failures were reported already (the test summary ends the output).
        Ok(false) => ExitCode::FAILURE,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// `serve`'s arguments: the port, and a built site to serve instead of
/// building one (several engineers testing their own copies at once).
fn parse_serve(args: &[String]) -> Result<(u16, Option<PathBuf>)> {
    let mut port = 8080;
    let mut site = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--site" {
            site = Some(PathBuf::from(
                rest.next().context("--site needs a directory")?,
            ));
            continue;
        }
        let value = if arg == "--port" || arg == "-p" {
            rest.next().context("--port needs a number")?.as_str()
        } else if let Some(v) = arg.strip_prefix("--port=") {
            v
        } else {
            bail!("unknown argument for serve: {arg}\n\n{USAGE}");
        };
        port = value
            .parse()
            .with_context(|| format!("--port {value}: not a port number"))?;
    }
    Ok((port, site))
}

fn no_args(command: &str, args: &[String]) -> Result<()> {
    if let Some(arg) = args.first() {
        bail!("unknown argument for {command}: {arg}\n\n{USAGE}");
    }
    Ok(())
}

/// Runs a command; `Ok(false)` when it failed and said so itself.
fn run(args: &[String]) -> Result<bool> {
    let Some((command, rest)) = args.split_first() else {
        println!("{USAGE}");
        return Ok(true);
    };
    let mut ctx = Ctx::new()?;
    match command.as_str() {
        "-h" | "--help" | "help" => println!("{USAGE}"),
        "setup" => {
            no_args(command, rest)?;
            setup::run(&mut ctx, Level::Test)?;
        }
        "build-web" => {
            no_args(command, rest)?;
            setup::run(&mut ctx, Level::Wasm)?;
            web::build(&ctx)?;
        }
        "serve" => {
            let (port, site) = parse_serve(rest)?;
            let site = match site {
                Some(dir) if dir.join("index.html").is_file() => dir,
                Some(dir) => bail!("--site {}: no index.html there", dir.display()),
                None => {
                    setup::run(&mut ctx, Level::Wasm)?;
                    web::build(&ctx)?
                }
            };
            let server = server::StaticServer::start(&site, port, server::Log::All)
                .map_err(|e| anyhow!("{e:#}; choose another port with --port N"))?;
            // The widget demo as another site embeds it: served from a
            // second port (another origin), its loader fetched from ours.
            let host_dir = site.with_file_name(format!(
                "{}-demo-host",
                site.file_name().and_then(|n| n.to_str()).unwrap_or("site")
            ));
            web::write_demo_host(&site, &server.url(), &host_dir)?;
            let host = server::StaticServer::start_as(
                &host_dir,
                0,
                server::Log::Errors,
                server::Origin::Host,
            )?;
            println!(
                "\nserving {} at {} (Ctrl-C to stop)\nthe widget demo, embedded from another origin: {}",
                ctx.show(&site),
                server.url(),
                host.url()
            );
            server.wait();
            drop(host);
        }
        "test" => {
            no_args(command, rest)?;
            setup::run(&mut ctx, Level::Test)?;
            return test::run(&ctx);
        }
        other => bail!("unknown command: {other}\n\n{USAGE}"),
    }
    Ok(true)
}
