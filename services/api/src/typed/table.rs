//! From JSON Schema to GraphQL types: each game's view and layout schema (what `schemars`
//! writes for its Rust types) becomes object and enum types behind the game's prefix, and
//! the unions `GameView` and `GameLayout` gather the roots.
//!
//! Only the shapes `schema/views/README.md` allows are understood: objects with properties,
//! arrays of one item type, integers, numbers, booleans, strings, string enums (`enum`, or
//! `oneOf` of documented `const`s), nullability (`type: [T, "null"]`, `anyOf` with null, or
//! not `required`) and `$ref` to `$defs`. Anything else is an error naming where it is, so a
//! game cannot ship a view the API would misdescribe.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The GraphQL shape of a field: a scalar, enum or object, possibly in a list, possibly null.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base {
    Int,
    Float,
    Boolean,
    String,
    /// Any JSON (the fallback of a game without a schema).
    Json,
    Enum(String),
    Object(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ty {
    pub base: Base,
    pub nullable: bool,
    /// `Some(item_nullable)` for a list.
    pub list: Option<bool>,
}

impl Ty {
    /// The GraphQL type reference, e.g. `[FiveTribesTile!]!`.
    pub fn graphql(&self) -> String {
        let base = match &self.base {
            Base::Int => "Int",
            Base::Float => "Float",
            Base::Boolean => "Boolean",
            Base::String => "String",
            Base::Json => "JSON",
            Base::Enum(n) | Base::Object(n) => n.as_str(),
        };
        let inner = match self.list {
            Some(item_null) => format!("[{base}{}]", if item_null { "" } else { "!" }),
            None => base.to_string(),
        };
        if self.nullable {
            inner
        } else {
            format!("{inner}!")
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub description: Option<String>,
    pub ty: Ty,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    pub description: Option<String>,
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enum {
    pub description: Option<String>,
    /// (GraphQL name, JSON slug, description).
    pub values: Vec<(String, String, Option<String>)>,
}

/// Every generated type, by GraphQL name, and the members of each union.
#[derive(Debug, Default, Clone)]
pub struct Table {
    pub objects: BTreeMap<String, Object>,
    pub enums: BTreeMap<String, Enum>,
    /// Union name → member (root object) names.
    pub unions: BTreeMap<String, Vec<String>>,
}

impl Table {
    /// Adds the types of `schema` as `prefix` + def name (the root as `prefix` + `root`), and
    /// the root to `union`. Returns the root's GraphQL name.
    pub fn add(
        &mut self,
        union: &str,
        prefix: &str,
        root: &str,
        schema: &Value,
    ) -> Result<String, String> {
        let defs = schema
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut conv = Converter {
            table: self,
            prefix,
            defs: &defs,
        };
        let root_name = format!("{prefix}{root}");
        conv.object(&root_name, schema, root)?;
        for (name, def) in &defs {
            conv.named(name, def, name)?;
        }
        self.unions
            .entry(union.to_string())
            .or_default()
            .push(root_name.clone());
        Ok(root_name)
    }

    /// The type of `field` of object `ty`.
    pub fn field(&self, ty: &str, field: &str) -> Option<&Ty> {
        self.objects
            .get(ty)?
            .fields
            .iter()
            .find(|f| f.name == field)
            .map(|f| &f.ty)
    }
}

struct Converter<'a> {
    table: &'a mut Table,
    prefix: &'a str,
    defs: &'a Map<String, Value>,
}

fn description(s: &Value) -> Option<String> {
    s.get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// A JSON slug as a GraphQL enum value: `tile-action` → `TILE_ACTION`.
pub fn enum_value_name(slug: &str) -> String {
    let mut out: String = slug
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

fn pascal(s: &str) -> String {
    let mut out = String::new();
    let mut up = true;
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            if up {
                out.extend(c.to_uppercase());
            } else {
                out.push(c);
            }
            up = false;
        } else {
            up = true;
        }
    }
    out
}

impl Converter<'_> {
    /// A `$defs` entry (or an inline named type): an object or an enum.
    fn named(&mut self, name: &str, def: &Value, at: &str) -> Result<Base, String> {
        let gql = format!("{}{}", self.prefix, name);
        if let Some(values) = enum_values(def) {
            if !self.table.enums.contains_key(&gql) {
                self.table.enums.insert(
                    gql.clone(),
                    Enum {
                        description: description(def),
                        values: values
                            .into_iter()
                            .map(|(slug, d)| (enum_value_name(&slug), slug, d))
                            .collect(),
                    },
                );
            }
            return Ok(Base::Enum(gql));
        }
        if def.get("properties").is_some() || def.get("type") == Some(&Value::from("object")) {
            if !self.table.objects.contains_key(&gql) {
                self.object(&gql, def, at)?;
            }
            return Ok(Base::Object(gql));
        }
        Err(format!(
            "{at}: a named type must be an object or a string enum"
        ))
    }

    fn object(&mut self, gql: &str, def: &Value, at: &str) -> Result<(), String> {
        if def
            .get("additionalProperties")
            .is_some_and(|a| a != &Value::Bool(false))
            && def.get("properties").is_none()
        {
            return Err(format!(
                "{at}: a map with open-ended keys has no GraphQL type; use fixed fields or a list"
            ));
        }
        // Placeholder first, so a type that refers to itself terminates.
        self.table.objects.insert(
            gql.to_string(),
            Object {
                description: None,
                fields: Vec::new(),
            },
        );
        let required: Vec<&str> = def
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        if let Some(props) = def.get("properties").and_then(Value::as_object) {
            for (name, p) in props {
                let here = format!("{at}.{name}");
                let mut ty = self.ty(p, &format!("{gql}{}", pascal(name)), &here)?;
                if !required.contains(&name.as_str()) {
                    ty.nullable = true;
                }
                fields.push(Field {
                    name: name.clone(),
                    description: description(p),
                    ty,
                });
            }
        }
        if fields.is_empty() {
            return Err(format!(
                "{at}: an object without properties has no GraphQL type"
            ));
        }
        self.table.objects.insert(
            gql.to_string(),
            Object {
                description: description(def),
                fields,
            },
        );
        Ok(())
    }

    /// The type of a property schema; `inline` names an inline object or enum.
    fn ty(&mut self, s: &Value, inline: &str, at: &str) -> Result<Ty, String> {
        // `anyOf: [X, {"type": "null"}]` (an optional reference).
        if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
            let non_null: Vec<&Value> = any.iter().filter(|x| !is_null(x)).collect();
            if non_null.len() == 1 && any.len() == 2 {
                let mut t = self.ty(non_null[0], inline, at)?;
                t.nullable = true;
                return Ok(t);
            }
            return Err(format!("{at}: anyOf is understood only as `X or null`"));
        }
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = r
                .strip_prefix("#/$defs/")
                .ok_or_else(|| format!("{at}: only references to #/$defs are understood"))?;
            let def = self
                .defs
                .get(name)
                .ok_or_else(|| format!("{at}: no definition {name}"))?;
            let base = self.named(name, def, &format!("$defs.{name}"))?;
            return Ok(Ty {
                base,
                nullable: false,
                list: None,
            });
        }
        let (ty, nullable) = match s.get("type") {
            Some(Value::String(t)) => (t.as_str(), false),
            Some(Value::Array(ts)) => {
                let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                let non_null: Vec<&str> = names.iter().copied().filter(|t| *t != "null").collect();
                if non_null.len() != 1 {
                    return Err(format!("{at}: a value of one type (or null) is expected"));
                }
                (non_null[0], names.contains(&"null"))
            }
            None if enum_values(s).is_some() => ("string", false),
            _ => return Err(format!("{at}: no type")),
        };
        let base = match ty {
            "integer" => Base::Int,
            "number" => Base::Float,
            "boolean" => Base::Boolean,
            "string" if enum_values(s).is_some() => self.named_inline(inline, s),
            "string" => Base::String,
            "object" => {
                if !self.table.objects.contains_key(inline) {
                    self.object(inline, s, at)?;
                }
                Base::Object(inline.to_string())
            }
            "array" => {
                if s.get("prefixItems").is_some() {
                    return Err(format!("{at}: tuples have no GraphQL type; use objects"));
                }
                let items = s
                    .get("items")
                    .ok_or_else(|| format!("{at}: an array needs `items`"))?;
                let item = self.ty(items, &format!("{inline}Item"), &format!("{at}[]"))?;
                if item.list.is_some() {
                    return Err(format!(
                        "{at}: lists of lists have no GraphQL shape here; use a list of objects"
                    ));
                }
                return Ok(Ty {
                    base: item.base,
                    nullable,
                    list: Some(item.nullable),
                });
            }
            other => return Err(format!("{at}: type `{other}` is not understood")),
        };
        Ok(Ty {
            base,
            nullable,
            list: None,
        })
    }

    fn named_inline(&mut self, gql: &str, s: &Value) -> Base {
        let values = enum_values(s).unwrap_or_default();
        self.table
            .enums
            .entry(gql.to_string())
            .or_insert_with(|| Enum {
                description: description(s),
                values: values
                    .into_iter()
                    .map(|(slug, d)| (enum_value_name(&slug), slug, d))
                    .collect(),
            });
        Base::Enum(gql.to_string())
    }
}

