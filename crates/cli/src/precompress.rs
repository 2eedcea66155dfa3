//! The files every first visit downloads, written beside themselves
//! brotli-compressed at the highest quality (`index.html.br`, …), for a
//! server that sends a file's `.br` when the browser accepts it (nginx's
//! `brotli_static`, Caddy's `precompressed br`, most static hosts' own
//! rule). A server that compresses as it sends uses a quicker, weaker
//! setting: the module alone is 37 KB larger at quality 9 than at 11.
//!
//! Only the shell and the list's head are compressed so: the page, its
//! scripts and stylesheet, the module, the papers part and the index's
//! head. A field's packs (tens of thousands of files, hundreds of MB)
//! would take minutes at this quality, and each is small enough that a
//! server's own compression loses little on it.

use std::path::{Path, PathBuf};

use crate::error::{Error, OnPath};

/// Brotli's highest quality, and its largest window that a browser reads
/// (4 MB: larger than any file compressed here).
const QUALITY: i32 = 11;
const WINDOW: i32 = 22;

/// Whether `name` is a file every first visit downloads: the page, its
/// scripts (the compiler's aside, fetched only when a list is opened), its
/// stylesheet and manifest, the module, the papers part and the index's
/// head.
fn every_visit_fetches(name: &str) -> bool {
    let shell = name == "index.html" || name == "manifest.webmanifest" || name.ends_with(".css");
    let script = name.ends_with(".js") && !name.starts_with("compiler");
    let module = name.starts_with("paper-explorer-") && name.ends_with("_bg.wasm");
    let head =
        (name.starts_with("corpus-") || name.starts_with("index-")) && name.ends_with(".bin");
    shell || script || module || head
}

/// Writes `NAME.br` beside each file of `dist` that every first visit
/// downloads, where it is smaller than the file; a stale `.br` of a file
/// no longer there, or no longer smaller, is removed. Returns how many
/// were written.
///
/// With a `cache` folder, a file compressed before (the same bytes, in
/// any build) is not compressed again: every build of a list shares the
/// module, seconds of brotli at this quality.
pub fn precompress(dist: &Path, cache: Option<&Path>) -> Result<usize, Error> {
    let mut todo = Vec::new();
    for entry in std::fs::read_dir(dist).on(dist)? {
        let path = entry.on(dist)?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let Some(name) = name else { continue };
        if let Some(of) = name.strip_suffix(".br") {
            if !dist.join(of).is_file() {
                std::fs::remove_file(&path).on(&path)?;
            }
            continue;
        }
        if path.is_file() && every_visit_fetches(&name) {
            todo.push(path);
        }
    }
    if let Some(cache) = cache {
        std::fs::create_dir_all(cache).on(cache)?;
    }
    // Two lanes, the largest files first in each: the module alone takes
    // most of the time, the rest fits beside it.
    todo.sort_by_key(|p| std::cmp::Reverse(p.metadata().map(|m| m.len()).unwrap_or(0)));
    let lanes: [Vec<&PathBuf>; 2] = [
        todo.iter().step_by(2).collect(),
        todo.iter().skip(1).step_by(2).collect(),
    ];
    let written = std::thread::scope(|s| {
        let handles = lanes.map(|lane| {
            s.spawn(move || -> Result<usize, Error> {
                let mut n = 0;
                for path in lane {
                    n += usize::from(write_br(path, cache)?);
                }
                Ok(n)
            })
        });
        handles.map(|h| h.join().expect("a compressing thread panicked"))
    });
    let [a, b] = written;
    Ok(a? + b?)
}

/// Writes `path`'s `.br` if it is smaller than the file (removing a stale
/// one if not); whether it wrote one.
fn write_br(path: &Path, cache: Option<&Path>) -> Result<bool, Error> {
    let raw = std::fs::read(path).on(path)?;
    let kept = cache.map(|c| {
        let key = xxhash_rust::xxh3::xxh3_128(&raw);
        c.join(format!("{key:032x}-q{QUALITY}w{WINDOW}.br"))
    });
    let compressed = match kept.as_deref().map(std::fs::read) {
        Some(Ok(bytes)) => bytes,
        _ => {
            let bytes = brotli_of(&raw, path)?;
            if let Some(kept) = &kept {
                // A cache that cannot be written only costs time.
                let _ = std::fs::write(kept, &bytes);
            }
            bytes
        }
    };
    let out = br_path(path);
    if compressed.len() < raw.len() {
        std::fs::write(&out, compressed).on(&out)?;
        Ok(true)
    } else {
        if out.exists() {
            std::fs::remove_file(&out).on(&out)?;
        }
        Ok(false)
    }
}

/// `file.ext.br` for `file.ext`.
fn br_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".br");
    PathBuf::from(name)
}

/// `raw` compressed at [`QUALITY`].
fn brotli_of(raw: &[u8], path: &Path) -> Result<Vec<u8>, Error> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: QUALITY,
        lgwin: WINDOW,
        size_hint: raw.len(),
        ..Default::default()
    };
    let mut out = Vec::new();
    brotli::BrotliCompress(&mut &raw[..], &mut out, &params).on(path)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the browser gets back from a `.br` is the file, byte for byte,
    /// and only the files every visit fetches get one.
    #[test]
    fn writes_what_decompresses_to_the_file_for_the_shell_only() {
        let dir = std::env::temp_dir().join(format!("precompress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let page = "<p>a paper's abstract</p>\n".repeat(200);
        std::fs::write(dir.join("index.html"), &page).unwrap();
        std::fs::write(dir.join("postings-0123456789abcdef.bin"), &page).unwrap();
        std::fs::write(dir.join("compiler-0123456789abcdef.js"), &page).unwrap();
        // Incompressible: no .br is written for it.
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
            .collect();
        std::fs::write(dir.join("corpus-0123456789abcdef.bin"), &noise).unwrap();
        // A stale one, of a file gone.
        std::fs::write(dir.join("start-0123456789abcdef.js.br"), b"old").unwrap();

        assert_eq!(precompress(&dir, None).unwrap(), 1);
        let br = std::fs::read(dir.join("index.html.br")).unwrap();
        let mut back = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut back).unwrap();
        assert_eq!(back, page.as_bytes());
        assert!(br.len() * 10 < page.len());
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".br"))
            .collect();
        left.sort();
        assert_eq!(left, ["index.html.br"]);

        // Kept by its bytes: another build's page of the same bytes takes
        // the kept copy (here made recognisable), not a new compression.
        let cache = dir.join("cache");
        assert_eq!(precompress(&dir, Some(&cache)).unwrap(), 1);
        let kept = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| std::fs::read(p).unwrap() == br)
            .expect("the page's compressed bytes kept");
        std::fs::write(&kept, b"kept").unwrap();
        assert_eq!(precompress(&dir, Some(&cache)).unwrap(), 1);
        assert_eq!(std::fs::read(dir.join("index.html.br")).unwrap(), b"kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
