//! The HTML report (`--report FILE.html`) through the CLI: the page is written, is
//! well-formed (every tag closed in order, every `&` an entity, no script, no reference
//! outside the file), carries the verdicts, and its step tables hold exactly the states
//! of the counterexample: the values and the marked cells of every row are recomputed
//! here by a hand-written semantics of `families/mutex_bug.cub` (four transitions, below),
//! not read from nfold. A lasso's table is checked against the property it violates. The
//! last test loads the page in headless Chromium (skipped with a notice when it is not
//! installed; `.ci/run` installs it on Debian) and finds the map and a trace in the DOM.

use crate::common;

use common::{fresh_dir, nfold, scratch_dir};
use std::collections::{BTreeMap, BTreeSet};

/// An element of the page: name, attributes, children, and its own text.
#[derive(Debug, Default)]
struct El {
    name: String,
    attrs: BTreeMap<String, String>,
    children: Vec<El>,
    text: String,
}

/// Elements that have no closing tag.
const VOID: &[&str] = &["meta", "br", "hr", "wbr", "col"];
/// Elements and attributes that would load something or run code.
const FORBIDDEN: &[&str] = &[
    "script", "link", "img", "iframe", "object", "embed", "base", "form", "video", "audio",
];

/// The text with its five entities decoded; any other `&` is an error.
fn decode(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let (ent, c) = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#39;", '\''),
        ]
        .into_iter()
        .find(|(e, _)| after.starts_with(e))
        .ok_or_else(|| format!("a bare `&`: {:?}", &after[..after.len().min(20)]))?;
        out.push(c);
        rest = &after[ent.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The page as a tree, or why it is not well-formed: an unclosed or misnested tag, a
/// bare `<` or `&`, an unquoted attribute, a forbidden element.
fn parse(html: &str) -> Result<El, String> {
    let mut stack = vec![El {
        name: "#document".into(),
        ..El::default()
    }];
    let mut rest = html;
    while !rest.is_empty() {
        let Some(i) = rest.find('<') else {
            if rest.contains('>') {
                return Err(format!("a bare `>` in {rest:?}"));
            }
            stack.last_mut().unwrap().text.push_str(&decode(rest)?);
            break;
        };
        let text = &rest[..i];
        if text.contains('>') {
            return Err(format!("a bare `>` in {text:?}"));
        }
        stack.last_mut().unwrap().text.push_str(&decode(text)?);
        rest = &rest[i..];
        let end = rest.find('>').ok_or("a `<` never closed")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(decl) = tag.strip_prefix('!') {
            if !decl.eq_ignore_ascii_case("DOCTYPE html") {
                return Err(format!("unexpected declaration <{tag}>"));
            }
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().unwrap();
            if open.name != name {
                return Err(format!("</{name}> closes <{}>", open.name));
            }
            stack.last_mut().unwrap().children.push(open);
            continue;
        }
        let (name, mut attrs_text) = tag.split_once(' ').unwrap_or((tag, ""));
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("a bare `<` or a bad tag: <{tag}>"));
        }
        if FORBIDDEN.contains(&name) {
            return Err(format!("forbidden element <{name}>"));
        }
        let mut attrs = BTreeMap::new();
        loop {
            attrs_text = attrs_text.trim_start();
            if attrs_text.is_empty() {
                break;
            }
            // The one boolean attribute the page uses.
            if let Some(after) = attrs_text.strip_prefix("open")
                && (after.is_empty() || after.starts_with(' '))
            {
                attrs.insert("open".to_string(), String::new());
                attrs_text = after;
                continue;
            }
            let (key, after) = attrs_text
                .split_once("=\"")
                .ok_or_else(|| format!("unquoted attribute in <{tag}>"))?;
            let close = after
                .find('"')
                .ok_or_else(|| format!("unclosed attribute in <{tag}>"))?;
            attrs.insert(key.to_string(), decode(&after[..close])?);
            attrs_text = &after[close + 1..];
        }
        let el = El {
            name: name.into(),
            attrs,
            ..El::default()
        };
        if VOID.contains(&name) {
            stack.last_mut().unwrap().children.push(el);
        } else if name == "style" {
            // Raw text up to its end tag.
            let close = rest.find("</style>").ok_or("<style> never closed")?;
            let css = &rest[..close];
            for bad in ["url(", "@import", "http:", "https:"] {
                if css.contains(bad) {
                    return Err(format!("the style sheet loads something: {bad}"));
                }
            }
            rest = &rest[close + "</style>".len()..];
            stack.last_mut().unwrap().children.push(El {
                text: css.into(),
                ..el
            });
        } else {
            stack.push(el);
        }
    }
    if stack.len() != 1 {
        let open: Vec<&str> = stack.iter().map(|e| e.name.as_str()).collect();
        return Err(format!("unclosed elements: {open:?}"));
    }
    Ok(stack.pop().unwrap())
}

