//! The build-time corpus compiler: seed files and the taxonomy in, a
//! [`Corpus`] out. Runs natively (in the app's build script and in tests).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use crate::markup;
use crate::model::{Corpus, Facet, List, Paper, Run, RunKind, Tag};
use crate::seed::{parse_seed, SourceError};
use crate::tags::{is_code_link, Matcher, Taxonomy};
use crate::text::tokenize;
use crate::title::{acronym_key, definitions, derive_title, is_facet_acronym};

/// Facet keys, in the order the facets are shown.
pub const FACET_TOPIC: &str = "topic";
pub const FACET_TYPE: &str = "type";
pub const FACET_CODE: &str = "code";
pub const FACET_LIST: &str = "list";
pub const FACET_ACRONYM: &str = "acronym";

/// One input file.
pub struct Source {
    pub file: String,
    pub bytes: Vec<u8>,
}

/// Compiles every `*.txt` list in `dir` (in file-name order) with the
/// taxonomy in `dir/taxonomy.toml`.
pub fn compile_dir(dir: &Path) -> Result<Corpus, SourceError> {
    let io_err = |file: &Path, e: std::io::Error| SourceError {
        file: file.display().to_string(),
        line: 0,
        reason: e.to_string(),
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| io_err(dir, e))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
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
            reason: "no .txt paper lists in this directory".into(),
        });
    }
    let tax_path = dir.join("taxonomy.toml");
    let taxonomy = std::fs::read_to_string(&tax_path).map_err(|e| io_err(&tax_path, e))?;
    let taxonomy = parse_taxonomy(&tax_path.display().to_string(), &taxonomy)?;
    compile_sources(&sources, &taxonomy)
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
        if let Some(&i) = self.index.get(value) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(value.to_string());
        self.index.insert(value.to_string(), i);
        i
    }
}

/// Compiles the sources with a taxonomy. Never drops or merges a paper; a
/// malformed source is an error naming its file and line.
pub fn compile_sources(sources: &[Source], taxonomy: &Taxonomy) -> Result<Corpus, SourceError> {
    let seeds = sources
        .iter()
        .map(|s| parse_seed(&s.file, &s.bytes))
        .collect::<Result<Vec<_>, _>>()?;

    let lists = list_labels(sources, &seeds);
    let topics: Vec<Matcher> = taxonomy.topics.iter().map(Matcher::new).collect();
    let kinds: Vec<Matcher> = taxonomy.contributions.iter().map(Matcher::new).collect();

    let (f_topic, f_type, f_code, f_list, f_acr) = (0u32, 1u32, 2u32, 3u32, 4u32);
    let mut topic_vals = FacetBuilder::with_values(topics.iter().map(|m| m.name.clone()));
    let mut type_vals = FacetBuilder::with_values(kinds.iter().map(|m| m.name.clone()));
    let mut code_vals = FacetBuilder::default();
    let list_vals = FacetBuilder::with_values(lists.iter().map(|l| l.label.clone()));
    let mut acronyms: BTreeSet<String> = BTreeSet::new();
    let mut pending_acronyms: Vec<(usize, usize, String)> = Vec::new();

    let mut papers = Vec::new();
    let mut seen_ids: HashMap<String, u32> = HashMap::new();
    for (li, (seed, source)) in seeds.iter().zip(sources).enumerate() {
        for para in &seed.paragraphs {
            let mut m = markup::parse(&para.text);
            render_math(&mut m.runs);
            let title = derive_title(&m.text);
            let toks = tokenize(&format!("{title}\n{}", m.text));

            let mut tags = Vec::new();
            for (i, rule) in topics.iter().enumerate() {
                if let Some(reason) = rule.apply(&toks) {
                    tags.push(Tag {
                        facet: f_topic,
                        value: topic_vals.id(&topics[i].name),
                        reason,
                    });
                }
            }
            for rule in &kinds {
                if let Some(reason) = rule.apply(&toks) {
                    tags.push(Tag {
                        facet: f_type,
                        value: type_vals.id(&rule.name),
                        reason,
                    });
                }
            }
            if let Some(href) = m.runs.iter().find_map(|r| match &r.kind {
                RunKind::Link { href, .. } if is_code_link(href) => Some(href),
                _ => None,
            }) {
                tags.push(Tag {
                    facet: f_code,
                    value: code_vals.id("Code released"),
                    reason: format!("links to {href}"),
                });
            }
            tags.push(Tag {
                facet: f_list,
                value: li as u32,
                reason: format!("{}, line {}", file_name(&source.file), para.line),
            });
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
                tags.push(Tag {
                    facet: f_acr,
                    value: 0,
                    reason: format!("{key}: defined as “{long}”"),
                });
                acronyms.insert(key);
            }

            let base = content_id(&para.text);
            let n = seen_ids.entry(base.clone()).or_insert(0);
            *n += 1;
            let id = if *n == 1 { base } else { format!("{base}-{n}") };
            papers.push(Paper {
                id,
                list: li as u32,
                line: para.line,
                title,
                title_derived: true,
                text: m.text,
                runs: m.runs,
                tags,
            });
        }
    }

    // Acronyms are listed alphabetically.
    let acr_vals: Vec<String> = acronyms.into_iter().collect();
    for (paper, tag, key) in pending_acronyms {
        papers[paper].tags[tag].value =
            acr_vals.binary_search(&key).expect("collected above") as u32;
    }

    let facets = vec![
        Facet {
            key: FACET_TOPIC.into(),
            name: "Topic".into(),
            values: topic_vals.values,
        },
        Facet {
            key: FACET_TYPE.into(),
            name: "Contribution".into(),
            values: type_vals.values,
        },
        Facet {
            key: FACET_CODE.into(),
            name: "Artifacts".into(),
            values: code_vals.values,
        },
        Facet {
            key: FACET_LIST.into(),
            name: "List".into(),
            values: list_vals.values,
        },
        Facet {
            key: FACET_ACRONYM.into(),
            name: "Acronyms".into(),
            values: acr_vals,
        },
    ];
    Ok(Corpus {
        lists,
        facets,
        papers,
    })
}

fn file_name(path: &str) -> &str {
    Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

/// List labels: the list name, with the file's number added when two files
/// share a name (the seeds have two “ICLR 2026 论文列表”).
fn list_labels(sources: &[Source], seeds: &[crate::seed::SeedList]) -> Vec<List> {
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
