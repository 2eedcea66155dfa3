//! `sw.js`, the service worker of a build: written by the post-build hook
//! (`explorer-cli service-worker`) and by the page's compiler for a site
//! published from the page, from the same function.
//!
//! It precaches the build's files under a cache named for their content,
//! so one build's HTML, JS and WASM are always served together, and a new
//! deploy gets a new cache (the old one is deleted when the new worker
//! takes over, which the page asks for only when the reader clicks
//! "Reload"). The files the page fetches only on first use (the meaning
//! file, the packs of postings and of their positions, fetched as queries
//! read them: together most of the build's bytes; the packs of the word
//! list, fetched behind the first screen) are not precached: they go into
//! the same cache when first fetched, and work offline from then on. A
//! list whose packs of postings come to at most 1 MB (about 1,500 papers;
//! the page fetches them all at once too: `EAGER_POSTINGS_BYTES`) has them
//! precached, so that after one visit it searches offline as a whole. A
//! long list's packs of bodies and titles, its title order, its topic
//! map, its tags and the lists of its papers' vectors are never precached:
//! each is fetched when first needed (precached at install, they would
//! share the link with the first answer). Nor is what nothing offline
//! reads through the worker: `index.html` (the page, precached as `./`
//! and kept under both names), the installed app's icons (the browser
//! fetches them when it installs the app) and `embed.js` (read by other
//! sites' pages, which this worker does not serve). The page's compiler
//! (about 7 MB) is fetched only when a reader opens a list of their own,
//! and kept from then on. A browser that keeps such a list has the
//! module's chunks precached by each new build (`FOR_KEPT_LISTS`): the
//! one that reads the kept lists' records opens them offline, even when
//! the new build took over while offline.

use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

use crate::model::opened::cache_name;
use crate::model::{is_name_hash, kind_of_file, FETCHED_ON_FIRST_USE};

/// The worker's own script; the file list and patterns come before it.
const SCRIPT: &str = include_str!("service_worker.js");

/// Packs of postings up to this many bytes in all are precached.
const PRECACHED_POSTINGS_BYTES: u64 = 1_000_000;

/// The parts of a list fetched on first use that a small list has
/// precached all the same.
const PRECACHED_WHEN_SMALL: [&str; 2] = ["postings", "words"];

/// A file of a build: its name, size and content's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltFile {
    /// Its name, in the build's folder.
    pub name: String,
    /// Its size.
    pub bytes: u64,
    /// The xxh3-64 of its bytes.
    pub hash: u64,
}

impl BuiltFile {
    /// The file `name` holding `content`.
    pub fn of(name: impl Into<String>, content: &[u8]) -> BuiltFile {
        BuiltFile {
            name: name.into(),
            bytes: content.len() as u64,
            hash: xxh3_64(content),
        }
    }
}

/// What `sw.js` was written with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceWorker {
    /// The script.
    pub script: String,
    /// The cache's name: `paper-explorer-<16 hex digits of the files>`.
    pub cache: String,
    /// How many files it precaches, besides the page.
    pub precached: usize,
    /// How many it keeps when first fetched.
    pub on_first_use: usize,
}

/// Whether a file is one the worker reads at all: not itself, the single
/// file, the no-JavaScript listing, or a file's precompressed copy.
pub fn served_by_worker(name: &str) -> bool {
    let listing = name.starts_with("papers") && name.ends_with(".html");
    !(name == "sw.js" || name == "explorer-single-file.html" || listing || name.ends_with(".br"))
}

/// `name` is `<kind>-<16 hex digits>.bin` for one of `kinds`.
fn part_of(name: &str, kinds: &[&str]) -> bool {
    kind_of_file(name).is_some_and(|kind| kinds.contains(&kind))
}

/// The page's compiler: `compiler-<hash>.js`, `compiler-<hash>_bg.wasm`,
/// `compiler-start-<hash>.js`.
fn compiler(name: &str) -> bool {
    let rest = name
        .strip_prefix("compiler-start-")
        .or(name.strip_prefix("compiler-"));
    let Some(rest) = rest else {
        return false;
    };
    let hash = rest.strip_suffix("_bg.wasm").or(rest.strip_suffix(".js"));
    hash.is_some_and(is_name_hash)
}

