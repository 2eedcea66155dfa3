//! Any text parses as markup; the runs cover the visible text exactly.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|src: &str| {
    let m = explorer_core::build::parse_markup(src);
    let mut last = 0u32;
    for r in &m.runs {
        assert!(r.end > last && m.text.is_char_boundary(r.end as usize));
        last = r.end;
    }
    assert_eq!(last as usize, m.text.len());
});
