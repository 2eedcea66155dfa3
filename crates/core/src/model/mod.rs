//! What the build and the page share: the corpus's types, the binary format
//! it is compiled to and decoded from, the facet schema, and the text
//! normalizer (folding, stemming, tokens) that both sides must agree on.

pub(crate) mod corpus;
pub(crate) mod facet;
pub(crate) mod text;

pub(crate) use corpus::{frame, nothing_after, unframe};
pub use corpus::{
    is_web_url, style, Corpus, DecodeError, Facet, Link, LinkKind, List, Paper, PapersDecoder,
    Parts, Run, RunKind, Similar, Tag, FORMAT_VERSION, INDEX_MAGIC, MAGIC,
};
pub use facet::{FacetKind, ANY_FACET};
#[cfg(feature = "unicode-tables")]
pub use text::decompose_with_tables;
pub use text::{fold, set_decompose, tokenize, words, Decompose, Token};
