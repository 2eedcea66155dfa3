//! The single-file build: the built `index.html` with its stylesheets, the
//! wasm-bindgen glue, the WebAssembly module and the corpus inlined, so one HTML file
//! opens from `file://` (no server, no service worker), or travels as a mail
//! attachment or a wiki upload.
//!
//! Both rewrites here go through `lol_html`, a streaming HTML rewriter that
//! tokenizes the page as a browser would, so an attribute's order, quoting or
//! spacing (or a `>` inside a value) cannot make us miss or mangle a tag.

use std::cell::RefCell;
use std::path::Path;

use base64::Engine as _;
use lol_html::html_content::{ContentType, Element};
use lol_html::{element, rewrite_str, text, RewriteStrSettings};

use crate::error::{read_text, write, Error, OnPath};

type HandlerResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// A file beside the page, named as the page names it (`./a.css` or
/// `a.css`).
fn beside(dist: &Path, href: &str) -> std::path::PathBuf {
    dist.join(href.strip_prefix("./").unwrap_or(href))
}

/// The bytes of a file beside the page ([`beside`]).
fn read_beside(dist: &Path, href: &str) -> Result<Vec<u8>, Error> {
    crate::error::read(beside(dist, href))
}

/// A file beside the page as UTF-8 text.
fn text_beside(dist: &Path, href: &str) -> Result<String, Error> {
    String::from_utf8(read_beside(dist, href)?).map_err(|e| Error::unexpected(href, e))
}

/// A file name `<stem>-<hash>.<ext>` for `bytes`, by a content hash that is
/// the same on every machine and Rust version (`DefaultHasher` promises
/// neither), so a rebuild names it alike.
fn hashed_name(stem: &str, ext: &str, bytes: &[u8]) -> String {
    format!("{stem}-{:016x}.{ext}", xxhash_rust::xxh3::xxh3_64(bytes))
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The text of each inline module script (`<script type="module">` without
/// `src`) in the page, in order: Trunk's loader.
fn inline_module_scripts(index: &str) -> Result<Vec<String>, Error> {
    let scripts = RefCell::new(Vec::<String>::new());
    let inline = RefCell::new(false);
    rewrite_str(
        index,
        RewriteStrSettings {
            element_content_handlers: vec![
                element!("script[type=module]", |el| {
                    let is_inline = el.get_attribute("src").is_none();
                    *inline.borrow_mut() = is_inline;
                    if is_inline {
                        scripts.borrow_mut().push(String::new());
                    }
                    Ok(())
                }),
                text!("script[type=module]", |t| {
                    if *inline.borrow() {
                        if let Some(last) = scripts.borrow_mut().last_mut() {
                            last.push_str(t.as_str());
                        }
                    }
                    Ok(())
                }),
            ],
            ..RewriteStrSettings::default()
        },
    )
    .map_err(|e| Error::unexpected("index.html", e))?;
    Ok(scripts.into_inner())
}

/// Trunk's one inline loader, or why there is not exactly one.
fn the_loader(index: &str) -> Result<String, Error> {
    let mut scripts = inline_module_scripts(index)?;
    match scripts.len() {
        0 => Err(Error::unexpected("index.html", "no inline module loader")),
        1 => Ok(scripts.remove(0)),
        _ => Err(Error::unexpected(
            "index.html",
            "more than one inline module script",
        )),
    }
}

/// A quoted string literal in `js` that follows `prefix` (`from './`).
fn quoted_after<'a>(js: &'a str, prefix: &str) -> Option<&'a str> {
    let i = js.find(prefix)? + prefix.len();
    let j = js[i..].find('\'')? + i;
    Some(&js[i..j])
}

/// The files beside the page that `hashes` name (`name`: a kind's file
/// name from a hash), read in order, to be handed one at a time to what
/// joins them back (which checks each against its hash).
fn read_named(
    dist: &Path,
    hashes: impl Iterator<Item = u64>,
    name: fn(u64) -> String,
) -> Result<std::vec::IntoIter<Vec<u8>>, Error> {
    let files = hashes
        .map(|hash| read_beside(dist, &name(hash)))
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(files.into_iter())
}

