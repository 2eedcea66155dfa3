//! What a test does on the page: open, type, click, wait and read.

use super::*;

/// True once the app has started for good: its status line (the first
/// screen the build wrote has one without the role), and the mark the app
/// sets after its first paint (`data-app-started`). Before that mark, a
/// start that fails in the engine is retried by reloading the page (the
/// open WebKit defect, docs/testing.md): a test that went on as soon
/// as the status line showed could find itself on a new page.
pub const APP_STARTED: &str = "document.querySelector('.status[role=status]') !== null \
     && document.documentElement.hasAttribute('data-app-started')";

/// Malformed addresses a broken link can bring, opened one after another
/// by the robustness test (each falls back to the defaults) and by
/// `./dev stress` (the quick navigations the WebKit defect shows in).
pub const MALFORMED_ADDRESSES: [&str; 4] = [
    "?topic=Nope&topic=&sort=sideways&map=9,9,1,1&starred=maybe&embed=2&%00=%FF&&=&topic",
    "?map=1,2,3,4,5&sort=&list=%E2%80%AE&q=",
    "#p-000000000000",
    "?topic=Agents&topic=Agents&map=0,0,1000,1000#p-stale%20id%3Cscript%3E",
];

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
        self.wait_for(APP_STARTED, "the app to start").await;
        // Said in the log, not failed: the reader got the app.
        if self.came_up_on_retry().await {
            eprintln!(
                "{path}: the app came up on its retry (a failed start, reloaded); the start failed with: {}",
                self.restarted_after().await
            );
        }
    }

    /// Whether the page open is a reload: the gate script's retry of a
    /// start that failed (`public/first-screen.js`), when nothing else
    /// reloaded it.
    pub async fn came_up_on_retry(&self) -> bool {
        self.js("return performance.getEntriesByType('navigation')[0].type === 'reload'")
            .await
            == Value::Bool(true)
    }

    /// What the failed start that the gate script retried said (its
    /// message and stack), as the retried page keeps it.
    pub async fn restarted_after(&self) -> Value {
        self.js("return window.__restartedAfter === undefined ? null : window.__restartedAfter")
            .await
    }

    pub async fn js(&self, script: &str) -> Value {
        self.js_with(script, vec![]).await
    }

    /// Runs a script with `arguments`; its return value.
    pub async fn js_with(&self, script: &str, args: Vec<Value>) -> Value {
        match self.client.execute(script, args).await {
            Ok(value) => value,
            Err(e) => panic!(
                "script failed: {e}\n{script}\npage: {}",
                self.page_state().await
            ),
        }
    }

    /// Where the page is and what went wrong on it, for a failure's message:
    /// its address and load state, whether the app started, the console
    /// errors, what a start the page retried had failed with, and the crash
    /// notice (an engine fault shows here, not in the failed assertion).
    pub async fn page_state(&self) -> Value {
        self.client
            .execute(
                &format!(
                    "return {{url: location.href, readyState: document.readyState, \
                 started: window.__started !== undefined, \
                 app: {APP_STARTED}, \
                 errors: window.__errors || [], \
                 restarted_after: window.__restartedAfter || null, \
                 crash: (document.getElementById('crash') || {{}}).textContent || null}}"
                ),
                vec![],
            )
            .await
            .unwrap_or_else(|e| Value::String(format!("unreadable: {e}")))
    }

    /// Waits until the page's service worker controls it (its files are
    /// kept for offline use from then on).
    pub async fn wait_for_service_worker(&self) {
        self.wait_for(
            "navigator.serviceWorker && navigator.serviceWorker.controller !== null",
            "the service worker to take control",
        )
        .await;
    }

    /// Polls a JavaScript expression until it is true (10 s at most).
    pub async fn wait_for(&self, expr: &str, what: &str) {
        self.wait_for_within(expr, what, Duration::from_secs(10))
            .await;
    }

    /// Polls a JavaScript expression until it is true (`within` at most):
    /// for what takes longer as its input grows, such as a whole real
    /// list compiled in the page.
    pub async fn wait_for_within(&self, expr: &str, what: &str, within: Duration) {
        if let Err(failed) = self.poll(expr, within).await {
            let page = self.page_state().await;
            let failed = failed.map_or_else(String::new, |e| format!("; last poll failed: {e}"));
            panic!("timed out waiting for {what} ({expr}){failed}; page: {page}");
        }
    }

    /// Polls a JavaScript expression until it is true or `within` has
    /// passed; whether it came true. A poll the page's unloading cuts short
    /// counts as "not yet": the page retries a failed start by reloading
    /// itself (`public/first-screen.js`), and a poll may meet the reload.
    pub async fn becomes_true(&self, expr: &str, within: Duration) -> bool {
        self.poll(expr, within).await.is_ok()
    }

    /// [`Browser::becomes_true`], with the last poll's script error when it
    /// timed out (a broken expression is named in [`Browser::wait_for`]'s
    /// message, not only timed out).
    async fn poll(&self, expr: &str, within: Duration) -> Result<(), Option<String>> {
        let script = format!("return !!({expr});");
        let deadline = Instant::now() + within;
        loop {
            let failed = match self.client.execute(&script, vec![]).await {
                Ok(Value::Bool(true)) => return Ok(()),
                Ok(_) => None,
                Err(e) => Some(e.to_string()),
            };
            if Instant::now() > deadline {
                return Err(failed);
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

    /// The text of the first element matching a CSS selector, read over
    /// WebDriver (no script: works with JavaScript off).
    pub async fn text_of(&self, css: &str) -> String {
        let el = self.client.find(Locator::Css(css)).await;
        let el = el.unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.text().await.unwrap()
    }

    /// The texts of every element matching a CSS selector, in document
    /// order (no script, as [`Browser::text_of`]).
    pub async fn texts_of(&self, css: &str) -> Vec<String> {
        let mut out = Vec::new();
        for el in self.client.find_all(Locator::Css(css)).await.unwrap() {
            out.push(el.text().await.unwrap());
        }
        out
    }

    /// Follows the first link matching a CSS selector with a plain
    /// WebDriver click (no script, as [`Browser::text_of`]).
    pub async fn follow(&self, css: &str) {
        let el = self.client.find(Locator::Css(css)).await;
        let el = el.unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.click().await.unwrap();
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

    /// Waits (10 s at most) until the cache names `script` answers (a
    /// promise of an array) are one build's, named `prefix`…: a new build's
    /// worker deletes the old build's cache once it has taken over.
    pub async fn wait_for_one_build_cache(&self, script: &str, prefix: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let now = strings(self.js(script).await);
            if now.len() == 1 && now[0].starts_with(prefix) {
                return;
            }
            assert!(Instant::now() < deadline, "caches: {now:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
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
