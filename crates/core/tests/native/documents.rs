//! The documents name what is there: every file or folder the README,
//! ARCHITECTURE.md and docs/ name (in `code` or as a link) exists, a path
//! where it says, a bare file name somewhere in the repository. What the
//! build writes (`dist/`, `target/`), patterns (`corpus-<hash>.bin`,
//! `*.txt`) and the shared data beside the repository are not files of
//! it. The host API's protocol version they name is the one the core
//! speaks, and ARCHITECTURE.md's dependency table names crates where the
//! manifests have them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The documents: the README, ARCHITECTURE.md and `docs/*.md`.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path);
        }
    }
    docs
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
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in &documents(&root) {
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

/// The host API's protocol version the documents name ("protocol version
/// N": the README's embedding, the guide's host API) is the one the core
/// speaks.
#[test]
fn the_protocol_version_the_documents_name_is_the_cores() {
    const SAID: &str = "protocol version ";
    let speaks = explorer_core::view::embed::VERSION;
    let root = root();
    let mut wrong = Vec::new();
    let mut in_readme = 0;
    for doc in &documents(&root) {
        let text = std::fs::read_to_string(doc).expect("a document");
        for (at, _) in text.match_indices(SAID) {
            let digits: String = text[at + SAID.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if digits.is_empty() {
                continue;
            }
            if doc.ends_with("README.md") {
                in_readme += 1;
            }
            if digits.parse::<u32>() != Ok(speaks) {
                wrong.push(format!("{}: \"{SAID}{digits}\"", doc.display()));
            }
        }
    }
    assert!(in_readme > 0, "the README names no \"{SAID}N\"");
    assert!(
        wrong.is_empty(),
        "the core speaks host API protocol version {speaks} (view::embed::VERSION), not:\n{}",
        wrong.join("\n")
    );
}

/// A Cargo manifest, or Cargo.lock, parsed.
fn read_toml(root: &Path, path: &str) -> toml::Table {
    let text = std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.parse().unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The strings of a TOML array.
fn strings(value: &toml::Value) -> impl Iterator<Item = &str> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_str)
}

/// A Cargo manifest: its path from the repository's root, and its TOML.
struct Manifest {
    path: String,
    toml: toml::Table,
}

impl Manifest {
    fn read(root: &Path, path: &str) -> Manifest {
        let toml = read_toml(root, path);
        Manifest {
            path: path.to_string(),
            toml,
        }
    }

    /// Its entry `key` of `section` (`dependencies`, `dev-dependencies`,
    /// `features`, `workspace`…), or of a `[target.'cfg(…)'.section]`.
    fn entry(&self, section: &str, key: &str) -> Option<&toml::Value> {
        let targets = self.toml.get("target").and_then(toml::Value::as_table);
        let targets =
            (targets.into_iter()).flat_map(|t| t.values().filter_map(toml::Value::as_table));
        std::iter::once(&self.toml)
            .chain(targets)
            .find_map(|t| t.get(section)?.get(key))
    }

    /// Whether `krate` is one of its `[dependencies]`.
    fn depends_on(&self, krate: &str) -> bool {
        self.entry("dependencies", krate).is_some()
    }

    /// Whether `krate` is one of its `[dependencies]`, an optional one.
    fn optionally(&self, krate: &str) -> bool {
        self.entry("dependencies", krate)
            .and_then(|e| e.get("optional")?.as_bool())
            == Some(true)
    }

    /// The optional dependencies its `feature` turns on, itself or through
    /// the features it turns on.
    fn turned_on_by(&self, feature: &str) -> BTreeSet<String> {
        let (mut on, mut seen) = (BTreeSet::new(), BTreeSet::new());
        let mut features = vec![feature.to_string()];
        while let Some(feature) = features.pop() {
            let Some(value) = self.entry("features", &feature) else {
                continue;
            };
            if !seen.insert(feature) {
                continue;
            }
            for item in strings(value) {
                if let Some(krate) = item.strip_prefix("dep:") {
                    on.insert(krate.to_string());
                } else if self.entry("features", item).is_some() {
                    features.push(item.to_string());
                } else if !item.contains('/') {
                    // An optional dependency's own feature.
                    on.insert(item.to_string());
                }
            }
        }
        on
    }
}

/// The workspace's manifests (the root's `members`) and its lock file.
struct Workspace {
    root: PathBuf,
    members: Vec<Manifest>,
    lock: toml::Table,
}

impl Workspace {
    fn read(root: &Path) -> Workspace {
        let top = Manifest::read(root, "Cargo.toml");
        let members = strings(top.entry("workspace", "members").expect("members"))
            .map(|m| match m {
                "." => Manifest::read(root, "Cargo.toml"),
                m => Manifest::read(root, &format!("{m}/Cargo.toml")),
            })
            .collect();
        Workspace {
            root: root.to_path_buf(),
            members,
            lock: read_toml(root, "Cargo.lock"),
        }
    }

    /// The member whose manifest is `path`.
    fn member(&self, path: &str) -> &Manifest {
        (self.members.iter().find(|m| m.path == path))
            .unwrap_or_else(|| panic!("{path} is no workspace member's manifest"))
    }

    /// The manifest of the folder a word in backticks names (`fuzz/`,
    /// `tools/tantivy-peer`), if it names one.
    fn folder(&self, word: &str) -> Option<Manifest> {
        let folder = word.strip_prefix('`')?.strip_suffix('`')?;
        let path = format!("{}/Cargo.toml", folder.trim_end_matches('/'));
        self.root
            .join(&path)
            .is_file()
            .then(|| Manifest::read(&self.root, &path))
    }

    /// Every member's entry for `krate`, of its dependencies or its
    /// dev-dependencies.
    fn entries<'a>(&'a self, krate: &'a str) -> impl Iterator<Item = &'a toml::Value> + 'a {
        let sections = ["dependencies", "dev-dependencies"];
        (self.members.iter())
            .flat_map(move |m| sections.map(|s| m.entry(s, krate)))
            .flatten()
    }

    /// Whether `krate` ships in the page: a dependency of the app or the
    /// core, not an optional one.
    fn ships(&self, krate: &str) -> bool {
        ["Cargo.toml", "crates/core/Cargo.toml"].iter().any(|path| {
            let m = self.member(path);
            m.depends_on(krate) && !m.optionally(krate)
        })
    }

    /// Whether the lock file has `krate` among `leptos`'s dependencies.
    fn through_leptos(&self, krate: &str) -> bool {
        let packages = self.lock.get("package").and_then(toml::Value::as_array);
        packages.into_iter().flatten().any(|package| {
            package.get("name").and_then(toml::Value::as_str) == Some("leptos")
                && (package.get("dependencies").into_iter())
                    .flat_map(strings)
                    .any(|d| d.split(' ').next() == Some(krate))
        })
    }
}

