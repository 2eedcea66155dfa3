//! A paper's abstract as an HTML string, with `<mark>`s at the highlight
//! ranges. The app hands it to the browser in one `innerHTML` assignment per
//! card (far fewer calls across the JS boundary than a node per run, which
//! keeps every keystroke under a frame); the build writes the same HTML into
//! the page's `<noscript>` block.
//!
//! Everything from the corpus is escaped; links are only ever http(s) (the
//! compiler guarantees it, and it is checked again here); MathML comes from the
//! build-time renderer through an element/attribute allow-list.

use std::fmt::Write;
use std::ops::Range;

use crate::model::is_web_url;
use crate::model::{style, BodyRef, Corpus, Paper, RunKind};
use crate::search::engine::{overlaps, split_by_marks};
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};

fn marked(out: &mut String, s: &str, range: Range<usize>, marks: &[Range<usize>]) {
    for (r, hit) in split_by_marks(range, marks) {
        if hit {
            let _ = write!(out, "<mark>{}</mark>", text(&s[r]));
        } else {
            out.push_str(&text(&s[r]));
        }
    }
}

const STYLE_TAGS: [(u8, &str, &str); 4] = [
    (style::FOOTNOTE, "<small class=\"footnote\">", "</small>"),
    (style::BOLD, "<strong>", "</strong>"),
    (style::ITALIC, "<em>", "</em>"),
    (style::CODE, "<code>", "</code>"),
];

fn open(out: &mut String, st: u8) {
    for (bit, open, _) in STYLE_TAGS {
        if st & bit != 0 {
            out.push_str(open);
        }
    }
}

fn close(out: &mut String, st: u8) {
    for (bit, _, close) in STYLE_TAGS.iter().rev() {
        if st & bit != 0 {
            out.push_str(close);
        }
    }
}

/// Escaped plain text with `<mark>`s: a title.
pub fn marked_html(s: &str, marks: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    marked(&mut out, s, 0..s.len(), marks);
    out
}

/// The abstract's HTML: styled runs, links and formulas; a highlight never
/// splits a formula (the whole formula is marked) or a link (the mark goes
/// inside it).
pub fn abstract_html<'a>(body: impl Into<BodyRef<'a>>, marks: &[Range<usize>]) -> String {
    let p: BodyRef<'a> = body.into();
    let mut out = String::with_capacity(p.text.len() + p.text.len() / 4);
    for (range, kind) in p.run_ranges() {
        match kind {
            RunKind::Text { style } => {
                open(&mut out, *style);
                marked(&mut out, p.text, range, marks);
                close(&mut out, *style);
            }
            RunKind::Link { href, style } => {
                open(&mut out, *style);
                if is_web_url(href) {
                    let _ = write!(
                        out,
                        "<a href=\"{}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">",
                        attr(href)
                    );
                    marked(&mut out, p.text, range, marks);
                    out.push_str("</a>");
                } else {
                    marked(&mut out, p.text, range, marks);
                }
                close(&mut out, *style);
            }
            RunKind::Math { tex, mathml } => {
                let hit = overlaps(&range, marks);
                if hit {
                    out.push_str("<mark class=\"math-mark\">");
                }
                match mathml {
                    Some(m) => {
                        let _ = write!(
                            out,
                            "<span class=\"math\" title=\"{}\">{m}</span>",
                            attr(tex)
                        );
                    }
                    None => {
                        let _ = write!(
                            out,
                            "<span class=\"math math-text\" title=\"{}\">{}</span>",
                            attr(tex),
                            text(&p.text[range])
                        );
                    }
                }
                if hit {
                    out.push_str("</mark>");
                }
            }
        }
    }
    out
}

/// Text escaped for HTML.
pub fn escape(s: &str) -> String {
    text(s).into_owned()
}

/// Marker in `index.html` replaced by [`noscript`] at build time.
pub const NOSCRIPT_MARKER: &str = "<!-- noscript -->";

