//! A static file server for the site (`serve`, and the e2e stage of `test`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result};

/// A thread per connection, and this many at most at once: a browser opens
/// six per origin, a test a few more. Past it, new ones get a 503.
///
/// Why not tiny_http (used before): its connection pool hands a new
/// connection to a thread it counts as idle although an earlier connection
/// has just claimed it, and the new one then waits until some keep-alive
/// connection closes, which Chromium delays for minutes. Three keep-alive
/// connections opened at once against six held ones reproduced it at once
/// (two of three unanswered after 2 s); the widget's e2e test, whose frames
/// open connections in bursts, timed out on it now and then.
const MAX_CONNECTIONS: usize = 256;
/// How long a kept-alive connection may sit idle before it is closed.
const IDLE: Duration = Duration::from_secs(30);
/// The longest request head read: request line and headers.
const MAX_HEAD: u64 = 16 * 1024;
/// The most header fields a request may have.
const MAX_FIELDS: usize = 64;
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
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

/// What every connection of one server shares.
struct Site {
    root: PathBuf,
    log: Log,
    origin: Origin,
    stop: Arc<AtomicBool>,
    open: AtomicUsize,
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
        let listener = TcpListener::bind(("127.0.0.1", port))
            .with_context(|| format!("could not listen on 127.0.0.1:{port}"))?;
        let addr = listener.local_addr().context("the server has no address")?;
        let stop = Arc::new(AtomicBool::new(false));
        let site = Arc::new(Site {
            root,
            log,
            origin,
            stop: Arc::clone(&stop),
            open: AtomicUsize::new(0),
        });
        let accept = std::thread::Builder::new()
            .name("serve-accept".into())
            .spawn(move || accept_loop(&listener, &site))
            .context("could not start the server's thread")?;
        Ok(Self {
            addr,
            stop,
            accept: Some(accept),
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
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
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
        self.stop.store(true, Ordering::SeqCst);
        // The accept loop sees the flag on its next connection: make one.
        let _ = TcpStream::connect(self.addr);
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

fn accept_loop(listener: &TcpListener, site: &Arc<Site>) {
    for stream in listener.incoming() {
        if site.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else {
            // Out of descriptors, or a connection reset before it was
            // accepted: wait a moment rather than spin.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        if site.open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            site.open.fetch_sub(1, Ordering::SeqCst);
            let mut stream = stream;
            let _ = write_head(&mut stream, 503, &[], Some(0), false);
            continue;
        }
        let site = Arc::clone(site);
        let spawned = std::thread::Builder::new()
            .name("serve-connection".into())
            .spawn(move || {
                serve_connection(stream, &site);
                site.open.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            // The thread (and the stream with it) is gone; so is its count.
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Answers one connection's requests in order, keeping it open while the
/// client asks for that and it is not idle for [`IDLE`].
fn serve_connection(stream: TcpStream, site: &Site) {
    let _ = stream.set_nodelay(true);
    // A client that stops reading must not hold its thread for ever either.
    if stream.set_read_timeout(Some(IDLE)).is_err() || stream.set_write_timeout(Some(IDLE)).is_err()
    {
        return;
    }
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut writer = BufWriter::new(stream);
    loop {
        let head = match read_head(&mut reader) {
            Ok(Some(head)) => head,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                let too_large = Answer::refused(Refusal::HeadTooLarge);
                let _ = answer(&mut writer, site, "?", "?", too_large, false);
                break;
            }
            // Closed, idle too long, or gone.
            Ok(None) | Err(_) => break,
        };
        if site.stop.load(Ordering::SeqCst) {
            break;
        }
        let mut fields = [httparse::EMPTY_HEADER; MAX_FIELDS];
        let mut request = httparse::Request::new(&mut fields);
        let parsed = match request.parse(&head) {
            Ok(httparse::Status::Complete(_)) => request.method.zip(request.path),
            _ => None,
        };
        let Some((method, url)) = parsed else {
            let _ = answer(
                &mut writer,
                site,
                "?",
                "?",
                Answer::refused(Refusal::BadRequest),
                false,
            );
            break;
        };
        let field = |name: &str| {
            request
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| String::from_utf8_lossy(h.value).to_ascii_lowercase())
        };
        let connection = field("connection").unwrap_or_default();
        // A body is never read, so a request that has one ends the connection.
        let has_body = field("transfer-encoding").is_some()
            || field("content-length").is_some_and(|n| n.trim() != "0");
        let keep_alive = !has_body
            && if request.version == Some(1) {
                !connection.contains("close")
            } else {
                connection.contains("keep-alive")
            };
        let reply = Answer::to(site, method, url, field("if-none-match").as_deref());
        if answer(&mut writer, site, method, url, reply, keep_alive).is_err() || !keep_alive {
            break;
        }
    }
    let _ = writer.flush();
    // A lingering close: closing with unread request bytes would reset the
    // connection, and the client could lose the answer (a 431, a 405).
    let _ = writer.get_ref().shutdown(Shutdown::Write);
    let _ = writer
        .get_ref()
        .set_read_timeout(Some(Duration::from_secs(1)));
    let _ = io::copy(&mut reader.take(1 << 20), &mut io::sink());
}

/// Reads one request head (up to and including its blank line). `None`
/// when the client closed the connection between requests or went idle.
fn read_head(reader: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut head = Vec::new();
    loop {
        let room = MAX_HEAD.saturating_sub(head.len() as u64);
        if room == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "request head too long",
            ));
        }
        let start = head.len();
        let read = match reader.by_ref().take(room).read_until(b'\n', &mut head) {
            Ok(read) => read,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if read == 0 {
            return if head.is_empty() {
                Ok(None)
            } else {
                Err(io::ErrorKind::UnexpectedEof.into())
            };
        }
        let line = &head[start..];
        if line == b"\r\n" || line == b"\n" {
            if start == 0 {
                // Blank lines before a request line are ignored (RFC 9112 2.2).
                head.clear();
                continue;
            }
            return Ok(Some(head));
        }
    }
}

/// A response: its status, headers and body.
struct Answer {
    status: u16,
    headers: Vec<(&'static str, &'static str)>,
    /// The file's validator, for a 200 or a 304.
    etag: Option<String>,
    body: Body,
}

enum Body {
    File(File, u64),
    Text(&'static str),
    /// A 304: the client's copy stands, so no body and no length.
    NotModified,
}

/// A file's entity tag: its length and modification time, as nginx makes
/// them. A rebuilt file gets a new one.
fn etag(meta: &std::fs::Metadata) -> String {
    format!("\"{}\"", crate::util::file_version(meta))
}

/// Whether an `If-None-Match` field names `tag` (or is `*`): the client
/// holds this very file.
fn matches_tag(if_none_match: &str, tag: &str) -> bool {
    if_none_match
        .split(',')
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == tag)
}

impl Answer {
    /// The answer to `method url`; `if_none_match` is the client's
    /// `If-None-Match` field, if it sent one.
    fn to(site: &Site, method: &str, url: &str, if_none_match: Option<&str>) -> Self {
        if method != "GET" && method != "HEAD" {
            return Answer {
                status: 405,
                headers: vec![
                    ("Allow", "GET, HEAD"),
                    ("Content-Type", "text/plain; charset=utf-8"),
                ],
                etag: None,
                body: Body::Text("405 method not allowed\n"),
            };
        }
        let opened = resolve(&site.root, url).and_then(|path| {
            let file = File::open(&path).map_err(|_| Refusal::NotFound)?;
            let meta = file.metadata().map_err(|_| Refusal::NotFound)?;
            Ok((path, file, meta))
        });
        match opened {
            Ok((path, file, meta)) => {
                // "no-cache": the browser asks again on every load, so a
                // rebuilt page is never stale; the ETag lets the answer be a
                // 304 when nothing changed. Beyond the bytes saved, Chromium
                // keeps V8's optimised code for a wasm module only with the
                // HTTP cache's copy of it, which a fresh 200 replaces.
                let mut headers = vec![
                    ("Content-Type", mime_type(&path)),
                    ("Cache-Control", "no-cache"),
                    ("X-Content-Type-Options", "nosniff"),
                ];
                if site.origin == Origin::Site {
                    headers.push(("Content-Security-Policy", CONTENT_SECURITY_POLICY));
                }
                let tag = etag(&meta);
                let fresh = if_none_match.is_some_and(|field| matches_tag(field, &tag));
                Answer {
                    status: if fresh { 304 } else { 200 },
                    headers,
                    etag: Some(tag),
                    body: if fresh {
                        Body::NotModified
                    } else {
                        Body::File(file, meta.len())
                    },
                }
            }
            Err(refusal) => Answer::refused(refusal),
        }
    }

    fn refused(refusal: Refusal) -> Self {
        Answer {
            status: refusal.status(),
            headers: vec![("Content-Type", "text/plain; charset=utf-8")],
            etag: None,
            body: Body::Text(refusal.text()),
        }
    }
}

/// Writes `reply` (its body only for GET) and logs it.
fn answer(
    out: &mut BufWriter<TcpStream>,
    site: &Site,
    method: &str,
    url: &str,
    reply: Answer,
    keep_alive: bool,
) -> io::Result<()> {
    let len = match &reply.body {
        Body::File(_, len) => Some(*len),
        Body::Text(text) => Some(text.len() as u64),
        Body::NotModified => None,
    };
    let mut headers = reply.headers.clone();
    if let Some(tag) = &reply.etag {
        headers.push(("ETag", tag));
    }
    let mut result = write_head(out, reply.status, &headers, len, keep_alive);
    if result.is_ok() && method != "HEAD" {
        result = match reply.body {
            // At most `len` bytes: the file may grow while it is sent.
            Body::File(file, len) => io::copy(&mut file.take(len), out).map(drop),
            Body::Text(text) => out.write_all(text.as_bytes()),
            Body::NotModified => Ok(()),
        };
    }
    let result = result.and_then(|()| out.flush());
    if site.log == Log::All || !matches!(reply.status, 200 | 304) {
        println!("serve: {method} {url} -> {}", reply.status);
    }
    if let Err(err) = &result {
        // A client that went away mid-response is not the server's problem.
        if site.log == Log::All {
            println!("serve: {method} {url}: {err}");
        }
    }
    result
}

fn write_head(
    out: &mut impl Write,
    status: u16,
    headers: &[(&str, &str)],
    len: Option<u64>,
    keep_alive: bool,
) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        304 => "Not Modified",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    };
    write!(out, "HTTP/1.1 {status} {reason}\r\n")?;
    for (name, value) in headers {
        write!(out, "{name}: {value}\r\n")?;
    }
    if let Some(len) = len {
        write!(out, "Content-Length: {len}\r\n")?;
    }
    let connection = if keep_alive { "keep-alive" } else { "close" };
    write!(out, "Connection: {connection}\r\n\r\n")
}

/// Why a request gets no file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    BadRequest,
    Forbidden,
    NotFound,
    /// The request head is over [`MAX_HEAD`].
    HeadTooLarge,
}

