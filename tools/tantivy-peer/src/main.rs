//! The BM25 peer of the title-query evaluation, from tantivy.
//!
//! `explorer-cli eval-title-queries --dump DIR` writes the abstracts as
//! the page indexes them (`papers.jsonl`, one JSON string per paper, in
//! the list's order) and the reported half of the queries
//! (`queries.jsonl`: the real title, the title without its `NAME:`, the
//! paper it names). This indexes the abstracts with tantivy (the `en_stem`
//! analyzer: words, lower case, English stems), types each title as an OR
//! of its words (BM25, tantivy's k1 = 1.2, b = 0.75) and prints recall@10
//! (with the number of titles found in the first ten) and MRR, as the
//! evaluation prints them for the page.
//!
//! ```text
//! cargo run --release --manifest-path tools/tantivy-peer/Cargo.toml -- target/distill/title-queries
//! ```

use std::collections::BTreeSet;
use std::path::Path;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, Schema, Value, FAST, STORED, TEXT};
use tantivy::tokenizer::TokenStream;
use tantivy::{doc, Index, TantivyDocument, Term};

fn lines(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (run `./dev eval-titles` first)", path.display()));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn main() -> tantivy::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/distill/title-queries".into());
    let dir = Path::new(&dir);
    let papers = lines(&dir.join("papers.jsonl"));
    let queries = lines(&dir.join("queries.jsonl"));

    let mut schema = Schema::builder();
    let text_options = TEXT.set_indexing_options(
        tantivy::schema::TextFieldIndexing::default()
            .set_tokenizer("en_stem")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let text = schema.add_text_field("text", text_options);
    let id = schema.add_u64_field("doc", FAST | STORED);
    let index = Index::create_in_ram(schema.build());
    let mut writer = index.writer(100_000_000)?;
    for (d, p) in papers.iter().enumerate() {
        writer.add_document(doc!(text => p.as_str().unwrap_or_default(), id => d as u64))?;
    }
    writer.commit()?;
    let reader = index.reader()?;
    let searcher = reader.searcher();
    let mut analyzer = index.tokenizer_for_field(text)?;

    // The rank of the paper meant, if tantivy finds it at all.
    let mut rank_of = |query: &str, want: u64| -> tantivy::Result<Option<usize>> {
        let mut words = BTreeSet::new();
        let mut stream = analyzer.token_stream(query);
        while stream.advance() {
            words.insert(stream.token().text.clone());
        }
        let clauses: Vec<(Occur, Box<dyn Query>)> = words
            .iter()
            .map(|w| {
                let term = Term::from_field_text(text, w);
                let q: Box<dyn Query> =
                    Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
                (Occur::Should, q)
            })
            .collect();
        let hits = searcher.search(
            &BooleanQuery::new(clauses),
            &TopDocs::with_limit(papers.len().max(1)),
        )?;
        for (rank, (_, addr)) in hits.iter().enumerate() {
            let found: TantivyDocument = searcher.doc(*addr)?;
            if found.get_first(id).and_then(|v| v.as_u64()) == Some(want) {
                return Ok(Some(rank));
            }
        }
        Ok(None)
    };

    let mut scores = [(0.0f64, 0.0f64); 2];
    for q in &queries {
        let want = q["doc"].as_u64().expect("a query names its paper");
        for (s, key) in scores.iter_mut().zip(["title", "nameless"]) {
            let rank = rank_of(q[key].as_str().unwrap_or_default(), want)?;
            s.0 += f64::from(u8::from(rank.is_some_and(|r| r < 10)));
            s.1 += rank.map_or(0.0, |r| 1.0 / (r as f64 + 1.0));
        }
    }
    let n = queries.len().max(1) as f64;
    println!(
        "| BM25 from tantivy 0.22 (en_stem, an OR of the words), {} queries | {:.3} ({}) / {:.3} | {:.3} ({}) / {:.3} |",
        queries.len(),
        scores[0].0 / n,
        scores[0].0,
        scores[0].1 / n,
        scores[1].0 / n,
        scores[1].0,
        scores[1].1 / n
    );
    Ok(())
}
