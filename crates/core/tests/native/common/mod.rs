//! What the native tests share: the seed corpus (compiled once per test
//! binary) and scratch directories. Each test binary uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use explorer_core::build::compile_dir;
use explorer_core::{Corpus, Engine};

/// The seed lists, `corpus/` at the top of the repository.
pub fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// The seed corpus, compiled once.
pub fn seed_corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| compile_dir(&seed_dir()).expect("the seed corpus compiles"))
}

/// The engine over the seeds, through the shipped binary format as the app
/// opens it.
pub fn seed_engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| Engine::from_bytes(&seed_corpus().to_bytes()).expect("the seeds decode"))
}

/// A new, empty directory for this test binary's `name`, holding `files`
/// (name, contents).
pub fn scratch_dir<B: AsRef<[u8]>>(name: &str, files: &[(&str, B)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("explorer-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).expect("a scratch file");
    }
    dir
}

/// The real list (ACL Anthology records, CC BY 4.0), read where it lies:
/// `$ACL_ANTHOLOGY_DIR`, else `../shared/corpora/acl-anthology` beside the
/// repository. Never copied into it; a missing list fails the test.
pub fn acl_dir() -> PathBuf {
    let dir = std::env::var_os("ACL_ANTHOLOGY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/acl-anthology")
        });
    assert!(
        dir.is_dir(),
        "no real list at {}: set ACL_ANTHOLOGY_DIR to the ACL Anthology records",
        dir.display()
    );
    dir
}

/// The real list's records, in the order the compiler reads them (files by
/// name, records by line).
pub fn acl_records() -> &'static [explorer_core::build::Record] {
    use explorer_core::build::{read_records as read, RecordFormat as Format};
    static R: OnceLock<Vec<explorer_core::build::Record>> = OnceLock::new();
    R.get_or_init(|| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(acl_dir())
            .expect("the real list's directory")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        files
            .iter()
            .flat_map(|f| {
                let bytes = std::fs::read(f).expect("a record file");
                read(&f.to_string_lossy(), &bytes, Format::JsonLines)
                    .expect("the real list reads")
                    .records
            })
            .collect()
    })
}

/// The real list as records (real titles, authors, venues, years),
/// compiled once as the build compiles it.
pub fn acl_records_corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| explorer_core::build::compile_dir(&acl_dir()).expect("the real list compiles"))
}

/// The real list as a list of bare abstracts (one seed file, no titles,
/// tags or links), compiled once as `eval-title-queries` compiles it: its
/// papers in the records' order, and the records they are.
pub fn acl_abstracts() -> &'static (Corpus, Vec<&'static explorer_core::build::Record>) {
    static C: OnceLock<(Corpus, Vec<&'static explorer_core::build::Record>)> = OnceLock::new();
    C.get_or_init(|| explorer_core::build::title_queries::abstracts_only(acl_records()))
}

/// The corpus of [`acl_abstracts`].
pub fn acl_abstracts_corpus() -> &'static Corpus {
    &acl_abstracts().0
}

/// The engine over [`acl_abstracts_corpus`] (words only: no meaning file).
pub fn acl_abstracts_engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| Engine::new(acl_abstracts_corpus().clone()))
}

/// The real list's paper at the record with this Anthology id, in a corpus
/// compiled in the records' order.
pub fn acl_paper<'a>(corpus: &'a Corpus, id: &str) -> &'a explorer_core::model::Paper {
    let i = acl_records()
        .iter()
        .position(|r| r.id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no record {id} in the real list"));
    assert_eq!(corpus.papers.len(), acl_records().len());
    &corpus.papers[i]
}

/// Types `typed` into `typing` key by key, forwards then back, without a
/// selection and under `selected`, with every fifth paper starred (counted,
/// not ticked), and checks after every keystroke that every facet value's
/// count and the starred count are a scan's of the results `oracle` finds.
/// `oracle` is another engine over the same corpus, so that `typing`
/// counts each keystroke from its own last one (by the papers gained and
/// lost) and from nothing else. Returns how many keystrokes were checked.
pub fn facet_counts_match_a_scan_while_typing(
    typing: &Engine,
    oracle: &Engine,
    typed: &str,
    selected: &explorer_core::Selection,
) -> usize {
    use explorer_core::{Extra, Extras, Sort};
    let c = &oracle.corpus;
    let starred: Vec<u32> = (0..oracle.len() as u32).step_by(5).collect();
    let extras = Extras {
        starred: Extra {
            docs: &starred,
            active: false,
        },
        ..Default::default()
    };
    let none = oracle.no_selection();
    let mut checked = 0;
    for (selection, deleting) in [
        (&none, false),
        (selected, false),
        (selected, true),
        (&none, true),
    ] {
        let ends = typed.char_indices().map(|(i, ch)| i + ch.len_utf8());
        let mut prefixes: Vec<&str> = ends.map(|i| &typed[..i]).collect();
        if deleting {
            prefixes.reverse();
        }
        for q in prefixes {
            let r = typing.search_with(q, selection, extras, Sort::Relevance);
            let base = oracle.search(q, &none, Sort::Relevance).docs();
            // A paper counts for a facet when it passes every other facet's
            // selection (OR within a facet, AND across).
            let passes = |d: u32, skip: usize| {
                let tags = &c.papers[d as usize].tags;
                selection.iter().enumerate().all(|(f, vs)| {
                    f == skip
                        || vs.is_empty()
                        || tags
                            .iter()
                            .any(|t| t.facet as usize == f && vs.contains(&t.value))
                })
            };
            let mut want: Vec<Vec<u32>> =
                c.facets.iter().map(|f| vec![0; f.values.len()]).collect();
            for &d in &base {
                for t in &c.papers[d as usize].tags {
                    if passes(d, t.facet as usize) {
                        want[t.facet as usize][t.value as usize] += 1;
                    }
                }
            }
            assert_eq!(r.counts, want, "{q:?} under {selection:?}");
            let starred_found = base
                .iter()
                .filter(|&&d| passes(d, usize::MAX) && starred.contains(&d))
                .count();
            assert_eq!(r.extra_counts.starred as usize, starred_found, "{q:?}");
            checked += 1;
        }
    }
    checked
}
