//! The build-time corpus compiler: seed files and the taxonomy in, a
//! [`Corpus`] out. Runs natively (in the app's build script and in tests).

mod tagger;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use crate::build::markup;
use crate::build::mathml::render_math;
use crate::build::records::{self, Format, Record, RecordList};
use crate::build::source::SourceError;
use crate::build::tags::Taxonomy;
use crate::build::title::derive_title;
use crate::model::text::tokenize;
use crate::model::{Corpus, Link, LinkKind, List, Paper};
use tagger::Tagger;

/// One input file.
pub struct Source {
    /// The file's path, as errors name it; its extension says its format.
    pub file: String,
    /// The file's contents.
    pub bytes: Vec<u8>,
}

/// How to compile.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Fail on a record that has no abstract, instead of listing it as a
    /// paper without one.
    pub strict: bool,
}

impl Options {
    /// The options the environment asks for: `CORPUS_STRICT` set to
    /// anything but empty or `0` makes the compile strict.
    pub fn from_env() -> Options {
        Options {
            strict: std::env::var("CORPUS_STRICT").is_ok_and(|v| !v.is_empty() && v != "0"),
        }
    }
}

/// What an error says of a record without an abstract in a strict
/// compile, after `record N: `.
const NO_ABSTRACT: &str = "no abstract";

/// What a warning says of a record skipped for having neither a title nor
/// an abstract, after `record N: `.
const NOTHING_TO_SHOW: &str = "skipped: no title and no abstract";

impl SourceError {
    /// Whether this is a record without an abstract, which only a strict
    /// compile refuses.
    pub fn is_missing_abstract(&self) -> bool {
        (self.reason.split_once(": ")).is_some_and(|(record, reason)| {
            record.starts_with("record ") && reason.starts_with(NO_ABSTRACT)
        })
    }
}

/// A compiled corpus and what was skipped on the way.
#[derive(Debug)]
pub struct Compiled {
    /// The corpus, ready to encode.
    pub corpus: Corpus,
    /// What was repaired or skipped, each as `file:line: reason`.
    pub warnings: Vec<SourceError>,
    /// Per source file, the record fields it has that are not used.
    pub ignored_fields: Vec<(String, Vec<String>)>,
    /// How many records the files held (entries a reader could not read
    /// counted too).
    pub records: usize,
}

impl Compiled {
    /// How many records were skipped: neither a title nor an abstract, or
    /// an entry a reader could not read.
    pub fn skipped(&self) -> usize {
        self.records - self.corpus.papers.len()
    }

    /// How many papers have no abstract (a record with its title only).
    pub fn without_abstract(&self) -> usize {
        (self.corpus.papers.iter())
            .filter(|p| p.text.is_empty())
            .count()
    }

    /// The compile's summary, in the words the page says it in English:
    /// "680 records: 680 papers, 240 without an abstract; 0 skipped".
    pub fn summary(&self) -> String {
        let n = |n: usize| n as u32;
        (crate::view::i18n::EN.opened_summary)(
            n(self.records),
            n(self.corpus.papers.len()),
            n(self.without_abstract()),
            n(self.skipped()),
        )
    }
}

/// The taxonomy used when a corpus directory has no `taxonomy.toml`.
pub const DEFAULT_TAXONOMY: &str = include_str!("../../../../../corpus/taxonomy.toml");

/// Compiles every paper list in `dir` (`*.txt` seed lists, `*.json`,
/// `*.jsonl`, `*.csv`; in file-name order) with the taxonomy in
/// `dir/taxonomy.toml`, or the default one when there is none.
///
/// ```
/// use explorer_core::build::compile_dir;
///
/// let corpus = compile_dir(std::path::Path::new("../../corpus")).unwrap();
/// assert_eq!(corpus.lists.len(), 3);
/// // Every seed paper gets a title derived from its abstract.
/// assert!(corpus.papers.iter().all(|p| p.title_derived && !p.title.is_empty()));
///
/// // A malformed source names its file and line.
/// let dir = std::env::temp_dir().join(format!("compile-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let json = "[{\"abstract\": \"A.\"},\n {\"abstract\": \"B.\", \"authors\": {}}]";
/// std::fs::write(dir.join("bad.json"), json).unwrap();
/// let e = compile_dir(&dir).unwrap_err();
/// std::fs::remove_dir_all(&dir).unwrap();
/// assert_eq!((e.line, e.file.ends_with("bad.json")), (2, true), "{e}");
/// assert!(e.reason.contains("\"authors\""), "{e}");
/// ```
pub fn compile_dir(dir: &Path) -> Result<Corpus, SourceError> {
    compile_dir_with(dir, Options::default()).map(|c| c.corpus)
}

