use super::*;
use url::form_urlencoded::byte_serialize;

const TOKEN: &str = "7000000001:AAtest-token_for_unit_tests";
const NOW: u64 = 1_765_000_000;
const USER: &str = r#"{"id":741,"first_name":"Асель","last_name":"Нурлан","username":"asel_l","language_code":"kk","is_premium":true,"allows_write_to_pm":true}"#;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Launch data signed with `token` as Telegram makes it: the hash over the sorted, decoded
/// fields; then every value percent-encoded, in the order given.
fn signed(fields: &[(&str, &str)], token: &str) -> String {
    let mut sorted: Vec<&(&str, &str)> = fields.iter().collect();
    sorted.sort_by_key(|(k, _)| *k);
    let check: Vec<String> = sorted.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut secret = HmacSha256::new_from_slice(b"WebAppData").unwrap();
    secret.update(token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = HmacSha256::new_from_slice(&secret).unwrap();
    mac.update(check.join("\n").as_bytes());
    let hash = hex(&mac.finalize().into_bytes());
    let mut pairs: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", byte_serialize(v.as_bytes()).collect::<String>()))
        .collect();
    pairs.push(format!("hash={hash}"));
    pairs.join("&")
}

fn good_fields(auth_date: u64) -> Vec<(&'static str, String)> {
    vec![
        ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc".to_string()),
        ("user", USER.to_string()),
        ("auth_date", auth_date.to_string()),
        ("start_param", "ab12cd-0123456789abcdef0123".to_string()),
        ("chat_type", "group".to_string()),
        ("chat_instance", "-8412345678901234567".to_string()),
        // Telegram's Ed25519 signature for third parties: covered by the hash like any field.
        (
            "signature",
            "yZmU1NzQ0Y2Q2NTk3YjA4OGVhNTk4YzgxOWY0N2JmZjA1ZGM2YjAxMTk1M2Vk".to_string(),
        ),
    ]
}

fn good(auth_date: u64) -> String {
    let fields = good_fields(auth_date);
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    signed(&fields, TOKEN)
}

fn check_now(data: &str) -> Result<InitData, InitDataError> {
    check(data, &Secret::new(TOKEN), DEFAULT_MAX_AGE_SECS, NOW)
}

#[test]
fn launch_data_signed_with_the_bots_token_is_accepted_and_read() {
    let data = check_now(&good(NOW - 60)).expect("accepted");
    assert_eq!(data.user.id, 741);
    assert_eq!(data.user.first_name, "Асель");
    assert_eq!(data.user.last_name.as_deref(), Some("Нурлан"));
    assert_eq!(data.user.username.as_deref(), Some("asel_l"));
    assert_eq!(data.user.language_code.as_deref(), Some("kk"));
    assert_eq!(data.auth_date, NOW - 60);
    assert_eq!(
        data.start_param.as_deref(),
        Some("ab12cd-0123456789abcdef0123")
    );
    let user = data.user.user_ref();
    assert_eq!(
        user,
        UserRef::new(Platform::Telegram, "741", "Асель Нурлан")
    );
    // A space written `+` (as encoded here) or `%20` is the same space.
    let user = r#"{"id":5,"first_name":"Ai Gul"}"#;
    let spaced = signed(&[("auth_date", &NOW.to_string()), ("user", user)], TOKEN);
    assert!(spaced.contains("Ai+Gul"), "{spaced}");
    assert_eq!(check_now(&spaced).unwrap().user.first_name, "Ai Gul");
    let spaced = spaced.replace("Ai+Gul", "Ai%20Gul");
    assert_eq!(check_now(&spaced).unwrap().user.first_name, "Ai Gul");
}

/// The launch data of aiogram's own tests (token `42:TEST`), made by another
/// implementation: accepted; the same under another token refused.
#[test]
fn another_implementations_launch_data_is_accepted() {
    let data = "auth_date=1650385342\
        &user=%7B%22id%22%3A42%2C%22first_name%22%3A%22Test%22%7D\
        &query_id=test\
        &hash=46d2ea5e32911ec8d30999b56247654460c0d20949b6277af519e76271182803";
    let at = 1_650_385_342 + 10;
    let found = check(data, &Secret::new("42:TEST"), DEFAULT_MAX_AGE_SECS, at).expect("accepted");
    assert_eq!(found.user.id, 42);
    assert_eq!(found.start_param, None);
    assert_eq!(
        check(data, &Secret::new("42:INVALID"), DEFAULT_MAX_AGE_SECS, at),
        Err(InitDataError::BadHash)
    );
}

#[test]
fn a_changed_hash_or_field_is_refused() {
    let data = good(NOW);
    let (rest, hash) = data.rsplit_once("hash=").unwrap();
    let last = if hash.ends_with('0') { '1' } else { '0' };
    let changed = format!("{rest}hash={}{last}", &hash[..hash.len() - 1]);
    assert_eq!(check_now(&changed), Err(InitDataError::BadHash));
    // Upper-case hex is the same number: it still matches.
    let upper = format!("{rest}hash={}", hash.to_ascii_uppercase());
    assert!(check_now(&upper).is_ok());
    // Not hex, or too short.
    assert_eq!(
        check_now(&format!("{rest}hash=zz{}", &hash[2..])),
        Err(InitDataError::BadHash)
    );
    assert_eq!(
        check_now(&format!("{rest}hash={}", &hash[..62])),
        Err(InitDataError::BadHash)
    );
    // Another start, another user id, another signature, a field added or left out.
    for (from, to) in [
        ("start_param=ab12cd", "start_param=ab12ce"),
        ("%22id%22%3A741", "%22id%22%3A742"),
        ("signature=yZm", "signature=xZm"),
        ("chat_type=group", "chat_type=private"),
        ("&chat_type=group", ""),
        ("query_id=", "receiver=x&query_id="),
    ] {
        let data = data.replacen(from, to, 1);
        assert_ne!(data, good(NOW), "{from}");
        assert_eq!(
            check_now(&data),
            Err(InitDataError::BadHash),
            "{from} -> {to}"
        );
    }
}

#[test]
fn data_without_a_hash_or_signed_with_another_token_is_refused() {
    let data = good(NOW);
    let (rest, _) = data.rsplit_once("&hash=").unwrap();
    assert_eq!(check_now(rest), Err(InitDataError::MissingHash));
    let fields = good_fields(NOW);
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let other = signed(&fields, "7000000002:AAanother-bots-token");
    assert_eq!(check_now(&other), Err(InitDataError::BadHash));
    // The same bot id with another secret part: refused too.
    let other = signed(&fields, "7000000001:AAtest-token_for_unit_testz");
    assert_eq!(check_now(&other), Err(InitDataError::BadHash));
}

#[test]
fn stale_or_future_launch_data_is_refused() {
    let day = DEFAULT_MAX_AGE_SECS;
    assert!(check_now(&good(NOW - day)).is_ok());
    assert_eq!(check_now(&good(NOW - day - 1)), Err(InitDataError::Stale));
    assert_eq!(
        check(&good(NOW - 600), &Secret::new(TOKEN), 300, NOW),
        Err(InitDataError::Stale)
    );
    assert!(check_now(&good(NOW + FUTURE_SKEW_SECS)).is_ok());
    assert_eq!(
        check_now(&good(NOW + FUTURE_SKEW_SECS + 1)),
        Err(InitDataError::Future)
    );
    for date in ["", "-5", "12.5", "soon"] {
        let data = signed(&[("auth_date", date), ("user", USER)], TOKEN);
        assert_eq!(check_now(&data), Err(InitDataError::AuthDate), "{date:?}");
    }
}

#[test]
fn duplicated_keys_are_refused_even_when_signed() {
    let data = good(NOW);
    // A second start_param after the signed one (a parser taking the last would see it).
    let twice = format!("{data}&start_param=zz99zz-0123456789abcdef0123");
    assert_eq!(check_now(&twice), Err(InitDataError::Duplicate));
    let twice = format!("user=%7B%22id%22%3A1%7D&{data}");
    assert_eq!(check_now(&twice), Err(InitDataError::Duplicate));
    let twice = format!("{data}&hash=00");
    assert_eq!(check_now(&twice), Err(InitDataError::Duplicate));
}

#[test]
fn malformed_encoding_or_pairs_are_refused() {
    let data = good(NOW);
    for (bad, error) in [
        (data.replacen("%7B", "%7", 1), InitDataError::Encoding),
        (data.replacen("%7B", "%zz", 1), InitDataError::Encoding),
        (format!("{data}%"), InitDataError::Encoding),
        (
            data.replacen("%D0%90", "%FF%FE", 1),
            InitDataError::Encoding,
        ),
        (format!("{data}&lonely"), InitDataError::Malformed),
        (format!("{data}&&"), InitDataError::Malformed),
        (format!("={data}"), InitDataError::Malformed),
        (String::new(), InitDataError::Size),
        ("a=".repeat(MAX_LEN), InitDataError::Size),
    ] {
        assert_eq!(check_now(&bad), Err(error), "{bad:.80}");
    }
}

#[test]
fn signed_data_without_a_valid_user_is_refused() {
    let date = NOW.to_string();
    let data = signed(&[("auth_date", &date), ("query_id", "q")], TOKEN);
    assert_eq!(check_now(&data), Err(InitDataError::MissingUser));
    for user in [
        "not json",
        r#"{"first_name":"No id"}"#,
        r#"{"id":"741","first_name":"A"}"#,
        r#"{"id":-5,"first_name":"A"}"#,
        r#"{"id":741}"#,
    ] {
        let data = signed(&[("auth_date", &date), ("user", user)], TOKEN);
        assert_eq!(check_now(&data), Err(InitDataError::BadUser), "{user}");
    }
}

#[test]
fn errors_never_show_the_token_or_the_data() {
    let data = good(NOW);
    let hash = data.rsplit_once("hash=").unwrap().1.to_string();
    let errors = [
        check(&data, &Secret::new("1:other"), DEFAULT_MAX_AGE_SECS, NOW),
        check(&data, &Secret::new(TOKEN), 0, NOW + 10),
        check(&format!("{data}&user=x"), &Secret::new(TOKEN), 1, NOW),
    ];
    for error in errors {
        let error = error.expect_err("refused");
        for shown in [error.to_string(), format!("{error:?}")] {
            for secret in [TOKEN, "AAtest", &hash, "741", "asel", "AAHdF6IQ"] {
                assert!(!shown.contains(secret), "{shown} shows {secret}");
            }
        }
    }
}

#[test]
fn the_claimed_language_is_read_without_a_check_and_a_start_must_fit_a_path() {
    assert_eq!(claimed_language(&good(NOW)).as_deref(), Some("kk"));
    assert_eq!(claimed_language("user=%7B%22id%22%3A1%7D&hash=x"), None);
    assert_eq!(claimed_language("%zz"), None);
    assert!(is_start_param("ab12cd-0123456789abcdef0123"));
    for bad in ["", "../me", "a/b", "a b", &"a".repeat(65)] {
        assert!(!is_start_param(bad), "{bad}");
    }
}
