//! WebDriver sessions: the drivers and browsers started, pooled and reset
//! between tests.

use super::*;

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

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
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
                EngineKind::Chromium => chromium_driver(port, size, javascript, lang, &profile),
                EngineKind::Firefox => firefox_driver(port, size, javascript, lang),
                EngineKind::WebKit => {
                    if display.is_none() {
                        let (x, name) = start_xvfb();
                        display = Some(x);
                        display_name = name;
                    }
                    webkit_driver(port, javascript, lang, &profile, &display_name)
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

/// chromedriver on `port`, and the capabilities of a Chromium session of
/// this size, language and JavaScript, its profile in `profile`.
fn chromium_driver(
    port: u16,
    size: (u32, u32),
    javascript: bool,
    lang: Option<&str>,
    profile: &Path,
) -> (Child, Value) {
    let driver = quiet(Command::new("chromedriver").arg(format!("--port={port}")))
        .spawn()
        .expect("chromedriver on PATH (tools/bootstrap.sh installs it)");
    // Chromium windows are at least 500 px wide: a phone is emulated.
    let mobile = (size.0 < 500).then(
        || json!({ "deviceMetrics": { "width": size.0, "height": size.1, "pixelRatio": 2.0 } }),
    );
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

/// geckodriver on `port`, and the capabilities of a Firefox session.
fn firefox_driver(
    port: u16,
    size: (u32, u32),
    javascript: bool,
    lang: Option<&str>,
) -> (Child, Value) {
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
        caps["moz:firefoxOptions"]["prefs"]["layout.css.devPixelsPerPx"] = json!(z.to_string());
    }
    if let Some(lang) = lang {
        caps["moz:firefoxOptions"]["prefs"]["intl.accept_languages"] = json!(lang);
    }
    (driver, caps)
}

/// WebKitWebDriver on `port` in the X display `name`, and the
/// capabilities of a MiniBrowser session, its website data in `profile`.
fn webkit_driver(
    port: u16,
    javascript: bool,
    lang: Option<&str>,
    profile: &Path,
    name: &str,
) -> (Child, Value) {
    assert!(
        javascript,
        "WebKitGTK's MiniBrowser cannot switch JavaScript off"
    );
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