/// [`compile_dir`] with options, reporting what was skipped and which record fields were not used.
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

/// Reads a taxonomy (TOML); an error names the line.
pub fn parse_taxonomy(file: &str, src: &str) -> Result<Taxonomy, SourceError> {
    toml::from_str(src).map_err(|e| SourceError {
        file: file.to_string(),
        line: e
            .span()
            .map_or(0, |s| 1 + src[..s.start].matches('\n').count() as u32),
        reason: e.message().to_string(),
    })
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
/// where a release build aborts on panic before `compile_sources_with`
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

/// One file as a list of its own, with the default taxonomy
/// ([`DEFAULT_TAXONOMY`]): what the page's compiler does with a file a
/// reader opens, and what the bench times natively beside it.
pub fn compile_file(source: &Source, options: Options) -> Result<Compiled, SourceError> {
    let taxonomy = parse_taxonomy("default taxonomy", DEFAULT_TAXONOMY)?;
    compile_sources_with(std::slice::from_ref(source), &taxonomy, options)
}

/// [`compile_sources`] with options, reporting what was skipped and which
/// record fields were not used.
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
    let mut tagger = Tagger::new(taxonomy, &lists);
    let (mut papers, warnings) = compile_papers(sources, &lists_in, &mut tagger, options)?;
    // Nothing read but what was skipped: the file is not a list, and the
    // first skip says why.
    if let (true, Some(first)) = (papers.is_empty(), warnings.first()) {
        return Err(SourceError {
            reason: format!("{} (no paper could be read)", first.reason),
            ..first.clone()
        });
    }
    let records = lists_in.iter().map(|l| l.records.len() + l.unread).sum();
    let (facets, reasons) = tagger.finish(&mut papers);
    let index = crate::search::index::IndexData::build(&papers);
    let similar_terms = attach_similar(&mut papers, &index);
    Ok(Compiled {
        ignored_fields: ignored_fields(sources, &lists_in),
        corpus: Corpus {
            lists,
            facets,
            reasons,
            similar_terms,
            body_packs: Default::default(),
            map_part: None,
            tag_part: None,
            titles: None,
            index,
            papers,
        },
        warnings,
        records,
    })
}

/// Every record with a title or an abstract as a tagged paper, in source
/// order (without an abstract, an error when `options.strict`); a record
/// with neither is skipped with a warning, after what the readers said.
fn compile_papers(
    sources: &[Source],
    lists_in: &[records::RecordList],
    tagger: &mut Tagger,
    options: Options,
) -> Result<(Vec<Paper>, Vec<SourceError>), SourceError> {
    let mut ids = Ids::default();
    let mut warnings = Vec::new();
    let mut papers = Vec::new();
    for (li, (list, source)) in lists_in.iter().zip(sources).enumerate() {
        warnings.extend(list.said.iter().cloned());
        for rec in &list.records {
            let at = |reason: String| SourceError {
                file: source.file.clone(),
                line: rec.line,
                reason: format!("record {}: {reason}", rec.number),
            };
            let abstract_src = (rec.abstract_text.as_deref())
                .filter(|a| !a.trim().is_empty())
                .unwrap_or_default();
            let titled = rec.title.as_deref().is_some_and(|t| !t.trim().is_empty());
            if abstract_src.is_empty() {
                if options.strict {
                    return Err(at(NO_ABSTRACT.into()));
                }
                if !titled {
                    warnings.push(at(NOTHING_TO_SHOW.into()));
                    continue;
                }
            }
            let paper = guarded(&source.file, rec.line, || {
                let origin = format!("{}, line {}", file_name(&source.file), rec.line);
                compile_record(
                    rec,
                    abstract_src,
                    li as u32,
                    origin,
                    papers.len(),
                    tagger,
                    &mut ids,
                )
            })
            .map_err(|msg| {
                at(format!(
                    "the compiler failed on this paper ({msg}); please report it with this abstract"
                ))
            })?;
            papers.push(paper);
        }
    }
    Ok((papers, warnings))
}

