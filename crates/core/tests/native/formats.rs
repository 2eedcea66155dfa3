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
fn a_record_with_a_title_is_a_paper_and_one_with_nothing_is_skipped() {
    let dir = dir_with(
        "missing",
        &[(
            "list.jsonl",
            "{\"title\": \"Kept\", \"abstract\": \"Fine.\"}\n{\"title\": \"No abstract\", \"authors\": \"Ann Lee\"}\n{\"abstract\": \"Also fine.\"}\n{\"year\": 2020}\n",
        )],
    );
    let c = compile_dir_with(&dir, Options::default()).unwrap();
    let titles: Vec<_> = c.corpus.papers.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(titles[..2], ["Kept", "No abstract"]);
    let bare = &c.corpus.papers[1];
    assert!(bare.text.is_empty() && !bare.title_derived);
    assert_eq!(bare.authors, ["Ann Lee"]);
    assert!(
        c.corpus.papers[2].title_derived,
        "a title from the abstract"
    );
    let said: Vec<String> = c.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 1);
    assert!(
        said[0].ends_with("list.jsonl:4: record 4: skipped: no title and no abstract"),
        "{said:?}"
    );
    assert_eq!(
        c.summary(),
        "4 records: 3 papers, 1 without an abstract; 1 skipped"
    );
    // Searched by its title and authors like any paper.
    let e = Engine::new(c.corpus);
    let found = e.search("lee", &e.no_selection(), Sort::Relevance);
    assert_eq!(found.docs(), [1]);
    // Strict, as before: every record needs an abstract.
    let e = compile_dir_with(&dir, Options { strict: true }).unwrap_err();
    assert!(e.is_missing_abstract(), "{e}");
    assert!(
        e.to_string()
            .ends_with("list.jsonl:2: record 2: no abstract"),
        "{e}"
    );
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

/// The real list exported as a reference manager would hold it (BibTeX,
/// RIS, CSL-JSON, by the page's own export), then opened as a list of its
/// own: the same papers, titles, authors and abstracts.
#[test]
fn the_real_list_exported_as_references_reads_back_as_the_same_papers() {
    use explorer_core::view::{export, Format};
    let corpus = common::acl_records_corpus();
    let docs: Vec<u32> = (0..corpus.papers.len() as u32).collect();
    for (format, file) in [
        (Format::Bibtex, "acl.bib"),
        (Format::Ris, "acl.ris"),
        (Format::CslJson, "acl.json"),
    ] {
        let text = export(corpus, &docs, format, "https://example.org/");
        let dir = dir_with(&format!("references-{file}"), &[(file, text)]);
        let back = compile_dir(&dir).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(back.papers.len(), corpus.papers.len(), "{file}");
        let by_title: std::collections::HashMap<&str, &explorer_core::Paper> =
            back.papers.iter().map(|p| (p.title.as_str(), p)).collect();
        let (mut same_text, mut same_authors) = (0, 0);
        for p in &corpus.papers {
            let q = by_title
                .get(p.title.as_str())
                .unwrap_or_else(|| panic!("{file}: no paper titled {:?}", p.title));
            same_text += usize::from(q.text == p.text);
            same_authors += usize::from(q.authors == p.authors);
        }
        let n = corpus.papers.len() as f64;
        let (text, authors) = (same_text as f64 / n, same_authors as f64 / n);
        eprintln!("{file}: abstracts {text:.4}, authors {authors:.4} the same");
        assert!(
            text >= 0.995,
            "{file}: {:.1} % of abstracts the same",
            100.0 * text
        );
        assert!(
            authors >= 0.999,
            "{file}: {:.1} % of author lists the same",
            100.0 * authors
        );
    }
}

#[test]
fn a_reference_without_an_abstract_is_a_paper_and_strict_names_it_in_each_format() {
    let bib = "@article{a,\n  title = {Kept},\n  abstract = {Fine.},\n}\n\n@article{b,\n  title = {No abstract},\n}\n";
    let ris =
        "TY  - JOUR\nTI  - Kept\nAB  - Fine.\nER  - \n\nTY  - JOUR\nTI  - No abstract\nER  - \n";
    let csl = "[\n  {\"id\": \"a\", \"type\": \"article\", \"title\": \"Kept\", \"abstract\": \"Fine.\"},\n  {\"id\": \"b\", \"type\": \"article\", \"title\": \"No abstract\"}\n]\n";
    for (file, text, line) in [
        ("refs.bib", bib, 6),
        ("refs.ris", ris, 6),
        ("refs.json", csl, 3),
    ] {
        let dir = dir_with(&format!("no-abstract-{file}"), &[(file, text)]);
        let e = compile_dir_with(&dir, Options { strict: true })
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("{file}:{line}: record 2: no abstract")),
            "{e}"
        );
        let c = compile_dir(&dir).unwrap();
        let titles: Vec<_> = c.papers.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["Kept", "No abstract"], "{file}");
        assert!(c.papers[1].text.is_empty(), "{file}");
        cleanup(&dir);
    }
}
