//! A small validator for the subset of JSON Schema 2020-12 the protocol's schemas use, and
//! the schemas themselves (embedded from `docs/schemas/stdio/`).
//!
//! Supported keywords: `$ref` (same file or a relative file, with a `#/…` JSON pointer),
//! `$defs`, `type` (a name or a list), `const`, `enum`, `properties`, `required`,
//! `additionalProperties` (boolean or schema), `items`, `minItems`, `minimum`, `minLength`,
//! `oneOf`, `anyOf`. Annotations (`$schema`, `$id`, `title`, `description`, `examples`) are
//! ignored. An unsupported keyword in a schema is an error when the schemas load, so a schema
//! can never silently check less than it says.

use super::message::Direction;
use serde_json::Value;
use std::collections::BTreeMap;

/// The protocol's schema files, by path under `docs/schemas/stdio/`.
pub const SCHEMA_FILES: &[(&str, &str)] = &[
    (
        "common.schema.json",
        include_str!("../../../docs/schemas/stdio/common.schema.json"),
    ),
    (
        "to-implementation/hello.schema.json",
        include_str!("../../../docs/schemas/stdio/to-implementation/hello.schema.json"),
    ),
    (
        "to-implementation/case.schema.json",
        include_str!("../../../docs/schemas/stdio/to-implementation/case.schema.json"),
    ),
    (
        "to-implementation/input.schema.json",
        include_str!("../../../docs/schemas/stdio/to-implementation/input.schema.json"),
    ),
    (
        "to-implementation/stream.schema.json",
        include_str!("../../../docs/schemas/stdio/to-implementation/stream.schema.json"),
    ),
    (
        "to-implementation/tool-result.schema.json",
        include_str!("../../../docs/schemas/stdio/to-implementation/tool-result.schema.json"),
    ),
    (
        "to-implementation/retry.schema.json",
        include_str!("../../../docs/schemas/stdio/to-implementation/retry.schema.json"),
    ),
    (
        "to-implementation/shutdown.schema.json",
        include_str!("../../../docs/schemas/stdio/to-implementation/shutdown.schema.json"),
    ),
    (
        "to-harness/hello.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/hello.schema.json"),
    ),
    (
        "to-harness/append.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/append.schema.json"),
    ),
    (
        "to-harness/emit.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/emit.schema.json"),
    ),
    (
        "to-harness/next-input.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/next-input.schema.json"),
    ),
    (
        "to-harness/request-model.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/request-model.schema.json"),
    ),
    (
        "to-harness/run-tool.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/run-tool.schema.json"),
    ),
    (
        "to-harness/request-error.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/request-error.schema.json"),
    ),
    (
        "to-harness/done.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/done.schema.json"),
    ),
    (
        "to-harness/crash.schema.json",
        include_str!("../../../docs/schemas/stdio/to-harness/crash.schema.json"),
    ),
];

const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "$comment",
    "title",
    "description",
    "examples",
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "minimum",
    "minLength",
    "oneOf",
    "anyOf",
];

/// A set of parsed schema files that validates instances.
#[derive(Debug, Clone)]
pub struct Validator {
    files: BTreeMap<String, Value>,
}