impl El {
    /// Every element below this one (this one included), depth first.
    fn all(&self) -> Vec<&El> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.all());
        }
        out
    }

    fn find_all(&self, f: impl Fn(&El) -> bool) -> Vec<&El> {
        self.all().into_iter().filter(|e| f(e)).collect()
    }

    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs.get(k).map(String::as_str)
    }

    fn has_class(&self, c: &str) -> bool {
        self.attr("class")
            .is_some_and(|v| v.split(' ').any(|x| x == c))
    }

    /// All the text inside, in order.
    fn text_all(&self) -> String {
        let mut s = self.text.clone();
        for c in &self.children {
            s.push_str(&c.text_all());
        }
        s
    }
}

/// No attribute of the page points outside it: links are fragments (`#...`), and no
/// element has a source.
fn self_contained(doc: &El) {
    for e in doc.all() {
        for (k, v) in &e.attrs {
            assert!(
                !matches!(k.as_str(), "src" | "srcset" | "action" | "data" | "poster"),
                "<{}> loads {v}",
                e.name
            );
            if k == "href" {
                assert!(v.starts_with('#'), "a link outside the page: {v}");
            }
            assert!(!k.starts_with("on"), "an event handler: {k}");
        }
    }
}

/// Runs nfold with `--report` into a scratch file: exit code, stdout, the page.
fn report(name: &str, args: &[&str]) -> (i32, String, String) {
    let file = fresh_dir(&format!("report-{name}")).join("r.html");
    let path = file.to_str().unwrap().to_string();
    let mut a = args.to_vec();
    a.extend(["--report", &path]);
    let (code, out, err) = nfold(&a);
    let page = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("no report written ({e}):\n{out}\n{err}"));
    (code, out, page)
}

/// The verdict cells of the map: (size, property) -> `data-verdict`.
fn map_cells(doc: &El) -> BTreeMap<(usize, String), String> {
    let map = doc.find_all(|e| e.name == "table" && e.attr("id") == Some("map"));
    assert_eq!(map.len(), 1, "one verdict map");
    map[0]
        .find_all(|e| e.name == "td" && e.attr("data-verdict").is_some())
        .into_iter()
        .map(|td| {
            (
                (
                    td.attr("data-size").unwrap().parse().unwrap(),
                    td.attr("data-property").unwrap().to_string(),
                ),
                td.attr("data-verdict").unwrap().to_string(),
            )
        })
        .collect()
}

/// One row of a step table: its step label (`None` for the initial state), its cycle
/// column, the value of every cell, and the cells marked as changed.
#[derive(Debug)]
struct StepRow {
    label: Option<(String, Vec<i64>)>,
    classes: String,
    cells: BTreeMap<String, String>,
    marked: Vec<String>,
}

