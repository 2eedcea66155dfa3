//! The loopback HTTP server the builds are served from.

use super::*;

/// Injected first into the served `index.html`: records console errors and
/// uncaught exceptions, and when the first result is shown: a paper in the
/// app's results, or in the first screen the build wrote once
/// `first-screen.js` has shown it, at the next frame (after the page's
/// stylesheets, which block rendering).
const CAPTURE: &str = "<script>window.__errors=[];(function(){var e=console.error.bind(console);\
console.error=function(){window.__errors.push(Array.prototype.join.call(arguments,' '));e.apply(null,arguments)};\
addEventListener('error',function(ev){window.__errors.push(String(ev.message))});\
addEventListener('unhandledrejection',function(ev){window.__errors.push(String(ev.reason))});\
addEventListener('securitypolicyviolation',function(ev){window.__errors.push('CSP: '+ev.violatedDirective+' '+ev.blockedURI)});\
addEventListener('TrunkApplicationStarted',function(ev){window.__wasm=ev.detail.wasm;window.__started=performance.now()});\
new MutationObserver(function(m,o){var a=document.querySelector('.results article, #first-screen article');\
if(a&&(!a.closest('#first-screen')||document.documentElement.dataset.firstScreen==='shown')){o.disconnect();\
requestAnimationFrame(function(){window.__firstResults=performance.now()})}})\
.observe(document.documentElement,{childList:true,subtree:true,attributes:true,attributeFilter:['data-first-screen']});})();</script>";

/// A strict Content-Security-Policy: scripts from the page's own origin only
/// (no inline script, no eval; WebAssembly compilation allowed), styles
/// from files only, nothing from elsewhere.
pub const STRICT_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                              style-src 'self'; img-src 'self' data:; object-src 'none'; \
                              base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/// A static file server for `dist/` on 127.0.0.1: one thread per connection,
/// one request per connection (`Connection: close`). Every request path is
/// recorded.
pub struct Server {
    pub base: String,
    pub requests: Arc<Mutex<Vec<String>>>,
    /// Every response: when its request arrived, and the bytes sent (head
    /// and body, brotli-compressed when it was): the bytes on the wire,
    /// whoever asked (the page, or its service worker, whose requests the
    /// page's Resource Timing shows with no size).
    pub sent: Arc<Mutex<Vec<(std::time::Instant, usize, String)>>>,
    /// While set, every connection is closed unanswered: the network is cut.
    pub offline: Arc<AtomicBool>,
    /// When set, `sw.js` is served with this tag in its cache name: a new
    /// build, as after a deploy.
    pub next_build: Arc<Mutex<String>>,
    /// Extra HTML pages at absolute paths, e.g. a wiki page that embeds the app.
    pub pages: Arc<Mutex<Vec<(String, String)>>>,
    /// When set, every response carries this Content-Security-Policy, and
    /// the tests' console capture is served as a script file (an inline one
    /// would be refused).
    pub csp: Arc<Mutex<Option<String>>>,
    /// While set, requests for files whose names end with it wait (a
    /// module still on its way, on a slow network): see [`Server::hold`].
    pub held: Held,
    /// While set, files are sent brotli-compressed to a browser that
    /// accepts it, as a static host does (the bench's emulated link counts
    /// the bytes on the wire).
    pub brotli: Arc<AtomicBool>,
    /// While set, the page is sent as the build wrote it, without the
    /// tests' console capture (a test comparing it with a build's).
    pub as_built: Arc<AtomicBool>,
    /// The bodies pages sent with `POST` (to any path), in order: a file
    /// the page made, such as a download, handed to the test whole (tens
    /// of megabytes through WebDriver, as base64 in a string, took
    /// seconds).
    pub uploads: Arc<Mutex<Vec<Vec<u8>>>>,
}

/// The file name suffix whose requests wait, with the number of releases
/// so far, and the signal that frees them.
pub type Held = Arc<(Mutex<(Option<String>, u64)>, std::sync::Condvar)>;

impl Server {
    /// Makes requests for files ending in `suffix` wait until
    /// [`Server::release`].
    pub fn hold(&self, suffix: &str) {
        lock(&self.held.0).0 = Some(suffix.to_string());
    }

