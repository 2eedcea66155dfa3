//! A corpus source file: its text, checked once for every format, and the
//! error that names a file and line (`file:line: reason`).

use std::fmt;

/// An error in a corpus source, reported as `file:line: reason`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError {
    /// The file.
    pub file: String,
    /// The 1-based line (0 when the error is about the whole file).
    pub line: u32,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

impl std::error::Error for SourceError {}

/// 1-based line of a byte offset.
pub(crate) fn line_of(bytes: &[u8], offset: usize) -> u32 {
    1 + newlines(&bytes[..offset.min(bytes.len())])
}

/// How many line feeds `bytes` holds.
fn newlines(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u32
}

/// A byte offset and its 1-based line, for readers whose records come in
/// the file's order: each record's line is counted on from the last one's
/// (from the start each time, reading grows with the square of the file).
#[derive(Default, Clone, Copy)]
pub(crate) struct Lined {
    pub(crate) at: usize,
    pub(crate) line: u32,
}

impl Lined {
    /// Offset `at` of `bytes` with its line: counted on from this one when
    /// it is further on, else from the start.
    pub(crate) fn to(self, bytes: &[u8], at: usize) -> Lined {
        let line = if at >= self.at && self.line > 0 {
            self.line + newlines(&bytes[self.at..at])
        } else {
            line_of(bytes, at)
        };
        Lined { at, line }
    }
}

/// A source file's text: valid UTF-8 without NUL bytes (each refused with
/// its line), a leading BOM removed.
pub(crate) fn source_text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, SourceError> {
    let err = |offset: usize, reason: String| SourceError {
        file: file.to_string(),
        line: line_of(bytes, offset),
        reason,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        err(
            e.valid_up_to(),
            format!("invalid UTF-8 at byte {}", e.valid_up_to()),
        )
    })?;
    if let Some(nul) = text.find('\0') {
        return Err(err(nul, "NUL byte in text".into()));
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}
