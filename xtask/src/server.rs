//! A static file server for the site (`serve`, and the e2e stage of `test`).

use std::fs::File;
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use anyhow::{Context, Result, anyhow};
use tiny_http::{Header, Method, Request, Response, Server};

const WORKERS: usize = 4;

/// The site's Content-Security-Policy (also in its pages' meta tags, for
/// static hosts that set no headers): scripts only from the site itself,
/// plus compiling its WebAssembly; no eval, no inline script, no plugins.
/// Styles allow inline attributes (the graph sizes its SVG with one, and
/// CodeMirror injects its theme). No `frame-ancestors`: the widget's
/// `embed.html` is meant to be framed by any page.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
     script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; \
     connect-src 'self'; \
     worker-src 'self'; \
     object-src 'none'; \
     base-uri 'none'; \
     form-action 'none'";

/// Whose pages a server serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// gradscope's site: every response carries [`CONTENT_SECURITY_POLICY`].
    Site,
    /// Another site's pages (the widget's demo host in the e2e test): no
    /// policy of gradscope's, so it may load the loader from the site's origin.
    Host,
}

/// Which requests to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Log {
    /// Every request.
    All,
    /// Only requests that were not answered 200.
    Errors,
}

/// A running server; stops when dropped.
pub struct StaticServer {
    server: Arc<Server>,
    addr: SocketAddr,
    threads: Vec<JoinHandle<()>>,
}

impl StaticServer {
    /// Serves the site at `root` on 127.0.0.1:`port` (0: any free port) from
    /// background threads, with the site's Content-Security-Policy.
    pub fn start(root: &Path, port: u16, log: Log) -> Result<Self> {
        Self::start_as(root, port, log, Origin::Site)
    }

    /// Serves `root` as `origin`'s pages.
    pub fn start_as(root: &Path, port: u16, log: Log, origin: Origin) -> Result<Self> {
        let root = root
            .canonicalize()
            .with_context(|| format!("the site directory {} is missing", root.display()))?;
        let server = Server::http(("127.0.0.1", port))
            .map_err(|e| anyhow!("could not listen on 127.0.0.1:{port}: {e}"))?;
        let addr = server
            .server_addr()
            .to_ip()
            .context("the server is not listening on an IP address")?;
        let server = Arc::new(server);
        let threads = (0..WORKERS)
            .map(|_| {
                let server = Arc::clone(&server);
                let root = root.clone();
                std::thread::spawn(move || {
                    // recv fails only when unblocked, on drop.
                    while let Ok(request) = server.recv() {
                        handle(&root, request, log, origin);
                    }
                })
            })
            .collect();
        Ok(Self {
            server,
            addr,
            threads,
        })
    }

    /// The address it listens on (with the real port when started on port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr())
    }

    /// Blocks for as long as the server runs (until the process is stopped).
    pub fn wait(mut self) {
        for thread in std::mem::take(&mut self.threads) {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for StaticServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        // Each unblock wakes one worker.
        for _ in 0..self.threads.len() {
            self.server.unblock();
        }
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Why a request gets no file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    BadRequest,
    Forbidden,
    NotFound,
}

impl Refusal {
    fn status(self) -> u16 {
        match self {
            Refusal::BadRequest => 400,
            Refusal::Forbidden => 403,
            Refusal::NotFound => 404,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Refusal::BadRequest => "400 bad request\n",
            Refusal::Forbidden => "403 forbidden\n",
            Refusal::NotFound => "404 not found\n",
        }
    }
}

/// The MIME type for a file name, by extension.
pub fn mime_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "wasm" => "application/wasm",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        // Markdown (the data attribution) reads as text in a browser tab.
        "txt" | "md" => "text/plain; charset=utf-8",
        "wgsl" => "text/plain; charset=utf-8",
        "py" => "text/x-python; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The file under `root` that a request URL names. `root` must be canonical.
/// `/` and directories give their `index.html`; `..`, encoded or not, is refused.
pub fn resolve(root: &Path, url: &str) -> Result<PathBuf, Refusal> {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') {
        return Err(Refusal::BadRequest);
    }
    let decoded = percent_decode(path).ok_or(Refusal::BadRequest)?;
    let decoded = String::from_utf8(decoded).map_err(|_| Refusal::BadRequest)?;
    if decoded.contains(['\0', '\\']) {
        return Err(Refusal::BadRequest);
    }
    let mut file = root.to_path_buf();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(Refusal::Forbidden),
            s => {
                // A segment must be one plain name (no root, no prefix).
                let mut parts = Path::new(s).components();
                match (parts.next(), parts.next()) {
                    (Some(Component::Normal(name)), None) => file.push(name),
                    _ => return Err(Refusal::Forbidden),
                }
            }
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    // Symlinks must not lead out of the site either.
    let real = file.canonicalize().map_err(|_| Refusal::NotFound)?;
    if !real.starts_with(root) {
        return Err(Refusal::Forbidden);
    }
    if !real.is_file() {
        return Err(Refusal::NotFound);
    }
    Ok(real)
}

