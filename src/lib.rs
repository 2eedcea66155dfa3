//! The paper explorer app: a thin Leptos layer over `explorer-core`.
//! Components live in `components/`, one folder each with its stylesheet;
//! the view state lives in the URL (`url_state`).

mod components;
mod crash;
mod download;
mod embed;
mod explorer;
mod first_screen;
mod i18n;
mod offline;
mod reading_list;
mod shortcuts;
mod storage;
pub mod url_state;

use std::sync::OnceLock;

use explorer_core::{Engine, Sort};
use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

use components::{
    FacetPanel, LanguageToggle, RelatedPapers, ResultList, SearchBox, SharePanel, SharedListNotice,
    ShortcutsHelp, StatusBar, ThemeToggle, TopicMap,
};
pub use explorer::Explorer;

static ENGINE: OnceLock<Engine> = OnceLock::new();

/// The engine over the corpus, once [`load_corpus`] has fetched it (the app
/// is mounted only then).
pub fn engine() -> &'static Engine {
    ENGINE
        .get()
        .expect("the app is mounted after the corpus is loaded")
}

/// The corpus link in `index.html`: `<link data-corpus href=… data-index=…>`
/// (content-hashed files, or `data:` URLs in the single-file build).
fn corpus_link(attribute: &str) -> Result<String, String> {
    document()
        .query_selector("link[data-corpus]")
        .ok()
        .flatten()
        .and_then(|l| l.get_attribute(attribute))
        .ok_or_else(|| format!("the page names no corpus (<link data-corpus {attribute}>)"))
}

/// The bytes at `href`, fetched into WebAssembly memory and kept for the
/// page's life: the index and the meaning file are used where they lie.
async fn fetch_kept(href: &str) -> Result<&'static [u8], String> {
    Ok(Box::leak(
        fetch_array(href).await?.to_vec().into_boxed_slice(),
    ))
}

/// Fetches a file of this build, its bytes left in the browser's memory.
async fn fetch_array(href: &str) -> Result<js_sys::Uint8Array, String> {
    let fail = |e: wasm_bindgen::JsValue| format!("{href}: {}", js_error(&e));
    let response: web_sys::Response =
        wasm_bindgen_futures::JsFuture::from(window().fetch_with_str(href))
            .await
            .map_err(fail)?
            .unchecked_into();
    if !response.ok() {
        return Err(format!("{href}: HTTP {}", response.status()));
    }
    let buffer = wasm_bindgen_futures::JsFuture::from(response.array_buffer().map_err(fail)?)
        .await
        .map_err(fail)?;
    Ok(js_sys::Uint8Array::new(&buffer))
}

/// Fetches the corpus's papers part (which the page preloads while the
/// WebAssembly compiles) and decodes it: everything the first results
/// need. The index comes after ([`load_index`]).
///
/// The part is decoded as it is copied into WebAssembly memory, a window
/// at a time: its bytes never sit there beside the papers decoded from them
/// (WebAssembly memory never shrinks: at 20,000 papers those 38 MB stayed).
pub async fn load_corpus() -> Result<(), String> {
    const WINDOW: u32 = 256 * 1024;
    let href = corpus_link("href")?;
    let bytes = fetch_array(&href).await?;
    let fail = |e: explorer_core::model::DecodeError| format!("{href}: {e}");
    let mut decoder = explorer_core::model::PapersDecoder::default();
    let mut window = vec![0; bytes.length().min(WINDOW) as usize];
    let mut at = 0;
    while at < bytes.length() {
        let end = bytes.length().min(at + WINDOW);
        let part = &mut window[..(end - at) as usize];
        bytes.subarray(at, end).copy_to(part);
        if std::hint::black_box(decode_part as DecodePart)(&mut decoder, part).map_err(fail)?
            < part.len()
        {
            return Err(format!("{href}: bytes after the papers part"));
        }
        at = end;
    }
    std::hint::black_box(open_engine as OpenEngine)(decoder).map_err(fail)
}

type DecodePart = fn(
    &mut explorer_core::model::PapersDecoder,
    &[u8],
) -> Result<usize, explorer_core::model::DecodeError>;
type OpenEngine =
    fn(explorer_core::model::PapersDecoder) -> Result<(), explorer_core::model::DecodeError>;

/// Decodes a window of the papers part (a function of its own in the
/// module, for a trap's stack: see [`start`]).
#[inline(never)]
fn decode_part(
    decoder: &mut explorer_core::model::PapersDecoder,
    part: &[u8],
) -> Result<usize, explorer_core::model::DecodeError> {
    decoder.push(part)
}

