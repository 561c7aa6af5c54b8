-- A forger gets nothing bigger than what he sent, and not many
-- of them. Received mail from an unauthenticated sender keeps only its head
-- once the sender is known, a stranger's raw mail is dropped after the
-- campaign's mail.keep_strangers_days, and notices about mail that was not
-- accepted go to an address at most once per mail.notice_interval_minutes.

ALTER TABLE inbound_mail ADD COLUMN delivered_size INTEGER;  -- bytes delivered when raw keeps only the head; NULL when whole
ALTER TABLE inbound_mail ADD COLUMN prune_after INTEGER;     -- a stranger's mail: when its raw may be dropped
ALTER TABLE inbound_mail ADD COLUMN pruned INTEGER;          -- when its raw was dropped (the row stays)
CREATE INDEX inbound_to_prune ON inbound_mail (prune_after) WHERE prune_after IS NOT NULL AND pruned IS NULL;

ALTER TABLE players ADD COLUMN notice_at INTEGER;                        -- the last notice about refused mail sent to the player's address
ALTER TABLE players ADD COLUMN notices_held INTEGER NOT NULL DEFAULT 0;  -- notices held back since then
ALTER TABLE daemon_state ADD COLUMN gm_notice_at INTEGER;                -- the same for the GM's address
ALTER TABLE daemon_state ADD COLUMN gm_notices_held INTEGER NOT NULL DEFAULT 0;