fn header(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn handle(root: &Path, request: Request, log: Log, origin: Origin) {
    let method = request.method().clone();
    let url = request.url().to_string();
    let (status, result) = if !matches!(method, Method::Get | Method::Head) {
        let mut response = Response::from_string("405 method not allowed\n").with_status_code(405);
        if let Some(h) = header("Allow", "GET, HEAD") {
            response.add_header(h);
        }
        (405, request.respond(response))
    } else {
        match resolve(root, &url).and_then(|p| {
            File::open(&p)
                .map(|f| (p, f))
                .map_err(|_| Refusal::NotFound)
        }) {
            Ok((path, file)) => {
                let mut response = Response::from_file(file);
                for h in [
                    header("Content-Type", mime_type(&path)),
                    header("Cache-Control", "no-cache"),
                    header("X-Content-Type-Options", "nosniff"),
                ]
                .into_iter()
                .flatten()
                {
                    response.add_header(h);
                }
                if origin == Origin::Site
                    && let Some(h) = header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                {
                    response.add_header(h);
                }
                (200, request.respond(response))
            }
            Err(refusal) => {
                let mut response =
                    Response::from_string(refusal.text()).with_status_code(refusal.status());
                if let Some(h) = header("Content-Type", "text/plain; charset=utf-8") {
                    response.add_header(h);
                }
                (refusal.status(), request.respond(response))
            }
        }
    };
    if log == Log::All || status != 200 {
        println!("serve: {method} {url} -> {status}");
    }
    if let Err(err) = result {
        // A client that went away mid-response is not the server's problem.
        if log == Log::All {
            println!("serve: {method} {url}: {err}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    fn temp_site(name: &str) -> Result<PathBuf> {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("site/pkg"))?;
        fs::write(dir.join("site/index.html"), "<p>hi</p>")?;
        fs::write(dir.join("site/pkg/app_bg.wasm"), b"\0asm\x01\0\0\0")?;
        fs::write(dir.join("site/pkg/app.js"), "export {}")?;
        fs::write(dir.join("secret.txt"), "outside")?;
        Ok(dir)
    }

    #[test]
    fn mime_types() {
        assert_eq!(mime_type(Path::new("a/b_bg.wasm")), "application/wasm");
        assert_eq!(
            mime_type(Path::new("x.js")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            mime_type(Path::new("x.mjs")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            mime_type(Path::new("index.HTML")),
            "text/html; charset=utf-8"
        );
        assert_eq!(mime_type(Path::new("s.css")), "text/css; charset=utf-8");
        assert_eq!(mime_type(Path::new("d.json")), "application/json");
        assert_eq!(mime_type(Path::new("i.svg")), "image/svg+xml");
        assert_eq!(mime_type(Path::new("i.png")), "image/png");
        assert_eq!(mime_type(Path::new("favicon.ico")), "image/x-icon");
        assert_eq!(mime_type(Path::new("r.txt")), "text/plain; charset=utf-8");
        assert_eq!(mime_type(Path::new("noext")), "application/octet-stream");
    }

    #[test]
    fn resolves_and_refuses_traversal() -> Result<()> {
        let dir = temp_site("resolve")?;
        let root = dir.join("site").canonicalize()?;
        assert_eq!(resolve(&root, "/"), Ok(root.join("index.html")));
        assert_eq!(resolve(&root, "/?x=1"), Ok(root.join("index.html")));
        assert_eq!(resolve(&root, "/pkg/app.js"), Ok(root.join("pkg/app.js")));
        assert_eq!(
            resolve(&root, "/pkg/%61pp.js#f"),
            Ok(root.join("pkg/app.js"))
        );
        assert_eq!(resolve(&root, "/pkg/"), Err(Refusal::NotFound));
        assert_eq!(resolve(&root, "/nope.js"), Err(Refusal::NotFound));
        for bad in [
            "/../secret.txt",
            "/pkg/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/pkg/%2E%2E/%2e%2e/secret.txt",
            "/..%2fsecret.txt",
        ] {
            assert_eq!(resolve(&root, bad), Err(Refusal::Forbidden), "{bad}");
        }
        for bad in ["/%5c..%5csecret.txt", "/a%00b", "/%zz", "secret.txt"] {
            assert_eq!(resolve(&root, bad), Err(Refusal::BadRequest), "{bad}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("secret.txt"), root.join("link.txt"))?;
            assert_eq!(resolve(&root, "/link.txt"), Err(Refusal::Forbidden));
        }
        fs::remove_dir_all(&dir)?;
        Ok(())
    }

    fn get(addr: SocketAddr, path: &str) -> Result<String> {
        let mut stream = TcpStream::connect(addr)?;
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )?;
        let mut out = String::new();
        stream.read_to_string(&mut out)?;
        Ok(out)
    }

    #[test]
    fn serves_on_a_free_port() -> Result<()> {
        let dir = temp_site("serve")?;
        let server = StaticServer::start(&dir.join("site"), 0, Log::Errors)?;
        assert_ne!(server.addr().port(), 0);
        let index = get(server.addr(), "/")?;
        assert!(index.starts_with("HTTP/1.1 200"), "{index}");
        assert!(index.contains("text/html"), "{index}");
        assert!(index.ends_with("<p>hi</p>"), "{index}");
        assert!(
            index.contains(
                "Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval';"
            ),
            "{index}"
        );
        let wasm = get(server.addr(), "/pkg/app_bg.wasm")?;
        assert!(wasm.contains("Content-Type: application/wasm"), "{wasm}");
        assert!(get(server.addr(), "/missing")?.starts_with("HTTP/1.1 404"));
        assert!(get(server.addr(), "/../secret.txt")?.starts_with("HTTP/1.1 403"));
        drop(server);
        let host = StaticServer::start_as(&dir.join("site"), 0, Log::Errors, Origin::Host)?;
        let index = get(host.addr(), "/")?;
        assert!(index.starts_with("HTTP/1.1 200"), "{index}");
        assert!(!index.contains("Content-Security-Policy"), "{index}");
        drop(host);
        fs::remove_dir_all(&dir)?;
        Ok(())
    }

    #[test]
    fn policy_allows_only_own_scripts_and_wasm() {
        let directives: Vec<&str> = CONTENT_SECURITY_POLICY.split("; ").collect();
        assert!(directives.contains(&"script-src 'self' 'wasm-unsafe-eval'"));
        assert!(directives.contains(&"object-src 'none'"));
        assert!(!CONTENT_SECURITY_POLICY.contains("'unsafe-eval'"));
        assert!(!CONTENT_SECURITY_POLICY.contains("frame-ancestors"));
        // A header value must be one line.
        assert!(!CONTENT_SECURITY_POLICY.contains('\n'));
    }
}
