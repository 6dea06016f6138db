//! A game's options as the Python side passes them: `KEY=VALUE` text pairs (RULES.md's names).

use std::collections::BTreeMap;

/// Options by name, as text (`draw=3`, `passes=unlimited`, `from_foundation=1`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    values: BTreeMap<String, String>,
}

impl Options {
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        Options { values: pairs.into_iter().collect() }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// A whole number option.
    pub fn int(&self, name: &str, default: i64) -> Result<i64, String> {
        match self.get(name) {
            None => Ok(default),
            Some(text) => {
                text.parse().map_err(|_| format!("option {name} is a whole number, not {text:?}"))
            }
        }
    }

    /// An on/off option (`1`/`0`, `true`/`false`, `on`/`off`).
    pub fn flag(&self, name: &str, default: bool) -> Result<bool, String> {
        match self.get(name) {
            None => Ok(default),
            Some("1" | "true" | "True" | "on") => Ok(true),
            Some("0" | "false" | "False" | "off") => Ok(false),
            Some(text) => Err(format!("option {name} is on or off, not {text:?}")),
        }
    }

    /// A number of passes: `unlimited` (None) or a whole number of 1 or more.
    pub fn passes(&self, name: &str) -> Result<Option<u32>, String> {
        match self.get(name) {
            None | Some("unlimited") => Ok(None),
            Some(text) => match text.parse::<u32>() {
                Ok(passes) if passes >= 1 => Ok(Some(passes)),
                _ => Err(format!(
                    "option {name} is unlimited or a number of 1 or more, not {text:?}"
                )),
            },
        }
    }

    /// A text option.
    pub fn text<'a>(&'a self, name: &str, default: &'a str) -> &'a str {
        self.get(name).unwrap_or(default)
    }
}

/// Options from `(name, value)` text pairs, for tests.
#[cfg(test)]
pub fn options(pairs: &[(&str, &str)]) -> Options {
    Options::from_pairs(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
}
