//! Prints how many bytes each part of a compiled corpus takes.
//! `cargo run --release -p explorer-core --features compile --example sizes -- DIR`
fn main() {
    let dir = std::env::args().nth(1).expect("a corpus directory");
    let c = explorer_core::build::compile_dir(std::path::Path::new(&dir)).unwrap();
    let i = &c.index;
    let raw: usize = c
        .papers
        .iter()
        .map(|p| p.title.len() + p.text.len() + p.authors.join(", ").len())
        .sum();
    let pc = |b: Vec<u8>| b.len();
    println!(
        "indexed text {raw}\nstray stems {}\nwords {}\npostings {}\npositions {}\ndoc_len {}\nindex total {}",
        i.stray_stems.len(),
        i.surface.len(),
        i.postings.len(),
        i.positions.len(),
        pc(postcard::to_allocvec(&i.doc_len).unwrap()),
        i.to_frame().len()
    );
    let mut rest = c.clone();
    rest.index = Default::default();
    println!("corpus without index {}", rest.to_bytes().len());
    let part = |name: &str, f: &dyn Fn(&explorer_core::model::Paper) -> usize| {
        println!("  papers' {name} {}", c.papers.iter().map(f).sum::<usize>());
    };
    part("text", &|p| postcard::to_allocvec(&p.text).unwrap().len());
    part("title", &|p| postcard::to_allocvec(&p.title).unwrap().len());
    part("runs", &|p| postcard::to_allocvec(&p.runs).unwrap().len());
    part("tags", &|p| postcard::to_allocvec(&p.tags).unwrap().len());
    part("authors", &|p| {
        postcard::to_allocvec(&p.authors).unwrap().len()
    });
    part("links", &|p| postcard::to_allocvec(&p.links).unwrap().len());
    part("id", &|p| p.id.len());
    part("tags (count)", &|p| p.tags.len());
    part("runs (count)", &|p| p.runs.len());
    println!("facets {}", postcard::to_allocvec(&c.facets).unwrap().len());
    println!(
        "tag reasons {}",
        postcard::to_allocvec(&c.reasons).unwrap().len()
    );
}