impl Validator {
    /// The protocol's embedded schemas.
    pub fn protocol() -> Result<Validator, String> {
        Validator::from_files(
            SCHEMA_FILES
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string())),
        )
    }

    /// Schemas from `(path, text)` pairs; every keyword is checked to be supported.
    pub fn from_files(
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Validator, String> {
        let mut map = BTreeMap::new();
        for (path, text) in files {
            let value: Value =
                serde_json::from_str(&text).map_err(|e| format!("{path}: not JSON: {e}"))?;
            check_keywords(&value, &path, "#")?;
            map.insert(path, value);
        }
        let v = Validator { files: map };
        for (path, schema) in &v.files {
            v.check_refs(path, schema)?;
        }
        Ok(v)
    }

    /// Validates one protocol message: the file is chosen by direction and `type`.
    pub fn check(&self, dir: Direction, message: &Value) -> Result<(), String> {
        let kind = message
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| "the message has no string `type`".to_owned())?;
        let folder = match dir {
            Direction::ToImplementation => "to-implementation",
            Direction::ToHarness => "to-harness",
        };
        let path = format!("{folder}/{kind}.schema.json");
        if !self.files.contains_key(&path) {
            return Err(format!("no schema for a `{kind}` message ({path})"));
        }
        self.validate(&path, "#", message)
    }

    /// Validates `instance` against the schema at `pointer` in file `path`.
    pub fn validate(&self, path: &str, pointer: &str, instance: &Value) -> Result<(), String> {
        let schema = self.resolve(path, pointer)?;
        self.check_at(path, schema, instance, "")
    }

    fn resolve(&self, path: &str, pointer: &str) -> Result<&Value, String> {
        let file = self
            .files
            .get(path)
            .ok_or_else(|| format!("no schema file `{path}`"))?;
        let ptr = pointer.strip_prefix('#').unwrap_or(pointer);
        file.pointer(ptr)
            .ok_or_else(|| format!("`{path}{pointer}` does not exist"))
    }

    fn target(base: &str, reference: &str) -> (String, String) {
        let (file, pointer) = match reference.split_once('#') {
            Some((f, p)) => (f, format!("#{p}")),
            None => (reference, "#".to_owned()),
        };
        if file.is_empty() {
            return (base.to_owned(), pointer);
        }
        let mut parts: Vec<&str> = base.split('/').collect();
        parts.pop();
        for seg in file.split('/') {
            match seg {
                ".." => {
                    parts.pop();
                }
                "." | "" => {}
                s => parts.push(s),
            }
        }
        (parts.join("/"), pointer)
    }

    fn check_refs(&self, path: &str, schema: &Value) -> Result<(), String> {
        match schema {
            Value::Object(o) => {
                if let Some(r) = o.get("$ref").and_then(Value::as_str) {
                    let (file, ptr) = Self::target(path, r);
                    self.resolve(&file, &ptr)
                        .map_err(|e| format!("{path}: `$ref` {r}: {e}"))?;
                }
                o.values().try_for_each(|v| self.check_refs(path, v))
            }
            Value::Array(a) => a.iter().try_for_each(|v| self.check_refs(path, v)),
            _ => Ok(()),
        }
    }

    fn check_at(&self, path: &str, schema: &Value, x: &Value, at: &str) -> Result<(), String> {
        let here = || {
            if at.is_empty() {
                "the message".to_owned()
            } else {
                format!("`{at}`")
            }
        };
        let Some(s) = schema.as_object() else {
            return match schema {
                Value::Bool(false) => Err(format!("{} is not allowed here", here())),
                _ => Ok(()),
            };
        };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let (file, ptr) = Self::target(path, r);
            let target = self.resolve(&file, &ptr)?;
            self.check_at(&file, target, x, at)?;
        }
        if let Some(t) = s.get("type") {
            let names: Vec<&str> = match t {
                Value::String(n) => vec![n.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !names.iter().any(|n| is_type(x, n)) {
                return Err(format!(
                    "{} must be {}, found {}",
                    here(),
                    names.join(" or "),
                    describe(x)
                ));
            }
        }
        if let Some(c) = s.get("const")
            && c != x
        {
            return Err(format!("{} must be {c}, found {}", here(), short(x)));
        }
        if let Some(Value::Array(options)) = s.get("enum")
            && !options.contains(x)
        {
            let list: Vec<String> = options.iter().map(|o| o.to_string()).collect();
            return Err(format!(
                "{} must be one of {}, found {}",
                here(),
                list.join(", "),
                short(x)
            ));
        }
        if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_f64), x.as_f64())
            && n < min
        {
            return Err(format!("{} must be at least {min}, found {n}", here()));
        }
        if let (Some(min), Some(text)) = (s.get("minLength").and_then(Value::as_u64), x.as_str())
            && (text.chars().count() as u64) < min
        {
            return Err(format!("{} must have at least {min} characters", here()));
        }
        if let Value::Object(obj) = x {
            if let Some(Value::Array(req)) = s.get("required") {
                for r in req.iter().filter_map(Value::as_str) {
                    if !obj.contains_key(r) {
                        return Err(format!("{} lacks the required field `{r}`", here()));
                    }
                }
            }
            let props = s.get("properties").and_then(Value::as_object);
            for (k, v) in obj {
                let sub = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                match props.and_then(|p| p.get(k)) {
                    Some(ps) => self.check_at(path, ps, v, &sub)?,
                    None => match s.get("additionalProperties") {
                        Some(Value::Bool(false)) => {
                            return Err(format!("{} has an unknown field `{k}`", here()));
                        }
                        Some(extra @ Value::Object(_)) => self.check_at(path, extra, v, &sub)?,
                        _ => {}
                    },
                }
            }
        }
        if let Value::Array(arr) = x {
            if let Some(min) = s.get("minItems").and_then(Value::as_u64)
                && (arr.len() as u64) < min
            {
                return Err(format!("{} must have at least {min} items", here()));
            }
            if let Some(item) = s.get("items") {
                for (i, v) in arr.iter().enumerate() {
                    self.check_at(path, item, v, &format!("{at}[{i}]"))?;
                }
            }
        }
        for (key, exactly_one) in [("oneOf", true), ("anyOf", false)] {
            let Some(Value::Array(alts)) = s.get(key) else {
                continue;
            };
            let results: Vec<Result<(), String>> =
                alts.iter().map(|a| self.check_at(path, a, x, at)).collect();
            let ok = results.iter().filter(|r| r.is_ok()).count();
            if ok == 0 {
                // Report the alternative the instance's discriminator selects, if any.
                for (alt, r) in alts.iter().zip(&results) {
                    if self.discriminates(path, alt, x) {
                        return r.clone();
                    }
                }
                return Err(format!(
                    "{} matches none of the allowed shapes ({})",
                    here(),
                    short(x)
                ));
            }
            if exactly_one && ok > 1 {
                return Err(format!(
                    "{} matches more than one shape of a `oneOf`",
                    here()
                ));
            }
        }
        Ok(())
    }

    /// Whether `alt` names `x`'s `type` or `kind` as a `const` (following one `$ref`).
    fn discriminates(&self, path: &str, alt: &Value, x: &Value) -> bool {
        let alt = match alt.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let (file, ptr) = Self::target(path, r);
                match self.resolve(&file, &ptr) {
                    Ok(t) => t,
                    Err(_) => return false,
                }
            }
            None => alt,
        };
        ["type", "kind"].iter().any(|d| {
            let want = alt.pointer(&format!("/properties/{d}/const"));
            want.is_some() && want == x.get(*d)
        })
    }
}

