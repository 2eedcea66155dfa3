//! The compiled corpus: the one binary format shared by the build-time
//! compiler (which writes it) and the app (which decodes it once at start-up).
//! Both directions are derived from these types, so the format is defined in
//! exactly one place.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::model::facet::FacetKind;

/// File magic of a compiled corpus's first part: everything but the index.
pub const MAGIC: &[u8; 4] = b"PXC\x01";
/// File magic of its second part: the search index.
pub const INDEX_MAGIC: &[u8; 4] = b"PXI\x01";
/// Bumped whenever a type below changes shape; old blobs are rejected cleanly.
pub const FORMAT_VERSION: u16 = 8;

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
/// use explorer_core::compile_dir;
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
    /// The papers, in list order.
    pub papers: Vec<Paper>,
    /// The search index over `papers`, built at compile time.
    pub index: crate::search::index::IndexData,
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
    /// 1-based line of the paragraph in its source file.
    pub line: u32,
    /// Its title: the record's own, or derived from the abstract.
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
pub fn is_web_url(url: &str) -> bool {
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

#[derive(Debug, Clone, PartialEq, Eq)]
/// Why bytes are not a corpus this version can read.
pub enum DecodeError {
    /// Not a compiled corpus (its magic is wrong).
    BadMagic,
    /// A corpus of another format version.
    Version {
        /// The version the bytes have.
        found: u16,
        /// The version this build reads ([`FORMAT_VERSION`]).
        expected: u16,
    },
    /// A corpus, but damaged: what is wrong.
    Corrupt(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::BadMagic => write!(f, "not a compiled corpus (bad magic)"),
            DecodeError::Version { found, expected } => write!(
                f,
                "compiled corpus has format version {found}, this build reads {expected}"
            ),
            DecodeError::Corrupt(e) => write!(f, "compiled corpus is corrupt: {e}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// A compiled corpus in its two parts, each a frame of its own (magic,
/// format version, an xxh3 checksum of the rest, the byte lengths of its
/// pieces as u32 little-endian, the pieces): the papers — everything the
/// first results need — and the search index, which the app fetches after
/// them. [`Corpus::to_bytes`] is the one followed by the other.
pub struct Parts {
    /// One piece: the corpus without its index (postcard).
    pub papers: Vec<u8>,
    /// Four pieces: the index's own fields (postcard), then its two `fst`
    /// maps and its postings, used where they lie.
    pub index: Vec<u8>,
}

pub(crate) fn frame(magic: &[u8; 4], pieces: &[&[u8]]) -> Vec<u8> {
    let mut rest = Vec::new();
    for p in pieces {
        let len = u32::try_from(p.len()).expect("a corpus piece under 4 GB");
        rest.extend_from_slice(&len.to_le_bytes());
    }
    for p in pieces {
        rest.extend_from_slice(p);
    }
    let mut out = magic.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&rest).to_le_bytes());
    out.extend_from_slice(&rest);
    out
}

/// The `N` pieces of the frame at the start of `bytes`, and what follows
/// the frame. Every length is checked against what is there, and the
/// checksum before anything is read: the index's automata are used as they
/// lie, and `fst` trusts its bytes.
pub(crate) fn unframe<'a, const N: usize>(
    magic: &[u8; 4],
    bytes: &'a [u8],
) -> Result<([&'a [u8]; N], &'a [u8]), DecodeError> {
    let rest = bytes.strip_prefix(magic).ok_or(DecodeError::BadMagic)?;
    let truncated = || DecodeError::Corrupt("truncated".into());
    let (version, rest) = rest.split_at_checked(2).ok_or_else(truncated)?;
    let found = u16::from_le_bytes([version[0], version[1]]);
    if found != FORMAT_VERSION {
        return Err(DecodeError::Version {
            found,
            expected: FORMAT_VERSION,
        });
    }
    let (sum, mut rest) = rest.split_at_checked(8).ok_or_else(truncated)?;
    let sum = u64::from_le_bytes(sum.try_into().map_err(|_| truncated())?);
    let mut lens = [0usize; N];
    let mut framed = 0usize;
    for len in &mut lens {
        let (l, after) = rest.split_at_checked(4).ok_or_else(truncated)?;
        *len = u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize;
        framed = framed.checked_add(*len).ok_or_else(truncated)?;
        rest = after;
    }
    let (body, after) = rest.split_at_checked(framed).ok_or_else(truncated)?;
    let checked = &bytes[magic.len() + 2 + 8..magic.len() + 2 + 8 + 4 * N + framed];
    if xxhash_rust::xxh3::xxh3_64(checked) != sum {
        return Err(DecodeError::Corrupt("checksum mismatch".into()));
    }
    let mut pieces = [&[][..]; N];
    let mut body = body;
    for (piece, len) in pieces.iter_mut().zip(lens) {
        let (p, after) = body.split_at(len);
        *piece = p;
        body = after;
    }
    Ok((pieces, after))
}

/// A part must be all there is of what was handed in.
pub(crate) fn nothing_after(rest: &[u8]) -> Result<(), DecodeError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(DecodeError::Corrupt("trailing bytes".into()))
    }
}

