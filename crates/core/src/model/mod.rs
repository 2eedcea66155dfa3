//! What the build and the page share: the corpus's types, the binary format
//! it is compiled to and decoded from, the facet schema, and the text
//! normalizer (folding, stemming, tokens) that both sides must agree on.

pub(crate) mod body;
pub(crate) mod corpus;
pub(crate) mod decode;
pub(crate) mod facet;
pub(crate) mod frame;
pub(crate) mod index_data;
pub(crate) mod map_part;
pub(crate) mod math;
pub mod opened;
pub(crate) mod tag_part;
pub(crate) mod text;
pub(crate) mod titles;

pub use body::{
    body_pack_file_name, body_pack_papers, Body, BodyRef, PaperPack, PaperPackRef, PaperPacks,
    BODIES_APART_FROM, BODY_MAGIC,
};
pub(crate) use corpus::is_web_url;
pub use corpus::{style, Corpus, Facet, Link, LinkKind, List, Paper, Run, RunKind, Similar, Tag};
pub use decode::PapersDecoder;
pub use facet::FacetKind;
pub use frame::{
    check_named, content_hash, file_name, is_name_hash, kind_of_file, Corrupt, DecodeError, Parts,
    FETCHED_ON_FIRST_USE, FORMAT_VERSION,
};
pub(crate) use frame::{frame, nothing_after, unframe};
pub use map_part::{map_part_file_name, MapPart, MapPartRef, MAP_MAGIC};
pub use tag_part::{tag_part_file_name, TagPartRef, TAG_MAGIC};
pub use text::{fold, set_decompose, tokenize, words, Decompose, Token};
pub use titles::{
    title_order_file_name, title_pack_file_name, title_pack_papers, Titles, TitlesRef, TITLE_MAGIC,
    TITLE_ORDER_MAGIC,
};

/// The seed lists, compiled (for unit tests of the shipped parts).
#[cfg(test)]
pub(crate) fn seeds() -> Corpus {
    crate::build::compile_dir(std::path::Path::new("../../corpus")).expect("the seeds compile")
}