/// The rows of the step table of the counterexample section `sec`.
fn step_rows(sec: &El) -> Vec<StepRow> {
    let table = sec.find_all(|e| e.name == "table" && e.has_class("steps"));
    assert_eq!(table.len(), 1);
    table[0]
        .find_all(|e| e.name == "tr" && e.has_class("state"))
        .into_iter()
        .map(|tr| {
            let tds: Vec<&El> = tr.children.iter().filter(|c| c.name == "td").collect();
            let label = tds[2].text_all();
            let label = (label != "(initial)").then(|| {
                let (name, params) = label.trim_end_matches(')').split_once('(').unwrap();
                let params = params
                    .split(", ")
                    .filter(|p| !p.is_empty())
                    .map(|p| p.parse().unwrap())
                    .collect();
                (name.to_string(), params)
            });
            let mut cells = BTreeMap::new();
            let mut marked = Vec::new();
            for td in tds.iter().filter(|td| td.attr("data-cell").is_some()) {
                let c = td.attr("data-cell").unwrap().to_string();
                // The value, without the star that marks a change.
                let v = td.text_all().trim_end_matches('*').to_string();
                if td.has_class("chg") {
                    marked.push(c.clone());
                }
                cells.insert(c, v);
            }
            StepRow {
                label,
                classes: tr.attr("class").unwrap_or("").to_string(),
                cells,
                marked,
            }
        })
        .collect()
}

/// `families/mutex_bug.cub` by hand: one step from `s` (cell -> value), or `None` when
/// its guard is false.
fn mutex_bug_step(
    s: &BTreeMap<String, String>,
    t: &str,
    i: i64,
) -> Option<BTreeMap<String, String>> {
    let a = format!("A[{i}]");
    let mut n = s.clone();
    let set = |n: &mut BTreeMap<String, String>, c: &str, v: &str| {
        n.insert(c.to_string(), v.to_string());
    };
    match (t, s[&a].as_str(), s["Sem"].as_str()) {
        ("req", "Idle", _) => set(&mut n, &a, "Want"),
        ("test", "Want", "False") => set(&mut n, &a, "Ready"),
        ("enter", "Ready", _) => {
            set(&mut n, &a, "Crit");
            set(&mut n, "Sem", "True");
        }
        ("exit", "Crit", _) => {
            set(&mut n, &a, "Idle");
            set(&mut n, "Sem", "False");
        }
        _ => return None,
    }
    Some(n)
}

#[test]
fn check_report_holds_the_verdicts_and_the_counterexample_steps() {
    let (code, out, page) = report(
        "bug",
        &[
            "check",
            "families/mutex_bug.cub",
            "--sizes",
            "1..2",
            "--engine",
            "explicit",
        ],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("report written to"), "{out}");
    let doc = parse(&page).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    self_contained(&doc);
    // The family's header: `mutex` holds at n = 1 and is violated from n = 2 on.
    let cells = map_cells(&doc);
    assert_eq!(
        cells,
        BTreeMap::from([
            ((1, "mutex".to_string()), "holds".to_string()),
            ((2, "mutex".to_string()), "violated".to_string()),
        ])
    );
    let secs = doc.find_all(|e| e.name == "section" && e.has_class("cex"));
    assert_eq!(secs.len(), 1, "one counterexample (size 2)");
    assert_eq!(secs[0].attr("data-size"), Some("2"));
    let rows = step_rows(secs[0]);
    // Both processes need req, test and enter (3 steps each) to be critical, and both
    // must test before either enters (enter sets Sem, test needs it False; an exit to
    // reset it costs steps): the shortest counterexample has 6 steps, two of each.
    assert_eq!(rows.len(), 7, "the initial state and 6 steps");
    let mut names: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r.label.as_ref().unwrap().0.as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["enter", "enter", "req", "req", "test", "test"]);
    // Every row is the hand semantics applied to the one above it, and the marked cells
    // are exactly those that changed.
    let mut state: BTreeMap<String, String> =
        [("Sem", "False"), ("A[1]", "Idle"), ("A[2]", "Idle")]
            .iter()
            .map(|(c, v)| (c.to_string(), v.to_string()))
            .collect();
    assert_eq!(rows[0].cells, state);
    assert!(rows[0].marked.is_empty());
    for r in &rows[1..] {
        let (t, params) = r.label.as_ref().unwrap();
        let next = mutex_bug_step(&state, t, params[0])
            .unwrap_or_else(|| panic!("{t}({}) not enabled in {state:?}", params[0]));
        let changed: BTreeSet<String> = next
            .iter()
            .filter(|(c, v)| state[*c] != **v)
            .map(|(c, _)| c.clone())
            .collect();
        assert_eq!(r.cells, next, "{t}{params:?}");
        assert_eq!(
            r.marked.iter().cloned().collect::<BTreeSet<_>>(),
            changed,
            "{t}{params:?}"
        );
        state = next;
    }
    assert_eq!(
        (state["A[1]"].as_str(), state["A[2]"].as_str()),
        ("Crit", "Crit")
    );
    // The `$` picture: size 2 of the aggregate of 2 slots, both present.
    let pic = doc.find_all(|e| e.name == "table" && e.attr("id") == Some("picture"));
    assert_eq!(pic.len(), 1);
    let slots: Vec<String> = pic[0]
        .find_all(|e| e.name == "td")
        .iter()
        .map(|td| td.text_all())
        .collect();
    assert_eq!(slots, ["-", "-"]);
}

