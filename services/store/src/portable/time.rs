//! Reading a record's times. Every entry of an imported record carries one, and chrono's
//! general RFC 3339 reader (which accepts spaces, lower case and a range of shapes) cost some
//! 1,700 instructions a time, a tenth of checking a record. The record schema admits one
//! shape, `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`, read here digit by digit; any other text,
//! and any value of that shape chrono treats with care (a leap second, an offset of a day or
//! more), is left to chrono, so what is read is exactly what chrono reads (a test compares
//! them on every shape).

use chrono::{DateTime, FixedOffset, NaiveDate, TimeDelta, Utc};
use serde::de::{Deserializer, Error, Visitor};
use std::fmt;

/// `text` read as chrono's `DateTime<FixedOffset>` reads it, in UTC.
pub fn parse(text: &str) -> Result<DateTime<Utc>, chrono::ParseError> {
    match schema_shape(text) {
        Some(t) => Ok(t),
        None => text
            .parse::<DateTime<FixedOffset>>()
            .map(|t| t.with_timezone(&Utc)),
    }
}

/// A time in the record schema's shape, read by hand: `None` for any other text, and for
/// one of that shape chrono reads with care (a leap second; an offset of a day or more) or
/// refuses (not a real date or time).
pub fn schema_shape(text: &str) -> Option<DateTime<Utc>> {
    let b = text.as_bytes();
    let digit = |i: usize| -> Option<u32> {
        let d = b.get(i)?.wrapping_sub(b'0');
        (d < 10).then_some(u32::from(d))
    };
    let two = |i: usize| Some(digit(i)? * 10 + digit(i + 1)?);
    let sep = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(sep(4, b'-') && sep(7, b'-') && sep(10, b'T') && sep(13, b':') && sep(16, b':')) {
        return None;
    }
    let year = two(0)? * 100 + two(2)?;
    let (month, day) = (two(5)?, two(8)?);
    let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
    // A leap second (60) is chrono's to read.
    if second > 59 {
        return None;
    }
    let mut i = 19;
    let mut nanos = 0;
    if sep(i, b'.') {
        i += 1;
        let start = i;
        while let Some(d) = digit(i) {
            if i - start == 9 {
                return None;
            }
            nanos = nanos * 10 + d;
            i += 1;
        }
        let n = i - start;
        if n == 0 {
            return None;
        }
        nanos *= 10u32.pow(9 - n as u32);
    }
    let offset = match b.get(i..)? {
        [b'Z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (h, m) = (two(i + 1)?, two(i + 4)?);
            // Offsets past a day, and minutes past 59, are chrono's to refuse or read.
            if h > 23 || m > 59 {
                return None;
            }
            let secs = i64::from(h * 3600 + m * 60);
            if *sign == b'-' {
                -secs
            } else {
                secs
            }
        }
        _ => return None,
    };
    let local = NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)?
        .and_hms_nano_opt(hour, minute, second, nanos)?;
    let utc = local.checked_sub_signed(TimeDelta::try_seconds(offset)?)?;
    Some(utc.and_utc())
}

/// A `DateTime<Utc>` field of a record: [`parse`], with chrono's message when it fails (for
/// `#[serde(deserialize_with)]`).
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    struct Time;
    impl Visitor<'_> for Time {
        type Value = DateTime<Utc>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an RFC 3339 formatted date and time string")
        }
        fn visit_str<E: Error>(self, s: &str) -> Result<DateTime<Utc>, E> {
            parse(s).map_err(E::custom)
        }
    }
    d.deserialize_str(Time)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chrono(text: &str) -> Result<DateTime<Utc>, String> {
        text.parse::<DateTime<FixedOffset>>()
            .map(|t| t.with_timezone(&Utc))
            .map_err(|e| e.to_string())
    }

    /// Every field at its edges, in and out of range, each fraction length, each offset
    /// shape, and texts of other shapes: read exactly as chrono reads them.
    #[test]
    fn times_are_read_as_chrono_reads_them() {
        let dates = [
            "2026-01-01",
            "0000-01-01",
            "9999-12-31",
            "2024-02-29",
            "2023-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-04-31",
            "2026-04-00",
            "1970-01-01",
        ];
        let clocks = [
            "00:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60", "23:59:60",
        ];
        let fractions = [
            "",
            ".",
            ".5",
            ".05",
            ".123456",
            ".123456789",
            ".1234567891",
            ".000000000",
            ".x",
        ];
        let offsets = [
            "Z", "z", "+00:00", "-00:00", "+05:30", "-09:45", "+23:59", "-23:59", "+24:00",
            "+12:60", "+0530", "+05", "", "Zx", " ",
        ];
        let mut texts = Vec::new();
        for d in dates {
            for c in clocks {
                for f in fractions {
                    for o in offsets {
                        texts.push(format!("{d}T{c}{f}{o}"));
                    }
                }
            }
        }
        texts.extend(
            [
                "2026-01-01 00:00:00Z",
                "2026-01-01t00:00:00Z",
                "20260101T000000Z",
                "2026-1-01T00:00:00Z",
                "+2026-01-01T00:00:00Z",
                "",
                "2026-01-01T00:00:00Z\u{e9}",
                "२०२६-01-01T00:00:00Z",
            ]
            .map(String::from),
        );
        let mut fast_ones = 0;
        for t in &texts {
            assert_eq!(parse(t).map_err(|e| e.to_string()), chrono(t), "{t:?}");
            fast_ones += usize::from(schema_shape(t).is_some());
        }
        // The hand reader answered for every valid text of the schema's shape: 5 real dates,
        // 2 clocks, 6 fractions (none to nine digits), 7 offsets (Z and ±HH:MM within a day).
        assert_eq!(fast_ones, 5 * 2 * 6 * 7, "of {} texts", texts.len());
        assert!(schema_shape("2026-03-04T05:06:07.5+01:00").is_some());
    }

    #[test]
    fn a_record_field_is_read_with_chronos_message_when_bad() {
        #[derive(serde::Deserialize, Debug)]
        struct T {
            #[serde(deserialize_with = "deserialize")]
            at: DateTime<Utc>,
        }
        let ok: T = serde_json::from_str(r#"{"at":"2026-01-01T01:00:00+01:00"}"#).unwrap();
        assert_eq!(ok.at, chrono("2026-01-01T00:00:00Z").unwrap());
        let bad = serde_json::from_str::<T>(r#"{"at":"2026-02-30T00:00:00Z"}"#).unwrap_err();
        let theirs = serde_json::from_str::<DateTime<Utc>>(r#""2026-02-30T00:00:00Z""#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            bad.to_string().split(" at line").next(),
            theirs.split(" at line").next()
        );
        assert!(serde_json::from_str::<T>(r#"{"at":5}"#).is_err());
    }
}