/// The fields of [`Corpus`] before its papers, in its order: postcard
/// writes a struct as its fields one after another, so a papers part is
/// this, the number of papers, each paper, then the (empty) index. A test
/// decodes real corpora both ways.
#[derive(Deserialize)]
struct Head {
    lists: Vec<List>,
    facets: Vec<Facet>,
    reasons: Vec<String>,
    similar_terms: Vec<String>,
}

/// Where a [`PapersDecoder`] is in the part.
#[derive(Default)]
enum Stage {
    /// Reading the frame: magic, version, checksum, the body's length.
    #[default]
    Frame,
    /// The fields before the papers.
    Head,
    /// How many papers.
    Count,
    /// This many papers still to come.
    Papers(usize),
    /// The index's place (empty in a papers part).
    Index,
    /// The whole part is read.
    Done,
}

/// Decodes a papers part ([`Parts::papers`]) handed over in pieces of any
/// size, as the page copies it into WebAssembly memory a window at a time:
/// the part's bytes are never all in memory beside the papers decoded from
/// them (at 20,000 papers, 38 MB of bytes beside 50 MB of papers set the
/// page's memory for good). Its result is [`Corpus::from_papers_part`]'s,
/// which is this decoder handed everything at once.
///
/// ```
/// use explorer_core::model::PapersDecoder;
/// use explorer_core::Corpus;
///
/// let corpus = explorer_core::compile_dir(std::path::Path::new("../../corpus")).unwrap();
/// let part = corpus.to_parts().papers;
/// let mut decoder = PapersDecoder::default();
/// for window in part.chunks(1000) {
///     assert_eq!(decoder.push(window).unwrap(), window.len());
/// }
/// assert_eq!(decoder.finish().unwrap().papers, corpus.papers);
/// ```
#[derive(Default)]
pub struct PapersDecoder {
    stage: Stage,
    /// Bytes handed over and not yet decoded (a paper cut by a window's end).
    pending: Vec<u8>,
    /// The body's length and checksum, from the frame.
    body: usize,
    sum: u64,
    /// Body bytes handed over so far.
    seen: usize,
    hasher: xxhash_rust::xxh3::Xxh3,
    head: Option<Head>,
    papers: Vec<Paper>,
    index: crate::search::index::IndexData,
}

/// The frame before a papers part's body: magic, version, checksum and the
/// one piece's length.
const FRAME: usize = 4 + 2 + 8 + 4;

