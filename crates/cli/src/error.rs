//! Everything that can stop a command, each naming the file it was working
//! on. `main` prints it and exits with a failure.

use std::fmt;
use std::path::{Path, PathBuf};

use explorer_core::build::synth::SynthError;
use explorer_core::build::SourceError;
use explorer_core::DecodeError;

/// Why a command failed.
#[derive(Debug)]
pub enum Error {
    /// A list, record or taxonomy file is malformed: its file and line.
    Source(SourceError),
    /// A file could not be read or written.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file is not what the step expects: a marker or tag missing or
    /// doubled, text that is not UTF-8, JSON of another shape.
    Unexpected { path: PathBuf, reason: String },
    /// Compiled data that does not decode or does not fit the corpus.
    Decode(DecodeError),
    /// The synthetic list could not be made.
    Synth(SynthError),
}

impl Error {
    /// A file that is not what the step expects.
    pub fn unexpected(path: impl AsRef<Path>, reason: impl fmt::Display) -> Error {
        Error::Unexpected {
            path: path.as_ref().to_path_buf(),
            reason: reason.to_string(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Source(e) if e.is_missing_abstract() => write!(
                f,
                "{e} (CORPUS_STRICT asks every record for one; without it, a record without an abstract is listed by its title)"
            ),
            Error::Source(e) => write!(f, "{e}"),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Unexpected { path, reason } => write!(f, "{}: {reason}", path.display()),
            Error::Decode(e) => write!(f, "{e}"),
            Error::Synth(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Source(e) => Some(e),
            Error::Io { source, .. } => Some(source),
            Error::Decode(e) => Some(e),
            Error::Synth(e) => Some(e),
            Error::Unexpected { .. } => None,
        }
    }
}

impl From<SourceError> for Error {
    fn from(e: SourceError) -> Error {
        Error::Source(e)
    }
}

impl From<SynthError> for Error {
    fn from(e: SynthError) -> Error {
        Error::Synth(e)
    }
}

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Error {
        Error::Decode(e)
    }
}

/// `f`'s I/O error on `path`, named.
pub trait OnPath<T> {
    /// The error, with the path it happened on.
    fn on(self, path: impl AsRef<Path>) -> Result<T, Error>;
}

impl<T> OnPath<T> for std::io::Result<T> {
    fn on(self, path: impl AsRef<Path>) -> Result<T, Error> {
        self.map_err(|source| Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        })
    }
}

/// Reads a file, its errors naming it.
pub fn read(path: impl AsRef<Path>) -> Result<Vec<u8>, Error> {
    std::fs::read(path.as_ref()).on(path)
}

/// Reads a UTF-8 text file, its errors naming it.
pub fn read_text(path: impl AsRef<Path>) -> Result<String, Error> {
    std::fs::read_to_string(path.as_ref()).on(path)
}

/// Writes a file, its errors naming it.
pub fn write(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> Result<(), Error> {
    std::fs::write(path.as_ref(), contents).on(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strict_refusal_says_what_the_default_does() {
        let source = |reason: &str| SourceError {
            file: "lab.bib".into(),
            line: 7,
            reason: reason.into(),
        };
        let missing = Error::from(source("record 3: no abstract")).to_string();
        assert!(
            missing.starts_with("lab.bib:7: record 3: no abstract")
                && missing
                    .contains("without it, a record without an abstract is listed by its title"),
            "{missing}"
        );
        let other = Error::from(source("record 3: unclosed brace")).to_string();
        assert!(!other.contains("CORPUS_STRICT"), "{other}");
    }
}
