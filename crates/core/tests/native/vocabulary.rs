//! Synthetic lists grow as real ones do: a synthetic list's
//! vocabulary against the law `explorer-cli synth` follows
//! (`synth::fit`), and the law's constants against the real ACL list they
//! were measured on, read where it lies (`../shared/corpora/acl-anthology`
//! or `$ACL_ANTHOLOGY_DIR`). Words are counted as `explorer-cli vocab`
//! counts them (`build::vocab`).

use std::sync::OnceLock;

use explorer_core::build::synth::{self, fit};
use explorer_core::build::vocab::{self, Fanout, Figures, Report};
use explorer_core::build::{read_records, RecordFormat};

use crate::common::{acl_records, seed_dir};

/// Papers in the synthetic list measured (the bench's smallest).
const PAPERS: usize = 20_000;

/// The vocabulary of the first `papers` papers of the synthetic list of
/// seed 1, read back through the records reader.
fn synthetic(papers: usize) -> Report {
    let bytes = synth::papers_jsonl(&seed_dir(), papers, 1).expect("a synthetic list");
    let list = read_records("synthetic.jsonl", &bytes, RecordFormat::JsonLines)
        .expect("a synthetic list reads");
    vocab::measure(&vocab::abstracts(list))
}

fn synthetic_20k() -> &'static Report {
    static R: OnceLock<Report> = OnceLock::new();
    R.get_or_init(|| synthetic(PAPERS))
}

fn acl() -> &'static Report {
    static R: OnceLock<Report> = OnceLock::new();
    R.get_or_init(|| {
        let texts: Vec<String> = acl_records()
            .iter()
            .filter_map(|r| r.abstract_text.as_deref())
            .map(vocab::visible)
            .collect();
        vocab::measure(&texts)
    })
}

/// Fails unless `got` is within `tolerance` (a share) of `want`.
fn near(what: &str, got: f64, want: f64, tolerance: f64) {
    let off = got / want - 1.0;
    assert!(
        off.abs() <= tolerance,
        "{what}: {got:.3} against {want:.3} ({:+.1} %, more than {:.0} % off)",
        off * 100.0,
        tolerance * 100.0
    );
}

/// What a prefix of one length opens: the named prefixes' words and the
/// reader's mean. (The mean over the prefixes that open a word is not
/// held to the law: it grows as rarer prefixes open, which the law does
/// not model.)
fn fanout(f: &Fanout) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = (f.named.iter())
        .map(|(p, &n)| (format!("words `{p}` opens"), n as f64))
        .collect();
    out.push(("the reader's mean".into(), f.typed_mean));
    out
}

/// How far a list's words, words in one paper and two-letter prefixes may
/// be from what they are held to.
const TOLERANCE: f64 = 0.15;
/// How far its three-letter prefixes may be: past the two letters the ACL
/// list gives, invented words go on as English words do, not as the ACL
/// list's (`con` opens a quarter fewer words: NLP's `context`,
/// `contrastive`, `constituency`).
const TOLERANCE_3: f64 = 0.35;

/// Checks `got` against `want`: words, words in one paper and their share,
/// and what two- and three-letter prefixes open.
fn like(got: &Figures, want: &Figures) {
    let at = |what: &str| format!("{what} at {} papers", got.papers);
    near(
        &at("distinct words"),
        got.words as f64,
        want.words as f64,
        TOLERANCE,
    );
    near(
        &at("words in one paper"),
        got.hapax as f64,
        want.hapax as f64,
        TOLERANCE,
    );
    near(
        &at("their share"),
        got.hapax_share,
        want.hapax_share,
        TOLERANCE,
    );
    for ((what, g), (_, w)) in fanout(&got.prefix2).into_iter().zip(fanout(&want.prefix2)) {
        near(&at(&format!("2 letters: {what}")), g, w, TOLERANCE);
    }
    for ((what, g), (_, w)) in fanout(&got.prefix3).into_iter().zip(fanout(&want.prefix3)) {
        near(&at(&format!("3 letters: {what}")), g, w, TOLERANCE_3);
    }
}

