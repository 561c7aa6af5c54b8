-- The GM's announcements, kept by the turn that was pending when he made
-- them, so that turn's reports open with them (and a re-run after a
-- rollback repeats them).

CREATE TABLE announcements (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,
    text        TEXT    NOT NULL,
    made        INTEGER NOT NULL
);
CREATE INDEX announcements_by_day ON announcements (campaign_id, day);
