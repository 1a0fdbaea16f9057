//! The floor plan of docs/architecture.md, kept true (issue 32). Pure file reading, no
//! compiling: the code under src/ is scanned for the paths it names (`use crate::...`,
//! `crate::x::f()`, `super::...`, grouped `use crate::{a, b::c}`, the crate's exported
//! macros such as `t!`), with comments, strings and `#[cfg(test)]` items left out.
//!
//! - Every module imports only modules on lower floors of the plan's table (on the top floor,
//!   start-up code, also its neighbours), never one its row forbids, and no cycle at all.
//! - No loop of files (test support under `src/testing` included): a file imports another when one of its `crate::`/`super::`/`self::`
//!   paths names that file's module (a `mod.rs` naming its own children by their bare names,
//!   `pub use child::Thing`, is how a folder is declared and does not count).
//! - Every source path (`src/...`, `tests/...`, `benches/...`, `examples/...`) named in
//!   README.md and docs/*.md exists.
//! - No soak (`tests/telegram/soak*.rs`, `tests/discord/soak*.rs`) lifts the platforms'
//!   flood limits (issue 49: a soak shows the bot within what Telegram and Discord allow).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------------------
// Reading Rust source: comments, strings and character literals blanked out (newlines kept,
// so line numbers stay right), then split into identifiers and punctuation.

/// `text` with comments and literals replaced by spaces.
fn blank_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&c, i) {
            for &ch in &c[i..end] {
                blank(&mut out, ch);
            }
            i = end;
        } else if c[i] == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{41}'), else a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 3..c.len()).find(|&j| c[j] == '\'').map(|j| j + 1)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    for _ in i..end {
                        out.push(' ');
                    }
                    i = end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The end of a raw string (`r"..."`, `r#"..."#`, `br"..."`) starting at `i`, if one does.
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    if i > 0 && is_ident_char(c[i - 1]) {
        return None;
    }
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&ch| ch == '#').count();
    j += hashes;
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"'
            && c[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&ch| ch == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}

fn is_ident_char(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Tokens with their line numbers.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = blank_literals(text).chars().collect();
    let (mut out, mut line, mut i) = (Vec::new(), 1, 0);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_ident_char(ch) || ch == '$' {
            let start = i;
            i += 1;
            while i < c.len() && is_ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            out.push((Tok::Ident(word.trim_start_matches('$').to_string()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The paths a file names.

/// A path named in a file, made absolute (module names from the crate root), with its line.
struct Named {
    path: Vec<String>,
    line: usize,
}

/// What a file says outside its tests: the paths it names, and the files its
/// `#[cfg(test)] mod x;` declares (test code, left out).
struct Scan {
    named: Vec<Named>,
    test_children: Vec<String>,
}

/// The module path of a file under src/: `manager/game.rs` -> [manager, game],
/// `manager/mod.rs` -> [manager], `lib.rs` and `main.rs` -> [].
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] || parts == ["main"] {
        parts.pop();
    }
    parts
}

fn scan(text: &str, module: &[String], crate_names: &[&str]) -> Scan {
    let toks = tokens(text);
    let mut named = Vec::new();
    let mut test_children = Vec::new();
    // Inline modules (`mod stages { ... }`) and the brace depth each was opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Tok::Punct('#') if is_test_attribute(&toks, i) => {
                let close = matching(&toks, i + 1);
                i = skip_item(&toks, close + 1, &mut test_children);
                continue;
            }
            Tok::Ident(word) if word == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct('{'), _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                }
            }
            Tok::Ident(word)
                if toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Path)
                    && !matches!(i.checked_sub(1).map(|p| &toks[p].0), Some(Tok::Path))
                    && (word == "super"
                        || word == "self"
                        || crate_names.contains(&word.as_str())) =>
            {
                let here: Vec<String> = module
                    .iter()
                    .cloned()
                    .chain(inline.iter().map(|(n, _)| n.clone()))
                    .collect();
                let line = toks[i].1;
                let (paths, end) = use_tree(&toks, i);
                for path in paths {
                    if let Some(path) = absolute(&path, &here, crate_names) {
                        named.push(Named { path, line });
                    }
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Scan {
        named,
        test_children,
    }
}

/// Whether the attribute at `i` (`#[...]`) is `#[cfg(test)]` or `#[cfg(all(test, ...))]`.
fn is_test_attribute(toks: &[(Tok, usize)], i: usize) -> bool {
    let words: Vec<&Tok> = toks[i..].iter().take(7).map(|t| &t.0).collect();
    let ident = |w: &str| Tok::Ident(w.to_string());
    let starts = |rest: &[Tok]| {
        words.len() > rest.len() && words[1..=rest.len()].iter().zip(rest).all(|(a, b)| *a == b)
    };
    starts(&[
        Tok::Punct('['),
        ident("cfg"),
        Tok::Punct('('),
        ident("test"),
        Tok::Punct(')'),
    ]) || starts(&[
        Tok::Punct('['),
        ident("cfg"),
        Tok::Punct('('),
        ident("all"),
        Tok::Punct('('),
        ident("test"),
    ])
}

/// The index of the bracket closing the one opened at `open`.
fn matching(toks: &[(Tok, usize)], open: usize) -> usize {
    let mut depth = 0i32;
    for (j, (t, _)) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    toks.len().saturating_sub(1)
}

/// Skips the item starting at `i` (after a test attribute): up to its `;` or the end of its
/// first `{...}` block. Returns the index after it; a `mod x;` is noted as a test file.
fn skip_item(toks: &[(Tok, usize)], mut i: usize, test_children: &mut Vec<String>) -> usize {
    // Further attributes of the same item.
    while toks.get(i).map(|t| &t.0) == Some(&Tok::Punct('#')) {
        i = matching(toks, i + 1) + 1;
    }
    let start = i;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct(';') => {
                if let Some(Tok::Ident(name)) = toks[start..i]
                    .iter()
                    .position(|t| t.0 == Tok::Ident("mod".into()))
                    .and_then(|p| toks.get(start + p + 1))
                    .map(|t| &t.0)
                {
                    test_children.push(name.clone());
                }
                return i + 1;
            }
            Tok::Punct('{') => return matching(toks, i) + 1,
            Tok::Punct('(' | '[') => i = matching(toks, i) + 1,
            _ => i += 1,
        }
    }
    i
}

