//! Exports read back with real parsers: exactly the papers shown, in the
//! order shown, every field intact, on the seed corpus and on records with
//! the characters each syntax chokes on.

use std::path::PathBuf;

use explorer_core::build::compile_dir;
use explorer_core::view::{export, Format};
use explorer_core::{Corpus, Engine, Sort};

const PAGE: &str = "https://lab.example/papers/";

use crate::common;
use common::{scratch_dir, seed_engine as seeds};

fn shown(e: &Engine, query: &str) -> Vec<u32> {
    e.search(query, &e.no_selection(), Sort::Relevance).docs()
}

/// (id, title, authors) as each format gives them back.
type Back = Vec<(String, String, Vec<String>)>;

fn from_csv(text: &str) -> Back {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let headers = r.headers().unwrap().clone();
    assert_eq!(
        headers.iter().collect::<Vec<_>>(),
        ["id", "title", "authors", "year", "venue", "list", "url", "pdf", "code"]
    );
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let authors = rec[2]
                .split("; ")
                .filter(|a| !a.is_empty())
                .map(String::from)
                .collect();
            (rec[0].to_string(), rec[1].to_string(), authors)
        })
        .collect()
}

fn from_json(text: &str) -> Back {
    let v: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
    v.iter()
        .map(|o| {
            let authors = o["authors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            (
                o["id"].as_str().unwrap().to_string(),
                o["title"].as_str().unwrap().to_string(),
                authors,
            )
        })
        .collect()
}

/// `- [title](url) — authors (…)`, read by a CommonMark parser: per list
/// item, the link's text and destination, and the text after the link.
fn from_markdown(text: &str, c: &Corpus) -> Back {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let mut items = Vec::new();
    // (title, url, after the link) of the item being read.
    let mut item: Option<(String, String, String)> = None;
    let mut in_link = false;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Item) => item = Some(Default::default()),
            Event::Start(Tag::Link { dest_url, .. }) => {
                in_link = true;
                item.as_mut().expect("a link inside an item").1 = dest_url.to_string();
            }
            Event::End(TagEnd::Link) => in_link = false,
            Event::Text(t) | Event::Code(t) => {
                let it = item.as_mut().expect("text inside an item");
                if in_link {
                    it.0.push_str(&t);
                } else {
                    it.2.push_str(&t);
                }
            }
            Event::End(TagEnd::Item) => items.push(item.take().expect("an item")),
            Event::Start(Tag::List(_)) | Event::End(TagEnd::List(_)) => {}
            Event::SoftBreak | Event::HardBreak => panic!("an item on two lines: {text}"),
            other => panic!("unexpected Markdown: {other:?} in {text}"),
        }
    }
    items
        .into_iter()
        .map(|(title, url, after)| {
            let p = c
                .papers
                .iter()
                .find(|p| {
                    url == format!("{PAGE}#{}", p.id) || p.links.iter().any(|l| l.href == url)
                })
                .unwrap_or_else(|| panic!("the URL {url} names no paper"));
            let authors = after
                .strip_prefix(" — ")
                .map(|a| {
                    let a = a.rsplit_once(" (").map_or(a, |(a, _)| a);
                    a.split(", ").map(String::from).collect()
                })
                .unwrap_or_default();
            (p.id.clone(), title, authors)
        })
        .collect()
}

/// Entries read by a BibTeX parser; fields as plain text.
fn from_bibtex(text: &str) -> Back {
    use biblatex::{Bibliography, ChunksExt};
    let bib = Bibliography::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    bib.iter()
        .map(|entry| {
            let title = entry
                .title()
                .unwrap_or_else(|e| panic!("{}: {e}", entry.key))
                .format_verbatim();
            let authors = match entry.author() {
                Ok(people) => people
                    .iter()
                    .map(|p| {
                        // Names are written whole in braces: one "name" each.
                        [
                            p.prefix.as_str(),
                            p.given_name.as_str(),
                            p.name.as_str(),
                            p.suffix.as_str(),
                        ]
                        .into_iter()
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ")
                    })
                    .collect(),
                Err(_) => Vec::new(),
            };
            (entry.key.clone(), title, authors)
        })
        .collect()
}