/// The file of a build that names its shell ([`in_shell`]), as a JSON
/// array: what the page's compiler fetches to publish a list.
pub const SHELL_FILE: &str = "shell.json";

/// The parts of a list every page reads first: its papers and its
/// index's head (with those fetched on first use, all a list's files).
const HEAD_PARTS: [&str; 2] = ["corpus", "index"];

/// A chunk of the app's module (`split-<hash>.wasm`): code a feature few
/// visitors use, fetched the first time it is used (not the `split-<hash>.js`
/// that loads the chunks, which the module imports as it starts).
fn module_chunk(name: &str) -> bool {
    (name.strip_prefix("split-"))
        .and_then(|r| r.strip_suffix(".wasm"))
        .is_some_and(is_name_hash)
}

/// Whether a file of a build is the same whatever its list (its shell):
/// the module, scripts, stylesheet, icons, the compiler. Not the list's
/// parts, its page, manifest and listing, the worker and [`SHELL_FILE`],
/// the single file or a `.br` copy.
pub fn in_shell(name: &str) -> bool {
    let per_list = ["index.html", "manifest.webmanifest", SHELL_FILE];
    let list_part = part_of(name, &HEAD_PARTS) || part_of(name, &FETCHED_ON_FIRST_USE);
    served_by_worker(name) && !list_part && !per_list.contains(&name)
}

