//! Harness for the browser tests: serves the release `dist/` on loopback and
//! drives a real browser through WebDriver (chromedriver + Debian's Chromium).
//!
//! The server injects one small script into `index.html` that records console
//! errors and uncaught exceptions, so every test can assert there were none.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use explorer_core::{Engine, Sort};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// Where the release build is: `$EXPLORER_DIST`, else `dist/` at the top.
pub fn dist_dir() -> PathBuf {
    let dir = std::env::var_os("EXPLORER_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dist"));
    assert!(
        dir.join("index.html").is_file(),
        "no release build at {}: run `trunk build --release` first (`./dev test` does)",
        dir.display()
    );
    dir
}

/// The build of the synthetic conference-size corpus (`./dev test` makes it:
/// `$EXPLORER_SCALE_DIST`, else `target/dist-scale`), and the corpus
/// directory it was built from (`target/synthetic`).
pub fn scale_build() -> (PathBuf, PathBuf) {
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dist = std::env::var_os("EXPLORER_SCALE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| top.join("target/dist-scale"));
    let corpus = top.join("target/synthetic");
    assert!(
        dist.join("index.html").is_file() && corpus.is_dir(),
        "no scale build at {}: `./dev test` generates target/synthetic and builds it",
        dist.display()
    );
    (dist, corpus)
}

/// The seed corpus, compiled natively: what the page must show.
pub fn engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        Engine::new(explorer_core::compile::compile_dir(&dir).expect("corpus compiles"))
    })
}

/// Every paper's title, in list order: the page with no query.
pub fn all_titles() -> Vec<String> {
    engine()
        .corpus
        .papers
        .iter()
        .map(|p| p.title.clone())
        .collect()
}

/// Titles the seed engine ranks for a query with no facet selected.
pub fn expected_titles(query: &str) -> Vec<String> {
    ranked_titles(engine(), query)
}

/// The papers an engine ranks for a query with no facet selected.
pub fn ranked_docs(e: &Engine, query: &str) -> Vec<u32> {
    e.search(query, &e.no_selection(), Sort::Relevance).docs()
}

/// Titles an engine ranks for a query with no facet selected.
pub fn ranked_titles(e: &Engine, query: &str) -> Vec<String> {
    ranked_docs(e, query)
        .into_iter()
        .map(|d| e.corpus.papers[d as usize].title.clone())
        .collect()
}

