//! Topic tags on the real list (ACL Anthology, read where it lies), built
//! as bare abstracts: the tags come from the abstract alone, as for a list
//! that has nothing else.

use crate::common::{acl_abstracts_corpus, acl_paper, acl_records};
use explorer_core::{Corpus, FacetKind};

fn topics<'a>(corpus: &'a Corpus, p: &explorer_core::model::Paper) -> Vec<&'a str> {
    let f = corpus.facet_index(FacetKind::Topic).expect("a topic facet") as u32;
    p.tags
        .iter()
        .filter(|t| t.facet == f)
        .map(|t| corpus.facets[f as usize].values[t.value as usize].as_str())
        .collect()
}

#[test]
fn nearly_every_real_paper_gets_a_topic() {
    let c = acl_abstracts_corpus();
    assert_eq!(c.papers.len(), 3891);
    let tagged = c.papers.iter().filter(|p| !topics(c, p).is_empty()).count();
    let share = tagged as f64 / c.papers.len() as f64;
    assert!(
        share >= 0.95,
        "{tagged} of {} papers have a topic",
        c.papers.len()
    );
}

/// Papers whose real title names an NLP field (which the abstract-only
/// build never sees) are tagged with that field's topic from the abstract.
#[test]
fn a_paper_whose_title_names_its_field_is_tagged_with_it() {
    let c = acl_abstracts_corpus();
    let fields = [
        (
            "machine translation",
            "Machine translation & multilinguality",
        ),
        ("summarization", "Summarization & text generation"),
        ("question answering", "Question answering"),
        ("dialogue", "Dialogue & interaction"),
        ("parsing", "Linguistics & parsing"),
        ("named entity", "Information extraction"),
        ("relation extraction", "Information extraction"),
        ("sentiment", "Text classification & sentiment"),
        ("speech", "Audio & speech"),
        ("gender", "Fairness & bias"),
        ("debias", "Fairness & bias"),
        ("multilingual", "Machine translation & multilinguality"),
        ("cross-lingual", "Machine translation & multilinguality"),
    ];
    for (words, topic) in fields {
        let named: Vec<usize> = acl_records()
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.title
                    .as_deref()
                    .is_some_and(|t| t.to_lowercase().contains(words))
            })
            .map(|(i, _)| i)
            .collect();
        assert!(named.len() >= 8, "{words}: {} titles", named.len());
        let tagged = named
            .iter()
            .filter(|&&i| topics(c, &c.papers[i]).contains(&topic))
            .count();
        let share = tagged as f64 / named.len() as f64;
        assert!(
            share >= 0.8,
            "titles naming {words:?}: {tagged} of {} tagged {topic}",
            named.len()
        );
    }
}

#[test]
fn specific_real_papers_carry_their_field() {
    let c = acl_abstracts_corpus();
    for (id, topic) in [
        // "A Unified Generative Framework for Aspect-based Sentiment Analysis"
        ("2021.acl-long.188", "Text classification & sentiment"),
        // "A Conditional Splitting Framework for Efficient Constituency Parsing"
        ("2021.acl-long.450", "Linguistics & parsing"),
        // "Men Are Elected, Women Are Married: Events Gender Bias on Wikipedia"
        ("2021.acl-short.45", "Fairness & bias"),
        // "Automatic Speech Recognition and Query By Example for Creole
        // Languages Documentation"
        ("2022.findings-acl.197", "Audio & speech"),
        // "Adaptive Nearest Neighbor Machine Translation"
        ("2021.acl-short.47", "Machine translation & multilinguality"),
        // "A Span-Based Model for Joint Overlapped and Discontinuous Named
        // Entity Recognition"
        ("2021.acl-long.372", "Information extraction"),
    ] {
        let p = acl_paper(c, id);
        assert!(
            topics(c, p).contains(&topic),
            "{id} ({:?}) is not tagged {topic}: {:?}",
            p.title,
            topics(c, p)
        );
    }
}

/// The facet counts of the real list stay exact keystroke after keystroke
/// (counted from the last keystroke's, by the papers gained and lost),
/// under a selection of topics and kinds of contribution and without.
#[test]
fn real_facet_counts_match_a_scan_keystroke_after_keystroke() {
    let c = acl_abstracts_corpus();
    let mut selected = vec![Vec::new(); c.facets.len()];
    selected[c.facet_index(FacetKind::Topic).unwrap()] = vec![0, 1];
    selected[c.facet_index(FacetKind::Contribution).unwrap()] = vec![0];
    let typed = "machine translation for low-resource languages";
    let typing = explorer_core::Engine::new(c.clone());
    let checked = crate::common::facet_counts_match_a_scan_while_typing(
        &typing,
        crate::common::acl_abstracts_engine(),
        typed,
        &selected,
    );
    assert_eq!(checked, 4 * typed.chars().count());
}