/// RIS read by biblib's RIS reader (what Zotero and EndNote import).
fn from_ris(text: &str) -> Back {
    use biblib::{CitationParser, RisParser};
    if text.trim().is_empty() {
        return Vec::new();
    }
    RisParser::new()
        .parse(text)
        .unwrap()
        .into_iter()
        .map(|c| {
            let authors = c
                .authors
                .iter()
                .map(|a| {
                    let given = [a.given_name.as_deref(), a.middle_name.as_deref()];
                    let mut parts: Vec<&str> = given.into_iter().flatten().collect();
                    parts.push(&a.name);
                    parts.join(" ")
                })
                .collect();
            let id = c.extra_fields["ID"][0].clone();
            assert!(!c.urls.is_empty(), "every record has its URL");
            (id, c.title, authors)
        })
        .collect()
}

/// CSL-JSON: each item has the schema's required `id` and a `type` of the
/// CSL vocabulary; names are `given` + `family` or a `literal`.
fn from_csl_json(text: &str) -> Back {
    let items: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
    items
        .iter()
        .map(|o| {
            assert!(
                ["paper-conference", "article"].contains(&o["type"].as_str().unwrap()),
                "{o}"
            );
            assert!(o["URL"].is_string(), "{o}");
            let authors = o["author"]
                .as_array()
                .map(|names| {
                    names
                        .iter()
                        .map(|n| match n["literal"].as_str() {
                            Some(l) => l.to_string(),
                            None => format!(
                                "{} {}",
                                n["given"].as_str().unwrap(),
                                n["family"].as_str().unwrap()
                            ),
                        })
                        .collect()
                })
                .unwrap_or_default();
            (
                o["id"].as_str().unwrap().to_string(),
                o["title"].as_str().unwrap().to_string(),
                authors,
            )
        })
        .collect()
}

fn read_back(format: Format, text: &str, c: &Corpus) -> Back {
    match format {
        Format::Csv => from_csv(text),
        Format::Json => from_json(text),
        Format::Markdown => from_markdown(text, c),
        Format::Bibtex => from_bibtex(text),
        Format::Ris => from_ris(text),
        Format::CslJson => from_csl_json(text),
    }
}

fn expected(c: &Corpus, docs: &[u32], format: Format) -> Back {
    docs.iter()
        .map(|&d| {
            let p = &c.papers[d as usize];
            let mut authors = p.authors.clone();
            if format == Format::Markdown {
                // A list for people: names joined by commas, read back as
                // such (“Bo, Jr.” is two pieces there).
                let joined = authors.join(", ");
                authors = joined
                    .split(", ")
                    .filter(|a| !a.is_empty())
                    .map(String::from)
                    .collect();
            }
            if format == Format::Ris {
                // RIS reads a name with a comma as `Family, Given`.
                for a in &mut authors {
                    if let Some((family, given)) = a.split_once(',') {
                        *a = format!("{} {}", given.trim(), family.trim());
                    }
                }
            }
            let title = if matches!(format, Format::Bibtex | Format::Ris) {
                // TeX reads any whitespace as a space; a RIS value is one line.
                p.title.replace(char::is_whitespace, " ")
            } else {
                p.title.clone()
            };
            (p.id.clone(), title, authors)
        })
        .collect()
}

