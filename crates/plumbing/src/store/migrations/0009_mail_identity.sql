-- A received mail's sender and its fingerprint (the letter without the
-- headers relays add), so a second delivery of the same letter is
-- recognised; and indexes to find mail by Message-ID and by status.

ALTER TABLE inbound_mail ADD COLUMN sender TEXT NOT NULL DEFAULT '';
ALTER TABLE inbound_mail ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
CREATE INDEX inbound_by_message_id ON inbound_mail (message_id);
-- Each poll looks for the mail not handled yet: without an index it would
-- read past every stored mail's raw bytes.
CREATE INDEX inbound_by_status ON inbound_mail (status);
