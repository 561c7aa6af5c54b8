-- What the mail daemon keeps beside the game: per-campaign control state
-- (pause, hold, reminders, GM secret), deadline extensions, the GM's log,
-- bounces, the reports each day produced, and every run of a day with the
-- hashes of its orders, state and reports (the re-run check).

CREATE TABLE daemon_state (
    campaign_id    INTEGER PRIMARY KEY REFERENCES campaigns (id),
    paused         INTEGER NOT NULL DEFAULT 0,
    hold_reason    TEXT,              -- why the pending turn is held; NULL when not held
    approved_day   INTEGER,           -- the GM let this day run despite the hold checks
    reminded_day   INTEGER,           -- the last day whose reminders went out
    last_tick      INTEGER,           -- when the daemon last looked at the campaign
    gm_secret_hash TEXT               -- NULL until `realmgm gm secret` makes one
);

CREATE TABLE deadline_extensions (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,
    seconds     INTEGER NOT NULL,     -- added to the scheduled deadline of the day
    PRIMARY KEY (campaign_id, day)
);

CREATE TABLE gm_log (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER REFERENCES campaigns (id),  -- NULL when no campaign could be told
    at          INTEGER NOT NULL,
    kind        TEXT    NOT NULL,     -- stranger | bounce | robot | rejected | hold | processed | gm | relay | mail
    message     TEXT    NOT NULL,
    inbound_id  INTEGER REFERENCES inbound_mail (id)
);

CREATE TABLE bounces (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    at          INTEGER NOT NULL,
    description TEXT    NOT NULL
);

CREATE TABLE reports (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,
    reader      TEXT    NOT NULL,     -- the player's name; '' for the GM's history
    subject     TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    PRIMARY KEY (campaign_id, day, reader)
);

CREATE TABLE day_runs (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    day          INTEGER NOT NULL,
    orders_hash  TEXT    NOT NULL,    -- SHA-256 of the orders the day was resolved with
    state_hash   TEXT    NOT NULL,
    reports_hash TEXT    NOT NULL,
    at           INTEGER NOT NULL
);
