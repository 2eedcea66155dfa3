//! Paper lists as records: JSON (an array, or an object with a `papers`
//! array and an optional `name`; an array of CSL-JSON items), JSON Lines,
//! CSV with a header row, BibTeX and RIS ([`crate::build::references`]).
//! Every format, and the seed text format, becomes a [`RecordList`] before
//! compiling.
//!
//! Recognized fields (names are matched case-insensitively, `-` and spaces
//! read as `_`): `title`; `abstract` (or `summary`); `authors` (or `author`);
//! `keywords` (or `keyword`); `primary_area` (or `area`); `venue` (or
//! `status`); `url` (or `forum`, `link`); `pdf`; `code` (or `github`); `id`;
//! `year`. Multi-valued fields are arrays or strings separated by `;` (or by
//! `,` when there is no `;`). Other fields are kept, by name, and ignored.

use std::path::Path;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::build::references;
use crate::build::seed::parse_seed;
use crate::build::source::SourceError;

/// One paper as read from a source, before compiling.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// 1-based position of the record in its file.
    pub number: u32,
    /// 1-based line where the record starts.
    pub line: u32,
    /// Its title, if the record has one.
    pub title: Option<String>,
    /// Its abstract (markup as written).
    pub abstract_text: Option<String>,
    /// Its authors, in order.
    pub authors: Vec<String>,
    /// Its own keywords.
    pub keywords: Vec<String>,
    /// Its primary area.
    pub primary_area: Option<String>,
    /// Its venue or decision.
    pub venue: Option<String>,
    /// Its page.
    pub url: Option<String>,
    /// Its PDF.
    pub pdf: Option<String>,
    /// Its code.
    pub code: Option<String>,
    /// Its own id.
    pub id: Option<String>,
    /// Its year.
    pub year: Option<u16>,
    /// Names of fields this format does not use.
    pub ignored: Vec<String>,
}

/// One source file's papers.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordList {
    /// The list's name: the seed header line, a JSON `name`, else the file stem.
    pub name: String,
    /// Its records, in file order.
    pub records: Vec<Record>,
    /// What the reader repaired or skipped, each naming its line.
    pub said: Vec<SourceError>,
    /// How many entries the reader could not read (skipped, and said).
    pub unread: usize,
}

/// The formats a corpus directory may hold, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A seed list (`.txt`).
    Seed,
    /// A JSON array of records, or an object with `papers` (`.json`).
    Json,
    /// One JSON record per line (`.jsonl`, `.ndjson`).
    JsonLines,
    /// A header row, then one record per row (`.csv`).
    Csv,
    /// BibTeX entries (`.bib`), the abstract in `abstract`.
    Bibtex,
    /// RIS records (`.ris`), the abstract in `AB` or `N2`.
    Ris,
}

impl Format {
    /// The format a file's extension says.
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "txt" => Some(Format::Seed),
            "json" => Some(Format::Json),
            "jsonl" | "ndjson" => Some(Format::JsonLines),
            "csv" => Some(Format::Csv),
            "bib" | "bibtex" => Some(Format::Bibtex),
            "ris" => Some(Format::Ris),
            _ => None,
        }
    }
}

/// Reads one source in `format`. `file` names it in errors.
pub fn read(file: &str, bytes: &[u8], format: Format) -> Result<RecordList, SourceError> {
    if format == Format::Seed {
        return read_seed(file, bytes);
    }
    let src = Text::new(file, bytes)?;
    let stem = Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(file)
        .to_string();
    let (mut skipped, mut unread) = (Vec::new(), 0);
    let (name, records) = match format {
        Format::Json => read_json(&src)?,
        Format::JsonLines => (None, read_json_lines(&src)?),
        Format::Bibtex => {
            let read = references::read_bibtex(file, src.text)?;
            (skipped, unread) = (read.said, read.unread);
            (None, read.records)
        }
        Format::Ris => (None, references::read_ris(file, src.text)?),
        _ => (None, read_csv(&src)?),
    };
    Ok(RecordList {
        name: name.unwrap_or(stem),
        records,
        said: skipped,
        unread,
    })
}