/// Injected first into the served `index.html`: records console errors and
/// uncaught exceptions, and when the first result appears.
const CAPTURE: &str = "<script>window.__errors=[];(function(){var e=console.error.bind(console);\
console.error=function(){window.__errors.push(Array.prototype.join.call(arguments,' '));e.apply(null,arguments)};\
addEventListener('error',function(ev){window.__errors.push(String(ev.message))});\
addEventListener('unhandledrejection',function(ev){window.__errors.push(String(ev.reason))});\
addEventListener('securitypolicyviolation',function(ev){window.__errors.push('CSP: '+ev.violatedDirective+' '+ev.blockedURI)});\
addEventListener('TrunkApplicationStarted',function(ev){window.__wasm=ev.detail.wasm;window.__started=performance.now()});\
new MutationObserver(function(m,o){if(document.querySelector('article')){window.__firstResults=performance.now();o.disconnect()}})\
.observe(document.documentElement,{childList:true,subtree:true});})();</script>";

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
    let pages: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let csp: Arc<Mutex<Option<String>>> = Arc::default();
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
            let prefix = prefix.clone();
            let tag = tag.lock().unwrap().clone();
            let extra = extra.lock().unwrap().clone();
            let policy = policy.lock().unwrap().clone();
            std::thread::spawn(move || {
                handle(
                    stream,
                    &dist,
                    &prefix,
                    &tag,
                    &extra,
                    policy.as_deref(),
                    &log,
                )
            });
        }
    });
    Server {
        base,
        requests,
        offline,
        next_build,
        pages,
        csp,
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

fn handle(
    mut stream: TcpStream,
    dist: &Path,
    prefix: &str,
    build_tag: &str,
    pages: &[(String, String)],
    csp: Option<&str>,
    log: &Mutex<Vec<String>>,
) {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
        if head.len() > 64 * 1024 {
            return;
        }
    }
    let head = String::from_utf8_lossy(&head);
    let target = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    log.lock().unwrap().push(target.clone());
    let page = pages.iter().find(|(p, _)| *p == target);
    let (status, ctype, body) = match target.strip_prefix(prefix) {
        _ if page.is_some() => (
            "200 OK",
            "text/html; charset=utf-8",
            page.unwrap().1.clone().into_bytes(),
        ),
        Some(rest) if rest.starts_with("sw.js") && !build_tag.is_empty() => {
            let (status, ctype, body) = respond(dist, rest);
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
            let (status, ctype, mut body) = respond(dist, rest);
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
    };
    let policy = csp.map_or_else(String::new, |p| format!("Content-Security-Policy: {p}\r\n"));
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{policy}Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(header.as_bytes());
    let _ = stream.write_all(&body);
    let _ = stream.flush();
}

fn respond(dist: &Path, url: &str) -> (&'static str, &'static str, Vec<u8>) {
    let path = url
        .split(['?', '#'])
        .next()
        .unwrap_or("/")
        .trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let file = dist.join(path);
    if path.contains("..") || !file.is_file() {
        return ("404 Not Found", "text/plain", b"not found".to_vec());
    }
    let mut body = std::fs::read(&file).unwrap();
    if path == "index.html" {
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

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts a WebDriver session on the driver at `url`, waiting up to 30 s
/// for it to listen; an error as soon as the driver has exited or the port
/// answers as something else.
async fn start_session(
    url: &str,
    caps: serde_json::Map<String, Value>,
    driver: &mut Child,
) -> Result<Client, String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(Some(status)) = driver.try_wait() {
            return Err(format!("the driver exited ({status})"));
        }
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(url)
            .await
        {
            Ok(c) => return Ok(c),
            Err(e) if e.to_string().contains("non-conformant") || Instant::now() > deadline => {
                return Err(e.to_string())
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// The browser engine under test: `$BROWSER` = `chromium` (default),
/// `firefox` or `webkit` — the engines of Chrome/Edge, Firefox and Safari.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    Chromium,
    Firefox,
    WebKit,
}

impl EngineKind {
    pub fn from_env() -> EngineKind {
        match std::env::var("BROWSER").as_deref() {
            Ok("firefox") => EngineKind::Firefox,
            Ok("webkit") => EngineKind::WebKit,
            Ok("chromium") | Err(_) => EngineKind::Chromium,
            Ok(other) => panic!("BROWSER={other}: expected chromium, firefox or webkit"),
        }
    }
}

/// A page in a browser: the app's server, and a WebDriver session that
/// goes back to this test binary's pool when the test ends well (starting
/// a browser costs seconds, and the suite starts one per test otherwise).
/// Every server is on a port no earlier server of the process had, so a
/// reused browser meets a new origin: no storage, service worker or cache
/// of an earlier test is in reach.
pub struct Browser {
    pub client: Client,
    pub engine: EngineKind,
    session: Option<Session>,
    pub server: Server,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let Some(session) = self.session.take() else {
            return;
        };
        if std::thread::panicking() || !POOLING.load(Ordering::SeqCst) {
            return; // dropped: the session ends with its driver
        }
        // The reset is async and Drop is not: it runs on the pool's runtime,
        // waited for on a thread of its own (this one is inside a runtime).
        std::thread::scope(|s| {
            s.spawn(|| {
                if let Some(session) = pool_runtime().block_on(session.reset()) {
                    lock(&POOL).push(session);
                }
            });
        });
    }
}

/// What a session was started with: only an equal one is reused.
#[derive(Debug, Clone, PartialEq)]
struct SessionKey {
    engine: EngineKind,
    size: (u32, u32),
    javascript: bool,
    lang: Option<String>,
}

/// One WebDriver session with its own driver process (and, for WebKitGTK,
/// its own X server). Dropping it ends the session and stops the processes.
struct Session {
    client: Client,
    key: SessionKey,
    driver_url: String,
    id: Option<String>,
    /// The viewport it started with, which a reused session must still have.
    viewport: Value,
    driver: Child,
    display: Option<Child>,
    profile: PathBuf,
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(id) = &self.id {
            delete_session(&self.driver_url, id);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        if let Some(x) = self.display.as_mut() {
            let _ = x.kill();
            let _ = x.wait();
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Session {
    /// Back to a blank page at the top level, with no key or button held;
    /// `None` (the session is dropped) if anything else is open or fails.
    async fn reset(self) -> Option<Session> {
        let ok = async {
            self.client.enter_frame(None).await.ok()?;
            if self.client.windows().await.ok()?.len() != 1 {
                return None;
            }
            if self.client.get_alert_text().await.is_ok() {
                return None;
            }
            self.client.release_actions().await.ok()?;
            self.client.goto("about:blank").await.ok()?;
            // The pointer back in the corner: where a test left it, the next
            // test's page would be hovered.
            use fantoccini::actions::{InputSource, MouseActions, PointerAction};
            let corner = MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
                duration: None,
                x: 0,
                y: 0,
            });
            self.client.perform_actions(corner).await.ok()?;
            self.client.release_actions().await.ok()?;
            // WebKitGTK's MiniBrowser has been seen to come back from a test
            // with a shorter viewport (493 px of 900): sized again, or dropped.
            if viewport(&self.client).await != self.viewport {
                let (w, h) = self.key.size;
                self.client.set_window_size(w, h).await.ok()?;
                if viewport(&self.client).await != self.viewport {
                    return None;
                }
            }
            Some(())
        };
        match tokio::time::timeout(Duration::from_secs(10), ok).await {
            Ok(Some(())) => Some(self),
            _ => None,
        }
    }
}

/// The window's inner size and device pixel ratio, as the page sees them.
async fn viewport(client: &Client) -> Value {
    client
        .execute("return [innerWidth, innerHeight, devicePixelRatio]", vec![])
        .await
        .unwrap_or(Value::Null)
}

/// Sessions of this process that are free, ended when it exits.
static POOL: Mutex<Vec<Session>> = Mutex::new(Vec::new());

/// Whether ended tests give their browser back ([`fresh_browsers`] stops it).
static POOLING: AtomicBool = AtomicBool::new(true);

/// Every browser from now on is a new one (the benchmark's cold starts).
pub fn fresh_browsers() {
    POOLING.store(false, Ordering::SeqCst);
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The runtime pooled sessions live on. A fantoccini client's connection
/// task runs on the runtime that made it, and each `#[tokio::test]` has
/// its own, gone when the test ends; a client made here can be used from
/// any of them (its commands are messages over a channel).
fn pool_runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        // When the test binary exits, the pooled browsers are closed.
        extern "C" fn end_pooled_sessions() {
            let sessions = std::mem::take(&mut *lock(&POOL));
            std::thread::scope(|s| {
                for session in sessions {
                    s.spawn(move || drop(session));
                }
            });
        }
        extern "C" {
            fn atexit(f: extern "C" fn()) -> std::os::raw::c_int;
        }
        // SAFETY: registers a plain function with no arguments, as C's
        // atexit expects; it only touches Rust statics.
        unsafe { atexit(end_pooled_sessions) };
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime for the browser pool")
    })
}

/// Ends a WebDriver session with a plain HTTP request (from Drop and at
/// exit, where no async runtime can be entered); the driver then closes
/// its browser, which killing the driver alone would leave running.
fn delete_session(driver_url: &str, id: &str) {
    let Some(addr) = driver_url.strip_prefix("http://") else {
        return;
    };
    let Ok(mut stream) = TcpStream::connect(addr) else {
        return;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let request = format!(
        "DELETE /session/{id} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    if stream.write_all(request.as_bytes()).is_ok() {
        let _ = stream.read_to_end(&mut Vec::new());
    }
}

fn quiet(cmd: &mut Command) -> &mut Command {
    cmd.stdout(Stdio::null()).stderr(Stdio::null())
}

/// A private X server for WebKitGTK's MiniBrowser (it is not headless).
/// Xvfb picks a free display itself (`-displayfd`) and says which once it
/// accepts connections: lock files left by killed servers, or taken by a
/// parallel test, are its business, not a guess of ours.
fn start_xvfb() -> (Child, String) {
    use std::io::BufRead;
    static N: AtomicUsize = AtomicUsize::new(0);
    let log = std::env::temp_dir().join(format!(
        "xvfb-{}-{}.log",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    for _ in 0..3 {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1600x1200x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("a log file for Xvfb"))
            .spawn()
            .expect("Xvfb (tools/bootstrap.sh installs xvfb)");
        let mut line = String::new();
        let read = std::io::BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut line);
        if let (Ok(_), Ok(n)) = (read, line.trim().parse::<u32>()) {
            let _ = std::fs::remove_file(&log);
            return (child, format!(":{n}"));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    panic!("no X display could be started; Xvfb said:\n{said}");
}

impl Browser {
    /// The engine from `$BROWSER` on a 1280×900 window, the app served at
    /// the root.
    pub async fn start() -> Browser {
        Browser::launch("/", (1280, 900)).await
    }

    /// The engine from `$BROWSER`, the app served under `prefix`, on a window
    /// of `size` CSS pixels.
    pub async fn launch(prefix: &str, size: (u32, u32)) -> Browser {
        Browser::launch_with(prefix, size, true).await
    }

    /// As [`Browser::launch`], optionally with JavaScript switched off.
    pub async fn launch_with(prefix: &str, size: (u32, u32), javascript: bool) -> Browser {
        Browser::launch_dist(&dist_dir(), prefix, size, javascript).await
    }

    /// As [`Browser::launch_with`], serving another build.
    pub async fn launch_dist(
        dist: &Path,
        prefix: &str,
        size: (u32, u32),
        javascript: bool,
    ) -> Browser {
        Browser::launch_full(dist, prefix, size, javascript, None).await
    }

    /// The app at the root, in a browser whose preferred language is
    /// `lang` (a BCP 47 tag such as `zh-CN`).
    pub async fn launch_in_language(lang: &str) -> Browser {
        Browser::launch_full(&dist_dir(), "/", (1280, 900), true, Some(lang)).await
    }

    async fn launch_full(
        dist: &Path,
        prefix: &str,
        size: (u32, u32),
        javascript: bool,
        lang: Option<&str>,
    ) -> Browser {
        let key = SessionKey {
            engine: EngineKind::from_env(),
            size,
            javascript,
            lang: lang.map(str::to_string),
        };
        let server = serve(dist, prefix);
        let pooled = {
            let mut pool = lock(&POOL);
            let at = pool.iter().position(|s| s.key == key);
            at.map(|i| pool.swap_remove(i))
        };
        let session = match pooled {
            Some(s) => s,
            None => pool_runtime()
                .spawn(Session::start(key))
                .await
                .expect("starting a browser session"),
        };
        Browser {
            client: session.client.clone(),
            engine: session.key.engine,
            session: Some(session),
            server,
        }
    }
}

impl Session {
    /// Starts a browser for `key` with its own driver (and X server).
    async fn start(key: SessionKey) -> Session {
        static N: AtomicUsize = AtomicUsize::new(0);
        let SessionKey {
            engine,
            size,
            javascript,
            ..
        } = key;
        let lang = key.lang.as_deref();
        let profile = std::env::temp_dir().join(format!(
            "explorer-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let mut display: Option<Child> = None;
        let mut display_name = String::new();
        // The driver's port is found free, then released for the driver to
        // bind: another test's server can take it in between (the driver
        // then exits, and that server answers `not found` to a new
        // session). Such a start is retried on a fresh port.
        let mut attempt = 0;
        let (client, driver, url) = loop {
            attempt += 1;
            let port = free_port();
            let (mut driver, caps) = match engine {
                EngineKind::Chromium => {
                    let driver = quiet(Command::new("chromedriver").arg(format!("--port={port}")))
                        .spawn()
                        .expect("chromedriver on PATH (tools/bootstrap.sh installs it)");
                    // Chromium windows are at least 500 px wide: a phone is emulated.
                    let mobile = (size.0 < 500).then(|| {
                    json!({ "deviceMetrics": { "width": size.0, "height": size.1, "pixelRatio": 2.0 } })
                });
                    let mut caps = json!({
                        "browserName": "chrome",
                        "goog:chromeOptions": {
                            "binary": "/usr/bin/chromium",
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                "--no-first-run", "--disable-quic", format!("--window-size={},{}", size.0, size.1),
                                // For the benchmark's memory figures: gc() and exact heap sizes.
                                "--js-flags=--expose-gc", "--enable-precise-memory-info",
                                "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                                "--disable-backgrounding-occluded-windows", "--disable-extensions",
                                format!("--user-data-dir={}", profile.display()),
                            ],
                        }
                    });
                    if let Some(m) = mobile {
                        caps["goog:chromeOptions"]["mobileEmulation"] = m;
                    }
                    if !javascript {
                        let args = caps["goog:chromeOptions"]["args"].as_array_mut().unwrap();
                        args.push(json!("--blink-settings=scriptEnabled=false"));
                    }
                    if let Some(lang) = lang {
                        let args = caps["goog:chromeOptions"]["args"].as_array_mut().unwrap();
                        args.push(json!(format!("--lang={lang}")));
                        args.push(json!(format!("--accept-lang={lang}")));
                    }
                    (driver, caps)
                }
                EngineKind::Firefox => {
                    let driver = quiet(Command::new("geckodriver").args([
                        "--host",
                        "127.0.0.1",
                        "--port",
                        &port.to_string(),
                    ]))
                    .spawn()
                    .expect("geckodriver on PATH (tools/bootstrap.sh installs it)");
                    // Firefox windows are at least 500 px wide: a phone is a
                    // 500 px window at a higher device pixel ratio.
                    let zoom = (size.0 < 500).then(|| 500.0 / size.0 as f64);
                    let window = zoom.map_or(size, |z| (500, (size.1 as f64 * z) as u32));
                    let mut caps = json!({
                        "browserName": "firefox",
                        "moz:firefoxOptions": {
                            "binary": "/usr/bin/firefox-esr",
                            "args": ["-headless", format!("--width={}", window.0), format!("--height={}", window.1)],
                            "prefs": {
                                "javascript.enabled": javascript,
                                "app.update.enabled": false,
                                "browser.shell.checkDefaultBrowser": false,
                                "datareporting.policy.dataSubmissionEnabled": false,
                                "toolkit.telemetry.enabled": false,
                                "network.captive-portal-service.enabled": false,
                                "network.connectivity-service.enabled": false,
                                "browser.safebrowsing.update.enabled": false,
                                "extensions.update.enabled": false,
                            }
                        }
                    });
                    if let Some(z) = zoom {
                        caps["moz:firefoxOptions"]["prefs"]["layout.css.devPixelsPerPx"] =
                            json!(z.to_string());
                    }
                    if let Some(lang) = lang {
                        caps["moz:firefoxOptions"]["prefs"]["intl.accept_languages"] = json!(lang);
                    }
                    (driver, caps)
                }
                EngineKind::WebKit => {
                    assert!(
                        javascript,
                        "WebKitGTK's MiniBrowser cannot switch JavaScript off"
                    );
                    if display.is_none() {
                        let (x, name) = start_xvfb();
                        display = Some(x);
                        display_name = name;
                    }
                    let name = &display_name;
                    // MiniBrowser keeps website data (service workers, caches)
                    // under the XDG folders: one fresh set per session.
                    // WebKitGTK takes its language from the process's locale,
                    // which needs the locale installed (this machine has C only).
                    assert!(
                        lang.is_none(),
                        "WebKitGTK's language comes from an installed locale"
                    );
                    let driver = quiet(
                        Command::new("WebKitWebDriver")
                            .arg(format!("--port={port}"))
                            .env("DISPLAY", name)
                            .env("XDG_DATA_HOME", profile.join("data"))
                            .env("XDG_CACHE_HOME", profile.join("cache"))
                            .env("XDG_CONFIG_HOME", profile.join("config")),
                    )
                    .spawn()
                    .expect("WebKitWebDriver (tools/bootstrap.sh installs webkit2gtk-driver)");
                    let caps = json!({
                        "browserName": "MiniBrowser",
                        "webkitgtk:browserOptions": {
                            "binary": "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
                            "args": ["--automation"],
                        }
                    });
                    (driver, caps)
                }
            };
            let caps: serde_json::Map<String, Value> = caps.as_object().unwrap().clone();
            let url = format!("http://127.0.0.1:{port}");
            match start_session(&url, caps, &mut driver).await {
                Ok(c) => break (c, driver, url),
                Err(e) => {
                    let _ = driver.kill();
                    let _ = driver.wait();
                    if attempt == 3 {
                        panic!("cannot start a {engine:?} session: {e}");
                    }
                }
            }
        };
        if engine == EngineKind::WebKit {
            let _ = client.set_window_size(size.0, size.1).await;
        }
        // Fail fast instead of hanging on a navigation that never loads.
        client
            .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
                Some(Duration::from_secs(15)),
                Some(Duration::from_secs(20)),
                Some(Duration::ZERO),
            ))
            .await
            .expect("set timeouts");
        let id = client.session_id().await.ok().flatten();
        let _ = client.goto("about:blank").await;
        let viewport = viewport(&client).await;
        Session {
            client,
            key,
            driver_url: url,
            id,
            viewport,
            driver,
            display,
            profile,
        }
    }
}

impl Browser {
    /// Serves `html` at the absolute `path` of the app's origin (a wiki page
    /// beside the app's folder) and opens it.
    pub async fn open_host_page(&self, path: &str, html: &str) {
        self.server
            .pages
            .lock()
            .unwrap()
            .push((path.into(), html.into()));
        let url = url::Url::parse(&self.server.base)
            .and_then(|base| base.join(path))
            .expect("an absolute path on the app's origin");
        self.client.goto(url.as_str()).await.unwrap();
    }

    /// Opens `path` (relative to the served dist/) and waits for the app.
    pub async fn open(&self, path: &str) {
        self.client
            .goto(&format!("{}{}", self.server.base, path))
            .await
            .unwrap();
        self.wait_for(
            "document.querySelector('.status[role=status]') !== null",
            "the app to start",
        )
        .await;
    }

    pub async fn js(&self, script: &str) -> Value {
        self.js_with(script, vec![]).await
    }

    /// Runs a script with `arguments`; its return value.
    pub async fn js_with(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Polls a JavaScript expression until it is true (10 s at most).
    pub async fn wait_for(&self, expr: &str, what: &str) {
        let script = format!("return !!({expr});");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if self.js(&script).await == Value::Bool(true) {
                return;
            }
            if Instant::now() > deadline {
                let errors = self.js("return window.__errors || []").await;
                panic!("timed out waiting for {what} ({expr}); console errors: {errors}");
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Waits for the notice the page shows when it cannot go on (a panic,
    /// a paper list it cannot read) and returns its text.
    pub async fn crash_notice(&self) -> String {
        self.wait_for(
            "document.querySelector('#crash[role=alert]') !== null",
            "the notice",
        )
        .await;
        self.js("return document.getElementById('crash').textContent")
            .await
            .as_str()
            .unwrap()
            .to_string()
    }

    pub async fn status(&self) -> String {
        self.js("return document.querySelector('.status[role=status]').textContent")
            .await
            .as_str()
            .unwrap()
            .to_string()
    }

    pub async fn titles(&self) -> Vec<String> {
        strings(self.js("return [...document.querySelectorAll('.results article.paper .paper-title')].map(e => e.textContent)").await)
    }

    /// The text of every `<mark>` in the result list, in document order.
    pub async fn marks(&self, within: &str) -> Vec<String> {
        strings(self.js(&format!("return [...document.querySelectorAll('.results article.paper {within} mark')].map(e => e.textContent)")).await)
    }

    /// Clicks the first element matching a CSS selector.
    pub async fn click(&self, css: &str) {
        let el = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        self.click_element(&el)
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    /// Scrolls an element to the middle of the window, clear of the sticky
    /// header (engines differ in where they scroll an element to before
    /// acting on it), and waits two frames: a scroll the page itself asked
    /// for (opening a paper) has landed and does not move the element away.
    pub async fn centre(&self, el: &fantoccini::elements::Element) {
        let _ = self
            .client
            .execute_async(
                "const [el, done] = arguments; el.scrollIntoView({block: 'center'}); \
                 requestAnimationFrame(() => requestAnimationFrame(() => done(0)))",
                vec![serde_json::to_value(el).unwrap()],
            )
            .await;
    }

    /// Clicks an element, first [centred](Browser::centre).
    pub async fn click_element(
        &self,
        el: &fantoccini::elements::Element,
    ) -> Result<(), fantoccini::error::CmdError> {
        self.centre(el).await;
        el.clone().click().await
    }

    /// The page's query string (`location.search`).
    pub async fn location_search(&self) -> String {
        self.js("return location.search")
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// From now on, keeps every file the page offers for download (the
    /// downloads themselves go to the browser's download folder).
    pub async fn capture_downloads(&self) {
        self.js("window.__exports = []; const make = URL.createObjectURL; \
                 URL.createObjectURL = (blob) => { window.__exports.push(blob); return make(blob); }; return 0")
            .await;
    }

    /// The texts of the files offered since [`Browser::capture_downloads`],
    /// once there are `n`, in the order offered.
    pub async fn downloads(&self, n: usize) -> Vec<String> {
        self.wait_for(
            &format!("window.__exports.length === {n}"),
            &format!("{n} downloads"),
        )
        .await;
        strings(
            self.client
                .execute_async(
                    "const done = arguments[arguments.length - 1]; \
                     Promise.all(window.__exports.map(f => f.text())).then(done)",
                    vec![],
                )
                .await
                .unwrap(),
        )
    }

    /// Presses one key where the focus is (WebDriver key codes for special
    /// keys: `\u{E00C}` Escape, `\u{E007}` Enter).
    pub async fn press(&self, key: char) {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
        self.client
            .perform_actions(keys)
            .await
            .unwrap_or_else(|e| panic!("cannot press {key:?}: {e}"));
    }

    /// Types at the end of the search field, key by key, as a person would.
    pub async fn type_query(&self, text: &str) {
        let input = self
            .client
            .find(Locator::Css("input[type=search]"))
            .await
            .unwrap();
        // End first: the caret goes after what is already there.
        input.send_keys(&format!("\u{E010}{text}")).await.unwrap();
    }

    pub async fn clear_query(&self) {
        let input = self
            .client
            .find(Locator::Css("input[type=search]"))
            .await
            .unwrap();
        input.clear().await.unwrap();
        // `clear` fires no input event; an empty keystroke pair does.
        input.send_keys(" \u{E003}").await.unwrap();
    }

    /// Waits until the page shows exactly these titles, in this order.
    pub async fn wait_for_titles(&self, want: &[String]) {
        self.wait_for_titles_where(want, "exactly", |have| have == want)
            .await;
    }

    /// Waits until the page's first titles are the first of `want`, in
    /// order (a windowed list shows only the start).
    pub async fn wait_for_titles_prefix(&self, want: &[String]) {
        self.wait_for_titles_where(want, "the start of", |have| {
            !have.is_empty() && want.starts_with(have)
        })
        .await;
    }

    /// Waits until the page's titles are a run of consecutive titles of
    /// `want`, in order (a windowed list scrolled anywhere).
    pub async fn wait_for_titles_run(&self, want: &[String]) {
        self.wait_for_titles_where(want, "a run of", |have| {
            have.first()
                .and_then(|t| want.iter().position(|w| w == t))
                .is_some_and(|at| want[at..].starts_with(have))
        })
        .await;
    }

    /// Polls the page's titles (10 s at most) until `ok` holds; on time-out
    /// says what the page showed, what was expected, the search field and
    /// the URL.
    async fn wait_for_titles_where(
        &self,
        want: &[String],
        relation: &str,
        ok: impl Fn(&[String]) -> bool,
    ) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let have = self.titles().await;
            if ok(&have) {
                return;
            }
            if Instant::now() > deadline {
                let field = self
                    .js("const q = document.querySelector('input[type=search]'); return q ? q.value : null")
                    .await;
                panic!(
                    "page shows {} titles {:?}…, expected {relation} {} {:?}…; search field {field}, URL {}",
                    have.len(),
                    &have[..have.len().min(5)],
                    want.len(),
                    &want[..want.len().min(5)],
                    self.client
                        .current_url()
                        .await
                        .map(|u| u.to_string())
                        .unwrap_or_default(),
                );
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    pub async fn console_errors(&self) -> Vec<String> {
        strings(self.js("return window.__errors || []").await)
    }

    /// Ends the test's use of the browser: there must have been no console
    /// error. The browser goes back to the pool.
    pub async fn close(self) {
        let errors = self.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:?}");
    }
}

pub fn strings(v: Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap_or_default().to_string())
        .collect()
}