fn is_null(s: &Value) -> bool {
    s.get("type") == Some(&Value::from("null"))
}

/// The (slug, description) values of a string enum schema: `enum: [..]` or `oneOf` of consts.
fn enum_values(s: &Value) -> Option<Vec<(String, Option<String>)>> {
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        return e
            .iter()
            .map(|v| v.as_str().map(|x| (x.to_string(), None)))
            .collect();
    }
    let one = s.get("oneOf").and_then(Value::as_array)?;
    one.iter()
        .map(|v| {
            let c = v.get("const").and_then(Value::as_str).or_else(|| {
                v.get("enum")
                    .and_then(Value::as_array)
                    .filter(|e| e.len() == 1)
                    .and_then(|e| e[0].as_str())
            })?;
            Some((c.to_string(), description(v)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schemars_like_schema_becomes_types() {
        let schema = json!({
            "title": "View",
            "type": "object",
            "description": "What a viewer sees.",
            "properties": {
                "round": { "type": "integer", "format": "uint8" },
                "gold": { "type": ["integer", "null"], "description": "Hidden: null." },
                "phase": { "$ref": "#/$defs/Phase" },
                "tiles": { "type": "array", "items": { "$ref": "#/$defs/Tile" } },
                "turn": { "anyOf": [{ "$ref": "#/$defs/Tile" }, { "type": "null" }] },
                "note": { "type": "string" }
            },
            "required": ["round", "gold", "phase", "tiles"],
            "$defs": {
                "Phase": { "oneOf": [
                    { "const": "tile-action", "description": "Acting on a tile." },
                    { "const": "bid", "type": "string" }
                ] },
                "Tile": { "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] }
            }
        });
        let mut t = Table::default();
        assert_eq!(
            t.add("GameView", "Demo", "View", &schema).unwrap(),
            "DemoView"
        );
        assert_eq!(t.field("DemoView", "round").unwrap().graphql(), "Int!");
        assert_eq!(t.field("DemoView", "gold").unwrap().graphql(), "Int");
        assert_eq!(
            t.field("DemoView", "phase").unwrap().graphql(),
            "DemoPhase!"
        );
        assert_eq!(
            t.field("DemoView", "tiles").unwrap().graphql(),
            "[DemoTile!]!"
        );
        assert_eq!(t.field("DemoView", "turn").unwrap().graphql(), "DemoTile");
        assert_eq!(t.field("DemoView", "note").unwrap().graphql(), "String");
        assert_eq!(t.enums["DemoPhase"].values[0].0, "TILE_ACTION");
        assert_eq!(t.unions["GameView"], vec!["DemoView".to_string()]);
    }

    #[test]
    fn shapes_without_a_graphql_type_are_refused_with_their_place() {
        for (bad, says) in [
            (
                json!({ "type": "object", "additionalProperties": { "type": "integer" } }),
                "open-ended keys",
            ),
            (
                json!({ "type": "object", "properties": { "p": { "type": "array", "prefixItems": [] } } }),
                "tuples",
            ),
            (
                json!({ "type": "object", "properties": { "p": { "oneOf": [{ "type": "object" }] } } }),
                "no type",
            ),
        ] {
            let e = Table::default().add("U", "X", "View", &bad).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }
}
