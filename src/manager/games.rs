//! Game actions: play the bot, move, resign, draws, abort, show, list, rematch.

use super::*;

impl Manager {
    /// The game an action without a game id means: the actor's ongoing game in this chat
    /// (`latest`: the newest of several; otherwise several is an error).
    pub(super) fn resolve_game(
        &self,
        actor: &UserRef,
        chat: &ChatRef,
        game: Option<GameId>,
        latest: bool,
    ) -> Result<GameId, ActionError> {
        if let Some(id) = game {
            return Ok(id);
        }
        let mut games = lock(&self.inner.index).games_of(actor, Some(&chat.key()));
        match games.len() {
            0 => Err(ActionError::NoGameHere),
            1 => Ok(games.remove(0)),
            _ if latest => Ok(games.remove(games.len() - 1)),
            _ => Err(ActionError::AmbiguousGame),
        }
    }

    pub(super) async fn play_bot(
        &self,
        actor: UserRef,
        chat: ChatRef,
        level: Level,
        rules: (Variant, TimeControl),
        colour: Option<Side>,
    ) -> Result<Reply, ActionError> {
        let side = colour.unwrap_or_else(|| Side::BOTH[rand::thread_rng().gen_range(0..2)]);
        let mut players = [Player::Human(actor), Player::Bot(level)];
        if side == Side::Black {
            players.swap(0, 1);
        }
        Ok(Reply::Game(
            self.create_game(None, chat, rules, players, false, None)
                .await?,
        ))
    }

    /// A rated game between two people at one keyboard (`toguz play --white A --black B`).
    pub async fn start_local_game(
        &self,
        chat: ChatRef,
        white: UserRef,
        black: UserRef,
        variant: Variant,
        time: Option<TimeControl>,
    ) -> Result<GameView, ActionError> {
        if white == black {
            return Err(ActionError::ChallengeSelf);
        }
        let players = [Player::Human(white), Player::Human(black)];
        let rules = (variant, time.unwrap_or(TimeControl::Correspondence));
        self.create_game(None, chat, rules, players, true, None)
            .await
    }

    pub(super) async fn play_move(
        &self,
        actor: &UserRef,
        id: &str,
        ply: Option<u16>,
        pit: u8,
    ) -> Result<Reply, ActionError> {
        self.act_on_game(actor, id, |game, now| {
            let side = check_player(game, actor, ply)?;
            if game.position.to_move() != side {
                return Err(ActionError::NotYourTurn);
            }
            game.play(pit, now).map_err(ActionError::Illegal)?;
            Ok(())
        })
        .await
    }

    /// A person's change to a game: applied and made durable by `update_game`, answered
    /// with the view, and published so the other player can be told.
    async fn act_on_game(
        &self,
        actor: &UserRef,
        id: &str,
        change: impl FnMut(&mut Game, u64) -> Result<(), ActionError>,
    ) -> Result<Reply, ActionError> {
        let ((), view) = self.update_game(id, change).await?;
        self.publish_acted(&view, actor);
        Ok(Reply::Game(view))
    }

    pub(super) fn publish_acted(&self, view: &GameView, actor: &UserRef) {
        self.publish(Event::Acted {
            view: view.clone(),
            actor: actor.clone(),
        });
    }

    pub(super) async fn resign(
        &self,
        actor: &UserRef,
        id: &str,
        ply: Option<u16>,
    ) -> Result<Reply, ActionError> {
        self.act_on_game(actor, id, |game, _| {
            let side = check_player(game, actor, ply)?;
            game.finish(Some(side.other()), FinishReason::Resigned(side));
            Ok(())
        })
        .await
    }

    pub(super) async fn offer_draw(
        &self,
        actor: &UserRef,
        id: &str,
        ply: Option<u16>,
    ) -> Result<Reply, ActionError> {
        self.act_on_game(actor, id, |game, _| {
            let side = check_player(game, actor, ply)?;
            match game.rec.draw_offer {
                Some(s) if s == side => return Err(ActionError::DrawAlreadyOffered),
                // Offering back is agreeing.
                Some(_) => game.finish(None, FinishReason::Agreed),
                None if game.player(side.other()).is_bot() => {
                    if !bot_accepts_draw(game, side.other()) {
                        return Err(ActionError::BotDeclinesDraw);
                    }
                    game.finish(None, FinishReason::Agreed);
                }
                None => game.rec.draw_offer = Some(side),
            }
            Ok(())
        })
        .await
    }

    pub(super) async fn answer_draw(
        &self,
        actor: &UserRef,
        id: &str,
        accept: bool,
    ) -> Result<Reply, ActionError> {
        self.act_on_game(actor, id, |game, _| {
            let side = check_player(game, actor, None)?;
            if game.rec.draw_offer != Some(side.other()) {
                return Err(ActionError::NoDrawOffer);
            }
            if accept {
                game.finish(None, FinishReason::Agreed);
            } else {
                game.rec.draw_offer = None;
            }
            Ok(())
        })
        .await
    }

    pub(super) async fn abort(&self, actor: &UserRef, id: &str) -> Result<Reply, ActionError> {
        self.act_on_game(actor, id, |game, _| {
            let side = check_player(game, actor, None)?;
            let tournament = game.rec.seat.is_some();
            if !super::view::may_abort(game.ply(), side, tournament) {
                return Err(ActionError::TooLateToAbort);
            }
            if tournament {
                // Only the side that gives up loses a tournament game (issue 49, finding 2).
                game.finish(Some(side.other()), FinishReason::Forfeited(side));
            } else {
                game.finish(None, FinishReason::Aborted);
            }
            Ok(())
        })
        .await
    }

