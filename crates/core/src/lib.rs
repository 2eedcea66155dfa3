//! Pure-Rust core of the paper explorer. No web dependencies: it is compiled
//! natively for the build-time corpus compiler and the tests, and to
//! WebAssembly for the app.

#![warn(missing_docs)]

pub mod acronym;
pub mod card;
pub mod embed;
pub mod engine;
pub mod export;
pub mod facet;
pub mod html;
pub mod i18n;
pub mod index;
pub mod kept;
pub mod markup;
#[cfg(feature = "compile")]
pub mod mathml;
pub mod meaning;
pub mod model;
pub mod query;
pub mod reading_list;
#[cfg(feature = "compile")]
pub mod records;
pub mod reorder;
pub mod seed;
pub mod shared_list;
pub mod source;
#[cfg(feature = "synth")]
pub mod synth;
pub mod text;
pub mod title;
#[cfg(feature = "compile")]
pub mod title_eval;
pub mod topic_map;
pub mod window;

#[cfg(feature = "compile")]
pub mod compile;
#[cfg(feature = "compile")]
pub mod similar;
#[cfg(feature = "compile")]
pub mod tags;

pub use engine::{
    overlaps, split_by_marks, DocWords, Engine, Extra, ExtraCounts, Extras, Highlights, Hit,
    MatchClass, Matched, Related, RelatedSet, Response, Selection, Sort, KEPT_PAPER_WORDS, RELATED,
    RELATED_POOL,
};
pub use facet::FacetKind;
pub use model::Corpus;
