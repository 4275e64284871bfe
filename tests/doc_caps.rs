//! The reference docs stay reference (issue 39): each under its line cap, and the
//! changelog a list for users of a release — headings and one-line entries under
//! Added, Changed and Fixed — with the development story left to git.

use crate::common::root;

fn lines(rel: &str) -> Vec<String> {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}")).lines().map(str::to_string).collect()
}

#[test]
fn reference_docs_stay_under_their_caps() {
    for (rel, cap) in [("docs/performance.md", 400), ("docs/cli.md", 900), ("CHANGELOG.md", 120)] {
        let n = lines(rel).len();
        assert!(n <= cap, "{rel} has {n} lines, more than {cap}: move long examples to docs/examples.md, history to git");
    }
}

#[test]
fn the_changelog_is_added_changed_fixed_a_line_each() {
    let log = lines("CHANGELOG.md");
    let mut section = None;
    for (k, line) in log.iter().enumerate() {
        let at = format!("CHANGELOG.md:{}: {line}", k + 1);
        if let Some(h) = line.strip_prefix("### ") {
            assert!(
                ["Added", "Changed", "Fixed", "Removed", "Deprecated", "Security"].contains(&h),
                "{at}: not a Keep a Changelog section"
            );
            section = Some(h.to_string());
        } else if line.starts_with("## ") {
            section = None;
        } else if line.starts_with("- ") {
            assert!(section.is_some(), "{at}: an entry outside Added/Changed/Fixed");
        } else if section.is_some() && !line.is_empty() {
            // Inside a section: entries, and short group labels before them.
            assert!(!line.starts_with(' ') && line.split_whitespace().count() <= 4, "{at}: an entry continues past its line");
        }
    }
    for (heading, dev) in [("### Added", "tests/"), ("### Added", "instead of a copy"), ("### Added", "Performance record")] {
        assert!(log.iter().any(|l| l == heading), "no {heading}");
        assert!(!log.iter().any(|l| l.contains(dev)), "development history in CHANGELOG.md: {dev:?}");
    }
}
