//! New puzzles and other formats: `generate` as `crossat generate --json` makes it, and
//! a puzzle written by the library's writers (crossat JSON, regexcrossword.com
//! `challenges.json`, antoine-trux text).

use crate::limit::limited;
use crossat::generate::{self as g, Spec};
use crossat::puzzle::{self, Format, Puzzle, Shape, Sides};
use crossat::records::{self, Difficulty};
use serde_json::{Map, Value};

fn usage(m: impl Into<String>) -> String {
    m.into()
}

/// The shape of `--size RxC` or `--hex SIDE|TOPxNWxNE`, with the command line's limits.
fn shape(o: &Map<String, Value>) -> Result<Shape, String> {
    let text = |k: &str| o.get(k).and_then(|v| v.as_str().map(str::to_string).or_else(|| v.as_u64().map(|n| n.to_string())));
    match (text("size"), text("hex")) {
        (Some(size), _) => {
            let dims: Vec<usize> = size.split(['x', 'X']).filter_map(|n| n.trim().parse().ok()).collect();
            match dims[..] {
                [r, c] if (1..=g::MAX_SIDE).contains(&r) && (1..=g::MAX_SIDE).contains(&c) => Ok(Shape::Rect { rows: r, cols: c }),
                _ => Err(usage(format!("--size must be ROWSxCOLS with each from 1 to {}, got '{size}'", g::MAX_SIDE))),
            }
        }
        (None, Some(hex)) => {
            let n: Vec<usize> = hex.split(['x', 'X']).map(|n| n.trim().parse().unwrap_or(0)).collect();
            let sides = match n[..] {
                [s] if (2..=8).contains(&s) => Sides::regular(s),
                [top, nw, ne] if [top, nw, ne].iter().all(|s| (1..=8).contains(s)) && nw + ne > 2 => Sides { top, nw, ne },
                _ => {
                    return Err(usage(format!(
                        "--hex must be a side from 2 to 8, or TOPxNWxNE with each from 1 to 8 (and more than one row), got '{hex}'"
                    )));
                }
            };
            Ok(Shape::Hex(sides))
        }
        (None, None) => Err(usage("give --size RxC or --hex SIDE")),
    }
}

/// `crossat generate --json` with options `{"size": "RxC" | "hex": "S", "difficulty":
/// "easy|medium|hard", "seed": N, "sides": 1|2, "text": "…", "backrefs": bool,
/// "lookarounds": bool, "timeout_ms": N}`: the `"type": "puzzle"` record, or the
/// summary `{"type": "summary", "puzzles": 0, "seed": N, "complete": false, "reason":
/// "timeout"}` when the time runs out first.
pub fn generate(options: &str) -> Result<String, String> {
    let o: Value = serde_json::from_str(options).map_err(|e| format!("options: not JSON: {e}"))?;
    let Some(o) = o.as_object() else { return Err("options: expected a JSON object".into()) };
    let flag = |k: &str| o.get(k).and_then(Value::as_bool).unwrap_or(false);
    let difficulty = match o.get("difficulty").and_then(Value::as_str) {
        None => None,
        Some("easy") => Some(Difficulty::Easy),
        Some("medium") => Some(Difficulty::Medium),
        Some("hard") => Some(Difficulty::Hard),
        Some(d) => return Err(format!("unknown difficulty '{d}': easy, medium or hard")),
    };
    let sides = o.get("sides").and_then(Value::as_u64).unwrap_or(1);
    if !(1..=2).contains(&sides) {
        return Err(format!("--sides must be 1 or 2, got {sides}"));
    }
    // JavaScript numbers hold integers up to 2^53 exactly: a larger seed is a string.
    let seed = match o.get("seed") {
        None | Some(Value::Null) => crossat::rng::fresh_seed(),
        Some(Value::String(s)) => s.parse().map_err(|_| format!("seed must be a whole number, got '{s}'"))?,
        Some(v) => v.as_u64().ok_or_else(|| format!("seed must be a whole number, got {v}"))?,
    };
    let spec = Spec {
        shape: shape(o)?,
        sides: sides as usize,
        text: o.get("text").and_then(Value::as_str).map(str::to_string),
        backrefs: flag("backrefs"),
        lookarounds: flag("lookarounds"),
        difficulty,
        seed,
    };
    let Some(made) = limited(o.get("timeout_ms").and_then(Value::as_f64), |cancel| g::generate(&spec, &mut |_| {}, cancel))? else {
        let stopped = records::Stopped::new(records::GenerateStopped { puzzles: 0, seed }, records::StopReason::Timeout);
        return Ok(crate::records::text(&stopped));
    };
    let record = made.record();
    Ok(crate::records::text(&record))
}

/// The puzzle in `format`: `crossat` (JSON), `challenges` (a regexcrossword.com
/// `challenges.json` holding it) or `trux` ([`puzzle::write`]). Given cells are not written.
pub fn export(p: &Puzzle, format: &str) -> Result<String, String> {
    let format = match format {
        "crossat" => Format::Crossat,
        "challenges" => Format::Challenges,
        "trux" => Format::Trux,
        _ => return Err(format!("unknown export format '{format}': crossat, challenges or trux")),
    };
    puzzle::write(p, format).map_err(|e| e.to_string())
}
