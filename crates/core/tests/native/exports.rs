//! Lists as people have them: bibliographies real tools wrote (Zotero's
//! Better BibTeX, Mendeley, JabRef, Qiqqa, biblatex users, TUGboat's, RIS
//! and CSL-JSON exports), shipped by open-source projects as their test
//! data (`tests/corpora/exports/`, each with its licence and source). Each
//! file opens with no option: every record with a title is a paper, with
//! or without an abstract; an entry the reader cannot read is skipped and
//! named by its line and key, the rest kept.

use std::path::PathBuf;

use explorer_core::build::{compile_file, Options, Source};

fn exports() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpora/exports")
}

/// One file compiled alone, as a reader opens it in the page.
fn open(path: &str) -> explorer_core::build::Compiled {
    let bytes = std::fs::read(exports().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let source = Source {
        file: path.to_string(),
        bytes,
    };
    compile_file(&source, Options::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Per file: its entries, how many have a title that is not empty, how
/// many an abstract (all of them titled): counted from the file's text,
/// not by this reader.
const FILES: &[(&str, usize, usize, usize)] = &[
    (
        "zotero-better-bibtex/web_page and other mendeley idiocy.bib",
        512,
        512,
        313,
    ),
    (
        "zotero-better-bibtex/BBT does not import groups from JabRef 5.1 #1641.bib",
        20,
        20,
        19,
    ),
    (
        "zotero-better-bibtex/Jabref import - groups lost #1730-5.bib",
        4,
        4,
        0,
    ),
    ("zotero-better-bibtex/Qiqqa.bib", 2, 2, 0),
    ("zotero-better-bibtex/Literal names.bib", 1, 1, 0),
    (
        "zotero-better-bibtex/Math formatting lost on import #627.bib",
        1,
        1,
        0,
    ),
    (
        "zotero-better-bibtex/Import fails to perform @String substitutions #154.bib",
        1,
        1,
        0,
    ),
    ("biblatex-crate/libra.bib", 35, 35, 24),
    ("biblatex-crate/polaritons.bib", 38, 38, 29),
    ("biblatex-crate/ds.bib", 14, 14, 7),
    ("biblatex-crate/gral.bib", 83, 83, 1),
    ("biblatex-crate/rass.bib", 22, 22, 0),
    // Two of its entries have an empty title (`title = "{}"`).
    ("pybtex/tugboat.bib", 2720, 2718, 0),
    ("rispy/example_full.ris", 2, 2, 2),
    (
        "zotero-better-bibtex/Postscript error aborts CSL JSON export #1155.csl.json",
        4,
        4,
        0,
    ),
    (
        "zotero-better-bibtex/Deterministic ordering for CSL #1178 #1400.csl.json",
        26,
        26,
        0,
    ),
];

#[test]
fn every_titled_record_of_a_real_export_is_a_paper() {
    let mut wrong = Vec::new();
    for &(path, entries, titled, with_abstract) in FILES {
        let c = open(path);
        let papers = c.corpus.papers.len();
        let bare = c.corpus.papers.iter().filter(|p| p.text.is_empty()).count();
        let real_titles = c.corpus.papers.iter().filter(|p| !p.title_derived).count();
        let want = format!(
            "{entries} records: {titled} papers, {} without an abstract; {} skipped",
            titled - with_abstract,
            entries - titled
        );
        if c.summary() != want || real_titles != titled || bare + with_abstract != papers {
            wrong.push(format!(
                "{path}: {} ({real_titles} real titles), want {want}",
                c.summary()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A Mendeley export gives two papers one key (`Milazzo2017`), and 37
/// entries none (`@article{,`): all are papers, each said.
#[test]
fn entries_sharing_a_key_or_without_one_are_all_kept() {
    let c = open("zotero-better-bibtex/web_page and other mendeley idiocy.bib");
    assert_eq!(c.corpus.papers.len(), 512);
    let said: Vec<String> = c.warnings.iter().map(ToString::to_string).collect();
    let count = |what: &str| said.iter().filter(|w| w.contains(what)).count();
    let shared = count(": an earlier entry has this key: kept as ");
    let keyless = count(": entry without a key: kept as line");
    assert!(shared > 0, "{said:#?}");
    assert_eq!((keyless, shared + keyless), (37, said.len()), "{said:#?}");
}

/// biblatex's own test of a broken entry (a `💯` where `=` belongs): the
/// entry is skipped and named by its line and key, the other kept.
#[test]
fn an_entry_that_cannot_be_read_is_named_and_the_rest_kept() {
    let path = "biblatex-crate/incorrect_syntax.bib";
    let c = open(path);
    assert_eq!(c.corpus.papers.len(), 1);
    let said: Vec<String> = c.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 1, "{said:?}");
    let text = std::fs::read_to_string(exports().join(path)).unwrap();
    let (line, key) = (text.lines().enumerate())
        .filter(|(_, l)| l.starts_with('@'))
        .map(|(i, l)| {
            (
                i + 1,
                l.split(['{', ',']).nth(1).unwrap_or("").trim().to_string(),
            )
        })
        .nth(1)
        .unwrap();
    assert!(
        said[0].starts_with(&format!("{path}:{line}: entry {key}: skipped: BibTeX: ")),
        "{said:?}"
    );
}
