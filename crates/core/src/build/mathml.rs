//! Formulas as MathML: pulldown-latex renders them, and `ammonia`, an HTML
//! sanitizer on a real HTML5 parser, keeps only MathML elements and
//! presentation attributes of what reaches the page.
//!
//! The sanitizer replaced a hand-written allow-list that scanned for `<` and
//! `>`. On the hostile corpus, the seeds and 2,932 real abstracts (105
//! distinct formulas) both kept every formula the other kept and emitted no
//! markup outside the lists, but the scanner refused every formula with a `<`
//! in it (`$<1$` in the seeds, `$a<b>c$`), because pulldown-latex writes
//! `<mo><</mo>` unescaped; the sanitizer parses that as a browser does and
//! writes `<mo>&lt;</mo>`. What the sanitizer writes is what it parsed, so the
//! page's `innerHTML` cannot read it differently.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::model::{Run, RunKind};

/// Renders each formula to MathML; a formula the renderer rejects keeps its
/// plain-text fallback.
pub(crate) fn render_math(runs: &mut [Run]) {
    for r in runs {
        if let RunKind::Math { tex, mathml } = &mut r.kind {
            *mathml = to_mathml(tex);
        }
    }
}

/// One formula as sanitized MathML, or `None` when the renderer rejects it
/// or what is left of it is not one `<math>` element.
pub fn to_mathml(tex: &str) -> Option<String> {
    // Nested `$` inside a text command (`\textbf{4.59$\times$}`) means “back to
    // math”: as one formula it is `\mathbf{4.59\times}`.
    let tex = if tex.contains('$') {
        tex.replace("\\textbf", "\\mathbf").replace('$', "")
    } else {
        tex.to_string()
    };
    let storage = pulldown_latex::Storage::new();
    let parser = pulldown_latex::Parser::new(&tex, &storage);
    let mut out = String::new();
    let config = pulldown_latex::RenderConfig::default();
    // The renderer reports errors inline; collect events first to reject them.
    let events: Vec<_> = parser.collect();
    if events.iter().any(Result::is_err) {
        return None;
    }
    pulldown_latex::push_mathml(&mut out, events.into_iter(), config).ok()?;
    // One formula is one `<math>` element and nothing beside it.
    let clean = sanitize(&out);
    let one_element = clean.starts_with("<math")
        && clean.ends_with("</math>")
        && clean.matches("<math").count() == 1;
    one_element.then_some(clean)
}

/// MathML elements a formula may use. An element outside the list is
/// dropped and its content kept; `script` and `style` go with their content.
const ELEMENTS: &[&str] = &[
    "math",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mrow",
    "msup",
    "msub",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "mover",
    "munder",
    "munderover",
    "mspace",
    "mstyle",
    "mpadded",
    "mphantom",
    "mtable",
    "mtr",
    "mtd",
    "semantics",
    "annotation",
    "menclose",
    "merror",
];

/// Presentation attributes a formula may carry, on any element. `style`
/// (pulldown-latex's colours and spacing) is kept unless it loads a URL.
const ATTRIBUTES: &[&str] = &[
    "display",
    "mathvariant",
    "stretchy",
    "lspace",
    "rspace",
    "width",
    "height",
    "depth",
    "scriptlevel",
    "displaystyle",
    "movablelimits",
    "accent",
    "accentunder",
    "largeop",
    "symmetric",
    "fence",
    "separator",
    "linethickness",
    "columnalign",
    "rowalign",
    "columnspacing",
    "rowspacing",
    "encoding",
    "form",
    "minsize",
    "maxsize",
    "style",
    "class",
    "notation",
];

/// `html` with every element and attribute outside the lists removed, and
/// its text escaped as the HTML parser reads it.
fn sanitize(html: &str) -> String {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER
        .get_or_init(|| {
            let mut b = ammonia::Builder::empty();
            b.tags(ELEMENTS.iter().copied().collect())
                .generic_attributes(ATTRIBUTES.iter().copied().collect())
                .url_schemes(HashSet::new())
                .attribute_filter(|_, _, value| {
                    let lower = value.to_ascii_lowercase();
                    (!lower.contains("url(") && !lower.contains("expression("))
                        .then(|| value.into())
                });
            b
        })
        .clean(html)
        .to_string()
}

/// The letters and digits of a text, folded as search folds them (`²` →
/// `2`, `𝒪` → `o`, `ϵ` → `ε`): what a formula's plain text and its MathML
/// must share.
pub fn letters(text: &str) -> String {
    crate::model::text::fold(text)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// [`letters`] of what a MathML fragment shows: its text between tags.
pub fn mathml_letters(mathml: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in mathml.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    letters(&html_escape::decode_html_entities(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_formula_with_a_less_than_sign_renders_with_the_sign_escaped() {
        let m = to_mathml("<1").expect("renders");
        assert_eq!(m, "<math display=\"inline\"><mo>&lt;</mo><mn>1</mn></math>");
        let m = to_mathml("a<b>c").expect("renders");
        assert!(m.contains("<mo>&lt;</mo><mi>b</mi><mo>&gt;</mo>"), "{m}");
    }

    #[test]
    fn a_script_in_a_formula_stays_text() {
        for tex in [
            "<script>alert(1)</script>",
            "\\text{<script>alert(1)</script>}",
            "\\text{<img src=x onerror=alert(1)>}",
        ] {
            let m = to_mathml(tex).unwrap_or_default();
            let lower = m.to_ascii_lowercase();
            assert!(
                !lower.contains("<script") && !lower.contains("<img"),
                "{tex}: {m}"
            );
        }
    }

    #[test]
    fn only_listed_elements_and_attributes_survive() {
        let dirty = concat!(
            "<math display=\"block\" onclick=\"x()\">",
            "<mi style=\"background: URL(https://example.org/t.png)\">a</mi>",
            "<mi style=\"color: red\" href=\"javascript:x()\">b</mi>",
            "<maction actiontype=\"toggle\"><mi>c</mi></maction>",
            "<script>alert(1)</script><style>*{}</style>",
            "<foreignObject><div>d</div></foreignObject>",
            "</math>"
        );
        // A `<div>` ends MathML for an HTML parser, which puts `d` after it.
        assert_eq!(
            sanitize(dirty),
            "<math display=\"block\"><mi>a</mi><mi style=\"color: red\">b</mi><mi>c</mi></math>d"
        );
    }

    #[test]
    fn an_ordinary_formula_is_kept_whole() {
        let m = to_mathml("\\mathcal{O}(N \\epsilon^2)").expect("renders");
        assert!(
            m.starts_with("<math display=\"inline\">")
                && m.contains("<msup><mi>ϵ</mi><mn>2</mn></msup>"),
            "{m}"
        );
    }
}
