//! The build's rewrites of its page: the stylesheets merged into one, and
//! Trunk's inline loader moved into a file of its own; and the single file
//! (`explorer_core::build::single_file`) written from the built site.
//!
//! The rewrites go through `lol_html`, a streaming HTML rewriter that
//! tokenizes the page as a browser would, so an attribute's order, quoting or
//! spacing (or a `>` inside a value) cannot make us miss or mangle a tag.

use std::cell::RefCell;
use std::path::Path;

use lol_html::html_content::ContentType;
use lol_html::{element, rewrite_str, RewriteStrSettings};

use crate::error::{read_text, write, Error, OnPath};

/// A file beside the page, named as the page names it (`./a.css` or
/// `a.css`).
fn beside(dist: &Path, href: &str) -> std::path::PathBuf {
    dist.join(href.strip_prefix("./").unwrap_or(href))
}

/// The bytes of a file beside the page ([`beside`]).
fn read_beside(dist: &Path, href: &str) -> Result<Vec<u8>, Error> {
    crate::error::read(beside(dist, href))
}

/// A file name `<stem>-<hash>.<ext>` for `bytes`, by a content hash that is
/// the same on every machine and Rust version (`DefaultHasher` promises
/// neither), so a rebuild names it alike.
pub(crate) fn hashed_name(stem: &str, ext: &str, bytes: &[u8]) -> String {
    format!("{stem}-{:016x}.{ext}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// Trunk's inline loader (the page's one module script), or why there is
/// none.
fn the_loader(index: &str) -> Result<String, Error> {
    use explorer_core::build::single_file::{the_loader, ModuleScript, SingleFileError};
    let loader = the_loader(index).map_err(|e| match e {
        SingleFileError::Unexpected { name, reason } => Error::unexpected(name, reason),
        e => Error::unexpected("index.html", e),
    });
    match loader? {
        ModuleScript::Inline(text) => Ok(text),
        ModuleScript::File(_) => Err(Error::unexpected(
            "index.html",
            "the loader is moved already",
        )),
    }
}

/// A built site in a folder, as the single file reads it.
struct Dist<'a>(&'a Path);

impl explorer_core::build::single_file::Built for Dist<'_> {
    fn sizes(&self) -> Vec<(String, u64)> {
        let Ok(entries) = std::fs::read_dir(self.0) else {
            return Vec::new();
        };
        (entries.flatten())
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.metadata().ok()?.len())))
            .collect()
    }

    fn read(&self, name: &str) -> Option<Vec<u8>> {
        std::fs::read(self.0.join(name)).ok()
    }
}

/// The single file of the site built in `dist` ([`single_file`]): `Ok`
/// with it, or `Err` with how large it would at least be, above
/// [`MAX_BYTES`].
///
/// [`single_file`]: explorer_core::build::single_file::single_file
/// [`MAX_BYTES`]: explorer_core::build::single_file::MAX_BYTES
pub fn build_within_limit(dist: &Path) -> Result<Result<String, usize>, Error> {
    explorer_core::build::single_file::single_file(&Dist(dist))
        .map_err(|e| Error::unexpected(dist, e))
}

/// Put before Trunk's loader in `start-<hash>.js`: the WebAssembly module
/// (247 KB brotli, five times the first screen) is fetched once the page
/// has painted, so the first screen's bytes (the page with its first
/// papers, the stylesheet) do not share the line with it. In a tab that
/// paints nothing (hidden), it is fetched 100 ms after the page is parsed.
/// The glue (10 KB) is still preloaded with the page.
const AFTER_FIRST_PAINT: &str =
    "// The first screen paints before the WebAssembly module is fetched.
await new Promise((go) => {
  requestAnimationFrame(() => setTimeout(go, 0));
  setTimeout(go, 100);
});
";

/// Moves Trunk's inline module loader out of `index.html` into a file of
/// its own, `start-<hash>.js`, so that the page runs under a
/// Content-Security-Policy that allows no inline script, and fetches the
/// module after the first paint ([`AFTER_FIRST_PAINT`]): Trunk's preload
/// of the module leaves the page. Returns the name.
pub fn external_loader(dist: &Path) -> Result<String, Error> {
    let path = dist.join("index.html");
    let index = read_text(&path)?;
    let loader = the_loader(&index)?;
    let js = format!("{AFTER_FIRST_PAINT}{}\n", loader.trim());
    let name = hashed_name("start", "js", js.as_bytes());
    write(dist.join(&name), js)?;
    let tag = format!("<script type=\"module\" src=\"./{name}\"></script>");
    let html = rewrite_str(
        &index,
        RewriteStrSettings {
            element_content_handlers: vec![
                element!("script[type=module]", |el| {
                    if el.get_attribute("src").is_none() {
                        el.replace(&tag, ContentType::Html);
                    }
                    Ok(())
                }),
                element!("link[rel=preload][type='application/wasm']", |el| {
                    el.remove();
                    Ok(())
                }),
            ],
            ..RewriteStrSettings::default()
        },
    )
    .map_err(|e| Error::unexpected(&path, e))?;
    write(&path, html)?;
    Ok(name)
}

