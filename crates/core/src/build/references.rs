//! Lists as reference managers export them: BibTeX (`.bib`, read by the
//! `biblatex` crate: TeX accents and braces become text, `@string`
//! abbreviations are expanded, `@comment`s and `%` lines skipped, math in
//! `$…$` kept as the abstracts' math is), RIS (`.ris`, read by `biblib`:
//! the abstract from `AB`, else `N2`) and CSL-JSON (a `.json` array whose
//! items have a `type`, as Zotero, Pandoc and our own export write it).
//! Each becomes [`Record`]s, with the line where each record starts.

use serde_json::Value;

use crate::build::records::{many, one, Record};
use crate::build::source::{line_of, Lined, SourceError};

/// The records of a BibTeX file, each with the line of its `@`.
pub(crate) fn read_bibtex(file: &str, text: &str) -> Result<Vec<Record>, SourceError> {
    use biblatex::ChunksExt;
    let err = |at: usize, reason: String| SourceError {
        file: file.to_string(),
        line: line_of(text.as_bytes(), at),
        reason,
    };
    let bib = biblatex::Bibliography::parse(text)
        .map_err(|e| err(e.span.start, format!("BibTeX: {}", e.kind)))?;
    let mut records = Vec::new();
    // Entries come in the file's order: each is looked for from the last
    // one on, and its line counted from the last one's (from the start
    // each time, a 5.6 MB file of 3,891 entries took 17 s more to read).
    let mut last = Lined::default();
    for (i, entry) in bib.iter().enumerate() {
        let text_of = |key: &str| {
            let chunks = entry.get(key)?;
            Some(chunks.format_verbatim().trim().to_string()).filter(|s| !s.is_empty())
        };
        let at = entry_start(text, &entry.key, last.at);
        last = last.to(text.as_bytes(), at);
        let authors = match entry.author() {
            Ok(people) => people.iter().map(person).collect(),
            Err(_) => Vec::new(),
        };
        let doi = text_of("doi").map(|d| format!("https://doi.org/{d}"));
        records.push(Record {
            number: i as u32 + 1,
            line: last.line,
            title: text_of("title"),
            abstract_text: text_of("abstract"),
            authors,
            keywords: listed(text_of("keywords")),
            venue: text_of("booktitle").or_else(|| text_of("journal")),
            url: text_of("url").or(doi),
            pdf: text_of("pdf"),
            code: text_of("code"),
            id: Some(entry.key.clone()),
            year: text_of("year").and_then(|y| year(&y)),
            ..Record::default()
        });
    }
    Ok(records)
}

/// Where the entry with `key` starts: its `@`, before the first `{key,`
/// (or `(key,`) from `from` on, else of the file.
fn entry_start(text: &str, key: &str, from: usize) -> usize {
    // The first `key` between an opening bracket and a comma: one pass
    // that stops there (looking for `(key,` apart read the rest of the
    // file for each entry, as it is seldom there).
    let first = |from: usize| {
        text[from..]
            .match_indices(key)
            .map(|(at, _)| from + at)
            .find(|&at| {
                let before = text.as_bytes().get(at.wrapping_sub(1));
                let after = text.as_bytes().get(at + key.len());
                matches!(before, Some(b'{' | b'(')) && after == Some(&b',')
            })
    };
    let Some(at) = first(from).or_else(|| first(0)) else {
        return 0;
    };
    text[..at].rfind('@').unwrap_or(0)
}

/// A BibTeX person as the card shows them: given names first.
fn person(p: &biblatex::Person) -> String {
    [
        p.given_name.as_str(),
        p.prefix.as_str(),
        p.name.as_str(),
        p.suffix.as_str(),
    ]
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join(" ")
}

/// The records of a RIS file, each with the line of its `TY`.
pub(crate) fn read_ris(file: &str, text: &str) -> Result<Vec<Record>, SourceError> {
    use biblib::{CitationParser, RisParser};
    let err = |line: u32, reason: String| SourceError {
        file: file.to_string(),
        line,
        reason,
    };
    let starts: Vec<u32> = (text.lines().enumerate())
        .filter(|(_, l)| l.trim_start().starts_with("TY  -"))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    if starts.is_empty() {
        return Err(err(
            1,
            "RIS: no record (a record starts with `TY  - `)".into(),
        ));
    }
    let citations = (RisParser::new().parse(text))
        .map_err(|e| err(e.line.unwrap_or(0) as u32, format!("RIS: {e}")))?;
    let records = (citations.into_iter().enumerate())
        .map(|(i, c)| {
            let extra = |tag: &str| c.extra_fields.get(tag).and_then(|v| v.first()).cloned();
            let authors = (c.authors.iter())
                .map(|a| {
                    let given = [a.given_name.as_deref(), a.middle_name.as_deref()];
                    let mut parts: Vec<&str> = given.into_iter().flatten().collect();
                    parts.push(&a.name);
                    parts.join(" ")
                })
                .collect();
            let doi = c.doi.as_ref().map(|d| format!("https://doi.org/{d}"));
            let venue = (c.journal.clone())
                .or_else(|| extra("T2"))
                .or_else(|| extra("BT"));
            Record {
                number: i as u32 + 1,
                line: starts.get(i).copied().unwrap_or(0),
                title: Some(c.title.trim().to_string()).filter(|t| !t.is_empty()),
                abstract_text: c.abstract_text.clone().filter(|a| !a.trim().is_empty()),
                authors,
                keywords: c.keywords.clone(),
                venue,
                url: c.urls.first().cloned().or(doi),
                id: extra("ID"),
                year: c.date.as_ref().and_then(|d| u16::try_from(d.year).ok()),
                ..Record::default()
            }
        })
        .collect();
    Ok(records)
}