/// The search index of `dist` whole: its head (`href`) with every pack of
/// its postings put back, each checked against the hash the head names
/// (the single file fetches nothing).
fn whole_index(dist: &Path, href: &str) -> Result<Vec<u8>, Error> {
    use explorer_core::search::IndexData;
    let head =
        IndexData::from_bytes(&read_beside(dist, href)?).map_err(|e| Error::unexpected(href, e))?;
    let packs = (head.pack_files().iter())
        .map(|file| read_beside(dist, file))
        .collect::<Result<Vec<_>, Error>>()?;
    let mut packs = packs.into_iter();
    let whole = IndexData::joined(head, |_| packs.next().unwrap_or_default())
        .map_err(|e| Error::unexpected(href, e))?;
    Ok(whole.to_frame())
}

/// The papers part of `dist` whole: its heads (`href`) with every pack of
/// their bodies and titles and the topic map's file put back, each checked
/// against the hash it is named by.
fn whole_papers(dist: &Path, href: &str) -> Result<Vec<u8>, Error> {
    use explorer_core::model::{body_pack_file_name, map_part_file_name, title_pack_file_name};
    let head = explorer_core::Corpus::from_papers_part(&read_beside(dist, href)?)
        .map_err(|e| Error::unexpected(href, e))?;
    if head.body_packs.is_empty() && head.map_part.is_none() && head.titles.is_none() {
        return read_beside(dist, href);
    }
    let hashes = head.title_packs().iter().map(|r| r.hash);
    let mut titles = read_named(dist, hashes, title_pack_file_name)?;
    let head = head
        .with_titles(|_| titles.next().unwrap_or_default())
        .map_err(|e| Error::unexpected(href, e))?;
    // The bodies before the map: the words their similar papers' terms
    // name come first in the table the two build again, as at compile time.
    let hashes = head.body_packs.iter().map(|r| r.hash);
    let mut packs = read_named(dist, hashes, body_pack_file_name)?;
    let head = head
        .with_bodies(|_| packs.next().unwrap_or_default())
        .map_err(|e| Error::unexpected(href, e))?;
    let map = match head.map_part {
        Some(r) => read_beside(dist, &map_part_file_name(r.hash))?,
        None => Vec::new(),
    };
    let whole = head
        .with_map_part(&map)
        .map_err(|e| Error::unexpected(href, e))?;
    Ok(whole.to_parts().papers)
}

/// The largest single file written: 32 MB, about 8,000 papers (the
/// 3,891 papers of the ACL list make 14 MB, 20,000 synthetic ones 76 MB).
/// A 76 MB page takes seconds to parse before anything shows, and mail
/// and wiki uploads refuse it; such a list is served as `dist/` instead.
pub const MAX_BYTES: usize = 32_000_000;

/// At least how large the single file of `dist` would be: its corpus,
/// index and WebAssembly in base64. Checked before [`build`], so that a
/// field of 100,000 papers is not inlined (hundreds of MB) to be dropped.
fn least_bytes(dist: &Path) -> Result<usize, Error> {
    let mut raw = 0u64;
    for entry in std::fs::read_dir(dist).on(dist)? {
        let entry = entry.on(dist)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let inlined = name.ends_with(".wasm")
            || (name.ends_with(".bin")
                && [
                    "corpus-",
                    "index-",
                    "postings-",
                    "words-",
                    "bodies-",
                    "titles-",
                    "map-",
                ]
                .iter()
                .any(|kind| name.starts_with(kind)));
        if inlined {
            raw += entry.metadata().on(entry.path())?.len();
        }
    }
    Ok(usize::try_from(raw.div_ceil(3) * 4).unwrap_or(usize::MAX))
}

/// The single file of `dist` when it is at most [`MAX_BYTES`]; else
/// `Err` with how large it would at least be (without inlining it when
/// [`least_bytes`] already says so).
pub fn build_within_limit(dist: &Path) -> Result<Result<String, usize>, Error> {
    let least = least_bytes(dist)?;
    if least > MAX_BYTES {
        return Ok(Err(least));
    }
    let html = build(dist)?;
    Ok(if html.len() > MAX_BYTES {
        Err(html.len())
    } else {
        Ok(html)
    })
}