/// The decoded papers, as the page's engine (its index comes later).
#[inline(never)]
fn open_engine(
    decoder: explorer_core::model::PapersDecoder,
) -> Result<(), explorer_core::model::DecodeError> {
    let corpus = decoder.finish()?;
    let _ = ENGINE.set(Engine::without_index(corpus));
    Ok(())
}

/// Fetches the search index and opens it in the engine. Its automata and
/// postings are used where they lie, in bytes kept for the page's life.
pub async fn load_index() -> Result<(), String> {
    let href = corpus_link("data-index")?;
    let bytes = fetch_kept(&href).await?;
    let data =
        explorer_core::search::IndexData::from_static(bytes).map_err(|e| format!("{href}: {e}"))?;
    engine()
        .open_index(data)
        .map_err(|e| format!("{href}: {e}"))
}

/// Fetches the meaning file, if the page names one (the single-file build
/// does not carry it), and attaches it: false when there is none. Its
/// arrays are used where they lie, in bytes kept for the page's life.
pub async fn load_meaning() -> Result<bool, String> {
    let Ok(href) = corpus_link("data-meaning") else {
        return Ok(false);
    };
    let bytes = fetch_kept(&href).await?;
    let meaning =
        explorer_core::search::Meaning::from_static(bytes).map_err(|e| format!("{href}: {e}"))?;
    engine()
        .open_meaning(meaning)
        .map_err(|e| format!("{href}: {e}"))?;
    Ok(true)
}

/// A thrown JavaScript value as text.
fn js_error(e: &wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the request failed".into())
}

/// NFKD of one character by the browser, combining marks left out: what
/// the core does with Unicode's tables natively, without their bytes in
/// the WebAssembly (`explorer_core::model::set_decompose`).
fn browser_decompose(c: char, out: &mut String) {
    thread_local! {
        static MARKS: js_sys::RegExp = js_sys::RegExp::new(r"\p{M}", "gu");
    }
    let mut buf = [0u8; 4];
    let s = js_sys::JsString::from(&*c.encode_utf8(&mut buf));
    let d = MARKS.with(|marks| s.normalize("NFKD").replace_by_pattern(marks, ""));
    out.push_str(&String::from(d));
}

/// The core's folding of a word, as this page does it: how the tests check
/// that the browser's decomposition folds as the compiler's tables do.
/// Only in builds with the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn fold_words(words: Vec<String>) -> Vec<String> {
    words
        .iter()
        .map(|w| explorer_core::model::fold(w))
        .collect()
}

/// Starts the app: the corpus first, then the page (or a notice saying
/// why the corpus could not be read).
pub fn start() {
    install_panic_notice();
    explorer_core::model::set_decompose(browser_decompose);
    // Leptos's executor is set up by mounting: until then, the browser's.
    wasm_bindgen_futures::spawn_local(async {
        // Loading and mounting are functions of their own in the module,
        // not inlined into this future: a trap's stack (the open WebKit
        // defect, which strikes in this future) then says which of them it
        // struck in. (Called through `black_box`, as wasm-opt inlines a
        // function called once whatever Rust asks.)
        let loading: std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), String>>>> =
            Box::pin(load_corpus());
        match loading.await {
            Ok(()) => {
                #[cfg(feature = "test-hooks")]
                trap_if_asked();
                std::hint::black_box(mount as fn())();
                components::after_paint(crash::started);
            }
            Err(e) => crash::load_failed(&e),
        }
    });
}

/// The app's first render into the page.
#[inline(never)]
fn mount() {
    leptos::mount::mount_to_body(App);
}

/// Makes this start fail on a trap, as the WebKit defect does, while this
/// tab's `sessionStorage` counts failed starts still to come (the tests
/// set it). Only in builds with the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
fn trap_if_asked() {
    const KEY: &str = "paper-explorer-test-failing-starts";
    let Some(session) = window().session_storage().ok().flatten() else {
        return;
    };
    let left = session.get_item(KEY).ok().flatten();
    if let Some(n) = left.and_then(|n| n.parse::<u32>().ok()).filter(|&n| n > 0) {
        let _ = session.set_item(KEY, &(n - 1).to_string());
        core::arch::wasm32::unreachable();
    }
}