fn check_keywords(schema: &Value, path: &str, at: &str) -> Result<(), String> {
    let Value::Object(o) = schema else {
        return Ok(());
    };
    for (k, v) in o {
        if !KEYWORDS.contains(&k.as_str()) {
            return Err(format!("{path}{at}: unsupported keyword `{k}`"));
        }
        match k.as_str() {
            "properties" | "$defs" => {
                if let Value::Object(m) = v {
                    for (name, sub) in m {
                        check_keywords(sub, path, &format!("{at}/{k}/{name}"))?;
                    }
                }
            }
            "items" | "additionalProperties" => check_keywords(v, path, &format!("{at}/{k}"))?,
            "oneOf" | "anyOf" => {
                if let Value::Array(a) = v {
                    for (i, sub) in a.iter().enumerate() {
                        check_keywords(sub, path, &format!("{at}/{k}/{i}"))?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn is_type(x: &Value, name: &str) -> bool {
    match name {
        "null" => x.is_null(),
        "boolean" => x.is_boolean(),
        "object" => x.is_object(),
        "array" => x.is_array(),
        "string" => x.is_string(),
        "number" => x.is_number(),
        "integer" => x.is_i64() || x.is_u64() || x.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

fn describe(x: &Value) -> String {
    let kind = match x {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{kind} ({})", short(x))
}

fn short(x: &Value) -> String {
    super::text::preview(&x.to_string(), 80)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_protocol_schemas_load() {
        let v = Validator::protocol();
        assert!(v.is_ok(), "{v:?}");
    }

    #[test]
    fn violations_are_named_precisely() {
        let v = Validator::protocol().expect("loads");
        let e = |m: Value| v.check(Direction::ToHarness, &m).err().unwrap_or_default();
        assert_eq!(
            e(json!({"type": "request-model", "turn": 1, "step": 1})),
            ""
        );
        assert_eq!(
            e(json!({"type": "request-model", "turn": 1})),
            "the message lacks the required field `step`"
        );
        assert_eq!(
            e(json!({"type": "request-model", "turn": "1", "step": 1})),
            "`turn` must be integer, found a string (\"1\")"
        );
        assert!(e(json!({"type": "nope"})).starts_with("no schema for a `nope` message"));
        let stream = json!({"type": "stream", "items": [
            {"kind": "chunk", "chunk": {"type": "text-delta", "index": 0, "text": "a"}},
            {"kind": "chunk", "chunk": {"type": "text-delta", "index": 0}}]});
        assert_eq!(
            v.check(Direction::ToImplementation, &stream)
                .err()
                .unwrap_or_default(),
            "`items[1].chunk` lacks the required field `text`"
        );
    }

    #[test]
    fn unsupported_keywords_are_refused() {
        let r = Validator::from_files([("a.json".to_owned(), r#"{"pattern":"x"}"#.to_owned())]);
        assert_eq!(
            r.err().unwrap_or_default(),
            "a.json#: unsupported keyword `pattern`"
        );
    }
}
