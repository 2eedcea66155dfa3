//! A malformed corpus directory fails the build with `file:line: reason`.

use std::path::PathBuf;

use explorer_core::build::compile_dir;

use crate::common;

/// A corpus directory of these files (bytes: some cases are not UTF-8).
fn corpus(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    common::scratch_dir(name, files)
}

const TAXONOMY: &[u8] = b"[[topic]]\nname = \"Agents\"\nterms = [\"agent\"]\n";

fn error(name: &str, files: &[(&str, &[u8])]) -> String {
    let dir = corpus(name, files);
    let e = compile_dir(&dir).expect_err("must not compile").to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    e
}

#[test]
fn each_error_names_file_and_line() {
    let e = error("empty", &[("a.txt", b""), ("taxonomy.toml", TAXONOMY)]);
    assert!(
        e.ends_with("a.txt:1: empty file: expected a list name on the first line"),
        "{e}"
    );

    let e = error(
        "header",
        &[("a.txt", b"\n\nMy list\n\n\n"), ("taxonomy.toml", TAXONOMY)],
    );
    assert!(
        e.ends_with("a.txt:3: list \"My list\" has a header but no paper"),
        "{e}"
    );

    let e = error(
        "utf8",
        &[
            ("a.txt", b"My list\n\nfine\n\nbroken \xc3\x28 here\n"),
            ("taxonomy.toml", TAXONOMY),
        ],
    );
    assert!(e.contains("a.txt:5: invalid UTF-8"), "{e}");

    let e = error(
        "toml",
        &[
            ("a.txt", b"My list\n\nAn agent.\n"),
            (
                "taxonomy.toml",
                b"[[topic]]\nname = \"A\"\nterms = [\"x\"\n",
            ),
        ],
    );
    assert!(e.contains("taxonomy.toml:3:"), "{e}");

    let e = error(
        "unknown-key",
        &[
            ("a.txt", b"My list\n\nAn agent.\n"),
            (
                "taxonomy.toml",
                b"[[topic]]\nname = \"A\"\ntrems = [\"x\"]\n",
            ),
        ],
    );
    assert!(e.contains("taxonomy.toml:3:") && e.contains("trems"), "{e}");

    let e = error("nothing", &[("taxonomy.toml", TAXONOMY)]);
    assert!(e.contains("no paper lists here"), "{e}");
}

