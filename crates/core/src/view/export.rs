//! Exports of a list of papers (the results shown, in the order shown) as
//! CSV, JSON, Markdown, BibTeX, RIS (Zotero, EndNote, Mendeley) and
//! CSL-JSON (Zotero, Pandoc). Each writer escapes for its own syntax; the
//! tests read every export back with a real parser.

use crate::model::facet::FacetKind;
use crate::model::{BodyRef, Corpus, LinkKind, Paper};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// The formats the results can be exported in.
pub enum Format {
    /// Comma-separated values, one paper per row.
    Csv,
    /// A JSON array of papers.
    Json,
    /// A Markdown list with links.
    Markdown,
    /// BibTeX entries.
    Bibtex,
    /// RIS records, the reference managers' exchange format.
    Ris,
    /// CSL-JSON items, the citation processors' input.
    CslJson,
}

impl Format {
    /// Every format, in the order offered.
    pub const ALL: [Format; 6] = [
        Format::Csv,
        Format::Json,
        Format::Markdown,
        Format::Bibtex,
        Format::Ris,
        Format::CslJson,
    ];

    /// Its short name (the file extension).
    pub fn key(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Bibtex => "bib",
            Format::Ris => "ris",
            Format::CslJson => "csl.json",
        }
    }

    /// Its name in the menu.
    pub fn label(self) -> &'static str {
        match self {
            Format::Csv => "CSV",
            Format::Json => "JSON",
            Format::Markdown => "Markdown",
            Format::Bibtex => "BibTeX",
            Format::Ris => "RIS",
            Format::CslJson => "CSL-JSON",
        }
    }

    /// Its MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Csv => "text/csv;charset=utf-8",
            Format::Json => "application/json",
            Format::Markdown => "text/markdown;charset=utf-8",
            Format::Bibtex => "application/x-bibtex;charset=utf-8",
            Format::Ris => "application/x-research-info-systems;charset=utf-8",
            Format::CslJson => "application/vnd.citationstyles.csl+json",
        }
    }

    /// The format with this short name.
    pub fn from_key(key: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.key() == key)
    }
}

/// One paper as exported: what every format can carry (and, serialized,
/// one object of the JSON export: absent values are `null`).
#[derive(serde::Serialize)]
struct Row<'a> {
    id: &'a str,
    title: &'a str,
    authors: &'a [String],
    year: Option<u16>,
    venue: Option<&'a str>,
    list: &'a str,
    /// The paper's own page, or its place in the explorer.
    url: String,
    pdf: Option<&'a str>,
    code: Option<&'a str>,
    /// The abstract's visible text (empty, and left out, when its body is
    /// not in): what lets an export be read back as a list.
    #[serde(rename = "abstract", skip_serializing_if = "str::is_empty")]
    abstract_text: &'a str,
}

fn row<'a>(
    corpus: &'a Corpus,
    p: &'a Paper,
    title: &'a str,
    body: Option<BodyRef<'a>>,
    page_url: &str,
) -> Row<'a> {
    let links = body.map_or(&[][..], |b| b.links);
    let link = |kind: LinkKind| {
        links
            .iter()
            .find(|l| l.kind == kind)
            .map(|l| l.href.as_str())
    };
    let venue = corpus
        .facet_index(FacetKind::Venue)
        .and_then(|f| {
            p.tags_with(body)
                .iter()
                .find(|t| t.facet as usize == f)
                .and_then(|t| corpus.facets[f].values.get(t.value as usize))
        })
        .map(String::as_str);
    Row {
        id: &p.id,
        title,
        authors: p.authors_with(body),
        year: p.year,
        venue,
        list: &corpus.lists[p.list as usize].name,
        url: link(LinkKind::Page).map_or_else(|| format!("{page_url}#{}", p.id), str::to_string),
        pdf: link(LinkKind::Pdf),
        code: link(LinkKind::Code),
        abstract_text: body.map_or("", |b| b.text),
    }
}

/// The papers `docs` (indexes into the corpus), in that order. `page_url`
/// is the explorer's address, for papers without a page of their own.
pub fn export(corpus: &Corpus, docs: &[u32], format: Format, page_url: &str) -> String {
    let body = |d: u32| corpus.papers.get(d as usize).map(BodyRef::from);
    export_with(corpus, corpus, docs, body, format, page_url)
}

/// [`export`] with each paper's body given apart (from its pack:
/// [`crate::Engine::body`]): its links, and its authors and tags when they
/// came with it. A paper without one is exported from its head alone;
/// its title comes from `titles` (an empty one while it is not in).
pub fn export_with<'a>(
    corpus: &'a Corpus,
    titles: &'a (impl crate::model::Titles + ?Sized),
    docs: &[u32],
    body: impl Fn(u32) -> Option<BodyRef<'a>>,
    format: Format,
    page_url: &str,
) -> String {
    let rows = docs.iter().filter_map(|&d| {
        corpus.papers.get(d as usize).map(|p| {
            row(
                corpus,
                p,
                titles.title_of(d).unwrap_or_default(),
                body(d),
                page_url,
            )
        })
    });
    match format {
        Format::Csv => csv(rows),
        Format::Json => json(rows),
        Format::Markdown => markdown(rows),
        Format::Bibtex => bibtex(rows),
        Format::Ris => ris(rows),
        Format::CslJson => csl_json(rows),
    }
}

