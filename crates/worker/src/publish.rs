//! A kept list published: the site `CORPUS_DIR=… ./dev build` writes for
//! it, as one zip, made from what this browser already holds. The list's
//! files come from its cache (as the compiler wrote them, with its
//! no-JavaScript listing and its page's parts); the app's own files (the
//! module, scripts, stylesheet, icons, this compiler: the same for any
//! list, named in `shell.json`) are fetched from the page's folder, as is
//! the page itself, staged again for the list by the CLI's own function
//! ([`explorer_core::build::page`]); the manifest is named for it and the
//! service worker written over the whole; the single file made from it
//! all ([`single_file`]). Left out, as the site works without them: the
//! `.br` copies.

use explorer_core::build::single_file::{single_file, SINGLE_FILE};
use explorer_core::build::{manifest, page, service_worker, BuiltFile, PageParts, SHELL_FILE};
use explorer_core::model::opened::{cache_name, OpenError, PAGE_PARTS_FILE};
use js_sys::Uint8Array;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A file of the site: its name and bytes.
type File = (String, Vec<u8>);

/// The site of the kept list `id` (compiled from `file`), as a zip and
/// the zip's name.
pub async fn publish(id: &str, file: &str) -> Result<File, OpenError> {
    let mut files = kept_files(id).await?;
    let at =
        (files.iter().position(|(n, _)| n == PAGE_PARTS_FILE)).ok_or(OpenError::NotPublishable)?;
    let (_, parts) = files.swap_remove(at);
    let parts: PageParts = serde_json::from_slice(&parts).map_err(|_| OpenError::NotPublishable)?;
    let shell = fetched(SHELL_FILE).await?;
    let names: Vec<String> =
        serde_json::from_slice(&shell).map_err(|e| unreadable(SHELL_FILE, e))?;
    files.push((SHELL_FILE.into(), shell));
    for name in names {
        let bytes = fetched(&name).await?;
        files.push((name, bytes));
    }
    let html = text("index.html", fetched("index.html").await?)?;
    let html = page(&html, &parts).map_err(|e| unreadable("index.html", e))?;
    files.push(("index.html".into(), html.into_bytes()));
    let json = text(
        "manifest.webmanifest",
        fetched("manifest.webmanifest").await?,
    )?;
    let json = manifest(&json, &parts).map_err(|e| unreadable("manifest.webmanifest", e))?;
    files.push(("manifest.webmanifest".into(), json.into_bytes()));
    // The single file, made as the CLI makes it from the same files; none
    // for a list too large for one (as the CLI writes none).
    if let Ok(html) = single_file(&files).map_err(|e| unreadable(SINGLE_FILE, e))? {
        files.push((SINGLE_FILE.into(), html.into_bytes()));
    }
    let built: Vec<BuiltFile> = (files.iter())
        .map(|(n, b)| BuiltFile::of(n.clone(), b))
        .collect();
    files.push(("sw.js".into(), service_worker(&built).script.into_bytes()));
    files.sort();
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    Ok((format!("{stem}-explorer.zip"), zipped(&files)?))
}

/// The files the compiler wrote for the kept list `id`, as its cache
/// holds them (`lists/<id>/<name>`).
async fn kept_files(id: &str) -> Result<Vec<File>, OpenError> {
    let failed = |e: JsValue| OpenError::Storage {
        reason: e.as_string().unwrap_or_else(|| format!("{e:?}")),
    };
    let caches = crate::scope().caches().map_err(failed)?;
    let cache: web_sys::Cache = JsFuture::from(caches.open(&cache_name(id)))
        .await
        .map_err(failed)?
        .unchecked_into();
    let keys: js_sys::Array = JsFuture::from(cache.keys())
        .await
        .map_err(failed)?
        .unchecked_into();
    let mut files = Vec::new();
    for key in keys.iter() {
        let request: web_sys::Request = key.unchecked_into();
        let url = request.url();
        let name = url.rsplit('/').next().unwrap_or_default().to_string();
        let response: web_sys::Response = JsFuture::from(cache.match_with_request(&request))
            .await
            .map_err(failed)?
            .unchecked_into();
        let buffer = JsFuture::from(response.array_buffer().map_err(failed)?)
            .await
            .map_err(failed)?;
        files.push((name, Uint8Array::new(&buffer).to_vec()));
    }
    Ok(files)
}

/// A file of the page's folder (from the service worker's cache where it
/// keeps it, so that a list can be published offline).
async fn fetched(name: &str) -> Result<Vec<u8>, OpenError> {
    let body = JsFuture::from(crate::fetched(name).await?).await;
    let buffer = body.map_err(|_| OpenError::Fetch {
        url: name.to_string(),
    })?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

fn text(name: &str, bytes: Vec<u8>) -> Result<String, OpenError> {
    String::from_utf8(bytes).map_err(|e| unreadable(name, e))
}

/// A file of the page's folder that is not what this build wrote.
fn unreadable(name: &str, e: impl std::fmt::Display) -> OpenError {
    OpenError::Source {
        message: format!("{name}: {e}"),
    }
}

/// `files` in one zip, each deflated, dated as zip's epoch (1980): the
/// same list gives the same bytes.
fn zipped(files: &[File]) -> Result<Vec<u8>, OpenError> {
    use std::io::Write;
    let failed = |e: &dyn std::fmt::Display| OpenError::Storage {
        reason: e.to_string(),
    };
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for (name, bytes) in files {
        zip.start_file(name.as_str(), options)
            .map_err(|e| failed(&e))?;
        zip.write_all(bytes).map_err(|e| failed(&e))?;
    }
    Ok(zip.finish().map_err(|e| failed(&e))?.into_inner())
}
