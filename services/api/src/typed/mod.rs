//! Typed views and layouts: `Position.board` (union `GameView`) and `Game.layout` (union
//! `GameLayout`), GraphQL types generated from each game's JSON Schema, resolved over the very
//! JSON `view` and `layoutJson` return — one source of truth, two forms.
//!
//! Why not hand-written GraphQL types: the API knows no game by name (invariant 6), and a
//! second description of each view would drift from the first. The games publish JSON Schema
//! (`rules_core::Presentation`); `table` turns it into object, enum and union types, registered
//! with async-graphql like any derived type; `JsonObject` resolves a selection over a JSON value
//! by the field types the table records.
//!
//! A game without a view schema still appears in the union, as `<Prefix>View { json }`.

mod table;

pub use table::{enum_value_name, Base, Table, Ty};

use async_graphql::indexmap::{IndexMap, IndexSet};
use async_graphql::parser::types::Field;
use async_graphql::parser::types::Selection;
use async_graphql::registry::{
    Deprecation, MetaEnumValue, MetaField, MetaType, MetaTypeId, Registry as GqlRegistry,
};
use async_graphql::resolver_utils::ContainerType;
use async_graphql::{
    Context, ContextSelectionSet, Name, OutputType, Positioned, ServerError, ServerResult, Value,
};
use futures_util::future::BoxFuture;
use std::borrow::Cow;
use std::sync::OnceLock;

/// The generated types, built once per process from the games' schemas.
static TABLE: OnceLock<Table> = OnceLock::new();

pub const VIEW_UNION: &str = "GameView";
pub const LAYOUT_UNION: &str = "GameLayout";

/// Builds the type table from `registry`'s games (the first call wins: every schema a process
/// builds serves the same games). Returns the conversion errors, if any game's schema has a
/// shape GraphQL cannot express; such a game falls back to `{ json }`.
pub fn install(registry: &rules_core::Registry) -> Vec<String> {
    let mut errors = Vec::new();
    TABLE.get_or_init(|| {
        let (t, e) = build(registry);
        errors = e;
        t
    });
    errors
}

/// The table for `registry`, and what could not be converted.
pub fn build(registry: &rules_core::Registry) -> (Table, Vec<String>) {
    let mut t = Table::default();
    let mut errors = Vec::new();
    for g in registry.iter() {
        let prefix = g.kind().type_prefix();
        for (union, root, schema) in [
            (VIEW_UNION, "View", g.view_schema()),
            (LAYOUT_UNION, "Layout", g.layout_schema()),
        ] {
            let mut attempt = t.clone();
            match (!schema.is_null())
                .then(|| attempt.add(union, prefix, root, &schema))
                .transpose()
            {
                Ok(Some(_)) => t = attempt,
                Ok(None) => fallback(&mut t, union, prefix, root),
                Err(e) => {
                    errors.push(format!("{} {root}: {e}", g.kind()));
                    fallback(&mut t, union, prefix, root);
                }
            }
        }
    }
    (t, errors)
}

/// `<Prefix><Root> { json: JSON! }`, for a game whose schema is missing or not expressible.
fn fallback(t: &mut Table, union: &str, prefix: &str, root: &str) {
    let name = format!("{prefix}{root}");
    t.objects.insert(
        name.clone(),
        table::Object {
            description: Some(format!(
                "The game publishes no typed {} yet: the JSON form only.",
                root.to_lowercase()
            )),
            fields: vec![table::Field {
                name: "json".into(),
                description: Some("The JSON form.".into()),
                ty: Ty {
                    base: Base::Json,
                    nullable: false,
                    list: None,
                },
            }],
        },
    );
    t.unions.entry(union.to_string()).or_default().push(name);
}

fn table() -> &'static Table {
    TABLE.get_or_init(Table::default)
}

fn meta_field(name: &str, description: Option<String>, ty: String) -> MetaField {
    MetaField {
        name: name.to_string(),
        description,
        args: IndexMap::new(),
        ty,
        deprecation: Deprecation::NoDeprecated,
        cache_control: Default::default(),
        external: false,
        requires: None,
        provides: None,
        visible: None,
        shareable: false,
        inaccessible: false,
        tags: Vec::new(),
        override_from: None,
        compute_complexity: None,
        directive_invocations: Vec::new(),
        requires_scopes: Vec::new(),
    }
}

