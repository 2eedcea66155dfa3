//! Any query parses, with work bounded by its (capped) length.
#![no_main]

use explorer_core::search::{parse_query as parse, MAX_QUERY_CHARS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|q: &str| {
    let parsed = parse(q, &|k| k == "topic" || k == "tag");
    let clauses: usize = parsed.groups.iter().map(Vec::len).sum::<usize>()
        + parsed.excluded.len()
        + parsed.filters.len();
    assert!(clauses <= MAX_QUERY_CHARS.min(q.chars().count()) + 1);
});
