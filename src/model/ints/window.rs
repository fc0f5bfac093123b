//! The window `lo..hi` over which Cubicle's `int` is checked when its ints are neither
//! literal-valued (`literal`) nor ranked (`ranked`).

use crate::model::ir::{Model, VarId};
use crate::source::Span;

/// The window `lo..hi` over which Cubicle's `int` is checked. Every `int` variable,
/// constant and array cell has the range type `range` (named `int`, bounds `lo..hi`
/// at every size) as its type; storing a value outside it is the pseudo-property
/// `int_bound` (not a `range_error`), and initial values that `init` leaves free
/// range over it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntWindow {
    /// The range type holding the window (an index into `Model::ranges`).
    pub range: usize,
    pub lo: i64,
    pub hi: i64,
    /// Given by `--int-range` (otherwise derived from the model's literals).
    pub given: bool,
    /// The window derived from the literals, when a run that left it made the
    /// command line widen it to this one (`run::widen`).
    pub widened_from: Option<(i64, i64)>,
    /// The least and greatest integer literal of the model (`None`: it has none).
    pub literals: Option<(i64, i64)>,
    /// The `int` variables, constants and arrays whose initial value `init` does not
    /// fix to a literal: their initial values range over the window (subject to
    /// whatever `init` says about them).
    pub free: Vec<VarId>,
    /// The first `int` of the file.
    pub span: Span,
}

/// How far the default window reaches beyond the model's literals on each side.
pub const INT_MARGIN: i64 = 2;

/// The largest number of values of an `int` window.
pub const MAX_INT_VALUES: i64 = 1 << 16;

impl IntWindow {
    /// `lo..hi`.
    pub fn text(&self) -> String {
        format!("{}..{}", self.lo, self.hi)
    }

    /// The default window for literals `lits` (least, greatest): from
    /// min(0, least) - 2 to max(0, greatest) + 2.
    pub fn default_for(lits: Option<(i64, i64)>) -> (i64, i64) {
        let (a, b) = lits.unwrap_or((0, 0));
        (
            a.min(0).saturating_sub(INT_MARGIN),
            b.max(0).saturating_add(INT_MARGIN),
        )
    }

    /// One line for reports: the window, how it was chosen, and which initial values
    /// range over it.
    pub fn summary(&self, m: &Model) -> String {
        let origin = if self.given {
            "--int-range".to_string()
        } else {
            match self.literals {
                Some((a, b)) if a <= 0 && 0 <= b => {
                    format!(
                        "default: the model's integer literals {a}..{b}, widened by {INT_MARGIN}"
                    )
                }
                Some((a, b)) => format!(
                    "default: the model's integer literals {a}..{b} and 0, widened by {INT_MARGIN}"
                ),
                None => format!("default: 0 widened by {INT_MARGIN}"),
            }
        };
        let free = if self.free.is_empty() {
            "init fixes every initial int value".to_string()
        } else {
            let names: Vec<&str> = self.free.iter().map(|&v| m.vars[v].name.as_str()).collect();
            format!("initial values free over the window: {}", names.join(", "))
        };
        format!(
            "checked over {} ({origin}); leaving it is `int_bound`; {free}",
            self.text()
        )
    }
}

#[cfg(test)]
mod int_window_tests {
    use super::IntWindow;
    use crate::lang::{LoadOptions, load_str, load_str_with};

    #[test]
    fn default_window_covers_zero_and_the_literals_with_a_margin() {
        assert_eq!(IntWindow::default_for(None), (-2, 2));
        assert_eq!(IntWindow::default_for(Some((0, 3))), (-2, 5));
        assert_eq!(IntWindow::default_for(Some((1, 6))), (-2, 8));
        assert_eq!(IntWindow::default_for(Some((-4, -1))), (-6, 2));
    }

    #[test]
    fn window_free_values_and_int_types_from_the_text() {
        // Literals: 7 in init, -3 (unary minus) in the property, 1 in the update.
        let m = load_str(
            "t.cub",
            "var X : int\nvar Y : int\narray A[proc] : int\nvar B : bool\n\
             init (p) { X = 7 && A[p] = 0 }\nunsafe () { Y = -3 }\n\
             transition t () { X := X + 1; }\n",
        )
        .unwrap();
        let w = m.int_window.as_ref().unwrap();
        assert_eq!((w.lo, w.hi, w.given), (-5, 9, false));
        assert_eq!(w.literals, Some((-3, 7)));
        let free: Vec<&str> = w.free.iter().map(|&v| m.vars[v].name.as_str()).collect();
        assert_eq!(free, ["Y"]);
        assert!(m.is_int_var(0) && m.is_int_var(2) && !m.is_int_var(3));
        // Given windows are taken as they are; a model without ints has none.
        let m = load_str_with(
            "t.cub",
            "var X : int\ninit () { true }\nunsafe () { X = 1 }\n",
            &LoadOptions {
                int_range: Some((-1, 40)),
                ..Default::default()
            },
        )
        .unwrap();
        let w = m.int_window.as_ref().unwrap();
        assert_eq!((w.lo, w.hi, w.given), (-1, 40, true));
        assert_eq!(LoadOptions::of(&m).int_range, Some((-1, 40)));
        let m = load_str("t.cub", "var B : bool\ninit () { true }\nunsafe () { B }\n").unwrap();
        assert!(m.int_window.is_none());
    }
}