impl PapersDecoder {
    /// Takes the next bytes of the part and decodes every paper they
    /// complete. Returns how many it took: all of them, unless the part
    /// ends inside them (what follows is not this part's).
    pub fn push(&mut self, bytes: &[u8]) -> Result<usize, DecodeError> {
        let mut taken = 0;
        if matches!(self.stage, Stage::Frame) {
            let need = FRAME - self.pending.len();
            let now = need.min(bytes.len());
            self.pending.extend_from_slice(&bytes[..now]);
            taken = now;
            // Another file is named as soon as its first bytes show it.
            let magic = self.pending.len().min(MAGIC.len());
            if self.pending[..magic] != MAGIC[..magic] {
                return Err(DecodeError::BadMagic);
            }
            if self.pending.len() < FRAME {
                return Ok(taken);
            }
            let frame = std::mem::take(&mut self.pending);
            let rest = frame.strip_prefix(MAGIC).ok_or(DecodeError::BadMagic)?;
            let found = u16::from_le_bytes([rest[0], rest[1]]);
            if found != FORMAT_VERSION {
                return Err(DecodeError::Version {
                    found,
                    expected: FORMAT_VERSION,
                });
            }
            self.sum = u64::from_le_bytes(rest[2..10].try_into().expect("eight bytes"));
            self.body = u32::from_le_bytes(rest[10..14].try_into().expect("four bytes")) as usize;
            self.hasher.update(&rest[10..14]);
            self.stage = Stage::Head;
        }
        let now = (self.body - self.seen).min(bytes.len() - taken);
        let body = &bytes[taken..taken + now];
        self.hasher.update(body);
        self.seen += now;
        self.pending.extend_from_slice(body);
        self.decode()?;
        Ok(taken + now)
    }

    /// Decodes what the pending bytes complete, and keeps the rest.
    fn decode(&mut self) -> Result<(), DecodeError> {
        let corrupt = |e: postcard::Error| DecodeError::Corrupt(e.to_string());
        let pending = std::mem::take(&mut self.pending);
        let mut at = &pending[..];
        loop {
            // Each step takes one item from `at`, or stops at a cut one.
            let step = match self.stage {
                Stage::Frame | Stage::Done => break,
                Stage::Head => postcard::take_from_bytes::<Head>(at).map(|(head, rest)| {
                    self.head = Some(head);
                    self.stage = Stage::Count;
                    rest
                }),
                Stage::Count => postcard::take_from_bytes::<usize>(at).map(|(n, rest)| {
                    // Every paper takes more than eight bytes: a count the
                    // body cannot hold reserves no more than it can.
                    self.papers.reserve_exact(n.min(self.body / 8));
                    self.stage = Stage::Papers(n);
                    rest
                }),
                Stage::Papers(0) => {
                    self.stage = Stage::Index;
                    Ok(at)
                }
                Stage::Papers(n) => postcard::take_from_bytes::<Paper>(at).map(|(p, rest)| {
                    self.papers.push(p);
                    self.stage = Stage::Papers(n - 1);
                    rest
                }),
                Stage::Index => postcard::take_from_bytes::<crate::search::index::IndexData>(at)
                    .map(|(index, rest)| {
                        self.index = index;
                        self.stage = Stage::Done;
                        rest
                    }),
            };
            match step {
                Ok(rest) => at = rest,
                Err(postcard::Error::DeserializeUnexpectedEnd) if self.seen < self.body => break,
                Err(e) => return Err(corrupt(e)),
            }
        }
        self.pending = at.to_vec();
        Ok(())
    }

    /// The corpus (with an empty index), once the whole part has been
    /// handed over: its checksum matches, nothing is left over, and every
    /// id inside points at something that exists.
    pub fn finish(self) -> Result<Corpus, DecodeError> {
        let truncated = || DecodeError::Corrupt("truncated".into());
        if matches!(self.stage, Stage::Frame) || self.seen < self.body {
            return Err(truncated());
        }
        if self.hasher.digest() != self.sum {
            return Err(DecodeError::Corrupt("checksum mismatch".into()));
        }
        let (Stage::Done, Some(head)) = (self.stage, self.head) else {
            return Err(truncated());
        };
        if !self.pending.is_empty() {
            return Err(DecodeError::Corrupt("trailing bytes".into()));
        }
        let corpus = Corpus {
            lists: head.lists,
            facets: head.facets,
            reasons: head.reasons,
            similar_terms: head.similar_terms,
            papers: self.papers,
            index: self.index,
        };
        corpus.check().map_err(DecodeError::Corrupt)?;
        Ok(corpus)
    }
}

impl crate::search::index::IndexData {
    /// Decodes an index part ([`Parts::index`]) that lives as long as the
    /// program: its automata and postings are used where they lie.
    pub fn from_static(bytes: &'static [u8]) -> Result<Self, DecodeError> {
        let (data, rest) = Self::decode(bytes, Cow::Borrowed)?;
        nothing_after(rest)?;
        Ok(data)
    }