/// Abstracts are written into a page of the static listing until it
/// reaches this size; beyond it papers are listed by title only, so that
/// a page of very long abstracts stays a page.
pub const NOSCRIPT_ABSTRACT_BUDGET: usize = 4 << 20;

/// Papers on one page of the static listing. A list of a few thousand
/// papers is one page; a field of 100,000 is pages of this many, each
/// about 2 MB with its abstracts (one 20 MB page of titles only was what
/// a browser without JavaScript, and a search engine, got before).
pub const LISTING_PAGE_PAPERS: usize = 2000;

/// The file, beside `index.html`, that lists the papers as static HTML
/// (the first page of [`listing`]).
pub const LISTING_FILE: &str = "papers.html";

/// The file of page `k` (from 1) of the static listing: [`LISTING_FILE`],
/// then `papers-2.html`, `papers-3.html`, …
pub fn listing_file(k: usize) -> String {
    if k <= 1 {
        LISTING_FILE.to_string()
    } else {
        format!("papers-{k}.html")
    }
}

/// What a browser without JavaScript or WebAssembly sees in `index.html`: a
/// note and a link to [`listing`]. The papers themselves are not in the
/// page every visitor downloads (at 20,000 papers they were 4.8 MB of it).
pub fn noscript(corpus: &Corpus) -> String {
    let n = corpus.papers.len();
    format!(
        "<noscript><div class=\"noscript\"><h1>{}</h1><p class=\"noscript-note\">Searching and \
         filtering need JavaScript and WebAssembly, which this browser does not run. \
         <a href=\"{LISTING_FILE}\">All {n} papers, as a plain page</a>.</p></div></noscript>",
        text(&corpus.title()),
    )
}

/// Every paper as static HTML: what a browser without JavaScript or
/// WebAssembly, or a search engine, reads. One page (file name, HTML) per
/// [`LISTING_PAGE_PAPERS`] papers, in list order, each linking to the
/// others; a list with no papers still has its one page.
pub fn listing(corpus: &Corpus) -> Vec<(String, String)> {
    let n = corpus.papers.len();
    let pages = n.div_ceil(LISTING_PAGE_PAPERS).max(1);
    (1..=pages)
        .map(|k| {
            let from = (k - 1) * LISTING_PAGE_PAPERS;
            let papers = &corpus.papers[from..(from + LISTING_PAGE_PAPERS).min(n)];
            (
                listing_file(k),
                listing_page(corpus, papers, from, k, pages),
            )
        })
        .collect()
}

/// Page `k` of `pages` of [`listing`]: `papers`, the first of which is
/// paper `from` (from 0) of the list.
fn listing_page(corpus: &Corpus, papers: &[Paper], from: usize, k: usize, pages: usize) -> String {
    let (body, with_abstract) = listing_articles(corpus, papers);
    let n = corpus.papers.len();
    let shown = papers.len();
    let listed = match (pages, with_abstract == shown) {
        (1, true) => format!("All {n} papers are listed below."),
        (1, false) => {
            format!(
                "All {n} papers are listed below, the first {with_abstract} with their abstracts."
            )
        }
        (_, all) => {
            let range = format!("Papers {}–{} of {n}", from + 1, from + shown);
            if all {
                format!("{range}, page {k} of {pages}.")
            } else {
                format!(
                    "{range}, page {k} of {pages}; the first {with_abstract} with their abstracts."
                )
            }
        }
    };
    let nav = listing_nav(k, pages);
    let title = escape(&corpus.title());
    let head_title = if pages == 1 {
        title.clone()
    } else {
        format!("{title} ({k} of {pages})")
    };
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\"><title>{head_title}</title>\
         <style>body{{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem}}\
         article{{border-top:1px solid #8884;padding:.5rem 0}}.paper-meta{{opacity:.8}}\
         .pages ul{{display:flex;flex-wrap:wrap;gap:.25rem .75rem;list-style:none;padding:0}}</style></head>\
         <body><main class=\"noscript\"><h1>{title}</h1><p class=\"noscript-note\">Searching and \
         filtering need JavaScript and WebAssembly: <a href=\"./\">open the explorer</a>. \
         {listed}</p>{nav}{body}{nav}</main></body></html>"
    )
}

