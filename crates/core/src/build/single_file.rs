//! The single-file build: a built site's `index.html` with its stylesheet,
//! the wasm-bindgen glue, the WebAssembly module and the corpus inlined, so
//! one HTML file opens from `file://` (no server, no service worker), or
//! travels as a mail attachment or a wiki upload. Written by the CLI from
//! `dist/`, and by the page's compiler from a kept list's files ("Download
//! this explorer"): one function over the same files gives the same bytes.
//!
//! The rewrite goes through `lol_html`, a streaming HTML rewriter that
//! tokenizes the page as a browser would, so an attribute's order, quoting
//! or spacing (or a `>` inside a value) cannot make it miss or mangle a tag.

use std::cell::RefCell;
use std::fmt;

use base64::Engine as _;
use lol_html::html_content::{ContentType, Element};
use lol_html::{element, rewrite_str, text, RewriteStrSettings};

/// The single file's name beside the site's other files.
pub const SINGLE_FILE: &str = "explorer-single-file.html";

/// The largest single file written: 32 MB, about 8,000 papers (the
/// 3,891 papers of the ACL list make 14 MB, 20,000 synthetic ones 76 MB).
/// A 76 MB page takes seconds to parse before anything shows, and mail
/// and wiki uploads refuse it; such a list is served as a site instead.
pub const MAX_BYTES: usize = 32_000_000;

/// A built site's files, as the single file reads them.
pub trait Built {
    /// Every file's name and size in bytes.
    fn sizes(&self) -> Vec<(String, u64)>;
    /// A file's bytes by its name (without `./`), `None` when there is none.
    fn read(&self, name: &str) -> Option<Vec<u8>>;
}

/// Why no single file was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SingleFileError {
    /// A file the page names is not in the build.
    Missing {
        /// The file's name.
        name: String,
    },
    /// A file is not what the build writes.
    Unexpected {
        /// The file's name.
        name: String,
        /// How it is not.
        reason: String,
    },
    /// A script would end the `<script>` element it is inlined into.
    ScriptEnd {
        /// The script's name.
        name: String,
    },
}

impl fmt::Display for SingleFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SingleFileError::Missing { name } => write!(f, "{name}: not in the build"),
            SingleFileError::Unexpected { name, reason } => write!(f, "{name}: {reason}"),
            SingleFileError::ScriptEnd { name } => write!(f, "{name} contains </script"),
        }
    }
}

impl std::error::Error for SingleFileError {}

type HandlerResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

fn unexpected(name: &str, reason: impl fmt::Display) -> SingleFileError {
    SingleFileError::Unexpected {
        name: name.to_string(),
        reason: reason.to_string(),
    }
}

/// The bytes of a file as the page names it (`./a.css` or `a.css`).
fn read_beside(built: &dyn Built, href: &str) -> Result<Vec<u8>, SingleFileError> {
    let name = href.strip_prefix("./").unwrap_or(href);
    built.read(name).ok_or_else(|| SingleFileError::Missing {
        name: name.to_string(),
    })
}

/// A file beside the page as UTF-8 text.
fn text_beside(built: &dyn Built, href: &str) -> Result<String, SingleFileError> {
    String::from_utf8(read_beside(built, href)?).map_err(|e| unexpected(href, e))
}

/// A script's text, refused if it would close the element it goes in.
fn script_beside(built: &dyn Built, href: &str) -> Result<String, SingleFileError> {
    let js = text_beside(built, href)?;
    if js.to_ascii_lowercase().contains("</script") {
        return Err(SingleFileError::ScriptEnd { name: href.into() });
    }
    Ok(js)
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A module script of a page: Trunk's loader, inline or moved to a file
/// of its own (`start-<hash>.js`, as the build moves it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModuleScript {
    /// The script's text.
    Inline(String),
    /// The file its `src` names.
    File(String),
}

