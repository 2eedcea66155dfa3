use std::ops::Range;

use explorer_core::model::{style, Paper, RunKind};
use explorer_core::{overlaps, split_by_marks};
use leptos::prelude::*;

/// Plain text with `<mark>`s at the highlight ranges.
pub fn marked(text: &str, range: Range<usize>, marks: &[Range<usize>]) -> Vec<AnyView> {
    split_by_marks(range, marks)
        .into_iter()
        .map(|(r, hit)| {
            let s = text[r].to_string();
            if hit {
                view! { <mark>{s}</mark> }.into_any()
            } else {
                s.into_any()
            }
        })
        .collect()
}

fn styled(st: u8, inner: Vec<AnyView>) -> AnyView {
    let mut v = inner.into_any();
    if st & style::CODE != 0 {
        v = view! { <code>{v}</code> }.into_any();
    }
    if st & style::ITALIC != 0 {
        v = view! { <em>{v}</em> }.into_any();
    }
    if st & style::BOLD != 0 {
        v = view! { <strong>{v}</strong> }.into_any();
    }
    if st & style::FOOTNOTE != 0 {
        v = view! { <small class="footnote">{v}</small> }.into_any();
    }
    v
}

/// A paper's abstract: styled runs, links and formulas, with highlights that
/// never split a formula or a link.
pub fn abstract_view(p: &'static Paper, marks: &[Range<usize>]) -> Vec<AnyView> {
    p.run_ranges()
        .map(|(range, kind)| match kind {
            RunKind::Text { style } => styled(*style, marked(&p.text, range, marks)),
            RunKind::Link { href, style } => {
                let inner = marked(&p.text, range, marks);
                styled(
                    *style,
                    vec![view! {
                        <a href=href.clone() target="_blank" rel="noopener noreferrer nofollow">
                            {inner}
                        </a>
                    }
                    .into_any()],
                )
            }
            RunKind::Math { tex, mathml } => {
                let hit = overlaps(&range, marks);
                let math = match mathml {
                    // MathML from the build-time renderer, checked against an
                    // element and attribute allow-list when compiled.
                    Some(m) => view! { <span class="math" title=tex.clone() inner_html=m.clone()></span> }.into_any(),
                    None => view! { <span class="math math-text" title=tex.clone()>{p.text[range].to_string()}</span> }
                        .into_any(),
                };
                if hit {
                    view! { <mark class="math-mark">{math}</mark> }.into_any()
                } else {
                    math
                }
            }
        })
        .collect()
}