/// The page's stylesheets, in order, as one file `style-<hash>.css` in
/// place of the first and the others removed (from the page and from
/// `dist`): Trunk writes one file per component stylesheet, and a page
/// waits for every stylesheet before its first paint, so a request a stylesheet
/// (six at a time over HTTP/1.1) stood between the page and its first
/// screen. Returns the name. Every stylesheet is a file in `dist` beside
/// the page; one that is not fails the build by name.
pub fn one_stylesheet(dist: &Path) -> Result<String, Error> {
    let path = dist.join("index.html");
    let index = read_text(&path)?;
    let hrefs = RefCell::new(Vec::<String>::new());
    rewrite_str(
        &index,
        RewriteStrSettings {
            element_content_handlers: vec![element!("link[rel=stylesheet][href]", |el| {
                hrefs.borrow_mut().extend(el.get_attribute("href"));
                Ok(())
            })],
            ..RewriteStrSettings::default()
        },
    )
    .map_err(|e| Error::unexpected(&path, e))?;
    let hrefs = hrefs.into_inner();
    if hrefs.is_empty() {
        return Err(Error::unexpected(&path, "no stylesheet"));
    }
    let mut css = Vec::new();
    for href in &hrefs {
        css.extend(read_beside(dist, href)?);
        if !css.ends_with(b"\n") {
            css.push(b'\n');
        }
    }
    let name = hashed_name("style", "css", &css);
    write(dist.join(&name), &css)?;
    let tag = format!("<link rel=\"stylesheet\" href=\"./{name}\">");
    let first = RefCell::new(true);
    let html = rewrite_str(
        &index,
        RewriteStrSettings {
            element_content_handlers: vec![element!("link[rel=stylesheet][href]", |el| {
                if first.replace(false) {
                    el.replace(&tag, ContentType::Html);
                } else {
                    el.remove();
                }
                Ok(())
            })],
            ..RewriteStrSettings::default()
        },
    )
    .map_err(|e| Error::unexpected(&path, e))?;
    write(&path, html)?;
    for href in &hrefs {
        let file = beside(dist, href);
        std::fs::remove_file(&file).on(&file)?;
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stylesheets of a page written by hand become one, in the page's
    /// order, linked once where the first was; the others leave the page
    /// and the folder; a stylesheet that is not there is named.
    #[test]
    fn the_stylesheets_become_one_in_order() {
        let dir = std::env::temp_dir().join(format!("explorer-css-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let put = |name: &str, body: &str| std::fs::write(dir.join(name), body).unwrap();
        put("b.css", "p { margin: 0 }");
        put("a.css", "body { color: red }\n");
        put(
            "index.html",
            concat!(
                "<html><head><title>t</title>",
                "<link href='./b.css' rel='stylesheet'>",
                "<link rel=\"manifest\" href=\"m.webmanifest\">",
                "<link title=\"a > b\" rel=\"stylesheet\" href=\"a.css\"/>",
                "</head><body><p>kept</p></body></html>"
            ),
        );
        let name = one_stylesheet(&dir).unwrap();
        let css = std::fs::read_to_string(dir.join(&name)).unwrap();
        let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".css"))
            .collect();
        put("index.html", "<link rel=stylesheet href=gone.css>");
        let missing = one_stylesheet(&dir).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(css, "p { margin: 0 }\nbody { color: red }\n");
        assert_eq!(
            html,
            format!(
                "<html><head><title>t</title><link rel=\"stylesheet\" href=\"./{name}\">\
                 <link rel=\"manifest\" href=\"m.webmanifest\"></head><body><p>kept</p></body></html>"
            )
        );
        assert_eq!(left, [name]);
        assert!(missing.to_string().contains("gone.css"), "{missing}");
    }

    #[test]
    fn the_loader_moves_to_a_file_of_its_own() {
        let dir = std::env::temp_dir().join(format!("explorer-loader-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let loader = "\nimport init from './app.js';\nawait init();\n";
        // Trunk's preloads of the glue and the module, and the corpus's.
        let preloads = "<link rel=\"modulepreload\" href=\"./app.js\"><link rel=\"preload\" href=\"./app_bg.wasm\" as=\"fetch\" type=\"application/wasm\"><link rel=\"preload\" href=\"./c.bin\" as=\"fetch\" data-corpus>";
        std::fs::write(
            dir.join("index.html"),
            format!(
                "<html><head>{preloads}<script type=\"module\">{loader}</script></head><body></body></html>"
            ),
        )
        .unwrap();
        let name = external_loader(&dir).unwrap();
        let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
        // The module is no longer preloaded; the glue and the papers part
        // still are.
        assert_eq!(
            html,
            format!("<html><head><link rel=\"modulepreload\" href=\"./app.js\"><link rel=\"preload\" href=\"./c.bin\" as=\"fetch\" data-corpus><script type=\"module\" src=\"./{name}\"></script></head><body></body></html>")
        );
        let start = std::fs::read_to_string(dir.join(&name)).unwrap();
        assert!(
            start.starts_with("// The first screen paints before"),
            "{start}"
        );
        assert!(
            start.ends_with("});\nimport init from './app.js';\nawait init();\n"),
            "{start}"
        );
        // Once moved, there is nothing left to move.
        assert!(external_loader(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
