//! The Trunk post-build hook's steps that read the corpus: the compiled
//! files staged beside `index.html` and linked from it, the first screen,
//! the no-JavaScript listing, the manifest's name.

use std::path::Path;

use explorer_core::build::{site, StaticModel};
use explorer_core::view::{
    escape, listing, noscript, LISTING_FILE, LISTING_PAGE_PAPERS, NOSCRIPT_MARKER,
};
use serde_json::json;

use crate::error::{read_text, write, Error};

/// Everything the Trunk post-build hook writes from the corpus, from one
/// compile: the corpus file, the noscript note and `papers.html`, the
/// manifest's name.
pub fn stage(corpus: &explorer_core::Corpus, dir: &Path) -> Result<(), Error> {
    let index = dir.join("index.html");
    write_corpus(corpus, dir, &index)?;
    write_noscript(corpus, &index)?;
    write_first_screen(corpus, &index)?;
    write_manifest(corpus, &dir.join("manifest.webmanifest"))
}

/// The compiled corpus in `dir`, each file named for its content
/// ([`explorer_core::build::site`]): `corpus-<hash>.bin` (the papers: what
/// the first results need), which `index` preloads while the WebAssembly
/// compiles; `index-<hash>.bin` (the search index without its postings),
/// which the app fetches after the first results; the postings in packs,
/// the meaning file and its lists, and a long list's parts apart. One
/// `<link data-corpus href=… data-index=… data-meaning=… data-meaning-bytes=…>`
/// names them (the index names its packs, the meaning file its lists).
fn write_corpus(corpus: &explorer_core::Corpus, dir: &Path, index: &Path) -> Result<(), Error> {
    let site = site(corpus, &StaticModel::committed(), vector_lists_from());
    for (file, bytes) in &site.files {
        write(dir.join(file), bytes)?;
    }
    let html = read_text(index)?;
    if !html.contains("</head>") || html.contains("data-corpus") {
        return Err(Error::unexpected(
            index,
            "no </head>, or a corpus link already",
        ));
    }
    let link = site.link.html(ahead_bytes());
    write(index, html.replacen("</head>", &(link + "</head>"), 1))
}

/// The most a page of this build may fetch ahead of need, uncompressed
/// (`CORPUS_AHEAD_BYTES`, a number; 0 fetches only what is read), when set.
fn ahead_bytes() -> Option<usize> {
    std::env::var("CORPUS_AHEAD_BYTES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
}

/// From how many papers the papers' vectors come in lists:
/// `CORPUS_VECTOR_LISTS_FROM` when set to a number, else
/// [`explorer_core::search::LISTS_FROM`].
fn vector_lists_from() -> usize {
    std::env::var("CORPUS_VECTOR_LISTS_FROM")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(explorer_core::search::LISTS_FROM)
}

/// Replaces the noscript marker in `file` with a note linking to
/// `papers.html` (and its further pages), written beside it, and names the
/// page after the corpus.
pub fn write_noscript(corpus: &explorer_core::Corpus, file: &Path) -> Result<(), Error> {
    let html = read_text(file)?;
    if !html.contains(NOSCRIPT_MARKER) {
        return Err(Error::unexpected(
            file,
            format!("no {NOSCRIPT_MARKER} marker to replace"),
        ));
    }
    let html = html
        .replacen(NOSCRIPT_MARKER, &noscript(corpus), 1)
        .replacen(
            "<title>Paper explorer</title>",
            &format!("<title>{}</title>", escape(&corpus.title())),
            1,
        );
    write(file, html)?;
    let pages = listing(corpus);
    if pages.len() > 1 {
        eprintln!(
            "{LISTING_FILE}: {} papers in {} pages of {LISTING_PAGE_PAPERS}",
            corpus.papers.len(),
            pages.len()
        );
    }
    for (name, html) in pages {
        write(file.with_file_name(name), html)?;
    }
    Ok(())
}

/// The marker in `index.html` replaced by the first screen.
const FIRST_SCREEN_MARKER: &str = "<!-- first-screen -->";

/// Replaces the first-screen marker in `file` with what the page shows
/// before the app has started: the first papers, as the app's default view
/// shows them (`explorer_core::view::first_screen`).
fn write_first_screen(corpus: &explorer_core::Corpus, file: &Path) -> Result<(), Error> {
    let html = read_text(file)?;
    if !html.contains(FIRST_SCREEN_MARKER) {
        return Err(Error::unexpected(
            file,
            format!("no {FIRST_SCREEN_MARKER} marker to replace"),
        ));
    }
    let screen = explorer_core::view::first_screen(corpus, &explorer_core::view::EN);
    write(file, html.replacen(FIRST_SCREEN_MARKER, &screen, 1))
}

/// Names the web app manifest `file` after the corpus.
pub fn write_manifest(corpus: &explorer_core::Corpus, file: &Path) -> Result<(), Error> {
    let manifest = read_text(file)?;
    let mut manifest = match serde_json::from_str::<serde_json::Value>(&manifest) {
        Ok(serde_json::Value::Object(m)) => m,
        Ok(_) => return Err(Error::unexpected(file, "not a JSON object")),
        Err(e) => return Err(Error::unexpected(file, e)),
    };
    // The home-screen label: the first list's name when it is short.
    let short = corpus
        .lists
        .first()
        .map(|l| l.name.clone())
        .filter(|n| n.chars().count() <= 16)
        .unwrap_or_else(|| "Papers".into());
    manifest.insert("name".into(), json!(corpus.title()));
    manifest.insert("short_name".into(), json!(short));
    let text = serde_json::to_string_pretty(&manifest).unwrap();
    write(file, text + "\n")
}
