//! A list's own page and manifest: what the post-build hook writes into
//! the built `index.html` and `manifest.webmanifest` (`explorer-cli
//! stage`), and what the page's compiler writes into a copy of the
//! deployed ones for "Download this explorer". One set of functions, so
//! that a site published from the page is the one the CLI builds.
//!
//! A page is staged from Trunk's page (its markers) or from a page staged
//! for another list: each part the list gives sits between markers that
//! stay, so it can be put in again.

use serde::{Deserialize, Serialize};

use crate::model::Corpus;
use crate::view::{escape, first_screen, noscript, EN};

use super::SiteLink;

/// Where the noscript note goes (Trunk's page), and where it ends.
const NOSCRIPT: (&str, &str) = ("<!-- noscript -->", "<!-- /noscript -->");
/// Where the first screen goes, and where it ends.
const FIRST_SCREEN: (&str, &str) = ("<!-- first-screen -->", "<!-- /first-screen -->");
/// The corpus link sits before the end of the head, between these.
const LINK: (&str, &str) = ("<!-- corpus -->", "<!-- /corpus -->");

/// What a list puts into its page and manifest, worked out once from the
/// compiled list (by the CLI, or by the page's compiler, which keeps it
/// with the list's files to publish it later).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageParts {
    /// The page's title and the installed app's name.
    pub title: String,
    /// The home-screen label: the first list's name when it is short.
    pub short_name: String,
    /// `<link data-corpus …>`: the files the page opens first.
    pub link: String,
    /// What a browser without JavaScript sees: a note and the listing's link.
    pub noscript: String,
    /// The first papers, before the app has started.
    pub first_screen: String,
}

impl PageParts {
    /// The parts of `corpus`, whose files `link` names; `ahead` is the most
    /// its page may fetch ahead of need, when the build sets it.
    pub fn of(corpus: &Corpus, link: &SiteLink, ahead: Option<usize>) -> PageParts {
        let short_name = (corpus.lists.first())
            .map(|l| l.name.clone())
            .filter(|n| n.chars().count() <= 16)
            .unwrap_or_else(|| "Papers".into());
        PageParts {
            title: corpus.title(),
            short_name,
            link: link.html(ahead),
            noscript: noscript(corpus),
            first_screen: first_screen(corpus, &EN),
        }
    }
}

/// Why a page or manifest could not be staged: it is not one the build
/// wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StageError {
    /// A marker, or the element it stands for, is missing.
    Missing(&'static str),
    /// The manifest is not a JSON object.
    Manifest(String),
}

impl std::fmt::Display for StageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StageError::Missing(what) => write!(f, "no {what} to replace"),
            StageError::Manifest(why) => write!(f, "the manifest is not a JSON object: {why}"),
        }
    }
}

impl std::error::Error for StageError {}

/// `html` (Trunk's page, or one staged for another list) with `parts` in
/// it: the corpus link at the end of the head, the title, the noscript
/// note and the first screen.
pub fn page(html: &str, parts: &PageParts) -> Result<String, StageError> {
    let html = between(html, LINK, "</head>", &parts.link)?;
    let html = title(&html, &parts.title)?;
    let html = between(&html, NOSCRIPT, NOSCRIPT.0, &parts.noscript)?;
    between(&html, FIRST_SCREEN, FIRST_SCREEN.0, &parts.first_screen)
}

/// `html` with `content` between the markers `(open, close)`: in place of
/// what is there already, or, the first time, where `first` is (a marker
/// alone, replaced; `</head>`, kept after them).
fn between(
    html: &str,
    (open, close): (&'static str, &'static str),
    first: &'static str,
    content: &str,
) -> Result<String, StageError> {
    let wrapped = format!("{open}{content}{close}");
    let opened = html.find(open);
    let region = opened.and_then(|s| html[s..].find(close).map(|e| (s, s + e + close.len())));
    let (at, end) = match region {
        // Staged before: what is there is replaced.
        Some(region) => region,
        // Trunk's marker alone, replaced.
        None if first == open => {
            let at = opened.ok_or(StageError::Missing(open))?;
            (at, at + open.len())
        }
        // Put before `first`.
        None => {
            let at = html.find(first).ok_or(StageError::Missing(first))?;
            (at, at)
        }
    };
    Ok(format!("{}{wrapped}{}", &html[..at], &html[end..]))
}

