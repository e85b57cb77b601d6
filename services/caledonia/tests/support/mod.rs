//! Helpers of the presentation tests: joining a view's hex ids to the layout. (The schemas'
//! conventions are checked for every game in `services/api/tests/conventions.rs`.)

use serde_json::Value;
use std::collections::BTreeMap;

/// Every hex of the module sides `view` says are in play, by id, with its kind (`land`,
/// `loch`, …); empty before the deal.
pub fn hexes_in_play(layout: &Value, view: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for m in layout["modules"].as_array().into_iter().flatten() {
        let side = view["modules"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|x| x["module"] == m["module"])
            .map(|x| x["side"].clone());
        let Some(side) = side else { continue };
        for s in m["sides"].as_array().into_iter().flatten() {
            if s["side"] != side {
                continue;
            }
            for h in s["hexes"].as_array().into_iter().flatten() {
                if let (Some(id), Some(kind)) = (h["id"].as_str(), h["kind"].as_str()) {
                    out.insert(id.to_string(), kind.to_string());
                }
            }
        }
    }
    out
}
