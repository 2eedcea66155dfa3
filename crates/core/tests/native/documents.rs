//! The documents name what is there: every file or folder the README,
//! ARCHITECTURE.md and docs/ name (in `code` or as a link) exists, a path
//! where it says, a bare file name somewhere in the repository. What the
//! build writes (`dist/`, `target/`), patterns (`corpus-<hash>.bin`,
//! `*.txt`) and the shared data beside the repository are not files of
//! it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file's and folder's path in the repository, from its root (not
/// what builds write).
fn paths_in(root: &Path, dir: &Path, paths: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if [".git", "target", "node_modules", "dist"].contains(&name.as_str()) {
            continue;
        }
        if path.is_dir() {
            paths_in(root, &path, paths);
        }
        let relative = path.strip_prefix(root).expect("inside");
        paths.insert(format!("/{}", relative.to_string_lossy()));
    }
}

/// Files the documents name that the build writes into `dist/` (the
/// service worker, the no-JavaScript listing's pages), or that a reader
/// holds (a list of their own, the model package's tokenizer).
const NOT_OURS: [&str; 5] = [
    "sw.js",
    "papers.html",
    "papers-2.html",
    "papers.jsonl",
    "tokenizer.json",
];

/// The spans a document names in backticks, and its links' targets.
fn named(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, piece) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push(piece.to_string());
        }
    }
    for piece in text.split("](").skip(1) {
        out.extend(piece.split(')').next().map(str::to_string));
    }
    out
}

/// Whether a span looks like a path of the repository: a file with an
/// extension its files have, or a folder (a trailing `/`), nothing a
/// build writes, no pattern.
fn is_path(span: &str) -> bool {
    const EXTENSIONS: [&str; 11] = [
        ".rs", ".md", ".toml", ".sh", ".css", ".js", ".json", ".jsonl", ".py", ".html", ".txt",
    ];
    let plain = span
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c));
    let written = ["target/", "dist", "/", "../shared", "http", "bench/runs/"]
        .iter()
        .any(|p| span.starts_with(p));
    plain
        && !written
        && span.len() > 3
        && (EXTENSIONS.iter().any(|e| span.ends_with(e)) || span.ends_with('/'))
}

#[test]
fn every_path_the_documents_name_exists() {
    let root = root();
    let mut paths = BTreeSet::new();
    paths_in(&root, &root, &mut paths);
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path);
        }
    }
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).expect("a document");
        for span in named(&text) {
            let span = span.split('#').next().unwrap_or("").to_string();
            if !is_path(&span) || NOT_OURS.contains(&span.as_str()) {
                continue;
            }
            checked += 1;
            // A path from the root, from the document, or from the folder
            // its section is about (`synth/fit.rs` in the core's): some
            // path of the repository ends so.
            let tail = format!("/{}", span.trim_end_matches('/'));
            let found = doc.parent().unwrap().join(&span).exists()
                || paths.iter().any(|p| p.ends_with(&tail));
            if !found {
                missing.push(format!("{}: {span}", doc.display()));
            }
        }
    }
    assert!(checked > 100, "only {checked} paths named");
    assert!(
        missing.is_empty(),
        "named but not there:\n{}",
        missing.join("\n")
    );
}