/// Each paper's similar papers, keywords and topic-map place; returns the
/// words similar papers may share.
fn attach_similar(papers: &mut [Paper], index: &crate::search::index::IndexData) -> Vec<String> {
    let derived: Vec<bool> = papers.iter().map(|p| p.title_derived).collect();
    let found = crate::build::similar::discover(index, &derived);
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
    found.words
}

/// Per source file, the record fields no paper used (sorted), for files
/// that have any.
fn ignored_fields(
    sources: &[Source],
    lists_in: &[records::RecordList],
) -> Vec<(String, Vec<String>)> {
    lists_in
        .iter()
        .zip(sources)
        .map(|(l, s)| {
            let names: BTreeSet<&String> = l.records.iter().flat_map(|r| &r.ignored).collect();
            (
                s.file.clone(),
                names.into_iter().cloned().collect::<Vec<_>>(),
            )
        })
        .filter(|(_, names)| !names.is_empty())
        .collect()
}

/// Runs `f` for the paper at `file:line`; a panic inside becomes its
/// message (and the hook installed by [`report_panics_with_paper`] names
/// the same paper where panics abort).
fn guarded<T>(file: &str, line: u32, f: impl FnOnce() -> T) -> Result<T, String> {
    PAPER.with(|p| p.replace(Some((file.to_string(), line))));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    PAPER.with(|p| p.replace(None));
    result.map_err(|payload| panic_message(payload.as_ref()))
}

/// Paper ids, unique in the corpus: a repeated id gets `-2`, `-3`, ….
#[derive(Default)]
struct Ids {
    seen: HashMap<String, u32>,
}

impl Ids {
    fn unique(&mut self, base: String) -> String {
        let n = self.seen.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base
        } else {
            format!("{base}-{n}")
        }
    }
}

/// One record as paper number `doc` of list `list`: its text and formulas,
/// its title (its own, or derived from the abstract), tags, links and id.
fn compile_record(
    rec: &Record,
    abstract_src: &str,
    list: u32,
    origin: String,
    doc: usize,
    tagger: &mut Tagger,
    ids: &mut Ids,
) -> Paper {
    #[cfg(test)]
    if abstract_src.contains(TEST_PANIC) {
        panic!("forced by a test");
    }
    let mut m = markup::parse(abstract_src);
    render_math(&mut m.runs);
    let (title, title_derived) = match &rec.title {
        Some(t) if !t.trim().is_empty() => (markup::parse(t).text, false),
        _ => (derive_title(&m.text), true),
    };
    // A derived title restates the abstract: tagging reads a real title as
    // evidence of its own, a derived one not again.
    let tokens = if title_derived {
        tokenize(&m.text)
    } else {
        tokenize(&format!("{title}\n{}", m.text))
    };
    let tags = tagger.tag(doc, rec, &m, &tokens, list, origin);
    let links = [
        (LinkKind::Page, &rec.url),
        (LinkKind::Pdf, &rec.pdf),
        (LinkKind::Code, &rec.code),
    ]
    .into_iter()
    .filter_map(|(kind, href)| {
        let href = href.as_ref()?.trim();
        crate::model::is_web_url(href).then(|| Link {
            kind,
            href: href.to_string(),
        })
    })
    .collect();
    let id = ids.unique(match &rec.id {
        Some(id) => source_id(id),
        None if abstract_src.is_empty() => content_id(&title),
        None => content_id(abstract_src),
    });
    Paper {
        id,
        list,
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
    }
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