/// The paths of a path or use tree starting at `i` (`crate::a::{b, c::{self, d}}`), each as
/// written, and the index after it.
fn use_tree(toks: &[(Tok, usize)], i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    let mut i = i;
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Ident(word)) => {
                prefix.push(word.clone());
                i += 1;
            }
            _ => return (vec![prefix], i),
        }
        if toks.get(i).map(|t| &t.0) != Some(&Tok::Path) {
            return (vec![prefix], i);
        }
        i += 1;
        if toks.get(i).map(|t| &t.0) == Some(&Tok::Punct('{')) {
            let close = matching(toks, i);
            let mut paths = Vec::new();
            let mut j = i + 1;
            while j < close {
                match &toks[j].0 {
                    Tok::Ident(word) if word == "as" => j += 2,
                    Tok::Ident(word) if word == "self" => {
                        paths.push(prefix.clone());
                        j += 1;
                    }
                    Tok::Ident(_) => {
                        let (inner, end) = use_tree(toks, j);
                        paths.extend(inner.into_iter().map(|p| {
                            let mut full = prefix.clone();
                            full.extend(p);
                            full
                        }));
                        j = end;
                    }
                    _ => j += 1,
                }
            }
            if paths.is_empty() {
                paths.push(prefix);
            }
            return (paths, close + 1);
        }
    }
}