/// Registers every generated object and enum, and the union `name`.
fn register(registry: &mut GqlRegistry, name: &str, description: &str) {
    let t = table();
    for (oname, o) in &t.objects {
        if registry.types.contains_key(oname) {
            continue;
        }
        let mut fields = IndexMap::new();
        for f in &o.fields {
            fields.insert(
                f.name.clone(),
                meta_field(&f.name, f.description.clone(), f.ty.graphql()),
            );
        }
        fields.insert(
            "__typename".into(),
            meta_field("__typename", None, "String!".into()),
        );
        registry.types.insert(
            oname.clone(),
            MetaType::Object {
                name: oname.clone(),
                description: o.description.clone(),
                fields,
                cache_control: Default::default(),
                extends: false,
                shareable: false,
                resolvable: true,
                keys: None,
                visible: None,
                inaccessible: false,
                interface_object: false,
                tags: Vec::new(),
                is_subscription: false,
                rust_typename: None,
                directive_invocations: Vec::new(),
                requires_scopes: Vec::new(),
            },
        );
    }
    for (ename, e) in &t.enums {
        let mut values = IndexMap::new();
        for (v, _, d) in &e.values {
            values.insert(
                v.clone(),
                MetaEnumValue {
                    name: v.clone(),
                    description: d.clone(),
                    deprecation: Deprecation::NoDeprecated,
                    visible: None,
                    inaccessible: false,
                    tags: Vec::new(),
                    directive_invocations: Vec::new(),
                },
            );
        }
        registry.types.insert(
            ename.clone(),
            MetaType::Enum {
                name: ename.clone(),
                description: e.description.clone(),
                enum_values: values,
                visible: None,
                inaccessible: false,
                tags: Vec::new(),
                rust_typename: None,
                directive_invocations: Vec::new(),
                requires_scopes: Vec::new(),
            },
        );
    }
    let members: IndexSet<String> = t
        .unions
        .get(name)
        .map(|m| m.iter().cloned().collect())
        .unwrap_or_default();
    registry.types.insert(
        name.to_string(),
        MetaType::Union {
            name: name.to_string(),
            description: Some(description.to_string()),
            possible_types: members,
            visible: None,
            inaccessible: false,
            tags: Vec::new(),
            rust_typename: Some(std::any::type_name::<JsonObject>()),
            directive_invocations: Vec::new(),
        },
    );
}

/// A JSON object seen as the generated GraphQL object type `ty`.
pub struct JsonObject {
    pub ty: String,
    pub value: serde_json::Value,
}

/// A view as a member of `GameView`.
pub struct Board(pub JsonObject);

/// A layout as a member of `GameLayout`.
pub struct Layout(pub JsonObject);

impl Board {
    pub fn new(kind: rules_core::GameKind, value: serde_json::Value) -> Board {
        Board(JsonObject::root(kind, "View", value))
    }
}

impl Layout {
    pub fn new(kind: rules_core::GameKind, value: serde_json::Value) -> Layout {
        Layout(JsonObject::root(kind, "Layout", value))
    }
}

impl JsonObject {
    fn root(kind: rules_core::GameKind, root: &str, value: serde_json::Value) -> JsonObject {
        let ty = format!("{}{root}", kind.type_prefix());
        let fallback = table()
            .objects
            .get(&ty)
            .is_some_and(|o| o.fields.len() == 1 && o.fields[0].ty.base == Base::Json);
        let value = if fallback {
            serde_json::json!({ "json": value })
        } else {
            value
        };
        JsonObject { ty, value }
    }
}

macro_rules! union_type {
    ($t:ty, $name:expr, $doc:expr) => {
        impl OutputType for $t {
            fn type_name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }

            fn create_type_info(registry: &mut GqlRegistry) -> String {
                registry.create_output_type::<Self, _>(MetaTypeId::Union, |r| {
                    register(r, $name, $doc);
                    r.types[$name].clone()
                })
            }

            fn introspection_type_name(&self) -> Cow<'static, str> {
                Cow::Owned(self.0.ty.clone())
            }

            async fn resolve(
                &self,
                ctx: &ContextSelectionSet<'_>,
                _field: &Positioned<Field>,
            ) -> ServerResult<Value> {
                resolve_object(ctx, &self.0).await
            }
        }
    };
}

union_type!(
    Board,
    VIEW_UNION,
    "A position as the chosen perspective sees it, typed per game (the same data as `view`)."
);
union_type!(
    Layout,
    LAYOUT_UNION,
    "A game's static geometry, typed per game (the same data as `layoutJson`)."
);

impl OutputType for JsonObject {
    fn type_name() -> Cow<'static, str> {
        Cow::Borrowed(VIEW_UNION)
    }

    fn create_type_info(registry: &mut GqlRegistry) -> String {
        Board::create_type_info(registry)
    }

    fn introspection_type_name(&self) -> Cow<'static, str> {
        Cow::Owned(self.ty.clone())
    }

    async fn resolve(
        &self,
        ctx: &ContextSelectionSet<'_>,
        _field: &Positioned<Field>,
    ) -> ServerResult<Value> {
        resolve_object(ctx, self).await
    }
}

impl ContainerType for JsonObject {
    async fn resolve_field(&self, ctx: &Context<'_>) -> ServerResult<Option<Value>> {
        let name = ctx.item.node.name.node.as_str();
        if name == "__typename" {
            return Ok(Some(Value::String(self.ty.clone())));
        }
        let Some(ty) = table().field(&self.ty, name) else {
            return Ok(None);
        };
        let v = self.value.get(name).unwrap_or(&serde_json::Value::Null);
        resolve_value(ctx, ty, v, &self.ty, name).await.map(Some)
    }
}