    /// Answers the requests held, and every later one at once. A request
    /// held before is answered even if a new hold begins before its thread
    /// wakes (the releases are counted).
    pub fn release(&self) {
        let mut held = lock(&self.held.0);
        held.0 = None;
        held.1 += 1;
        self.held.1.notify_all();
    }
}

/// Serves `dist` under the URL path `prefix` (`/` or e.g. `/wiki/tools/iclr/`);
/// anything outside it is a 404, as on a wiki that hosts the app in a folder.
pub fn serve(dist: &Path, prefix: &str) -> Server {
    assert!(prefix.starts_with('/') && prefix.ends_with('/'));
    let listener = fresh_listener();
    let base = format!("http://{}{prefix}", listener.local_addr().unwrap());
    let prefix = prefix.to_string();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let offline = Arc::new(AtomicBool::new(false));
    let next_build = Arc::new(Mutex::new(String::new()));
    let log = requests.clone();
    let sent: Arc<Mutex<Vec<(std::time::Instant, usize, String)>>> = Arc::default();
    let sent_log = sent.clone();
    let pages: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let csp: Arc<Mutex<Option<String>>> = Arc::default();
    let held: Held = Arc::default();
    let waiting = held.clone();
    let brotli = Arc::new(AtomicBool::new(false));
    let compress = brotli.clone();
    let as_built = Arc::new(AtomicBool::new(false));
    let plain = as_built.clone();
    let uploads: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let received = uploads.clone();
    let (cut, tag, extra, policy) = (
        offline.clone(),
        next_build.clone(),
        pages.clone(),
        csp.clone(),
    );
    let dist = dist.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dist = dist.clone();
            let log = log.clone();
            if cut.load(Ordering::SeqCst) {
                drop(stream);
                continue;
            }
            let site = Site {
                dist,
                prefix: prefix.clone(),
                next_build: tag.clone(),
                pages: extra.lock().unwrap().clone(),
                csp: policy.lock().unwrap().clone(),
                brotli: compress.load(Ordering::SeqCst),
                as_built: plain.load(Ordering::SeqCst),
                offline: cut.clone(),
            };
            let waiting = waiting.clone();
            let sent = sent_log.clone();
            let received = received.clone();
            std::thread::spawn(move || handle(stream, &site, &log, &waiting, &sent, &received));
        }
    });
    Server {
        base,
        requests,
        sent,
        offline,
        next_build,
        pages,
        csp,
        held,
        brotli,
        as_built,
        uploads,
    }
}

/// A loopback listener on a port no earlier server of this process had:
/// a browser reused from an earlier test meets a new origin, with nothing
/// stored under it.
fn fresh_listener() -> TcpListener {
    static USED: Mutex<Vec<u16>> = Mutex::new(Vec::new());
    let mut held = Vec::new(); // kept bound until a new port comes up
    loop {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("a bound address").port();
        let mut used = lock(&USED);
        if !used.contains(&port) {
            used.push(port);
            return listener;
        }
        held.push(listener);
    }
}

/// What a connection is answered from: the server's settings when it came
/// (but for the network's cut and the build's tag, looked at when its
/// request comes).
struct Site {
    dist: PathBuf,
    prefix: String,
    /// The build's tag ([`Server::next_build`]): a connection opened ahead
    /// of a deploy must still fetch the new worker.
    next_build: Arc<Mutex<String>>,
    pages: Vec<(String, String)>,
    csp: Option<String>,
    brotli: bool,
    as_built: bool,
    /// The network's cut, looked at again once the request has come: a
    /// browser opens connections ahead of its requests (Firefox does), and
    /// one opened before the cut must not carry a request made after it.
    offline: Arc<AtomicBool>,
}