/// `path` from the crate root, as seen from module `here`.
fn absolute(path: &[String], here: &[String], crate_names: &[&str]) -> Option<Vec<String>> {
    let first = path.first()?;
    if crate_names.contains(&first.as_str()) {
        return Some(path[1..].to_vec());
    }
    let mut base = here.to_vec();
    let mut rest = path;
    while rest.first().is_some_and(|s| s == "super" || s == "self") {
        if rest[0] == "super" {
            base.pop()?;
        }
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

// ---------------------------------------------------------------------------------------
// The crate's files.

struct File {
    /// Relative to the repository, for messages: `src/manager/game.rs`.
    shown: String,
    module: Vec<String>,
    scan: Scan,
}

/// Every non-test .rs file under src/ (`testing`, the test-support feature, left out), with
/// the macros the crate exports (`t` -> the module path of the file defining it).
fn crate_files() -> (Vec<File>, BTreeMap<String, Vec<String>>) {
    source_files(false)
}

/// `crate_files`, with the test support under `src/testing` too when `with_testing` (it is
/// on no floor of the plan, but its files must not loop either).
fn source_files(with_testing: bool) -> (Vec<File>, BTreeMap<String, Vec<String>>) {
    let src = root().join("src");
    let mut paths = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut files = Vec::new();
    let mut macros = BTreeMap::new();
    for path in paths {
        let rel = path.strip_prefix(&src).expect("under src/");
        let module = module_of(rel);
        let is_test = (!with_testing && module.first().is_some_and(|m| m == "testing"))
            || module.iter().any(|m| m == "tests");
        if is_test {
            continue;
        }
        let text = fs::read_to_string(&path).expect("a source file is readable");
        for (k, line) in text.lines().enumerate() {
            if line.trim() == "#[macro_export]" {
                let next = text.lines().nth(k + 1).unwrap_or("");
                if let Some(name) = next.trim().strip_prefix("macro_rules!") {
                    let name = name.trim().trim_end_matches('{').trim().to_string();
                    macros.insert(name, module.clone());
                }
            }
        }
        let is_main = rel == Path::new("main.rs");
        let names: &[&str] = if is_main {
            &["crate", "toguz"]
        } else {
            &["crate"]
        };
        let scan = scan(&text, &module, names);
        files.push(File {
            shown: format!("src/{}", rel.display()),
            module,
            scan,
        });
    }
    // Files declared by `#[cfg(test)] mod x;` are test code too.
    let test_files: BTreeSet<Vec<String>> = files
        .iter()
        .flat_map(|f| {
            f.scan.test_children.iter().map(move |c| {
                let mut m = f.module.clone();
                m.push(c.clone());
                m
            })
        })
        .collect();
    files.retain(|f| !test_files.contains(&f.module));
    (files, macros)
}

// ---------------------------------------------------------------------------------------
// The plan: docs/architecture.md's table.

struct Floor {
    floor: u32,
    /// `platform/present` -> [platform, present]
    module: Vec<String>,
    never: Vec<Vec<String>>,
}

/// The rows of the floor plan: `| floor | `module` | owns | may import | never imports |`.
fn floor_plan() -> Vec<Floor> {
    let doc = fs::read_to_string(root().join("docs/architecture.md"))
        .expect("docs/architecture.md exists");
    let mut plan = Vec::new();
    for line in doc.lines() {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        if cells.len() < 5 || !line.trim_start().starts_with('|') {
            continue;
        }
        let Ok(floor) = cells[0].trim().parse::<u32>() else {
            continue;
        };
        let names = |cell: &str| -> Vec<Vec<String>> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(|n| n.split('/').map(str::to_string).collect())
                .collect()
        };
        let modules = names(cells[1]);
        assert_eq!(
            modules.len(),
            1,
            "one module per row of the floor plan: {line}"
        );
        plan.push(Floor {
            floor,
            module: modules[0].clone(),
            never: names(cells[4]),
        });
    }
    assert!(
        plan.len() > 10,
        "docs/architecture.md has no floor plan table ({} rows)",
        plan.len()
    );
    plan
}

/// The row of the plan a module path belongs to: the longest module of the plan that
/// begins it.
/// The module of the file that defines the exported macro `path` names (`crate::t`, `t!`).
fn macro_home<'m>(
    path: &[String],
    macros: &'m BTreeMap<String, Vec<String>>,
) -> Option<&'m Vec<String>> {
    match path {
        [name] => macros.get(name),
        _ => None,
    }
}

fn row_of<'p>(plan: &'p [Floor], path: &[String]) -> Option<&'p Floor> {
    plan.iter()
        .filter(|f| path.starts_with(&f.module))
        .max_by_key(|f| f.module.len())
}

fn shown(module: &[String]) -> String {
    module.join("/")
}

// ---------------------------------------------------------------------------------------
// Cycles.

/// The strongly connected components of more than one node (Tarjan).
fn cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on: BTreeSet<N>,
        out: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(v: &N, edges: &BTreeMap<N, BTreeSet<N>>, s: &mut State<N>) {
        let n = s.index.len();
        s.index.insert(v.clone(), n);
        s.low.insert(v.clone(), n);
        s.stack.push(v.clone());
        s.on.insert(v.clone());
        for w in edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, edges, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v.clone(), low);
            } else if s.on.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(&w);
                let done = &w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(v, edges, &mut s);
        }
    }
    s.out
}

// ---------------------------------------------------------------------------------------
// The tests.