/// Files nothing offline reads through the worker.
fn not_needed(name: &str) -> bool {
    let icon = (name.strip_prefix("icon-"))
        .and_then(|r| r.strip_suffix(".png"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    name == "index.html" || name == "embed.js" || icon
}

/// `sw.js` for a build of `files` (every file of it: those the worker
/// does not read are left out here).
pub fn service_worker(files: &[BuiltFile]) -> ServiceWorker {
    let mut all: Vec<&BuiltFile> = files.iter().filter(|f| served_by_worker(&f.name)).collect();
    all.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let mut named = Vec::with_capacity(all.len() * 24);
    for f in &all {
        named.extend_from_slice(f.name.as_bytes());
        named.push(0);
        named.extend_from_slice(&f.hash.to_le_bytes());
    }
    let version = format!("{:016x}", xxh3_128(&named) as u64);
    let postings: u64 = (all.iter())
        .filter(|f| part_of(&f.name, &["postings"]))
        .map(|f| f.bytes)
        .sum();
    let small = postings <= PRECACHED_POSTINGS_BYTES;
    let later = |name: &str| {
        part_of(name, &FETCHED_ON_FIRST_USE) && !(small && part_of(name, &PRECACHED_WHEN_SMALL))
    };
    let lazy = |f: &&&BuiltFile| later(&f.name) || compiler(&f.name) || module_chunk(&f.name);
    let precached: Vec<&str> = (all.iter())
        .filter(|f| !lazy(f) && !not_needed(&f.name))
        .map(|f| f.name.as_str())
        .collect();
    let on_first_use = all.iter().filter(lazy).count();
    let cache = format!("paper-explorer-{version}");
    let on_first_use_kinds = FETCHED_ON_FIRST_USE.join("|");
    let list: String = precached.iter().map(|f| format!(", \"./{f}\"")).collect();
    let chunks: Vec<String> = (all.iter())
        .filter(|f| module_chunk(&f.name))
        .map(|f| format!("\"./{}\"", f.name))
        .collect();
    let chunks = chunks.join(", ");
    let kept_lists = cache_name("");
    let script = format!(
        "// Generated at build time (explorer_core::build::service_worker); do not edit.\n\
         const CACHE = '{cache}';\n\
         const FILES = [\"./\"{list}];\n\
         const FOR_KEPT_LISTS = [{chunks}];\n\
         const KEPT_LIST_CACHES = '{kept_lists}';\n\
         const ON_FIRST_USE = /\\/(({on_first_use_kinds})-[0-9a-f]{{16}}[.]bin$|compiler(-start)?-[0-9a-f]{{16}}(_bg[.]wasm|[.]js)$|split-[0-9a-f]{{16}}[.]wasm$)/;\n\
         {SCRIPT}"
    );
    ServiceWorker {
        script,
        cache,
        precached: precached.len(),
        on_first_use,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(postings_bytes: usize) -> Vec<BuiltFile> {
        let names = [
            "index.html",
            "corpus-0123456789abcdef.bin",
            "index-0123456789abcdef.bin",
            "meaning-0123456789abcdef.bin",
            "words-0123456789abcdef.bin",
            "paper-explorer-123456789abcdef_bg.wasm",
            "compiler-0123456789abcdef_bg.wasm",
            "compiler-start-0123456789abcdef.js",
            "split-0123456789abcdef.js",
            "split-fedcba9876543210.wasm",
            "icon-192.png",
            "icon.svg",
            "embed.js",
            "papers.html",
            "papers-2.html",
            "explorer-single-file.html",
            "index.html.br",
            "sw.js",
        ];
        let mut files: Vec<BuiltFile> = names
            .iter()
            .map(|n| BuiltFile::of(*n, n.as_bytes()))
            .collect();
        files.push(BuiltFile::of(
            "postings-0123456789abcdef.bin",
            &vec![7; postings_bytes],
        ));
        files
    }

    fn listed(sw: &ServiceWorker) -> Vec<String> {
        let files = sw
            .script
            .lines()
            .find(|l| l.starts_with("const FILES"))
            .unwrap();
        files
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    /// A small list is precached whole but for its meaning; a larger one's
    /// packs are kept as they are fetched; the page, the icons, the wiki's
    /// script, the compiler, the module's chunks and what no reader fetches
    /// through the worker are never precached.
    #[test]
    fn precaches_the_shell_and_a_small_lists_packs() {
        let small = service_worker(&build(10));
        assert_eq!(
            listed(&small),
            [
                "./",
                "./corpus-0123456789abcdef.bin",
                "./icon.svg",
                "./index-0123456789abcdef.bin",
                "./paper-explorer-123456789abcdef_bg.wasm",
                "./postings-0123456789abcdef.bin",
                "./split-0123456789abcdef.js",
                "./words-0123456789abcdef.bin",
            ]
        );
        assert_eq!((small.precached, small.on_first_use), (7, 4));
        // The module's chunks are kept as they are first used, and
        // precached where a list of the reader's own is kept.
        assert!(small.script.contains("|split-[0-9a-f]{16}[.]wasm$)/;"));
        assert!(small
            .script
            .contains("const FOR_KEPT_LISTS = [\"./split-fedcba9876543210.wasm\"];"));
        assert!(small
            .script
            .contains("const KEPT_LIST_CACHES = 'opened-list-';"));
        let large = service_worker(&build(1_000_001));
        assert!(!listed(&large)
            .iter()
            .any(|f| f.contains("postings") || f.contains("words")));
        assert_eq!(large.on_first_use, 6);
    }

    /// The cache is named for the files' names and contents: a file
    /// changed, added or renamed makes a new one; their order does not.
    #[test]
    fn the_cache_is_named_for_the_files() {
        let files = build(10);
        let name = service_worker(&files).cache;
        let mut reversed = files.clone();
        reversed.reverse();
        assert_eq!(service_worker(&reversed).cache, name);
        let mut changed = files.clone();
        changed[1] = BuiltFile::of(changed[1].name.clone(), b"other papers");
        assert_ne!(service_worker(&changed).cache, name);
        let mut renamed = files.clone();
        renamed[1].name = "corpus-fedcba9876543210.bin".into();
        assert_ne!(service_worker(&renamed).cache, name);
        // What the worker never reads does not count.
        let mut listing = files;
        listing.push(BuiltFile::of("papers-3.html", b"x"));
        assert_eq!(service_worker(&listing).cache, name);
    }
}
