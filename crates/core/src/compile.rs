//! The build-time corpus compiler: seed files and the taxonomy in, a
//! [`Corpus`] out. Runs natively (in the app's build script and in tests).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use crate::facet::FacetKind;
use crate::markup;
use crate::model::{Corpus, Facet, Link, LinkKind, List, Paper, Run, RunKind, Tag};
use crate::records::{self, Format, Record, RecordList};
use crate::seed::SourceError;
use crate::tags::{is_code_link, Matcher, Taxonomy};
use crate::text::tokenize;
use crate::title::{acronym_key, definitions, derive_title, is_facet_acronym};

/// One input file.
pub struct Source {
    pub file: String,
    pub bytes: Vec<u8>,
}

/// How to compile.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Skip a record that has no abstract, with a warning, instead of failing.
    pub lenient: bool,
}

impl Options {
    /// The options the environment asks for: `CORPUS_LENIENT` set to
    /// anything but empty or `0` makes the compile lenient.
    pub fn from_env() -> Options {
        Options {
            lenient: std::env::var("CORPUS_LENIENT").is_ok_and(|v| !v.is_empty() && v != "0"),
        }
    }
}

/// A compiled corpus and what was skipped on the way.
#[derive(Debug)]
pub struct Compiled {
    pub corpus: Corpus,
    /// Records skipped in lenient mode, each as `file:line: reason`.
    pub warnings: Vec<SourceError>,
    /// Per source file, the record fields it has that are not used.
    pub ignored_fields: Vec<(String, Vec<String>)>,
}

/// The taxonomy used when a corpus directory has no `taxonomy.toml`.
pub const DEFAULT_TAXONOMY: &str = include_str!("../../../corpus/taxonomy.toml");

/// Compiles every paper list in `dir` (`*.txt` seed lists, `*.json`,
/// `*.jsonl`, `*.csv`; in file-name order) with the taxonomy in
/// `dir/taxonomy.toml`, or the default one when there is none.
pub fn compile_dir(dir: &Path) -> Result<Corpus, SourceError> {
    compile_dir_with(dir, Options::default()).map(|c| c.corpus)
}