#[test]
fn a_good_directory_keeps_every_paper() {
    let dir = corpus(
        "good",
        &[
            (
                "a.txt",
                b"\xef\xbb\xbfList A\r\n\r\nOne agent.\r\n\r\n\r\nTwo agents.\r\n",
            ),
            ("b.txt", b"List B\n\nThree.\n"),
            ("taxonomy.toml", TAXONOMY),
        ],
    );
    let c = compile_dir(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(c.papers.len(), 3);
    assert_eq!(c.title(), "List A · List B");
    let agents = c
        .papers
        .iter()
        .filter(|p| p.tags.iter().any(|t| t.facet == 0))
        .count();
    assert_eq!(agents, 2);
}

/// One case of the README's table: what the file holds, and the outcome.
struct Case {
    what: &'static str,
    bytes: Vec<u8>,
    /// The line a failing build must name (the line of the fault, found
    /// by reading the input), or `None` for an input that builds.
    fails_at: Option<u32>,
}

fn cases() -> Vec<Case> {
    let agent = |i: usize| format!("Paper {i} studies an agent that plans.");
    let mut ten_mb = b"A list\n\n".to_vec();
    while ten_mb.len() < 10 * 1024 * 1024 {
        ten_mb.extend_from_slice(b"an agent reads a very long line without any break ");
    }
    vec![
        Case {
            what: "empty file",
            bytes: Vec::new(),
            fails_at: Some(1),
        },
        Case {
            what: "header line only",
            bytes: b"A list\n".to_vec(),
            fails_at: Some(1),
        },
        Case {
            what: "invalid UTF-8 in an abstract",
            bytes: b"A list\n\nfine agent\n\nbroken \xff\xfe here\n".to_vec(),
            fails_at: Some(5),
        },
        Case {
            what: "NUL bytes in an abstract",
            bytes: b"A list\n\nan agent \0 with a NUL\n\nanother agent\n".to_vec(),
            fails_at: Some(3),
        },
        Case {
            what: "a 10 MB single line",
            bytes: ten_mb,
            fails_at: None,
        },
        Case {
            what: "the same abstract twice",
            bytes: format!("A list\n\n{}\n\n{}\n", agent(1), agent(1)).into_bytes(),
            fails_at: None,
        },
        Case {
            what: "unterminated `$` and `{`",
            bytes: b"A list\n\nCost $O(n^2 grows with \\textbf{agents\n\nA second {paper $ about agents.\n"
                .to_vec(),
            fails_at: None,
        },
        Case {
            what: "mixed CRLF and LF line ends",
            bytes: format!("A list\r\n\r\n{}\r\n\n{}\n\r\n{}\r\n", agent(1), agent(2), agent(3))
                .into_bytes(),
            fails_at: None,
        },
        Case {
            what: "a byte-order mark and blank runs",
            bytes: format!("\u{feff}A list\n\n\n\n\n{}\n\n\n{}\n", agent(1), agent(2)).into_bytes(),
            fails_at: None,
        },
    ]
}

/// Blank-line-separated paragraphs after the header: what “every paper
/// present” means for a file that builds.
fn paragraphs(bytes: &[u8]) -> usize {
    let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
    text.trim_start_matches('\u{feff}')
        .split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .count()
        .saturating_sub(1)
}

/// Builds each case and checks its outcome: either every paper is there,
/// or the error names the file and line. The table of outcomes is the
/// README's (`UPDATE_README=1` rewrites it there when it changes).
#[test]
fn every_malformed_corpus_builds_whole_or_fails_with_file_and_line() {
    let mut table = String::from("| input | outcome |\n|---|---|\n");
    for (i, case) in cases().into_iter().enumerate() {
        let dir = corpus(
            &format!("case{i}"),
            &[("list.txt", &case.bytes), ("taxonomy.toml", TAXONOMY)],
        );
        let outcome = match compile_dir(&dir) {
            Ok(c) => {
                assert_eq!(case.fails_at, None, "{} should fail", case.what);
                assert_eq!(
                    c.papers.len(),
                    paragraphs(&case.bytes),
                    "{}: every paper present",
                    case.what
                );
                // Each paper's visible text is searchable text, NUL-free.
                assert!(c.papers.iter().all(|p| !p.text.contains('\0')));
                // Twin abstracts are two papers with two ids (links differ).
                let mut ids: Vec<&str> = c.papers.iter().map(|p| p.id.as_str()).collect();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), c.papers.len(), "{}: ids unique", case.what);
                match c.papers.len() {
                    1 => "builds: 1 paper".to_string(),
                    n => format!("builds: {n} papers"),
                }
            }
            Err(e) => {
                // The path as a reader's build would show it: the file.
                let e = e.to_string().replace(&format!("{}/", dir.display()), "");
                let line = e
                    .strip_prefix("list.txt:")
                    .and_then(|r| r.split(':').next())
                    .and_then(|n| n.parse::<u32>().ok());
                assert!(line.is_some(), "{}: {e} names no file and line", case.what);
                assert_eq!(
                    line, case.fails_at,
                    "{}: {e} names the wrong line",
                    case.what
                );
                format!("fails: `{e}`")
            }
        };
        std::fs::remove_dir_all(&dir).unwrap();
        table.push_str(&format!("| {} | {} |\n", case.what, outcome));
    }
    let readme_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let (start, end) = (
        "<!-- malformed-corpora:start -->\n",
        "<!-- malformed-corpora:end -->",
    );
    let a = readme.find(start).expect("the README's table markers") + start.len();
    let b = readme.find(end).expect("the README's table markers");
    if readme[a..b] != table {
        if std::env::var_os("UPDATE_README").is_some() {
            let updated = format!("{}{}{}", &readme[..a], table, &readme[b..]);
            std::fs::write(&readme_path, updated).unwrap();
        } else {
            panic!(
                "the README's malformed-corpora table is out of date; \
                 rerun with UPDATE_README=1. It should be:\n{table}"
            );
        }
    }
}
