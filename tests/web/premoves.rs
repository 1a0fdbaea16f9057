//! Issue 51: a player's premoves on the game's page (docs/premoves.md): the seat carries
//! the signed-in player's own lines (never anyone else's), the panel saves and clears them
//! through `Manager::edit_premoves`, refusals are localized, and the opponent's move is
//! answered at once.

use super::play::{act_signed, sign_in, As};
use super::{start_game, Site};
use reqwest::StatusCode;
use serde_json::{json, Value};
use toguz::model::{Platform, UserRef};

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
    assert_eq!(
        mine["premoves"],
        json!({ "open": true, "shown": [], "typed": [] })
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
