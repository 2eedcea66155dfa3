//! What the tests expect: the builds under test and the engine run
//! natively on the same corpus.

use super::*;

/// Where the release build is: `$EXPLORER_DIST`, else `dist/` at the top.
pub fn dist_dir() -> PathBuf {
    let dir = std::env::var_os("EXPLORER_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dist"));
    assert!(
        dir.join("index.html").is_file(),
        "no release build at {}: run `trunk build --release` first (`./dev test` does)",
        dir.display()
    );
    dir
}

/// The name of a build's content-hashed file of `kind` (`corpus`,
/// `index`, `meaning`: `<kind>-<hash>.bin`) in `dist`.
pub fn build_file(dist: &Path, kind: &str) -> String {
    build_file_if_any(dist, kind)
        .unwrap_or_else(|| panic!("no {kind}-<hash>.bin in {}", dist.display()))
}

/// [`build_file`], or `None` when the build has no such file (a short
/// list's map is in its papers part).
pub fn build_file_if_any(dist: &Path, kind: &str) -> Option<String> {
    let prefix = format!("{kind}-");
    std::fs::read_dir(dist)
        .ok()?
        .filter_map(|f| f.ok()?.file_name().into_string().ok())
        .find(|n| n.starts_with(&prefix) && n.ends_with(".bin"))
}

/// The build of the synthetic conference-size corpus (`./dev test` makes it:
/// `$EXPLORER_SCALE_DIST`, else `target/dist-scale`), and the corpus
/// directory it was built from (`target/synthetic`).
pub fn scale_build() -> (PathBuf, PathBuf) {
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dist = std::env::var_os("EXPLORER_SCALE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| top.join("target/dist-scale"));
    let corpus = top.join("target/synthetic");
    assert!(
        dist.join("index.html").is_file() && corpus.is_dir(),
        "no scale build at {}: `./dev test` generates target/synthetic and builds it",
        dist.display()
    );
    (dist, corpus)
}

/// One build of the real list: where it is served from and the engine run
/// natively on the corpus it was built from, with the build's meaning file
/// (the page's oracle once the reader has typed).
pub struct RealBuild {
    pub dist: PathBuf,
    pub engine: Engine,
}

/// The real list's two builds that `./dev test` makes: as records, with
/// their real titles (`target/dist-acl`, from the ACL Anthology records
/// that `target/acl-records` links to where they lie), and as abstracts
/// only, one seed file whose titles are derived
/// (`target/dist-acl-abstracts`, from `target/acl-abstracts`).
pub fn real_builds() -> &'static [RealBuild; 2] {
    static B: OnceLock<[RealBuild; 2]> = OnceLock::new();
    B.get_or_init(|| {
        let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target");
        let build = |dist: &str, corpus: PathBuf| {
            let dist = target.join(dist);
            assert!(
                dist.join("index.html").is_file(),
                "no build of the real list at {}: `./dev test` makes it",
                dist.display()
            );
            let corpus = explorer_core::build::compile_dir(&corpus)
                .unwrap_or_else(|e| panic!("the real list compiles: {e}"));
            let engine = Engine::new(corpus);
            // The meaning file the page fetches once the reader types: it
            // orders the best matches too.
            let meaning = dist.join(build_file(&dist, "meaning"));
            let meaning =
                explorer_core::search::Meaning::from_bytes(&std::fs::read(meaning).unwrap())
                    .expect("the meaning file decodes");
            engine
                .open_meaning(meaning)
                .expect("the meaning file is the build's corpus's");
            // And every list of its papers' vectors (`./dev test` builds
            // the real list with them in lists, as a field's are): the
            // page's once those its query reads are in.
            for l in 0..engine.meaning().map_or(0, |m| m.list_count()) as u32 {
                let file = engine.vectors_file(l).unwrap();
                let bytes = std::fs::read(dist.join(&file)).unwrap();
                engine
                    .add_vectors(l, bytes.into())
                    .expect("the build's lists");
            }
            RealBuild { dist, engine }
        };
        [
            build("dist-acl", target.join("acl-records")),
            build("dist-acl-abstracts", target.join("acl-abstracts")),
        ]
    })
}

/// The seed corpus, compiled natively, with the meaning file the build
/// ships beside it: what the page must show.
pub fn engine() -> &'static Engine {
    use explorer_core::build::{build_meaning, StaticModel};
    use explorer_core::search::Meaning;
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let corpus = explorer_core::build::compile_dir(&dir).expect("corpus compiles");
        let meaning = build_meaning(&StaticModel::committed(), &corpus.papers).to_bytes();
        let e = Engine::new(corpus);
        e.open_meaning(Meaning::from_bytes(&meaning).expect("the meaning file decodes"))
            .expect("the meaning file is the corpus's");
        e
    })
}

/// Every paper's title, in list order: the page with no query.
pub fn all_titles() -> Vec<String> {
    engine()
        .corpus
        .papers
        .iter()
        .map(|p| p.title.clone())
        .collect()
}

/// Titles the seed engine ranks for a query with no facet selected.
pub fn expected_titles(query: &str) -> Vec<String> {
    ranked_titles(engine(), query)
}

/// The papers an engine ranks for a query with no facet selected.
pub fn ranked_docs(e: &Engine, query: &str) -> Vec<u32> {
    e.search(query, &e.no_selection(), Sort::Relevance).docs()
}

/// Documents an engine ranks for a query with no facet selected, among
/// the papers `inside` a region of the topic map.
pub fn ranked_in_region(e: &Engine, query: &str, inside: &[u32]) -> Vec<u32> {
    use explorer_core::{Extra, Extras};
    let extras = Extras {
        region: Extra {
            docs: inside,
            active: true,
        },
        ..Extras::default()
    };
    e.search_with(query, &e.no_selection(), extras, Sort::Relevance)
        .docs()
}

/// Titles an engine ranks for a query with no facet selected.
pub fn ranked_titles(e: &Engine, query: &str) -> Vec<String> {
    ranked_docs(e, query)
        .into_iter()
        .map(|d| e.corpus.papers[d as usize].title.clone())
        .collect()
}
