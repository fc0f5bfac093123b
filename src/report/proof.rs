//! The proofs of the run: the checked certificates (`CheckDoc::certificate`, the text
//! `nfold certify` reads back) split into their header lines and their lemmas, one
//! table per certificate. The lemmas are the invariant's conjuncts as the certificate
//! states them; nothing here re-checks them (`proof::check` did before `holds` was
//! written, and `nfold certify` does again from the file).

use super::{esc, list};
use crate::schema::CheckDoc;
use std::fmt::Write;

/// One certificate: its header lines (`model`, `sizes`, `engine`, `proves`, ...) and its
/// lemmas.
struct Cert<'a> {
    header: Vec<(&'a str, &'a str)>,
    lemmas: Vec<&'a str>,
}

/// The certificates of a certificate text, in order (each opens with a `#` line).
fn certificates(text: &str) -> Vec<Cert<'_>> {
    let mut out: Vec<Cert> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            out.push(Cert {
                header: Vec::new(),
                lemmas: Vec::new(),
            });
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if out.is_empty() {
            out.push(Cert {
                header: Vec::new(),
                lemmas: Vec::new(),
            });
        }
        let cert = out.last_mut().expect("pushed above");
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if key == "lemma" {
            cert.lemmas.push(rest);
        } else {
            cert.header.push((key, rest));
        }
    }
    out
}

/// The section of the proofs' lemmas (empty when no size was proved by an invariant).
pub(super) fn lemmas(doc: &CheckDoc) -> String {
    // The sizes' certificates, then the proof for every n.
    let mut certs: Vec<(&str, Cert)> = Vec::new();
    for (what, text) in [
        ("sizes checked", doc.certificate.as_deref()),
        (
            "every n",
            doc.every_n.as_ref().and_then(|e| e.certificate.as_deref()),
        ),
    ] {
        certs.extend(
            certificates(text.unwrap_or(""))
                .into_iter()
                .map(|c| (what, c)),
        );
    }
    if certs.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section id=\"proofs\">\n<h2>Proofs: the invariants' lemmas</h2>\n\
         <p>Each proof is an inductive invariant, the conjunction of its lemmas, checked \
         by code independent of the engine \
         that found it before <code>holds</code> was written. <code>nfold check \
         --certificate FILE</code> saves it; <code>nfold certify</code> checks it again.</p>\n",
    );
    for (k, (what, c)) in certs.iter().enumerate() {
        let proves: Vec<&str> = c
            .header
            .iter()
            .filter(|(key, _)| *key == "proves")
            .map(|(_, v)| *v)
            .collect();
        let _ = writeln!(
            out,
            "<details class=\"cert\" id=\"cert-{k}\"{}>\n<summary>certificate {} ({what}): {} lemmas{}</summary>",
            if k == 0 { " open" } else { "" },
            k + 1,
            c.lemmas.len(),
            if proves.is_empty() {
                String::new()
            } else {
                format!(", proves {}", esc(&proves.join("; ")))
            }
        );
        out.push_str("<table class=\"settings\">\n");
        for (key, v) in &c.header {
            let _ = writeln!(
                out,
                "<tr><th scope=\"row\">{}</th><td>{}</td></tr>",
                esc(key),
                esc(v)
            );
        }
        out.push_str("</table>\n");
        list(&mut out, "ol", "lemmas", &c.lemmas, |l| {
            format!("<code>{}</code>", esc(l))
        });
        out.push_str("</details>\n");
    }
    out.push_str("</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificates_split_into_headers_and_lemmas() {
        let text = "# nfold certificate: x\nmodel m 00\nsizes 1..3\nproves mutex at 1..3\n\
                    lemma !(A[#1] = Crit && A[#2] = Crit)\nlemma Sem = False\n\
                    # nfold certificate: y\nliveness live fair\nlemma X = 1\n";
        let c = certificates(text);
        assert_eq!(c.len(), 2);
        assert_eq!(
            c[0].lemmas,
            ["!(A[#1] = Crit && A[#2] = Crit)", "Sem = False"]
        );
        assert_eq!(
            c[0].header,
            [
                ("model", "m 00"),
                ("sizes", "1..3"),
                ("proves", "mutex at 1..3")
            ]
        );
        assert_eq!(c[1].header, [("liveness", "live fair")]);
        assert_eq!(c[1].lemmas, ["X = 1"]);
    }
}