/// The `<article>`s of a listing page, and how many of them have their
/// abstract (the first ones, until the articles reach
/// [`NOSCRIPT_ABSTRACT_BUDGET`] bytes).
fn listing_articles(corpus: &Corpus, papers: &[Paper]) -> (String, usize) {
    let mut body = String::new();
    let mut with_abstract = 0usize;
    for p in papers {
        let list = corpus
            .lists
            .get(p.list as usize)
            .map_or("", |l| l.label.as_str());
        let meta = if p.authors.is_empty() {
            list.to_string()
        } else {
            format!("{} · {list}", p.authors.join(", "))
        };
        let _ = write!(
            body,
            "<article id=\"{}\"><h2>{}</h2><p class=\"paper-meta\">{}</p>",
            attr(&p.id),
            text(&p.title),
            text(&meta),
        );
        if body.len() < NOSCRIPT_ABSTRACT_BUDGET {
            let _ = write!(body, "<p>{}</p>", abstract_html(p, &[]));
            with_abstract += 1;
        }
        body.push_str("</article>");
    }
    (body, with_abstract)
}

/// The links between the listing's pages, page `k` of `pages` marked
/// current; empty when there is one page.
fn listing_nav(k: usize, pages: usize) -> String {
    if pages == 1 {
        return String::new();
    }
    let mut nav = String::from("<nav class=\"pages\" aria-label=\"Pages\"><ul>");
    if k > 1 {
        let _ = write!(
            nav,
            "<li><a rel=\"prev\" href=\"{}\">Previous</a></li>",
            listing_file(k - 1)
        );
    }
    for j in 1..=pages {
        if j == k {
            let _ = write!(nav, "<li><a aria-current=\"page\">{j}</a></li>");
        } else {
            let _ = write!(nav, "<li><a href=\"{}\">{j}</a></li>", listing_file(j));
        }
    }
    if k < pages {
        let _ = write!(
            nav,
            "<li><a rel=\"next\" href=\"{}\">Next</a></li>",
            listing_file(k + 1)
        );
    }
    nav.push_str("</ul></nav>");
    nav
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // one highlight range is a real case
mod tests {
    use super::*;
    use crate::build::markup::parse;

    fn paper(src: &str) -> Paper {
        let m = parse(src);
        Paper {
            id: "p".into(),
            list: 0,
            line: 1,
            title: String::new(),
            title_derived: true,
            authors: vec![],
            year: None,
            links: vec![],
            text: m.text,
            runs: m.runs,
            tags: vec![],
            similar: vec![],
            keywords: vec![],
            map: [0; 2],
        }
    }

    #[test]
    fn styles_links_and_marks() {
        let p = paper(r"we \textbf{propose} X at https://github.com/a/b.");
        let at = p.text.find("propose").unwrap();
        let html = abstract_html(&p, &[at..at + 7]);
        assert_eq!(
            html,
            "we <strong><mark>propose</mark></strong> X at <a href=\"https://github.com/a/b\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">https://github.com/a/b</a>."
        );
    }

    #[test]
    fn a_formula_is_marked_whole() {
        let mut p = paper(r"cost $\epsilon$-uniform");
        let html = abstract_html(&p, &[5..6]);
        assert!(
            html.starts_with("cost <mark class=\"math-mark\"><span class=\"math math-text\""),
            "{html}"
        );
        p.runs.clear();
        assert_eq!(abstract_html(&p, &[]), "");
    }

    fn corpus_of(papers: Vec<Paper>) -> Corpus {
        Corpus {
            lists: vec![],
            facets: vec![],
            reasons: vec![],
            similar_terms: vec![],
            body_packs: Default::default(),
            map_part: None,
            tag_part: None,
            titles: None,
            papers,
            index: Default::default(),
        }
    }

    #[test]
    fn a_page_of_long_abstracts_lists_every_title_and_abstracts_up_to_the_budget() {
        let mut p = paper(&"An abstract of some length. ".repeat(400));
        p.title = "A title".into();
        let n = 2 * NOSCRIPT_ABSTRACT_BUDGET / p.text.len();
        assert!(n < LISTING_PAGE_PAPERS);
        let corpus = corpus_of(vec![p; n]);
        let pages = listing(&corpus);
        assert_eq!(pages.len(), 1);
        let (file, html) = &pages[0];
        assert_eq!(file, LISTING_FILE);
        assert_eq!(html.matches("<h2>A title</h2>").count(), n);
        let with = html.matches("<p>An abstract").count();
        assert!(with > 0 && with < n, "{with} of {n}");
        assert!(html.contains(&format!(
            "All {n} papers are listed below, the first {with} with their abstracts."
        )));
        assert!(html.len() < 2 * NOSCRIPT_ABSTRACT_BUDGET);
        assert!(!html.contains("<nav"), "one page needs no page links");
        // What every visitor downloads only links to it.
        let note = noscript(&corpus);
        assert!(note.contains(&format!("<a href=\"{LISTING_FILE}\">All {n} papers")));
        assert!(note.len() < 1000, "{} bytes", note.len());
    }

    #[test]
    fn a_field_is_listed_in_pages_that_link_to_each_other() {
        let n = 2 * LISTING_PAGE_PAPERS + 7;
        let papers = (0..n)
            .map(|i| {
                let mut p = paper(&format!("Abstract number {i}."));
                p.id = format!("p{i}");
                p.title = format!("Title {i}");
                p
            })
            .collect();
        let pages = listing(&corpus_of(papers));
        let files: Vec<&str> = pages.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(files, ["papers.html", "papers-2.html", "papers-3.html"]);
        // Every paper on exactly one page, with its abstract, in list order.
        let mut seen = Vec::new();
        for (_, html) in &pages {
            for part in html.split("<article id=\"p").skip(1) {
                seen.push(part[..part.find('"').unwrap()].parse::<usize>().unwrap());
            }
            assert_eq!(
                html.matches("<h2>").count(),
                html.matches("<p>Abstract number").count()
            );
        }
        assert_eq!(seen, (0..n).collect::<Vec<_>>());
        let (_, second) = &pages[1];
        assert!(second.contains(&format!(
            "Papers {}–{} of {n}, page 2 of 3.",
            LISTING_PAGE_PAPERS + 1,
            2 * LISTING_PAGE_PAPERS
        )));
        assert!(second.contains("<a rel=\"prev\" href=\"papers.html\">"));
        assert!(second.contains("<a rel=\"next\" href=\"papers-3.html\">"));
        assert!(second.contains("<a aria-current=\"page\">2</a>"));
        assert!(!pages[0].1.contains("rel=\"prev\""));
        assert!(!pages[2].1.contains("rel=\"next\""));
        assert!(pages[2].1.contains("<a href=\"papers-2.html\">2</a>"));
    }

    #[test]
    fn an_empty_list_still_has_its_page() {
        let pages = listing(&corpus_of(vec![]));
        assert_eq!(pages.len(), 1);
        assert!(pages[0].1.contains("All 0 papers are listed below."));
    }

    #[test]
    fn hostile_text_is_inert() {
        let p = paper(
            r#"<script>alert(1)</script> <img src=x onerror="alert(1)"> \url{javascript:alert(1)} "quoted" & </article>"#,
        );
        let html = abstract_html(&p, &[0..3]);
        assert!(
            !html.contains("<script") && !html.contains("<img") && !html.contains("</article>"),
            "{html}"
        );
        assert!(!html.contains("href=\"javascript"), "{html}");
        assert!(abstract_html(&p, &[]).starts_with("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }
}
