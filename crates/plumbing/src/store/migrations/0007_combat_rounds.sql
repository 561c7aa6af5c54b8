-- Round-by-round combat by mail: a day stopped at a combat round waits for
-- the answers of the players it asked, until the round deadline. The day
-- itself is not stored half way; it is resolved again from its start with
-- the answers so far.

CREATE TABLE combat_rounds (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    day          INTEGER NOT NULL,
    waiting_json TEXT    NOT NULL,  -- the game's record of the decisions waited for
    asked_json   TEXT    NOT NULL,  -- the players asked, a JSON list
    answered_json TEXT   NOT NULL,  -- the players who answered, a JSON list
    answers_json TEXT    NOT NULL,  -- the game's record of every answer of the day so far
    deadline     INTEGER NOT NULL,  -- after it, defaults decide the round
    PRIMARY KEY (campaign_id, day)
);
