//! `toguz run`: the config, platform sections included, is checked before the store opens.

use std::process::Command;

#[test]
fn a_bad_platform_section_fails_before_the_data_directory_is_made() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let config = dir.path().join("toguz.toml");
    for (section, key) in [
        (
            "[telegram]\nenabled = true\ntoken = \"not-a-token\"\n",
            "telegram.token",
        ),
        (
            "[discord]\nenabled = true\ntoken = \"not-a-token\"\n",
            "discord.token",
        ),
        (
            "[telegram]\nenabled = true\ntoken = \"1:abc\"\napi_url = \"ftp://example.org\"\n",
            "telegram.api_url",
        ),
    ] {
        let text = format!(
            "[storage]\npath = {:?}\n{section}",
            data.display().to_string()
        );
        std::fs::write(&config, text).expect("write the config");
        let out = Command::new(env!("CARGO_BIN_EXE_toguz"))
            .args(["run", "--config"])
            .arg(&config)
            .env_remove("TELEGRAM_TOKEN")
            .env_remove("DISCORD_TOKEN")
            .output()
            .expect("run toguz");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{section}: {stderr}");
        assert!(stderr.contains(key), "{section}: {stderr}");
        assert!(
            !stderr.contains("not-a-token"),
            "the token is not shown: {stderr}"
        );
        assert!(!data.exists(), "{section}: the store was opened");
    }
}