    fn decode<'a>(
        bytes: &'a [u8],
        keep: impl Fn(&'a [u8]) -> crate::search::index::Bytes,
    ) -> Result<(Self, &'a [u8]), DecodeError> {
        let (pieces, rest) = unframe::<4>(INDEX_MAGIC, bytes)?;
        let mut data: Self =
            postcard::from_bytes(pieces[0]).map_err(|e| DecodeError::Corrupt(e.to_string()))?;
        for (section, piece) in data.sections_mut().into_iter().zip(&pieces[1..]) {
            *section = keep(piece);
        }
        Ok((data, rest))
    }
}

impl Corpus {
    /// The compiled corpus in its two parts.
    pub fn to_parts(&self) -> Parts {
        let papers = postcard::to_allocvec(&Corpus {
            index: Default::default(),
            ..self.clone()
        })
        .expect("corpus serializes");
        let own = postcard::to_allocvec(&self.index).expect("index serializes");
        let [stems, surface, postings] = self.index.sections();
        Parts {
            papers: frame(MAGIC, &[&papers]),
            index: frame(INDEX_MAGIC, &[&own, stems, surface, postings]),
        }
    }

    /// The compiled corpus as one file: its papers part, then its index part.
    pub fn to_bytes(&self) -> Vec<u8> {
        let Parts { mut papers, index } = self.to_parts();
        papers.extend_from_slice(&index);
        papers
    }

    /// Decodes a compiled corpus (both parts), copying the index sections.
    pub fn from_bytes(bytes: &[u8]) -> Result<Corpus, DecodeError> {
        Corpus::decode(bytes, |s| Cow::Owned(s.to_vec()))
    }

    /// Decodes a compiled corpus (both parts) that lives as long as the
    /// program: the index sections are used where they lie.
    pub fn from_static(bytes: &'static [u8]) -> Result<Corpus, DecodeError> {
        Corpus::decode(bytes, Cow::Borrowed)
    }

    fn decode<'a>(
        bytes: &'a [u8],
        keep: impl Fn(&'a [u8]) -> crate::search::index::Bytes,
    ) -> Result<Corpus, DecodeError> {
        let (mut corpus, rest) = Corpus::decode_papers(bytes)?;
        let (index, rest) = crate::search::index::IndexData::decode(rest, keep)?;
        nothing_after(rest)?;
        if index.doc_len.len() != corpus.papers.len() {
            return Err(DecodeError::Corrupt("index and papers disagree".into()));
        }
        corpus.index = index;
        Ok(corpus)
    }

    /// Decodes a papers part ([`Parts::papers`]) alone: the corpus with an
    /// empty index, for the first results while the index is on its way.
    /// Nothing of `bytes` is kept.
    pub fn from_papers_part(bytes: &[u8]) -> Result<Corpus, DecodeError> {
        let (corpus, rest) = Corpus::decode_papers(bytes)?;
        nothing_after(rest)?;
        Ok(corpus)
    }

    fn decode_papers(bytes: &[u8]) -> Result<(Corpus, &[u8]), DecodeError> {
        let mut decoder = PapersDecoder::default();
        let taken = decoder.push(bytes)?;
        Ok((decoder.finish()?, &bytes[taken..]))
    }

