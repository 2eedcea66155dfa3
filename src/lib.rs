//! The paper explorer app: a thin Leptos layer over `explorer-core`.
//! Components live in `components/`, one folder each with its stylesheet;
//! the paper cards, written as HTML strings, in `cards/`; the view state
//! lives in the URL (`url_state`).

mod background;
mod cards;
mod chunks;
mod components;
mod crash;
mod download;
mod embed;
mod explorer;
mod first_screen;
mod i18n;
mod idle;
mod load;
mod offline;
mod opened;
mod reading_list;
mod shortcuts;
mod storage;
pub mod url_state;

use explorer_core::Sort;
use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

use components::{
    FacetPanel, LanguageToggle, OfflineSave, OpenList, RelatedPapers, ResultList, SearchBox,
    SharePanel, SharedListNotice, ShortcutsHelp, StatusBar, ThemeToggle, TopicMap, YourLists,
};
pub use explorer::Explorer;
use load::{load_corpus, load_index, load_meaning, LoadError};

pub use load::engine;

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

/// What an exception says: its message (an `Error`'s, or a
/// `DOMException`'s, which some engines do not make an `Error`), or itself.
pub(crate) fn said(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| {
            (e.is_object())
                .then(|| js_sys::Reflect::get(e, &"message".into()).ok()?.as_string())
                .flatten()
        })
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// Starts the app: the corpus first, then the page (or a notice saying
/// why the corpus could not be read).
pub fn start() {
    install_panic_notice();
    explorer_core::model::set_decompose(browser_decompose);
    // Leptos's executor is set up by mounting: until then, the browser's.
    wasm_bindgen_futures::spawn_local(async {
        // A list of the reader's own, when the address names one this
        // browser keeps, in place of the built-in one.
        opened::open_from_address().await;
        // Loading and mounting are functions of their own in the module,
        // not inlined into this future: a trap's stack (the open WebKit
        // defect, which strikes in this future) then says which of them it
        // struck in. (Called through `black_box`, as wasm-opt inlines a
        // function called once whatever Rust asks.)
        let loading: std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), LoadError>>>> =
            Box::pin(load_corpus(opening));
        match loading.await {
            Ok(()) => {
                #[cfg(feature = "test-hooks")]
                trap_if_asked();
                std::hint::black_box(mount as fn())();
                idle::after_paint(crash::started);
            }
            Err(e) => crash::load_failed(&e.to_string()),
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
    let Some(e) = load::engine_if_in() else {
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
    let Some(e) = load::engine_if_in() else {
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
const LISTED_FIRST: usize = cards::WINDOW_AT;

/// What the link that opened the page shows first ([`load::Opening`]):
/// the window of cards around a paper it names, whether it has a region
/// of the topic map, whether it filters.
fn opening() -> load::Opening {
    let window = cards::WINDOW_AT as u32;
    let linked = explorer::location_fragment().and_then(|id| engine().doc_of(&id));
    let search = leptos::prelude::window()
        .location()
        .search()
        .unwrap_or_default();
    let state = url_state::ViewState::from_query_string(&search, &engine().corpus);
    load::Opening {
        around: linked.map_or(0..0, |d| d.saturating_sub(window)..d + window),
        map: state.region.is_some(),
        tags: state.selection.iter().any(|s| !s.is_empty())
            || !engine().parse_query(&state.query).filters.is_empty(),
    }
}

/// The words of the papers listed first, ready for highlighting before the
/// reader types (split while the page is idle).
fn prepare_listed_words(x: Explorer) {
    let listed: Vec<u32> = x.search.response.with_untracked(|r| {
        r.hits
            .first_ordered()
            .iter()
            .take(LISTED_FIRST)
            .map(|h| h.doc)
            .collect()
    });
    idle::in_slices(listed, |doc| cards::prepare_words(engine(), doc));
}

/// On a list small enough to keep every paper's words for explaining, all
/// of them, ready for the first related list (tokenized while the page is
/// idle).
fn prepare_explaining_words() {
    let n = engine().len();
    if n <= explorer_core::KEPT_PAPER_WORDS {
        let all: Vec<u32> = (0..n as u32).collect();
        idle::in_slices(all, |doc| engine().prepare_explaining(doc));
    }
}

/// Fetches the meaning file once the reader first asks for something that
/// needs it: a query (typed, or in the link that opened the page) or "more
/// like my reading list". It is most of what the page could download (the
/// embedding table), and a reader who only browses never needs it; the
/// words-only results never wait for it. Nor does the index: a query typed
/// before the index is in fetches the meaning file after it (on a slow link
/// the two would share it, and at 100,000 papers the first answer came
/// 4 s later). (The outside world, hence an Effect.)
///
/// Nor while the reader is typing: it starts once the view has not changed
/// for [`MEANING_PAUSE`]. At 100,000 papers it is 1.2 MB, and a query typed
/// just after the first answer had its postings share the link with it
/// (the bench's "new query, cold").
fn fetch_meaning_when_asked(x: Explorer) {
    if engine().has_meaning() {
        return;
    }
    let rest = idle::OnceAtRest::new();
    Effect::new(move |_| {
        let wanted = x
            .view
            .state
            .with(|s| !s.query.trim().is_empty() || s.like_starred);
        // Nor while the first answer's packs of postings are on their way,
        // nor before a long list's tags (the first answer's facet counts,
        // a tenth of the bytes): they share the link otherwise.
        let waiting = x.search.response.with(|r| r.waiting_for_index);
        let change = rest.changed();
        if !wanted || !x.has_index() || waiting || rest.done() {
            return;
        }
        if !x.search.tags_settled() {
            x.search.want_tags_at_rest();
            return;
        }
        rest.after(change, MEANING_PAUSE, move || {
            leptos::task::spawn_local(open_meaning(x, load::Priority::Now))
        });
    });
}

/// How long the view must rest before the meaning file is fetched
/// ([`fetch_meaning_when_asked`]).
const MEANING_PAUSE: std::time::Duration = std::time::Duration::from_millis(800);

/// Fetches and opens the meaning file (the outside world), once: a
/// second call while it is on its way or open does nothing; after a
/// failure it can be asked for again.
async fn open_meaning(x: Explorer, priority: load::Priority) {
    thread_local! {
        static ASKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if ASKED.replace(true) {
        return;
    }
    // Meaning is an extra: without it the page searches words.
    match load_meaning(priority).await {
        Ok(true) => {
            x.meaning_opened();
            prepare_explaining_words();
        }
        Ok(false) => {}
        Err(e) => {
            ASKED.set(false);
            web_sys::console::warn_1(&e.to_string().into());
        }
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
        idle::after_paint(move || {
            leptos::task::spawn_local(async move {
                match load_index().await {
                    Ok(()) => {
                        x.index_opened();
                        prepare_listed_words(x);
                        background::fetch_whole_list(x);
                    }
                    Err(e) => crash::load_failed(&e.to_string()),
                }
            })
        });
    }
    fetch_meaning_when_asked(x);
    let title = x.engine.corpus.title();
    document().set_title(&title);
    embed::start(x);
    let help = RwSignal::new(false);
    shortcuts::listen(x, help);
    cards::listen();
    view! {
        <offline::UpdateBanner />
        <header class="site-header">
            <div class="title-row">
                <h1>{title}</h1>
                <LanguageToggle />
                <ThemeToggle />
                <ShortcutsHelp open=help />
                <SharePanel />
                <OfflineSave />
                <OpenList />
                <YourLists />
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
