//! The single-file build: the built `index.html` with its stylesheets, the
//! wasm-bindgen glue, the WebAssembly module and the corpus inlined, so one HTML file
//! opens from `file://` (no server, no service worker), or travels as a mail
//! attachment or a wiki upload.

use std::path::Path;

use base64::Engine as _;

fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = s.find(start)? + start.len();
    let j = s[i..].find(end)? + i;
    Some(&s[i..j])
}

pub fn build(dist: &Path) -> Result<String, String> {
    let read = |name: &str| {
        std::fs::read(dist.join(name)).map_err(|e| format!("{}: {e}", dist.join(name).display()))
    };
    let index = String::from_utf8(read("index.html")?).map_err(|e| format!("index.html: {e}"))?;

    // Trunk's inline loader names the glue and the module.
    let loader_start = index
        .find("<script type=\"module\">")
        .ok_or("index.html: no module loader")?;
    let loader_end = index[loader_start..]
        .find("</script>")
        .ok_or("index.html: unterminated loader")?
        + loader_start
        + 9;
    let loader = &index[loader_start..loader_end];
    let glue_name = between(loader, "from './", "'").ok_or("loader names no glue")?;
    let wasm_name = between(loader, "module_or_path: './", "'").ok_or("loader names no module")?;
    let glue = String::from_utf8(read(glue_name)?).map_err(|e| format!("{glue_name}: {e}"))?;
    if glue.contains("</script") {
        return Err(format!("{glue_name} contains </script"));
    }
    let wasm = base64::engine::general_purpose::STANDARD.encode(read(wasm_name)?);
    let script = format!(
        "<script type=\"module\">\n{glue}\nconst bytes = Uint8Array.from(atob(\"{wasm}\"), (c) => c.charCodeAt(0));\nawait __wbg_init({{ module_or_path: bytes }});\n</script>"
    );

    let mut out = String::with_capacity(index.len() + glue.len() + 2 * wasm.len() + 64 * 1024);
    let mut rest = &index[..];
    // Walk the head's tags: inline stylesheets, drop what needs a server.
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find('>').ok_or("index.html: unterminated tag")? + 1;
        let tag = &rest[..end];
        if rest.starts_with("<script type=\"module\">") {
            out.push_str(&script);
            rest = &rest[loader.len()..];
            continue;
        }
        if tag.starts_with("<link") {
            if tag.contains("rel=\"stylesheet\"") {
                let href = between(tag, "href=\"./", "\"").ok_or("stylesheet without href")?;
                let css = String::from_utf8(read(href)?).map_err(|e| format!("{href}: {e}"))?;
                out.push_str(&format!(
                    "<style>{}</style>",
                    css.replace("</style", "<\\/style")
                ));
            } else if tag.contains("data-corpus") {
                // The corpus travels inside the page as a data: URL, which
                // the app fetches as it would the file.
                let inline = |attr: &str| -> Result<String, String> {
                    let file = between(tag, &format!("{attr}=\"./"), "\"")
                        .ok_or_else(|| format!("corpus link without {attr}"))?;
                    let bytes = base64::engine::general_purpose::STANDARD.encode(read(file)?);
                    Ok(format!("data:application/octet-stream;base64,{bytes}"))
                };
                out.push_str(&format!(
                    "<link data-corpus href=\"{}\" data-index=\"{}\" />",
                    inline(" href")?,
                    inline("data-index")?
                ));
            } else if tag.contains("rel=\"icon\"") {
                let href = between(tag, "href=\"", "\"").ok_or("icon without href")?;
                let svg = base64::engine::general_purpose::STANDARD.encode(read(href)?);
                out.push_str(&format!(
                    "<link rel=\"icon\" href=\"data:image/svg+xml;base64,{svg}\" />"
                ));
            }
            // modulepreload, preload and the manifest need files beside the page.
            rest = &rest[end..];
            continue;
        }
        out.push_str(tag);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Moves Trunk's inline module loader out of `index.html` into a file of
/// its own, `start-<hash>.js`, so that the page runs under a
/// Content-Security-Policy that allows no inline script. Returns the name.
/// Run after the single-file build, which reads the inline loader.
pub fn external_loader(dist: &Path) -> Result<String, String> {
    let path = dist.join("index.html");
    let index = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let open = "<script type=\"module\">";
    let start = index
        .find(open)
        .ok_or("index.html: no inline module loader")?;
    let body = start + open.len();
    let end = index[body..]
        .find("</script>")
        .ok_or("index.html: unterminated loader")?
        + body;
    let js = index[body..end].trim();
    if index[end..].contains(open) {
        return Err("index.html: more than one inline module script".into());
    }
    // A content hash that is the same on every machine and Rust version
    // (`DefaultHasher` promises neither), so a rebuild names it alike.
    let name = format!(
        "start-{:016x}.js",
        xxhash_rust::xxh3::xxh3_64(js.as_bytes())
    );
    std::fs::write(dist.join(&name), format!("{js}\n")).map_err(|e| format!("{name}: {e}"))?;
    let html = format!(
        "{}<script type=\"module\" src=\"./{name}\"></script>{}",
        &index[..start],
        &index[end + "</script>".len()..]
    );
    std::fs::write(&path, html).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_moves_to_a_file_of_its_own() {
        let dir = std::env::temp_dir().join(format!("explorer-loader-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let loader = "\nimport init from './app.js';\nawait init();\n";
        std::fs::write(
            dir.join("index.html"),
            format!(
                "<html><head><script type=\"module\">{loader}</script></head><body></body></html>"
            ),
        )
        .unwrap();
        let name = external_loader(&dir).unwrap();
        let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
        assert_eq!(
            html,
            format!("<html><head><script type=\"module\" src=\"./{name}\"></script></head><body></body></html>")
        );
        assert_eq!(
            std::fs::read_to_string(dir.join(&name)).unwrap(),
            "import init from './app.js';\nawait init();\n"
        );
        // Once moved, there is nothing left to move.
        assert!(external_loader(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
