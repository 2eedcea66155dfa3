//! Compiles the paper lists in `corpus/` (or `$CORPUS_DIR`) into the binary
//! corpus the app embeds. A malformed corpus fails the build with
//! `file:line: reason`. With `CORPUS_LENIENT=1`, a record without an abstract
//! is skipped with a warning instead.

use std::path::PathBuf;

fn main() {
    let dir = std::env::var_os("CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    println!("cargo:rerun-if-env-changed=CORPUS_DIR");
    println!("cargo:rerun-if-env-changed=CORPUS_LENIENT");
    println!("cargo:rerun-if-changed={}", dir.display());
    explorer_core::compile::report_panics_with_paper();
    let options = explorer_core::compile::Options::from_env();
    let corpus = match explorer_core::compile::compile_dir_with(&dir, options) {
        Ok(c) => {
            for w in &c.warnings {
                println!("cargo:warning=corpus: skipped {w}");
            }
            c.corpus
        }
        Err(e) => {
            eprintln!("error: corpus: {e}");
            std::process::exit(1);
        }
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("corpus.bin");
    std::fs::write(&out, corpus.to_bytes()).expect("write compiled corpus");
}
