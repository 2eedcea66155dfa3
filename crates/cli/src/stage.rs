//! The Trunk post-build hook's steps that read the corpus: the compiled
//! files staged beside `index.html` and linked from it, the first screen,
//! the no-JavaScript listing, the manifest's name; and the service worker
//! over the whole build.

use std::path::Path;

use explorer_core::build::{
    in_shell, manifest, page, served_by_worker, service_worker, site, BuiltFile, PageParts,
    ServiceWorker, StaticModel, SHELL_FILE,
};
use explorer_core::view::{listing, LISTING_FILE, LISTING_PAGE_PAPERS};

use crate::error::{read, read_text, write, Error, OnPath};

/// Everything the Trunk post-build hook writes from the corpus, from one
/// compile: the compiled list in `dir`, each file named for its content
/// ([`explorer_core::build::site`]); its page (`index.html`: the
/// `<link data-corpus …>` naming the files it opens first, the title, the
/// noscript note and the first screen, [`explorer_core::build::page`]),
/// `papers.html` and the manifest's name. The page may be Trunk's or one
/// staged for another list.
pub fn stage(corpus: &explorer_core::Corpus, dir: &Path) -> Result<(), Error> {
    let site = site(corpus, &StaticModel::committed(), vector_lists_from());
    for (file, bytes) in &site.files {
        write(dir.join(file), bytes)?;
    }
    let parts = PageParts::of(corpus, &site.link, ahead_bytes());
    let index = dir.join("index.html");
    let html = page(&read_text(&index)?, &parts).map_err(|e| Error::unexpected(&index, e))?;
    write(&index, html)?;
    write_listing(corpus, dir)?;
    let file = dir.join("manifest.webmanifest");
    let json = manifest(&read_text(&file)?, &parts).map_err(|e| Error::unexpected(&file, e))?;
    write(&file, json)
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

/// `papers.html` (and its further pages) in `dir`: every paper as static
/// HTML, for browsers without JavaScript and search engines.
fn write_listing(corpus: &explorer_core::Corpus, dir: &Path) -> Result<(), Error> {
    let pages = listing(corpus);
    if pages.len() > 1 {
        eprintln!(
            "{LISTING_FILE}: {} papers in {} pages of {LISTING_PAGE_PAPERS}",
            corpus.papers.len(),
            pages.len()
        );
    }
    for (name, html) in pages {
        write(dir.join(name), html)?;
    }
    Ok(())
}

/// [`SHELL_FILE`] in `dist`: the names of the build's files that are the
/// same whatever its list ([`in_shell`]), sorted, which the page's
/// compiler fetches to publish a list.
fn write_shell(dist: &Path) -> Result<(), Error> {
    let mut shell = Vec::new();
    for entry in std::fs::read_dir(dist).on(dist)? {
        let path = entry.on(dist)?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if let Some(name) = name.filter(|n| path.is_file() && in_shell(n)) {
            shell.push(name);
        }
    }
    shell.sort();
    let json = serde_json::to_string(&shell).expect("names serialize");
    write(dist.join(SHELL_FILE), json + "\n")
}

/// `sw.js` in `dist`, over every file of the build
/// ([`explorer_core::build::service_worker`]).
pub fn write_service_worker(dist: &Path) -> Result<ServiceWorker, Error> {
    write_shell(dist)?;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dist).on(dist)? {
        let path = entry.on(dist)?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        match name {
            Some(name) if path.is_file() && served_by_worker(&name) => {
                files.push(BuiltFile::of(name, &read(&path)?));
            }
            _ => {}
        }
    }
    let sw = service_worker(&files);
    write(dist.join("sw.js"), &sw.script)?;
    Ok(sw)
}
