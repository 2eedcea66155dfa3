//! Formulas as MathML: pulldown-latex renders them, and an allow-list of
//! MathML elements and attributes keeps what reaches the page inert.

use crate::model::{Run, RunKind};

/// Renders each formula to MathML; a formula the renderer rejects, or whose
/// output is not plain MathML, keeps its plain-text fallback.
pub fn render_math(runs: &mut [Run]) {
    for r in runs {
        if let RunKind::Math { tex, mathml } = &mut r.kind {
            *mathml = to_mathml(tex);
        }
    }
}

/// One formula as MathML, or `None` when the renderer rejects it or its
/// output is not plain MathML.
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
    is_safe_mathml(&out).then_some(out)
}

/// Only MathML elements and presentation attributes: the output is inserted
/// as markup, so anything else is refused.
pub fn is_safe_mathml(s: &str) -> bool {
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
    const ATTRS: &[&str] = &[
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
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        let tag_end = match rest[i..].find('>') {
            Some(e) => i + e,
            None => return false,
        };
        let tag = rest[i + 1..tag_end]
            .trim_start_matches('/')
            .trim_end_matches('/');
        let mut parts = tag.split_whitespace();
        let name = parts.next().unwrap_or("");
        if !ELEMENTS.contains(&name) {
            return false;
        }
        for attr in parts {
            let Some((key, value)) = attr.split_once('=') else {
                return false;
            };
            if !ATTRS.contains(&key) || value.to_ascii_lowercase().contains("url(") {
                return false;
            }
        }
        rest = &rest[tag_end + 1..];
    }
    true
}
