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
//!
//! The files inside each role are private to the crate; each role module
//! re-exports what its users need, and the crate root the few types nearly
//! every user needs. Whether code ships in the WebAssembly is decided here
//! once: `build` exists only with the `compile` feature.
//!
//! From a folder of lists to a search, as the build and the page do it:
//!
//! ```
//! use explorer_core::model::PapersDecoder;
//! use explorer_core::search::IndexData;
//! use explorer_core::build::compile_dir;
//! use explorer_core::{Engine, Sort};
//!
//! // At build time: the lists compiled into a corpus, written in two parts.
//! let corpus = compile_dir(std::path::Path::new("../../corpus")).unwrap();
//! let parts = corpus.to_parts();
//!
//! // In the page: the papers decoded as they arrive, searched at once...
//! let mut decoder = PapersDecoder::default();
//! for window in parts.papers.chunks(64 * 1024) {
//!     decoder.push(window).unwrap();
//! }
//! let engine = Engine::without_index(decoder.finish().unwrap());
//! // ...then the index opened when it has come.
//! let index: &'static [u8] = Box::leak(parts.index.into_boxed_slice());
//! engine.open_index(IndexData::from_static(index).unwrap()).unwrap();
//!
//! let found = engine.search("reinforcement learning", &engine.no_selection(), Sort::Relevance);
//! let first = &engine.corpus.papers[found.hits[0].doc as usize];
//! let marks = engine.highlights(found.hits[0].doc, &found.matched);
//! assert!(!marks.text.is_empty() || !marks.title.is_empty(), "{}", first.title);
//! ```

#![warn(missing_docs)]

#[cfg(feature = "compile")]
pub mod build;
pub mod model;
pub mod search;
pub mod view;

pub use model::{Corpus, DecodeError, FacetKind, Paper};
pub use search::{
    DocWords, Engine, Extra, ExtraCounts, Extras, Highlights, Hit, Hits, MatchClass, Matched,
    PaperPack, Related, RelatedSet, Response, Selection, Sort, BEST_MATCHES_BELOW,
    BEST_MATCH_SHARE, KEPT_PAPER_WORDS, MEANING_WEIGHT, ORDERED_FIRST, RELATED, RELATED_POOL,
};