#[test]
fn every_format_holds_exactly_the_results_in_their_order() {
    let e = seeds();
    for query in [
        "reasoning",
        "diffusion models",
        "-video llm",
        "zzzz-nothing",
    ] {
        let docs = shown(e, query);
        for format in Format::ALL {
            let text = export(&e.corpus, &docs, format, PAGE);
            assert_eq!(
                read_back(format, &text, &e.corpus),
                expected(&e.corpus, &docs, format),
                "{query:?} as {}",
                format.label()
            );
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    scratch_dir::<&[u8]>(name, &[])
}

#[test]
fn titles_and_authors_that_break_each_syntax_come_back_intact() {
    let dir = scratch("hostile");
    let records = [
        (
            r#"Quotes "here", commas, and a; semicolon"#,
            vec!["Ann \"A\" Lee", "Bo, Jr."],
        ),
        (r"Braces {x} 50% C# a_b $5 \emph ~ ^", vec!["Zoë Ünal"]),
        (
            r"Markdown [link](x) *bold* `code` | pipe # <b>",
            vec!["[Bracket] Person"],
        ),
        ("Line\u{2028}separator and </script>", vec![]),
    ];
    let lines: Vec<String> = records
        .iter()
        .enumerate()
        .map(|(i, (title, authors))| {
            serde_json::json!({
                "title": title,
                "authors": authors,
                "abstract": format!("An abstract about export robustness, number {i}."),
                "url": format!("https://example.org/paper?id={i}&x=(2)"),
            })
            .to_string()
        })
        .collect();
    std::fs::write(dir.join("hostile.jsonl"), lines.join("\n")).unwrap();
    let c = compile_dir(&dir).expect("compiles");
    let docs: Vec<u32> = (0..c.papers.len() as u32).rev().collect();
    for format in Format::ALL {
        let text = export(&c, &docs, format, PAGE);
        assert_eq!(
            read_back(format, &text, &c),
            expected(&c, &docs, format),
            "{}:\n{text}",
            format.label()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bibtex_keys_are_the_stable_paper_ids() {
    let e = seeds();
    let docs = shown(e, "memory");
    let bib = export(&e.corpus, &docs, Format::Bibtex, PAGE);
    let keys: Vec<&str> = bib
        .lines()
        .filter_map(|l| l.strip_prefix('@')?.split_once('{')?.1.strip_suffix(','))
        .collect();
    let ids: Vec<&str> = docs
        .iter()
        .map(|&d| e.corpus.papers[d as usize].id.as_str())
        .collect();
    assert_eq!(keys, ids);
    // The same paper gets the same key from another build of the corpus.
    assert_eq!(seeds().corpus.papers[docs[0] as usize].id, keys[0]);
}

#[test]
fn a_paper_with_a_venue_is_a_conference_paper_in_each_reference_format() {
    let dir = scratch("venue");
    let lines = [
        serde_json::json!({"title": "Accepted work", "authors": ["Ada Lovelace"], "year": 2026,
            "venue": "ICLR 2026 Oral", "abstract": "An abstract about accepted work on proofs."}),
        serde_json::json!({"title": "A preprint", "authors": ["Alan Turing"],
            "abstract": "An abstract about a preprint on machines."}),
    ];
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(dir.join("venue.jsonl"), text.join("\n")).unwrap();
    let c = compile_dir(&dir).expect("compiles");
    let accepted = c
        .papers
        .iter()
        .position(|p| p.title == "Accepted work")
        .unwrap() as u32;
    let preprint = c
        .papers
        .iter()
        .position(|p| p.title == "A preprint")
        .unwrap() as u32;
    let docs = [accepted, preprint];

    let bib = export(&c, &docs, Format::Bibtex, PAGE);
    let bib = biblatex::Bibliography::parse(&bib).unwrap();
    let entries: Vec<_> = bib.iter().collect();
    assert_eq!(entries[0].entry_type, biblatex::EntryType::InProceedings);
    assert_eq!(
        biblatex::ChunksExt::format_verbatim(entries[0].get("booktitle").unwrap()),
        "ICLR 2026 Oral"
    );
    assert_eq!(entries[1].entry_type, biblatex::EntryType::Misc);
    assert!(entries[1].get("booktitle").is_none());

    let ris = export(&c, &docs, Format::Ris, PAGE);
    use biblib::{CitationParser, RisParser};
    let records = RisParser::new().parse(&ris).unwrap();
    assert_eq!(records[0].citation_type, vec!["CPAPER"]);
    // T2, the secondary title: the proceedings (biblib reads it as the container).
    assert_eq!(records[0].journal.as_deref(), Some("ICLR 2026 Oral"));
    assert_eq!(records[0].date.as_ref().map(|d| d.year), Some(2026));
    assert_eq!(records[0].authors[0].name, "Lovelace");
    assert_eq!(records[1].citation_type, vec!["Generic"]);

    let csl: serde_json::Value =
        serde_json::from_str(&export(&c, &docs, Format::CslJson, PAGE)).unwrap();
    assert_eq!(csl[0]["type"], "paper-conference");
    assert_eq!(csl[0]["container-title"], "ICLR 2026 Oral");
    assert_eq!(csl[0]["issued"]["date-parts"], serde_json::json!([[2026]]));
    assert_eq!(
        csl[0]["author"][0],
        serde_json::json!({"given": "Ada", "family": "Lovelace"})
    );
    assert_eq!(csl[1]["type"], "article");
    assert!(csl[1].get("container-title").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
