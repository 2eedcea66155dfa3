//! Pure-Rust core of the paper explorer. No web dependencies: it is compiled
//! natively for the build-time corpus compiler and the tests, and to
//! WebAssembly for the app.
//!
//! It is grouped by role:
//!
//! - [`model`]: what the build and the page share (the corpus's types, its
//!   binary format, the facet schema, the text normalizer);
//! - `build`: the compiler, only with the `compile` feature (never in the
//!   WebAssembly);
//! - [`search`]: the index, the query language, the engine, find by meaning;
//! - [`view`]: what the page shows (cards, HTML, strings, exports, lists).

#![warn(missing_docs)]

#[cfg(feature = "compile")]
pub mod build;
pub mod model;
pub mod search;
pub mod view;

#[cfg(feature = "compile")]
pub use build::{compile_dir, compile_dir_with, Options};
pub use model::{Corpus, DecodeError, FacetKind, Paper};
pub use search::{
    DocWords, Engine, Extra, ExtraCounts, Extras, Highlights, Hit, MatchClass, Matched, Related,
    RelatedSet, Response, Selection, Sort, KEPT_PAPER_WORDS, RELATED, RELATED_POOL,
};
