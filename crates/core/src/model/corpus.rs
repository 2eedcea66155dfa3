//! The corpus's types: lists, facets, papers with their text, style runs,
//! links and tags. The compiler writes them and the page reads them through
//! the one format derived from them (`frame.rs`).

use serde::{Deserialize, Serialize};

use crate::model::facet::FacetKind;

/// Text styles of a run, as bit flags.
pub mod style {
    /// Bold text.
    pub const BOLD: u8 = 1;
    /// Italic text.
    pub const ITALIC: u8 = 2;
    /// Inline code.
    pub const CODE: u8 = 4;
    /// A footnote.
    pub const FOOTNOTE: u8 = 8;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
/// A compiled corpus: what the app shows and searches.
///
/// ```
/// use explorer_core::build::compile_dir;
/// use explorer_core::Corpus;
///
/// let corpus = compile_dir(std::path::Path::new("../../corpus")).unwrap();
/// // The shipped format: the papers first, the index fetched after.
/// let parts = corpus.to_parts();
/// let papers = Corpus::from_papers_part(&parts.papers).unwrap();
/// assert_eq!(papers.papers, corpus.papers);
/// // Or whole, in one file.
/// assert_eq!(Corpus::from_bytes(&corpus.to_bytes()).unwrap(), corpus);
/// ```
pub struct Corpus {
    /// The source lists, one per input file.
    pub lists: Vec<List>,
    /// The facets, in [`crate::model::facet::FacetKind::ALL`]'s order.
    pub facets: Vec<Facet>,
    /// Why tags were given, each distinct reason once (“author” is the
    /// reason of most tags of a large corpus): [`Tag::reason`] indexes it.
    pub reasons: Vec<String>,
    /// The words that explain similar papers and what a region of the topic
    /// map is about ([`Similar::terms`] and [`Paper::keywords`] index it).
    pub similar_terms: Vec<String>,
    /// Where the papers' bodies are when they are not in the papers
    /// themselves: packs of consecutive papers ([`Corpus::in_body_packs`]).
    /// Empty when every paper holds its own body.
    pub body_packs: crate::model::PaperPacks,
    /// Where the papers' places on the topic map and their keywords are
    /// when they are not in the papers themselves: one file
    /// ([`Corpus::map_apart`]). `None` when every paper holds its own.
    pub map_part: Option<crate::model::MapPartRef>,
    /// Where the papers' tags are when they are not in the papers
    /// themselves: one file, for counting and filtering
    /// ([`Corpus::tags_apart`]; a card's own tags come with its body).
    /// `None` when every paper holds its own.
    pub tag_part: Option<crate::model::TagPartRef>,
    /// Where the papers' titles are when they are not in the papers
    /// themselves: packs of consecutive papers, and the title order
    /// ([`Corpus::titles_apart`]). `None` when every paper holds its own.
    pub titles: Option<crate::model::TitlesRef>,
    /// The papers, in list order.
    pub papers: Vec<Paper>,
    /// The search index over `papers`, built at compile time.
    pub index: crate::model::index_data::IndexData,
}

/// One source list (one input file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct List {
    /// File stem, unique within the corpus.
    pub key: String,
    /// The list name from the file's header line.
    pub name: String,
    /// Display label, disambiguated when two files share a name.
    pub label: String,
}

/// A facet: a named set of values a paper can be tagged with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facet {
    /// Which facet: its key, names and place ([`FacetKind`]).
    pub kind: FacetKind,
    /// Its values, in display order; [`Tag::value`] indexes them.
    pub values: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
/// One paper.
pub struct Paper {
    /// Stable id derived from the abstract's content, usable as a URL fragment.
    pub id: String,
    /// Index into [`Corpus::lists`].
    pub list: u32,
    /// 1-based line of the paragraph in its source file (0 in the head of
    /// a long list: it travels with the body, [`crate::model::Body::line`]).
    pub line: u32,
    /// Its title: the record's own, or derived from the abstract; empty
    /// when the titles are apart ([`Corpus::titles`]: the engine lends it,
    /// `Engine::title`).
    pub title: String,
    /// True when the title was derived from the abstract (the seeds have none).
    pub title_derived: bool,
    /// Author names, in the source's order (searchable, and a facet).
    pub authors: Vec<String>,
    /// Its year, when the record gives one.
    pub year: Option<u16>,
    /// The record's own links: its page, PDF and code.
    pub links: Vec<Link>,
    /// Visible text of the abstract: what is searched and highlighted.
    pub text: String,
    /// Consecutive runs covering `text`, each with how to render it.
    pub runs: Vec<Run>,
    /// Its facet values, each with why it was given.
    pub tags: Vec<Tag>,
    /// The most similar papers, nearest first (computed at build time).
    pub similar: Vec<Similar>,
    /// The paper's most telling terms, heaviest first: indexes into
    /// [`Corpus::similar_terms`].
    pub keywords: Vec<u32>,
    /// Its place on the topic map: x and y, 0 to 65,535 (build time).
    pub map: [u16; 2],
}

/// A paper similar to another, with the terms they share most.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Similar {
    /// Index into [`Corpus::papers`].
    pub doc: u32,
    /// Indexes into [`Corpus::similar_terms`], most telling first; unused
    /// places hold [`Similar::NO_TERM`]. A fixed array: 100,000 papers have
    /// half a million of these.
    pub terms: [u32; 3],
}

