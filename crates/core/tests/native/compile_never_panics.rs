//! The whole compile path — markup, titles, acronyms, tags, the index,
//! similar papers and the topic map — on abstracts no one wrote by hand:
//! real seed sentences spliced with the punctuation real abstracts have
//! (`(-)`, `(i)`, `($\alpha$)`, `(\%)`, unbalanced parentheses, lone
//! dashes, `e.g.,`, Unicode), very short and very long. Every list either
//! compiles with every paper present or fails naming a file and line; no
//! input panics. `PROPTEST_CASES=2000 cargo test --release -p explorer-core
//! --test native compile_never_panics` for a longer run; `fuzz/` has the same
//! check as the cargo-fuzz target `compile`.

use std::path::PathBuf;
use std::sync::OnceLock;

use explorer_core::build::Taxonomy;
use explorer_core::build::{compile_sources, parse_taxonomy, Source, DEFAULT_TAXONOMY};
use explorer_core::Engine;
use proptest::prelude::*;

/// Sentences of the real seed abstracts.
fn seed_sentences() -> &'static [String] {
    static S: OnceLock<Vec<String>> = OnceLock::new();
    S.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "txt") {
                let text = std::fs::read_to_string(path).unwrap();
                for para in text.split("\n\n").skip(1) {
                    out.extend(para.split(". ").map(|s| s.trim().to_string()));
                }
            }
        }
        out.retain(|s| !s.is_empty());
        out
    })
}

fn taxonomy() -> &'static Taxonomy {
    static T: OnceLock<Taxonomy> = OnceLock::new();
    T.get_or_init(|| parse_taxonomy("default taxonomy", DEFAULT_TAXONOMY).unwrap())
}

/// What real abstracts put between sentences and inside them.
const PUNCTUATION: &[&str] = &[
    "(-)",
    "(i)",
    "(ii)",
    "(iii)",
    "($\\alpha$)",
    "(\\%)",
    "( )",
    "()",
    "(",
    ")",
    "((",
    "))",
    " - ",
    "-",
    "—",
    "–",
    "e.g.,",
    "i.e.,",
    "et al.",
    "(e.g., GSM8K)",
    "(see Table 1)",
    ":",
    ";",
    "?",
    "!",
    "...",
    "…",
    "“",
    "”",
    "`",
    "'",
    "``quoted''",
    "*",
    "**",
    "_",
    "$",
    "$x$",
    "\\",
    "\\emph{",
    "}",
    "{",
    "~",
    "%",
    "&",
    "#",
    "/",
    "+",
    "±",
    "×",
    "→",
    "≤",
    "∞",
    "α",
    "智能",
    "模型",
    "🤖",
    "é",
    "ß",
    "\u{200b}",
    "\u{202e}",
    "<",
    ">",
    "&amp;",
    "https://github.com/x/y",
    "(ABC)",
    "(Abc Def Ghi)",
    "ABC (",
    "named",
    "called X",
    "we propose",
    "we introduce (",
    "our method,",
    "X, a",
    "(SC)",
    "(LLMs)",
    "A-B",
    "K²",
    "n^2",
    "\n",
];