/// How many papers match a query, with ranking and every facet count
/// computed and no page update: the engine's own cost, callable from a
/// host page (`wasmBindings.count_matches("diffusion")`) and used by the
/// benchmark to compare engines on equal terms.
#[wasm_bindgen]
pub fn count_matches(query: &str) -> u32 {
    let Some(e) = ENGINE.get() else {
        return 0;
    };
    e.search(query, &e.no_selection(), Sort::Relevance)
        .hits
        .len() as u32
}

/// How many papers are related by meaning to a query (at most ten): the
/// query embedded, every paper scored, the nearest explained. For the
/// benchmark, as [`count_matches`] is for words.
#[wasm_bindgen]
pub fn count_related(query: &str) -> u32 {
    let Some(e) = ENGINE.get() else {
        return 0;
    };
    e.related(
        query,
        &e.no_selection(),
        explorer_core::Extras::default(),
        &[],
        explorer_core::RELATED,
    )
    .len() as u32
}

/// Shows a readable notice with a reload link if the app panics (and
/// logs the panic to the console).
pub fn install_panic_notice() {
    crash::install();
}

/// Panics on purpose: how the tests check what a reader sees when the app
/// fails. Only in builds with the `test-hooks` feature (the hostile-corpus
/// test build), never in the app users get.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn test_panic() {
    panic!("a panic forced by the tests <b>with markup</b>");
}

/// Stops the WebAssembly on a trap, as an out-of-bounds access would: no
/// panic, no hook. How the tests check that a trap is not a silent page.
/// Only in builds with the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn test_trap() {
    core::arch::wasm32::unreachable()
}

/// How many of the papers listed when the page opens have their words
/// prepared for highlighting ahead of the first keystroke: every card an
/// unwindowed list holds.
const LISTED_FIRST: usize = components::WINDOW_AT;

/// The words of the papers listed first, ready for highlighting before the
/// reader types (split while the page is idle).
fn prepare_listed_words(x: Explorer) {
    let listed: Vec<u32> = x
        .response
        .with_untracked(|r| r.hits.iter().take(LISTED_FIRST).map(|h| h.doc).collect());
    components::idle::in_slices(listed, |doc| components::prepare_words(engine(), doc));
}

/// On a list small enough to keep every paper's words for explaining, all
/// of them, ready for the first related list (tokenized while the page is
/// idle).
fn prepare_explaining_words() {
    let n = engine().len();
    if n <= explorer_core::KEPT_PAPER_WORDS {
        let all: Vec<u32> = (0..n as u32).collect();
        components::idle::in_slices(all, |doc| engine().prepare_explaining(doc));
    }
}

#[component]
pub fn App() -> impl IntoView {
    // The page the build wrote is replaced by the app's own.
    let typed = first_screen::take();
    let i18n = i18n::I18n::start();
    provide_context(i18n);
    let stars = reading_list::Stars::new(engine());
    provide_context(stars);
    let x = Explorer::new(engine(), stars.docs);
    provide_context(x);
    if let Some(q) = typed.query {
        x.set_query(q);
    }
    if typed.focused {
        first_screen::refocus();
    }
    // The index, once the first results are painted (the outside world).
    if !engine().has_index() {
        components::after_paint(move || {
            leptos::task::spawn_local(async move {
                match load_index().await {
                    Ok(()) => {
                        x.index_opened();
                        prepare_listed_words(x);
                    }
                    Err(e) => return crash::load_failed(&e),
                }
                // Meaning is an extra: without it the page searches words.
                match load_meaning().await {
                    Ok(true) => {
                        x.meaning_opened();
                        prepare_explaining_words();
                    }
                    Ok(false) => {}
                    Err(e) => web_sys::console::warn_1(&e.into()),
                }
            })
        });
    }
    let title = x.engine.corpus.title();
    document().set_title(&title);
    embed::start(x);
    let help = RwSignal::new(false);
    shortcuts::listen(x, help);
    components::listen_to_cards();
    view! {
        <offline::UpdateBanner />
        <header class="site-header">
            <div class="title-row">
                <h1>{title}</h1>
                <LanguageToggle />
                <ThemeToggle />
                <ShortcutsHelp open=help />
                <SharePanel />
            </div>
            <SearchBox />
        </header>
        <div class="layout">
            <FacetPanel />
            <main class="results-pane" id="results">
                <TopicMap />
                <SharedListNotice />
                <StatusBar />
                <ResultList />
                <RelatedPapers />
            </main>
        </div>
    }
}
