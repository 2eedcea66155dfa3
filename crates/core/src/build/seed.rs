//! The seed text format: the first non-empty line names the list, then one
//! abstract per paragraph, paragraphs separated by blank lines.

use crate::build::source::{source_text, SourceError};

#[derive(Debug, Clone, PartialEq, Eq)]
/// A parsed seed list.
pub struct SeedList {
    /// The list's name (its header line).
    pub name: String,
    /// The header's line.
    pub header_line: u32,
    /// Its abstracts.
    pub paragraphs: Vec<Paragraph>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// One paragraph: one abstract.
pub struct Paragraph {
    /// 1-based line where the paragraph starts.
    pub line: u32,
    /// The paragraph's lines, trimmed at the end and joined by single spaces.
    pub text: String,
}

/// Parses one seed file. Tolerates a UTF-8 BOM, CRLF line ends, trailing
/// spaces and runs of blank lines; rejects invalid UTF-8, NUL bytes, an empty
/// file and a header with no paper, naming the line.
pub fn parse_seed(file: &str, bytes: &[u8]) -> Result<SeedList, SourceError> {
    let err = |line: usize, reason: String| SourceError {
        file: file.to_string(),
        line: line as u32,
        reason,
    };
    let text = source_text(file, bytes)?;

    let mut name: Option<(String, u32)> = None;
    let mut paragraphs = Vec::new();
    let mut current: Option<Paragraph> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.trim_end();
        let no = i as u32 + 1;
        if line.trim().is_empty() {
            paragraphs.extend(current.take());
            continue;
        }
        if name.is_none() {
            name = Some((line.trim().to_string(), no));
            continue;
        }
        match current.as_mut() {
            Some(p) => {
                p.text.push(' ');
                p.text.push_str(line.trim_start());
            }
            None => {
                current = Some(Paragraph {
                    line: no,
                    text: line.trim_start().to_string(),
                })
            }
        }
    }
    paragraphs.extend(current.take());
    let Some((name, header_line)) = name else {
        return Err(err(
            1,
            "empty file: expected a list name on the first line".into(),
        ));
    };
    if paragraphs.is_empty() {
        return Err(err(
            header_line as usize,
            format!("list \"{name}\" has a header but no paper"),
        ));
    }
    Ok(SeedList {
        name,
        header_line,
        paragraphs,
    })
}

/// Writes abstracts in the seed format, the inverse of [`parse_seed`]: the
/// list's name on the first line, then each abstract as one paragraph. Line
/// breaks and blank lines inside an abstract become single spaces (a blank
/// line would start a new paper); empty abstracts are left out.
pub fn write_seed<'a>(name: &str, abstracts: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = name.split_whitespace().collect::<Vec<_>>().join(" ");
    out.push('\n');
    for text in abstracts {
        let one = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !one.is_empty() {
            out.push('\n');
            out.push_str(&one);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_abstracts_read_back_one_paper_each() {
        let text = write_seed(
            "Real  list\n",
            ["First line\r\n\n\nsame paper", "", "  second paper\t"],
        );
        let s = parse_seed("w.txt", text.as_bytes()).unwrap();
        assert_eq!(s.name, "Real list");
        let papers: Vec<&str> = s.paragraphs.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(papers, ["First line same paper", "second paper"]);
    }

    #[test]
    fn tolerates_bom_crlf_and_blank_runs() {
        let s = parse_seed(
            "x.txt",
            "\u{feff}My list  \r\n\r\n\r\nfirst one \r\ncontinued\r\n\r\n\r\n\r\nsecond\r\n"
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(s.name, "My list");
        assert_eq!(s.paragraphs.len(), 2);
        assert_eq!(s.paragraphs[0].text, "first one continued");
        assert_eq!(s.paragraphs[0].line, 4);
        assert_eq!(s.paragraphs[1].line, 9);
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = parse_seed("a.txt", b"").unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.txt:1: empty file: expected a list name on the first line"
        );
        let e = parse_seed("b.txt", b"\n\nName\n\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "b.txt:3: list \"Name\" has a header but no paper"
        );
        let e = parse_seed("c.txt", b"Name\n\nok\n\nbad \xff byte\n").unwrap_err();
        assert_eq!(e.line, 5);
        assert!(e.reason.contains("invalid UTF-8"), "{e}");
        let e = parse_seed("d.txt", b"Name\n\nnul\0\n").unwrap_err();
        assert_eq!((e.line, e.reason.as_str()), (3, "NUL byte in text"));
    }
}
