-- News for the webhooks a campaign's [notify] table names, queued like
-- outbound mail and retried with backoff until delivered; and how the
-- daemon watches each IMAP mailbox it reads (waiting in IDLE, polling, or
-- reconnecting after a dropped connection), for `gm status`.

CREATE TABLE news_deliveries (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    hook         TEXT    NOT NULL,   -- the hook's name in [notify]
    kind         TEXT    NOT NULL,   -- day | site | deadline | announcement
    day          INTEGER NOT NULL,   -- the game day the news is about
    news_json    TEXT    NOT NULL,   -- the public news every payload is made from
    status       TEXT    NOT NULL DEFAULT 'pending',  -- pending | sent | failed
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_attempt INTEGER NOT NULL,
    last_error   TEXT,
    created      INTEGER NOT NULL
);

CREATE INDEX news_due ON news_deliveries (status, next_attempt);

CREATE TABLE mailbox_watch (
    mailbox TEXT    PRIMARY KEY,   -- user@host:port/folder, as in imap_mailboxes
    mode    TEXT    NOT NULL,      -- idle | polling | reconnecting
    since   INTEGER NOT NULL,      -- when it entered that mode
    detail  TEXT                   -- why, when reconnecting
);
