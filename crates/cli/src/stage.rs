//! The Trunk post-build hook's steps that read the corpus: the compiled
//! files staged beside `index.html` and linked from it, the first screen,
//! the no-JavaScript listing, the manifest's name.

use std::path::Path;

use explorer_core::build::{build_meaning_in_lists_from, StaticModel};
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

/// The compiled corpus in `dir`, each file named for its content:
/// `corpus-<hash>.bin` (the papers: what the first results need), which
/// `index` preloads while the WebAssembly compiles; `index-<hash>.bin`
/// (the search index without its postings), which the app fetches after
/// the first results; the postings in packs, `postings-<hash>.bin`, each
/// fetched when a query's words are in it; the meaning file, and a long
/// list's paper vectors in lists (`vectors-<hash>.bin`). One
/// `<link data-corpus href=… data-index=… data-meaning=… data-meaning-bytes=…>`
/// names them (the index names its packs, the meaning file its lists).
fn write_corpus(corpus: &explorer_core::Corpus, dir: &Path, index: &Path) -> Result<(), Error> {
    // A long list's papers part holds their heads; their bodies are in
    // packs, `bodies-<hash>.bin`, fetched for the cards shown, their
    // places on the topic map in `map-<hash>.bin`, fetched for the map,
    // and their titles in packs of their own.
    let parts = if corpus.papers.len() >= explorer_core::model::BODIES_APART_FROM {
        write_papers_apart(corpus, dir)?.to_parts()
    } else {
        corpus.to_parts()
    };
    use explorer_core::model::{content_hash, file_name};
    let name = |kind: &str, bytes: &[u8]| file_name(kind, content_hash(bytes));
    let built_meaning = build_meaning_in_lists_from(
        &StaticModel::committed(),
        &corpus.papers,
        vector_lists_from(),
    )
    .0;
    let meaning = built_meaning.to_bytes();
    // A long list's paper vectors, in lists fetched when a query needs
    // them (`vectors-<hash>.bin`, named by the meaning file).
    let lists = built_meaning.list_files();
    for (l, list) in (0..).zip(&lists) {
        let file = built_meaning
            .list_file(l)
            .expect("a list of the meaning file");
        write(dir.join(file), list)?;
    }
    let packed = corpus.index.in_packs(explorer_core::search::PACK_BYTES);
    let head = packed.head.to_frame();
    let (papers, search, close) = (
        name("corpus", &parts.papers),
        name("index", &head),
        name("meaning", &meaning),
    );
    for (file, bytes) in [
        (&papers, &parts.papers),
        (&search, &head),
        (&close, &meaning),
    ] {
        write(dir.join(file), bytes)?;
    }
    for (hash, bytes) in packed.head.pack_hashes().zip(&packed.packs) {
        write(dir.join(explorer_core::search::pack_file_name(hash)), bytes)?;
    }
    let html = read_text(index)?;
    if !html.contains("</head>") || html.contains("data-corpus") {
        return Err(Error::unexpected(
            index,
            "no </head>, or a corpus link already",
        ));
    }
    // The meaning file's size, with its lists': what "save for offline
    // use" says it fetches. And, when the build sets it, the most the page
    // may fetch ahead of need (else the page's own default).
    let ahead = ahead_bytes().map_or(String::new(), |n| format!(" data-ahead-bytes=\"{n}\""));
    let link = format!(
        "<link rel=\"preload\" href=\"./{papers}\" as=\"fetch\" crossorigin=\"anonymous\" data-corpus data-index=\"./{search}\" data-meaning=\"./{close}\" data-meaning-bytes=\"{}\"{ahead} />\n",
        meaning.len() + lists.iter().map(Vec::len).sum::<usize>()
    );
    write(index, html.replacen("</head>", &(link + "</head>"), 1))
}

/// Writes a long list's papers apart in `dir` (tags, bodies, places on
/// the map, titles and their order, each file named for its content);
/// returns the head that names them.
fn write_papers_apart(
    corpus: &explorer_core::Corpus,
    dir: &Path,
) -> Result<explorer_core::Corpus, Error> {
    use explorer_core::model::{
        body_pack_file_name, map_part_file_name, tag_part_file_name, title_order_file_name,
        title_pack_file_name, BODY_PACK_BYTES, TITLE_PACK_BYTES,
    };
    // The tags, in `tags-<hash>.bin`, fetched after the first answer
    // (facet counts of a query, filters); each card's own come with its
    // body.
    let (head, tags) = corpus.tags_apart();
    if let Some(r) = &head.tag_part {
        write(dir.join(tag_part_file_name(r.hash)), &tags)?;
    }
    let (head, packs) = head.in_body_packs(BODY_PACK_BYTES);
    for (r, bytes) in head.body_packs.iter().zip(&packs) {
        write(dir.join(body_pack_file_name(r.hash)), bytes)?;
    }
    let (head, map) = head.map_apart();
    if let Some(r) = &head.map_part {
        write(dir.join(map_part_file_name(r.hash)), &map)?;
    }
    // The titles, in small packs, `titles-<hash>.bin`, fetched for the
    // cards and lists shown, and the title order for sorting.
    let (head, packs, order) = head.titles_apart(TITLE_PACK_BYTES);
    if let Some(t) = &head.titles {
        for (r, bytes) in t.packs.iter().zip(&packs) {
            write(dir.join(title_pack_file_name(r.hash)), bytes)?;
        }
        write(dir.join(title_order_file_name(t.order_hash)), &order)?;
    }
    Ok(head)
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