#[test]
fn live_report_marks_the_lasso_cycle() {
    let (code, out, page) = report("lasso", &["live", "families/mutex.cub", "--size", "2"]);
    assert_eq!(code, 1, "{out}");
    let doc = parse(&page).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    self_contained(&doc);
    // The family's header: starvation_free is violated at n >= 2.
    assert_eq!(
        map_cells(&doc),
        BTreeMap::from([((2, "starvation_free".to_string()), "violated".to_string())])
    );
    let secs = doc.find_all(|e| e.name == "section" && e.has_class("cex"));
    assert_eq!(secs.len(), 1);
    assert_eq!(secs[0].attr("data-kind"), Some("lasso"));
    let l: usize = secs[0].attr("data-loop-start").unwrap().parse().unwrap();
    let i = secs[0].attr("data-process").unwrap();
    let rows = step_rows(secs[0]);
    assert!(l < rows.len() - 1, "a cycle of at least one step");
    // The rows after the loop's start are the cycle's, and the start is marked.
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(
            r.classes.contains("in-cycle"),
            k > l,
            "row {k}: {}",
            r.classes
        );
        assert_eq!(r.classes.contains("loop-start"), k == l, "row {k}");
    }
    // The cycle returns to its start.
    assert_eq!(rows[rows.len() - 1].cells, rows[l].cells);
    // G (A[i] = Want => F A[i] = Crit) fails forever only if process i wants and never
    // gets in: from Want the only move is to Crit, so A[i] = Want all along the cycle.
    let a = format!("A[{i}]");
    for r in &rows[l..] {
        assert_eq!(r.cells[&a], "Want", "{r:?}");
    }
    let back = doc.find_all(|e| e.name == "tr" && e.has_class("back"));
    assert_eq!(back.len(), 1);
    assert!(back[0].text_all().contains(&format!("back to state {l}")));
}