/// `html` with its `<title>` saying `title`.
fn title(html: &str, title: &str) -> Result<String, StageError> {
    let start = html.find("<title>").ok_or(StageError::Missing("<title>"))? + "<title>".len();
    let end = start
        + html[start..]
            .find("</title>")
            .ok_or(StageError::Missing("</title>"))?;
    Ok(format!(
        "{}{}{}",
        &html[..start],
        escape(title),
        &html[end..]
    ))
}

/// The web app manifest `json` named after the list.
pub fn manifest(json: &str, parts: &PageParts) -> Result<String, StageError> {
    let mut manifest = match serde_json::from_str::<serde_json::Value>(json) {
        Ok(serde_json::Value::Object(m)) => m,
        Ok(other) => return Err(StageError::Manifest(format!("{other}"))),
        Err(e) => return Err(StageError::Manifest(e.to_string())),
    };
    manifest.insert("name".into(), parts.title.clone().into());
    manifest.insert("short_name".into(), parts.short_name.clone().into());
    let text = serde_json::to_string_pretty(&manifest).expect("a JSON object serializes");
    Ok(text + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::seeds;

    const TRUNK_PAGE: &str = "<html><head><title>Paper explorer</title>\n  </head>\n  <body>\n    \
        <!-- noscript -->\n    <!-- first-screen -->\n  </body></html>";

    fn parts_of(corpus: &Corpus) -> PageParts {
        let link = SiteLink {
            papers: "corpus-0123456789abcdef.bin".into(),
            index: "index-0123456789abcdef.bin".into(),
            meaning: "meaning-0123456789abcdef.bin".into(),
            meaning_bytes: 1,
        };
        PageParts::of(corpus, &link, None)
    }

    /// A page staged for one list and staged again for another is the
    /// page staged for the other alone: what "Download this explorer"
    /// relies on to publish the list in view from the deployed page.
    #[test]
    fn a_page_staged_again_is_the_other_lists_page() {
        let a = parts_of(&seeds());
        let b = PageParts {
            title: "Other <papers>".into(),
            short_name: "Other".into(),
            link: "<link rel=\"preload\" href=\"./corpus-fedcba9876543210.bin\" data-corpus />\n"
                .into(),
            noscript: "<noscript>all 2 papers</noscript>".into(),
            first_screen: "<div id=\"first-screen\">two papers</div>".into(),
        };
        let staged_b = page(TRUNK_PAGE, &b).unwrap();
        let again = page(&page(TRUNK_PAGE, &a).unwrap(), &b).unwrap();
        assert_eq!(again, staged_b);
        // Each part is in it once, where it belongs.
        assert_eq!(staged_b.matches("data-corpus").count(), 1);
        assert!(staged_b.find("data-corpus").unwrap() < staged_b.find("</head>").unwrap());
        assert!(staged_b.contains("<title>Other &lt;papers&gt;</title>"));
        assert!(staged_b.find("all 2 papers").unwrap() < staged_b.find("two papers").unwrap());
        assert_eq!(staged_b.matches(&b.first_screen).count(), 1);
        assert!(!staged_b.contains(&a.first_screen) && !staged_b.contains(&a.noscript));
        let manifest_b = manifest("{\"name\": \"Paper explorer\", \"x\": 1}", &b).unwrap();
        let again = manifest(&manifest("{\"name\": \"P\", \"x\": 1}", &a).unwrap(), &b).unwrap();
        assert_eq!(again, manifest_b);
    }

    /// A page that is not the build's says what it lacks.
    #[test]
    fn a_page_without_its_markers_is_refused() {
        let parts = parts_of(&seeds());
        let no_noscript = TRUNK_PAGE.replace("<!-- noscript -->", "");
        assert_eq!(
            page(&no_noscript, &parts),
            Err(StageError::Missing("<!-- noscript -->"))
        );
        assert!(page("<p>no head</p>", &parts).is_err());
        assert!(manifest("[1]", &parts).is_err());
    }
}
