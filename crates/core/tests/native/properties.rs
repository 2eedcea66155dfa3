//! Property tests: the markup, query and corpus parsers and the engine on
//! inputs no one wrote by hand. `./dev test` runs proptest's default 256
//! cases per property; a longer run is
//! `PROPTEST_CASES=20000 cargo test --release -p explorer-core --test native properties`
//! (and `fuzz/` holds cargo-fuzz targets for the same parsers).

use explorer_core::build::parse_seed;
use explorer_core::build::{parse_markup, Markup};
use explorer_core::search::{parse_query, MAX_QUERY_CHARS};
use explorer_core::Sort;
use proptest::prelude::*;

use crate::common;
use common::seed_engine as engine;

/// Runs cover the visible text exactly, in order, on character boundaries.
fn runs_cover(m: &Markup) {
    let mut last = 0u32;
    for r in &m.runs {
        assert!(r.end > last, "empty or backwards run");
        assert!(m.text.is_char_boundary(r.end as usize));
        last = r.end;
    }
    assert_eq!(last as usize, m.text.len());
}

/// Plain words: no character any markup gives a meaning to.
fn plain_words() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-zA-Z0-9éüß智能]{1,8}", 1..8).prop_map(|w| w.join(" "))
}

proptest! {
    /// Any text parses; the runs describe the visible text exactly.
    #[test]
    fn markup_never_fails(src in any::<String>()) {
        runs_cover(&parse_markup(&src));
    }

    /// Markup-heavy text (the characters the parser acts on, densely).
    #[test]
    fn markup_survives_its_own_characters(src in "[\\\\${}*_`~^%#\\[\\]()<>&a-z0-9 .:/éֿ智🤖-]{0,120}") {
        runs_cover(&parse_markup(&src));
    }

    /// The visible text is the input minus the markup: plain words wrapped
    /// in emphasis commands come out as the words alone.
    #[test]
    fn visible_text_is_the_input_minus_markup(
        parts in prop::collection::vec((plain_words(), 0..4usize), 1..6)
    ) {
        let mut src = String::new();
        let mut want = String::new();
        for (i, (words, wrap)) in parts.iter().enumerate() {
            if i > 0 {
                src.push(' ');
                want.push(' ');
            }
            src.push_str(&match wrap {
                0 => words.clone(),
                1 => format!("\\textbf{{{words}}}"),
                2 => format!("\\emph{{{words}}}"),
                _ => format!("\\textit{{{words}}}"),
            });
            want.push_str(words);
        }
        let m = parse_markup(&src);
        prop_assert_eq!(&m.text, &want);
        runs_cover(&m);
    }

    /// Any bytes: a list, or an error naming a line of the file.
    #[test]
    fn the_corpus_parser_names_a_real_line(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        match parse_seed("list.txt", &bytes) {
            Ok(list) => {
                prop_assert!(!list.name.is_empty());
                for p in &list.paragraphs {
                    prop_assert!(p.line >= 1 && p.line <= lines);
                    prop_assert!(!p.text.trim().is_empty());
                }
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= lines, "{}", e),
        }
    }

    /// Text-like bytes (lines, blank lines, UTF-8): every paragraph found.
    #[test]
    fn the_corpus_parser_keeps_every_paragraph(
        paras in prop::collection::vec("[a-zA-Z智 ]{0,20}[a-z]", 1..6),
        crlf in any::<bool>(),
    ) {
        let nl = if crlf { "\r\n" } else { "\n" };
        let src = format!("A list{nl}{nl}{}{nl}", paras.join(&format!("{nl}{nl}")));
        let list = parse_seed("list.txt", src.as_bytes()).unwrap();
        let got: Vec<String> = list.paragraphs.iter().map(|p| p.text.trim().to_string()).collect();
        let want: Vec<String> = paras.iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
        prop_assert_eq!(got, want);
    }

    /// Any query parses, with work bounded by the (capped) length.
    #[test]
    fn queries_parse_within_bounds(q in any::<String>()) {
        let parsed = parse_query(&q, &|k| k == "topic");
        let clauses: usize = parsed.groups.iter().map(Vec::len).sum::<usize>()
            + parsed.excluded.len()
            + parsed.filters.len();
        prop_assert!(clauses <= MAX_QUERY_CHARS.min(q.chars().count()) + 1, "{} clauses", clauses);
    }

    /// Any query on the real corpus: no panic, and every highlight range
    /// lies inside its text, on character boundaries, in order.
    #[test]
    fn highlights_stay_inside_the_text(
        q in prop::collection::vec(
            prop_oneof![
                any::<String>(),
                Just("reinforcement".to_string()),
                Just("\"catastrophic forgetting\"".to_string()),
                Just("-video".to_string()),
                Just("llm".to_string()),
                Just("topic:agents".to_string()),
                "[a-z]{1,6}",
            ],
            1..4,
        ).prop_map(|w| w.join(" "))
    ) {
        let e = engine();
        let r = e.search(&q, &e.no_selection(), Sort::Relevance);
        for h in r.hits.iter().take(20) {
            let p = &e.corpus.papers[h.doc as usize];
            let hl = e.highlights(h.doc, &r.matched);
            for (text, ranges) in [(&p.title, &hl.title), (&p.text, &hl.text)] {
                let mut last = 0;
                for range in ranges {
                    prop_assert!(range.start >= last && range.start < range.end);
                    prop_assert!(range.end <= text.len());
                    prop_assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
                    last = range.end;
                }
            }
        }
    }
}