    /// Every id inside the corpus points at something that exists: tags at
    /// facet values and reasons, similar papers at papers, terms at terms,
    /// runs inside their text on character boundaries. Decoding checks it,
    /// so that nothing later indexes out of range.
    fn check(&self) -> Result<(), String> {
        for (i, f) in self.facets.iter().enumerate() {
            if self.facets[..i].iter().any(|g| g.kind == f.kind) {
                return Err(format!("facet {} twice", f.kind.key()));
            }
        }
        let n = self.papers.len();
        let terms = self.similar_terms.len();
        for (d, p) in self.papers.iter().enumerate() {
            let bad = |what: &str| Err(format!("paper {d}: {what} out of range"));
            if p.list as usize >= self.lists.len() {
                return bad("list");
            }
            for t in &p.tags {
                let values = self.facets.get(t.facet as usize).map(|f| f.values.len());
                if values.is_none_or(|v| (t.value as usize) >= v)
                    || t.reason as usize >= self.reasons.len()
                {
                    return bad("tag");
                }
            }
            for s in &p.similar {
                if s.doc as usize >= n
                    || s.terms
                        .iter()
                        .any(|&t| t != Similar::NO_TERM && t as usize >= terms)
                {
                    return bad("similar paper");
                }
            }
            if p.keywords.iter().any(|&k| k as usize >= terms) {
                return bad("keyword");
            }
            let mut last = 0u32;
            for r in &p.runs {
                if r.end < last
                    || r.end as usize > p.text.len()
                    || !p.text.is_char_boundary(r.end as usize)
                {
                    return bad("run");
                }
                last = r.end;
            }
        }
        Ok(())
    }

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

