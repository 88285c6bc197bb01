//! Quoting in messages: the bad text of an error, written as Python's
//! `repr` writes it, so that messages read alike from both engines and
//! every game.

use core::fmt;
use std::fmt::Write;

/// Writes `text` quoted as Python's `repr` does: single quotes unless the
/// text has a single quote and no double quote; backslashes, the quote and
/// characters Python does not print escaped.
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

/// Whether Python's `str.isprintable` is false for `ch`: control characters,
/// and the format, separator and private-use characters most likely to turn
/// up (an approximation of the Unicode tables Python consults).
fn is_unprintable(ch: char) -> bool {
    ch.is_control()
        || matches!(ch,
            '\u{a0}' | '\u{ad}' | '\u{2000}'..='\u{200f}' | '\u{2028}'..='\u{202f}'
            | '\u{205f}'..='\u{206f}' | '\u{3000}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
            | '\u{e000}'..='\u{f8ff}')
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quote = if self.0.contains('\'') && !self.0.contains('"') {
            '"'
        } else {
            '\''
        };
        f.write_char(quote)?;
        for ch in self.0.chars() {
            match ch {
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if c == quote => write!(f, "\\{c}")?,
                c if (c as u32) < 0x100 && is_unprintable(c) => write!(f, "\\x{:02x}", c as u32)?,
                c if (c as u32) < 0x1_0000 && is_unprintable(c) => {
                    write!(f, "\\u{:04x}", c as u32)?;
                }
                c if is_unprintable(c) => write!(f, "\\U{:08x}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char(quote)
    }
}