/// The page's module scripts, in order.
pub fn module_scripts(index: &str) -> Result<Vec<ModuleScript>, SingleFileError> {
    let scripts = RefCell::new(Vec::<ModuleScript>::new());
    rewrite_str(
        index,
        RewriteStrSettings {
            element_content_handlers: vec![
                element!("script[type=module]", |el| {
                    scripts.borrow_mut().push(match el.get_attribute("src") {
                        Some(src) => ModuleScript::File(src),
                        None => ModuleScript::Inline(String::new()),
                    });
                    Ok(())
                }),
                text!("script[type=module]", |t| {
                    if let Some(ModuleScript::Inline(text)) = scripts.borrow_mut().last_mut() {
                        text.push_str(t.as_str());
                    }
                    Ok(())
                }),
            ],
            ..RewriteStrSettings::default()
        },
    )
    .map_err(|e| unexpected("index.html", e))?;
    Ok(scripts.into_inner())
}

/// The page's one module script (Trunk's loader), or why there is not
/// exactly one.
pub fn the_loader(index: &str) -> Result<ModuleScript, SingleFileError> {
    let mut scripts = module_scripts(index)?;
    match scripts.len() {
        0 => Err(unexpected("index.html", "no module loader")),
        1 => Ok(scripts.remove(0)),
        _ => Err(unexpected("index.html", "more than one module script")),
    }
}

/// A quoted string literal in `js` that follows `prefix` (`from './`).
fn quoted_after<'a>(js: &'a str, prefix: &str) -> Option<&'a str> {
    let i = js.find(prefix)? + prefix.len();
    let j = js[i..].find('\'')? + i;
    Some(&js[i..j])
}

