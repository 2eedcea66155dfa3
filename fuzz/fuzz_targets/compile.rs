//! Any list text through the whole compiler (markup, titles, acronyms,
//! tags, the index, similar papers, the map): a corpus with every paper,
//! or an error naming a line; never a panic. What compiles decodes.
#![no_main]

use explorer_core::build::{compile_sources, parse_taxonomy, Source, DEFAULT_TAXONOMY};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let taxonomy = parse_taxonomy("default taxonomy", DEFAULT_TAXONOMY).unwrap();
    let sources = [Source {
        file: "list.txt".into(),
        bytes: bytes.to_vec(),
    }];
    match compile_sources(&sources, &taxonomy) {
        Ok(corpus) => {
            explorer_core::Corpus::from_bytes(&corpus.to_bytes()).expect("decodes");
        }
        Err(e) => assert!(e.line >= 1 || e.file != "list.txt", "{e}"),
    }
});
