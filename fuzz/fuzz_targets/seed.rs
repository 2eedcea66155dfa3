//! Any bytes: a list of paragraphs, or an error naming a line of the file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    match explorer_core::build::parse_seed("list.txt", bytes) {
        Ok(list) => {
            for p in &list.paragraphs {
                assert!(p.line >= 1 && p.line <= lines);
            }
        }
        Err(e) => assert!(e.line >= 1 && e.line <= lines, "{e}"),
    }
});
