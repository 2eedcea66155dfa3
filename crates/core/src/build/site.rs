//! A compiled list as the files a page reads, each named for its content,
//! and the link that names them: what the CLI writes beside `index.html`
//! and what the page's own compiler (a list opened in the page) stores.
//! One function, so that both give the same files for the same list.

use crate::build::meaning::{build_in_lists_from, StaticModel};
use crate::model::{
    body_pack_file_name, body_pack_papers, content_hash, file_name, map_part_file_name,
    tag_part_file_name, title_order_file_name, title_pack_file_name, title_pack_papers, Corpus,
    BODIES_APART_FROM,
};
use crate::search::PACK_BYTES;

/// A compiled list's files and the names the page starts from.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    /// Every file (name, bytes), the parts the link names first.
    pub files: Vec<(String, Vec<u8>)>,
    /// The files the page opens first.
    pub link: SiteLink,
}

/// What `<link data-corpus …>` names: the papers part, the index's head,
/// the meaning file (whose size counts its lists').
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteLink {
    /// The papers part (`corpus-<hash>.bin`): what the first results need.
    pub papers: String,
    /// The index's head (`index-<hash>.bin`), which names its packs.
    pub index: String,
    /// The meaning file (`meaning-<hash>.bin`), which names its lists.
    pub meaning: String,
    /// The meaning file's bytes with its lists': what saving for offline
    /// use says it fetches.
    pub meaning_bytes: usize,
}

impl SiteLink {
    /// The `<link>` element `index.html` carries (the papers part preloaded
    /// while the WebAssembly compiles); `ahead` is the most the page may
    /// fetch ahead of need, when the build sets it.
    pub fn html(&self, ahead: Option<usize>) -> String {
        let ahead = ahead.map_or(String::new(), |n| format!(" data-ahead-bytes=\"{n}\""));
        format!(
            "<link rel=\"preload\" href=\"./{}\" as=\"fetch\" crossorigin=\"anonymous\" data-corpus data-index=\"./{}\" data-meaning=\"./{}\" data-meaning-bytes=\"{}\"{ahead} />\n",
            self.papers, self.index, self.meaning, self.meaning_bytes
        )
    }
}

/// The files of `corpus`: the papers part (a long list's holds their heads,
/// with its tags, bodies, places on the map and titles in files of their
/// own), the index's head and its packs, the meaning file and, from
/// `vector_lists_from` papers, the papers' vectors in lists.
pub fn site(corpus: &Corpus, model: &StaticModel, vector_lists_from: usize) -> Site {
    let mut files = Vec::new();
    let parts = if corpus.papers.len() >= BODIES_APART_FROM {
        papers_apart(corpus, &mut files).to_parts()
    } else {
        corpus.to_parts()
    };
    let name = |kind: &str, bytes: &[u8]| file_name(kind, content_hash(bytes));
    let meaning = build_in_lists_from(model, &corpus.papers, vector_lists_from).0;
    let meaning_file = meaning.to_bytes();
    let lists = meaning.list_files();
    let meaning_bytes = meaning_file.len() + lists.iter().map(Vec::len).sum::<usize>();
    for (l, list) in (0..).zip(lists) {
        let file = meaning.list_file(l).expect("a list of the meaning file");
        files.push((file, list));
    }
    let packed = corpus.index.in_packs(PACK_BYTES);
    let head = packed.head.to_frame();
    let link = SiteLink {
        papers: name("corpus", &parts.papers),
        index: name("index", &head),
        meaning: name("meaning", &meaning_file),
        meaning_bytes,
    };
    files.extend(packed.head.pack_files().into_iter().zip(packed.packs));
    let firsts = [
        (link.papers.clone(), parts.papers),
        (link.index.clone(), head),
        (link.meaning.clone(), meaning_file),
    ];
    files.splice(0..0, firsts);
    Site { files, link }
}

/// A long list's papers apart (tags, bodies, places on the map, titles and
/// their order, each file named for its content) pushed to `files`; returns
/// the head that names them.
fn papers_apart(corpus: &Corpus, files: &mut Vec<(String, Vec<u8>)>) -> Corpus {
    // The tags, fetched after the first answer (facet counts of a query,
    // filters); each card's own come with its body.
    let (head, tags) = corpus.tags_apart();
    if let Some(r) = &head.tag_part {
        files.push((tag_part_file_name(r.hash), tags));
    }
    let n = corpus.papers.len();
    let (head, packs) = head.in_body_packs(body_pack_papers(n));
    for (r, bytes) in head.body_packs.iter().zip(packs) {
        files.push((body_pack_file_name(r.hash), bytes));
    }
    let (head, map) = head.map_apart();
    if let Some(r) = &head.map_part {
        files.push((map_part_file_name(r.hash), map));
    }
    // The titles, in small packs fetched for the cards and lists shown,
    // and the title order for sorting.
    let (head, packs, order) = head.titles_apart(title_pack_papers(n));
    if let Some(t) = &head.titles {
        for (r, bytes) in t.packs.iter().zip(packs) {
            files.push((title_pack_file_name(r.hash), bytes));
        }
        files.push((title_order_file_name(t.order_hash), order));
    }
    head
}
