//! The layout holds: no module of the crate imports another that imports it back (directly
//! or around a circle), no shared module imports a provider's (only `any_provider`, the
//! dispatcher above them, does), and no source file is longer than 900 lines.
//!
//! A module's imports are the top-level modules its code names as `crate::name`, or as
//! `crate::Name` where the crate's root re-exports `Name` from a module (doc comments and line
//! comments are not code).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const PROVIDERS: [&str; 5] = [
    "anthropic",
    "bedrock",
    "gemini",
    "openai",
    "openai_responses",
];

fn sources(folder: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            out.push(path);
        }
    }
}

/// Each top-level module and the top-level modules it names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let module_of = |path: &Path| {
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        first.trim_end_matches(".rs").to_owned()
    };
    let modules: BTreeSet<String> = files.iter().map(|path| module_of(path)).collect();
    let reexported = root_reexports(&src.join("lib.rs"));
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let module = module_of(path);
        let text = std::fs::read_to_string(path).unwrap();
        let edges = graph.entry(module.clone()).or_default();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or_default();
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let name = reexported.get(&name).cloned().unwrap_or(name);
                if name != module && modules.contains(&name) {
                    edges.insert(name);
                }
            }
        }
    }
    graph.remove("lib");
    graph
}

/// The names the crate's root re-exports (`pub use crate::module::...;`), each with the
/// top-level module it comes from.
fn root_reexports(lib: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(lib).unwrap();
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(" ");
    let mut names = BTreeMap::new();
    for (at, _) in code.match_indices("pub use crate::") {
        let rest = &code[at + 15..];
        let statement = &rest[..rest.find(';').unwrap()];
        let module: String = statement
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        for word in statement.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.starts_with(|c: char| c.is_ascii_uppercase()) {
                names.insert(word.to_owned(), module.clone());
            }
        }
    }
    names
}

/// The floors of the house, from the bottom up, as ARCHITECTURE.md names them.
const FLOORS: [&[&str]; 8] = [
    &["dialects", "provider", "stop", "json", "tokens"],
    &["record", "parse", "errors"],
    &["media", "wire", "replay"],
    &["render"],
    &["reply", "stream", "turn", "models", "cost", "fit", "body"],
    &["surface"],
    &PROVIDERS,
    &["any_provider"],
];

#[test]
fn every_module_imports_only_from_its_floor_or_those_below() {
    let floor = |module: &str| FLOORS.iter().position(|floor| floor.contains(&module));
    let mut up = Vec::new();
    for (module, edges) in graph() {
        let Some(at) = floor(&module) else {
            up.push(format!("{module} is on no floor"));
            continue;
        };
        for edge in edges {
            if floor(&edge).is_none_or(|to| to > at) {
                up.push(format!("{module} -> {edge}"));
            }
        }
    }
    assert!(up.is_empty(), "{up:#?}");
}

#[test]
fn no_two_modules_import_each_other_around_a_circle() {
    let graph = graph();
    // Depth-first search, with the path so far: a module met again on the path closes a
    // circle.
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        circles: &mut Vec<String>,
    ) {
        if let Some(at) = path.iter().position(|seen| seen == module) {
            circles.push(format!("{} -> {module}", path[at..].join(" -> ")));
            return;
        }
        if !done.insert(module.to_owned()) {
            return;
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            visit(next, graph, path, done, circles);
        }
        path.pop();
    }
    let mut circles = Vec::new();
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(module, &graph, &mut Vec::new(), &mut done, &mut circles);
    }
    assert!(graph.len() > 20, "the graph has {} modules", graph.len());
    assert!(circles.is_empty(), "{circles:#?}");
}

#[test]
fn no_shared_module_imports_a_provider() {
    let graph = graph();
    let mut found = Vec::new();
    for (module, edges) in &graph {
        if PROVIDERS.contains(&module.as_str()) || module == "any_provider" {
            continue;
        }
        for provider in PROVIDERS {
            if edges.contains(provider) {
                found.push(format!("{module} -> {provider}"));
            }
        }
    }
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn no_source_file_is_longer_than_900_lines() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(path).unwrap().lines().count();
            (lines > 900).then(|| format!("{}: {lines}", path.display()))
        })
        .collect();
    assert!(files.len() > 40, "{} files", files.len());
    assert!(long.is_empty(), "{long:?}");
}

/// Each file of a folder (by its name inside the folder, `mod` for `mod.rs`) and the files of
/// the same folder it names: `super::name` from a file, `self::name` from `mod.rs`. A folder's
/// `mod.rs` declares its files and gathers what they make, so its edges to them are the
/// folder's front door, not a dependency that can close a circle: they are left out.
fn folder_graphs() -> BTreeMap<PathBuf, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut folders: BTreeMap<PathBuf, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for path in &files {
        let folder = path.parent().unwrap().to_owned();
        if folder == src {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let siblings: BTreeSet<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|sibling| {
                sibling
                    .extension()
                    .is_some_and(|extension| extension == "rs")
            })
            .map(|sibling| sibling.file_stem().unwrap().to_str().unwrap().to_owned())
            .collect();
        let text = std::fs::read_to_string(path).unwrap();
        let graph = folders.entry(folder).or_default();
        let edges = graph.entry(name.clone()).or_default();
        if name == "mod" {
            continue;
        }
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or_default();
            for (at, _) in code.match_indices("super::") {
                let next: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if next != name && siblings.contains(&next) {
                    edges.insert(next);
                }
            }
        }
    }
    folders
}

#[test]
fn no_two_files_of_a_folder_import_each_other_around_a_circle() {
    let mut circles = Vec::new();
    for (folder, graph) in folder_graphs() {
        for start in graph.keys() {
            // Every path from `start`; one that comes back to it is a circle.
            let mut stack = vec![vec![start.clone()]];
            let mut seen = BTreeSet::new();
            while let Some(path) = stack.pop() {
                let last = path.last().unwrap();
                for next in graph.get(last).into_iter().flatten() {
                    if next == start {
                        circles.push(format!(
                            "{}: {} -> {start}",
                            folder.display(),
                            path.join(" -> ")
                        ));
                    } else if seen.insert(next.clone()) {
                        let mut longer = path.clone();
                        longer.push(next.clone());
                        stack.push(longer);
                    }
                }
            }
        }
    }
    assert!(circles.is_empty(), "{circles:#?}");
}

/// A provider's variant (`Provider::Gemini`) is named only in the enum's file, the one
/// dispatcher, and the provider's own folder: its facts live there, behind one value.
#[test]
fn a_provider_variant_is_named_only_by_the_enum_the_dispatcher_and_its_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let variants = [
        ("OpenAiResponses", "openai_responses"),
        ("OpenAi", "openai"),
        ("Anthropic", "anthropic"),
        ("Gemini", "gemini"),
        ("Bedrock", "bedrock"),
        ("Compatible", "openai"),
    ];
    let mut found = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&src).unwrap();
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        if top == "provider.rs" || top == "any_provider.rs" {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        for (variant, folder) in variants {
            let named = text
                .match_indices(&format!("Provider::{variant}"))
                .any(|(at, whole)| {
                    !text[at + whole.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
                });
            if named && top != folder {
                found.push(format!("{}: Provider::{variant}", relative.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