/// The crates ARCHITECTURE.md's dependency table names, each with the
/// words in parentheses said of it: `(a, b; c)` after several crates is
/// said of each crate named since the last parentheses.
fn dependency_table(text: &str) -> Vec<(String, Vec<String>)> {
    let section = text
        .split("## Dependencies and why")
        .nth(1)
        .expect("ARCHITECTURE.md has a dependency table");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut table = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cell = row.split('|').nth(1).unwrap_or("");
        let first = table.len();
        let (mut code, mut words, mut text) = (false, false, String::new());
        for c in cell.chars() {
            match c {
                '`' if !words => {
                    if code {
                        table.push((std::mem::take(&mut text), Vec::new()));
                    }
                    code = !code;
                }
                '(' if !code && !words => words = true,
                ')' if words => {
                    let said: Vec<String> = (text.split([',', ';']).map(str::trim))
                        .filter(|w| !w.is_empty())
                        .map(str::to_string)
                        .collect();
                    for (_, of) in &mut table[first..] {
                        if of.is_empty() {
                            of.clone_from(&said);
                        }
                    }
                    words = false;
                    text.clear();
                }
                _ if code || words => text.push(c),
                _ => {}
            }
        }
    }
    table
}

/// The words of the dependency table that say where a crate is a
/// dependency; without one, it ships in the page.
const PLACES: [&str; 9] = [
    "build time",
    "synthetic lists only",
    "cli",
    "the page's compiler",
    "browser tests",
    "bench",
    "tests",
    "benchmarks",
    "through Leptos",
];

/// `Ok` if `so`, else what is not so.
fn holds(so: bool, otherwise: &str) -> Result<(), String> {
    if so {
        Ok(())
    } else {
        Err(otherwise.to_string())
    }
}

