//! Searching the corpus in the page: the inverted index and its word ids,
//! the query language, the engine (ranking, facets, highlights, related
//! papers), and find by meaning at run time.

pub(crate) mod engine;
pub(crate) mod index;
pub(crate) mod kept;
pub(crate) mod meaning;
pub(crate) mod query;
pub(crate) mod word_packs;

pub use engine::{
    DocWords, Engine, Extra, ExtraCounts, Extras, Highlights, Hit, Hits, MatchClass, Matched,
    PaperPack, Related, RelatedSet, Response, Selection, Sort, BEST_MATCHES_BELOW,
    BEST_MATCH_SHARE, KEPT_PAPER_WORDS, MEANING_WEIGHT, ORDERED_FIRST, RELATED, RELATED_POOL,
};
pub use index::{
    fields, pack_file_name, Bytes, Index, IndexData, PackRef, Packed, PositionsRef, WordIds,
    WordPackRef, EAGER_POSTINGS_BYTES, PACK_BYTES,
};
pub use kept::kept_or_made;
pub use meaning::lists::{vectors_file_name, LISTS_FROM, LIST_PAPERS, PROBE_PAPERS, VECTORS_MAGIC};
pub use meaning::{paper_text, wordpiece, Explainer, Meaning, PaperWords, PiecesMemo, Vector};
pub use query::{parse as parse_query, Clause, Filter, Query, Term, MAX_QUERY_CHARS};
pub use word_packs::{words_file_name, WORD_PACK_BYTES};