pub fn compile_dir_with(dir: &Path, options: Options) -> Result<Compiled, SourceError> {
    let io_err = |file: &Path, e: std::io::Error| SourceError {
        file: file.display().to_string(),
        line: 0,
        reason: e.to_string(),
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| io_err(dir, e))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| Format::of(p).is_some())
        .collect();
    files.sort();
    let sources = files
        .iter()
        .map(|p| {
            Ok(Source {
                file: p.display().to_string(),
                bytes: std::fs::read(p).map_err(|e| io_err(p, e))?,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if sources.is_empty() {
        return Err(SourceError {
            file: dir.display().to_string(),
            line: 0,
            reason: "no paper lists here (.txt, .json, .jsonl or .csv)".into(),
        });
    }
    let tax_path = dir.join("taxonomy.toml");
    let taxonomy = match std::fs::read_to_string(&tax_path) {
        Ok(t) => parse_taxonomy(&tax_path.display().to_string(), &t)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            parse_taxonomy("default taxonomy", DEFAULT_TAXONOMY)?
        }
        Err(e) => return Err(io_err(&tax_path, e)),
    };
    compile_sources_with(&sources, &taxonomy, options)
}

pub fn parse_taxonomy(file: &str, src: &str) -> Result<Taxonomy, SourceError> {
    toml::from_str(src).map_err(|e| SourceError {
        file: file.to_string(),
        line: e
            .span()
            .map_or(0, |s| 1 + src[..s.start].matches('\n').count() as u32),
        reason: e.message().to_string(),
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
        self.id_by(value, crate::text::fold(value))
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

/// An abstract holding this panics the compiler in this crate's own unit
/// tests: how the panic report is tested.
#[cfg(test)]
const TEST_PANIC: &str = "⟦panic in a test⟧";

thread_local! {
    /// The file and line of the paper being compiled, for panic reports.
    static PAPER: std::cell::RefCell<Option<(String, u32)>> = const { std::cell::RefCell::new(None) };
}

/// What a panic said.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Installs a panic hook that names the paper being compiled (`file:line`)
/// instead of printing a bare backtrace: for the build script and the CLI,
/// where a release build aborts on panic before [`compile_sources_with`]
/// could turn it into an error.
pub fn report_panics_with_paper() {
    std::panic::set_hook(Box::new(|info| {
        let msg = panic_message(info.payload());
        match PAPER.with(|p| p.borrow().clone()) {
            Some((file, line)) => eprintln!(
                "error: corpus: {file}:{line}: the compiler failed on this paper ({msg}); please report it with this abstract"
            ),
            None => eprintln!("error: corpus compiler: {msg}"),
        }
    }));
}

/// Compiles the sources with a taxonomy. Never drops or merges a paper; a
/// malformed source is an error naming its file and line.
pub fn compile_sources(sources: &[Source], taxonomy: &Taxonomy) -> Result<Corpus, SourceError> {
    compile_sources_with(sources, taxonomy, Options::default()).map(|c| c.corpus)
}

pub fn compile_sources_with(
    sources: &[Source],
    taxonomy: &Taxonomy,
    options: Options,
) -> Result<Compiled, SourceError> {
    let lists_in = sources
        .iter()
        .map(|s| {
            let format = Format::of(Path::new(&s.file)).unwrap_or(Format::Seed);
            records::read(&s.file, &s.bytes, format)
        })
        .collect::<Result<Vec<_>, _>>()?;

    let lists = list_labels(sources, &lists_in);
    let topics: Vec<Matcher> = taxonomy.topics.iter().map(Matcher::new).collect();
    let kinds: Vec<Matcher> = taxonomy.contributions.iter().map(Matcher::new).collect();

    let mut f = Facets {
        topic: FacetBuilder::with_values(topics.iter().map(|m| m.name.clone())),
        kind: FacetBuilder::with_values(kinds.iter().map(|m| m.name.clone())),
        list: FacetBuilder::with_values(lists.iter().map(|l| l.label.clone())),
        ..Facets::default()
    };
    let mut acronyms: BTreeSet<String> = BTreeSet::new();
    let mut pending_acronyms: Vec<(usize, usize, String)> = Vec::new();
    let mut years: BTreeSet<u16> = BTreeSet::new();
    let mut pending_years: Vec<(usize, usize, u16)> = Vec::new();
    let mut warnings = Vec::new();
    let mut reasons = FacetBuilder::default();

    let mut papers = Vec::new();
    let mut seen_ids: HashMap<String, u32> = HashMap::new();
    for (li, (list, source)) in lists_in.iter().zip(sources).enumerate() {
        let at = |r: &Record, reason: String| SourceError {
            file: source.file.clone(),
            line: r.line,
            reason: format!("record {}: {reason}", r.number),
        };
        for rec in &list.records {
            // A panic inside one paper's compile names that paper: its file
            // and line, and what went wrong (and the hook installed by
            // `report_panics_with_paper` says the same where panics abort).
            PAPER.with(|p| p.replace(Some((source.file.clone(), rec.line))));
            let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || -> Result<(), SourceError> {
                    let Some(abstract_src) = rec
                        .abstract_text
                        .as_deref()
                        .filter(|a| !a.trim().is_empty())
                    else {
                        let e = at(rec, "no abstract".into());
                        if options.lenient {
                            warnings.push(e);
                            return Ok(());
                        }
                        return Err(SourceError {
                        reason: format!(
                            "{} (every paper needs one; set CORPUS_LENIENT=1 to skip such records with a warning)",
                            e.reason
                        ),
                        ..e
                    });
                    };
                    #[cfg(test)]
                    if abstract_src.contains(TEST_PANIC) {
                        panic!("forced by a test");
                    }
                    let mut m = markup::parse(abstract_src);
                    render_math(&mut m.runs);
                    let (title, title_derived) = match &rec.title {
                        Some(t) => (markup::parse(t).text, false),
                        None => (derive_title(&m.text), true),
                    };
                    // A derived title restates the abstract: tagging reads a real
                    // title as evidence of its own, a derived one not again.
                    let toks = if title_derived {
                        tokenize(&m.text)
                    } else {
                        tokenize(&format!("{title}\n{}", m.text))
                    };

                    let mut tags = Vec::new();
                    let mut tag = |facet: u32, value: u32, reason: String| Tag {
                        facet,
                        value,
                        reason: reasons.id(&reason),
                    };
                    for rule in &topics {
                        if let Some(reason) = rule.apply(&toks) {
                            tags.push(tag(F_TOPIC, f.topic.id(&rule.name), reason));
                        }
                    }
                    for rule in &kinds {
                        if let Some(reason) = rule.apply(&toks) {
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
                        pending_years.push((papers.len(), tags.len(), y));
                        years.insert(y);
                        tags.push(tag(F_YEAR, 0, "year".into()));
                    }
                    let code_link =
                        rec.code
                            .clone()
                            .filter(|c| markup::is_web_url(c))
                            .or_else(|| {
                                m.runs.iter().find_map(|r| match &r.kind {
                                    RunKind::Link { href, .. } if is_code_link(href) => {
                                        Some(href.clone())
                                    }
                                    _ => None,
                                })
                            });
                    if let Some(href) = code_link {
                        tags.push(tag(
                            F_CODE,
                            f.code.id(FacetKind::CODE_RELEASED),
                            format!("links to {href}"),
                        ));
                    }
                    tags.push(tag(
                        F_LIST,
                        li as u32,
                        format!("{}, line {}", file_name(&source.file), rec.line),
                    ));
                    let mut defined: Vec<(String, String)> = Vec::new();
                    for d in definitions(&m.text) {
                        let key = acronym_key(&d.short);
                        if is_facet_acronym(&key) && !defined.iter().any(|(k, _)| *k == key) {
                            defined.push((key, d.long));
                        }
                    }
                    for (key, long) in defined {
                        // The value id is known once every acronym is (they are
                        // listed alphabetically): remember which tag waits for which.
                        pending_acronyms.push((papers.len(), tags.len(), key.clone()));
                        tags.push(tag(F_ACRONYM, 0, format!("{key}: defined as “{long}”")));
                        acronyms.insert(key);
                    }

                    let links = [
                        (LinkKind::Page, &rec.url),
                        (LinkKind::Pdf, &rec.pdf),
                        (LinkKind::Code, &rec.code),
                    ]
                    .into_iter()
                    .filter_map(|(kind, href)| {
                        let href = href.as_ref()?.trim();
                        markup::is_web_url(href).then(|| Link {
                            kind,
                            href: href.to_string(),
                        })
                    })
                    .collect();

                    let base = match &rec.id {
                        Some(id) => source_id(id),
                        None => content_id(abstract_src),
                    };
                    let n = seen_ids.entry(base.clone()).or_insert(0);
                    *n += 1;
                    let id = if *n == 1 { base } else { format!("{base}-{n}") };
                    papers.push(Paper {
                        id,
                        list: li as u32,
                        line: rec.line,
                        title,
                        title_derived,
                        authors: rec.authors.clone(),
                        year: rec.year,
                        links,
                        text: m.text,
                        runs: m.runs,
                        tags,
                        similar: Vec::new(),
                        keywords: Vec::new(),
                        map: [0; 2],
                    });
                    Ok(())
                },
            ));
            PAPER.with(|p| p.replace(None));
            match compiled {
                Ok(result) => result?,
                Err(payload) => {
                    return Err(SourceError {
                        file: source.file.clone(),
                        line: rec.line,
                        reason: format!(
                            "record {}: the compiler failed on this paper ({}); please report it with this abstract",
                            rec.number,
                            panic_message(payload.as_ref())
                        ),
                    })
                }
            }
        }
    }

    // Acronyms are listed alphabetically, years newest first.
    let mut acr_vals: Vec<String> = acronyms.into_iter().collect();
    for (paper, tag, key) in pending_acronyms {
        papers[paper].tags[tag].value =
            acr_vals.binary_search(&key).expect("collected above") as u32;
    }
    let year_vals: Vec<u16> = years.into_iter().rev().collect();
    for (paper, tag, y) in pending_years {
        papers[paper].tags[tag].value = year_vals
            .iter()
            .position(|&v| v == y)
            .expect("collected above") as u32;
    }

    let mut values_of = |kind: FacetKind| match kind {
        FacetKind::Topic => std::mem::take(&mut f.topic.values),
        FacetKind::Contribution => std::mem::take(&mut f.kind.values),
        FacetKind::Area => std::mem::take(&mut f.area.values),
        FacetKind::Venue => std::mem::take(&mut f.venue.values),
        FacetKind::Keyword => std::mem::take(&mut f.keyword.values),
        FacetKind::Author => std::mem::take(&mut f.author.values),
        FacetKind::Year => year_vals.iter().map(u16::to_string).collect(),
        FacetKind::Code => std::mem::take(&mut f.code.values),
        FacetKind::List => std::mem::take(&mut f.list.values),
        FacetKind::Acronym => std::mem::take(&mut acr_vals),
    };
    let facets = FacetKind::ALL
        .into_iter()
        .map(|kind| Facet {
            kind,
            values: values_of(kind),
        })
        .collect();
    let ignored_fields = lists_in
        .iter()
        .zip(sources)
        .map(|(l, s)| {
            let names: BTreeSet<&String> = l.records.iter().flat_map(|r| &r.ignored).collect();
            (s.file.clone(), names.into_iter().cloned().collect())
        })
        .filter(|(_, names): &(String, Vec<String>)| !names.is_empty())
        .collect();
    let index = crate::index::IndexData::build(&papers);
    let derived: Vec<bool> = papers.iter().map(|p| p.title_derived).collect();
    let found = crate::similar::discover(&index, &derived);
    for (((paper, similar), keywords), map) in papers
        .iter_mut()
        .zip(found.similar)
        .zip(found.keywords)
        .zip(found.map)
    {
        paper.similar = similar;
        paper.keywords = keywords;
        paper.map = map;
    }
    let similar_terms = found.words;
    Ok(Compiled {
        ignored_fields,
        corpus: Corpus {
            lists,
            facets,
            reasons: reasons.values,
            similar_terms,
            index,
            papers,
        },
        warnings,
    })
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

/// A record's own id as a URL fragment: `p-` and the id's letters, digits,
/// `-` and `_` (other characters become `_`).
fn source_id(id: &str) -> String {
    let clean: String = id
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    format!("p-{clean}")
}

fn file_name(path: &str) -> &str {
    Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

/// List labels: the list name, with the file's number added when two files
/// share a name (the seeds have two “ICLR 2026 论文列表”).
fn list_labels(sources: &[Source], seeds: &[RecordList]) -> Vec<List> {
    seeds
        .iter()
        .zip(sources)
        .map(|(s, src)| {
            let stem = Path::new(&src.file)
                .file_stem()
                .and_then(|n| n.to_str())
                .unwrap_or(&src.file)
                .to_string();
            let shared = seeds.iter().filter(|o| o.name == s.name).count() > 1;
            let label = if shared {
                format!("{} · {}", s.name, stem.split('_').next().unwrap_or(&stem))
            } else {
                s.name.clone()
            };
            List {
                key: stem,
                name: s.name.clone(),
                label,
            }
        })
        .collect()
}

/// A stable id from the abstract's content: the same abstract gets the same
/// id wherever it stands in the list.
fn content_id(text: &str) -> String {
    let normal: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let h = xxhash_rust::xxh3::xxh3_64(normal.as_bytes());
    format!("p-{:012x}", h >> 16)
}

/// Renders each formula to MathML; a formula the renderer rejects, or whose
/// output is not plain MathML, keeps its plain-text fallback.
fn render_math(runs: &mut [Run]) {
    for r in runs {
        if let RunKind::Math { tex, mathml } = &mut r.kind {
            *mathml = to_mathml(tex);
        }
    }
}

pub fn to_mathml(tex: &str) -> Option<String> {
    // Nested `$` inside a text command (`\textbf{4.59$\times$}`) means “back to
    // math”: as one formula it is `\mathbf{4.59\times}`.
    let tex = if tex.contains('$') {
        tex.replace("\\textbf", "\\mathbf").replace('$', "")
    } else {
        tex.to_string()
    };
    let storage = pulldown_latex::Storage::new();
    let parser = pulldown_latex::Parser::new(&tex, &storage);
    let mut out = String::new();
    let config = pulldown_latex::RenderConfig::default();
    // The renderer reports errors inline; collect events first to reject them.
    let events: Vec<_> = parser.collect();
    if events.iter().any(Result::is_err) {
        return None;
    }
    pulldown_latex::push_mathml(&mut out, events.into_iter(), config).ok()?;
    is_safe_mathml(&out).then_some(out)
}

/// Only MathML elements and presentation attributes: the output is inserted
/// as markup, so anything else is refused.
pub fn is_safe_mathml(s: &str) -> bool {
    const ELEMENTS: &[&str] = &[
        "math",
        "mi",
        "mn",
        "mo",
        "ms",
        "mtext",
        "mrow",
        "msup",
        "msub",
        "msubsup",
        "mfrac",
        "msqrt",
        "mroot",
        "mover",
        "munder",
        "munderover",
        "mspace",
        "mstyle",
        "mpadded",
        "mphantom",
        "mtable",
        "mtr",
        "mtd",
        "semantics",
        "annotation",
        "menclose",
        "merror",
    ];
    const ATTRS: &[&str] = &[
        "display",
        "mathvariant",
        "stretchy",
        "lspace",
        "rspace",
        "width",
        "height",
        "depth",
        "scriptlevel",
        "displaystyle",
        "movablelimits",
        "accent",
        "accentunder",
        "largeop",
        "symmetric",
        "fence",
        "separator",
        "linethickness",
        "columnalign",
        "rowalign",
        "columnspacing",
        "rowspacing",
        "encoding",
        "form",
        "minsize",
        "maxsize",
        "style",
        "class",
        "notation",
    ];
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        let tag_end = match rest[i..].find('>') {
            Some(e) => i + e,
            None => return false,
        };
        let tag = rest[i + 1..tag_end]
            .trim_start_matches('/')
            .trim_end_matches('/');
        let mut parts = tag.split_whitespace();
        let name = parts.next().unwrap_or("");
        if !ELEMENTS.contains(&name) {
            return false;
        }
        for attr in parts {
            let Some((key, value)) = attr.split_once('=') else {
                return false;
            };
            if !ATTRS.contains(&key) || value.to_ascii_lowercase().contains("url(") {
                return false;
            }
        }
        rest = &rest[tag_end + 1..];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_on_one_paper_names_its_file_and_line() {
        let src =
            "A list\n\nA first abstract that compiles.\n\nA second one ⟦panic in a test⟧ here.\n";
        let taxonomy = parse_taxonomy("default taxonomy", DEFAULT_TAXONOMY).unwrap();
        let sources = [Source {
            file: "lists/iclr.txt".into(),
            bytes: src.as_bytes().to_vec(),
        }];
        let e = compile_sources(&sources, &taxonomy).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("lists/iclr.txt", 5));
        assert!(e.reason.contains("forced by a test"), "{e}");
        assert!(
            e.to_string()
                .starts_with("lists/iclr.txt:5: record 2: the compiler failed"),
            "{e}"
        );
    }
}
