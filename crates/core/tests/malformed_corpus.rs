//! A malformed corpus directory fails the build with `file:line: reason`.

use std::path::PathBuf;

use explorer_core::compile::compile_dir;

fn corpus(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("explorer-malformed-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    dir
}

const TAXONOMY: &[u8] = b"[[topic]]\nname = \"Agents\"\nterms = [\"agent\"]\n";

fn error(name: &str, files: &[(&str, &[u8])]) -> String {
    let dir = corpus(name, files);
    let e = compile_dir(&dir).expect_err("must not compile").to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    e
}

#[test]
fn each_error_names_file_and_line() {
    let e = error("empty", &[("a.txt", b""), ("taxonomy.toml", TAXONOMY)]);
    assert!(
        e.ends_with("a.txt:1: empty file: expected a list name on the first line"),
        "{e}"
    );

    let e = error(
        "header",
        &[("a.txt", b"\n\nMy list\n\n\n"), ("taxonomy.toml", TAXONOMY)],
    );
    assert!(
        e.ends_with("a.txt:3: list \"My list\" has a header but no paper"),
        "{e}"
    );

    let e = error(
        "utf8",
        &[
            ("a.txt", b"My list\n\nfine\n\nbroken \xc3\x28 here\n"),
            ("taxonomy.toml", TAXONOMY),
        ],
    );
    assert!(e.contains("a.txt:5: invalid UTF-8"), "{e}");

    let e = error(
        "toml",
        &[
            ("a.txt", b"My list\n\nAn agent.\n"),
            (
                "taxonomy.toml",
                b"[[topic]]\nname = \"A\"\nterms = [\"x\"\n",
            ),
        ],
    );
    assert!(e.contains("taxonomy.toml:3:"), "{e}");

    let e = error(
        "unknown-key",
        &[
            ("a.txt", b"My list\n\nAn agent.\n"),
            (
                "taxonomy.toml",
                b"[[topic]]\nname = \"A\"\ntrems = [\"x\"]\n",
            ),
        ],
    );
    assert!(e.contains("taxonomy.toml:3:") && e.contains("trems"), "{e}");

    let e = error("nothing", &[("taxonomy.toml", TAXONOMY)]);
    assert!(e.contains("no paper lists here"), "{e}");
}

#[test]
fn a_good_directory_keeps_every_paper() {
    let dir = corpus(
        "good",
        &[
            (
                "a.txt",
                b"\xef\xbb\xbfList A\r\n\r\nOne agent.\r\n\r\n\r\nTwo agents.\r\n",
            ),
            ("b.txt", b"List B\n\nThree.\n"),
            ("taxonomy.toml", TAXONOMY),
        ],
    );
    let c = compile_dir(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(c.papers.len(), 3);
    assert_eq!(c.title(), "List A · List B");
    let agents = c
        .papers
        .iter()
        .filter(|p| p.tags.iter().any(|t| t.facet == 0))
        .count();
    assert_eq!(agents, 2);
}
