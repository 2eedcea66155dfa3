//! Lists of the reader's own, opened in the page (the outside world): the
//! list the address names (`?source=<id or URL>`), opened in place of the
//! built-in one before the app starts; the page's compiler in a Web
//! Worker ([`compile`]); the lists this browser keeps ([`kept`]: their
//! files in Cache Storage, their records in localStorage).
//!
//! What every visitor's module holds is only this file and starting or
//! cancelling a compile: the rest is in the `open_list` chunk
//! ([`crate::chunks`]), fetched when a list is opened, or when the
//! address names a kept one or this browser keeps any ("Your lists").

mod compile;
mod kept;

use explorer_core::model::opened::{is_list_id, named_list, KeptList};
use explorer_core::Corpus;
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

pub use compile::{cancel, start_compile};
pub use kept::{forget, kept};

/// Where the kept lists' records are ([`kept`]).
const KEY: &str = "paper-explorer-lists";

/// Whether this browser keeps any list: the records are read (in the
/// `open_list` chunk) only when it does.
pub fn keeps_any() -> bool {
    crate::storage::get_raw(KEY).is_some_and(|t| t.trim() != "[]")
}

/// The compiler's first script, when this build has one (not the single
/// file) and this page can keep what it compiles (Cache Storage: a secure
/// context).
pub fn compiler_href() -> Option<String> {
    let has_caches = js_sys::Reflect::has(&window(), &"caches".into()).unwrap_or(false)
        && window().is_secure_context();
    let link = document().query_selector("link[data-compiler]").ok()??;
    has_caches.then(|| link.get_attribute("href")).flatten()
}

/// The list the address names to open, if any (its `source`, or an older
/// page's `list` that is not a value of the List facet of `corpus`, the
/// list in view: [`named_list`]). Before the app starts there is no
/// corpus to ask: a `list` is then a list only if it looks like one.
pub fn address_list(corpus: Option<&Corpus>) -> Option<String> {
    let search = window().location().search().ok()?;
    named_list(&search, |v| {
        corpus.is_some_and(|c| crate::url_state::is_list_value(c, v))
    })
}

/// Where to fetch a list the address names by URL: http or https, resolved
/// against the page; a GitHub file's page or a gist's page rewritten to its
/// raw text.
pub fn source_url(named: &str) -> Option<String> {
    let base = window().location().href().ok()?;
    let url = web_sys::Url::new_with_base(named, &base).ok()?;
    if !matches!(url.protocol().as_str(), "http:" | "https:") {
        return None;
    }
    Some(explorer_core::model::opened::raw_url(&url.href()))
}

thread_local! {
    /// The kept list the address named when the page started.
    static IN_VIEW: RefCell<Option<KeptList>> = const { RefCell::new(None) };
    /// Whether the address named a kept list whose files are gone.
    static FILES_GONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The kept list in view, if the page opened one.
pub fn in_view() -> Option<KeptList> {
    IN_VIEW.with(|l| l.borrow().clone())
}

/// Before the app starts: when the address names a kept list, the page's
/// corpus link is pointed at its files, so that the app opens it as it
/// would the built-in one. The records are read in the `open_list` chunk
/// (kept by the service worker since the list was opened): when it
/// cannot come, the built-in list opens, and the page says the list is
/// not kept here.
pub async fn open_from_address() {
    let Some(named) = address_list(None).filter(|_| keeps_any()) else {
        return;
    };
    let url = source_url(&named);
    let Ok(found) = kept::named_in_chunk(named, url).await else {
        return;
    };
    let list = match found.await {
        kept::Named::Kept(list) => *list,
        kept::Named::NotKept => return,
        kept::Named::FilesGone => return FILES_GONE.with(|g| g.set(true)),
    };
    if point_link_at(&list).is_ok() {
        IN_VIEW.with(|l| *l.borrow_mut() = Some(list));
    }
}

/// Replaces the build's corpus link with one naming `list`'s files (a
/// link that fetches nothing itself: no `rel`).
fn point_link_at(list: &KeptList) -> Result<(), JsValue> {
    let head = document().head().ok_or("no head")?;
    if let Some(old) = document().query_selector("link[data-corpus]")? {
        old.remove_attribute("data-corpus")?;
    }
    let link = document().create_element("link")?;
    link.set_attribute("data-corpus", "")?;
    link.set_attribute("href", &list.href(&list.papers_file))?;
    link.set_attribute("data-index", &list.href(&list.index_file))?;
    link.set_attribute("data-meaning", &list.href(&list.meaning_file))?;
    link.set_attribute("data-meaning-bytes", &list.meaning_bytes.to_string())?;
    head.append_child(&link)?;
    Ok(())
}

/// Why the list the address names is not in view, if it is not.
#[derive(Clone, Copy)]
pub enum NotOpened {
    /// An id this browser does not keep.
    NotKept,
    /// A kept list whose files the browser no longer has.
    FilesGone,
}

/// Whether the address names a list this browser cannot open, and why
/// (`corpus` is the list in view).
pub fn not_opened(corpus: &Corpus) -> Option<NotOpened> {
    if FILES_GONE.with(std::cell::Cell::get) {
        return Some(NotOpened::FilesGone);
    }
    let named = address_list(Some(corpus)).is_some_and(|n| is_list_id(&n) && in_view().is_none());
    named.then_some(NotOpened::NotKept)
}
