-- A stored report keeps the HTML alternative and the attachments (the map
-- picture) it was sent with, so a report sent again, by `gm resend` or a
-- player's `report?`, is the same mail as the first time.

ALTER TABLE reports ADD COLUMN html TEXT;

CREATE TABLE report_attachments (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    day         INTEGER NOT NULL,
    reader      TEXT    NOT NULL,  -- as in reports: '' for the GM's history
    position    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    mime        TEXT    NOT NULL,
    bytes       BLOB    NOT NULL,
    PRIMARY KEY (campaign_id, day, reader, position)
);
