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
pub fn precompress(dist: &Path) -> Result<usize, Error> {
    let mut written = 0;
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
        if !path.is_file() || !every_visit_fetches(&name) {
            continue;
        }
        let raw = std::fs::read(&path).on(&path)?;
        let compressed = brotli_of(&raw, &path)?;
        let out = br_path(&path);
        if compressed.len() < raw.len() {
            std::fs::write(&out, compressed).on(&out)?;
            written += 1;
        } else if out.exists() {
            std::fs::remove_file(&out).on(&out)?;
        }
    }
    Ok(written)
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

        assert_eq!(precompress(&dir).unwrap(), 1);
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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
