//! Command registration as Discord checks it: names, descriptions, options and choices,
//! their lengths and order, and localizations only in Discord's locales (no `kk`).

use super::reply::{form_error, Reply};
use super::state::FakeState;
use super::APP_ID;
use serde_json::{json, Value};
use std::collections::HashSet;

/// Discord's locales (https://discord.com/developers/docs/reference#locales). No Kazakh.
const LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name
            .chars()
            .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
        && name.to_lowercase() == name
}

fn check_localizations(v: &Value, path: &str, names: bool) -> Result<(), Reply> {
    let Some(map) = v.as_object() else {
        return if v.is_null() {
            Ok(())
        } else {
            Err(form_error(
                path,
                "DICT_TYPE_CONVERT",
                "Only dictionaries may be used in a DictType",
            ))
        };
    };
    for (locale, text) in map {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(form_error(
                &format!("{path}.{locale}"),
                "ENUM_TYPE_COERCE",
                &format!("Value \"{locale}\" is not a valid enum value."),
            ));
        }
        let text = text.as_str().unwrap_or_default();
        let ok = if names {
            valid_name(text)
        } else {
            (1..=100).contains(&text.chars().count())
        };
        if !ok {
            return Err(form_error(
                &format!("{path}.{locale}"),
                if names {
                    "APPLICATION_COMMAND_INVALID_NAME"
                } else {
                    "BASE_TYPE_BAD_LENGTH"
                },
                "Invalid localized value",
            ));
        }
    }
    Ok(())
}

