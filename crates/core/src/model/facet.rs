//! The facet schema: which facets a corpus has, in what order, under which
//! key (URLs and `key:value` filters) and which name (English and Chinese).
//!
//! One type for the compiler, the engine, the exports, the cards, the topic
//! map and the string tables, so that no key is retyped as a literal.

use serde::{Deserialize, Serialize};

/// A kind of facet. Every compiled corpus has each of them once, in the
/// order of [`FacetKind::ALL`] (a facet may have no values).
///
/// ```
/// use explorer_core::FacetKind;
/// assert_eq!(FacetKind::from_key("venue"), Some(FacetKind::Venue));
/// assert_eq!(FacetKind::Venue.key(), "venue");
/// assert_eq!(FacetKind::Author.name_zh(), "作者");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FacetKind {
    /// The taxonomy's topics, tagged from the text.
    Topic,
    /// The kind of contribution (benchmark, theory, …), tagged from the text.
    Contribution,
    /// The record's primary area.
    Area,
    /// The record's venue or decision (oral, poster, …).
    Venue,
    /// The record's own keywords.
    Keyword,
    /// The authors.
    Author,
    /// The year, newest first.
    Year,
    /// Released artifacts: a link to code.
    Code,
    /// The source list (one input file).
    List,
    /// Acronyms the abstract defines.
    Acronym,
}

/// The query key that filters on every facet at once (`tag:agents`).
pub const ANY_FACET: &str = "tag";

impl FacetKind {
    /// Every kind, in the order facets are stored and shown.
    pub const ALL: [FacetKind; 10] = [
        FacetKind::Topic,
        FacetKind::Contribution,
        FacetKind::Area,
        FacetKind::Venue,
        FacetKind::Keyword,
        FacetKind::Author,
        FacetKind::Year,
        FacetKind::Code,
        FacetKind::List,
        FacetKind::Acronym,
    ];

    /// The value of [`FacetKind::Code`] a paper with a code link has.
    pub const CODE_RELEASED: &'static str = "Code released";

    /// Short key used in URLs, in `key:value` filters and in exports.
    pub const fn key(self) -> &'static str {
        match self {
            FacetKind::Topic => "topic",
            FacetKind::Contribution => "type",
            FacetKind::Area => "area",
            FacetKind::Venue => "venue",
            FacetKind::Keyword => "keyword",
            FacetKind::Author => "author",
            FacetKind::Year => "year",
            FacetKind::Code => "code",
            FacetKind::List => "list",
            FacetKind::Acronym => "acronym",
        }
    }

    /// The kind with this key (exact, as written in URLs and filters).
    pub fn from_key(key: &str) -> Option<FacetKind> {
        FacetKind::ALL.into_iter().find(|k| k.key() == key)
    }

    /// Its position in [`FacetKind::ALL`]: the facet's index in a
    /// compiled corpus, and [`crate::model::Tag::facet`] of its tags.
    pub const fn id(self) -> u32 {
        self as u32
    }

    /// The name shown in the English interface.
    pub const fn name_en(self) -> &'static str {
        match self {
            FacetKind::Topic => "Topic",
            FacetKind::Contribution => "Contribution",
            FacetKind::Area => "Primary area",
            FacetKind::Venue => "Venue / status",
            FacetKind::Keyword => "Keywords",
            FacetKind::Author => "Authors",
            FacetKind::Year => "Year",
            FacetKind::Code => "Artifacts",
            FacetKind::List => "List",
            FacetKind::Acronym => "Acronyms",
        }
    }

    /// The name shown in the Chinese interface.
    pub const fn name_zh(self) -> &'static str {
        match self {
            FacetKind::Topic => "主题",
            FacetKind::Contribution => "贡献类型",
            FacetKind::Area => "主要领域",
            FacetKind::Venue => "会议 / 状态",
            FacetKind::Keyword => "关键词",
            FacetKind::Author => "作者",
            FacetKind::Year => "年份",
            FacetKind::Code => "资源",
            FacetKind::List => "列表",
            FacetKind::Acronym => "缩写",
        }
    }

    /// Other words a filter may use for a value: `code:yes` for
    /// "Code released".
    pub(crate) fn aliases(self, value: &str) -> &'static [&'static str] {
        match self {
            FacetKind::Code if value == FacetKind::CODE_RELEASED => &["yes"],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_round_trip() {
        for (i, k) in FacetKind::ALL.into_iter().enumerate() {
            assert_eq!(k.id() as usize, i, "ALL is in declaration order");
            assert_eq!(FacetKind::from_key(k.key()), Some(k));
            assert_ne!(k.key(), ANY_FACET);
        }
        assert_eq!(FacetKind::from_key("Topic"), None, "keys are exact");
        assert_eq!(FacetKind::from_key(""), None);
    }
}