#[test]
fn model_provided_text_is_escaped() {
    // The model's name (its path) and the lemmas of the invariant (`&&`) carry markup
    // characters; the page must stay well-formed and show them as text.
    let dir = fresh_dir("report-escape");
    let model = dir.join("x<i & \"y\" 'z'.cub");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/families/mutex.cub"),
        &model,
    )
    .unwrap();
    let (code, out, page) = report(
        "escape-out",
        &[
            "check",
            model.to_str().unwrap(),
            "--sizes",
            "1..2",
            "--engine",
            "ic3",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let doc = parse(&page).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    self_contained(&doc);
    assert!(!page.contains("x<i"), "a raw `<` from the model's name");
    assert!(page.contains("x&lt;i &amp; &quot;y&quot; &#39;z&#39;.cub"));
    let title = doc.find_all(|e| e.name == "title");
    assert!(title[0].text_all().ends_with("x<i & \"y\" 'z'.cub"));
    // mutex's invariant needs a lemma with a conjunction (two processes critical).
    let lemmas = doc.find_all(|e| e.name == "ol" && e.has_class("lemmas"));
    assert_eq!(lemmas.len(), 1);
    assert!(lemmas[0].text_all().contains("&&"));
    assert!(page.contains("&amp;&amp;"));
    assert_eq!(
        map_cells(&doc).values().collect::<Vec<_>>(),
        ["holds", "holds"]
    );
}

#[test]
fn an_unwritable_report_is_refused_before_the_run() {
    let (code, _, err) = nfold(&[
        "check",
        "families/mutex.cub",
        "--size",
        "2",
        "--report",
        "/nonexistent-dir/r.html",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot write the report to /nonexistent-dir/r.html"),
        "{err}"
    );
}

#[test]
fn the_parser_refuses_what_a_page_must_not_hold() {
    assert!(parse("<p>a</p>").is_ok());
    assert!(parse("<p>a & b</p>").is_err());
    assert!(parse("<p><b>a</p></b>").is_err());
    assert!(parse("<p>a").is_err());
    assert!(parse("<p>a < b</p>").is_err());
    assert!(parse("<script>x</script>").is_err());
    assert!(parse("<style>a { background: url(x.png) }</style>").is_err());
}

/// The Chromium binary, if installed.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
fn chromium_renders_the_map_and_a_trace() {
    let Some(bin) = chromium() else {
        eprintln!("chromium is not installed: the browser test of the report is skipped");
        return;
    };
    let dir = fresh_dir("report-chromium");
    let (code, _, _) = report(
        "chromium-page",
        &[
            "check",
            "families/mutex_bug.cub",
            "--sizes",
            "1..2",
            "--engine",
            "explicit",
        ],
    );
    assert_eq!(code, 1);
    // The page `report` wrote: its scratch directory, named the same way.
    let page = scratch_dir("report-chromium-page").join("r.html");
    let mut child = std::process::Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            &format!("--user-data-dir={}", dir.join("profile").display()),
            "--dump-dom",
            &format!("file://{}", page.display()),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start chromium");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() > 120 {
            let _ = child.kill();
            panic!("chromium did not finish in 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    // The DOM as the browser built it: the map with its two verdict cells, and the
    // size-2 trace's table with the initial state and 6 steps.
    assert!(dom.contains("id=\"map\""), "no map in the DOM:\n{dom}");
    let verdicts = dom.matches("data-verdict=\"").count();
    assert_eq!(verdicts, 2, "{dom}");
    assert!(dom.contains("data-verdict=\"violated\""));
    let cex = dom.find("class=\"cex\"").expect("a counterexample section");
    let rows = dom[cex..].matches("<tr class=\"state").count();
    assert_eq!(rows, 7, "{dom}");
    assert!(dom[cex..].contains("<td class=\"chg\" data-cell=\"A[1]\">"));
}

/// The text header, the JSON and the HTML report say the same of symmetry: the
/// header's `symmetry` line word for word (an ordered-symmetric model, whose explicit
/// reduction is off under auto; a fully symmetric one; one with `--no-symmetry`).
#[test]
fn text_json_and_html_say_the_same_of_symmetry() {
    for (k, args) in [
        &["check", "families/burns.cub", "--sizes", "1..2"][..],
        &["check", "families/german.cub", "--sizes", "1..2"][..],
        &[
            "check",
            "families/german.cub",
            "--sizes",
            "1..2",
            "--no-symmetry",
        ][..],
        &["live", "families/mutex.cub", "--sizes", "1..2", "--fair"][..],
    ]
    .into_iter()
    .enumerate()
    {
        let (_, out, page) = report(&format!("symmetry{k}"), args);
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix("symmetry  "))
            .unwrap_or_else(|| panic!("no symmetry line:\n{out}"))
            .to_string();
        let (_, v) = crate::common::json_run(args);
        assert_eq!(v["symmetry_use"].as_str(), Some(line.as_str()), "{args:?}");
        let text = decode(&page).unwrap();
        assert!(text.contains(&line), "{args:?}: the report lacks `{line}`");
    }
}
