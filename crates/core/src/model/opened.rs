//! A list opened in the page: the messages between the page and its
//! compiler (the same compiler as the CLI's, built to WebAssembly and run
//! in a Web Worker), and the record of a list the browser keeps.
//!
//! The page posts `[OpenRequest, File or null]`; the worker answers with
//! [`CompilerReply`]s, the last `Done` or `Failed`. The worker reads the
//! file (or fetches the URL) and stores the compiled files itself, in the
//! browser's Cache Storage under [`cache_name`], at
//! `lists/<id>/<file>` beside the page: their bytes never pass through the
//! page's own memory.

use serde::{Deserialize, Serialize};

/// What the page asks its compiler for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenRequest {
    /// The file's name (its extension says its format), as errors name it.
    pub name: String,
    /// Where to fetch the list, when it is not a file sent with the
    /// request (`?source=URL`, resolved against the page).
    pub url: Option<String>,
    /// Publish this kept list (its id) instead: the site the CLI builds
    /// for it, as one zip ([`CompilerReply::Published`]).
    #[serde(default)]
    pub publish: Option<String>,
}

/// The file, among a kept list's, of what its page shows before the app
/// starts and its manifest's name (`explorer_core::build::PageParts`, as
/// JSON), kept to publish it. Not part of the published site.
pub const PAGE_PARTS_FILE: &str = "page-parts.json";

/// The compile's stages, as its progress bar names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpenStage {
    /// The file read, or the URL fetched.
    Reading,
    /// The records read, tagged and indexed.
    Compiling,
    /// The meaning file built and the parts packed.
    Packing,
    /// The parts stored in the browser.
    Storing,
}

impl OpenStage {
    /// The stages in order.
    pub const ALL: [OpenStage; 4] = [
        OpenStage::Reading,
        OpenStage::Compiling,
        OpenStage::Packing,
        OpenStage::Storing,
    ];

    /// Its place in [`OpenStage::ALL`].
    pub fn step(self) -> usize {
        self as usize
    }
}

/// What the compiler answers. Externally tagged (`{"stage": {…}}`), as
/// [`OpenError`] is: an internally tagged enum's reading buffers every
/// field first, and that code was most of the 33 KB (brotli) these
/// messages added to the page's module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompilerReply {
    /// A stage begins.
    Stage {
        /// The stage.
        stage: OpenStage,
    },
    /// The list is compiled and stored.
    Done {
        /// The list, as the browser keeps it (boxed: with what the reader
        /// said of its lines, it is much larger than the other replies).
        list: Box<KeptList>,
        /// The compiler's WebAssembly memory when it was done: its peak,
        /// as such a memory never shrinks (`./dev bench` reports it).
        #[serde(default)]
        memory_bytes: u64,
    },
    /// The site of a kept list, as a zip: its bytes follow the reply.
    Published {
        /// The zip's file name.
        name: String,
    },
    /// Nothing was stored.
    Failed {
        /// Why.
        error: OpenError,
    },
}

/// Why a list could not be opened. The page says each in the reader's
/// language; the compiler's own message (`file:line: record N: …`) is
/// quoted as the CLI gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpenError {
    /// The file is not a list the compiler reads.
    Source {
        /// As the CLI says it.
        message: String,
    },
    /// The file's extension is none the compiler reads.
    Format {
        /// The file's name.
        name: String,
    },
    /// Over what the page can hold.
    TooLarge {
        /// The file's bytes.
        bytes: u64,
        /// The most the page compiles ([`MAX_OPEN_BYTES`]).
        limit: u64,
    },
    /// The request failed: offline, refused, or the server sent no CORS
    /// header (a browser does not tell which).
    Fetch {
        /// What was fetched.
        url: String,
    },
    /// The server answered with an error status.
    Http {
        /// What was fetched.
        url: String,
        /// The status.
        status: u16,
    },
    /// A kept list compiled before the page could publish lists: opened
    /// again, it can be.
    NotPublishable,
    /// The browser refused to store the list (full, or storage off).
    Storage {
        /// What the browser said.
        reason: String,
    },
    /// The part of the page that opens lists, fetched the first time one
    /// is opened, could not be fetched (offline, and never opened one).
    Unfetched,
}