/// What one of the table's words in parentheses, `word`, asks of the
/// manifests for `krate` (`words`: all those said of it); `Err` says what
/// is not so.
fn check_word(krate: &str, word: &str, words: &[String], ws: &Workspace) -> Result<(), String> {
    let core = ws.member("crates/core/Cargo.toml");
    let member_has = |path: &str| ws.member(path).depends_on(krate);
    match word {
        "build time" => holds(
            (core.optionally(krate) && core.turned_on_by("compile").contains(krate))
                || member_has("crates/cli/Cargo.toml"),
            "neither an optional dependency of the core its `compile` feature turns on \
             nor a dependency of the CLI",
        ),
        "synthetic lists only" => holds(
            core.optionally(krate)
                && core.turned_on_by("synth").contains(krate)
                && !core.turned_on_by("compile").contains(krate),
            "not an optional dependency of the core that only its `synth` feature turns on",
        ),
        "cli" => holds(
            member_has("crates/cli/Cargo.toml"),
            "not in crates/cli/Cargo.toml's [dependencies]",
        ),
        "the page's compiler" => holds(
            member_has("crates/worker/Cargo.toml"),
            "not in crates/worker/Cargo.toml's [dependencies]",
        ),
        "browser tests" | "bench" => holds(
            member_has("tests/browser/Cargo.toml"),
            "not in tests/browser/Cargo.toml's [dependencies]",
        ),
        "tests" | "benchmarks" => holds(
            (ws.members.iter()).any(|m| m.entry("dev-dependencies", krate).is_some()),
            "in no workspace member's [dev-dependencies]",
        ),
        "through Leptos" => holds(
            ws.through_leptos(krate),
            "not one of `leptos`'s dependencies in Cargo.lock",
        ),
        "no default features" => holds(
            ws.entries(krate)
                .any(|e| e.get("default-features").and_then(toml::Value::as_bool) == Some(false)),
            "taken with its default features",
        ),
        "a workspace of its own" => holds(
            words
                .iter()
                .filter_map(|w| ws.folder(w))
                .any(|m| m.toml.contains_key("workspace")),
            "no folder said of it has a manifest with its own [workspace]",
        ),
        _ => check_backticked(krate, word, ws),
    }
}

/// What a word with backticks asks for `krate`: "pinned" and a version,
/// that version; a folder (`fuzz/`), a dependency in its manifest; a
/// feature (`english`), the crate taken with it.
fn check_backticked(krate: &str, word: &str, ws: &Workspace) -> Result<(), String> {
    let inner = |w: &str| Some(w.strip_prefix('`')?.strip_suffix('`')?.to_string());
    if let Some(version) = word.strip_prefix("pinned ").and_then(inner) {
        return holds(
            (ws.entries(krate))
                .any(|e| e.get("version").unwrap_or(e).as_str() == Some(version.as_str())),
            &format!("not pinned to \"{version}\" in any manifest"),
        );
    }
    if let Some(folder) = ws.folder(word) {
        return holds(
            folder.depends_on(krate),
            &format!("not in {}'s [dependencies]", folder.path),
        );
    }
    match inner(word) {
        Some(feature) => holds(
            (ws.entries(krate)).any(|e| {
                e.get("features")
                    .is_some_and(|fs| strings(fs).any(|f| f == feature))
            }),
            &format!("taken without the feature \"{feature}\" everywhere"),
        ),
        None => Err("a word this test does not know: say in `check_word` what it asks".into()),
    }
}

/// Every crate ARCHITECTURE.md's dependency table names is a dependency
/// where the words in parentheses after it say: without one, of the app or
/// the core, not optional (it ships in the page); *build time*, an
/// optional one of the core that `compile` turns on, or the CLI's; *tests*
/// and *benchmarks*, a `[dev-dependencies]` entry; *browser tests* and
/// *bench*, `tests/browser/`'s; a folder in backticks, its manifest's; a
/// feature in backticks, taken with it.
#[test]
fn every_crate_of_the_dependency_table_is_where_it_says() {
    let root = root();
    let ws = Workspace::read(&root);
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let table = dependency_table(&text);
    assert!(table.len() > 40, "only {} crates read", table.len());
    let mut wrong = Vec::new();
    for (krate, words) in &table {
        let placed = (words.iter()).any(|w| PLACES.contains(&w.as_str()) || ws.folder(w).is_some());
        if !placed && !ws.ships(krate) {
            wrong.push(format!(
                "`{krate}` (nothing said: it ships in the page): not a dependency of the app \
                 (Cargo.toml) or of the core (crates/core/Cargo.toml), or an optional one"
            ));
        }
        for word in words {
            if let Err(e) = check_word(krate, word, words, &ws) {
                wrong.push(format!("`{krate}` ({word}): {e}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's dependency table says what the manifests do not:\n{}",
        wrong.join("\n")
    );
}
