-- A hold whose cause is a condition the daemon can check again (a seat
-- without a character at setup, too many players without orders) lifts
-- itself once the cause is gone; other holds wait for the GM.

ALTER TABLE daemon_state ADD COLUMN hold_lifts_itself INTEGER NOT NULL DEFAULT 0;

-- Holds already standing for such a cause lift themselves from now on too:
-- their reasons are the daemon's own wording of those two causes.
UPDATE daemon_state SET hold_lifts_itself = 1
WHERE hold_reason LIKE 'the game cannot be set up:%'
   OR hold_reason LIKE '% awaited players sent no orders %';