    /// The actor goes berserk: an arena game's player who has not moved yet.
    pub(super) async fn berserk(&self, actor: &UserRef, id: &str) -> Result<Reply, ActionError> {
        self.act_on_game(actor, id, |game, _| {
            let side = check_player(game, actor, None)?;
            if game.rec.arena.is_none() {
                return Err(ActionError::NoBerserkHere);
            }
            // White's first move is ply 0, Black's ply 1.
            if game.ply() > side.index() as u16 {
                return Err(ActionError::TooLateToBerserk);
            }
            let clock = game.rec.clock.as_mut().ok_or(ActionError::NoBerserkHere)?;
            if clock.berserk[side.index()] {
                return Err(ActionError::TooLateToBerserk);
            }
            clock.go_berserk(side);
            Ok(())
        })
        .await
    }

    /// A game as it is now, by id, live or archived: what an adapter redraws a board from
    /// (no actor: reading a game changes nothing and is open to everyone).
    pub async fn game(&self, id: &str) -> Result<GameView, ActionError> {
        let slot = self.game_slot(id).await?;
        let mut view = self.view_of(&*self.enter(&slot).await?).await;
        view.bot_busy = self.bot_busy(id);
        Ok(view)
    }

    /// `user`'s ongoing games in every chat of their platform, as `/games` lists them: a
    /// signed-in player's page (`/me`) shows them. Those where it is their move come
    /// first, least time left first, then the others (oldest first).
    pub async fn ongoing_games(&self, user: &UserRef) -> Result<Vec<GameView>, ActionError> {
        match self.list(user).await? {
            Reply::Games(views) => Ok(views),
            _ => Ok(Vec::new()),
        }
    }

    pub(super) async fn list(&self, actor: &UserRef) -> Result<Reply, ActionError> {
        let ids = lock(&self.inner.index).games_of(actor, None);
        let mut views = Vec::with_capacity(ids.len());
        for id in ids {
            let slot = self.game_slot(&id).await?;
            let view = self.view_of(&*self.enter(&slot).await?).await;
            views.push(view);
        }
        order_for(actor, &mut views);
        Ok(Reply::Games(views))
    }

    pub(super) async fn rematch(
        &self,
        actor: UserRef,
        chat: ChatRef,
        id: &str,
    ) -> Result<Reply, ActionError> {
        // The slot guard drops a finished game from memory again on every way out.
        let slot = self.game_slot(id).await?;
        let mut game = self.enter(&slot).await?;
        let side = game.side_of(&actor).ok_or(ActionError::NotYourGame)?;
        if !game.is_over() {
            return Err(ActionError::GameNotOver);
        }
        if let Some(existing) = game.rec.rematch.clone() {
            // The other player answering a rematch challenge accepts it.
            drop(game);
            return match self.answer(&actor, &existing, Answer::Accept(None)).await {
                Err(ActionError::NoSuchChallenge | ActionError::ChallengeSelf) => {
                    Err(ActionError::RematchExists)
                }
                other => other,
            };
        }
        let swapped = [game.rec.players[1].clone(), game.rec.players[0].clone()];
        let chat = if game.rec.chat.platform == chat.platform {
            game.rec.chat.clone()
        } else {
            chat
        };
        let rules = (game.rec.variant, game.rec.time_control);
        let reply = match game.player(side.other()).user().cloned() {
            None => Reply::Game(
                self.create_game(None, chat, rules, swapped, false, None)
                    .await?,
            ),
            Some(opponent) => {
                let terms = challenges::Terms {
                    variant: rules.0,
                    time: rules.1,
                    time_changeable: false,
                    rated: game.rec.rated,
                    challenger_side: Some(side.other()),
                    rematch_of: Some(game.id().clone()),
                };
                self.challenge(actor, chat, Some(opponent), terms).await?
            }
        };
        let new_id = match &reply {
            Reply::Game(v) => v.id.clone(),
            Reply::Challenge(c) => c.id.clone(),
            _ => return Ok(reply),
        };
        let before = game.rec.clone();
        game.rec.rematch = Some(new_id);
        let revision = game.revision;
        match self.write_game(&before, &mut game.rec, revision).await {
            Ok(revision) => game.revision = revision,
            Err(error) => {
                game.rec = before;
                self.after_conflict(&slot, &mut game, &error).await;
                return Err(error);
            }
        }
        Ok(reply)
    }
}

/// The actor's side in an ongoing game, checking the ply the board was shown at.
fn check_player(game: &Game, actor: &UserRef, ply: Option<u16>) -> Result<Side, ActionError> {
    let side = game.side_of(actor).ok_or(ActionError::NotYourGame)?;
    if game.is_over() {
        return Err(ActionError::GameOver);
    }
    if ply.is_some_and(|p| p != game.ply()) {
        return Err(ActionError::StaleBoard);
    }
    Ok(side)
}

/// The bot takes a draw when its kazan holds fewer balls than the opponent's.
fn bot_accepts_draw(game: &Game, bot: Side) -> bool {
    game.position.store(bot) < game.position.store(bot.other())
}

/// Orders `user`'s games for `/games`: their move first, least time left first (a game
/// nothing times last among them), then the others as they were (oldest first).
fn order_for(user: &UserRef, views: &mut [GameView]) {
    views.sort_by_key(|v| {
        let turn = v.is_turn_of(user);
        (
            !turn,
            if turn {
                v.left_ms().unwrap_or(u64::MAX)
            } else {
                0
            },
        )
    });
}
