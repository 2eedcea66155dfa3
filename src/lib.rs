//! The paper explorer app: a thin Leptos layer over `explorer-core`.
//! Components live in `components/`, one folder each with its stylesheet;
//! the view state lives in the URL (`url_state`).

mod components;
mod crash;
mod download;
mod embed;
mod explorer;
mod i18n;
mod offline;
mod reading_list;
mod shortcuts;
pub mod url_state;

use std::sync::OnceLock;

use explorer_core::{Engine, Sort};
use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

use components::{
    FacetPanel, LanguageToggle, ResultList, SearchBox, SharePanel, ShortcutsHelp, StatusBar,
    ThemeToggle, TopicMap,
};
pub use explorer::Explorer;

/// The corpus compiled by `build.rs`, decoded once at start-up.
static CORPUS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/corpus.bin"));

pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        Engine::from_static(CORPUS).expect("the embedded corpus was written by this build")
    })
}

/// How many papers match a query, with ranking and every facet count
/// computed and no page update: the engine's own cost, callable from a
/// host page (`wasmBindings.count_matches("diffusion")`) and used by the
/// benchmark to compare engines on equal terms.
#[wasm_bindgen]
pub fn count_matches(query: &str) -> u32 {
    let e = engine();
    e.search(query, &e.no_selection(), Sort::Relevance)
        .hits
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

#[component]
pub fn App() -> impl IntoView {
    let i18n = i18n::I18n::start();
    provide_context(i18n);
    let stars = reading_list::Stars::new(&engine().corpus);
    provide_context(stars);
    let x = Explorer::new(engine(), stars.docs);
    provide_context(x);
    let title = x.engine.corpus.title();
    document().set_title(&title);
    embed::start(x.state.with_untracked(|s| s.embed));
    let help = RwSignal::new(false);
    shortcuts::listen(x, help);
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
                <StatusBar />
                <ResultList />
            </main>
        </div>
    }
}
