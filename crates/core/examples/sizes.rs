//! Prints how many bytes each part of a compiled corpus takes.
//! `cargo run --release -p explorer-core --features compile --example sizes -- DIR`
fn main() {
    let dir = std::env::args().nth(1).expect("a corpus directory");
    let c = explorer_core::compile::compile_dir(std::path::Path::new(&dir)).unwrap();
    let i = &c.index;
    let raw: usize = c
        .papers
        .iter()
        .map(|p| p.title.len() + p.text.len() + p.authors.join(", ").len())
        .sum();
    let pc = |b: Vec<u8>| b.len();
    println!(
        "indexed text {raw}\nstems fst {}\nsurface fst {}\npostings {}\noffsets {}\ndf {}\ndoc_len {}\nindex total {}",
        i.stems.len(),
        i.surface.len(),
        i.postings.len(),
        pc(postcard::to_allocvec(&i.offsets).unwrap()),
        pc(postcard::to_allocvec(&i.df).unwrap()),
        pc(postcard::to_allocvec(&i.doc_len).unwrap()),
        pc(postcard::to_allocvec(i).unwrap())
    );
    let mut rest = c.clone();
    rest.index = Default::default();
    println!("corpus without index {}", rest.to_bytes().len());
}
