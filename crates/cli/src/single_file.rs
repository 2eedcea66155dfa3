//! The single-file build: the built `index.html` with its stylesheets, the
//! wasm-bindgen glue and the WebAssembly module inlined, so one HTML file
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

    let mut out = String::with_capacity(index.len() + glue.len() + wasm.len() + 64 * 1024);
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