fn check_named(v: &Value, path: &str, description_required: bool) -> Result<(), Reply> {
    let name = v["name"].as_str().unwrap_or_default();
    if !valid_name(name) {
        return Err(form_error(
            &format!("{path}.name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        ));
    }
    let description = v["description"].as_str().unwrap_or_default();
    let len = description.chars().count();
    if (description_required && len == 0) || len > 100 {
        return Err(form_error(
            &format!("{path}.description"),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    check_localizations(
        &v["name_localizations"],
        &format!("{path}.name_localizations"),
        true,
    )?;
    check_localizations(
        &v["description_localizations"],
        &format!("{path}.description_localizations"),
        false,
    )
}

fn check_option(o: &Value, path: &str) -> Result<(), Reply> {
    check_named(o, path, true)?;
    let kind = o["type"].as_u64().unwrap_or(0);
    if !(1..=11).contains(&kind) {
        return Err(form_error(
            &format!("{path}.type"),
            "BASE_TYPE_CHOICES",
            "Value must be one of (1..11).",
        ));
    }
    // Discord: min_length 0..=6000 and max_length 1..=6000, for string options only.
    for (key, least) in [("min_length", 0), ("max_length", 1)] {
        let Some(n) = o.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        if kind != 3 || !n.as_u64().is_some_and(|n| (least..=6000).contains(&n)) {
            return Err(form_error(
                &format!("{path}.{key}"),
                "NUMBER_TYPE_MAX",
                &format!("{key} must be between {least} and 6000, on a string option."),
            ));
        }
    }
    // Discord: min_value and max_value on integer and number options only.
    for key in ["min_value", "max_value"] {
        if o.get(key).is_some_and(|v| !v.is_null()) && !matches!(kind, 4 | 10) {
            return Err(form_error(
                &format!("{path}.{key}"),
                "BASE_TYPE_BAD_TYPE",
                &format!("{key} is for integer and number options only."),
            ));
        }
    }
    if kind == 1 || kind == 2 {
        if o["required"].as_bool() == Some(true) {
            return Err(form_error(
                &format!("{path}.required"),
                "APPLICATION_COMMAND_OPTION_INVALID",
                "Subcommands cannot be required",
            ));
        }
        check_options(o, path, kind)?;
    } else if o["options"].as_array().is_some_and(|v| !v.is_empty()) {
        return Err(form_error(
            &format!("{path}.options"),
            "APPLICATION_COMMAND_OPTION_INVALID",
            "Only subcommands and groups have options",
        ));
    }
    // Discord: autocomplete on string, integer and number options only, never with choices.
    if o["autocomplete"] == true {
        let with_choices = o["choices"].as_array().is_some_and(|c| !c.is_empty());
        if !matches!(kind, 3 | 4 | 10) || with_choices {
            return Err(form_error(
                &format!("{path}.autocomplete"),
                "APPLICATION_COMMAND_OPTION_INVALID",
                "Autocomplete cannot be set for this option",
            ));
        }
    }
    if let Some(choices) = o["choices"].as_array() {
        if choices.len() > 25 {
            return Err(form_error(
                &format!("{path}.choices"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for (i, c) in choices.iter().enumerate() {
            let name = c["name"].as_str().unwrap_or_default();
            if !(1..=100).contains(&name.chars().count()) {
                return Err(form_error(
                    &format!("{path}.choices.{i}.name"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
            check_localizations(
                &c["name_localizations"],
                &format!("{path}.choices.{i}.name_localizations"),
                false,
            )?;
            let value_ok = match kind {
                3 => c["value"]
                    .as_str()
                    .is_some_and(|s| (1..=100).contains(&s.chars().count())),
                4 => c["value"].is_i64(),
                10 => c["value"].is_number(),
                _ => false,
            };
            if !value_ok {
                return Err(form_error(
                    &format!("{path}.choices.{i}.value"),
                    "BASE_TYPE_BAD_TYPE",
                    "Choice value does not match the option type",
                ));
            }
        }
    }
    Ok(())
}

/// The options of a command (`parent` 0), a subcommand group (2) or a subcommand (1): at
/// most 25, required ones first; subcommands and groups never beside other options, groups
/// only at the top and holding only subcommands, subcommands holding no subcommands.
fn check_options(parent: &Value, path: &str, parent_kind: u64) -> Result<(), Reply> {
    let options = parent["options"].as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        return Err(form_error(
            &format!("{path}.options"),
            "BASE_TYPE_BAD_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let kinds: Vec<u64> = options
        .iter()
        .map(|o| o["type"].as_u64().unwrap_or(0))
        .collect();
    let nested = kinds.iter().filter(|k| matches!(k, 1 | 2)).count();
    let misplaced = match parent_kind {
        0 => nested != 0 && nested != kinds.len(),
        2 => kinds.iter().any(|&k| k != 1),
        _ => nested != 0,
    };
    if misplaced {
        return Err(form_error(
            &format!("{path}.options"),
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        ));
    }
    let mut names = HashSet::new();
    let mut seen_optional = false;
    for (j, o) in options.iter().enumerate() {
        let path = format!("{path}.options.{j}");
        check_option(o, &path)?;
        if !names.insert(o["name"].as_str().unwrap_or_default().to_string()) {
            return Err(form_error(
                &format!("{path}.name"),
                "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
                "Option names must be unique",
            ));
        }
        let required = o["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            return Err(form_error(
                &path,
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            ));
        }
        seen_optional |= !required;
    }
    Ok(())
}

pub(super) fn register_commands(
    state: &mut FakeState,
    body: Option<Value>,
) -> Result<Vec<Value>, Reply> {
    let Some(Value::Array(commands)) = body else {
        return Err(form_error("_root", "BASE_TYPE_ARRAY", "Must be an array"));
    };
    if commands.len() > 100 {
        return Err(form_error(
            "_root",
            "BASE_TYPE_BAD_LENGTH",
            "Must be 100 or fewer in length.",
        ));
    }
    let mut names = HashSet::new();
    let mut out = Vec::new();
    for (i, c) in commands.iter().enumerate() {
        let kind = c["type"].as_u64().unwrap_or(1);
        check_named(c, &i.to_string(), kind == 1)?;
        if !names.insert((kind, c["name"].as_str().unwrap_or_default().to_string())) {
            return Err(form_error(
                &format!("{i}.name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            ));
        }
        check_options(c, &i.to_string(), 0)?;
        let options = c["options"].as_array().cloned().unwrap_or_default();
        let mut stored = c.clone();
        stored["id"] = json!(state.snowflake().to_string());
        stored["application_id"] = json!(APP_ID.to_string());
        stored["version"] = json!(state.snowflake().to_string());
        stored["type"] = json!(kind);
        if stored.get("default_member_permissions").is_none() {
            stored["default_member_permissions"] = Value::Null;
        }
        stored["nsfw"] = json!(false);
        stored["options"] = json!(options);
        out.push(stored);
    }
    Ok(out)
}