const COLUMNS: [&str; 9] = [
    "id", "title", "authors", "year", "venue", "list", "url", "pdf", "code",
];

fn fields(r: &Row) -> [String; 9] {
    [
        r.id.to_string(),
        r.title.to_string(),
        r.authors.join("; "),
        r.year.map(|y| y.to_string()).unwrap_or_default(),
        r.venue.unwrap_or_default().to_string(),
        r.list.to_string(),
        r.url.clone(),
        r.pdf.unwrap_or_default().to_string(),
        r.code.unwrap_or_default().to_string(),
    ]
}

/// RFC 4180: every field quoted, quotes doubled, CRLF line ends.
fn csv<'a>(rows: impl Iterator<Item = Row<'a>>) -> String {
    let line = |cells: &[String]| {
        let quoted: Vec<String> = cells
            .iter()
            .map(|c| format!("\"{}\"", c.replace('"', "\"\"")))
            .collect();
        quoted.join(",") + "\r\n"
    };
    let header: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
    let mut out = line(&header);
    for r in rows {
        out += &line(&fields(&r));
    }
    out
}

/// An array of objects, one per line; absent values are `null`, authors
/// an array.
fn json<'a>(rows: impl Iterator<Item = Row<'a>>) -> String {
    let objects: Vec<String> = rows
        .map(|r| {
            format!(
                "  {}",
                serde_json::to_string(&r).expect("strings and numbers serialize")
            )
        })
        .collect();
    if objects.is_empty() {
        return "[]\n".to_string();
    }
    format!("[\n{}\n]\n", objects.join(",\n"))
}

/// Characters that would start Markdown syntax inside a link text.
fn markdown_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~'
        ) {
            out.push('\\');
        }
        out.push(if c == '\n' { ' ' } else { c });
    }
    out
}

/// A bulleted list ready to paste into a wiki page:
/// `- [Title](url) — Authors (Year, venue)`.
fn markdown<'a>(rows: impl Iterator<Item = Row<'a>>) -> String {
    let mut out = String::new();
    for r in rows {
        // A URL with spaces or parentheses is written in angle brackets.
        let url = if r.url.contains([' ', '(', ')']) {
            format!("<{}>", r.url.replace(['<', '>'], ""))
        } else {
            r.url.clone()
        };
        out += &format!("- [{}]({url})", markdown_text(r.title));
        if !r.authors.is_empty() {
            out += &format!(" — {}", markdown_text(&r.authors.join(", ")));
        }
        let when: Vec<String> = r
            .year
            .map(|y| y.to_string())
            .into_iter()
            .chain(r.venue.map(markdown_text))
            .collect();
        if !when.is_empty() {
            out += &format!(" ({})", when.join(", "));
        }
        out.push('\n');
    }
    out
}

/// Braces balanced and TeX's special characters escaped, so that a title
/// with `50%` or `C#` survives.
fn bibtex_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '%' | '&' | '#' | '_' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            // Line and paragraph separators, tabs, newlines: TeX reads
            // any of them as a space at best.
            c if c.is_whitespace() => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Whether a name is a plain `Given Family`: letters, spaces, hyphens,
/// dots and apostrophes, each word capitalised. Such a name is split at
/// its last space for the formats that store given and family names apart;
/// any other is kept whole, as one name.
fn plain_name(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '.' | '\''))
        && name
            .split_whitespace()
            .all(|w| w.starts_with(char::is_uppercase))
}

/// A plain name's (given, family), at its last space; `None` for a single
/// word or a name that is not plain.
fn name_parts(name: &str) -> Option<(&str, &str)> {
    if !plain_name(name) {
        return None;
    }
    let (given, family) = name.trim().rsplit_once(' ')?;
    Some((given.trim_end(), family))
}

/// An author for BibTeX's name parser: a plain `Given Family` name as it
/// is (styles can then abbreviate it), anything that parser would split
/// wrongly (a comma, quotes, brackets) in braces, as one name.
fn bibtex_name(name: &str) -> String {
    if plain_name(name) {
        bibtex_text(name)
    } else {
        format!("{{{}}}", bibtex_text(name))
    }
}

