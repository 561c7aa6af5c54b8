-- Orders as players sent them (every version kept) and the events each day
-- produced, with who may see them.

CREATE TABLE order_submissions (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    day         INTEGER NOT NULL,
    version     INTEGER NOT NULL,  -- 1, 2, ... per player and day; the highest counts
    text        TEXT    NOT NULL,  -- the orders as written
    parsed_json TEXT,              -- the game's reading of them; NULL if unreadable
    source_mail INTEGER REFERENCES inbound_mail (id),
    received    INTEGER NOT NULL,
    UNIQUE (campaign_id, player_id, day, version)
);

CREATE TABLE events (
    campaign_id    INTEGER NOT NULL REFERENCES campaigns (id),
    day            INTEGER NOT NULL,
    seq            INTEGER NOT NULL,  -- order within the day, from 1
    event_json     TEXT    NOT NULL,
    observers_json TEXT    NOT NULL,  -- JSON array of the player names who may see it
    PRIMARY KEY (campaign_id, day, seq)
);
