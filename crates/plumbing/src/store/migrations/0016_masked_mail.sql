-- A received mail loses its secrets once read; this marks the
-- mail whose stored copy was looked at for them, so each is looked at once.

ALTER TABLE inbound_mail ADD COLUMN secrets_masked INTEGER NOT NULL DEFAULT 0;
CREATE INDEX inbound_mail_unmasked ON inbound_mail (id) WHERE secrets_masked = 0;