#[test]
fn modules_import_only_downward() {
    let plan = floor_plan();
    let top = plan.iter().map(|f| f.floor).max().unwrap_or(0);
    let (files, macros) = crate_files();
    let mut problems = Vec::new();
    // Module -> module, with the first place each edge is made.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let mut first_at: BTreeMap<(Vec<String>, Vec<String>), String> = BTreeMap::new();
    for file in &files {
        if file.module.is_empty() && !file.shown.ends_with("main.rs") {
            continue; // lib.rs declares the modules and holds nothing else
        }
        let module = if file.shown.ends_with("main.rs") {
            vec!["main".to_string()]
        } else {
            file.module.clone()
        };
        let Some(from) = row_of(&plan, &module) else {
            problems.push(format!(
                "{}: module `{}` is not on the floor plan (docs/architecture.md)",
                file.shown,
                shown(&module)
            ));
            continue;
        };
        for named in &file.scan.named {
            let path = macro_home(&named.path, &macros).unwrap_or(&named.path);
            let Some(to) = row_of(&plan, path) else {
                problems.push(format!(
                    "{}:{}: names `crate::{}`, which is on no floor of the plan",
                    file.shown,
                    named.line,
                    path.join("::")
                ));
                continue;
            };
            if to.module == from.module {
                continue;
            }
            let at = format!("{}:{}", file.shown, named.line);
            if to.floor > from.floor || (to.floor == from.floor && from.floor != top) {
                problems.push(format!(
                    "{at}: `{}` (floor {}) imports `{}` (floor {}): only lower floors",
                    shown(&from.module),
                    from.floor,
                    shown(&to.module),
                    to.floor
                ));
            }
            if from.never.iter().any(|n| to.module.starts_with(n)) {
                problems.push(format!(
                    "{at}: `{}` must never import `{}` (docs/architecture.md)",
                    shown(&from.module),
                    shown(&to.module)
                ));
            }
            edges
                .entry(from.module.clone())
                .or_default()
                .insert(to.module.clone());
            first_at
                .entry((from.module.clone(), to.module.clone()))
                .or_insert(at);
        }
    }
    for cycle in cycles(&edges) {
        let mut ties = Vec::new();
        for a in &cycle {
            for b in edges[a].iter().filter(|b| cycle.contains(b)) {
                let at = &first_at[&(a.clone(), b.clone())];
                ties.push(format!("{} -> {} ({at})", shown(a), shown(b)));
            }
        }
        problems.push(format!("import cycle between modules: {}", ties.join(", ")));
    }
    assert!(
        problems.is_empty(),
        "the code does not follow the floor plan:\n{}",
        problems.join("\n")
    );
}

#[test]
fn no_loop_of_files() {
    // Test support included: a loop there is as hard to change as anywhere.
    let (files, macros) = source_files(true);
    let by_module: BTreeMap<&[String], &File> = files
        .iter()
        .filter(|f| !f.shown.ends_with("main.rs"))
        .map(|f| (f.module.as_slice(), f))
        .collect();
    // The file a path names: the longest module path of a file that begins it.
    let file_of = |path: &[String]| -> Option<&File> {
        (1..=path.len())
            .rev()
            .find_map(|n| by_module.get(&path[..n]).copied())
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut first_at: BTreeMap<(String, String), usize> = BTreeMap::new();
    for file in by_module.values() {
        for named in &file.scan.named {
            let path = macro_home(&named.path, &macros).unwrap_or(&named.path);
            let Some(target) = file_of(path) else {
                continue;
            };
            if target.shown == file.shown {
                continue;
            }
            edges
                .entry(file.shown.clone())
                .or_default()
                .insert(target.shown.clone());
            first_at
                .entry((file.shown.clone(), target.shown.clone()))
                .or_insert(named.line);
        }
    }
    let mut problems = Vec::new();
    for cycle in cycles(&edges) {
        let mut ties = Vec::new();
        for a in &cycle {
            for b in edges[a].iter().filter(|b| cycle.contains(b)) {
                ties.push(format!("{a}:{} -> {b}", first_at[&(a.clone(), b.clone())]));
            }
        }
        problems.push(format!(
            "files import each other in a loop: {}\n    {}",
            cycle.join(", "),
            ties.join("\n    ")
        ));
    }
    assert!(
        problems.is_empty(),
        "move what the files share down into a file of its own:\n{}",
        problems.join("\n")
    );
}

#[test]
fn soaks_never_lift_the_flood_limits() {
    // The ways a test lifts them: `Lifted` (src/testing/lifted.rs) and the bot's own config.
    let lifts = [
        "Lifted",
        "lift_limits",
        "start_lifted",
        "posts_per_minute",
        "burst",
    ];
    let mut problems = Vec::new();
    let mut soaks = 0;
    for dir in ["tests/telegram", "tests/discord"] {
        for entry in fs::read_dir(root().join(dir)).expect("the tests are readable") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if !name.is_some_and(|n| n.starts_with("soak") && n.ends_with(".rs")) {
                continue;
            }
            soaks += 1;
            // Code and strings (a config line is a string), not comments.
            let text: String = fs::read_to_string(&path)
                .expect("a soak is readable")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect();
            for lift in lifts.iter().filter(|l| text.contains(*l)) {
                problems.push(format!("{}: `{lift}`", path.display()));
            }
        }
    }
    assert_eq!(soaks, 2, "the Telegram and the Discord soak");
    assert!(
        problems.is_empty(),
        "a soak runs at the platforms' real limits, never lifted:\n{}",
        problems.join("\n")
    );
}