/// Whether a JSON list is CSL-JSON: an array whose items are objects,
/// each with a `type`.
pub(crate) fn is_csl<'a>(items: impl IntoIterator<Item = &'a Value>) -> bool {
    let mut items = items.into_iter().peekable();
    items.peek().is_some() && items.all(|i| i.as_object().is_some_and(|o| o.contains_key("type")))
}

/// One CSL-JSON item as a record: `title`, `abstract`, `author` (given and
/// family, or `literal`), `issued`'s year, `container-title`, `URL` (or
/// the `DOI`), `keyword`, `id`.
pub(crate) fn from_csl(item: &Value, number: u32, line: u32) -> Record {
    let text = |key: &str| one(&item[key]).flatten();
    let authors = (item["author"].as_array().into_iter().flatten())
        .filter_map(|a| match a["literal"].as_str() {
            Some(whole) => Some(whole.trim().to_string()),
            None => {
                let parts = [a["given"].as_str(), a["non-dropping-particle"].as_str()];
                let mut name: Vec<&str> = parts.into_iter().flatten().collect();
                name.extend(a["family"].as_str());
                Some(name.join(" ").trim().to_string()).filter(|n| !n.is_empty())
            }
        })
        .collect();
    let year = item["issued"]["date-parts"][0][0]
        .as_u64()
        .or_else(|| item["issued"]["date-parts"][0][0].as_str()?.parse().ok())
        .and_then(|y| u16::try_from(y).ok())
        .filter(|y| (1000..=9999).contains(y));
    let doi = text("DOI").map(|d| format!("https://doi.org/{d}"));
    Record {
        number,
        line,
        title: text("title"),
        abstract_text: text("abstract"),
        authors,
        keywords: listed(text("keyword")),
        venue: text("container-title"),
        url: text("URL").or(doi),
        id: text("id"),
        year,
        ..Record::default()
    }
}

/// A year written in a field: its first four digits.
fn year(s: &str) -> Option<u16> {
    let digits: String = s.chars().filter(char::is_ascii_digit).take(4).collect();
    digits.parse().ok().filter(|y| (1000..=9999).contains(y))
}

/// A list written in one field, as the other formats read it
/// ([`many`]: separated by `;`, or `,` without one).
fn listed(field: Option<String>) -> Vec<String> {
    field
        .and_then(|s| many(&Value::String(s)))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bibtex_accents_braces_escapes_strings_and_comments_become_text() {
        let bib = r#"% a comment line
@string{acl = "Proceedings of ACL"}
@comment{ignored}

@inproceedings{frechet2024,
  title = {{LLM}s and the Fr{\'e}chet Distance},
  author = {Fr{\'e}chet, Maurice and Lee, Ann},
  booktitle = acl,
  year = {2024},
  abstract = {We measure $d(x, y)$ for 50\% of R\&D data\_sets.},
}
"#;
        let records = read_bibtex("refs.bib", bib).unwrap();
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r.title.as_deref(), Some("LLMs and the Fréchet Distance"));
        assert_eq!(r.authors, ["Maurice Fréchet", "Ann Lee"]);
        assert_eq!(r.venue.as_deref(), Some("Proceedings of ACL"));
        assert_eq!(r.year, Some(2024));
        assert_eq!(r.line, 5);
        assert_eq!(
            r.abstract_text.as_deref(),
            Some("We measure $d(x, y)$ for 50% of R&D data_sets.")
        );
    }

    #[test]
    fn an_unclosed_brace_names_its_line() {
        let bib = "@article{a,\n  title = {One},\n}\n\n@article{b,\n  title = {Two,\n}\n";
        let e = read_bibtex("refs.bib", bib).unwrap_err();
        assert_eq!(e.file, "refs.bib");
        assert!(e.line >= 5, "{e}");
    }

    #[test]
    fn ris_reads_the_abstract_from_ab_or_n2() {
        let ris = "TY  - CONF\r\nTI  - First\r\nAU  - Lee, Ann\r\nAB  - One abstract.\r\nPY  - 2023\r\nER  - \r\n\r\nTY  - JOUR\r\nTI  - Second\r\nN2  - Another abstract.\r\nER  - \r\n";
        let records = read_ris("refs.ris", ris).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].abstract_text.as_deref(), Some("One abstract."));
        assert_eq!(records[0].authors, ["Ann Lee"]);
        assert_eq!(records[0].year, Some(2023));
        assert_eq!(
            records[1].abstract_text.as_deref(),
            Some("Another abstract.")
        );
        assert_eq!((records[0].line, records[1].line), (1, 8));
    }
}
