//! Bring your own corpus: JSON, JSON Lines and CSV records beside seed text,
//! compiled and searched the way the app does it.

use std::path::{Path, PathBuf};

use explorer_core::build::{compile_dir, compile_dir_with, Options};
use explorer_core::model::{Corpus, LinkKind};
use explorer_core::{Engine, Sort};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats")
}

fn engine() -> Engine {
    let corpus = compile_dir(&fixtures()).expect("fixtures compile");
    Engine::from_bytes(&corpus.to_bytes()).expect("decodes")
}

fn facet_values(c: &Corpus, key: &str) -> Vec<String> {
    c.facets[c
        .facet_index(explorer_core::FacetKind::from_key(key).unwrap())
        .unwrap()]
    .values
    .clone()
}

fn doc_by_title(e: &Engine, title: &str) -> u32 {
    e.corpus
        .papers
        .iter()
        .position(|p| p.title == title)
        .unwrap_or_else(|| panic!("no paper titled {title}")) as u32
}

fn tags(e: &Engine, doc: u32, key: &str) -> Vec<String> {
    let c = &e.corpus;
    let f = c
        .facet_index(explorer_core::FacetKind::from_key(key).unwrap())
        .unwrap();
    c.papers[doc as usize]
        .tags
        .iter()
        .filter(|t| t.facet as usize == f)
        .map(|t| c.facets[f].values[t.value as usize].clone())
        .collect()
}

#[test]
fn every_format_is_read_with_real_titles_and_fields() {
    let e = engine();
    let c = &e.corpus;
    assert_eq!(c.papers.len(), 5);
    assert_eq!(
        c.lists.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
        ["conference", "Reading group picks", "sheet"]
    );

    let d = doc_by_title(&e, "Diffusion Policies for Offline Reinforcement Learning");
    let p = &c.papers[d as usize];
    assert!(!p.title_derived);
    assert_eq!(p.id, "p-rg-001");
    assert_eq!(p.authors, ["Mei Lin", "Jonas Berg", "Ada Okafor"]);
    assert_eq!(p.year, Some(2026));
    assert_eq!(
        p.links.iter().map(|l| l.kind).collect::<Vec<_>>(),
        [LinkKind::Page, LinkKind::Pdf]
    );
    assert!(
        p.text.contains("diffusion models as policies"),
        "{}",
        p.text
    );
    assert_eq!(tags(&e, d, "venue"), ["ICLR 2026 Oral"]);
    assert_eq!(tags(&e, d, "area"), ["reinforcement learning"]);
    assert_eq!(tags(&e, d, "year"), ["2026"]);
    // The code link in the abstract still counts as released code.
    assert_eq!(tags(&e, d, "code"), ["Code released"]);

    // Keywords that differ in case are one value; ;- and ,-separated strings
    // split; a non-web code link is dropped, not linked.
    let kw = facet_values(c, "keyword");
    assert_eq!(
        kw.iter()
            .filter(|k| k.to_lowercase() == "diffusion models")
            .count(),
        1,
        "{kw:?}"
    );
    let sae = doc_by_title(&e, "Sparse Autoencoders Find Monosemantic Features");
    assert_eq!(
        c.papers[sae as usize].authors,
        ["Jonas Berg", "Priya Natarajan"]
    );
    assert_eq!(
        tags(&e, sae, "keyword"),
        ["interpretability", "Diffusion Models"]
    );
    assert!(c.papers[sae as usize].links.is_empty());
    assert!(tags(&e, sae, "code").is_empty());
    assert_eq!(c.papers[sae as usize].year, Some(2025));
    assert_eq!(facet_values(c, "year"), ["2026", "2025"]);

    // CSV: quoted commas and quotes, a GitHub column as the code link.
    let wm = doc_by_title(&e, "Robust Watermarks for Language Models");
    let p = &c.papers[wm as usize];
    assert!(p.text.contains("a \"semantic\" detector"), "{}", p.text);
    assert_eq!(p.authors, ["Priya Natarajan", "Li Wei"]);
    assert_eq!(tags(&e, wm, "keyword"), ["watermarking", "LLM safety"]);
    assert_eq!(tags(&e, wm, "code"), ["Code released"]);
    assert_eq!(p.links[0].kind, LinkKind::Code);

    // A record without a title gets a derived one, flagged.
    let derived: Vec<_> = c.papers.iter().filter(|p| p.title_derived).collect();
    assert_eq!(derived.len(), 1);
    assert!(
        derived[0].title.contains("TinyCheck"),
        "{}",
        derived[0].title
    );
    assert_eq!(
        tags(&e, doc_by_title(&e, &derived[0].title), "venue"),
        ["Withdrawn"]
    );
}