/// The files that `hashes` name (`name`: a kind's file name from a hash),
/// in order, to be handed one at a time to what joins them back (which
/// checks each against its hash).
fn read_named(
    built: &dyn Built,
    hashes: impl Iterator<Item = u64>,
    name: fn(u64) -> String,
) -> Result<std::vec::IntoIter<Vec<u8>>, SingleFileError> {
    let files = hashes
        .map(|hash| read_beside(built, &name(hash)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(files.into_iter())
}

/// The search index whole: its head (`href`) with every pack of its
/// postings put back, each checked against the hash the head names (the
/// single file fetches nothing).
fn whole_index(built: &dyn Built, href: &str) -> Result<Vec<u8>, SingleFileError> {
    use crate::search::IndexData;
    let head =
        IndexData::from_bytes(&read_beside(built, href)?).map_err(|e| unexpected(href, e))?;
    let packs = (head.pack_files().iter())
        .map(|file| read_beside(built, file))
        .collect::<Result<Vec<_>, _>>()?;
    let mut packs = packs.into_iter();
    let whole = IndexData::joined(head, |_| packs.next().unwrap_or_default())
        .map_err(|e| unexpected(href, e))?;
    Ok(whole.to_frame())
}

/// The papers part whole: its head (`href`) with every pack of their
/// bodies and titles and the topic map's file put back, each checked
/// against the hash it is named by.
fn whole_papers(built: &dyn Built, href: &str) -> Result<Vec<u8>, SingleFileError> {
    use crate::model::{body_pack_file_name, map_part_file_name, title_pack_file_name};
    let head = crate::Corpus::from_papers_part(&read_beside(built, href)?)
        .map_err(|e| unexpected(href, e))?;
    if head.body_packs.is_empty() && head.map_part.is_none() && head.titles.is_none() {
        return read_beside(built, href);
    }
    let hashes = head.title_packs().iter().map(|r| r.hash);
    let mut titles = read_named(built, hashes, title_pack_file_name)?;
    let head = head
        .with_titles(|_| titles.next().unwrap_or_default())
        .map_err(|e| unexpected(href, e))?;
    // The bodies before the map: the words their similar papers' terms
    // name come first in the table the two build again, as at compile time.
    let hashes = head.body_packs.iter().map(|r| r.hash);
    let mut packs = read_named(built, hashes, body_pack_file_name)?;
    let head = head
        .with_bodies(|_| packs.next().unwrap_or_default())
        .map_err(|e| unexpected(href, e))?;
    let map = match head.map_part {
        Some(r) => read_beside(built, &map_part_file_name(r.hash))?,
        None => Vec::new(),
    };
    let whole = head.with_map_part(&map).map_err(|e| unexpected(href, e))?;
    Ok(whole.to_parts().papers)
}

/// At least how large the single file would be: its corpus, index and
/// WebAssembly in base64. Checked before [`single_file`] inlines them, so
/// that a field of 100,000 papers is not inlined (hundreds of MB) to be
/// dropped.
fn least_bytes(built: &dyn Built) -> usize {
    const INLINED: [&str; 7] = [
        "corpus-",
        "index-",
        "postings-",
        "words-",
        "bodies-",
        "titles-",
        "map-",
    ];
    let raw: u64 = (built.sizes().into_iter())
        .filter(|(name, _)| {
            name.ends_with(".wasm")
                || (name.ends_with(".bin") && INLINED.iter().any(|kind| name.starts_with(kind)))
        })
        .map(|(_, len)| len)
        .sum();
    usize::try_from(raw.div_ceil(3) * 4).unwrap_or(usize::MAX)
}

/// The single file of a built site when it is at most [`MAX_BYTES`]; else
/// `Ok(Err(bytes))`, how large it would at least be (found without
/// inlining it where the files' sizes already say so).
pub fn single_file(built: &dyn Built) -> Result<Result<String, usize>, SingleFileError> {
    let least = least_bytes(built);
    if least > MAX_BYTES {
        return Ok(Err(least));
    }
    let html = inlined(built)?;
    Ok(if html.len() > MAX_BYTES {
        Err(html.len())
    } else {
        Ok(html)
    })
}

/// The single file: one streaming rewrite of `index.html` with a handler
/// per kind of tag (module loader, classic script, link).
fn inlined(built: &dyn Built) -> Result<String, SingleFileError> {
    let index = text_beside(built, "index.html")?;
    let script = inlined_loader(built, &index)?;
    rewrite_str(
        &index,
        RewriteStrSettings {
            element_content_handlers: vec![
                element!("script[type=module]", |el| -> HandlerResult {
                    el.replace(&script, ContentType::Html);
                    Ok(())
                }),
                // A classic script beside the page (the first screen's
                // gate), inlined where it stands.
                element!("script[src]:not([type=module])", |el| -> HandlerResult {
                    let src = el.get_attribute("src").unwrap_or_default();
                    let js = script_beside(built, &src)?;
                    el.replace(&format!("<script>{js}</script>"), ContentType::Html);
                    Ok(())
                }),
                element!("link", |el| inline_link(el, built)),
            ],
            ..RewriteStrSettings::default()
        },
    )
    .map_err(|e| match e {
        lol_html::errors::RewritingError::ContentHandlerError(e) => e
            .downcast::<SingleFileError>()
            .map_or_else(|e| unexpected("index.html", e), |e| *e),
        e => unexpected("index.html", e),
    })
}

/// The module script that stands for Trunk's loader (named in `index`) in
/// the single file: the glue, then the WebAssembly module from base64.
fn inlined_loader(built: &dyn Built, index: &str) -> Result<String, SingleFileError> {
    // Trunk's loader names the glue and the module.
    let loader = match the_loader(index)? {
        ModuleScript::Inline(text) => text,
        ModuleScript::File(src) => text_beside(built, &src)?,
    };
    let no = |what| unexpected("index.html", what);
    let glue_name = quoted_after(&loader, "from './").ok_or_else(|| no("loader names no glue"))?;
    let wasm_name =
        quoted_after(&loader, "module_or_path: './").ok_or_else(|| no("loader names no module"))?;
    let glue = with_chunks_inlined(built, &script_beside(built, glue_name)?)?;
    let wasm = base64(&read_beside(built, wasm_name)?);
    Ok(format!(
        "<script type=\"module\">\n{glue}\nconst bytes = Uint8Array.from(atob(\"{wasm}\"), (c) => c.charCodeAt(0));\nawait __wbg_init({{ module_or_path: bytes }});\n</script>"
    ))
}

/// The glue with the module's chunks in it: each import of the module
/// that loads them (`split-<hash>.js`, which a page from `file://` could
/// not import) replaced by that module's loaders, built in place, and the
/// chunks they fetch as `data:` URLs. A glue that imports none is as it
/// was.
fn with_chunks_inlined(built: &dyn Built, glue: &str) -> Result<String, SingleFileError> {
    let mut out = String::with_capacity(glue.len());
    let mut built_as: Vec<(&str, &str)> = Vec::new();
    for line in glue.split_inclusive('\n') {
        let Some((name, link)) = chunk_import(line) else {
            out.push_str(line);
            continue;
        };
        // Imported again (once a chunk): the loaders built once.
        if let Some((first, _)) = built_as.iter().find(|(_, l)| *l == link) {
            out.push_str(&format!("const {name} = {first};\n"));
            continue;
        }
        built_as.push((name, link));
        let mut exported = Vec::new();
        let mut body = String::new();
        for l in script_beside(built, link)?.split_inclusive('\n') {
            if l.starts_with("import ") {
                continue; // `initSync`, which the glue declares
            }
            match l.strip_prefix("export const ") {
                Some(rest) => {
                    exported.extend(rest.split(' ').next().map(str::to_string));
                    body.push_str("const ");
                    body.push_str(rest);
                }
                None => body.push_str(l),
            }
        }
        while let Some(at) = body.find("new URL(\"./split-") {
            let end = (body[at..].find(')')).ok_or_else(|| unexpected(link, "an unclosed URL"))?;
            let start = at + "new URL(\"./".len();
            let chunk = body[start..]
                .split('"')
                .next()
                .unwrap_or_default()
                .to_string();
            let url = format!(
                "\"data:application/wasm;base64,{}\"",
                base64(&read_beside(built, &chunk)?)
            );
            body.replace_range(at..at + end + 1, &url);
        }
        out.push_str(&format!(
            "const {name} = (() => {{\n{body}\nreturn {{ {} }};\n}})();\n",
            exported.join(", ")
        ));
    }
    Ok(out)
}

/// A line of the glue that imports the module's split loader,
/// `import * as NAME from "./split-<hash>.js"`: NAME and the file.
pub fn chunk_import(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim().strip_prefix("import * as ")?;
    let (name, from) = rest.split_once(" from ")?;
    let file = from.trim_end_matches(';').trim_matches(['"', '\'']);
    let file = file.strip_prefix("./")?;
    (file.starts_with("split-") && file.ends_with(".js")).then_some((name, file))
}

/// A `<link>` of the page in the single file: a stylesheet inlined, the
/// corpus link with its files as data: URLs, the icon as one; any other
/// removed.
fn inline_link(el: &mut Element<'_, '_>, built: &dyn Built) -> HandlerResult {
    let data_url = |mime: &str, bytes: &[u8]| format!("data:{mime};base64,{}", base64(bytes));
    let rel = el.get_attribute("rel").unwrap_or_default();
    let href = el.get_attribute("href");
    let missing = |what: &str| unexpected("index.html", format!("{what} without href"));
    if rel == "stylesheet" {
        let css = text_beside(built, &href.ok_or_else(|| missing("stylesheet"))?)?;
        let css = css.replace("</style", "<\\/style");
        el.replace(&format!("<style>{css}</style>"), ContentType::Html);
    } else if el.has_attribute("data-corpus") {
        let papers = whole_papers(built, &href.ok_or_else(|| missing("corpus link"))?)?;
        let index = el
            .get_attribute("data-index")
            .ok_or_else(|| unexpected("index.html", "corpus link without data-index"))?;
        let index = whole_index(built, &index)?;
        let octets = "application/octet-stream";
        // The meaning file is left out: related-by-meaning is off in the
        // single file, which stays small.
        el.replace(
            &format!(
                "<link data-corpus href=\"{}\" data-index=\"{}\" />",
                data_url(octets, &papers),
                data_url(octets, &index)
            ),
            ContentType::Html,
        );
    } else if rel == "icon" {
        let svg = read_beside(built, &href.ok_or_else(|| missing("icon"))?)?;
        let link = format!(
            "<link rel=\"icon\" href=\"{}\" />",
            data_url("image/svg+xml", &svg)
        );
        el.replace(&link, ContentType::Html);
    } else {
        // modulepreload, preload, the touch icon, the manifest and the
        // compiler need files beside the page.
        el.remove();
    }
    Ok(())
}

/// A built site held in memory: `(name, bytes)` pairs (the page's compiler
/// publishing a kept list).
impl Built for Vec<(String, Vec<u8>)> {
    fn sizes(&self) -> Vec<(String, u64)> {
        (self.iter())
            .map(|(name, bytes)| (name.clone(), bytes.len() as u64))
            .collect()
    }

    fn read(&self, name: &str) -> Option<Vec<u8>> {
        (self.iter())
            .find(|(n, _)| n == name)
            .map(|(_, bytes)| bytes.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(files: &mut Vec<(String, Vec<u8>)>, name: &str, bytes: &[u8]) {
        files.push((name.to_string(), bytes.to_vec()));
    }

    /// The seeds' papers (bodies, titles) and index in small packs as
    /// `c.bin` and `i.bin`, the topic map apart: what the single file joins
    /// again. Returns the corpus whole.
    fn put_corpus_in_packs(files: &mut Vec<(String, Vec<u8>)>) -> crate::Corpus {
        // The papers' bodies, titles and the index in small packs, and the
        // topic map apart, which the single file joins again.
        let corpus = crate::build::compile_dir(std::path::Path::new("../../corpus")).unwrap();
        let (head, bodies) = corpus.in_body_packs(4);
        assert!(bodies.len() > 1);
        let (head, map) = head.map_apart();
        let map_file = crate::model::map_part_file_name(head.map_part.unwrap().hash);
        put(files, &map_file, &map);
        let (head, titles, _) = head.titles_apart(6);
        assert!(titles.len() > 1);
        for (r, bytes) in head.title_packs().iter().zip(&titles) {
            put(files, &crate::model::title_pack_file_name(r.hash), bytes);
        }
        put(files, "c.bin", &head.to_parts().papers);
        for (r, bytes) in head.body_packs.iter().zip(&bodies) {
            put(files, &crate::model::body_pack_file_name(r.hash), bytes);
        }
        let packed = corpus.index.in_packs(4096);
        assert!(packed.packs.len() > 1);
        put(files, "i.bin", &packed.head.to_frame());
        for (file, bytes) in packed.head.pack_files().iter().zip(&packed.packs) {
            put(files, file, bytes);
        }
        corpus
    }

    /// The module's chunks go into the one file: each import of the module
    /// that loads them becomes its loaders, built once, and the chunks they
    /// fetch are `data:` URLs; nothing is left to import.
    #[test]
    fn the_modules_chunks_are_inlined() {
        let mut files = Vec::new();
        let chunk = b"\0asm\x01\0\0\0a chunk";
        put(&mut files, "split-fedcba9876543210.wasm", chunk);
        let link = concat!(
            "import { initSync } from \"./app.js\";\n",
            "function makeLoad(f) { return () => f(initSync); }\n",
            "export const __wasm_split_load_a = makeLoad(() => fetch(new URL(\"./split-fedcba9876543210.wasm\", import.meta.url)));\n",
        );
        put(&mut files, "split-0123456789abcdef.js", link.as_bytes());
        let glue = "import * as import1 from \"./split-0123456789abcdef.js\"\n\
                    import * as import2 from \"./split-0123456789abcdef.js\"\n\
                    export function initSync() {}\n";
        let inlined = with_chunks_inlined(&files, glue).unwrap();
        assert!(!inlined.contains("import "), "{inlined}");
        let data = format!("fetch(\"data:application/wasm;base64,{}\")", base64(chunk));
        assert_eq!(inlined.matches(&data).count(), 1, "{inlined}");
        assert!(
            inlined.contains("const import1 = (() => \u{7b}"),
            "{inlined}"
        );
        assert!(
            inlined.contains("return { __wasm_split_load_a };"),
            "{inlined}"
        );
        assert!(inlined.contains("const import2 = import1;"), "{inlined}");
        assert!(inlined.ends_with("export function initSync() {}\n"));
        // A glue without chunks is left as it was.
        let plain = "export function initSync() {}\n";
        assert_eq!(with_chunks_inlined(&files, plain).unwrap(), plain);
    }

    /// A page written by hand, not by Trunk: single quotes, attributes in
    /// another order, a `>` inside a value. Every stylesheet is inlined and
    /// nothing is left that needs a file beside the page.
    #[test]
    fn the_single_file_inlines_whatever_way_the_tags_are_written() {
        let mut files = Vec::new();
        put(
            &mut files,
            "app.js",
            b"export default function __wbg_init() {}",
        );
        put(&mut files, "app_bg.wasm", b"\0asm");
        put(&mut files, "a.css", b"body { color: red }");
        put(&mut files, "b.css", b"p { margin: 0 }");
        let corpus = put_corpus_in_packs(&mut files);
        put(&mut files, "icon.svg", b"<svg/>");
        let page = concat!(
            "<html><head>",
            "<link href='./a.css' rel='stylesheet'>",
            "<link title=\"a > b\" rel=\"stylesheet\" href=\"b.css\"/>",
            "<link rel=\"manifest\" href=\"manifest.webmanifest\">",
            "<link rel=\"preload\" href=\"./c.bin\" as=\"fetch\" data-corpus data-index=\"./i.bin\" data-meaning=\"./m.bin\">",
            "<link rel=icon href=icon.svg>",
            "<script type=\"module\">import __wbg_init from './app.js'; await __wbg_init({ module_or_path: './app_bg.wasm' });</script>",
            "</head><body><p>kept</p></body></html>"
        );
        put(&mut files, "index.html", page.as_bytes());
        let html = single_file(&files).unwrap().unwrap();
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
        // The loader moved to a file of its own (as the build moves it)
        // makes the same single file.
        let loader = "import __wbg_init from './app.js'; await __wbg_init({ module_or_path: './app_bg.wasm' });";
        // As the build moves it: after a wait for the first paint.
        let start = format!("// The first screen paints first.\nawait new Promise((go) => requestAnimationFrame(go));\n{loader}\n");
        put(&mut files, "start-1.js", start.as_bytes());
        let moved = page.replace(
            &format!("<script type=\"module\">{loader}</script>"),
            "<script type=\"module\" src=\"./start-1.js\"></script>",
        );
        files.retain(|(n, _)| n != "index.html");
        put(&mut files, "index.html", moved.as_bytes());
        assert_eq!(single_file(&files).unwrap().unwrap(), html);
    }

    #[test]
    fn glue_that_would_close_its_script_is_refused() {
        let mut files = Vec::new();
        put(&mut files, "app.js", b"const s = '</SCRIPT>';");
        put(&mut files, "app_bg.wasm", b"");
        put(
            &mut files,
            "index.html",
            b"<script type=module>import __wbg_init from './app.js'; __wbg_init({ module_or_path: './app_bg.wasm' })</script>",
        );
        let err = single_file(&files).unwrap_err();
        assert_eq!(err.to_string(), "app.js contains </script");
    }

    /// A build too large for one file is refused from its files' sizes.
    #[test]
    fn a_field_is_not_inlined() {
        let files = vec![("corpus-1.bin".to_string(), vec![0u8; MAX_BYTES])];
        assert!(matches!(single_file(&files), Ok(Err(n)) if n > MAX_BYTES));
    }
}
