-- Campaigns, their players and one state snapshot per game day.
-- Times are Unix seconds supplied by the caller.

CREATE TABLE campaigns (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    game        TEXT    NOT NULL,
    file_text   TEXT    NOT NULL,  -- the campaign file exactly as the GM wrote it
    parsed_json TEXT    NOT NULL,  -- the checked Campaign as JSON
    created     INTEGER NOT NULL
);

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    name        TEXT    NOT NULL,
    email       TEXT    NOT NULL,
    character   TEXT,              -- NULL until chosen
    secret_hash TEXT    NOT NULL,  -- SHA-256 of the player's secret; the secret is never stored
    joined      INTEGER NOT NULL,
    UNIQUE (campaign_id, name COLLATE NOCASE),
    UNIQUE (campaign_id, email COLLATE NOCASE)
);

CREATE TABLE game_days (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,  -- 0 is the state after setup
    state_json  TEXT    NOT NULL,  -- canonical JSON of the game state
    state_hash  TEXT    NOT NULL,  -- SHA-256 of state_json, hex
    created     INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, day)
);