/// A seed list: a header line naming the list, then one abstract per
/// blank-line-separated paragraph.
fn read_seed(file: &str, bytes: &[u8]) -> Result<RecordList, SourceError> {
    let seed = parse_seed(file, bytes)?;
    let records = seed
        .paragraphs
        .into_iter()
        .enumerate()
        .map(|(i, p)| Record {
            number: i as u32 + 1,
            line: p.line,
            abstract_text: Some(p.text),
            ..Record::default()
        })
        .collect();
    Ok(RecordList {
        name: seed.name,
        records,
        said: Vec::new(),
        unread: 0,
    })
}

/// A source's text (after any byte-order mark), with what errors need to
/// name a line of the file.
struct Text<'a> {
    file: &'a str,
    bytes: &'a [u8],
    text: &'a str,
    /// Where `text` starts in `bytes`.
    base: usize,
}

impl<'a> Text<'a> {
    fn new(file: &'a str, bytes: &'a [u8]) -> Result<Text<'a>, SourceError> {
        let text = crate::build::source::source_text(file, bytes)?;
        Ok(Text {
            file,
            bytes,
            text,
            base: bytes.len() - text.len(),
        })
    }

    fn err(&self, line: u32, reason: String) -> SourceError {
        SourceError {
            file: self.file.to_string(),
            line,
            reason,
        }
    }

    /// The 1-based line of a byte offset into `text`.
    fn line_of(&self, offset_in_text: usize) -> u32 {
        crate::build::source::line_of(self.bytes, self.base + offset_in_text)
    }
}

/// A JSON array of records, or an object with a `name` and a `papers`
/// array; each record's line is where it starts.
fn read_json(src: &Text) -> Result<(Option<String>, Vec<Record>), SourceError> {
    let text = src.text;
    let json_err = |e: serde_json::Error| src.err(e.line() as u32, format!("invalid JSON: {e}"));
    let mut name = None;
    // Borrowed raw values keep each record's place in the file.
    let items: Vec<&RawValue> = match serde_json::from_str::<&RawValue>(text)
        .map_err(json_err)?
        .get()
        .trim_start()
        .as_bytes()
        .first()
    {
        Some(b'[') => serde_json::from_str(text).map_err(json_err)?,
        Some(b'{') => {
            #[derive(serde::Deserialize)]
            struct Wrapped<'a> {
                name: Option<String>,
                #[serde(borrow)]
                papers: Option<Vec<&'a RawValue>>,
            }
            let w: Wrapped = serde_json::from_str(text).map_err(json_err)?;
            name = w
                .name
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty());
            w.papers.ok_or_else(|| {
                src.err(
                    1,
                    "a JSON object needs a \"papers\" array of records".into(),
                )
            })?
        }
        _ => {
            return Err(src.err(
                1,
                "expected a JSON array of records, or an object with \"papers\"".into(),
            ))
        }
    };
    let mut values = Vec::with_capacity(items.len());
    // Items come in the file's order: each line is counted on from the
    // last item's (from the start each time, the ACL list as CSL-JSON,
    // 3,891 items, took seconds more to read). The text's lines are the
    // file's: a byte-order mark holds no line feed.
    let mut last = crate::build::source::Lined::default();
    for raw in items {
        last = last.to(
            text.as_bytes(),
            raw.get().as_ptr() as usize - text.as_ptr() as usize,
        );
        values.push((
            last.line,
            serde_json::from_str::<Value>(raw.get()).map_err(json_err)?,
        ));
    }
    // CSL-JSON: every item has a `type`.
    if name.is_none() && references::is_csl(values.iter().map(|(_, v)| v)) {
        let records = (values.iter().enumerate())
            .map(|(i, (line, v))| references::from_csl(v, i as u32 + 1, *line))
            .collect();
        return Ok((None, records));
    }
    let mut records = Vec::with_capacity(values.len());
    for (i, (line, value)) in values.into_iter().enumerate() {
        records.push(from_json(value, i as u32 + 1, line).map_err(|r| src.err(line, r))?);
    }
    Ok((name, records))
}

