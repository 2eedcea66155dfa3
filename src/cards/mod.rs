//! The paper cards, rendered as HTML strings instead of Leptos views.
//!
//! A card is written as one string by [`explorer_core::view`] and parsed by
//! the browser. The alternative is a Leptos view tree built one element
//! and one reactive closure at a time across the WebAssembly boundary. That
//! cost 0.5–0.75 ms a card, and a facet click on the seeds rebuilt most of
//! the 57 cards. Its cost a card is measured by `./dev bench` (`BENCH_PAGES=1`). What follows from that choice lives here, apart from
//! the components:
//!
//! - [`placement`]: which cards of the ranked results are in the document
//!   (a window over long lists), keyed by paper, moved rather than rebuilt;
//! - [`keyed_items`]: the keyed update of a list's items from HTML strings;
//! - [`maker`] and [`words`]: a card's HTML and its highlights;
//! - [`listen`] and [`dom`]: the cards' buttons heard once on the document,
//!   and what the reader changes afterwards (a chip's state, the star and
//!   note, the expanded abstract, the paper the address names, the
//!   language) written into the cards in place, so that a focused button
//!   keeps its focus.

mod dom;
mod keyed_items;
mod listen;
mod maker;
mod placement;
mod words;

pub use keyed_items::KeyedItems;
pub use listen::listen;
pub use maker::CardMaker;
pub use placement::{px, Placement, WINDOW_AT};
pub use words::prepare_words;