/// A list compiled in the page and kept by the browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptList {
    /// Its id: the xxh3-64 of its source file's bytes, in hex (the same
    /// file opened again is the same list).
    pub id: String,
    /// Its name: the list's title, else the file's name.
    pub name: String,
    /// The file it was compiled from.
    pub file: String,
    /// The address it was fetched from (`?source=URL`), if it was.
    #[serde(default)]
    pub url: Option<String>,
    /// How many papers it has.
    pub papers: u32,
    /// Records skipped: neither a title nor an abstract, or an entry the
    /// reader could not read.
    pub skipped: u32,
    /// How many records the file held (0: kept by an older page, which
    /// did not count them).
    #[serde(default)]
    pub records: u32,
    /// How many of its papers have no abstract.
    #[serde(default)]
    pub without_abstract: u32,
    /// What the reader repaired or skipped, each naming its line (the
    /// first [`MOST_SAID`]).
    #[serde(default)]
    pub said: Vec<String>,
    /// The bytes of its compiled files.
    pub bytes: u64,
    /// When it was compiled (milliseconds since 1970).
    pub date: f64,
    /// Its papers part's file name ([`KeptList::href`] says where it is).
    pub papers_file: String,
    /// Its index head's file name.
    pub index_file: String,
    /// Its meaning file's name.
    pub meaning_file: String,
    /// The meaning file's bytes with its lists'.
    pub meaning_bytes: u64,
}

impl KeptList {
    /// Where its files are, beside the page.
    pub fn href(&self, file: &str) -> String {
        format!("./{LISTS_DIR}/{}/{file}", self.id)
    }
}

/// The most lines of [`KeptList::said`] a kept list's record holds.
pub const MOST_SAID: usize = 100;

/// The folder, beside the page, that kept lists' files are stored under.
pub const LISTS_DIR: &str = "lists";

/// Whether `href` is a kept list's file ([`KeptList::href`]).
pub fn is_kept_href(href: &str) -> bool {
    (href.strip_prefix("./"))
        .and_then(|h| h.strip_prefix(LISTS_DIR))
        .is_some_and(|h| h.starts_with('/'))
}

/// Where to fetch the text of a list named by `url`: a GitHub file's page
/// (`github.com/o/r/blob/ref/path`) becomes its raw file, a gist's page its
/// raw text; any other address is itself.
pub fn raw_url(url: &str) -> String {
    if let Some(rest) = url.strip_prefix("https://github.com/") {
        let parts: Vec<&str> = rest.splitn(4, '/').collect();
        if let [owner, repo, "blob", path] = parts[..] {
            return format!("https://raw.githubusercontent.com/{owner}/{repo}/{path}");
        }
    }
    if let Some(rest) = url.strip_prefix("https://gist.github.com/") {
        let rest = rest.trim_end_matches('/');
        if rest.split('/').count() == 2 && !rest.contains(['?', '#']) {
            return format!("https://gist.githubusercontent.com/{rest}/raw");
        }
    }
    url.to_string()
}

/// The Cache Storage cache of a kept list's files. Not `paper-explorer-…`:
/// the service worker deletes those of older builds.
pub fn cache_name(id: &str) -> String {
    format!("opened-list-{id}")
}

/// Whether `id` can name a kept list (hex, as [`KeptList::id`]): what an
/// `?source=` that is not a URL must be.
pub fn is_list_id(id: &str) -> bool {
    (1..=16).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The address parameter that names a list opened in the page in place of
/// the built-in one: its id ([`KeptList::id`]) or the URL it is fetched
/// from. No facet has this key, so a filter can never be read as a list.
pub const OPEN_PARAM: &str = "source";

/// The query string (`?`-prefixed) of an address that opens the list
/// `named` (its id or URL).
pub fn open_search(named: &str) -> String {
    let mut ser = form_urlencoded::Serializer::new(String::new());
    ser.append_pair(OPEN_PARAM, named);
    format!("?{}", ser.finish())
}

/// The key pages wrote [`OPEN_PARAM`] as before it existed: the List
/// facet's key too.
const OLD_OPEN_PARAM: &str = "list";

/// The list an address's query string (with or without its `?`) names to
/// open, if any: its [`OPEN_PARAM`], else a `list=` written by an older
/// page ([`old_list_param_opens`]). `is_list_value` says whether a text is
/// a value of the List facet of the list in view.
pub fn named_list(search: &str, is_list_value: impl Fn(&str) -> bool) -> Option<String> {
    let search = search.strip_prefix('?').unwrap_or(search);
    let params = || form_urlencoded::parse(search.as_bytes());
    if let Some((_, v)) = params().find(|(k, _)| k == OPEN_PARAM) {
        return Some(v.into_owned());
    }
    params()
        .find(|(k, v)| k == OLD_OPEN_PARAM && old_list_param_opens(v, &is_list_value))
        .map(|(_, v)| v.into_owned())
}

/// Whether the value of a `list=` parameter names a list to open (as
/// pages before [`OPEN_PARAM`] wrote it) rather than a value of the List
/// facet to filter on: it is not one of the facet's values, and it is a
/// list's id, an absolute URL, or a path to a list file
/// (`/shared/lab.bib`, `papers.ris`).
pub fn old_list_param_opens(value: &str, is_list_value: impl Fn(&str) -> bool) -> bool {
    if is_list_value(value) {
        return false;
    }
    let lower = value.trim().to_ascii_lowercase();
    let has_scheme = lower.starts_with("http://") || lower.starts_with("https://");
    let is_path = lower.starts_with('/') || lower.starts_with("./") || lower.starts_with("../");
    let path = lower.split(['?', '#']).next().unwrap_or_default();
    let list_file = path.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && !ext.contains(['/', ' '])
            && matches!(
                ext,
                "bib" | "ris" | "json" | "jsonl" | "ndjson" | "csv" | "txt"
            )
    });
    is_list_id(value) || has_scheme || is_path || list_file
}