/// One JSON record per line; blank lines are skipped.
fn read_json_lines(src: &Text) -> Result<Vec<Record>, SourceError> {
    let first = src.line_of(0);
    let mut records = Vec::new();
    for (i, l) in src.text.lines().enumerate() {
        let line = first + i as u32;
        if l.trim().is_empty() {
            continue;
        }
        let number = records.len() as u32 + 1;
        let value: Value = serde_json::from_str(l)
            .map_err(|e| src.err(line, format!("record {number}: invalid JSON: {e}")))?;
        records.push(from_json(value, number, line).map_err(|r| src.err(line, r))?);
    }
    Ok(records)
}

/// A header row naming the fields, then one record per row. Fields are
/// separated by commas, or by semicolons or tabs when the header has no
/// comma (as spreadsheets write CSV where the comma is the decimal mark).
fn read_csv(src: &Text) -> Result<Vec<Record>, SourceError> {
    let header = src.text.lines().next().unwrap_or_default();
    let delimiter = [b',', b';', b'\t']
        .into_iter()
        .find(|&d| header.as_bytes().contains(&d))
        .unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .delimiter(delimiter)
        .from_reader(src.text.as_bytes());
    let line_in = |pos: Option<&csv::Position>| pos.map_or(0, |p| p.line() as u32);
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| src.err(line_in(e.position()), format!("CSV header: {e}")))?
        .iter()
        .map(str::to_string)
        .collect();
    if headers.iter().all(|h| h.trim().is_empty()) {
        return Err(src.err(1, "CSV needs a header row naming the fields".into()));
    }
    let mut records = Vec::new();
    for (i, row) in reader.records().enumerate() {
        let row = row.map_err(|e| src.err(line_in(e.position()), format!("CSV: {e}")))?;
        let line = line_in(row.position());
        let mut map = Map::new();
        for (h, v) in headers.iter().zip(row.iter()) {
            if !v.trim().is_empty() {
                map.insert(h.clone(), Value::String(v.to_string()));
            }
        }
        records
            .push(from_json(Value::Object(map), i as u32 + 1, line).map_err(|r| src.err(line, r))?);
    }
    Ok(records)
}

/// The canonical name of a recognized field.
fn field(name: &str) -> Option<&'static str> {
    let n = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
    Some(match n.as_str() {
        "title" => "title",
        "abstract" | "summary" => "abstract",
        "authors" | "author" => "authors",
        "keywords" | "keyword" => "keywords",
        "primary_area" | "area" => "primary_area",
        "venue" | "status" => "venue",
        "url" | "forum" | "link" => "url",
        "pdf" => "pdf",
        "code" | "github" => "code",
        "id" => "id",
        "year" => "year",
        _ => return None,
    })
}

fn from_json(value: Value, number: u32, line: u32) -> Result<Record, String> {
    let Value::Object(map) = value else {
        return Err(format!("record {number}: expected an object of fields"));
    };
    let mut r = Record {
        number,
        line,
        ..Record::default()
    };
    for (key, v) in map {
        let Some(f) = field(&key) else {
            r.ignored.push(key);
            continue;
        };
        let bad = |what: &str| format!("record {number}: field \"{key}\" should be {what}");
        match f {
            "authors" => r.authors = many(&v).ok_or_else(|| bad("a string or an array"))?,
            "keywords" => r.keywords = many(&v).ok_or_else(|| bad("a string or an array"))?,
            "year" => {
                let y = match &v {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => s.trim().parse().ok(),
                    Value::Null => continue,
                    _ => None,
                };
                r.year = Some(
                    y.filter(|y| (1000..=9999).contains(y))
                        .ok_or_else(|| bad("a four-digit year"))? as u16,
                );
            }
            _ => {
                let s = one(&v).ok_or_else(|| bad("a string"))?;
                let slot = match f {
                    "title" => &mut r.title,
                    "abstract" => &mut r.abstract_text,
                    "primary_area" => &mut r.primary_area,
                    "venue" => &mut r.venue,
                    "url" => &mut r.url,
                    "pdf" => &mut r.pdf,
                    "code" => &mut r.code,
                    _ => &mut r.id,
                };
                *slot = s;
            }
        }
    }
    Ok(r)
}

