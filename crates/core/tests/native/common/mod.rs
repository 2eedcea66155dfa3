//! What the native tests share: the seed corpus (compiled once per test
//! binary) and scratch directories. Each test binary uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use explorer_core::compile::compile_dir;
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