/// One abstract: seed sentences and punctuation in any order.
fn abstract_text() -> impl Strategy<Value = String> {
    let n = seed_sentences().len();
    let piece = prop_oneof![
        3 => (0..n).prop_map(|i| seed_sentences()[i].clone()),
        3 => (0..PUNCTUATION.len()).prop_map(|i| PUNCTUATION[i].to_string()),
        1 => "[A-Za-z0-9()\\-,.$ ]{0,12}",
        1 => any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec((piece, prop::bool::ANY), 1..40).prop_map(|parts| {
        let mut s = String::new();
        for (p, space) in parts {
            s.push_str(&p);
            if space {
                s.push(' ');
            }
        }
        // A paragraph of the seed format: no blank line inside, no NUL.
        s.replace("\n\n", "\n").replace('\0', " ")
    })
}

/// Paragraphs after the header line: runs of lines that are not blank
/// (a line of spaces is blank, as the seed format reads it).
fn paragraphs(text: &str) -> usize {
    let mut count = 0;
    let mut in_paragraph = false;
    for line in text.lines().skip(1) {
        let blank = line.trim().is_empty();
        if !blank && !in_paragraph {
            count += 1;
        }
        in_paragraph = !blank;
    }
    count
}

fn list(abstracts: &[String]) -> Vec<u8> {
    let mut s = String::from("A hostile list\n\n");
    for a in abstracts {
        s.push_str(a);
        s.push_str("\n\n");
    }
    s.into_bytes()
}

/// Texts the properties below found, kept so that they are tried on every
/// run: a topic that took a title past 110 characters; a word followed by
/// `—` instead of a space; a name followed by a no-break space.
#[test]
fn texts_the_properties_found() {
    let texts = [
        "Thus, in this work, we focus on developing a fluent preference-aligned language model \
         without any instruction-tuning data in the target language In this work, we challenge \
         this assumption and show that missingness bias can be effectively treated as a \
         superficial artifact of the model's output spaceWe present Difference-Aware Retrieval \
         Polices for Imitation Learning (DARP), a novel nearest-neighbor-based imitation learning \
         approach that addresses this limitation by reparameterizing the imitation learning \
         problem in terms of local neighborhood structure rather than direct state-to-action \
         mappingsWhile dominant, is this an optimal way of training? In this paper, we present \
         RLP, an information-driven reinforcement pretraining objective, that brings the core \
         spirit of reinforcement learning---exploration---to the last phase of pretrainingThe \
         results show that the on-policy aspect is crucial and outperforms the alternatives \
         without relying on any hard-to-obtain data.",
        "our method,—aReinforcement learning from human or AI feedback (RLHF/RLAIF) has become \
         the standard paradigm for aligning large language models (LLMs)",
    ];
    for text in texts {
        let t = explorer_core::build::derive_title(text);
        assert!(!t.is_empty() && t.chars().count() <= 110, "{t}");
    }
    // A name before a no-break space and a colon is read as before a colon.
    use explorer_core::build::title_eval::flaws;
    let text = "We present GLiNER, a compact model for named entity recognition.";
    assert_eq!(
        flaws(
            "GLiNER\u{a0}: compact model for named entity recognition",
            text
        ),
        flaws("GLiNER: compact model for named entity recognition", text)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256)
    ))]

    /// Any such list compiles whole, or fails with a file and line; what
    /// compiles decodes and answers a query.
    #[test]
    fn the_compiler_never_panics(abstracts in prop::collection::vec(abstract_text(), 1..12)) {
        let bytes = list(&abstracts);
        let sources = [Source { file: "list.txt".into(), bytes: bytes.clone() }];
        match compile_sources(&sources, taxonomy()) {
            Ok(corpus) => {
                let paragraphs = paragraphs(&String::from_utf8(bytes).unwrap());
                prop_assert_eq!(corpus.papers.len(), paragraphs);
                for p in &corpus.papers {
                    prop_assert!(!p.title.is_empty() || p.text.trim().is_empty());
                }
                let engine = Engine::from_bytes(&corpus.to_bytes()).expect("decodes");
                let _ = engine.search("model", &engine.no_selection(), explorer_core::Sort::Relevance);
            }
            Err(e) => prop_assert!(e.line >= 1, "{}", e),
        }
    }

    /// Any text as a reference manager's list (BibTeX, RIS, CSL-JSON),
    /// bare or inside an entry: it compiles, or fails naming the file.
    #[test]
    fn references_never_panic(
        text in "[ -~\\n{}\\\\$%&@éü]{0,300}",
        kind in 0..4usize,
    ) {
        let (file, body) = match kind {
            0 => ("refs.bib", format!("@article{{k,\n  title = {{{text}}},\n  abstract = {{{text}}},\n}}\n")),
            1 => ("refs.ris", format!("TY  - JOUR\nTI  - {text}\nAB  - {text}\nER  - \n")),
            2 => ("refs.json", format!("[{{\"type\": \"article\", \"abstract\": {:?}}}]", text)),
            _ => (["refs.bib", "refs.ris"][text.len() % 2], text.clone()),
        };
        let sources = [Source { file: file.into(), bytes: body.into_bytes() }];
        if let Err(e) = compile_sources(&sources, taxonomy()) {
            prop_assert_eq!(e.file.as_str(), file, "{}", e);
        }
    }

    /// Titles alone, on many more abstracts than a compile can take.
    #[test]
    fn titles_never_panic(text in abstract_text()) {
        let t = explorer_core::build::derive_title(&text);
        prop_assert!(!t.is_empty() || text.trim().is_empty());
        prop_assert!(t.chars().count() <= 110, "{}", t);
        let _ = explorer_core::build::definitions(&text);
    }

    /// Very long abstracts (a pasted section) and very short ones.
    #[test]
    fn long_and_short_abstracts_compile(repeat in 1..200usize, short in "[a-z(]{0,3}") {
        let long = seed_sentences()[repeat % seed_sentences().len()].repeat(repeat);
        let bytes = list(&[long, short.clone(), format!("({short})")]);
        let sources = [Source { file: "list.txt".into(), bytes }];
        let corpus = compile_sources(&sources, taxonomy());
        prop_assert!(corpus.is_ok() || short.trim().is_empty());
    }
}

fn seed_blob() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        explorer_core::build::compile_dir(&dir).unwrap().to_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A compiled corpus with bytes changed anywhere (the index's postings
    /// included) is refused, or opens and answers: never an out-of-range
    /// index.
    #[test]
    fn a_damaged_corpus_is_refused_or_answers(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = seed_blob().to_vec();
        // Damage the tail, where the index's sections lie, most of the time.
        for (at, b) in edits {
            let i = bytes.len() / 2 + at.index(bytes.len() / 2);
            bytes[i] = b;
        }
        if let Ok(engine) = Engine::from_bytes(&bytes) {
            for q in ["model", "reinforcement learning", "diffu", "\"language model\""] {
                let r = engine.search(q, &engine.no_selection(), explorer_core::Sort::Relevance);
                for h in r.hits.iter().take(5) {
                    let _ = engine.highlights(h.doc, &r.matched);
                }
            }
        }
    }
}
