//! What the page shows, as plain data and strings the app binds to the DOM:
//! cards and abstracts as HTML, the string tables, exports, the arithmetic
//! of the windowed result list and of keyed reordering, reading lists and
//! shared lists, the embedding protocol, and the topic map's run-time part.
//!
//! Most items are re-exported here; the modules whose item names only read
//! well qualified stay namespaces: [`embed`] (the messages to and from a
//! host page), [`shared_list`], [`topic_map`] and [`window`].

pub(crate) mod card;
pub mod embed;
pub(crate) mod export;
pub(crate) mod html;
pub(crate) mod i18n;
pub(crate) mod reading_list;
pub(crate) mod reorder;
pub mod shared_list;
pub mod topic_map;
pub mod window;

pub use card::{
    authors_html, card_html, expand_label, first_screen, is_long, is_selected, note_html,
    related_item_html, selection_changes, similar_html, star_face, CardState, FIRST_SCREEN,
    FIRST_SCREEN_ID,
};
pub use export::{export, export_with, Format};
pub use html::{
    abstract_html, escape, listing, listing_file, marked_html, noscript, LISTING_FILE,
    LISTING_PAGE_PAPERS, NOSCRIPT_MARKER,
};
pub use i18n::{Lang, Strings, EN};
pub use reading_list::{Entry, ImportError, Merged, ReadingList};
pub use reorder::unmoved;