fn handle(
    mut stream: TcpStream,
    site: &Site,
    log: &Mutex<Vec<String>>,
    held: &Held,
    sent: &Mutex<Vec<(std::time::Instant, usize, String)>>,
    uploads: &Mutex<Vec<Vec<u8>>>,
) {
    let (brotli, csp) = (&site.brotli, site.csp.as_deref());
    let Some(head) = read_head(&mut stream) else {
        return;
    };
    if site.offline.load(Ordering::SeqCst) {
        return;
    }
    if head.starts_with(b"POST ") {
        receive(stream, head, uploads);
        return;
    }
    let head = String::from_utf8_lossy(&head);
    let target = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    let arrived = std::time::Instant::now();
    log.lock().unwrap().push(target.clone());
    let path = target.split(['?', '#']).next().unwrap_or("");
    wait_while_held(held, path);
    let (status, ctype, body) = response(site, &target);
    let header_value = |name: &str| header(&head, name);
    let accepts_br = header_value("accept-encoding")
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("br")));
    // As static hosts answer (Netlify, GitHub Pages, Cloudflare Pages):
    // every file has an entity tag, and a request that names the one the
    // browser holds is answered "not modified", without the file.
    let hash = hash_of(&body);
    let compress = *brotli && accepts_br && status.starts_with("200");
    // One tag per body sent: the compressed copy is another.
    let etag = format!("\"{hash:016x}{}\"", if compress { "-br" } else { "" });
    let not_modified =
        status.starts_with("200") && header_value("if-none-match").as_ref() == Some(&etag);
    let (status, body, encoding) = if not_modified {
        ("304 Not Modified", Arc::new(Vec::new()), "")
    } else if compress {
        let quality = quality_for(&site.dist, path.strip_prefix(site.prefix.as_str()));
        (
            status,
            brotli_of(body, hash, quality),
            "Content-Encoding: br\r\n",
        )
    } else {
        (status, Arc::new(body), "")
    };
    let policy = csp.map_or_else(String::new, |p| format!("Content-Security-Policy: {p}\r\n"));
    // A 304 has no body, and no length of its own to say.
    let length = if not_modified {
        String::new()
    } else {
        format!("Content-Length: {}\r\n", body.len())
    };
    // As Netlify answers: any file may be kept by the browser's HTTP
    // cache, and is revalidated before each use (GitHub Pages keeps files
    // 10 minutes without asking).
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n{length}Cache-Control: public, max-age=0, must-revalidate\r\nETag: {etag}\r\n{encoding}{policy}Connection: close\r\n\r\n"
    );
    sent.lock()
        .unwrap()
        .push((arrived, header.len() + body.len(), path.to_string()));
    let _ = stream.write_all(header.as_bytes());
    let _ = stream.write_all(&body[..]);
    let _ = stream.flush();
}

/// The value of a request head's header `name` (any case), trimmed.
fn header(head: &str, name: &str) -> Option<String> {
    (head.lines())
        .find_map(|l| Some(l.split_once(':')?).filter(|(n, _)| n.eq_ignore_ascii_case(name)))
        .map(|(_, v)| v.trim().to_string())
}

/// A `POST`'s body (its `Content-Length` bytes, the first of them read
/// with its head) kept in `uploads`, answered "204 No Content".
fn receive(mut stream: TcpStream, head: Vec<u8>, uploads: &Mutex<Vec<Vec<u8>>>) {
    let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") else {
        return;
    };
    let length = header(&String::from_utf8_lossy(&head[..end]), "content-length")
        .and_then(|v| v.parse::<usize>().ok());
    let Some(length) = length else {
        return;
    };
    let mut body = head[end + 4..].to_vec();
    let mut rest = vec![0; length.saturating_sub(body.len())];
    if stream.read_exact(&mut rest).is_err() {
        return;
    }
    body.extend(rest);
    lock(uploads).push(body);
    let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
}

/// A request's head (up to its blank line), or `None` when the
/// connection ends first or the head is over 64 KB.
fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
        if head.len() > 64 * 1024 {
            return None;
        }
    }
    Some(head)
}

/// Waits while requests for `path` are held (a test holds a file's
/// requests to see what the page does meanwhile), until released.
fn wait_while_held(held: &Held, path: &str) {
    let mut hold = lock(&held.0);
    let releases = hold.1;
    while hold.1 == releases
        && hold
            .0
            .as_deref()
            .is_some_and(|suffix| path.ends_with(suffix))
    {
        hold = held.1.wait(hold).unwrap();
    }
    drop(hold);
}

