use explorer_core::view::topic_map::{
    self, brush_box, dot_centre, dot_radius, is_brush, tenths, Region,
};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::use_i18n;
use crate::Explorer;

/// Dots of this many facet values get a colour of their own; the rest are
/// “other” (beyond this many, colours are no longer told apart).
const PALETTE: [&str; 9] = [
    "#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f",
    "#ff9da7",
];
const OTHER: &str = "#a0a0a0";

/// The topic map: every paper as a dot placed by its content (computed at
/// build time), coloured by a facet, the results bright and the rest dim.
/// Hovering names a paper, clicking opens it, dragging a box keeps only the
/// papers inside it (in the URL like every filter). Drawn only when opened.
#[component]
pub fn TopicMap() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let open = RwSignal::new(x.view.region.get_untracked().is_some());
    // The map needs the papers' places, and their tags to colour them.
    let fetch = move || {
        x.view.fetch_map();
        x.search.want_tags();
    };
    if open.get_untracked() {
        fetch();
    }
    let map_in = x.view.map_in;
    view! {
        <section class="topic-map" aria-labelledby="topic-map-toggle">
            <div class="topic-map-bar">
                <button
                    type="button"
                    id="topic-map-toggle"
                    class="button pill"
                    aria-expanded=move || open.get().to_string()
                    on:click=move |_| {
                        open.update(|o| *o = !*o);
                        if open.get_untracked() {
                            fetch();
                        }
                    }
                >
                    {move || tr.get().topic_map}
                </button>
                <RegionSummary />
            </div>
            <Show when=move || open.get()>
                <Show
                    when=move || map_in.get() && x.search.tags_settled()
                    fallback=move || {
                        view! {
                            <p class="map-loading" role="status">
                                {move || tr.get().loading_map}
                            </p>
                        }
                    }
                >
                    <MapView />
                </Show>
            </Show>
        </section>
    }
}

/// What the region drawn on the map is about, and a way to drop it.
#[component]
fn RegionSummary() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let terms = move || {
        x.view
            .region_docs
            .with(|docs| x.engine.region_terms(docs).join(", "))
    };
    view! {
        <Show when=move || x.view.region.get().is_some()>
            <p class="region-summary">
                <span class="region-label">{move || tr.get().map_region}</span>
                <span class="region-terms">{terms}</span>
                {move || (tr.get().papers_count)(x.view.region_docs.with(Vec::len))}
                <button type="button" class="region-clear" on:click=move |_| x.set_region(None)>
                    {move || tr.get().clear_region}
                </button>
            </p>
        </Show>
    }
}

/// Each paper's colour when the map is coloured by facet `f` (none: all
/// “other”), and the legend: the colour of each of its most common values.
type Colours = (Vec<&'static str>, Vec<(&'static str, String)>);

fn colours_by(engine: &explorer_core::Engine, f: Option<usize>) -> Colours {
    let corpus = &engine.corpus;
    let Some(f) = f else {
        return (vec![OTHER; corpus.papers.len()], Vec::new());
    };
    let c = engine.colouring(f, PALETTE.len());
    let per_paper = c
        .per_paper
        .iter()
        .map(|i| i.map_or(OTHER, |i| PALETTE[usize::from(i)]))
        .collect();
    let legend = c
        .legend
        .iter()
        .zip(PALETTE)
        .map(|(&v, colour)| (colour, corpus.facets[f].values[v as usize].clone()))
        .collect();
    (per_paper, legend)
}

/// A place on the map, as shares of its width and height.
type Point = (f64, f64);

/// A box being dragged on the map: the corner where it began and where the
/// pointer is, as shares of the map (the arithmetic is
/// [`explorer_core::view::topic_map`]'s).
#[derive(Clone, Copy)]
struct Brush {
    corners: RwSignal<Option<(Point, Point)>>,
    /// A box was just drawn: the click that ends the drag opens no paper.
    drawn: StoredValue<bool>,
}

impl Brush {
    fn new() -> Brush {
        Brush {
            corners: RwSignal::new(None),
            drawn: StoredValue::new(false),
        }
    }

    fn start(self, at: Point) {
        self.corners.set(Some((at, at)));
        self.drawn.set_value(false);
    }

    /// Whether a box is being dragged (read outside the reactive graph).
    fn active(self) -> bool {
        self.corners.with_untracked(Option::is_some)
    }

    fn extend(self, to: Point) {
        self.corners.update(|c| {
            if let Some((_, end)) = c {
                *end = to;
            }
        });
    }

    /// Ends the drag: the region drawn, if it is a box and not a click.
    fn finish(self) -> Option<Region> {
        let (a, b) = self.corners.get_untracked()?;
        self.corners.set(None);
        if !is_brush(a, b) {
            return None;
        }
        self.drawn.set_value(true);
        Region::from_corners(a, b)
    }

    /// Whether a click is the end of a drawn box (and so opens nothing).
    fn swallows_click(self) -> bool {
        let drawn = self.drawn.get_value();
        self.drawn.set_value(false);
        drawn
    }

    fn dragging(self) -> bool {
        self.corners.with(Option::is_some)
    }

    /// The box to draw while dragging: x, y, width, height.
    fn shown(self) -> Option<(f64, f64, f64, f64)> {
        self.corners
            .get()
            .filter(|&(a, b)| is_brush(a, b))
            .map(|(a, b)| brush_box(a, b))
    }
}

