-- The GM's narrative of a day, as the BIMR GMs wrote one above each day's
-- page: one per day, replaced when he writes it again. The GM's history
-- and the public pages show it; players' reports do not.

CREATE TABLE narratives (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,
    text        TEXT    NOT NULL,
    made        INTEGER NOT NULL,
    UNIQUE (campaign_id, day)
);
