//! Inline offers accepted with their placeholder button (inline feedback off), with the
//! adapter in this process so that the tests can restart it and move its clock (issue 49,
//! findings 12 and 13): the challenger is named by name after a restart, and an offer's
//! data stays used for as long as the offer is good.

use toguz::manager::ManagerConfig;
use toguz::testing::manager::test_config;
use toguz::testing::telegram::bot::{Board, TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{FakeTelegram, TgUser};

const DAY: u64 = 24 * 3600;

/// The bot in this process on a store the test keeps, so that it can be started again.
struct Inline {
    // Declared first so the bot is stopped before the fake server and the store's directory.
    bot: Option<InProcessBot>,
    fake: FakeTelegram,
    dir: tempfile::TempDir,
    config: ManagerConfig,
}

impl Inline {
    fn start(config: ManagerConfig) -> Inline {
        let fake = FakeTelegram::start(TOKEN);
        let dir = tempfile::tempdir().expect("temp dir");
        let bot = InProcessBot::start_with(&fake, config.clone(), dir.path());
        Inline {
            bot: Some(bot),
            fake,
            dir,
            config,
        }
    }

    fn bot(&self) -> &InProcessBot {
        self.bot.as_ref().expect("the bot runs")
    }

    /// Stops the bot once it has taken every update and starts it again on the same store;
    /// returns once the new adapter serves.
    fn restart(&mut self) {
        let taken = self.fake.wait_until(WAIT, |v| v.pending_updates() == 0);
        assert!(taken, "the bot left updates unconfirmed");
        self.bot = None;
        let mark = self.fake.mark();
        let bot = InProcessBot::start_with(&self.fake, self.config.clone(), self.dir.path());
        self.bot = Some(bot);
        let serving = self
            .fake
            .wait_call(mark, WAIT, |c| c.ok() && c.method == "getWebhookInfo");
        assert!(serving.is_some(), "the bot did not start again");
    }

    /// `who` offers a challenge inline and sends it without Telegram telling the bot: the
    /// inline message and its placeholder's data.
    fn offer(&self, who: &TgUser) -> (String, String) {
        let mark = self.fake.mark();
        let query = self.fake.inline_query(who, "");
        let (_, answered) = self
            .fake
            .wait_call(mark, WAIT, |c| c.method == "answerInlineQuery" && c.ok())
            .expect("inline query answered");
        let result = answered.params["results"][0]["id"]
            .as_str()
            .expect("a result")
            .to_string();
        let inline = self.fake.send_inline_result(&query, &result, false);
        let buttons = self.fake.inline_message(&inline).expect("sent").buttons();
        let (_, data) = buttons.first().cloned().expect("a placeholder button");
        assert!(data.starts_with("tgi:"), "{data}");
        (inline, data)
    }

    /// `who` presses `data` on inline message `inline`: the answer's text, if any.
    fn press(&self, inline: &str, who: &TgUser, data: &str) -> Option<String> {
        let q = self.fake.press_inline(inline, who, data);
        let answer = self.fake.wait_answer(&q, WAIT).expect("press answered");
        answer.str("text")
    }

    /// The inline message once it is a board with pit buttons.
    fn board(&self, inline: &str) -> Board {
        let found = self.fake.wait_until(WAIT, |v| {
            v.inline_message(inline)
                .and_then(Board::of)
                .is_some_and(|b| !b.pits.is_empty())
        });
        assert!(found, "{:#?}", self.fake.inline_message(inline));
        let message = self.fake.inline_message(inline).expect("sent");
        Board::of(&message).expect("a board")
    }
}

/// Finding 12: the bot restarted between the offer and its acceptance (its names of the
/// people it saw are gone): the board names the challenger as Telegram named them with the
/// offer, not by their user id.
#[test]
fn an_offer_accepted_after_a_restart_names_its_challenger() {
    let mut inline = Inline::start(test_config());
    let bob = TgUser::new(5301, "Bob", "", "en");
    let carol = TgUser::new(5302, "Carol", "", "en");
    let (message, data) = inline.offer(&bob);
    inline.restart();
    assert_eq!(inline.press(&message, &carol, &data), None);
    let board = inline.board(&message);
    let text = board.caption();
    assert!(text.contains("Bob") && text.contains("Carol"), "{text}");
    assert!(!text.contains(&bob.id.to_string()), "{text}");
}

/// Finding 13: challenges stay open for five days here; three days after an offer was
/// accepted (the store's expiry of old marks has run), its data pressed on another inline
/// message is still used up: no second challenge in the offerer's name.
#[test]
fn an_offer_stays_used_for_as_long_as_it_is_good() {
    let mut config = test_config();
    config.limits.challenge_expiry_secs = 5 * DAY;
    let inline = Inline::start(config);
    let bob = TgUser::new(5311, "Bob", "", "en");
    let carol = TgUser::new(5312, "Carol", "", "en");
    let mallory = TgUser::new(5313, "Mallory", "", "en");
    let (message, data) = inline.offer(&bob);
    assert_eq!(inline.press(&message, &carol, &data), None);
    inline.board(&message);

    inline.bot().clock.advance(3 * DAY);
    let manager = inline.bot().manager.clone();
    inline.bot().block_on(async move { manager.sweep().await });
    let (hers, _) = inline.offer(&mallory);
    let before = inline.fake.inline_message(&hers).expect("sent");
    let answer = inline.press(&hers, &carol, &data).unwrap_or_default();
    assert!(answer.contains("no longer valid"), "{answer}");
    let after = inline.fake.inline_message(&hers).expect("sent");
    assert_eq!(
        (after.text, after.reply_markup),
        (before.text, before.reply_markup)
    );
}
