//! Each paper's tags: the taxonomy's topics and contribution kinds from its
//! words, the record's own fields (area, venue, keywords, authors, year),
//! a code link, its list and the acronyms it defines. Then the facets, with
//! their values in display order.

use std::collections::{BTreeSet, HashMap};

use crate::build::acronym::{acronym_key, definitions, is_facet_acronym};
use crate::build::markup::Markup;
use crate::build::records::Record;
use crate::build::tags::{is_code_link, Matcher, Taxonomy};
use crate::model::facet::FacetKind;
use crate::model::text::Token;
use crate::model::{Facet, List, Paper, RunKind, Tag};

/// Tags papers one by one, collecting the facets' values as it goes.
pub(super) struct Tagger {
    topics: Vec<Matcher>,
    kinds: Vec<Matcher>,
    facets: Facets,
    reasons: FacetBuilder,
    /// Acronym and year values are sorted once every paper is tagged: the
    /// tags waiting for their value id, as (paper, tag, value).
    acronyms: BTreeSet<String>,
    pending_acronyms: Vec<(usize, usize, String)>,
    years: BTreeSet<u16>,
    pending_years: Vec<(usize, usize, u16)>,
}

impl Tagger {
    pub(super) fn new(taxonomy: &Taxonomy, lists: &[List]) -> Tagger {
        let topics: Vec<Matcher> = taxonomy.topics.iter().map(Matcher::new).collect();
        let kinds: Vec<Matcher> = taxonomy.contributions.iter().map(Matcher::new).collect();
        let facets = Facets {
            topic: FacetBuilder::with_values(topics.iter().map(|m| m.name.clone())),
            kind: FacetBuilder::with_values(kinds.iter().map(|m| m.name.clone())),
            list: FacetBuilder::with_values(lists.iter().map(|l| l.label.clone())),
            ..Facets::default()
        };
        Tagger {
            topics,
            kinds,
            facets,
            reasons: FacetBuilder::default(),
            acronyms: BTreeSet::new(),
            pending_acronyms: Vec::new(),
            years: BTreeSet::new(),
            pending_years: Vec::new(),
        }
    }

    /// The tags of paper number `doc`, from its record, its parsed abstract
    /// and the tokens tagging reads (`tokens`), in list `list`; `origin`
    /// says where it stands in its source (the list tag's reason).
    pub(super) fn tag(
        &mut self,
        doc: usize,
        rec: &Record,
        m: &Markup,
        tokens: &[Token],
        list: u32,
        origin: String,
    ) -> Vec<Tag> {
        let mut tags = Vec::new();
        let reasons = &mut self.reasons;
        let f = &mut self.facets;
        let mut tag = |facet: u32, value: u32, reason: String| Tag {
            facet,
            value,
            reason: reasons.id(&reason),
        };
        for rule in &self.topics {
            if let Some(reason) = rule.apply(tokens) {
                tags.push(tag(F_TOPIC, f.topic.id(&rule.name), reason));
            }
        }
        for rule in &self.kinds {
            if let Some(reason) = rule.apply(tokens) {
                tags.push(tag(F_TYPE, f.kind.id(&rule.name), reason));
            }
        }
        if let Some(area) = &rec.primary_area {
            tags.push(tag(F_AREA, f.area.id_folded(area), "primary area".into()));
        }
        if let Some(venue) = &rec.venue {
            tags.push(tag(
                F_VENUE,
                f.venue.id_folded(venue),
                "venue / status".into(),
            ));
        }
        for k in &rec.keywords {
            tags.push(tag(F_KEYWORD, f.keyword.id_folded(k), "keyword".into()));
        }
        for a in &rec.authors {
            tags.push(tag(F_AUTHOR, f.author.id(a), "author".into()));
        }
        if let Some(y) = rec.year {
            self.pending_years.push((doc, tags.len(), y));
            self.years.insert(y);
            tags.push(tag(F_YEAR, 0, "year".into()));
        }
        if let Some(href) = code_link(rec, m) {
            tags.push(tag(
                F_CODE,
                f.code.id(FacetKind::CODE_RELEASED),
                format!("links to {href}"),
            ));
        }
        tags.push(tag(F_LIST, list, origin));
        let mut defined: Vec<(String, String)> = Vec::new();
        for d in definitions(&m.text) {
            let key = acronym_key(&d.short);
            if is_facet_acronym(&key) && !defined.iter().any(|(k, _)| *k == key) {
                defined.push((key, d.long));
            }
        }
        for (key, long) in defined {
            self.pending_acronyms.push((doc, tags.len(), key.clone()));
            tags.push(tag(F_ACRONYM, 0, format!("{key}: defined as “{long}”")));
            self.acronyms.insert(key);
        }
        tags
    }