/// The status, content type and body answering `target`: a page the test
/// set, the worker script with its cache renamed for the test's build,
/// the capture script, or a file of the build.
fn response(site: &Site, target: &str) -> (&'static str, &'static str, Vec<u8>) {
    let Site {
        dist,
        prefix,
        pages,
        csp,
        ..
    } = site;
    let build_tag = lock(&site.next_build).clone();
    let (prefix, csp) = (prefix.as_str(), csp.as_deref());
    let page = pages.iter().find(|(p, _)| *p == target);
    match target.strip_prefix(prefix) {
        _ if page.is_some() => (
            "200 OK",
            "text/html; charset=utf-8",
            page.unwrap().1.clone().into_bytes(),
        ),
        Some(rest) if rest.starts_with("sw.js") && !build_tag.is_empty() => {
            let (status, ctype, body) = respond(dist, rest, !site.as_built);
            let js = String::from_utf8(body).unwrap();
            let from = "const CACHE = 'paper-explorer-";
            let renamed = js.replacen(from, &format!("{from}{build_tag}-"), 1);
            assert_ne!(renamed, js, "sw.js names its cache");
            (status, ctype, renamed.into_bytes())
        }
        Some(rest) if csp.is_some() && rest == "__capture.js" => {
            let js = CAPTURE
                .trim_start_matches("<script>")
                .trim_end_matches("</script>");
            ("200 OK", "text/javascript", js.as_bytes().to_vec())
        }
        Some(rest) => {
            let (status, ctype, mut body) = respond(dist, rest, !site.as_built);
            if csp.is_some() && ctype.starts_with("text/html") {
                let html = String::from_utf8(body).unwrap();
                body = html
                    .replacen(CAPTURE, "<script src=\"__capture.js\"></script>", 1)
                    .into_bytes();
            }
            (status, ctype, body)
        }
        None => (
            "404 Not Found",
            "text/plain",
            b"outside the app's folder".to_vec(),
        ),
    }
}

/// The brotli quality a file is sent at: 11 where the build wrote it
/// precompressed (`NAME.br`, sent as it is by nginx's `brotli_static` or
/// Caddy's `precompressed br`), else 9, what a host compressing on the
/// fly sends. (The body sent is compressed here, not read from the `.br`:
/// the page and the worker script are sent with the tests' changes.)
fn quality_for(dist: &Path, path: Option<&str>) -> i32 {
    match path.and_then(file_of) {
        Some(file) if dist.join(format!("{file}.br")).is_file() => 11,
        _ => 9,
    }
}

/// The file of the build a URL inside the app's folder names (its path
/// without the folder): `index.html` for the folder itself; `None` for a
/// path that climbs out of it.
fn file_of(url: &str) -> Option<&str> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    (!path.contains("..")).then_some(path)
}

/// A body's hash (its entity tag; the key of its compressed copies).
fn hash_of(body: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(body)
}

/// `body` (of [`hash_of`] `hash`) brotli-compressed at `quality`, each distinct body compressed
/// once per process: a field's 40 MB part is sent in several runs.
fn brotli_of(body: Vec<u8>, hash: u64, quality: i32) -> Arc<Vec<u8>> {
    /// (hash, length, quality) of a body, and the body compressed.
    type Done = Vec<((u64, usize, i32), Arc<Vec<u8>>)>;
    static DONE: Mutex<Done> = Mutex::new(Vec::new());
    let key = (hash, body.len(), quality);
    if let Some((_, c)) = lock(&DONE).iter().find(|(k, _)| *k == key) {
        return c.clone();
    }
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).expect("brotli in memory");
    let out = Arc::new(out);
    lock(&DONE).push((key, out.clone()));
    out
}

/// A file of `dist` as sent: the page with the tests' console capture
/// when `capture`.
fn respond(dist: &Path, url: &str, capture: bool) -> (&'static str, &'static str, Vec<u8>) {
    let Some(path) = file_of(url).filter(|p| dist.join(p).is_file()) else {
        return ("404 Not Found", "text/plain", b"not found".to_vec());
    };
    let file = dist.join(path);
    let mut body = std::fs::read(&file).unwrap();
    if path == "index.html" && capture {
        let html = String::from_utf8(body).unwrap();
        body = html
            .replacen("<head>", &format!("<head>{CAPTURE}"), 1)
            .into_bytes();
    }
    let ctype = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("webmanifest") => "application/manifest+json",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    };
    ("200 OK", ctype, body)
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Compresses every file of `dist` as [`Server::brotli`] sends it, ahead
/// of a measured visit (at quality 9 a field's 40 MB part takes seconds,
/// which are the host's, not the link's).
pub fn precompress(dist: &Path) {
    for entry in std::fs::read_dir(dist).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_file() && !name.ends_with(".br") {
            let (_, _, body) = respond(dist, &name, true);
            let hash = hash_of(&body);
            brotli_of(body, hash, quality_for(dist, Some(&name)));
        }
    }
}