/// The single file from a built `dist`: one streaming rewrite of
/// `index.html` with a handler per kind of tag (module loader, classic
/// script, link).
pub fn build(dist: &Path) -> Result<String, Error> {
    let index = text_beside(dist, "index.html")?;
    let script = inlined_loader(dist, &index)?;

    rewrite_str(
        &index,
        RewriteStrSettings {
            element_content_handlers: vec![
                element!("script[type=module]", |el| -> HandlerResult {
                    if el.get_attribute("src").is_none() {
                        el.replace(&script, ContentType::Html);
                    }
                    Ok(())
                }),
                // A classic script beside the page (the first screen's
                // gate), inlined where it stands.
                element!("script[src]:not([type=module])", |el| -> HandlerResult {
                    let src = el.get_attribute("src").unwrap_or_default();
                    let js = text_beside(dist, &src)?;
                    if js.to_ascii_lowercase().contains("</script") {
                        return Err(Error::ScriptEnd { path: src.into() }.into());
                    }
                    el.replace(&format!("<script>{js}</script>"), ContentType::Html);
                    Ok(())
                }),
                element!("link", |el| inline_link(el, dist)),
            ],
            ..RewriteStrSettings::default()
        },
    )
    .map_err(|e| Error::unexpected("index.html", e))
}

/// The module script that stands for Trunk's inline loader (named in
/// `index`) in the single file: the glue, then the WebAssembly module
/// from base64.
fn inlined_loader(dist: &Path, index: &str) -> Result<String, Error> {
    // Trunk's inline loader names the glue and the module.
    let loader = the_loader(index)?;
    let no = |what| Error::unexpected("index.html", what);
    let glue_name = quoted_after(&loader, "from './").ok_or_else(|| no("loader names no glue"))?;
    let wasm_name =
        quoted_after(&loader, "module_or_path: './").ok_or_else(|| no("loader names no module"))?;
    let glue = text_beside(dist, glue_name)?;
    if glue.to_ascii_lowercase().contains("</script") {
        return Err(Error::ScriptEnd {
            path: glue_name.into(),
        });
    }
    let wasm = base64(&read_beside(dist, wasm_name)?);
    Ok(format!(
        "<script type=\"module\">\n{glue}\nconst bytes = Uint8Array.from(atob(\"{wasm}\"), (c) => c.charCodeAt(0));\nawait __wbg_init({{ module_or_path: bytes }});\n</script>"
    ))
}

