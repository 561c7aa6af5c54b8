-- Mail in and out. Every received message is kept raw; the outbox is a
-- queue with retries.

CREATE TABLE inbound_mail (
    id           INTEGER PRIMARY KEY,
    raw          BLOB    NOT NULL,
    message_id   TEXT    NOT NULL,  -- '' when the message had no Message-ID
    content_hash TEXT    NOT NULL,  -- SHA-256 of raw, hex
    received     INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'new',  -- new | processed | rejected
    note         TEXT,              -- why it was rejected, or what it became
    UNIQUE (message_id, content_hash)
);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER REFERENCES campaigns (id),  -- NULL for mail outside any campaign
    recipient    TEXT    NOT NULL,
    subject      TEXT    NOT NULL,
    body         TEXT    NOT NULL,
    headers_json TEXT    NOT NULL DEFAULT '{}',  -- extra headers, name -> value
    status       TEXT    NOT NULL DEFAULT 'pending',  -- pending | sent | failed
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_attempt INTEGER NOT NULL,
    last_error   TEXT,
    created      INTEGER NOT NULL
);

CREATE INDEX outbox_due ON outbox (status, next_attempt);
