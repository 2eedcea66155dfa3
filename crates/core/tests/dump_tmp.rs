#[test]
fn dump() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let c = explorer_core::compile::compile_dir(&dir).unwrap();
    for p in &c.papers {
        let tags: Vec<String> = p.tags.iter().map(|t| format!("{}={}", c.facets[t.facet as usize].key, c.facets[t.facet as usize].values[t.value as usize])).collect();
        println!("{} | {} | {}", p.id, p.title, tags.join(", "));
    }
    let maths: usize = c.papers.iter().flat_map(|p| &p.runs).filter(|r| matches!(&r.kind, explorer_core::model::RunKind::Math{mathml: Some(_), ..})).count();
    let nomaths: Vec<&String> = c.papers.iter().flat_map(|p| &p.runs).filter_map(|r| match &r.kind { explorer_core::model::RunKind::Math{mathml: None, tex} => Some(tex), _ => None}).collect();
    println!("math ok {maths}, failed {:?}", nomaths);
    println!("bytes {}", c.to_bytes().len());
}