    /// The facets, in [`FacetKind::ALL`]'s order, and the tags' reasons;
    /// the acronym and year tags of `papers` get their value ids
    /// (acronyms are listed alphabetically, years newest first).
    pub(super) fn finish(self, papers: &mut [Paper]) -> (Vec<Facet>, Vec<String>) {
        let mut f = self.facets;
        let mut acronyms: Vec<String> = self.acronyms.into_iter().collect();
        for (paper, tag, key) in self.pending_acronyms {
            papers[paper].tags[tag].value =
                acronyms.binary_search(&key).expect("collected above") as u32;
        }
        let years: Vec<u16> = self.years.into_iter().rev().collect();
        for (paper, tag, y) in self.pending_years {
            papers[paper].tags[tag].value =
                years.iter().position(|&v| v == y).expect("collected above") as u32;
        }
        let mut values_of = |kind: FacetKind| match kind {
            FacetKind::Topic => std::mem::take(&mut f.topic.values),
            FacetKind::Contribution => std::mem::take(&mut f.kind.values),
            FacetKind::Area => std::mem::take(&mut f.area.values),
            FacetKind::Venue => std::mem::take(&mut f.venue.values),
            FacetKind::Keyword => std::mem::take(&mut f.keyword.values),
            FacetKind::Author => std::mem::take(&mut f.author.values),
            FacetKind::Year => years.iter().map(u16::to_string).collect(),
            FacetKind::Code => std::mem::take(&mut f.code.values),
            FacetKind::List => std::mem::take(&mut f.list.values),
            FacetKind::Acronym => std::mem::take(&mut acronyms),
        };
        let facets = FacetKind::ALL
            .into_iter()
            .map(|kind| Facet {
                kind,
                values: values_of(kind),
            })
            .collect();
        (facets, self.reasons.values)
    }
}

/// The paper's code: the record's own code link, else the first link in
/// the abstract that points at a code host.
fn code_link(rec: &Record, m: &Markup) -> Option<String> {
    rec.code
        .clone()
        .filter(|c| crate::model::is_web_url(c))
        .or_else(|| {
            m.runs.iter().find_map(|r| match &r.kind {
                RunKind::Link { href, .. } if is_code_link(href) => Some(href.clone()),
                _ => None,
            })
        })
}

/// Facet values collected while compiling, in first-seen order.
#[derive(Default)]
struct FacetBuilder {
    values: Vec<String>,
    index: HashMap<String, u32>,
}

impl FacetBuilder {
    fn with_values(values: impl IntoIterator<Item = String>) -> Self {
        let mut b = FacetBuilder::default();
        for v in values {
            b.id(&v);
        }
        b
    }

    fn id(&mut self, value: &str) -> u32 {
        self.id_by(value, value.to_string())
    }

    /// One value for spellings that differ only in case and accents
    /// (“Diffusion Models”, “diffusion models”); the first seen is shown.
    fn id_folded(&mut self, value: &str) -> u32 {
        self.id_by(value, crate::model::text::fold(value))
    }

    fn id_by(&mut self, value: &str, key: String) -> u32 {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(value.to_string());
        self.index.insert(key, i);
        i
    }
}

/// Tag facet ids ([`FacetKind::id`]: facets are stored in [`FacetKind::ALL`]'s order).
const F_TOPIC: u32 = FacetKind::Topic.id();
const F_TYPE: u32 = FacetKind::Contribution.id();
const F_AREA: u32 = FacetKind::Area.id();
const F_VENUE: u32 = FacetKind::Venue.id();
const F_KEYWORD: u32 = FacetKind::Keyword.id();
const F_AUTHOR: u32 = FacetKind::Author.id();
const F_YEAR: u32 = FacetKind::Year.id();
const F_CODE: u32 = FacetKind::Code.id();
const F_LIST: u32 = FacetKind::List.id();
const F_ACRONYM: u32 = FacetKind::Acronym.id();

/// The builders of the facets whose values come from the records.
#[derive(Default)]
struct Facets {
    topic: FacetBuilder,
    kind: FacetBuilder,
    area: FacetBuilder,
    venue: FacetBuilder,
    keyword: FacetBuilder,
    author: FacetBuilder,
    code: FacetBuilder,
    list: FacetBuilder,
}
