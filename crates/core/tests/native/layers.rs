//! The dependencies run one way. In the core: `model` ← `search` ← `view`,
//! and `build` above them all (it may use the three; none of them uses
//! it). In the app: `load.rs` (fetching and opening the corpus) is a leaf,
//! and no two components use each other. A back edge is named with its
//! file and line. Test code (from a file's `#[cfg(test)]` on) and comments
//! are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The core's roles, lowest first: each may use only those before it.
const CORE_LAYERS: [&str; 4] = ["model", "search", "view", "build"];

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// A file's code lines (numbered from 1), without comments, up to its
/// first `#[cfg(test)]`.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).expect("a source file");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        // A comment after code (a `//` outside a string is all this code
        // has: no path below is ever written inside one).
        let code = match line.find("// ") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        out.push((i + 1, code.to_string()));
    }
    out
}

/// The first segments of the paths a line names from `root` (`crate::`
/// or `super::`): `crate::search::Index` gives `search`, and
/// `crate::{model::Paper, Sort}` gives `model` and `Sort`.
fn named_after(line: &str, root: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(root) {
        let before = rest[..at].chars().last();
        rest = &rest[at + root.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let ident = |s: &str| -> String {
            s.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        };
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            out.extend(inner.split(',').map(|p| ident(p.trim())));
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The names the core's root re-exports, with the role each comes from
/// (`crate::Engine` is `search`'s).
fn root_names(core: &Path) -> BTreeMap<String, String> {
    let lib = std::fs::read_to_string(core.join("lib.rs")).expect("lib.rs");
    let mut out = BTreeMap::new();
    for layer in CORE_LAYERS {
        let Some(at) = lib.find(&format!("pub use {layer}::")) else {
            continue;
        };
        // `pub use search::{Engine, Sort, …};`: the names in the group.
        let statement = lib[at..].split(';').next().unwrap_or("");
        let group = statement.rsplit("::").next().unwrap_or("");
        for name in group.trim().trim_matches(['{', '}']).split(',') {
            out.insert(name.trim().to_string(), layer.to_string());
        }
    }
    out
}

#[test]
fn the_cores_roles_use_only_the_roles_below_them() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let names = root_names(&core);
    assert!(
        names.get("Engine").is_some_and(|l| l == "search"),
        "{names:?}"
    );
    let mut back = Vec::new();
    for (rank, layer) in CORE_LAYERS.iter().enumerate() {
        let above = &CORE_LAYERS[rank + 1..];
        let files = rust_files(&core.join(layer));
        assert!(!files.is_empty(), "{layer}");
        for file in files {
            for (n, line) in code_lines(&file) {
                for name in named_after(&line, "crate::") {
                    let role = names.get(&name).map_or(name.as_str(), String::as_str);
                    if above.contains(&role) {
                        back.push(format!("{}:{n}: {layer} uses {role}", file.display()));
                    }
                }
                if line.contains("super::super::") {
                    back.push(format!("{}:{n}: a path past its role", file.display()));
                }
            }
        }
    }
    assert!(back.is_empty(), "back edges:\n{}", back.join("\n"));
}

/// The app's source folder.
fn app() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src")
}

#[test]
fn the_pages_loader_uses_no_other_part_of_the_page() {
    let load = app().join("load.rs");
    let mut uses = Vec::new();
    for (n, line) in code_lines(&load) {
        for name in named_after(&line, "crate::") {
            uses.push(format!("load.rs:{n}: crate::{name}"));
        }
    }
    assert!(uses.is_empty(), "{}", uses.join("\n"));
}

#[test]
fn no_two_components_use_each_other() {
    let components = app().join("components");
    let mut uses: BTreeSet<(String, String)> = BTreeSet::new();
    for file in rust_files(&components) {
        let relative = file.strip_prefix(&components).expect("inside");
        let own = relative
            .iter()
            .next()
            .and_then(|c| c.to_str())
            .map(|c| c.trim_end_matches(".rs").to_string())
            .expect("a component");
        for (_, line) in code_lines(&file) {
            for name in named_after(&line, "super::") {
                uses.insert((own.clone(), name));
            }
        }
    }
    assert!(
        uses.contains(&("facet_panel".into(), "facet_row".into())),
        "{uses:?}"
    );
    let both: Vec<_> = uses
        .iter()
        .filter(|(a, b)| a != b && uses.contains(&(b.clone(), a.clone())))
        .collect();
    assert!(both.is_empty(), "{both:?}");
}

/// The functions of a file longer than `most` lines (from `fn` to its
/// closing brace), before its tests, as `file:line name (lines)`.
fn long_functions(path: &Path, most: usize) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a source file");
    let lines: Vec<&str> = text.lines().collect();
    let end = (lines.iter())
        .position(|l| l.trim_start().starts_with("#[cfg(test)]"))
        .unwrap_or(lines.len());
    let mut out = Vec::new();
    for (i, line) in lines[..end].iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let words: Vec<&str> = body.split_whitespace().collect();
        let Some(at) = words.iter().position(|w| *w == "fn") else {
            continue;
        };
        let qualifiers = [
            "pub",
            "pub(crate)",
            "pub(super)",
            "async",
            "const",
            "unsafe",
        ];
        // A declaration without a body (a trait's, an `extern` block's)
        // ends its signature with `;`, on whichever line that is.
        let signature_end = (lines[i..].iter())
            .map(|l| l.trim_end())
            .find(|l| l.ends_with('{') || l.ends_with(';'));
        if !words[..at].iter().all(|w| qualifiers.contains(w))
            || signature_end.is_none_or(|l| l.ends_with(';'))
        {
            continue;
        }
        let close = format!("{indent}}}");
        let Some(n) = lines[i..].iter().position(|l| *l == close) else {
            continue;
        };
        if n + 1 > most {
            let name = words
                .get(at + 1)
                .map_or("", |w| w.split(['(', '<']).next().unwrap_or(""));
            out.push(format!(
                "{}:{} {name} ({} lines)",
                path.display(),
                i + 1,
                n + 1
            ));
        }
    }
    out
}

#[test]
fn no_function_of_the_core_the_app_the_cli_or_the_browser_harness_is_over_80_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let folders = [
        "crates/core/src",
        "crates/cli/src",
        "src",
        "tests/browser/src",
    ];
    let mut long = Vec::new();
    for folder in folders {
        let files = rust_files(&root.join(folder));
        assert!(files.len() > 5, "{folder}");
        for file in files {
            long.extend(long_functions(&file, 80));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}