/// A `<link>` of the page in the single file: a stylesheet inlined, the
/// corpus link with its files as data: URLs, the icon as one; any other
/// removed.
fn inline_link(el: &mut Element<'_, '_>, dist: &Path) -> HandlerResult {
    // A file beside the page, as a data: URL the app fetches as it would the file.
    let data_url = |href: &str, mime: &str| -> Result<String, Error> {
        Ok(format!(
            "data:{mime};base64,{}",
            base64(&read_beside(dist, href)?)
        ))
    };
    let rel = el.get_attribute("rel").unwrap_or_default();
    let href = el.get_attribute("href");
    if rel == "stylesheet" {
        let href = href.ok_or("stylesheet without href")?;
        let css = text_beside(dist, &href)?;
        let css = css.replace("</style", "<\\/style");
        el.replace(&format!("<style>{css}</style>"), ContentType::Html);
    } else if el.has_attribute("data-corpus") {
        let corpus = format!(
            "data:application/octet-stream;base64,{}",
            base64(&whole_papers(
                dist,
                &href.ok_or("corpus link without href")?
            )?)
        );
        let index = el
            .get_attribute("data-index")
            .ok_or("corpus link without data-index")?;
        let index = format!(
            "data:application/octet-stream;base64,{}",
            base64(&whole_index(dist, &index)?)
        );
        // The meaning file is left out: related-by-meaning
        // is off in the single file, which stays small.
        el.replace(
            &format!("<link data-corpus href=\"{corpus}\" data-index=\"{index}\" />"),
            ContentType::Html,
        );
    } else if rel == "icon" {
        let svg = data_url(&href.ok_or("icon without href")?, "image/svg+xml")?;
        el.replace(
            &format!("<link rel=\"icon\" href=\"{svg}\" />"),
            ContentType::Html,
        );
    } else {
        // modulepreload, preload, the touch icon and the
        // manifest need files beside the page.
        el.remove();
    }
    Ok(())
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
/// of the module leaves the page. Returns the name. Run after
/// the single-file build, which reads the inline loader.
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

    /// A page written by hand, not by Trunk: single quotes, attributes in
    /// another order, a `>` inside a value. Every stylesheet is inlined and
    /// nothing is left that needs a file beside the page.
    #[test]
    fn the_single_file_inlines_whatever_way_the_tags_are_written() {
        let dir = std::env::temp_dir().join(format!("explorer-single-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let put = |name: &str, body: &[u8]| std::fs::write(dir.join(name), body).unwrap();
        put("app.js", b"export default function __wbg_init() {}");
        put("app_bg.wasm", b"\0asm");
        put("a.css", b"body { color: red }");
        put("b.css", b"p { margin: 0 }");
        // The papers' bodies, titles and the index in small packs, and the
        // topic map apart, which the single file joins again.
        let corpus = explorer_core::build::compile_dir(Path::new("../../corpus")).unwrap();
        let (head, bodies) = corpus.in_body_packs(4);
        assert!(bodies.len() > 1);
        let (head, map) = head.map_apart();
        let map_file = explorer_core::model::map_part_file_name(head.map_part.unwrap().hash);
        put(&map_file, &map);
        let (head, titles, _) = head.titles_apart(6);
        assert!(titles.len() > 1);
        for (r, bytes) in head.title_packs().iter().zip(&titles) {
            put(&explorer_core::model::title_pack_file_name(r.hash), bytes);
        }
        put("c.bin", &head.to_parts().papers);
        for (r, bytes) in head.body_packs.iter().zip(&bodies) {
            put(&explorer_core::model::body_pack_file_name(r.hash), bytes);
        }
        let packed = corpus.index.in_packs(4096);
        assert!(packed.packs.len() > 1);
        put("i.bin", &packed.head.to_frame());
        for (file, bytes) in packed.head.pack_files().iter().zip(&packed.packs) {
            put(file, bytes);
        }
        put("icon.svg", b"<svg/>");
        put(
            "index.html",
            concat!(
                "<html><head>",
                "<link href='./a.css' rel='stylesheet'>",
                "<link title=\"a > b\" rel=\"stylesheet\" href=\"b.css\"/>",
                "<link rel=\"manifest\" href=\"manifest.webmanifest\">",
                "<link rel=\"preload\" href=\"./c.bin\" as=\"fetch\" data-corpus data-index=\"./i.bin\" data-meaning=\"./m.bin\">",
                "<link rel=icon href=icon.svg>",
                "<script type=\"module\">import __wbg_init from './app.js'; await __wbg_init({ module_or_path: './app_bg.wasm' });</script>",
                "</head><body><p>kept</p></body></html>"
            )
            .as_bytes(),
        );
        let html = build(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            html.contains("<style>body { color: red }</style>"),
            "{html}"
        );
        assert!(html.contains("<style>p { margin: 0 }</style>"), "{html}");
        assert!(html.contains(&format!(
            "href=\"data:application/octet-stream;base64,{}\"",
            base64(&corpus.to_parts().papers)
        )));
        assert!(html.contains(&format!(
            "data-index=\"data:application/octet-stream;base64,{}\"",
            base64(&corpus.to_parts().index)
        )));
        assert!(html.contains(&format!(
            "href=\"data:image/svg+xml;base64,{}\"",
            base64(b"<svg/>")
        )));
        assert!(html.contains(&format!("atob(\"{}\")", base64(b"\0asm"))));
        assert!(html.contains("<body><p>kept</p></body>"));
        for gone in [
            ".css",
            "manifest",
            "./app",
            "m.bin",
            "icon.svg",
            "<link rel=\"preload\"",
        ] {
            assert!(!html.contains(gone), "{gone} left in {html}");
        }
    }

    #[test]
    fn glue_that_would_close_its_script_is_refused() {
        let dir = std::env::temp_dir().join(format!("explorer-glue-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("app.js"), "const s = '</SCRIPT>';").unwrap();
        std::fs::write(dir.join("app_bg.wasm"), "").unwrap();
        std::fs::write(
            dir.join("index.html"),
            "<script type=module>import __wbg_init from './app.js'; __wbg_init({ module_or_path: './app_bg.wasm' })</script>",
        )
        .unwrap();
        let err = build(&dir).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(err.to_string(), "app.js contains </script");
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
