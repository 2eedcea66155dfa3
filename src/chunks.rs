//! The module's chunks: code a feature few visitors use, split from the
//! page's module at build time (crates/cli/src/split.rs) and fetched the
//! first time the feature is used, then kept by the service worker. Each
//! is a function marked `#[wasm_split(<chunk>, fallible, …)]`:
//!
//! - `open_list`: talking to the page's compiler (opening, keeping and
//!   publishing a list of one's own), reading the kept lists' records
//!   (a kept list the address names) and showing them ("Your lists"),
//!   [`crate::opened`];
//! - `export`: the results written as CSV, JSON, Markdown or BibTeX,
//!   `components::export_menu`;
//! - `offline_save`: fetching a large list's every file for the service
//!   worker to keep, `components::offline_save`;
//! - `reading_list_file`: reading and writing a reading-list file (its
//!   JSON code: the only serde_json left in the page), `crate::reading_list`.
//!
//! Calling one is `async`: its chunk is fetched first if it is not in.

/// A chunk could not be fetched: the page is offline and the feature was
/// never used on it (a chunk once fetched is kept for offline).
pub struct Unfetched;

impl From<leptos::wasm_split::SplitLoaderError> for Unfetched {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Unfetched
    }
}
