-- A hold whose cause is a condition the daemon can check again (a seat
-- without a character at setup, too many players without orders) lifts
-- itself once the cause is gone; other holds wait for the GM.

ALTER TABLE daemon_state ADD COLUMN hold_lifts_itself INTEGER NOT NULL DEFAULT 0;