#[test]
fn a_synthetic_list_grows_as_the_law_says() {
    let r = synthetic_20k();
    let all = r.all().unwrap();
    assert_eq!(all.papers, PAPERS);
    // The whole list and its half (a sample of its papers, not the first
    // ones): the growth, not only where it ends.
    for f in r.subsets.iter().filter(|f| f.papers >= PAPERS / 2) {
        like(f, &fit::predict(f.papers));
    }
    near(
        "median words an abstract",
        all.median_length,
        fit::ACL_ONLY.median_length,
        0.05,
    );
    // The old syllable words opened 48 words from `di` at 100,000 papers.
    assert!(all.prefix2.named["di"] > 500, "{:?}", all.prefix2);
}

#[test]
fn at_the_real_lists_size_a_synthetic_list_has_its_figures() {
    let r = synthetic(fit::ACL.papers);
    let real = acl().all().unwrap();
    like(r.all().unwrap(), real);
    near(
        "median words an abstract",
        r.all().unwrap().median_length,
        real.median_length,
        0.05,
    );
}

#[test]
fn the_laws_constants_still_describe_the_acl_list() {
    let r = acl();
    let all = r.all().unwrap();
    let (acl, only) = (fit::ACL, fit::ACL_ONLY);
    assert_eq!(all.papers, acl.papers);
    // As `explorer-cli vocab` measured them when they were fitted.
    let exact = 0.02;
    near("distinct words", all.words as f64, acl.words as f64, exact);
    near(
        "words in one paper",
        all.hapax as f64,
        acl.hapax as f64,
        exact,
    );
    near("median words", all.median_length, only.median_length, exact);
    near("their spread", all.length_spread, only.length_spread, exact);
    near(
        "share with two letters",
        all.letter_share,
        only.letter_share,
        exact,
    );
    near(
        "share with a digit",
        all.digit_share,
        only.digit_share,
        exact,
    );
    let heaps = r.heaps_papers.unwrap();
    near("Heaps' K", heaps.k, only.heaps.k, 0.05);
    near("Heaps' β", heaps.beta, only.heaps.beta, exact);
    let (named, mean, typed) = only.prefix2;
    assert_eq!(named[0], acl.di, "`di` first");
    for (p, &n) in vocab::NAMED_2.iter().zip(&named) {
        near(p, all.prefix2.named[*p] as f64, n as f64, exact);
    }
    near("2-letter mean", all.prefix2.mean, mean, exact);
    near(
        "2-letter reader's mean",
        all.prefix2.typed_mean,
        typed,
        exact,
    );
    let (named, mean, typed) = only.prefix3;
    for (p, &n) in vocab::NAMED_3.iter().zip(&named) {
        near(p, all.prefix3.named[*p] as f64, n as f64, exact);
    }
    near("3-letter mean", all.prefix3.mean, mean, exact);
    near(
        "3-letter reader's mean",
        all.prefix3.typed_mean,
        typed,
        exact,
    );
    // Where invented words begin: the list's two-letter prefixes.
    let table: std::collections::BTreeMap<&str, u32> = fit::acl_prefixes().into_iter().collect();
    assert_eq!(table.len(), r.prefix2_words.len());
    for (p, &n) in &r.prefix2_words {
        let want = f64::from(table[p.as_str()]);
        assert!(
            (n as f64 - want).abs() <= 2.0 + want * exact,
            "{p}: {n} against {want}"
        );
    }
}

#[test]
fn the_law_follows_the_acl_lists_growth() {
    // Its subsets from an eighth of the list on: the law's first part is
    // the list's own fit.
    let r = acl();
    for f in r.subsets.iter().filter(|f| f.papers >= fit::ACL.papers / 8) {
        like(f, &fit::predict(f.papers));
    }
}
