-- Outgoing mail with an HTML alternative and attachments (a report's map
-- picture). The text body stays in outbox.body and is always sent first.

ALTER TABLE outbox ADD COLUMN html TEXT;

CREATE TABLE outbox_attachments (
    outbox_id INTEGER NOT NULL REFERENCES outbox (id),
    position  INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    mime      TEXT    NOT NULL,
    bytes     BLOB    NOT NULL,
    PRIMARY KEY (outbox_id, position)
);

-- Private messages passed on between players, kept so the day's report can
-- repeat them (issue 7: "private messages received").
CREATE TABLE relayed_messages (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,  -- the turn pending when it was passed on
    recipient   TEXT    NOT NULL,  -- player name
    sender      TEXT    NOT NULL,  -- as signed: character, else player name
    text        TEXT    NOT NULL,
    received    INTEGER NOT NULL
);

CREATE INDEX relayed_messages_day ON relayed_messages (campaign_id, day);
