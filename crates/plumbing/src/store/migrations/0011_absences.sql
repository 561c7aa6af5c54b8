-- Players away for a while: until then the NMR policy plays for them with
-- no reminders and no notice to the GM, and on return they are told what
-- they missed.

CREATE TABLE absences (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    player      TEXT    NOT NULL COLLATE NOCASE,
    until       INTEGER NOT NULL,  -- Unix seconds: away until this moment
    since_day   INTEGER NOT NULL,  -- the day pending when he said so
    PRIMARY KEY (campaign_id, player)
);
