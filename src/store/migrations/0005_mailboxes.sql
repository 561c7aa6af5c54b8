-- The daemon's mail bookkeeping beyond 0004: the UIDVALIDITY last seen for
-- each IMAP mailbox it polls (a change means the server renumbered the
-- mailbox, and the daemon re-scans all of it), and an index so finding the
-- mail not read yet does not scan every stored message.

CREATE TABLE imap_mailboxes (
    mailbox      TEXT    PRIMARY KEY,  -- user@host:port/folder
    uid_validity INTEGER NOT NULL,
    checked      INTEGER NOT NULL      -- when the daemon last selected it
);

CREATE INDEX inbound_mail_status ON inbound_mail (status, received, id);