/// The map itself: a dot per paper and the brush, with the pointer
/// handlers the brush needs (down, move, up).
#[component]
fn MapView() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let corpus = &x.engine.corpus;
    let (facets, first) = topic_map::colour_facets(corpus);
    let (colour_by, set_colour_by) = signal(first);
    let colours = Memo::new(move |_| colours_by(x.engine, colour_by.get()));
    let brush = Brush::new();
    let svg = NodeRef::<leptos::svg::Svg>::new();
    let at = move |ev: &web_sys::PointerEvent| -> Option<Point> {
        let rect = svg.get()?.get_bounding_client_rect();
        Some((
            (f64::from(ev.client_x()) - rect.left()) / rect.width(),
            (f64::from(ev.client_y()) - rect.top()) / rect.height(),
        ))
    };
    let on_up = move |_| {
        if let Some(r) = brush.finish() {
            x.set_region(Some(r));
        }
    };
    view! {
        <div class="map-panel">
            <MapControls facets=facets colour_by=colour_by set_colour_by=set_colour_by />
            <svg
                node_ref=svg
                class="map"
                class:dragging=move || brush.dragging()
                viewBox="0 0 1000 1000"
                role="group"
                aria-label=move || tr.get().map_label
                on:pointerdown=move |ev| {
                    if let Some(p) = (ev.button() == 0).then(|| at(&ev)).flatten() {
                        brush.start(p);
                    }
                }
                on:pointermove=move |ev| {
                    // The map's place is read only while dragging.
                    if let Some(p) = brush.active().then(|| at(&ev)).flatten() {
                        brush.extend(p);
                    }
                }
                on:pointerup=on_up
                on:pointerleave=on_up
            >
                {move || {
                    x.view.region
                        .get()
                        .map(|r| {
                            let [x0, y0, w, h] = <[f64; 4]>::from(r.rect()).map(tenths);
                            view! { <rect class="region" x=x0 y=y0 width=w height=h></rect> }
                        })
                }}
                <MapDots colours=colours brush=brush />
                {move || {
                    brush
                        .shown()
                        .map(|rect| {
                            let [x0, y0, w, h] = <[f64; 4]>::from(rect).map(tenths);
                            view! { <rect class="brush" x=x0 y=y0 width=w height=h></rect> }
                        })
                }}
            </svg>
            <MapLegend legend=Signal::derive(move || colours.with(|(_, l)| l.clone())) />
        </div>
    }
}

/// The map's controls: which facet colours the dots, and how to brush.
#[component]
fn MapControls(
    facets: Vec<usize>,
    colour_by: ReadSignal<Option<usize>>,
    set_colour_by: WriteSignal<Option<usize>>,
) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let corpus = &x.engine.corpus;
    view! {
        <div class="map-controls">
            <label>
                {move || tr.get().colour_by}
                <select on:change:target=move |ev| {
                    set_colour_by.set(ev.target().value().parse().ok());
                }>
                    {facets
                        .iter()
                        .map(|&f| {
                            view! {
                                <option value=f.to_string() selected=move || colour_by.get() == Some(f)>
                                    {move || (tr.get().facet_name)(corpus.facets[f].kind)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <span class="map-hint">{move || tr.get().map_hint}</span>
        </div>
    }
}

/// Every paper as a dot: bright when it is a result, coloured by the
/// chosen facet, named on hover; a click opens the paper.
#[component]
fn MapDots(colours: Memo<Colours>, brush: Brush) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let corpus = &x.engine.corpus;
    let shown = Memo::new(move |_| {
        let mut inside = vec![false; corpus.papers.len()];
        x.search.response.with(|r| {
            for h in r.hits.any_order() {
                inside[h.doc as usize] = true;
            }
        });
        inside
    });
    let open_paper = move |doc: usize| {
        if !brush.swallows_click() {
            let _ = window().location().set_hash(&corpus.papers[doc].id);
        }
    };
    // A long list's titles come in packs: a dot whose title is not in says
    // so, and hovering it fetches its pack and names it.
    let loading = use_i18n().now().loading_title;
    let name_on_hover = move |ev: leptos::ev::MouseEvent, doc: u32| {
        if x.engine.title(doc).is_some() {
            return;
        }
        let Some(dot) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        crate::load::when_titles_in([doc], move |_| {
            if let (Some(title), Ok(Some(name))) =
                (x.engine.title(doc), dot.query_selector("title"))
            {
                name.set_text_content(Some(title));
            }
        });
    };
    let radius = tenths(dot_radius(corpus.papers.len()));
    let dots = corpus
        .papers
        .iter()
        .enumerate()
        .map(|(d, p)| {
            let (cx, cy) = dot_centre(x.engine.place(d as u32).unwrap_or_default());
            view! {
                <circle
                    class="dot"
                    class:dim=move || !shown.with(|s| s[d])
                    data-id=p.id.clone()
                    cx=tenths(cx)
                    cy=tenths(cy)
                    r=radius.clone()
                    fill=move || colours.with(|(c, _)| c[d])
                    on:click=move |_| open_paper(d)
                    on:mouseenter=move |ev| name_on_hover(ev, d as u32)
                >
                    <title>{x.engine.title(d as u32).unwrap_or(loading).to_string()}</title>
                </circle>
            }
        })
        .collect_view();
    view! { <g class="dots">{dots}</g> }
}

/// Which colour stands for which facet value (and “other”).
#[component]
fn MapLegend(legend: Signal<Vec<(&'static str, String)>>) -> impl IntoView {
    let tr = use_i18n();
    view! {
        <ul class="map-legend" aria-label=move || tr.get().map_colours>
            <For each=move || legend.get() key=|(c, label)| (*c, label.clone()) let((c, label))>
                <li>
                    <span class="swatch" style:background=c></span>
                    {label}
                </li>
            </For>
            <li>
                <span class="swatch" style:background=OTHER></span>
                {move || tr.get().other}
            </li>
        </ul>
    }
}