impl Refusal {
    fn status(self) -> u16 {
        match self {
            Refusal::BadRequest => 400,
            Refusal::Forbidden => 403,
            Refusal::NotFound => 404,
            Refusal::HeadTooLarge => 431,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Refusal::BadRequest => "400 bad request\n",
            Refusal::Forbidden => "403 forbidden\n",
            Refusal::NotFound => "404 not found\n",
            Refusal::HeadTooLarge => "431 request header fields too large\n",
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

    /// Reads one response with a body of Content-Length bytes.
    fn read_response(reader: &mut BufReader<TcpStream>) -> Result<(String, Vec<u8>)> {
        let head = read_head(reader)?.context("no response")?;
        let head = String::from_utf8(head)?;
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .context("no Content-Length")?
            .trim()
            .parse()?;
        let mut body = vec![0; len];
        reader.read_exact(&mut body)?;
        Ok((head, body))
    }

    #[test]
    fn keep_alive_connections_opened_at_once_are_all_answered() -> Result<()> {
        // tiny_http, which this replaced, left two of three unanswered here.
        let dir = temp_site("burst")?;
        let server = StaticServer::start(&dir.join("site"), 0, Log::Errors)?;
        let mut held = Vec::new();
        for _round in 0..4 {
            let mut burst = Vec::new();
            for _ in 0..6 {
                let mut stream = TcpStream::connect(server.addr())?;
                stream.set_read_timeout(Some(Duration::from_secs(10)))?;
                write!(stream, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")?;
                burst.push(BufReader::new(stream));
            }
            for mut reader in burst {
                let (head, body) = read_response(&mut reader)?;
                assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
                assert!(head.contains("Connection: keep-alive"), "{head}");
                assert_eq!(body, b"<p>hi</p>");
                held.push(reader);
            }
        }
        // Each held connection still answers, two pipelined requests in order.
        for reader in &mut held {
            write!(
                reader.get_mut(),
                "GET /pkg/app.js HTTP/1.1\r\nHost: x\r\n\r\nHEAD / HTTP/1.1\r\nHost: x\r\n\r\n"
            )?;
            let (_, js) = read_response(reader)?;
            assert_eq!(js, b"export {}");
            // HEAD: the GET's length, no body (the next read is the close).
            let head = read_head(reader)?.context("no HEAD response")?;
            assert!(String::from_utf8(head)?.contains("Content-Length: 9\r\n"));
        }
        drop(held);
        drop(server);
        fs::remove_dir_all(&dir)?;
        Ok(())
    }

    #[test]
    fn an_unchanged_file_is_not_sent_again() -> Result<()> {
        let dir = temp_site("etag")?;
        let server = StaticServer::start(&dir.join("site"), 0, Log::Errors)?;
        let mut stream = TcpStream::connect(server.addr())?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut reader = BufReader::new(stream.try_clone()?);
        write!(stream, "GET /pkg/app.js HTTP/1.1\r\nHost: x\r\n\r\n")?;
        let (head, body) = read_response(&mut reader)?;
        assert_eq!(body, b"export {}");
        let tag = head
            .lines()
            .find_map(|l| l.strip_prefix("ETag: "))
            .context("no ETag")?
            .to_string();
        assert!(tag.starts_with('"') && tag.ends_with('"'), "{tag}");
        // The same file, asked with its tag (among others): a 304, no body,
        // and the connection still answers the next request in order.
        write!(
            stream,
            "GET /pkg/app.js HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"old\", {tag}\r\n\r\n\
             GET / HTTP/1.1\r\nHost: x\r\n\r\n"
        )?;
        let not_modified = String::from_utf8(read_head(&mut reader)?.context("no 304")?)?;
        assert!(
            not_modified.starts_with("HTTP/1.1 304 Not Modified\r\n"),
            "{not_modified}"
        );
        assert!(
            not_modified.contains(&format!("ETag: {tag}\r\n")),
            "{not_modified}"
        );
        assert!(!not_modified.contains("Content-Length"), "{not_modified}");
        let (_, index) = read_response(&mut reader)?;
        assert_eq!(index, b"<p>hi</p>");
        // A rebuilt file: its old tag no longer matches.
        fs::write(dir.join("site/pkg/app.js"), "export const rebuilt = 1;")?;
        write!(
            stream,
            "GET /pkg/app.js HTTP/1.1\r\nHost: x\r\nIf-None-Match: {tag}\r\n\r\n"
        )?;
        let (head, body) = read_response(&mut reader)?;
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert_eq!(body, b"export const rebuilt = 1;");
        drop(reader);
        drop(stream);
        drop(server);
        fs::remove_dir_all(&dir)?;
        Ok(())
    }

    #[test]
    fn bad_requests_are_refused_and_closed() -> Result<()> {
        let dir = temp_site("bad")?;
        let server = StaticServer::start(&dir.join("site"), 0, Log::Errors)?;
        let raw = |request: &[u8]| -> Result<String> {
            let mut stream = TcpStream::connect(server.addr())?;
            stream.set_read_timeout(Some(Duration::from_secs(10)))?;
            stream.write_all(request)?;
            let mut out = String::new();
            stream.read_to_string(&mut out)?;
            Ok(out)
        };
        let garbage = raw(b"NOT HTTP AT ALL\r\n\r\n")?;
        assert!(
            garbage.starts_with("HTTP/1.1 400 Bad Request\r\n"),
            "{garbage}"
        );
        let post = raw(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")?;
        assert!(post.starts_with("HTTP/1.1 405"), "{post}");
        assert!(
            post.contains("Allow: GET, HEAD\r\n") && post.contains("Connection: close"),
            "{post}"
        );
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(20_000));
        let long = raw(long.as_bytes())?;
        assert!(
            long.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
            "{long}"
        );
        drop(server);
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
