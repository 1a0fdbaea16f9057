//! Issue 51: a player's premoves on the game's page (docs/premoves.md): the seat carries
//! the signed-in player's own lines (never anyone else's), the panel saves and clears them
//! through `Manager::edit_premoves`, refusals are localized, and the opponent's move is
//! answered at once; and the board's premove mode, pit by pit, each answer carrying the
//! position the line leads to as the server computed it.

use super::play::{act_signed, post_act, sign_in, As};
use super::{start_game, Site};
use reqwest::StatusCode;
use serde_json::{json, Value};
use toguz::i18n::Lang;
use toguz::manager::ActionError;
use toguz::model::{Platform, UserRef};
use toguz::platform::present;
use toguz::rules::{Position, Side};

async fn seat(site: &Site, key: &str, who: As<'_>) -> Value {
    let As::Cookie(signed) = who else {
        panic!("by cookie")
    };
    let response = super::play::client()
        .get(site.url(&format!("/g/{key}/seat")))
        .header("cookie", &signed.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_sets_and_clears_premoves_on_the_page_and_they_are_played() {
    let site = Site::start().await;
    let m = &site.manager;
    // The chat's default control is correspondence: premoves are open to Black.
    let (view, [white, black]) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    let key = m.page_key(&view.id).await.unwrap();
    let w = sign_in(&site, &white).await;
    let b = sign_in(&site, &black).await;
    let dana = sign_in(&site, &UserRef::new(Platform::Telegram, "5304", "Dana")).await;

    let mine = seat(&site, &key, As::Cookie(&b)).await;
    assert_eq!(mine["actions"]["premoves"], true);
    let panel = &mine["premoves"];
    assert_eq!(
        [
            &panel["open"],
            &panel["shown"],
            &panel["typed"],
            &panel["draft"]
        ],
        [&json!(true), &json!([]), &json!([]), &json!("")]
    );
    let theirs = seat(&site, &key, As::Cookie(&w)).await;
    assert_eq!(theirs["premoves"]["open"], false, "White is to move");
    assert_eq!(
        seat(&site, &key, As::Cookie(&dana)).await["premoves"],
        Value::Null
    );

    let save = json!({ "action": "premoves", "lines": ["3 7 5 2", "4, 4", ""] });
    let (status, answer) = act_signed(&site, &key, &b, &save).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["premoves"]["shown"],
        json!(["3 → 7; 5 → 2", "4 → 4"])
    );
    assert_eq!(answer["premoves"]["typed"], json!(["3 7 5 2", "4 4"]));
    // Only their author sees them: White's seat, and a stranger's, show none.
    assert_eq!(
        seat(&site, &key, As::Cookie(&w)).await["premoves"]["shown"],
        json!([])
    );

    // Refused: a row that is not pits, a line the position refuses, White on their turn, a
    // stranger.
    let bad = json!({ "action": "premoves", "lines": ["3 seven"] });
    let (status, _) = act_signed(&site, &key, &b, &bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let odd = json!({ "action": "premoves", "lines": ["3 7 5"] });
    let (status, answer) = act_signed(&site, &key, &b, &odd).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("ends with your reply"),
        "{answer}"
    );
    let (status, answer) = act_signed(&site, &key, &w, &save).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (status, _) = act_signed(&site, &key, &dana, &save).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // White plays 3 on the page: Black's 7 is played with it.
    let mv = json!({ "action": "move", "ply": 0, "pit": 3 });
    let (status, answer) = act_signed(&site, &key, &w, &mv).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["ply"], 2, "{answer}");
    let mine = seat(&site, &key, As::Cookie(&b)).await;
    assert_eq!(mine["premoves"]["shown"], json!(["5 → 2"]));

    // Cleared from the panel.
    let clear = json!({ "action": "premoves", "lines": [] });
    let (status, answer) = act_signed(&site, &key, &b, &clear).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["premoves"]["shown"], json!([]));
}

fn pit(pit: u8, edits: u32) -> Value {
    json!({ "action": "premove_pit", "pit": pit, "edits": edits })
}

fn step(action: &str, edits: u32) -> Value {
    json!({ "action": action, "edits": edits })
}