/// The most a list's file may weigh for the page to compile it: above,
/// the CLI (`CORPUS_DIR=… ./dev build`) builds it. The compiler holds the
/// text, its papers and their index at once; 31.6 MB of JSON Lines (20,000
/// synthetic papers) compiled in the page (`./dev bench`), and the worker's
/// peak memory is not measured yet: the limit leaves room above that.
pub const MAX_OPEN_BYTES: u64 = 48_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_pages_become_their_raw_text() {
        assert_eq!(
            raw_url("https://github.com/lab/papers/blob/main/lists/acl.bib"),
            "https://raw.githubusercontent.com/lab/papers/main/lists/acl.bib"
        );
        assert_eq!(
            raw_url("https://gist.github.com/someone/0123abcd"),
            "https://gist.githubusercontent.com/someone/0123abcd/raw"
        );
        for kept in [
            "https://github.com/lab/papers",
            "https://example.org/papers.bib",
            "https://raw.githubusercontent.com/lab/papers/main/a.bib",
        ] {
            assert_eq!(raw_url(kept), kept);
        }
    }

    /// The seed list's List facet values, as a reload reads them.
    fn seed_list_value(v: &str) -> bool {
        ["ICLR 2026 Papers", "ICLR 2026 Orals", "2024", "notes.txt"].contains(&v)
    }

    #[test]
    fn a_list_filter_is_never_read_as_a_list_to_open() {
        for filter in [
            "?list=ICLR+2026+Papers",
            "?list=2024",
            "list=notes.txt&q=x",
            "?q=a",
        ] {
            assert_eq!(named_list(filter, seed_list_value), None, "{filter}");
        }
        // A `source` is a list whatever it says; a filter beside it stays one.
        assert_eq!(
            named_list("?source=0a1b2c3d4e5f6071&list=2024", seed_list_value).as_deref(),
            Some("0a1b2c3d4e5f6071")
        );
        assert_eq!(
            named_list("source=ICLR+2026+Papers", seed_list_value).as_deref(),
            Some("ICLR 2026 Papers")
        );
    }

    #[test]
    fn the_address_of_a_list_names_it_alone() {
        assert_eq!(open_search("0a1b2c3d4e5f6071"), "?source=0a1b2c3d4e5f6071");
        let url = "https://example.org/lab papers.bib?x=1&y";
        let search = open_search(url);
        assert_eq!(
            search,
            "?source=https%3A%2F%2Fexample.org%2Flab+papers.bib%3Fx%3D1%26y"
        );
        assert_eq!(named_list(&search, |_| false).as_deref(), Some(url));
    }

    #[test]
    fn links_older_pages_wrote_still_open_their_list() {
        for (search, list) in [
            ("?list=0a1b2c3d4e5f6071", "0a1b2c3d4e5f6071"),
            (
                "?list=https%3A%2F%2Fexample.org%2Flab+papers.bib%3Fx%3D1&q=a",
                "https://example.org/lab papers.bib?x=1",
            ),
            ("?embed=1&list=HTTP://example.org/x", "HTTP://example.org/x"),
            ("?list=%2Fshared%2Flab.bib", "/shared/lab.bib"),
            ("?list=papers.RIS", "papers.RIS"),
            ("?list=../lists/a.jsonl#top", "../lists/a.jsonl#top"),
            ("?list=ICLR+2026+Papers&list=abc", "abc"),
        ] {
            assert_eq!(
                named_list(search, seed_list_value).as_deref(),
                Some(list),
                "{search}"
            );
        }
        for not_a_list in ["Vision and language", "v1.2 papers", ".bib", "NeurIPS 2024"] {
            assert!(!old_list_param_opens(not_a_list, |_| false), "{not_a_list}");
        }
    }

    #[test]
    fn list_ids_are_short_hex_only() {
        assert!(is_list_id("0a1b2c3d4e5f6071"));
        for bad in ["", "../x", "0a1b2c3d4e5f60718", "https://x", "zz"] {
            assert!(!is_list_id(bad), "{bad}");
        }
    }
}
