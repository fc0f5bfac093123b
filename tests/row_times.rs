//! The time of a row is the size's own, or says that it is not: sizes answered together
//! by one aggregate run carry that run's time with `shared_time` in the JSON, and the
//! table shows it once (`same run` on the other rows, a `time:` line after the table).

use crate::common;

use common::{check_doc, json_run, nfold};

/// The time column of each table row (the last word of the row), by size.
fn time_column(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let size: usize = w.next()?.parse().ok()?;
            let rest: Vec<&str> = w.collect();
            let time = if l.ends_with("same run") {
                "same run".to_string()
            } else {
                rest.last()?.to_string()
            };
            Some((size, time))
        })
        .collect()
}

#[test]
fn aggregate_rows_share_one_time() {
    for engine in ["ic3", "sat", "kind"] {
        let args = [
            "check",
            "families/mutex.cub",
            "--sizes",
            "1..4",
            "--engine",
            engine,
            "--depth",
            "6",
        ];
        let (_, v) = json_run(&args);
        let doc = check_doc(&v);
        assert_eq!(doc.results.len(), 4, "{engine}");
        assert!(
            doc.results.iter().all(|r| r.shared_time),
            "{engine}: an aggregate run's rows must say their time is shared"
        );
        let first = doc.results[0].seconds;
        assert!(doc.results.iter().all(|r| r.seconds == first), "{engine}");
        let (_, text, _) = nfold(&args);
        let times = time_column(&text);
        assert_eq!(times.len(), 4, "{engine}:\n{text}");
        assert!(
            times[0].1.ends_with('s') && times[0].1 != "same run",
            "{engine}: the first row shows the run's time:\n{text}"
        );
        assert!(
            times[1..].iter().all(|(_, t)| t == "same run"),
            "{engine}: the other rows refer to it:\n{text}"
        );
        assert!(
            text.contains("time: sizes 1..4 were answered together by one run"),
            "{engine}:\n{text}"
        );
    }
}

#[test]
fn rows_of_their_own_runs_have_their_own_times() {
    for args in [
        &[
            "check",
            "families/mutex.cub",
            "--sizes",
            "1..4",
            "--engine",
            "explicit",
        ][..],
        &[
            "check",
            "families/mutex.cub",
            "--sizes",
            "1..4",
            "--engine",
            "sat",
            "--depth",
            "6",
            "--one-by-one",
        ][..],
    ] {
        let (_, v) = json_run(args);
        let doc = check_doc(&v);
        assert!(doc.results.iter().all(|r| !r.shared_time), "{args:?}");
        let (_, text, _) = nfold(args);
        let times = time_column(&text);
        assert_eq!(times.len(), 4, "{args:?}:\n{text}");
        assert!(
            times
                .iter()
                .all(|(_, t)| t.ends_with('s') && t != "same run"),
            "{args:?}:\n{text}"
        );
        assert!(!text.contains("time: "), "{args:?}:\n{text}");
    }
}