fn en(error: ActionError) -> Value {
    json!(present::error_text(&error, Lang::En))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_enters_premoves_on_the_board_and_sees_where_each_line_leads() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, [white, black]) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    let key = m.page_key(&view.id).await.unwrap();
    let w = sign_in(&site, &white).await;
    let b = sign_in(&site, &black).await;
    let dana = sign_in(&site, &UserRef::new(Platform::Telegram, "5305", "Dana")).await;

    // Nothing entered: the preview is the game as it stands, White (the opponent) to choose.
    let mine = seat(&site, &key, As::Cookie(&b)).await["premoves"].clone();
    assert_eq!(
        (mine["draft"].clone(), mine["edits"].clone()),
        (json!(""), json!(0))
    );
    assert_eq!(mine["addable"], false);
    let preview = &mine["preview"];
    assert_eq!(preview["board"]["fen"], json!(Position::default().to_fen()));
    assert_eq!(preview["board"]["to_move"], 0);
    assert_eq!(preview["board"]["last"], Value::Null);
    assert_eq!(preview["pits"], json!([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert_eq!(preview["theirs_next"], true);

    // A pit without the session's token, or from another site: refused, nothing entered.
    let origin = site.url("");
    let (status, _) = post_act(
        &site,
        &key,
        As::Cookie(&b),
        (None, Some(&origin)),
        &pit(3, 0),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let other = (Some(b.csrf.as_str()), Some("https://elsewhere.example"));
    let (status, _) = post_act(&site, &key, As::Cookie(&b), other, &pit(3, 0)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A pit the page did not name, or without the count it was shown at: not an action.
    let (status, _) = act_signed(&site, &key, &b, &pit(10, 0)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = act_signed(
        &site,
        &key,
        &b,
        &json!({ "action": "premove_pit", "pit": 3 }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Their 3: the board is the position after it, as the rules play it; Black to reply.
    let (status, answer) = act_signed(&site, &key, &b, &pit(3, 0)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let mine = &answer["premoves"];
    assert_eq!(
        (mine["draft"].clone(), mine["edits"].clone()),
        (json!("3 → …"), json!(1))
    );
    let mut after = Position::default();
    after.play(3).unwrap();
    let board = &mine["preview"]["board"];
    assert_eq!(board["fen"], json!(after.to_fen()));
    assert_eq!(board["pits"][0], json!(after.row(Side::White)));
    assert_eq!(board["pits"][0][2], 1, "White's 3 sown");
    assert_eq!(board["pits"][1][1], 0, "Black's 2 taken");
    assert_eq!(board["stores"], json!([10, 0]));
    assert_eq!(
        (board["to_move"].clone(), board["last"].clone()),
        (json!(1), json!([0, 3, 1, 2]))
    );
    let legal: Vec<u8> = after.legal_moves().iter().collect();
    assert_eq!(mine["preview"]["pits"], json!(legal));
    assert_eq!(mine["preview"]["theirs_next"], false);
    assert_eq!(
        mine["preview"]["prompt"],
        "Press the pit you will answer with."
    );
    // The game itself did not move.
    assert_eq!(answer["ply"], 0);
    assert_eq!(m.game_page(&key).await.unwrap().view.ply, 0);

    // Refused with the manager's words, nothing changed: Black's empty 2, a page shown before
    // the last pit, a line ending on their move.
    let (status, answer) = act_signed(&site, &key, &b, &pit(2, 1)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let illegal = ActionError::PremoveIllegal {
        line: 1,
        step: 2,
        pit: 2,
    };
    assert_eq!(answer["error"], en(illegal));
    let (status, answer) = act_signed(&site, &key, &b, &pit(7, 0)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(answer["error"], en(ActionError::StaleBoard));
    let (status, answer) = act_signed(&site, &key, &b, &step("premove_add", 1)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(answer["error"], en(ActionError::PremoveLineUnfinished));
    let mine = seat(&site, &key, As::Cookie(&b)).await["premoves"].clone();
    assert_eq!(
        (mine["draft"].clone(), mine["edits"].clone()),
        (json!("3 → …"), json!(1))
    );

    // The player to move and a stranger enter nothing.
    let (status, answer) = act_signed(&site, &key, &w, &pit(3, 0)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(answer["error"], en(ActionError::PremovesOnTheirTurn));
    let (status, _) = act_signed(&site, &key, &dana, &pit(3, 0)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = act_signed(&site, &key, &dana, &step("premove_clear", 1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // My 7, and the line is added; Undo takes back a pit of the next draft, not the line.
    let (status, answer) = act_signed(&site, &key, &b, &pit(7, 1)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let mine = &answer["premoves"];
    assert_eq!(
        (mine["draft"].clone(), mine["addable"].clone()),
        (json!("3 → 7"), json!(true))
    );
    after.play(7).unwrap();
    assert_eq!(mine["preview"]["board"]["fen"], json!(after.to_fen()));
    assert_eq!(mine["preview"]["board"]["to_move"], 0);
    let last = &mine["preview"]["board"]["last"];
    assert_eq!(
        (last[0].clone(), last[1].clone()),
        (json!(1), json!(7)),
        "my 7 marked"
    );
    let (status, answer) = act_signed(&site, &key, &b, &step("premove_add", 2)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["premoves"]["shown"], json!(["3 → 7"]));
    assert_eq!(answer["premoves"]["draft"], "");
    assert_eq!(
        answer["premoves"]["preview"]["board"]["fen"],
        json!(Position::default().to_fen())
    );
    let (_, answer) = act_signed(&site, &key, &b, &pit(4, 3)).await;
    assert_eq!(answer["premoves"]["draft"], "4 → …");
    let (status, answer) = act_signed(&site, &key, &b, &step("premove_undo", 4)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["premoves"]["draft"], "");
    assert_eq!(answer["premoves"]["shown"], json!(["3 → 7"]));
    // Only their author sees them: White's seat has none of it.
    let theirs = seat(&site, &key, As::Cookie(&w)).await["premoves"].clone();
    assert_eq!(theirs["shown"], json!([]));
    assert_eq!(
        (theirs["draft"].clone(), theirs["preview"].clone()),
        (json!(""), Value::Null)
    );

    // White plays 3 on the page: my 7 is played with it, and the preview is the game again.
    let mv = json!({ "action": "move", "ply": 0, "pit": 3 });
    let (status, answer) = act_signed(&site, &key, &w, &mv).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["ply"], 2, "{answer}");
    let mine = seat(&site, &key, As::Cookie(&b)).await["premoves"].clone();
    assert_eq!(mine["shown"], json!([]));
    assert_eq!(mine["preview"]["board"]["fen"], json!(after.to_fen()));

    // Clear all empties the draft too.
    let edits = mine["edits"].as_u64().unwrap() as u32;
    let (status, _) = act_signed(&site, &key, &b, &pit(1, edits)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, answer) = act_signed(&site, &key, &b, &step("premove_clear", edits + 1)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        (
            answer["premoves"]["draft"].clone(),
            answer["premoves"]["shown"].clone()
        ),
        (json!(""), json!([]))
    );
}
