//! Calendar dates from unix seconds and back (UTC), for record headers, history lines and
//! `toguz export --since`, without a date crate: Howard Hinnant's days-from-civil algorithm.

/// (year, month 1-12, day 1-31) of a unix time, in UTC.
pub fn civil(unix_secs: u64) -> (i64, u32, u32) {
    let days = i64::try_from(unix_secs / 86_400).unwrap_or(i64::MAX / 2) + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `2026.11.30`: the PGN date format.
pub fn record_date(unix_secs: u64) -> String {
    let (y, m, d) = civil(unix_secs);
    format!("{y:04}.{m:02}.{d:02}")
}

/// `2026-11-30`: the ISO date, for history lines.
pub fn iso_date(unix_secs: u64) -> String {
    let (y, m, d) = civil(unix_secs);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Unix seconds at the start (00:00 UTC) of a date written `2026-11-30` or `2026.11.30`;
/// `None` if it is not a real date from 1970 on.
pub fn parse_date(text: &str) -> Option<u64> {
    let mut parts = text.trim().split(['-', '.']);
    let year: i64 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next()?.parse().ok()?;
    let day: u32 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1970..=9999).contains(&year) || !(1..=12).contains(&month) {
        return None;
    }
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from(if month > 2 { month - 3 } else { month + 9 });
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = u64::try_from(days).ok()? * 86_400;
    // A day past the month's end (2026-02-30) comes back as another date: refuse it.
    (civil(secs) == (year, month, day)).then_some(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(record_date(951_782_400), "2000.02.29");
        assert_eq!(iso_date(1_796_083_200), "2026-12-01");
        assert_eq!(parse_date("2000-02-29"), Some(951_782_400));
        assert_eq!(parse_date("2026.12.01"), Some(1_796_083_200));
        for day in (0..30_000u64).step_by(37) {
            let secs = day * 86_400;
            assert_eq!(parse_date(&iso_date(secs + 5000)), Some(secs));
        }
    }

    #[test]
    fn bad_dates_are_refused() {
        for bad in [
            "",
            "2026",
            "2026-13-01",
            "2026-02-30",
            "1969-12-31",
            "x-1-1",
            "2026-1-1-1",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }
}