#[test]
fn authors_are_searchable_highlighted_and_a_facet() {
    let e = engine();
    let none = e.no_selection();
    let r = e.search("jonas berg", &none, Sort::Relevance);
    let mut titles: Vec<&str> = r
        .hits
        .iter()
        .map(|h| e.corpus.papers[h.doc as usize].title.as_str())
        .collect();
    titles.sort();
    assert_eq!(
        titles,
        [
            "Diffusion Policies for Offline Reinforcement Learning",
            "Sparse Autoencoders Find Monosemantic Features"
        ]
    );
    let h = e.highlights(r.hits[0].doc, &r.matched);
    let authors = e.corpus.papers[r.hits[0].doc as usize].authors.join(", ");
    let marked: Vec<&str> = h.authors.iter().map(|m| &authors[m.clone()]).collect();
    assert_eq!(marked, ["Jonas", "Berg"]);

    // The author facet: Mei Lin has two papers in two lists.
    let f = e
        .corpus
        .facet_index(explorer_core::FacetKind::Author)
        .unwrap();
    let v = e.corpus.facets[f]
        .values
        .iter()
        .position(|a| a == "Mei Lin")
        .unwrap();
    assert_eq!(e.facet_totals(f)[v], 2);
    let mut sel = none.clone();
    sel[f] = vec![v as u32];
    assert_eq!(e.search("", &sel, Sort::Relevance).hits.len(), 2);
    // And as a query filter.
    assert_eq!(
        e.search("author:\"mei lin\" retrieval", &none, Sort::Relevance)
            .hits
            .len(),
        1
    );
    assert_eq!(e.search("venue:oral", &none, Sort::Relevance).hits.len(), 1);
}

use crate::common;
use common::scratch_dir as dir_with;

fn cleanup(dir: &Path) {
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_record_without_an_abstract_fails_or_is_skipped_when_lenient() {
    let dir = dir_with(
        "missing",
        &[(
            "list.jsonl",
            "{\"title\": \"Kept\", \"abstract\": \"Fine.\"}\n{\"title\": \"No abstract\"}\n{\"abstract\": \"Also fine.\"}\n",
        )],
    );
    let e = compile_dir(&dir).unwrap_err().to_string();
    assert!(
        e.contains("list.jsonl:2: record 2: no abstract") && e.contains("CORPUS_LENIENT"),
        "{e}"
    );
    let c = compile_dir_with(&dir, Options { lenient: true }).unwrap();
    assert_eq!(c.corpus.papers.len(), 2);
    assert_eq!(c.warnings.len(), 1);
    assert!(c.warnings[0]
        .to_string()
        .ends_with("list.jsonl:2: record 2: no abstract"));
    cleanup(&dir);

    let dir = dir_with("csv-ragged", &[("s.csv", "title,abstract\nA,b\nC\n")]);
    let e = compile_dir(&dir).unwrap_err().to_string();
    assert!(e.contains("s.csv:3: CSV"), "{e}");
    cleanup(&dir);

    let dir = dir_with("json-shape", &[("s.json", "{\"items\": []}")]);
    let e = compile_dir(&dir).unwrap_err().to_string();
    assert!(
        e.contains("s.json:1: a JSON object needs a \"papers\" array"),
        "{e}"
    );
    cleanup(&dir);
}

#[test]
fn each_authors_name_is_sent_once_and_every_paper_gets_its_authors_in_order() {
    let papers = [
        (
            "We study graphs of words.",
            vec!["Grace Hopper", "Alan Turing"],
        ),
        (
            "We study trees of words.",
            vec!["Alan Turing", "Grace Hopper", "Ada Lovelace"],
        ),
        ("We study forests of words.", vec!["Ada Lovelace"]),
        ("We study lists of words.", vec![]),
    ];
    let records: Vec<serde_json::Value> = papers
        .iter()
        .map(|(text, authors)| serde_json::json!({ "abstract": text, "authors": authors }))
        .collect();
    let json = serde_json::to_string(&records).unwrap();
    let dir = crate::common::scratch_dir("authors-once", &[("list.json", json)]);
    let corpus = compile_dir(&dir).expect("the list compiles");
    std::fs::remove_dir_all(&dir).unwrap();
    // The papers part, as the page downloads it: each name once (in the
    // author facet), however many papers it signs.
    let part = corpus.to_parts().papers;
    let times = |name: &str| {
        part.windows(name.len())
            .filter(|w| *w == name.as_bytes())
            .count()
    };
    for name in ["Grace Hopper", "Alan Turing", "Ada Lovelace"] {
        assert_eq!(times(name), 1, "{name}");
    }
    let decoded = Corpus::from_papers_part(&part).expect("the part decodes");
    let authors: Vec<Vec<&str>> = decoded
        .papers
        .iter()
        .map(|p| p.authors.iter().map(String::as_str).collect())
        .collect();
    let want: Vec<Vec<&str>> = papers.iter().map(|(_, a)| a.clone()).collect();
    assert_eq!(authors, want);
}
