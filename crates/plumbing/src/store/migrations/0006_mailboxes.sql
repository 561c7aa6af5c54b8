-- The daemon's bookkeeping beyond 0004: the UIDVALIDITY last seen for each
-- IMAP mailbox it polls (a change means the server renumbered the mailbox,
-- and the daemon re-scans all of it); a setup by mail in progress; and an
-- index so finding the mail not read yet does not scan every stored message.

CREATE TABLE imap_mailboxes (
    mailbox      TEXT    PRIMARY KEY,  -- user@host:port/folder
    uid_validity INTEGER NOT NULL,
    checked      INTEGER NOT NULL      -- when the daemon last selected it
);

CREATE INDEX inbound_mail_status ON inbound_mail (status, received, id);

CREATE TABLE setup_by_mail (
    campaign_id   INTEGER PRIMARY KEY REFERENCES campaigns (id),
    progress_json TEXT    NOT NULL  -- the game's record of the choices so far
);
