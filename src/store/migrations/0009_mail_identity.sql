-- A received mail's sender and its fingerprint (the letter without the
-- headers relays add), so a second delivery of the same letter is
-- recognised; and an index to find mail by Message-ID.

ALTER TABLE inbound_mail ADD COLUMN sender TEXT NOT NULL DEFAULT '';
ALTER TABLE inbound_mail ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
CREATE INDEX inbound_by_message_id ON inbound_mail (message_id);