/// Entries keyed by the paper's id (stable across rebuilds):
/// `@inproceedings` with its `booktitle` when the venue is known, `@misc`
/// otherwise.
fn bibtex<'a>(rows: impl Iterator<Item = Row<'a>>) -> String {
    let mut out = String::new();
    for r in rows {
        let kind = if r.venue.is_some() {
            "inproceedings"
        } else {
            "misc"
        };
        out += &format!("@{kind}{{{},\n", r.id);
        out += &format!("  title = {{{{{}}}}},\n", bibtex_text(r.title));
        if !r.authors.is_empty() {
            let authors: Vec<String> = r.authors.iter().map(|a| bibtex_name(a)).collect();
            out += &format!("  author = {{{}}},\n", authors.join(" and "));
        }
        if let Some(y) = r.year {
            out += &format!("  year = {{{y}}},\n");
        }
        if let Some(v) = r.venue {
            out += &format!("  booktitle = {{{}}},\n", bibtex_text(v));
        }
        out += &format!("  howpublished = {{\\url{{{}}}}},\n", url_for_tex(&r.url));
        if !r.abstract_text.is_empty() {
            out += &format!("  abstract = {{{}}},\n", bibtex_text(r.abstract_text));
        }
        out += "}\n\n";
    }
    out
}

/// A URL inside `\url{}`: braces and backslashes would end or break it.
fn url_for_tex(url: &str) -> String {
    url.replace('\\', "%5C")
        .replace('{', "%7B")
        .replace('}', "%7D")
}

/// One line of a RIS record: `TAG  - value`, the value on one line.
fn ris_line(out: &mut String, tag: &str, value: &str) {
    let value: String = value
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    out.push_str(tag);
    out.push_str("  - ");
    out.push_str(value.trim());
    out.push_str("\r\n");
}

/// RIS records: `CPAPER` (conference paper) when the venue is known, `GEN`
/// otherwise; authors in RIS's own `Family, Given` syntax (split at the
/// last space; a name that already has a comma is read by RIS as
/// `Family, Given` anyway and is written as it is); the paper's id as `ID`.
fn ris<'a>(rows: impl Iterator<Item = Row<'a>>) -> String {
    let mut out = String::new();
    for r in rows {
        ris_line(
            &mut out,
            "TY",
            if r.venue.is_some() { "CPAPER" } else { "GEN" },
        );
        ris_line(&mut out, "ID", r.id);
        ris_line(&mut out, "TI", r.title);
        for a in r.authors {
            match a.trim().rsplit_once(' ') {
                Some((given, family)) if !a.contains(',') => {
                    ris_line(&mut out, "AU", &format!("{family}, {}", given.trim_end()))
                }
                _ => ris_line(&mut out, "AU", a),
            }
        }
        if let Some(y) = r.year {
            ris_line(&mut out, "PY", &y.to_string());
        }
        if let Some(v) = r.venue {
            ris_line(&mut out, "T2", v);
        }
        ris_line(&mut out, "UR", &r.url);
        if let Some(pdf) = r.pdf {
            ris_line(&mut out, "L1", pdf);
        }
        if let Some(code) = r.code {
            ris_line(&mut out, "N1", &format!("Code: {code}"));
        }
        ris_line(&mut out, "N1", &format!("List: {}", r.list));
        if !r.abstract_text.is_empty() {
            ris_line(&mut out, "AB", r.abstract_text);
        }
        out.push_str("ER  - \r\n\r\n");
    }
    out
}

/// A CSL-JSON name: given and family where the name splits plainly, the
/// whole name as `literal` otherwise.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum CslName<'a> {
    Parts { given: &'a str, family: &'a str },
    Literal { literal: &'a str },
}

#[derive(serde::Serialize)]
struct CslDate {
    #[serde(rename = "date-parts")]
    date_parts: [[u16; 1]; 1],
}

/// One CSL-JSON item (the schema's `id` and `type` always; the rest when
/// known).
#[derive(serde::Serialize)]
struct CslItem<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    title: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    author: Vec<CslName<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issued: Option<CslDate>,
    #[serde(rename = "container-title", skip_serializing_if = "Option::is_none")]
    container_title: Option<&'a str>,
    #[serde(rename = "URL")]
    url: &'a str,
    note: String,
    #[serde(rename = "abstract", skip_serializing_if = "str::is_empty")]
    abstract_text: &'a str,
}

fn csl_json<'a>(rows: impl Iterator<Item = Row<'a>>) -> String {
    let rows: Vec<Row> = rows.collect();
    let items: Vec<CslItem> = rows
        .iter()
        .map(|r| CslItem {
            id: r.id,
            kind: if r.venue.is_some() {
                "paper-conference"
            } else {
                "article"
            },
            title: r.title,
            author: r
                .authors
                .iter()
                .map(|a| match name_parts(a) {
                    Some((given, family)) => CslName::Parts { given, family },
                    None => CslName::Literal { literal: a },
                })
                .collect(),
            issued: r.year.map(|y| CslDate { date_parts: [[y]] }),
            container_title: r.venue,
            url: &r.url,
            note: match r.code {
                Some(code) => format!("List: {}. Code: {code}", r.list),
                None => format!("List: {}", r.list),
            },
            abstract_text: r.abstract_text,
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&items).expect("plain data serializes");
    out.push('\n');
    out
}