/// `src/platform/{console,telegram}` -> both paths.
fn expand_braces(path: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (path.find('{'), path.find('}')) else {
        return vec![path.to_string()];
    };
    if close < open {
        return vec![path[..open.min(close)].to_string()];
    }
    path[open + 1..close]
        .split(',')
        .flat_map(|alt| {
            expand_braces(&format!(
                "{}{}{}",
                &path[..open],
                alt.trim(),
                &path[close + 1..]
            ))
        })
        .collect()
}

/// The source paths a document names: words starting `src/`, `tests/`, `benches/` or
/// `examples/` (at the start of a word), up to the first character that cannot be in one.
fn source_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (start, _) in text.char_indices() {
        let rest = &text[start..];
        if !["src/", "tests/", "benches/", "examples/"]
            .iter()
            .any(|p| rest.starts_with(p))
        {
            continue;
        }
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| is_ident_char(c) || c == '/' || c == '.' || c == '-') {
            continue;
        }
        let end = rest
            .find(|c: char| !(is_ident_char(c) || "/.{},-".contains(c)))
            .unwrap_or(rest.len());
        let mut word = &rest[..end];
        // Braces only in pairs; a trailing full stop or comma is the sentence's.
        if word.matches('{').count() != word.matches('}').count() {
            word = &word[..word.find('{').unwrap_or(word.len())];
        }
        let word = word.trim_end_matches(['.', ',', '-']);
        out.extend(expand_braces(word));
    }
    out
}

#[test]
fn paths_named_in_the_docs_exist() {
    let root = root();
    let mut docs = vec![root.join("README.md")];
    let mut in_docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    in_docs.sort();
    docs.extend(in_docs);
    let mut missing = Vec::new();
    for doc in &docs {
        let text = fs::read_to_string(doc).expect("a document is readable");
        let shown_doc = doc.strip_prefix(&root).unwrap_or(doc).display().to_string();
        for (n, line) in text.lines().enumerate() {
            for path in source_paths(line) {
                // A module may be named without its `.rs` (`src/platform/{console,telegram}`).
                let module_file = root.join(format!("{path}.rs"));
                let exists =
                    root.join(&path).exists() || (path.starts_with("src/") && module_file.exists());
                if !exists {
                    missing.push(format!("{shown_doc}:{}: {path}", n + 1));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the docs name source paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scanner_reads_what_it_should() {
    let module = vec!["render".to_string()];
    let text = r##"
use crate::i18n::{words::side_name, Lang};
// use crate::store::Store;
const S: &str = "crate::manager::Manager";
const R: &str = r#"crate::cli"#;
const C: char = '{';
pub mod stages {
    use super::{png, BoardView};
}
fn f<'a>(x: &'a str) -> &'a str { crate::rules::noop(); x }
#[cfg(test)]
mod tests {
    use crate::platform::present;
}
#[cfg(test)]
mod more;
"##;
    let s = scan(text, &module, &["crate"]);
    let paths: Vec<String> = s.named.iter().map(|n| n.path.join("::")).collect();
    assert_eq!(
        paths,
        [
            "i18n::words::side_name",
            "i18n::Lang",
            "render::png",
            "render::BoardView",
            "rules::noop"
        ]
    );
    assert_eq!(s.named[0].line, 2);
    assert_eq!(s.test_children, ["more"]);
    assert_eq!(
        source_paths("see `src/platform/{console,telegram}.rs`, tests/data. and xsrc/no"),
        [
            "src/platform/console.rs",
            "src/platform/telegram.rs",
            "tests/data"
        ]
    );
}
