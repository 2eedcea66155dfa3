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

/// The most entries of one file the reader repairs or skips before it
/// gives the file up: each costs a parse of the whole file.
const MOST_REPAIRS: usize = 200;

/// A BibTeX file's records, and what the reader repaired or skipped.
pub(crate) struct Read {
    /// The records, each with the line of its `@`.
    pub records: Vec<Record>,
    /// Each repair or skipped entry, naming its line and key.
    pub said: Vec<SourceError>,
    /// How many entries were skipped.
    pub unread: usize,
}

/// The records of a BibTeX file, each with the line of its `@`, and what
/// was repaired or skipped on the way ([`parse_bibtex`]).
pub(crate) fn read_bibtex(file: &str, text: &str) -> Result<Read, SourceError> {
    use biblatex::ChunksExt;
    let Parsed {
        bib,
        said,
        unread,
        text,
    } = parse_bibtex(file, text)?;
    let text = text.as_str();
    let mut records = Vec::new();
    // Entries come in the file's order: each is looked for from the last
    // one on, and its line counted from the last one's (from the start
    // each time, a 5.6 MB file of 3,891 entries took 17 s more to read).
    let mut last = Lined::default();
    for (i, entry) in bib.iter().enumerate() {
        let text_of = |key: &str| {
            let chunks = entry.get(key)?;
            let text = chunks.format_verbatim().replace(INERT_DOLLAR, "$");
            Some(text.trim().to_string()).filter(|s| !s.is_empty())
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
    Ok(Read {
        records,
        said,
        unread,
    })
}

/// What stands for a `$` in an entry whose math the parser could not
/// read (never in a text: a control character).
const INERT_DOLLAR: char = '\u{1}';

/// The file parsed as BibTeX reads it: one entry the parser cannot read
/// never sinks the others. On an error, the entry it lies in is read
/// again with its `$` as plain text (a formula's braces or a lone `$`
/// are nothing to BibTeX), else skipped; an abbreviation no `@string`
/// defines is read as empty text; an entry whose key an earlier one has
/// (a Mendeley export's `Smith2019` for two papers) is kept under the
/// key with `~2` added. Each is said as a warning that names the line and
/// the key. Returns the text as repaired too: repairs add or remove no
/// line end, so its lines are the file's.
fn parse_bibtex(file: &str, text: &str) -> Result<Parsed, SourceError> {
    use biblatex::ParseErrorKind;
    let mut said = Vec::new();
    let mut unread = 0;
    let mut work = keyed(file, text, &mut said);
    let mut inert = Vec::new();
    for _ in 0..=MOST_REPAIRS {
        let error = match biblatex::Bibliography::parse(&work) {
            Ok(bib) => {
                return Ok(Parsed {
                    bib,
                    said,
                    unread,
                    text: work,
                })
            }
            Err(e) => e,
        };
        // A formula or a brace left open runs on into the entries after
        // it: the entry to blame is the first that leaves one open, up to
        // the one the error names.
        let around = entry_around(&work, error.span.start);
        let (start, end) = left_open(&work[..around.1]).unwrap_or(around);
        let key = entry_key(&work[start..end]);
        let warn = |what: String| SourceError {
            file: file.to_string(),
            line: line_of(work.as_bytes(), start),
            reason: format!("entry {key}: {what}"),
        };
        let span = error.span.clone();
        let math_first = !inert.contains(&start) && work[start..end].contains('$');
        match error.kind {
            ParseErrorKind::UnknownAbbreviation(name) => {
                said.push(warn(format!("no @string defines {name:?}: read as empty")));
                work.replace_range(span, "{}");
            }
            ParseErrorKind::DuplicateKey(key) => {
                // The error's span is the later entry's; its key follows
                // its opening bracket.
                let entry = &work[span.clone()];
                let at = span.start + entry.find(['{', '(']).map_or(0, |b| b + 1);
                let at = at + work[at..].find(&key).unwrap_or(0);
                let new = (2..)
                    .map(|n| format!("{key}~{n}"))
                    .find(|k| !work.contains(&format!("{{{k},")))
                    .unwrap_or_default();
                said.push(warn(format!(
                    "an earlier entry has this key: kept as {new}"
                )));
                work.replace_range(at..at + key.len(), &new);
            }
            _ if math_first => {
                inert.push(start);
                let region = work[start..end].replace('$', &INERT_DOLLAR.to_string());
                work.replace_range(start..end, &region);
            }
            kind => {
                said.push(warn(format!("skipped: BibTeX: {kind}")));
                unread += 1;
                blank(&mut work, start, end);
            }
        }
    }
    Err(SourceError {
        file: file.to_string(),
        line: 0,
        reason: format!("BibTeX: more than {MOST_REPAIRS} entries could not be read"),
    })
}

/// A BibTeX file as [`parse_bibtex`] reads it.
struct Parsed {
    bib: biblatex::Bibliography,
    /// Each repair or skipped entry, naming its line and key.
    said: Vec<SourceError>,
    /// How many entries were skipped.
    unread: usize,
    /// The text as repaired: its lines are the file's.
    text: String,
}

/// `text` with a key for each entry that has none (Mendeley writes
/// `@article{,`): `line` and its line, each said.
fn keyed(file: &str, text: &str, said: &mut Vec<SourceError>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for start in entry_starts(text) {
        let entry = &text[start..];
        let Some(open) = entry.find(['{', '(']) else {
            continue;
        };
        let kind = entry[1..open].trim().to_ascii_lowercase();
        let keyless = entry[open + 1..]
            .trim_start_matches([' ', '\t'])
            .starts_with(',');
        if !keyless || matches!(kind.as_str(), "string" | "comment" | "preamble") {
            continue;
        }
        let line = line_of(text.as_bytes(), start);
        out.push_str(&text[from..start + open + 1]);
        out.push_str(&format!("line{line}"));
        from = start + open + 1;
        said.push(SourceError {
            file: file.to_string(),
            line,
            reason: format!("entry without a key: kept as line{line}"),
        });
    }
    out.push_str(&text[from..]);
    out
}

/// Where an entry starts: an `@` first on its line (after blanks).
fn entry_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    text.match_indices('@')
        .map(|(at, _)| at)
        .filter(move |&at| {
            bytes[..at]
                .iter()
                .rev()
                .take_while(|&&b| b != b'\n')
                .all(|b| b.is_ascii_whitespace())
        })
}

/// The entry around byte `at`: from its `@` to the next entry's.
fn entry_around(text: &str, at: usize) -> (usize, usize) {
    let start = entry_starts(text)
        .take_while(|&s| s <= at)
        .last()
        .unwrap_or(0);
    let end = entry_starts(text)
        .find(|&s| s > start)
        .unwrap_or(text.len());
    (start, end)
}

/// The first entry that leaves a formula or a brace open: its `$` signs
/// odd in number (a lone `$`, a price) or more `{` than `}`.
fn left_open(text: &str) -> Option<(usize, usize)> {
    let starts: Vec<usize> = entry_starts(text).chain([text.len()]).collect();
    starts.windows(2).map(|w| (w[0], w[1])).find(|&(s, e)| {
        let t = &text[s..e];
        let count = |c: char| {
            let escaped = t.matches(&format!("\\{c}")).count();
            t.matches(c).count() - escaped
        };
        count('$') % 2 == 1 || count('{') > count('}')
    })
}

/// An entry's key, as messages name it (`?` when it has none).
fn entry_key(entry: &str) -> String {
    let key = entry
        .split_once(['{', '('])
        .map(|(_, rest)| rest.split([',', '\n']).next().unwrap_or("").trim());
    match key {
        Some(k) if !k.is_empty() => k.chars().take(80).collect(),
        _ => "?".to_string(),
    }
}

/// Blanks `start..end` of `text`: spaces, as many bytes as each
/// character, its line ends kept.
fn blank(text: &mut String, start: usize, end: usize) {
    let blanked: String = (text[start..end].chars())
        .map(|c| match c {
            '\n' => "\n".to_string(),
            c => " ".repeat(c.len_utf8()),
        })
        .collect();
    text.replace_range(start..end, &blanked);
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
        let Read { records, said, .. } = read_bibtex("refs.bib", bib).unwrap();
        assert!(said.is_empty(), "{said:?}");
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

    /// The titles of what a file reads as, and what was said, as lines.
    fn read(bib: &str) -> (Vec<String>, Vec<String>) {
        let Read { records, said, .. } = read_bibtex("refs.bib", bib).unwrap();
        let titles = records.into_iter().filter_map(|r| r.title).collect();
        (titles, said.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn an_entry_that_cannot_be_read_is_skipped_and_named() {
        let bib = "@article{a,\n  title = {One},\n}\n\n@article{b,\n  title = {Two,\n}\n\n@misc{c, title = {Three}}\n";
        let (titles, said) = read(bib);
        assert_eq!(titles, ["One", "Three"]);
        assert_eq!(said.len(), 1);
        assert!(
            said[0].starts_with("refs.bib:5: entry b: skipped: BibTeX: "),
            "{said:?}"
        );
    }

    #[test]
    fn a_dollar_never_sinks_an_entry() {
        // A formula whose braces close inside it (an ICLR abstract's), and a
        // lone `$` (a price): BibTeX reads both as text.
        let bib =
            "@article{a, title = {Speed}, abstract = {Up to $\\textbf{4.59$\\times$}$ faster.}}\n\
                   @article{b, title = {Price}, abstract = {It costs $2000 a year.}}\n\
                   @article{c, title = {After}}\n";
        let Read { records, said, .. } = read_bibtex("refs.bib", bib).unwrap();
        assert!(said.is_empty(), "{said:?}");
        let abstracts: Vec<_> = records.iter().map(|r| r.abstract_text.clone()).collect();
        assert_eq!(
            abstracts,
            [
                // The parser writes a command back with a space after it.
                Some("Up to $\\textbf{4.59$\\times $}$ faster.".to_string()),
                Some("It costs $2000 a year.".to_string()),
                None
            ]
        );
    }

    #[test]
    fn an_unknown_string_is_empty_and_a_repeated_key_kept_apart() {
        let bib = "@inproceedings{a, title = {One}, booktitle = cvpr}\n\
                   @inproceedings{a, title = {Again}}\n@misc{b, title = {Two}}\n";
        let Read { records, said, .. } = read_bibtex("refs.bib", bib).unwrap();
        let titles: Vec<_> = records.iter().filter_map(|r| r.title.clone()).collect();
        assert_eq!(titles, ["One", "Again", "Two"]);
        assert_eq!(records[0].venue, None);
        assert_eq!(records[1].id.as_deref(), Some("a~2"));
        assert_eq!(
            records.iter().map(|r| r.line).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let said: Vec<String> = said.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "refs.bib:1: entry a: no @string defines \"cvpr\": read as empty",
                "refs.bib:2: entry a: an earlier entry has this key: kept as a~2"
            ]
        );
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
