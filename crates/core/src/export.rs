//! Exports of a list of papers (the results shown, in the order shown) as
//! CSV, JSON, Markdown and BibTeX. Each writer escapes for its own syntax;
//! the tests read every export back with a real parser.

use crate::facet::FacetKind;
use crate::model::{Corpus, LinkKind, Paper};

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
}

impl Format {
    /// Every format, in the order offered.
    pub const ALL: [Format; 4] = [Format::Csv, Format::Json, Format::Markdown, Format::Bibtex];

    /// Its short name (the file extension).
    pub fn key(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Bibtex => "bib",
        }
    }

    /// Its name in the menu.
    pub fn label(self) -> &'static str {
        match self {
            Format::Csv => "CSV",
            Format::Json => "JSON",
            Format::Markdown => "Markdown",
            Format::Bibtex => "BibTeX",
        }
    }

    /// Its MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Csv => "text/csv;charset=utf-8",
            Format::Json => "application/json",
            Format::Markdown => "text/markdown;charset=utf-8",
            Format::Bibtex => "application/x-bibtex;charset=utf-8",
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
}

fn row<'a>(corpus: &'a Corpus, p: &'a Paper, page_url: &str) -> Row<'a> {
    let link = |kind: LinkKind| {
        p.links
            .iter()
            .find(|l| l.kind == kind)
            .map(|l| l.href.as_str())
    };
    let venue = corpus.values_of(p, FacetKind::Venue).next();
    Row {
        id: &p.id,
        title: &p.title,
        authors: &p.authors,
        year: p.year,
        venue,
        list: &corpus.lists[p.list as usize].name,
        url: link(LinkKind::Page).map_or_else(|| format!("{page_url}#{}", p.id), str::to_string),
        pdf: link(LinkKind::Pdf),
        code: link(LinkKind::Code),
    }
}

/// The papers `docs` (indexes into the corpus), in that order. `page_url`
/// is the explorer's address, for papers without a page of their own.
pub fn export(corpus: &Corpus, docs: &[u32], format: Format, page_url: &str) -> String {
    let rows = docs
        .iter()
        .filter_map(|&d| corpus.papers.get(d as usize))
        .map(|p| row(corpus, p, page_url));
    match format {
        Format::Csv => csv(rows),
        Format::Json => json(rows),
        Format::Markdown => markdown(rows),
        Format::Bibtex => bibtex(rows),
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

/// An author for BibTeX's name parser: a plain `Given Family` name as it
/// is (styles can then abbreviate it), anything that parser would split
/// wrongly (a comma, quotes, brackets) in braces, as one name.
fn bibtex_name(name: &str) -> String {
    let plain = name
        .chars()
        .all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '.' | '\''))
        && name
            .split_whitespace()
            .all(|w| w.starts_with(char::is_uppercase));
    if plain {
        bibtex_text(name)
    } else {
        format!("{{{}}}", bibtex_text(name))
    }
}

/// `@misc` entries keyed by the paper's id (stable across rebuilds).
fn bibtex<'a>(rows: impl Iterator<Item = Row<'a>>) -> String {
    let mut out = String::new();
    for r in rows {
        out += &format!("@misc{{{},\n", r.id);
        out += &format!("  title = {{{{{}}}}},\n", bibtex_text(r.title));
        if !r.authors.is_empty() {
            let authors: Vec<String> = r.authors.iter().map(|a| bibtex_name(a)).collect();
            out += &format!("  author = {{{}}},\n", authors.join(" and "));
        }
        if let Some(y) = r.year {
            out += &format!("  year = {{{y}}},\n");
        }
        if let Some(v) = r.venue {
            out += &format!("  note = {{{}}},\n", bibtex_text(v));
        }
        out += &format!("  howpublished = {{\\url{{{}}}}},\n", url_for_tex(&r.url));
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