impl Similar {
    /// An unused slot of [`Similar::terms`].
    pub const NO_TERM: u32 = u32::MAX;
}

/// A run of visible text: `text[previous run's end .. end]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Byte offset in the paper's text where the run ends (it starts where the previous one ended).
    pub end: u32,
    /// How to render it.
    pub kind: RunKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
/// How a run of text is rendered.
pub enum RunKind {
    /// Plain or styled text.
    Text {
        /// Its [`style`] flags.
        style: u8,
    },
    /// Inline math; the run's visible text is its plain-text rendering, used
    /// for search and as the fallback when `mathml` is absent.
    Math {
        /// The formula as written.
        tex: String,
        /// Its MathML, when it rendered and passed the allow-list.
        mathml: Option<String>,
    },
    /// An http(s) link; the run's visible text is what is shown.
    Link {
        /// Where it points.
        href: String,
        /// Its [`style`] flags.
        style: u8,
    },
}

/// A link given by a record's `url`, `pdf` or `code` field (http/https only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// What the link is to.
    pub kind: LinkKind,
    /// Its address.
    pub href: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
/// What a record's link is to.
pub enum LinkKind {
    /// The paper's page.
    Page,
    /// Its PDF.
    Pdf,
    /// Its code.
    Code,
}

impl LinkKind {
    /// Its label on the card.
    pub fn label(self) -> &'static str {
        match self {
            LinkKind::Page => "Page",
            LinkKind::Pdf => "PDF",
            LinkKind::Code => "Code",
        }
    }
}

/// Whether a URL is an absolute http(s) link (the only links kept).
pub(crate) fn is_web_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        && url.len() > 8
        && !url.contains(char::is_whitespace)
}

/// A facet value assigned to a paper, with the reason shown on hover.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tag {
    /// The facet: its index in [`Corpus::facets`].
    pub facet: u32,
    /// The value: its index in the facet's values.
    pub value: u32,
    /// Index into [`Corpus::reasons`].
    pub reason: u32,
}

impl Corpus {
    /// The unique list names, in order: the page title and heading.
    pub fn title(&self) -> String {
        let mut names: Vec<&str> = Vec::new();
        for l in &self.lists {
            if !names.contains(&l.name.as_str()) {
                names.push(&l.name);
            }
        }
        names.join(" · ")
    }

    /// The shared terms explaining similar paper `s` of a paper whose
    /// body is in the papers part (a body from a pack names its own:
    /// [`crate::model::BodyRef::shared_terms`]).
    pub fn shared_terms<'a>(&'a self, s: &'a Similar) -> impl Iterator<Item = &'a str> + 'a {
        crate::model::body::words_of(&self.similar_terms, s)
    }

    /// Why a tag was given (empty for a tag not from this corpus, or when
    /// the reasons are in packs: [`Corpus::tag_reason`]).
    pub fn reason(&self, tag: &Tag) -> &str {
        self.reasons
            .get(tag.reason as usize)
            .map_or("", String::as_str)
    }

    /// Why a paper's tag `i` (`tag`) was given: from the paper's `body`
    /// when it came in a pack, else from the table; empty while a body in a
    /// pack is on its way.
    pub fn tag_reason<'a>(
        &'a self,
        body: Option<crate::model::BodyRef<'a>>,
        i: usize,
        tag: &Tag,
    ) -> &'a str {
        match body {
            Some(b) if !b.reasons.is_empty() => b.reasons.get(i).map_or("", String::as_str),
            _ => self.reason(tag),
        }
    }

    /// A facet selection as `key:label` pairs, in facet order (the form of
    /// filters in a query and of the `<paper-explorer facets>` attribute).
    pub fn selection_pairs(&self, selection: &[Vec<u32>]) -> Vec<String> {
        self.selected(selection)
            .map(|(kind, label)| format!("{}:{label}", kind.key()))
            .collect()
    }

    /// Each selected value of a facet selection as its facet's kind and
    /// its label, in facet order (values this corpus lacks are skipped).
    pub fn selected<'a>(
        &'a self,
        selection: &'a [Vec<u32>],
    ) -> impl Iterator<Item = (FacetKind, &'a str)> + 'a {
        selection
            .iter()
            .zip(&self.facets)
            .flat_map(|(values, facet)| {
                values.iter().filter_map(move |&v| {
                    let label = facet.values.get(v as usize)?;
                    Some((facet.kind, label.as_str()))
                })
            })
    }

    /// Where the facet of this kind is in [`Corpus::facets`].
    pub fn facet_index(&self, kind: FacetKind) -> Option<usize> {
        self.facets.iter().position(|f| f.kind == kind)
    }

    /// The facet of this kind.
    pub fn facet(&self, kind: FacetKind) -> Option<&Facet> {
        self.facet_index(kind).map(|i| &self.facets[i])
    }

    /// A paper's values of one facet, in its tags' order.
    pub fn values_of<'a>(
        &'a self,
        paper: &'a Paper,
        kind: FacetKind,
    ) -> impl Iterator<Item = &'a str> + 'a {
        let f = self.facet_index(kind);
        paper
            .tags
            .iter()
            .filter(move |t| Some(t.facet as usize) == f)
            .filter_map(move |t| {
                let values = &self.facets[t.facet as usize].values;
                values.get(t.value as usize).map(String::as_str)
            })
    }
}