    /// The shared terms explaining a similar paper.
    pub fn shared_terms<'a>(&'a self, s: &'a Similar) -> impl Iterator<Item = &'a str> + 'a {
        s.terms
            .iter()
            .filter(|&&t| t != Similar::NO_TERM)
            .filter_map(|&t| self.similar_terms.get(t as usize).map(String::as_str))
    }

    /// Why a tag was given (empty for a tag not from this corpus).
    pub fn reason(&self, tag: &Tag) -> &str {
        self.reasons
            .get(tag.reason as usize)
            .map_or("", String::as_str)
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

impl Paper {
    /// The runs with their byte ranges in [`Paper::text`].
    pub fn run_ranges(&self) -> impl Iterator<Item = (std::ops::Range<usize>, &RunKind)> {
        let mut start = 0usize;
        self.runs.iter().map(move |r| {
            let range = start..r.end as usize;
            start = r.end as usize;
            (range, &r.kind)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Corpus {
        Corpus {
            lists: vec![List {
                key: "a".into(),
                name: "A".into(),
                label: "A".into(),
            }],
            facets: vec![],
            reasons: vec![],
            similar_terms: vec![],
            papers: vec![],
            index: Default::default(),
        }
    }

    #[test]
    fn round_trips_and_rejects_other_versions() {
        let c = tiny();
        let mut bytes = c.to_bytes();
        assert_eq!(Corpus::from_bytes(&bytes).unwrap(), c);
        bytes[4] = 99;
        assert!(matches!(
            Corpus::from_bytes(&bytes),
            Err(DecodeError::Version { found: 99, .. })
        ));
        assert_eq!(Corpus::from_bytes(b"nope"), Err(DecodeError::BadMagic));
        assert!(Corpus::from_bytes(&c.to_bytes()[..7]).is_err());
    }

    #[test]
    fn ids_out_of_range_are_decode_errors() {
        let mut c = tiny();
        c.index.doc_len = vec![[1, 1, 0]];
        c.papers.push(Paper {
            id: "p-1".into(),
            list: 0,
            line: 3,
            title: "T".into(),
            title_derived: true,
            authors: vec![],
            year: None,
            links: vec![],
            text: "é".into(),
            runs: vec![Run {
                end: 2,
                kind: RunKind::Text { style: 0 },
            }],
            tags: vec![],
            similar: vec![],
            keywords: vec![],
            map: [0, 0],
        });
        assert!(Corpus::from_bytes(&c.to_bytes()).is_ok());
        let corrupt = |f: &dyn Fn(&mut Corpus)| {
            let mut bad = c.clone();
            f(&mut bad);
            Corpus::from_bytes(&bad.to_bytes())
        };
        let is_corrupt = |r: Result<Corpus, DecodeError>| matches!(r, Err(DecodeError::Corrupt(_)));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].list = 7)));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].similar.push(
            Similar {
                doc: 9,
                terms: [Similar::NO_TERM; 3]
            }
        ))));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].keywords.push(0))));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].tags.push(Tag {
            facet: 0,
            value: 0,
            reason: 0
        }))));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].runs[0].end = 1)));
        assert!(is_corrupt(corrupt(&|b| b.index.doc_len.clear())));
    }

    #[test]
    fn the_two_parts_decode_apart_and_together() {
        let mut c = tiny();
        c.index.stems = vec![1, 2, 3].into();
        c.index.postings = vec![9; 40].into();
        let parts = c.to_parts();
        let mut whole = parts.papers.clone();
        whole.extend_from_slice(&parts.index);
        assert_eq!(whole, c.to_bytes());
        let papers = Corpus::from_papers_part(&parts.papers).unwrap();
        assert_eq!(papers.lists, c.lists);
        assert_eq!(papers.index, Default::default());
        let index: &'static [u8] = Box::leak(parts.index.into_boxed_slice());
        let data = crate::search::index::IndexData::from_static(index).unwrap();
        assert_eq!(data, c.index);
        assert!(matches!(data.postings, Cow::Borrowed(_)));
        // Each part is refused where the other is expected.
        assert_eq!(Corpus::from_papers_part(index), Err(DecodeError::BadMagic));
        assert!(Corpus::from_papers_part(&c.to_bytes()).is_err());
    }

    /// Handed over a byte at a time, in windows of any size, or at once,
    /// a papers part decodes to the same corpus; cut anywhere, or with a
    /// byte changed, it is an error; what follows the part is not taken.
    #[test]
    fn a_papers_part_decodes_alike_in_windows_of_any_size() {
        let mut c = tiny();
        c.reasons = vec!["a reason".into(); 3];
        c.papers = (0..40)
            .map(|i| {
                let text = "é".repeat(i);
                Paper {
                    id: format!("p{i}"),
                    list: 0,
                    line: i as u32,
                    title: format!("Paper {i}"),
                    title_derived: i % 2 == 0,
                    authors: vec!["A. Author".into(); i % 3],
                    year: Some(2026),
                    links: vec![],
                    runs: vec![Run {
                        end: text.len() as u32,
                        kind: RunKind::Text { style: 0 },
                    }],
                    text,
                    tags: vec![],
                    similar: vec![],
                    keywords: vec![],
                    map: [i as u16, 0],
                }
            })
            .collect();
        let part = c.to_parts().papers;
        let whole = Corpus::from_papers_part(&part).unwrap();
        assert_eq!(whole.papers, c.papers);
        assert_eq!(whole.reasons, c.reasons);
        for size in [1, 2, 3, 7, 18, 19, 64, 1000, part.len()] {
            let mut d = PapersDecoder::default();
            for window in part.chunks(size) {
                assert_eq!(d.push(window).unwrap(), window.len());
            }
            assert_eq!(d.finish().unwrap(), whole, "windows of {size}");
        }
        for end in 0..part.len() {
            let mut d = PapersDecoder::default();
            let pushed = d.push(&part[..end]);
            assert!(pushed.and_then(|_| d.finish()).is_err(), "cut at {end}");
        }
        for at in 0..part.len() {
            let mut changed = part.clone();
            changed[at] ^= 0x20;
            assert!(Corpus::from_papers_part(&changed).is_err(), "byte {at}");
        }
        let mut longer = part.clone();
        longer.extend_from_slice(b"next");
        let mut d = PapersDecoder::default();
        assert_eq!(d.push(&longer).unwrap(), part.len());
        assert_eq!(d.finish().unwrap(), whole);
    }

    #[test]
    fn index_sections_are_used_in_place_and_every_truncation_is_an_error() {
        let mut c = tiny();
        c.index.stems = vec![1, 2, 3].into();
        c.index.postings = vec![9; 40].into();
        let bytes: &'static [u8] = Box::leak(c.to_bytes().into_boxed_slice());
        let borrowed = Corpus::from_static(bytes).unwrap();
        assert_eq!(borrowed, c);
        assert!(matches!(borrowed.index.postings, Cow::Borrowed(_)));
        assert!(matches!(
            Corpus::from_bytes(bytes).unwrap().index.postings,
            Cow::Owned(_)
        ));
        for end in 0..bytes.len() {
            assert!(Corpus::from_bytes(&bytes[..end]).is_err(), "cut at {end}");
        }
        let mut longer = bytes.to_vec();
        longer.push(0);
        assert!(Corpus::from_bytes(&longer).is_err());
    }
}
