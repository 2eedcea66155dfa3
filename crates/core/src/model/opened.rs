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
    /// request (`?list=URL`, resolved against the page).
    pub url: Option<String>,
    /// Skip records without an abstract (with a count) instead of failing.
    pub lenient: bool,
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
        /// The list, as the browser keeps it.
        list: KeptList,
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
    /// A record has no abstract; the reader may skip such records instead.
    NoAbstract {
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
    /// The address it was fetched from (`?list=URL`), if it was.
    #[serde(default)]
    pub url: Option<String>,
    /// How many papers it has.
    pub papers: u32,
    /// Records skipped for having no abstract.
    pub skipped: u32,
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

/// Whether `id` can name a kept list (hex, as [`KeptList::id`]): what a
/// `?list=` that is not a URL must be.
pub fn is_list_id(id: &str) -> bool {
    (1..=16).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_hexdigit())
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

    #[test]
    fn list_ids_are_short_hex_only() {
        assert!(is_list_id("0a1b2c3d4e5f6071"));
        for bad in ["", "../x", "0a1b2c3d4e5f60718", "https://x", "zz"] {
            assert!(!is_list_id(bad), "{bad}");
        }
    }
}
