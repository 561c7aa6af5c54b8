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