/// `obj` resolved over a selection set: its fields by response key, and the fragments whose
/// type condition is its type or its union.
///
/// By hand rather than through async-graphql's `resolve_container`: once a schema has an
/// extension (`budget`, `offload`) or a field carries a directive, that looks each field's type
/// up under the Rust type's one static name — the union's, for every generated type — and finds
/// none ("Cannot query field … on type GameView").
fn resolve_object<'a>(
    ctx: &'a ContextSelectionSet<'a>,
    obj: &'a JsonObject,
) -> BoxFuture<'a, ServerResult<Value>> {
    Box::pin(async move {
        let mut out = IndexMap::new();
        collect(ctx, obj, &mut out).await?;
        Ok(Value::Object(out))
    })
}

/// Adds what `ctx`'s selection set selects of `obj` to `out` (skipped selections were removed
/// before execution).
fn collect<'a>(
    ctx: &'a ContextSelectionSet<'a>,
    obj: &'a JsonObject,
    out: &'a mut IndexMap<Name, Value>,
) -> BoxFuture<'a, ServerResult<()>> {
    Box::pin(async move {
        let applies = |on: &str| on == obj.ty || on == VIEW_UNION || on == LAYOUT_UNION;
        for item in &ctx.item.node.items {
            match &item.node {
                Selection::Field(f) => {
                    let ctx_f = ctx.with_field(f);
                    let key = f.node.response_key().node.clone();
                    let value = match obj.resolve_field(&ctx_f).await? {
                        Some(v) => v,
                        None => continue,
                    };
                    merge(out, key, value);
                }
                Selection::InlineFragment(frag) => {
                    if frag
                        .node
                        .type_condition
                        .as_ref()
                        .is_none_or(|c| applies(&c.node.on.node))
                    {
                        collect(&ctx.with_selection_set(&frag.node.selection_set), obj, out)
                            .await?;
                    }
                }
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    let frag = ctx.query_env.fragments.get(name).ok_or_else(|| {
                        ServerError::new(format!("Unknown fragment \"{name}\"."), Some(spread.pos))
                    })?;
                    if applies(&frag.node.type_condition.node.on.node) {
                        collect(&ctx.with_selection_set(&frag.node.selection_set), obj, out)
                            .await?;
                    }
                }
            }
        }
        Ok(())
    })
}

/// Puts `value` under `key`, merging objects selected twice under one key (`a { x } a { y }`).
fn merge(out: &mut IndexMap<Name, Value>, key: Name, value: Value) {
    match (out.get_mut(&key), value) {
        (Some(Value::Object(old)), Value::Object(new)) => {
            for (k, v) in new {
                merge(old, k, v);
            }
        }
        (_, value) => {
            out.insert(key, value);
        }
    }
}

fn mismatch(ctx: &Context<'_>, parent: &str, field: &str, what: &str) -> ServerError {
    ServerError::new(
        format!("internal error: {parent}.{field} holds {what}, not what its schema says"),
        Some(ctx.item.pos),
    )
}

/// One JSON value of a field of type `ty`, as GraphQL output.
async fn resolve_value(
    ctx: &Context<'_>,
    ty: &Ty,
    v: &serde_json::Value,
    parent: &str,
    field: &str,
) -> ServerResult<Value> {
    if v.is_null() {
        return if ty.nullable {
            Ok(Value::Null)
        } else {
            Err(mismatch(ctx, parent, field, "null"))
        };
    }
    match ty.list {
        Some(item_nullable) => {
            let items = v
                .as_array()
                .ok_or_else(|| mismatch(ctx, parent, field, "a non-list"))?;
            let item_ty = Ty {
                base: ty.base.clone(),
                nullable: item_nullable,
                list: None,
            };
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let ctx_i = ctx.with_index(i);
                out.push(
                    Box::pin(resolve_value(&ctx_i, &item_ty, item, parent, field))
                        .await
                        .map_err(|e| ctx_i.set_error_path(e))?,
                );
            }
            Ok(Value::List(out))
        }
        None => match &ty.base {
            Base::Int | Base::Float => v
                .as_number()
                .map(|n| Value::Number(n.clone()))
                .ok_or_else(|| mismatch(ctx, parent, field, "a non-number")),
            Base::Boolean => v
                .as_bool()
                .map(Value::Boolean)
                .ok_or_else(|| mismatch(ctx, parent, field, "a non-boolean")),
            Base::String => v
                .as_str()
                .map(|s| Value::String(s.to_string()))
                .ok_or_else(|| mismatch(ctx, parent, field, "a non-string")),
            Base::Json => Ok(Value::from_json(v.clone()).unwrap_or(Value::Null)),
            Base::Enum(_) => v
                .as_str()
                .map(|s| Value::Enum(Name::new(enum_value_name(s))))
                .ok_or_else(|| mismatch(ctx, parent, field, "a non-string")),
            Base::Object(name) => {
                let child = JsonObject {
                    ty: name.clone(),
                    value: v.clone(),
                };
                let set = ctx.with_selection_set(&ctx.item.node.selection_set);
                resolve_object(&set, &child).await
            }
        },
    }
}
