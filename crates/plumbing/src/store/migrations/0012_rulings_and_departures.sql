-- The GM's rulings, kept by the turn that was pending when he made them:
-- they are inputs of that turn like its orders, so a re-run after a
-- rollback carries them out again. A withdrawn ruling is kept, marked.

CREATE TABLE rulings (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,
    text        TEXT    NOT NULL,
    why         TEXT    NOT NULL,
    made        INTEGER NOT NULL,
    withdrawn   INTEGER              -- when the GM withdrew it; NULL while it stands
);
CREATE INDEX rulings_by_day ON rulings (campaign_id, day);

-- A player who left the campaign keeps his row (his orders and reports
-- stay in the history) but gets no more mail. His character leaves the
-- board, or, with character_stays, is played by the campaign's policy for
-- missing orders.
ALTER TABLE players ADD COLUMN left_at INTEGER;
ALTER TABLE players ADD COLUMN character_stays INTEGER NOT NULL DEFAULT 0;