/// A single text value: a string (trimmed; empty is absent) or a number.
pub(crate) fn one(v: &Value) -> Option<Option<String>> {
    match v {
        Value::Null => Some(None),
        Value::String(s) => Some(Some(s.trim().to_string()).filter(|s| !s.is_empty())),
        Value::Number(n) => Some(Some(n.to_string())),
        _ => None,
    }
}

/// A multi-valued field: an array of strings, or one string split on `;`
/// (or on `,` when it has no `;`).
pub(crate) fn many(v: &Value) -> Option<Vec<String>> {
    let mut out: Vec<String> = match v {
        Value::Null => Vec::new(),
        Value::Array(items) => items
            .iter()
            .map(|i| one(i).map(Option::unwrap_or_default))
            .collect::<Option<_>>()?,
        Value::String(s) => {
            let sep = if s.contains(';') { ';' } else { ',' };
            s.split(sep).map(|x| x.trim().to_string()).collect()
        }
        _ => return None,
    };
    out.retain(|s| !s.is_empty());
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.clone()));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_format_with_lines_and_aliases() {
        let json = br#"{"name": "Lab picks", "papers": [
  {"title": "A", "abstract": "x", "Authors": ["Ann", "Bo"], "year": 2026},
  {"summary": "y", "keywords": "rl; llm", "notes": "kept aside"}
]}"#;
        let l = read("picks.json", json, Format::Json).unwrap();
        assert_eq!(l.name, "Lab picks");
        assert_eq!(l.records.len(), 2);
        assert_eq!(l.records[0].authors, ["Ann", "Bo"]);
        assert_eq!(l.records[0].year, Some(2026));
        assert_eq!((l.records[1].number, l.records[1].line), (2, 3));
        assert_eq!(l.records[1].keywords, ["rl", "llm"]);
        assert_eq!(l.records[1].ignored, ["notes"]);

        let jsonl = b"{\"abstract\": \"one\"}\n\n{\"abstract\": \"two\", \"status\": \"Oral\"}\n";
        let l = read("conf.jsonl", jsonl, Format::JsonLines).unwrap();
        assert_eq!(l.name, "conf");
        assert_eq!((l.records[1].number, l.records[1].line), (2, 3));
        assert_eq!(l.records[1].venue.as_deref(), Some("Oral"));

        let csv = b"Title,Abstract,Authors,Primary Area\nT1,\"An abstract, with a comma\",\"Ann, Bo\",rl\nT2,\"two\nlines\",,\n";
        let l = read("c.csv", csv, Format::Csv).unwrap();
        assert_eq!(
            l.records[0].abstract_text.as_deref(),
            Some("An abstract, with a comma")
        );
        assert_eq!(l.records[0].authors, ["Ann", "Bo"]);
        assert_eq!(l.records[0].primary_area.as_deref(), Some("rl"));
        assert_eq!((l.records[1].number, l.records[1].line), (2, 3));
    }

    #[test]
    fn names_the_line_of_a_bad_record() {
        let e = read(
            "x.jsonl",
            b"{\"abstract\": \"a\"}\n{\"abstract\": 3}\n[1]\n",
            Format::JsonLines,
        )
        .map(|_| ())
        .unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.reason.contains("record 3"), "{e}");
        let e = read("x.json", b"[{\"year\": \"soon\"}]", Format::Json).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.json:1: record 1: field \"year\""),
            "{e}"
        );
        // Semicolons or tabs where the header has no comma; commas stay
        // text then.
        for sep in [";", "\t"] {
            let text = format!("title{sep}abstract\nA, B{sep}An abstract, in full.\n");
            let l = read("s.csv", text.as_bytes(), Format::Csv).unwrap();
            let r = &l.records[0];
            assert_eq!(r.title.as_deref(), Some("A, B"), "{sep:?}");
            assert_eq!(r.abstract_text.as_deref(), Some("An abstract, in full."));
        }
        let e = read("x.csv", b"title,abstract\na,b\nc,d,e\n", Format::Csv).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = read("x.json", b"[{\"abstract\": \"a\"},", Format::Json).unwrap_err();
        assert!(e.reason.starts_with("invalid JSON"), "{e}");
    }
}
